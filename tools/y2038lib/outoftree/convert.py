# SPDX-License-Identifier: GPL-2.0-only
"""convert: the whole catalogue on out-of-tree code (any directory of sources).

The apply stage's machinery (same rules, same order, same cache, same
idempotence check) runs on a directory instead of a kernel tree, without
rule scopes (an out-of-tree driver has its own layout).  DIR is only read.
OUT gets a copy of DIR with the converted files, and beside the sources:
  y2038-convert.patch  the change, as a reviewable unified diff (a/ = DIR, b/ = OUT)
  y2038-convert.txt    sites per rule, and what is left: what the rules saw
                       but could not convert, and the y2038 hazards
  y2038-convert.json   the same, for tools
"""
import difflib
import fnmatch
import json
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

from . import api_availability, build_units, compat_fallbacks, driver_types, dual_build, feature_macros, kernel_versions
from .isolation import STEPS, IsolatingApplier, failure
from ..engine.apply import Applier, check_rule_parses, idempotence_offenders, removed_lines, run_campaign
from ..engine.spatch import spatch_command
from ..common import REPO, Y2038Error, digest_stream, progress, run, write_json
from ..csource import blank_comments_and_literals

OUTPUTS = ("y2038-convert.patch", "y2038-convert.txt", "y2038-convert.json")
# the whole-driver pass runs before this campaign: its per-file rules then
# see the driver's own declarations already converted
WHOLE_DRIVER_BEFORE = "legacy-time-api"
REPORT_LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):[\d-]+: (?P<what>.*)$")
FILE_LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):")  # any report entry on a line


class SourceDir:
    """A directory of sources seen the way the apply stage sees a tree."""

    def __init__(self, root: Path):
        self.src = root
        self.files = sorted(str(p.relative_to(root)) for p in root.rglob("*")
                            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
                            and p.name not in OUTPUTS)
        self.baseline = "dir:" + digest_stream(f"{r}\0".encode() + (root / r).read_bytes() for r in self.files)
        self.version = root.name

    def files_with_tokens(self, tokens, globs) -> dict:
        found: Dict[str, Set[str]] = {t: set() for t in tokens}
        if not tokens:
            return found
        words = re.compile(rb"\b(" + b"|".join(re.escape(t.encode()) for t in tokens) + rb")\b")
        for relpath in self.files:
            if any(fnmatch.fnmatch(relpath, g) for g in globs):
                for token in set(words.findall((self.src / relpath).read_bytes())):
                    found[token.decode()].add(relpath)
        return found


def check_dirs(src: Path, out: Path) -> None:
    if not src.is_dir():
        raise Y2038Error(f"{src}: no such directory")
    src, out = src.resolve(), out.resolve()
    if out == src or src in out.parents or out in src.parents:
        raise Y2038Error(f"--out {out} must be outside {src} (and not contain it): DIR is never written")
    if out.exists() and not out.is_dir():
        raise Y2038Error(f"--out {out} exists and is not a directory: choose another --out (nothing there is "
                         f"overwritten)")
    if out.exists() and any(out.iterdir()) and not (out / "y2038-convert.json").exists():
        raise Y2038Error(f"{out} exists and was not written by `y2038 convert`: choose another --out "
                         f"(nothing there is overwritten)")


def unified_diff(relpath: str, before, after: bytes) -> str:
    """before: None for a new file."""
    lines = difflib.unified_diff((before or b"").decode(errors="replace").splitlines(True),
                                 after.decode(errors="replace").splitlines(True),
                                 f"a/{relpath}" if before is not None else "/dev/null", f"b/{relpath}")
    return f"diff -u a/{relpath} b/{relpath}\n" + "".join(lines)


def still_reported(applier, rule, root: Path, files, timeout: int):
    """The report-mode lines of a rule over the converted files: what is
    left.  Only files holding one of the rule's tokens go to spatch, and
    each file's lines are cached by rule and content, as patch results are."""
    if rule.kind != "cocci" or not re.search(r"^virtual\s+report\b", rule.text, re.M) or not files:
        return []
    pattern = rule.token_regex()
    found, todo = [], {}
    for relpath in files:
        content = (root / relpath).read_bytes()
        if not pattern.search(content):
            continue
        key = applier.cache.key(rule, relpath, content, f"report timeout={timeout}")
        cached = applier.cache.get(key)
        if cached is None:
            todo[relpath] = key
        else:
            found += cached["report"]
    if todo:
        with tempfile.NamedTemporaryFile("w", suffix=".groups") as groups:
            groups.write("\n\n".join(todo) + "\n")
            groups.flush()
            proc = run(spatch_command("--sp-file", rule.path, "-D", "report", "--very-quiet", "--timeout", timeout,
                                      *rule.options, "--file-groups", groups.name), cwd=root, check=False)
        reported = [(line, m.group("file")) for line in proc.stdout.splitlines() if (m := REPORT_LINE.match(line))]
        for relpath, key in todo.items():
            mine = [line for line, path in reported if path == relpath]
            if proc.returncode == 0:  # a crashed run is not a result to keep
                applier.cache.put(key, {"status": "unchanged", "report": mine})
            found += mine
    return found


def convert(src: Path, out: Path, campaign_rules, jobs: int, timeout: int,
            min_kernel: Optional[str] = None, max_kernel: Optional[str] = None, compat_header: bool = True) -> dict:
    """DIR -> OUT for the kernels the code supports: min_kernel/max_kernel
    ('X.Y'), else the range read from its version conditionals.  With
    min_kernel, conditionals decided for the whole range are resolved first
    (dead compat code removed).  With compat_header, a name some kernel of
    the range lacks is written anyway where compat_fallbacks can provide it
    (OUT/y2038-compat.h, included where used)."""
    check_dirs(src, out)
    source = SourceDir(src.resolve())
    if not any(fnmatch.fnmatch(f, "*.[ch]") for f in source.files):
        raise Y2038Error(f"{src}: no .c or .h file to convert")
    campaign_rules, histories = out_of_tree_rules(campaign_rules)
    c_files = [f for f in source.files if fnmatch.fnmatch(f, "*.[ch]")]
    texts = {f: (source.src / f).read_bytes().decode(errors="replace") for f in c_files}
    project = kernel_versions.Project(texts)
    kernel_range = supported_range(project, min_kernel, max_kernel)
    progress(f"kernels supported: {kernel_range.text()}")
    applier = IsolatingApplier(source, jobs, timeout, use_scope=False)
    applier.own_directory_includes = True
    fallbacks = usable_fallbacks(texts, kernel_range) if compat_header else set()
    modules = build_units.ModuleRanges(source.src, project, min_kernel, max_kernel)
    applier.site_filter = modules.site_filter(
        lambda unit_range: api_availability.SiteFilter(project, unit_range, histories, fallbacks), kernel_range)
    shown = source.src.relative_to(REPO) if REPO in source.src.parents else source.src
    report: Dict[str, Any] = {"source": str(shown), "spatch": applier.version, "campaigns": [],
              "kernels": {"min": kernel_versions.show(kernel_range.lo), "max": kernel_versions.show(kernel_range.hi),
                          "text": kernel_range.text()},
              "modules": modules.report(),
              "problems": [], "compat": {"branches_dropped": 0, "flag_branches_dropped": 0, "files": {}}}
    if min_kernel:
        report["compat"] = drop_compat_branches(applier, project, kernel_range, texts, report["problems"])
    report["problems"] += [f"{relpath}: version conditionals not read ({why}): every line taken as compiled "
                           f"for the whole range" for relpath, why in sorted(project.problems.items())]
    pass_read: Dict[str, str] = {}
    run_campaigns(applier, campaign_rules, report, lambda: whole_driver_pass(applier, c_files, project,
                                                                            kernel_range, fallbacks, modules,
                                                                            pass_read))
    report["shims"] = compat_shims(applier, texts, kernel_range, histories)
    context = Conversion(applier, source, campaign_rules, histories, project, kernel_range, texts, report, modules,
                         pass_read)
    write_whole(out, lambda scratch: write_out(scratch, context, fallbacks, jobs, timeout))
    return report


def out_of_tree_rules(campaign_rules):
    """The campaigns without the rules written for the core's own files
    (// Out-of-tree: no), each rule checked, and {rule path: RuleHistory}."""
    campaign_rules = [(c, [r for r in rules if r.out_of_tree]) for c, rules in campaign_rules]
    histories = {}
    for _, rules in campaign_rules:
        for rule in rules:
            check_rule_parses(rule)
            try:
                histories[rule.relpath] = api_availability.RuleHistory.of(rule)
            except ValueError as err:
                raise Y2038Error(str(err)) from None
    return campaign_rules, histories


def supported_range(project, min_kernel, max_kernel):
    try:
        kernel_range = project.default_range(min_kernel, max_kernel)
    except ValueError as err:
        raise Y2038Error(str(err)) from None
    if kernel_range.lo > kernel_range.hi:
        raise Y2038Error(f"--min-kernel {min_kernel} is newer than --max-kernel "
                         f"{max_kernel or kernel_versions.NEWEST_PACKAGED}")
    return kernel_range


def usable_fallbacks(texts: dict, kernel_range) -> set:
    """The compat fallbacks the range needs and the code uses, less those
    the code defines itself (its own compat definitions win)."""
    original_names = {name for text in texts.values() for name in re.findall(r"\b\w+\b", text)}
    defined_here = {name for text in texts.values()
                    for name, _ in api_availability.shim_definitions(text, set(compat_fallbacks.FALLBACKS)).values()}
    return compat_fallbacks.usable(kernel_range, original_names) - defined_here


def run_campaigns(applier, campaign_rules, report: dict, whole_driver) -> None:
    """Every campaign in order, the whole-driver pass (whole_driver())
    before WHOLE_DRIVER_BEFORE, then the idempotence check."""
    applier.index_tokens([r for _, rules in campaign_rules for r in rules if r.patch_mode])
    for campaign, rules in campaign_rules:
        if campaign == WHOLE_DRIVER_BEFORE:
            report["whole_driver"] = whole_driver()
            report["problems"] += report["whole_driver"].pop("problems")
        if any(r.patch_mode for r in rules):
            entry, _ = run_campaign(applier, campaign, rules)
            # convert commits nothing: its report's campaigns have no commit
            report["campaigns"].append({k: v for k, v in entry.to_json().items() if k != "commit"})
            report["problems"] += [f"{relpath}: {why} [campaign {campaign}]"
                                   for relpath, why in sorted(entry.unsettled.items())]
    offenders = idempotence_offenders(applier, campaign_rules)
    report["idempotent"] = not offenders
    report["problems"] += [f"{relpath}: not idempotent: {path} changes it again; kept as the other rules "
                           f"left it [{path}]" for relpath, paths in sorted(offenders.items()) for path in paths]


@dataclass
class Conversion:
    """What the rules did to a directory, for the steps that write OUT."""
    applier: Applier
    source: SourceDir
    campaign_rules: list
    histories: dict
    project: kernel_versions.Project
    kernel_range: kernel_versions.KernelRange
    texts: dict  # the original .c/.h files
    report: dict  # filled in as OUT is written
    modules: Optional[build_units.ModuleRanges] = None  # each file's range, from its module
    pass_read: dict = field(default_factory=dict)  # the files as the whole-driver pass read them


def write_whole(out: Path, fill) -> None:
    """fill(scratch) writes OUT's content in a scratch directory beside it,
    which then replaces OUT: an error leaves OUT as it was."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".y2038-convert-", dir=out.parent))
    try:
        fill(scratch)
        if out.exists():
            shutil.rmtree(out)
        scratch.rename(out)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch)


def write_out(scratch: Path, conv: Conversion, fallbacks: set, jobs: int, timeout: int) -> None:
    """The converted copy, then what is left in it, and the three reports."""
    source, report = conv.source, conv.report
    for relpath in source.files:
        (scratch / relpath).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source.src / relpath, scratch / relpath)
    changed = {f: c for f, c in conv.applier.current.items() if c != (source.src / f).read_bytes()}
    for relpath in changed:  # the accessors' header, where the file has no way to it
        changed[relpath] = with_timekeeping_include((source.src / relpath).read_bytes(), changed[relpath])
    for relpath in unbalanced_by_rules(conv, changed):
        del changed[relpath]  # the original, as it was: never a file the preprocessor refuses
    report["compat_header"] = add_compat_header(changed, source, lambda relpath: module_range(conv, relpath), fallbacks)
    for relpath, content in changed.items():
        (scratch / relpath).write_bytes(content)
    blocks: Dict[str, list] = {}
    for kept in report.get("whole_driver", {}).get("kept", []):  # its lines as OUT has them, like every other entry
        kept["why"] = on_written_lines(kept["why"], conv.pass_read, changed, blocks)
    left, hazards = still_left(conv, scratch, jobs, timeout)
    kept, refused = version_decisions(conv.applier)
    report["changed"] = sorted(changed)
    report["version_check"] = version_check(conv, changed)
    report["kept_for_older_kernels"] = sorted(set(kept), key=sort_key)
    report["needs_newer_kernel"] = sorted(set(refused), key=sort_key)
    report["left"] = left_by_hand(conv, left, lambda relpath: changed.get(relpath) or conv.applier.content(relpath))
    report["hazards"] = sorted(set(hazards), key=sort_key)
    (scratch / OUTPUTS[0]).write_text("".join(
        unified_diff(f, (source.src / f).read_bytes() if f in source.files else None, changed[f])
        for f in sorted(changed)))
    (scratch / OUTPUTS[1]).write_text(report_text(report))
    write_json(scratch / OUTPUTS[2], report)


def on_written_lines(entry: str, read: dict, changed: dict, blocks: dict) -> str:
    """A report entry "relpath:line: ..." on a file as read (before the
    rules after the reading, dead branches already dropped), with the line
    it has in the written file: the same line, or where a later rewrite of
    it stands; blocks caches each file's diff."""
    m = FILE_LINE.match(entry)
    if not m or m.group("file") not in changed or m.group("file") not in read:
        return entry
    relpath, line = m.group("file"), int(m.group("line"))
    if relpath not in blocks:
        after = changed[relpath].decode(errors="replace").split("\n")
        blocks[relpath] = difflib.SequenceMatcher(None, read[relpath].split("\n"), after,
                                                  autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in blocks[relpath]:
        if i1 < line <= i2:
            # a rewritten run: the same share of the way through its replacement (6 lines merged into 3)
            moved = line - i1 + j1 if tag == "equal" else j1 + 1 + (line - 1 - i1) * max(j2 - j1, 1) // (i2 - i1)
            return f"{relpath}:{moved}:{entry[m.end():]}"
    return entry


def unbalanced_by_rules(conv: Conversion, changed: dict) -> list:
    """The changed files whose #if/#endif no longer pair up though the
    original's did: the rules that changed them are at fault, and each
    such file is a problem of theirs, kept as it was."""
    unbalanced = []
    for relpath, content in sorted(changed.items()):
        if not relpath.endswith((".c", ".h")):
            continue
        try:
            kernel_versions.SourceVersions(content.decode(errors="replace"), conv.project.evaluator, [])
        except kernel_versions.ConditionalError as converted_error:
            try:
                kernel_versions.SourceVersions((conv.source.src / relpath).read_text(errors="replace"),
                                               conv.project.evaluator, [])
            except kernel_versions.ConditionalError:
                continue  # unbalanced as written: not the rules' doing
            rules = sorted(rec["path"] for entry in conv.report["campaigns"] for rec in entry["rules"]
                           if relpath in rec["files"])
            conv.report["problems"].append(
                f"{relpath}: left as it was: converted, its conditionals no longer pair up "
                f"({converted_error}) [{', '.join(rules) or 'unknown rule'}]")
            unbalanced.append(relpath)
    return unbalanced


def still_left(conv: Conversion, scratch: Path, jobs: int, timeout: int):
    """(left, hazards): the report-mode lines of every rule over the
    converted copy, and the sites the patch rules listed as left; a rule's
    timeouts and failures go to the problems."""
    left: List[str] = []
    hazards: List[str] = []
    every_rule = [rule for _, rules in conv.campaign_rules for rule in rules]
    c_files = list(conv.texts)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        reported = list(pool.map(lambda rule: still_reported(conv.applier, rule, scratch, c_files, timeout),
                                 every_rule))
    for rule, lines in zip(every_rule, reported):
        (hazards if not rule.patch_mode else left).extend(f"{line} [{rule.relpath}]" for line in lines)
    for entry in conv.report["campaigns"]:
        for rec in entry["rules"]:
            for lines in rec["left"].values():
                left.extend(f"{line} [{rec['path']}]" for line in lines)
            tool = "spatch" if rec["path"].endswith(".cocci") else rec["path"].rsplit(".", 1)[-1]
            for relpath, detail in {**rec["timeouts"], **rec["failed"]}.items():
                step = "" if detail.startswith(STEPS) else f"{tool}: "
                conv.report["problems"].append(f"{relpath}: not converted by this rule: {step}{detail} "
                                               f"[{rec['path']}]")
    return left, hazards


def version_decisions(applier):
    """(kept, refused): the site filter's decisions as report lines, kept
    for older kernels or refused for want of a newer one."""
    kept, refused = [], []
    for path, files in sorted(applier.refused.items()):
        for relpath, decisions in sorted(files.items()):
            for d in decisions:
                line = f"{relpath}:{d.line}: {d.reason} [{path}]"
                (kept if d.kept_for_older else refused).append(line)
    return kept, refused


def version_check(conv: Conversion, changed: dict) -> list:
    """The compile-free check: names a kernel of the range would compile
    in a changed file and lacks."""
    project, texts = conv.project, conv.texts
    samples = kernel_versions.samples_for(project.tested, conv.kernel_range.lo, conv.kernel_range.hi)
    found = []
    for relpath in sorted(changed):
        if relpath not in texts or relpath in project.problems:
            continue
        try:
            found += [f"{relpath}: {problem}" for problem in api_availability.unavailable_uses(
                texts[relpath], changed[relpath].decode(errors="replace"), project,
                samples, [*conv.histories.values(), WHOLE_DRIVER_HISTORY],
                set(conv.report["compat_header"]["names"]))]
        except Exception as err:
            conv.report["problems"].append(f"{relpath}: not checked: {failure('exception', err)} "
                                           f"[compile-free check]")
    return found


def left_by_hand(conv: Conversion, left: list, written) -> list:
    """The left lines, with the whole-driver groups still declared with the
    old type and the lines still naming a removed API (in the files as
    written(relpath) gives them), less what older kernels keep and what the
    version check listed."""
    applier = conv.applier
    decided = {(relpath, d.line, path) for path, files in applier.refused.items()
               for relpath, decisions in files.items() for d in decisions}
    user_files = dual_build.user_space_files(conv.texts)  # a tool beside the module: libc has what it names
    for kept in conv.report.get("whole_driver", {}).get("kept", []):
        # still declared with the old type once every rule ran, in a file a kernel builds: left
        texts = {relpath: applier.content(relpath).decode(errors="replace") for relpath, _ in kept["names"]}
        if any(re.search(rf"\bstruct\s+time(spec|val)\s+\*?\s*{re.escape(name)}\b(?!64)", texts[relpath])
               and relpath not in user_files for relpath, name in kept["names"]):
            left.append(f"{kept['why']} [whole-driver]")
    listed = [*left, *conv.report.get("kept_for_older_kernels", []), *conv.report.get("needs_newer_kernel", []),
              *(kept["why"] for kept in conv.report.get("whole_driver", {}).get("kept", []))]
    left += removed_api_left(conv, listed, written, user_files)
    return sorted({line for line in left
                   if not for_older_kernels(line, applier, conv.project, conv.kernel_range, conv.histories)
                   and not already_listed(line, decided)}, key=sort_key)


def user_side_blanked(text: str, lines: set) -> str:
    """text with the lines only user space compiles emptied."""
    return "\n".join("" if n in lines else line for n, line in enumerate(text.split("\n"), 1))


def module_range(conv: Conversion, relpath: str):
    """The kernel range of the module a file is built into (the run's, when no build file groups it)."""
    return conv.modules.range_of(relpath, conv.kernel_range) if conv.modules else conv.kernel_range


def removed_api_left(conv: Conversion, listed: list, written, user_files: set) -> list:
    """The written files' lines that name an API the newest kernel of
    their range lacks (a name a rule or the whole-driver pass takes away,
    or time_t), on no line the report lists already and not in user_files:
    left, so that no line that stops the module building is passed over in
    silence.  The driver's own definitions of such a name count where a
    kernel build reads them (not a user tool's, not `#ifndef __KERNEL__`)."""
    gone: Dict[str, int] = {}
    for h in [*conv.histories.values(), WHOLE_DRIVER_HISTORY]:
        for name, version in h.removed.items():
            if name != "*":
                gone[name] = min(version, gone.get(name, version))
    texts = {f: written(f).decode(errors="replace") for f in sorted(conv.texts) if f.endswith((".c", ".h"))}
    kernel_texts = {f: user_side_blanked(text, dual_build.user_only_lines({f: text}).get(f, set()))
                    for f, text in texts.items() if f not in user_files}
    own = {name for text in kernel_texts.values()
           for name, _ in api_availability.shim_definitions(text, gone).values()}
    own |= {name for text in kernel_texts.values()  # its own struct timeval, its own `typedef time64_t time_t;`
            for name in re.findall(r"\bstruct\s+(\w+)\s*\{|\btypedef\b[^;{}]*?\b(\w+)\s*;",
                                   blank_comments_and_literals(text)) for name in name if name}
    at = {(m.group("file"), int(m.group("line"))) for m in map(FILE_LINE.match, listed) if m}
    left = []
    for relpath, text in kernel_texts.items():
        try:
            uses = [(line, name) for line, name in api_availability.removed_uses(
                text, conv.project, module_range(conv, relpath).hi, gone) if name not in own]
        except kernel_versions.ConditionalError:
            continue  # conditionals that do not pair up: already a problem of the file
        for line, name in uses:  # the lines only user space compiles are blank in kernel_texts
            if (relpath, line) in at:
                continue
            if name in api_availability.REMOVED_TYPEDEFS:
                left.append(f"{relpath}:{line}: {name} is gone from Linux "
                            f"{kernel_versions.show(api_availability.REMOVED_TYPEDEFS[name])}: time64_t (64-bit "
                            f"division then needs div_s64() on 32-bit machines), or __kernel_old_time_t where the "
                            f"layout is user space's [{name}]")
            else:
                what = f"struct {name}" if name in api_availability.TYPES else \
                    name if name.isupper() else f"{name}()"
                left.append(f"{relpath}:{line}: {what} is gone from Linux {kernel_versions.show(gone[name])} "
                            f"and no rule converted this use [unconverted]")
    return left


# timekeeping accessors the rules write, declared in <linux/timekeeping.h>
# (3.17 on), which <linux/ktime.h> includes after what it needs itself
# (timekeeping.h alone expects struct timespec64 to be declared already).
# In 3.x, <linux/time.h> declared their ancestors, so converted code that
# only includes <linux/time.h> no longer sees a declaration.
TIMEKEEPING_API = re.compile(rb"\b(ktime_get\w*_ts64|ktime_get_(?:real_|boottime_|clocktai_)?seconds|"
                             rb"ktime_get_\w*ns|getboottime64)\s*\(")
TIMEKEEPING_HEADERS = re.compile(rb"^\s*#\s*include\s*<linux/(timekeeping|ktime|hrtimer)\.h>", re.M)


def with_timekeeping_include(before: bytes, after: bytes) -> bytes:
    """after, with #include <linux/ktime.h> added when the conversion
    brought in an accessor and no include provides it."""
    new = set(TIMEKEEPING_API.findall(after)) - set(TIMEKEEPING_API.findall(before))
    if not new or TIMEKEEPING_HEADERS.search(after):
        return after
    text = after.decode(errors="replace")
    includes = compat_fallbacks.top_level_includes(text)  # not into one branch of an #if
    linux = [m for m in includes if re.search(r"<linux/", m.group(0))]
    if not includes:
        return after
    at = linux[-1].end() if linux else includes[0].start()  # kernel headers before the driver's own
    return (text[:at] + "#include <linux/ktime.h>\n" + text[at:]).encode()


def for_older_kernels(line: str, applier, project, kernel_range, histories) -> bool:
    """A report-mode line on code compiled only for kernels that still have
    the rule's old API: not left to convert, kept for them."""
    m = REPORT_LINE.match(line)
    rule = re.search(r"\[(cocci/[^\]]+)\]$", line)
    if not m or not rule or rule.group(1) not in histories or not histories[rule.group(1)].removed:
        return False
    relpath = m.group("file")
    try:
        versions = kernel_versions.SourceVersions(applier.content(relpath).decode(errors="replace"),
                                                  project.evaluator,
                                                  kernel_versions.samples_for(project.tested, kernel_range.lo,
                                                                              kernel_range.hi))
    except Exception:  # unread: the line stays listed as left
        return False
    kernels = versions.kernels(int(m.group("line")))
    return bool(kernels) and max(kernels) < min(histories[rule.group(1)].removed.values())


def already_listed(line: str, decided) -> bool:
    """A report-mode line on a site the version check already listed."""
    m = REPORT_LINE.match(line)
    rule = re.search(r"\[(cocci/[^\]]+)\]$", line)
    return bool(m and rule and (m.group("file"), int(m.group("line")), rule.group(1)) in decided)


WHOLE_DRIVER_HISTORY = api_availability.RuleHistory(api_availability.history(driver_types.INTRODUCED),
                                                    api_availability.history(driver_types.REMOVED), False)


def whole_driver_pass(applier, c_files, project, kernel_range, fallbacks, modules=None, read=None) -> dict:
    """The driver's own struct timespec/timeval declarations with all their
    uses across the directory (driver_types), where the kernel range allows
    (each file's own module's range, with modules: build_units).  read gets
    the files as the pass read them (its report lines number those)."""
    texts = {f: applier.content(f).decode(errors="replace") for f in c_files}
    if read is not None:
        read.update(texts)
    introduced = api_availability.history(driver_types.INTRODUCED)
    gone = min(api_availability.history(driver_types.REMOVED).values())
    gone_members = api_availability.history(driver_types.GONE_MEMBERS)
    versions: Dict[str, Optional[kernel_versions.SourceVersions]] = {}

    def allowed(relpath, line, new) -> bool:
        file_range = modules.range_of(relpath, kernel_range) if modules else kernel_range
        if relpath not in versions:
            samples = kernel_versions.samples_for(project.tested, file_range.lo, file_range.hi)
            try:
                versions[relpath] = kernel_versions.SourceVersions(texts[relpath], project.evaluator, samples)
            except kernel_versions.ConditionalError:
                versions[relpath] = None
        file_versions = versions[relpath]
        kernels = file_versions.kernels(line) if file_versions else (file_range.lo, file_range.hi)
        words = re.findall(r"\w+", new)
        needs = max([introduced[n] for n in words if n in introduced and n not in fallbacks] or [0])
        lacks = min([gone_members[n] for n in words if n in gone_members] or [kernels[-1] + 1 if kernels else 0])
        return bool(kernels) and kernels[0] >= needs and kernels[-1] >= gone and kernels[-1] < lacks

    (new, converted, kept), problems = isolated_driver_pass(texts, allowed)
    sites = 0
    for relpath, text in new.items():
        sites += len(removed_lines(applier.content(relpath), text.encode()))
        applier.current[relpath] = text.encode()
    progress(f"whole-driver pass: {len(converted)} declaration groups converted, {len(kept)} kept")
    return {"converted": converted, "kept": kept, "files": sorted(new), "sites": sites, "problems": problems}


def isolated_driver_pass(texts: dict, allowed):
    """driver_types.convert(texts, allowed), and the problems: when it
    fails, the files it fails on alone are named and left out of it."""
    try:
        return driver_types.convert(texts, allowed), []
    except Exception:
        pass
    problems, failing = [], set()
    for relpath in sorted(texts):
        try:
            driver_types.convert({relpath: texts[relpath]}, allowed)
        except Exception as err:
            failing.add(relpath)
            problems.append(f"{relpath}: left out of the whole-driver pass: {failure('exception', err)} "
                            f"[whole-driver]")
    try:
        return driver_types.convert({f: t for f, t in texts.items() if f not in failing}, allowed), problems
    except Exception as err:  # only together do the files fail: the pass is skipped
        return ({}, [], []), problems + [f"{', '.join(sorted(texts))}: whole-driver pass skipped: "
                                         f"{failure('exception', err)} [whole-driver]"]


def add_compat_header(changed: dict, source, range_of, fallbacks) -> dict:
    """Where converted files use a name that some kernel of their range
    (range_of(relpath)) lacks, y2038-compat.h (its fallbacks) is added to
    the directory and included by them."""
    users = {}
    for relpath, content in changed.items():
        names = compat_fallbacks.needed(content.decode(errors="replace"), range_of(relpath), fallbacks)
        if names:
            users[relpath] = names
    if not users:
        return {"file": None, "names": [], "files": []}
    if compat_fallbacks.HEADER in source.files:
        raise Y2038Error(f"{source.src}/{compat_fallbacks.HEADER} exists: convert writes its own; rename it, "
                         f"or run with --no-compat-header")
    for relpath in users:
        changed[relpath] = compat_fallbacks.with_include(changed[relpath].decode(errors="replace"),
                                                         relpath).encode()
    names = sorted({n for used in users.values() for n in used}, key=list(compat_fallbacks.FALLBACKS).index)
    changed[compat_fallbacks.HEADER] = compat_fallbacks.header_text(names).encode()
    return {"file": compat_fallbacks.HEADER, "names": names, "files": sorted(users)}


def drop_compat_branches(applier, project, kernel_range, texts, problems: list) -> dict:
    """--min-kernel: version conditionals decided for every kernel of the
    range resolved (dead compat code removed) before the rules run, then
    the tests of the module's own feature flags that this leaves defined
    on every kernel of the range (feature_macros)."""
    result: Dict[str, Any] = {"branches_dropped": 0, "flag_branches_dropped": 0, "files": {}}
    resolved = dict(texts)
    for relpath, text in sorted(texts.items()):
        if relpath not in project.problems:
            resolved[relpath] = dropped_in(relpath, text, lambda t: kernel_versions.drop_dead_branches(
                t, project, kernel_range), result, problems)
    try:
        flags = feature_macros.defined_from(resolved)
    except Exception as err:
        problems.append(f"feature flags not read: {failure('exception', err)} [dead compat code]")
        flags = {}
    for relpath, defined in sorted(flags.items()):
        if relpath not in project.problems and any(name in resolved[relpath] for name in defined):
            before = result["branches_dropped"]
            resolved[relpath] = dropped_in(relpath, resolved[relpath], lambda t: kernel_versions.drop_dead_branches(
                t, project, kernel_range, defined), result, problems)
            result["flag_branches_dropped"] += result["branches_dropped"] - before
    for relpath in result["files"]:
        applier.current[relpath] = resolved[relpath].encode()
    return result


def dropped_in(relpath: str, text: str, drop, result: dict, problems: list) -> str:
    """text with drop(text)'s dead branches gone, counted in result; text
    itself, the failure listed, when drop raises."""
    try:
        new, dropped = drop(text)
    except Exception as err:
        problems.append(f"{relpath}: dead compat code kept: {failure('exception', err)} [dead compat code]")
        return text
    if new != text:
        result["files"][relpath] = result["files"].get(relpath, 0) + dropped
        result["branches_dropped"] += dropped
    return new


def compat_shims(applier, texts, kernel_range, histories) -> list:
    """The code's own definitions of kernel time APIs: removable where every
    kernel of the range has the API (a shim is never rewritten into a call
    of itself: the site filter leaves its body alone)."""
    first: Dict[str, int] = {}
    for h in histories.values():
        for name, version in h.introduced.items():
            if name != "*":
                first[name] = min(version, first.get(name, version))
    removed = {n for h in histories.values() for n in h.removed}
    found = []
    for relpath in sorted(texts):
        text = applier.content(relpath).decode(errors="replace")
        for line, (name, _) in sorted(api_availability.shim_definitions(text, set(first) | removed).items()):
            if name in first and first[name] <= kernel_range.lo:
                why = (f"every kernel of the range has {name}() (since {kernel_versions.show(first[name])}): "
                       f"the shim can go")
            elif name in first:
                why = f"{name}() arrived in Linux {kernel_versions.show(first[name])}: needed for older kernels"
            else:
                why = f"a stand-in for the removed {name}(): callers can move to its replacement"
            found.append(f"{relpath}:{line}: defines its own {name}: {why}")
    return found


def add_verification(out: Path, checked: dict, checked_text: str) -> None:
    """The build check's result into OUT's report: checked into the json,
    checked_text (as the check writes it) after the text.  The caller runs
    the check: conversion does not depend on verification."""
    data = json.loads((out / OUTPUTS[2]).read_text())
    data["verify"] = checked
    write_json(out / OUTPUTS[2], data)
    (out / OUTPUTS[1]).write_text(report_text(data) + "\n" + checked_text)


def sort_key(line: str):
    m = FILE_LINE.match(line)
    return (m.group("file"), int(m.group("line"))) if m else (line, 0)


def report_text(report: dict) -> str:
    lines = [f"y2038 convert of {report['source']} ({report['spatch']})",
             f"Kernels the result must build on: {report['kernels']['text']}", ""]
    compat = report["compat"]
    if compat["branches_dropped"]:
        flags = compat.get("flag_branches_dropped")
        lines.append(f"dead compat code: {compat['branches_dropped']} version branches dropped in "
                     f"{len(compat['files'])} files" + (f" ({flags} of them testing the module's own feature "
                                                        f"flags, defined on every kernel of the range)"
                                                        if flags else ""))
    whole = report.get("whole_driver")
    if whole:
        lines.append(f"whole-driver pass: {whole['sites']} sites in {len(whole['files'])} files, "
                     f"{len(whole['converted'])} groups of declarations converted with all their uses")
        lines += [f"  {group}" for group in whole["converted"]]
    for entry in report["campaigns"]:
        lines.append(f"campaign {entry['name']}: {entry['sites']} sites in {len(entry['files'])} files")
        # no seconds here: they depend on the spatch cache, and this text is committed and compared
        # (y2038-convert.json keeps them)
        for rec in entry["rules"]:
            if rec["sites"]:
                lines.append(f"  {rec['path']}: {rec['sites']} sites in {', '.join(sorted(rec['files']))}")
            elif rec["candidates"]:
                lines.append(f"  {rec['path']}: 0 sites in {rec['candidates']} candidate files")
    sections = [("Modules (from the build files) and the kernels each supports", "modules", "none"),
                ("Problems (the file keeps its last good content for that rule)", "problems", "none"),
                ("Compile-free check: a kernel of the range would compile a name it lacks",
                 "version_check", "none"),
                ("Kept as written for the older kernels that compile it", "kept_for_older_kernels", "nothing"),
                ("Not converted: the replacement is missing on kernels the code supports "
                 "(--min-kernel raises the range)", "needs_newer_kernel", "nothing"),
                ("Left to convert by hand", "left", "nothing"),
                ("Compat shims the code defines", "shims", "none"),
                (f"Fallbacks written to {compat_fallbacks.HEADER} for the older kernels of the range "
                 f"(included by {len(report['compat_header']['files'])} files)", "compat_names", "none"),
                ("y2038 hazards in the converted code", "hazards", "none")]
    for title, key, empty in sections:
        found = report["compat_header"]["names"] if key == "compat_names" else report[key]
        lines += ["", f"{title} ({len(found)}):"]
        lines += [f"  {line}" for line in found] or [f"  {empty}"]
    return "\n".join(lines) + "\n"


def summary(report: dict) -> str:
    sites = sum(e["sites"] for e in report["campaigns"]) + report.get("whole_driver", {}).get("sites", 0)
    return (f"kernels {report['kernels']['text']}: {sites} sites converted in {len(report['changed'])} files"
            + (f", {report['compat']['branches_dropped']} dead compat branches dropped"
               if report["compat"]["branches_dropped"] else "")
            + f"; {len(report['kept_for_older_kernels'])} kept for older kernels, "
            f"{len(report['needs_newer_kernel'])} need a newer kernel, "
            f"{len(report['left'])} left to convert by hand, {len(report['problems'])} problems, "
            f"{len(report['hazards'])} hazards reported")
