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
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .apply import Applier, check_idempotent, check_rule_parses, run_campaign
from .common import REPO, Y2038Error, write_json

OUTPUTS = ("y2038-convert.patch", "y2038-convert.txt", "y2038-convert.json")
REPORT_LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):[\d-]+: (?P<what>.*)$")


class SourceDir:
    """A directory of sources seen the way the apply stage sees a tree."""

    def __init__(self, root: Path):
        self.src = root
        self.files = sorted(str(p.relative_to(root)) for p in root.rglob("*")
                            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
                            and p.name not in OUTPUTS)
        h = hashlib.sha256()
        for relpath in self.files:
            h.update(relpath.encode() + b"\0" + (root / relpath).read_bytes())
        self.baseline = "dir:" + h.hexdigest()
        self.version = root.name

    def files_with_tokens(self, tokens, globs) -> dict:
        found = {t: set() for t in tokens}
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
    if out.exists() and any(out.iterdir()) and not (out / "y2038-convert.json").exists():
        raise Y2038Error(f"{out} exists and was not written by `y2038 convert`: choose another --out "
                         f"(nothing there is overwritten)")


def unified_diff(relpath: str, before: bytes, after: bytes) -> str:
    lines = difflib.unified_diff(before.decode(errors="replace").splitlines(True),
                                 after.decode(errors="replace").splitlines(True),
                                 f"a/{relpath}", f"b/{relpath}")
    return f"diff -u a/{relpath} b/{relpath}\n" + "".join(lines)


def still_reported(rule, root: Path, files, timeout: int):
    """The report-mode lines of a rule over the converted files: what is left."""
    if rule.kind != "cocci" or not re.search(r"^virtual\s+report\b", rule.text, re.M) or not files:
        return []
    with tempfile.NamedTemporaryFile("w", suffix=".groups") as groups:
        groups.write("\n\n".join(files) + "\n")
        groups.flush()
        proc = subprocess.run(["spatch", "--sp-file", str(rule.path), "-D", "report", "--very-quiet",
                               "--timeout", str(timeout), *rule.options, "--file-groups", groups.name],
                              cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return [line for line in proc.stdout.splitlines() if REPORT_LINE.match(line)]


def convert(src: Path, out: Path, campaign_rules, jobs: int, timeout: int) -> dict:
    check_dirs(src, out)
    source = SourceDir(src.resolve())
    if not any(fnmatch.fnmatch(f, "*.[ch]") for f in source.files):
        raise Y2038Error(f"{src}: no .c or .h file to convert")
    # rules written for the core's own files (// Out-of-tree: no) stay out
    campaign_rules = [(c, [r for r in rules if r.out_of_tree]) for c, rules in campaign_rules]
    for _, rules in campaign_rules:
        for rule in rules:
            check_rule_parses(rule)
    applier = Applier(source, jobs, timeout, use_scope=False)
    applier.index_tokens([r for _, rules in campaign_rules for r in rules if r.patch_mode])
    shown = source.src.relative_to(REPO) if REPO in source.src.parents else source.src
    report = {"source": str(shown), "spatch": applier.version, "campaigns": []}
    for campaign, rules in campaign_rules:
        if any(r.patch_mode for r in rules):
            entry, _ = run_campaign(applier, campaign, rules)
            report["campaigns"].append(entry)
    report["idempotent"] = check_idempotent(applier, campaign_rules)

    # write OUT whole in a scratch directory first: an error leaves OUT as it was
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".y2038-convert-", dir=out.parent))
    try:
        for relpath in source.files:
            (scratch / relpath).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source.src / relpath, scratch / relpath)
        for relpath, content in applier.current.items():
            (scratch / relpath).write_bytes(content)
        c_files = [f for f in source.files if fnmatch.fnmatch(f, "*.[ch]")]
        left, hazards = [], []
        for campaign, rules in campaign_rules:
            for rule in rules:
                lines = still_reported(rule, scratch, c_files, timeout)
                (hazards if not rule.patch_mode else left).extend(f"{line} [{rule.relpath}]" for line in lines)
        for entry in report["campaigns"]:
            for rec in entry["rules"]:
                for lines in rec["left"].values():
                    left.extend(f"{line} [{rec['path']}]" for line in lines)
                for relpath, detail in {**rec["timeouts"], **rec["failed"]}.items():
                    left.append(f"{relpath}: not converted: spatch: {detail} [{rec['path']}]")
        report["changed"] = sorted(applier.current)
        report["left"] = sorted(set(left), key=sort_key)
        report["hazards"] = sorted(set(hazards), key=sort_key)
        (scratch / OUTPUTS[0]).write_text("".join(
            unified_diff(f, (source.src / f).read_bytes(), applier.current[f]) for f in sorted(applier.current)))
        (scratch / OUTPUTS[1]).write_text(report_text(report))
        write_json(scratch / OUTPUTS[2], report)
        if out.exists():
            shutil.rmtree(out)
        scratch.rename(out)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch)
    return report


def sort_key(line: str):
    m = REPORT_LINE.match(line)
    return (m.group("file"), int(m.group("line"))) if m else (line, 0)


def report_text(report: dict) -> str:
    lines = [f"y2038 convert of {report['source']} ({report['spatch']})", ""]
    for entry in report["campaigns"]:
        lines.append(f"campaign {entry['name']}: {entry['sites']} sites in {len(entry['files'])} files")
        for rec in entry["rules"]:
            if rec["sites"]:
                lines.append(f"  {rec['path']}: {rec['sites']} sites in {', '.join(sorted(rec['files']))}")
    lines += ["", f"Left to convert by hand ({len(report['left'])}):"]
    lines += [f"  {line}" for line in report["left"]] or ["  nothing"]
    lines += ["", f"y2038 hazards in the converted code ({len(report['hazards'])}):"]
    lines += [f"  {line}" for line in report["hazards"]] or ["  none"]
    return "\n".join(lines) + "\n"


def summary(report: dict) -> str:
    sites = sum(e["sites"] for e in report["campaigns"])
    return (f"{sites} sites converted in {len(report['changed'])} files; "
            f"{len(report['left'])} left to convert by hand, {len(report['hazards'])} hazards reported")
