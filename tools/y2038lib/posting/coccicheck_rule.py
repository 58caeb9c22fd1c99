# SPDX-License-Identifier: GPL-2.0-only
"""The campaign's rules upstream: one patch per rule adding it to the
kernel's scripts/coccinelle/api/ in coccicheck's format, posted with the
series to the Coccinelle maintainers, so that a maintainer who takes the
clean-ups has new instances caught by `make coccicheck`.

The series stage writes the posting (<series>/coccinelle-rule/: cover
letter, patches, rules.json) from the rule files as they are; `tools/y2038
coccicheck` then runs `make coccicheck MODE=report COCCI=<rule> M=<copy>` on
copies of the directories the series touches, before and after its
patches, and writes what it found into rules.json and the cover letter.
"""
import difflib
import re
import shutil
import textwrap
import time
from pathlib import Path
from typing import Dict, List

from . import covers, posting_rules
from .maintainers import Maintainers
from ..common import COCCI_DIR, DEFAULT_SIGNOFF, Y2038Error, git_env, progress, read_json, run, write_json
from ..engine.apply import commit_contents
from ..engine.rules import parse_rule
from ..records import Posting, SeriesResults

# The campaigns whose rules go upstream, and of those the rules of High
# confidence: ktime-direct's rewrites mean the same on every machine, and on
# 6.12.118 the report modes of its High rules reported every change the
# series makes with them and nothing else (tools/y2038 coccicheck).
# ktime_get_ts64_scalar (Moderate: a _seconds() read may lag tv_sec by a
# tick) reported 1 of its 6 changes there.  ktime-scalar's ktime_set also
# reports sites it must leave to a human (64-bit operands): coccicheck would
# find more than the series converts.
UPSTREAM_CAMPAIGNS = ("ktime-direct",)
UPSTREAM_CONFIDENCE = "High"
# The header fields scripts/coccinelle rules carry; the others (Scope:,
# Exclude:, Introduced:, Keywords:, Prefilter-regex:, Subject:, Sites:, ...)
# drive the toolkit only.
KERNEL_HEADERS = ("SPDX-License-Identifier", "Confidence", "Copyright", "Comments", "Options", "Requires", "URL",
                  "Author")
KERNEL_DIR = "scripts/coccinelle/api"
SECTION = "COCCINELLE/Semantic Patches (SmPL)"
FOLDER = "coccinelle-rule"
RECORD = "rules.json"
CHECK_PLACEHOLDER = ("coccicheck verification: not run yet (`tools/y2038 coccicheck` runs make coccicheck "
                     "MODE=report with each rule before and after the series).")


def kernel_form(text: str) -> str:
    """A toolkit rule as scripts/coccinelle keeps it: the header's
    toolkit-only fields (and their continuation lines) dropped, and the
    toolkit's --max-width (a layout choice of its own) taken out of Options:."""
    lines, kept, in_header, dropping = text.splitlines(), [], True, False
    for line in lines:
        field = re.match(r"//\s*([A-Z][\w-]*):\s*(.*)", line) if in_header else None
        if in_header and line.strip() and not line.startswith("//"):
            in_header = False
        elif field:
            dropping = field.group(1) not in KERNEL_HEADERS
            if field.group(1) == "Options":
                line = re.sub(r"\s*--max-width(\s+|=)\d+", "", line)
        elif in_header and line.startswith("//  "):
            pass  # a continuation line: kept or dropped with its field
        else:
            dropping = False
        if not dropping:
            kept.append(line)
    return "\n".join(kept) + "\n"


def upstream_rules(results: SeriesResults) -> List[str]:
    """The rules of UPSTREAM_CAMPAIGNS of UPSTREAM_CONFIDENCE that made a posted patch, in the catalogue's order."""
    posted = {r for p in results.patches if p.campaign in UPSTREAM_CAMPAIGNS for r in p.rules
              if parse_rule(COCCI_DIR.parent / r).headers.get("Confidence") == UPSTREAM_CONFIDENCE}
    return sorted(posted, key=lambda r: (UPSTREAM_CAMPAIGNS.index(Path(r).parent.name), r))


def kernel_path(rule: str) -> str:
    return f"{KERNEL_DIR}/{Path(rule).name}"


def rule_message(rule: str, version: str, signoff) -> str:
    """The commit message of the patch adding rule."""
    parsed = parse_rule(COCCI_DIR.parent / rule)
    campaign = covers.campaign_info(parsed.campaign)
    body = [covers.wrap(parsed.rationale),
            covers.wrap(f"The clean-up patches \"{campaign['subject']}\" for Linux {version}, posted to their "
                        f"maintainers, were made with this script's patch mode; in the tree, make coccicheck "
                        f"catches new instances.")]
    trailer = f"\n\nSigned-off-by: {signoff}" if signoff else ""
    return f"coccinelle: api: add {Path(rule).stem} script\n\n" + "\n\n".join(body) + trailer + "\n"


def emit(tree, out: Path, results: SeriesResults, signoff, draft: bool) -> None:
    """out/coccinelle-rule/: one patch per upstream rule on the baseline, made
    by git format-patch, addressed per MAINTAINERS' Coccinelle entry."""
    rules = upstream_rules(results)
    if not rules:
        progress(f"no rule posting: no posted patch of {', '.join(UPSTREAM_CAMPAIGNS)}")
        return
    if not (tree.src / KERNEL_DIR).is_dir():
        progress(f"no rule posting: the tree has no {KERNEL_DIR}")
        return
    found = Maintainers(tree).lookup(KERNEL_DIR)
    if found["subsystem"] != SECTION:
        raise Y2038Error(f"{KERNEL_DIR} is in MAINTAINERS section {found['subsystem']!r}, not {SECTION!r}")
    to, cc = addressees(found["recipients"])
    identity = signoff or DEFAULT_SIGNOFF
    parent = tree.baseline
    for rule in rules:
        parent = commit_contents(tree, {kernel_path(rule): kernel_form((COCCI_DIR.parent / rule).read_text()).encode()},
                                 parent, rule_message(rule, tree.version, signoff), env=git_env(identity=identity))
    folder = out / FOLDER
    tree.git("-c", "core.abbrev=12", "format-patch", "-q", "--cover-letter", "--no-signature",
             f"--base={tree.baseline}", "--subject-prefix", posting_rules.posting_subject_prefix(found["tree"], draft),
             *[f"--to={a}" for a in to], *[f"--cc={a}" for a in cc], "-o", str(folder),
             f"{tree.baseline}..{parent}", env=git_env(identity=identity))
    names = sorted(p.name for p in folder.glob("*.patch") if not p.name.startswith("0000-"))
    record = {"version": tree.version, "baseline": tree.baseline, "tree": found["tree"], "route": found["route"],
              "to": to, "cc": cc, "rules": [{"rule": r, "kernel_path": kernel_path(r), "patch": n}
                                           for r, n in zip(rules, names)], "check": None}
    write_json(folder / RECORD, record)
    write_cover(folder, record, results)


def addressees(recipients) -> tuple:
    """(To, Cc): the section's maintainers and supporters, then its lists."""
    to = [r["address"] for r in recipients if r["to"]]
    return to, [r["address"] for r in recipients if not r["to"] and r["address"] not in to]


def blurb(record: dict, results: SeriesResults) -> str:
    subjects = "; ".join(f"\"{covers.campaign_info(c)['subject']}\"" for c in UPSTREAM_CAMPAIGNS)
    lines = [covers.wrap(f"Semantic patches for scripts/coccinelle/api/, one a patch, in coccicheck's format (patch, "
                         f"context, org and report modes).  The clean-up patches {subjects} for Linux "
                         f"{results.version}, posted to the maintainers of the code they change, were made with "
                         f"their patch mode; in the tree, they let make coccicheck catch new instances."), ""]
    for r in record["rules"]:
        summary = parse_rule(COCCI_DIR.parent / r["rule"]).rationale.split("\n\n")[0]
        lines.append(textwrap.fill(f"{Path(r['kernel_path']).name}: {' '.join(summary.split())}", 72,
                                   initial_indent="  ", subsequent_indent="    ", break_long_words=False,
                                   break_on_hyphens=False))
    posting = Posting(dir=FOLDER, tree=record["tree"], prefix="coccinelle: api", part=1, of=1,
                      route=[record["route"]], to=record["to"], cc=record["cc"],
                      patches=[r["patch"] for r in record["rules"]])
    return "\n".join(lines) + "\n\n" + covers.base_section(results, posting) + "\n\n" + check_section(record)


def check_section(record: dict) -> str:
    check = record.get("check")
    if not check:
        return CHECK_PLACEHOLDER
    lines = [covers.wrap(f"coccicheck verification (make coccicheck MODE=report COCCI=<script> M=<copy>, on "
                         f"copies of the {len(check['dirs'])} directories the series touches, before and after "
                         f"its patches):")]
    for r in record["rules"]:
        c = check["rules"][r["rule"]]
        changes, before, after = (sum(map(len, c[k].values())) for k in ("changes", "before", "after"))
        lines.append(f"  {Path(r['kernel_path']).name}: {c['verdict']}: {changes} run{'s' * (changes != 1)} of "
                     f"changed lines in the series, {before} report{'s' * (before != 1)} (one a line) before, "
                     f"{after} after" + ("; each run holds a report, each report is in a run"
                                            if c["verdict"] == "exact" else ""))
        lines += [f"    {problem}" for problem in c["problems"]]
    return "\n".join(lines)


def write_cover(folder: Path, record: dict, results: SeriesResults) -> None:
    cover = folder / covers.COVER_NAME
    text = cover.read_text()
    if covers.BLURB_HERE in text:
        subjects = "; ".join(covers.campaign_info(c)["subject"] for c in UPSTREAM_CAMPAIGNS)
        text = text.replace(covers.SUBJECT_HERE, f"coccinelle: api: add the scripts to {subjects}")
        head, _, tail = text.partition(covers.BLURB_HERE)
    else:
        head, tail = covers.frame(text, len(record["rules"]), cover)
    cover.write_text(head + blurb(record, results) + tail)


def posted_removals(results: SeriesResults, rule: str) -> Dict[str, List[str]]:
    """{file: the lines (stripped) the posted patches remove with rule}."""
    return {f: lines for p in results.patches for f, lines in sorted(p.site_lines.get(rule, {}).items())}


def copy_dirs(tree, dest: Path, dirs, content) -> None:
    """dest/<dir>/<name> for each file directly in each dir of the baseline,
    with content(relpath) (bytes); subdirectories are copied only if listed."""
    if dest.exists():
        shutil.rmtree(dest)
    for folder in dirs:
        listing = tree.git("ls-tree", tree.baseline, f"{folder}/").stdout.splitlines()
        for entry in listing:
            meta, _, relpath = entry.partition("\t")
            if meta.split()[1] == "blob":
                target = dest / relpath
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content(relpath))


def coccicheck(tree, script: Path, copy: Path, scratch: Path, jobs: int) -> Dict[str, List[int]]:
    """{file: [line, ...]} that `make coccicheck MODE=report` reports with
    script in copy (the tree's own Makefile and scripts/coccicheck; output
    directory scratch, so the tree is only read)."""
    proc = run(["nice", "make", "-s", "-C", str(tree.src), f"O={scratch}", "coccicheck", "MODE=report",
                f"COCCI={script}", f"M={copy}", f"J={jobs}"])
    found: Dict[str, List[int]] = {}
    for line in proc.stdout.splitlines():
        m = re.match(rf"{re.escape(str(copy))}/(.+?):(\d+):\d+-\d+: ", line)
        if m:
            found.setdefault(m.group(1), []).append(int(m.group(2)))
    return {f: sorted(lines) for f, lines in sorted(found.items())}


def rule_changes(before: bytes, after: bytes, removed: List[str]) -> List[List[int]]:
    """[first, last] line (1-based) of each run of lines of before that after
    changes and that holds a line the rule removed: one change a reviewer sees."""
    old = before.decode(errors="replace").splitlines()
    matcher = difflib.SequenceMatcher(None, old, after.decode(errors="replace").splitlines(), autojunk=False)
    texts = set(removed)
    return [[i1 + 1, i2] for op, i1, i2, _, _ in matcher.get_opcodes()
            if op != "equal" and any(line.strip() in texts for line in old[i1:i2])]


def verdict(changes: Dict[str, List[List[int]]], before: Dict[str, List[int]], after: Dict[str, List[int]]) -> dict:
    """exact: before, every change the series makes with the rule holds a
    report and every report is in one; after the series, no report."""
    problems = []
    for f in sorted(set(changes) | set(before)):
        lines, runs = before.get(f, []), changes.get(f, [])
        problems += [f"{f}:{first}-{last}: changed by the series, not reported" for first, last in runs
                     if not any(first <= n <= last for n in lines)]
        problems += [f"{f}:{n}: reported, not changed by the series" for n in lines
                     if not any(first <= n <= last for first, last in runs)]
    problems += [f"{f}: still reported after the series, lines {', '.join(map(str, lines))}"
                 for f, lines in after.items()]
    return {"verdict": "exact" if not problems else "differs", "changes": changes, "before": before,
            "after": after, "problems": problems}


def added_file(patch: str) -> str:
    """The content of the one file a patch adds, as it posts it."""
    _, _, hunk = patch.partition("\n@@ -0,0 ")
    lines = hunk.split("\n")[1:]
    return "".join(line[1:] + "\n" for line in lines if line.startswith("+"))


def check_stage(tree, series_dir: Path, jobs: int) -> dict:
    """Runs each rule of the posting with make coccicheck before and after
    the series; writes the result into rules.json and the cover letter."""
    folder = series_dir / FOLDER
    if not (folder / RECORD).exists():
        raise Y2038Error(f"{folder / RECORD} not found: run `tools/y2038 series` first")
    record = read_json(folder / RECORD, "series")
    results = SeriesResults.read(series_dir)
    if record["baseline"] != tree.baseline or results.baseline != tree.baseline:
        raise Y2038Error(f"{series_dir} was made for another baseline: run `tools/y2038 series` again")
    posted = {f: p for p in results.patches for f in p.files}
    removals = {r["rule"]: posted_removals(results, r["rule"]) for r in record["rules"]}
    dirs = sorted({str(Path(f).parent) for files in removals.values() for f in files})
    scratch = tree.state / "coccicheck"

    def baseline_of(relpath: str) -> bytes:
        return (tree.src / relpath).read_bytes()  # the tree is the baseline, never written

    def series_of(relpath: str) -> bytes:
        if relpath not in posted:
            return baseline_of(relpath)
        return tree.git("show", f"{posted[relpath].commit}:{relpath}", binary=True).stdout

    copy_dirs(tree, scratch / "before", dirs, baseline_of)
    copy_dirs(tree, scratch / "after", dirs, series_of)
    record["check"] = {"dirs": dirs, "rules": {}}
    for r in record["rules"]:
        started = time.monotonic()
        script = scratch / Path(r["kernel_path"]).name
        script.write_text(added_file((folder / r["patch"]).read_text()))
        before, after = (coccicheck(tree, script, scratch / side, scratch / "o", jobs) for side in ("before", "after"))
        changes = {f: rule_changes(baseline_of(f), series_of(f), lines) for f, lines in removals[r["rule"]].items()}
        record["check"]["rules"][r["rule"]] = verdict(changes, before, after)
        progress(f"{r['kernel_path']}: make coccicheck MODE=report twice on {len(dirs)} directories: "
                 f"{time.monotonic() - started:.0f} s")
    write_json(folder / RECORD, record)
    write_cover(folder, record, results)
    return record
