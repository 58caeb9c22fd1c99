# SPDX-License-Identifier: GPL-2.0-only
"""The stages' output files as typed records: the apply stage's
matches.json and the hazards stage's hazards.json, which the series stage
reads; the series' results.json, which the build, boot, compare and report
stages read and add to.

Each record knows the stage that writes it, so a file made by an older
toolkit (a key missing) or by a newer one (a key or schema it does not
know) is an error that says which stage to run again.  A field with a None
default is optional: absent from the file when None.  The layout is
SCHEMA; a file without a "schema" key is of layout 1, so the files of this
layout carry none and stay as they were.
"""
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import ClassVar, Dict, List, Optional

from .common import Y2038Error, read_json, write_json

SCHEMA = 1
RESULTS_NAME = "results.json"
MATCHES_NAME = "matches.json"
HAZARDS_NAME = "hazards.json"
# the boot stage sets the guest's RTC to this, a little before 2038-01-19 03:14:07 UTC
BOOT_RTC_BASE = "2038-01-19T03:13:30"
FIX_CHECKS_DIR = "boot-tests/fix-checks"  # in the repository: one folder per fix check


class Record:
    """Base of the records: to_json/from_json over the dataclass fields.
    NESTED: {field: record class} for a field holding records (in a list, or
    as the values of a dict); STAGE: what writes the record."""
    NESTED: ClassVar[dict] = {}
    STAGE: ClassVar[str] = "series"
    DICT_OF: ClassVar[bool] = False  # held as the values of a dict ({arch: record}), not in a list
    KEYS: ClassVar[Dict[str, str]] = {}  # {field: its key in the file}, for a key Python cannot name

    def to_json(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.default is None:
                continue
            out[self.KEYS.get(f.name, f.name)] = dump(value)
        return out

    @classmethod
    def from_json(cls, data, where: str):
        """where: the file, for the error message."""
        if not isinstance(data, dict):
            raise cls.stale(where, f"a {cls.__name__} is not a JSON object")
        known = {cls.KEYS.get(f.name, f.name): f for f in fields(cls)}  # by their keys in the file
        required = [k for k, f in known.items() if f.default is MISSING]
        missing = [k for k in required if k not in data]
        if missing:
            raise cls.stale(where, f"{cls.__name__} without {', '.join(missing)} (made by an older toolkit)")
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise cls.stale(where, f"{cls.__name__} with {', '.join(unknown)}, unknown to this toolkit")
        values = {}
        for key, value in data.items():
            name = known[key].name
            kind = cls.NESTED.get(name)
            values[name] = value if kind is None or value is None else load(kind, value, where)
        return cls(**values)

    @classmethod
    def stale(cls, where: str, what: str) -> Y2038Error:
        return Y2038Error(f"{where}: {what}: run `tools/y2038 {cls.STAGE}` again")


class StageFile(Record):
    """A stage's whole output, the file NAME in a directory (the tree's
    state directory, or a series)."""
    NAME: ClassVar[str] = ""

    @classmethod
    def read(cls, folder: Path):
        path = folder / cls.NAME
        return cls.from_json(read_layout(path, cls), str(path))

    def write(self, folder: Path) -> None:
        write_json(folder / self.NAME, self.to_json())


def read_layout(path: Path, record) -> dict:
    """The JSON object in path, checked to be of this toolkit's layout, less
    its "schema" key; record: the class it is read into (its stage)."""
    data = read_json(path, record.STAGE)
    if not isinstance(data, dict):
        return data
    if data.get("schema", 1) != SCHEMA:
        raise record.stale(str(path), f"layout {data['schema']}, this toolkit reads {SCHEMA}")
    return {k: v for k, v in data.items() if k != "schema"}


def dump(value):
    if isinstance(value, Record):
        return value.to_json()
    if isinstance(value, list):
        return [dump(v) for v in value]
    if isinstance(value, dict):
        return {k: dump(v) for k, v in value.items()}
    return value


def load(kind, value, where: str):
    if isinstance(value, list):
        return [kind.from_json(v, where) for v in value]
    if isinstance(value, dict) and kind.DICT_OF:
        return {k: kind.from_json(v, where) for k, v in value.items()}
    return kind.from_json(value, where)


@dataclass
class RuleMatches(Record):
    """What one patch rule of a campaign did in the apply stage (engine/apply.py)."""
    STAGE: ClassVar[str] = "apply"
    name: str
    path: str  # cocci/<campaign>/<rule file>
    subject: str
    candidates: int  # files with one of its tokens, in its largest round
    seconds: float
    files: Dict[str, int]  # per file it changed, its sites
    sites: int
    timeouts: Dict[str, str]  # per file, spatch's detail
    failed: Dict[str, str]
    unparsed: Dict[str, int]  # per file, the lines spatch could not parse
    left: Dict[str, List[str]]  # per file, "file:line: why" of what it leaves to convert by hand
    removed: Dict[str, List[str]]  # per file, the lines it changed (stripped)
    listed: Optional[Dict[str, List[str]]] = None  # per file, the names a listing rule converted
    # per file, the named sub-rules that changed it (engine/smpl.py), for a rule
    # whose transforming sub-rules all carry a "// Rewrite:" annotation
    fired: Optional[Dict[str, List[str]]] = None


@dataclass
class CampaignMatches(Record):
    """One campaign's patch rules over the tree, as one commit."""
    STAGE: ClassVar[str] = "apply"
    NESTED: ClassVar[dict] = {"rules": RuleMatches}
    name: str
    rules: List[RuleMatches]  # those that ran, in the campaign's order
    files: List[str]  # changed
    sites: int
    unsettled: Dict[str, str]  # files the rules did not settle on, with why
    commit: Optional[str]  # None (null in the file): nothing changed


@dataclass
class Matches(StageFile):
    """matches.json: the apply stage's campaigns, each a commit on the last."""
    STAGE: ClassVar[str] = "apply"
    NAME: ClassVar[str] = MATCHES_NAME
    NESTED: ClassVar[dict] = {"campaigns": CampaignMatches}
    version: str
    baseline: str
    spatch: str  # spatch --version
    campaigns: List[CampaignMatches]  # in the catalogue's order
    final: str  # the commit of the last campaign (the baseline if none changed anything)
    idempotent: bool
    idempotence_check: Dict[str, float]  # its seconds and spatch_runs
    spatch_runs: int
    cache_hits: int
    seconds: float
    inputs: str  # apply.stage_inputs(): a record of the same inputs is kept, not made again

    def changed_files(self) -> List[str]:
        return sorted({f for c in self.campaigns for f in c.files})


@dataclass
class Hazard(Record):
    """One line a report-only rule saw (posting/hazards.py)."""
    STAGE: ClassVar[str] = "hazards"
    KEYS: ClassVar[Dict[str, str]] = {"cls": "class"}
    file: str
    line: int
    cls: str  # y2038 (signed 32 bits) or y2106 (unsigned)
    why: str
    rule: str
    kind: str  # what the value is: posting/hazard_triage.py
    code: str  # the reported line's code, squeezed: what a decision names it by (hazard_decisions.py)


@dataclass
class HazardRule(Record):
    """A report-only rule's run: its candidate files and reports."""
    STAGE: ClassVar[str] = "hazards"
    rule: str
    candidates: int
    reports: int


@dataclass
class Hazards(StageFile):
    """hazards.json: the hazards stage's reports."""
    STAGE: ClassVar[str] = "hazards"
    NAME: ClassVar[str] = HAZARDS_NAME
    NESTED: ClassVar[dict] = {"rules": HazardRule, "hazards": Hazard}
    version: str
    baseline: str
    rules: List[HazardRule]
    hazards: List[Hazard]
    seconds: float


@dataclass
class Patch(Record):
    """One patch of the series; the build stage adds the optional fields."""
    name: str  # <posting dir>/<file name>
    campaign: str
    subsystem: str
    tree: str
    files: List[str]
    rules: List[str]
    sites: int
    rewrites: int
    prefix: str
    recipients: List[dict]
    commit: str
    site_lines: Dict[str, Dict[str, List[str]]]  # per rule and file, the lines it changed
    checkpatch: dict  # {"errors": [...], "warnings": [...]}
    build: Optional[Dict[str, str]] = None  # per architecture: ok, failed, not-built
    build_errors: Optional[Dict[str, List[str]]] = None
    lines_compiled: Optional[List[int]] = None  # [seen by the compiler, changed]
    lines_not_compiled: Optional[List[str]] = None
    new_warnings: Optional[List[str]] = None
    verified: Optional[bool] = None
    reason: Optional[str] = None  # why not verified


# what the build stage adds to each patch
BUILD_PATCH_KEYS = ("build", "build_errors", "lines_compiled", "lines_not_compiled", "new_warnings",
                    "verified", "reason")


@dataclass
class Posting(Record):
    """One posting: a folder of the series, one maintainer tree."""
    dir: str
    tree: str
    prefix: str
    part: int
    of: int
    route: List[str]
    to: List[str]
    cc: List[str]
    patches: List[str]  # names, as in Patch.name
    fix: Optional[bool] = None  # a posting of fixes (Kind: fix), sent before the clean-ups
    mail_prefix: Optional[str] = None  # a fix posting's [PATCH ...] prefix; clean-ups': the tree's


@dataclass
class HeldCleanup(Record):
    """A patch of clean-ups not posted: its tree does not take standalone
    clean-ups (posting_rules.CLEANUP_POLICIES: the document that says so)."""
    prefix: str
    campaign: str
    subsystem: str
    tree: str
    files: List[str]
    rules: List[str]
    sites: int
    document: str
    section: str
    says: str  # the section, quoted
    fixed_by: Optional[str] = None  # a fix mainline has made since: its commit, cited (posting/mainline_fixes.py)
    machines: Optional[str] = None  # a fix of a 32-bit bug: the only, 64-bit, architectures its code runs on


@dataclass
class BuildSummary(Record):
    """The build stage's "build": what the boot stage needs (baseline,
    verified, verified_head) and the figures of the run."""
    STAGE: ClassVar[str] = "build"
    baseline: str
    verified: List[str]
    verified_head: Optional[str] = None  # the baseline with the verified patches applied, in order
    not_verified: Optional[Dict[str, str]] = None  # name: reason
    arches: Optional[Dict[str, Dict[str, int]]] = None  # per architecture, patches per status
    lines_compiled: Optional[List[int]] = None
    config: Optional[str] = None
    seconds: Optional[float] = None


@dataclass
class BootResult(Record):
    """One kernel's boot on one architecture."""
    DICT_OF: ClassVar[bool] = True
    STAGE: ClassVar[str] = "boot"
    verdict: str  # pass or fail
    tests: List[dict]  # {"name", "result": pass, fail or skip}
    problems: List[str]
    seconds: float
    build_seconds: float
    log: Optional[str] = None
    legacy_build_warnings: Optional[list] = None
    suites: Optional[dict] = None  # boot_suites.plan(): {"kunit", "selftests", "why"}
    reused: Optional[bool] = None  # an earlier boot with the same inputs
    pristine: Optional[str] = None  # why the pristine kernel was not booted
    regressions: Optional[List[str]] = None
    known_failures: Optional[List[str]] = None
    # of the series' changed .c files, those this kernel's build made an object of:
    # {"built_in": linked into the booted image, "module": built as a module, never loaded}
    compiled: Optional[Dict[str, List[str]]] = None
    config: Optional[List[str]] = None  # the fragments merged on tinyconfig, relative to the repository

    def counts(self) -> dict:
        return {r: sum(t["result"] == r for t in self.tests) for r in ("pass", "fail", "skip")}


@dataclass
class CompareSummary(Record):
    """What `y2038 compare` leaves in the newer series: what its cover
    letters say, and the fate of each site gone upstream, which needs the
    newer tree (so a machine without it says the same)."""
    STAGE: ClassVar[str] = "compare"
    old: Dict[str, str]  # {"dir", "version"} of the older series
    totals: Dict[str, int]  # gone_upstream, moved, kept, new
    rules: Dict[str, Dict[str, int]]  # per rule: gone_upstream, kept, new
    fates: Dict[str, int]  # sites gone upstream per fate, moved ones aside
    patches: Dict[str, int]  # patches per range-diff status: = ! < >
    gone_sites: List[List[str]]  # [rule, file, line, fate] of every site gone upstream


@dataclass
class FixProof(Record):
    """A fix patch's proof: a boot check across 2038 on the kernel without
    the fix and with it (verification/fix_proofs.py)."""
    DICT_OF: ClassVar[bool] = True
    STAGE: ClassVar[str] = "boot"
    verdict: str  # proven, "not proven: ...", error, or "no guest check: ..."
    check: Optional[str] = None  # its folder in FIX_CHECKS_DIR
    suite: Optional[str] = None  # its KUnit suite
    arch: Optional[str] = None
    before: Optional[dict] = None  # {"verdict", "cases", "problems", ...} without the fix
    after: Optional[dict] = None  # the same with it
    seconds: Optional[float] = None
    reused: Optional[bool] = None  # an earlier proof with the same inputs

    def outcome(self, when: str) -> dict:
        """The boot "before" or "after" the fix (an error if it never ran)."""
        return getattr(self, when) or {"verdict": "error", "cases": [], "problems": ["not booted"]}

    def failing(self, when: str) -> List[str]:
        """The suite's cases that did not pass, before or after the fix."""
        return [c["name"].rsplit(".", 1)[-1] for c in self.outcome(when)["cases"] if c["result"] != "pass"]


@dataclass
class SeriesResults(Record):
    """results.json: the series stage's postings and patches, and what the
    later stages add (build, boot, boot_pristine, compare, unverified)."""
    NESTED: ClassVar[dict] = {"postings": Posting, "patches": Patch, "build": BuildSummary,
                              "boot": BootResult, "boot_pristine": BootResult, "compare": CompareSummary,
                              "fix_proofs": FixProof, "held": HeldCleanup}
    version: str
    baseline: str
    draft: bool
    source: str
    campaigns: List[str]  # in the catalogue's order
    postings: List[Posting]
    patches: List[Patch]
    build: Optional[BuildSummary] = None
    boot: Optional[Dict[str, BootResult]] = None
    boot_pristine: Optional[Dict[str, BootResult]] = None
    compare: Optional[CompareSummary] = None
    unverified: Optional[List[str]] = None  # patches taken out of the postings, with the reason
    fix_proofs: Optional[Dict[str, FixProof]] = None  # per fix patch (Patch.name)
    held: Optional[List[HeldCleanup]] = None  # clean-ups not posted: their trees take none
    base: Optional[Dict[str, str]] = None  # what the baseline is (tree.Tree.base): "kind" tarball, git or dir

    @classmethod
    def read(cls, series_dir: Path, redoing: Optional[str] = None) -> "SeriesResults":
        """redoing: the field of the stage reading it, which it writes anew:
        that field, if made by another toolkit, is dropped, not an error."""
        path = series_dir / RESULTS_NAME
        data = read_layout(path, cls)
        if redoing and isinstance(data, dict) and data.get(redoing) is not None:
            try:
                load(cls.NESTED[redoing], data[redoing], str(path))
            except Y2038Error:
                data = {k: v for k, v in data.items() if k != redoing}
        return cls.from_json(data, str(path))

    def write(self, series_dir: Path) -> None:
        write_json(series_dir / RESULTS_NAME, self.to_json())

    def patch_named(self) -> dict:
        return {p.name: p for p in self.patches}

    def patches_of(self, posting: Posting) -> list:
        by_name = self.patch_named()
        return [by_name[n] for n in posting.patches]

    def fix_patches(self) -> list:
        """The patches of the fix postings, in series order."""
        return [p for posting in self.postings if posting.fix for p in self.patches_of(posting)]

    def built(self, baseline: str, series_dir: Path) -> BuildSummary:
        """The build results, if made for this baseline."""
        if not self.build or self.build.baseline != baseline:
            raise Y2038Error(f"{series_dir}: no build results for this baseline: run `tools/y2038 build` first")
        return self.build
