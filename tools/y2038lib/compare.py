# SPDX-License-Identifier: GPL-2.0-only
"""compare: two series (usually two kernel versions) side by side.

A site is (rule, file, the line the rule changed), as the series stage
records it in results.json ("site_lines").  Per rule: fixed upstream (only
in the older series), kept (in both), new (only in the newer).  Patches are
mapped across the two series by subject and files, and shown the way
`git range-diff` does: "=" same change, "!" changed (with the diff between
the two diffs), "<" only in the older, ">" only in the newer.  The newer
series' cover letters carry the summary; results.json gets "compare".
"""
import difflib
import email
import re
from collections import Counter
from pathlib import Path

from .boot import BOOT_SECTION
from .common import PATCHES_DIR, Y2038Error, read_json, write_json

# the paragraph compare adds after the boot verification one (and replaces on a re-run)
COMPARE_SECTION = re.compile(r"\n\nComparison with the series for Linux [^\n]*(\n[^\n]+)*")


def series_of(arg: str) -> Path:
    """A series directory, or the committed series of a kernel version (6.1)."""
    path = Path(arg)
    if (path / "results.json").exists():
        return path
    if re.fullmatch(r"\d+\.\d+(\.\d+)?", arg):
        found = sorted(PATCHES_DIR.glob(f"linux-{arg}.*" if arg.count(".") == 1 else f"linux-{arg}"),
                       key=lambda p: [int(x) for x in re.findall(r"\d+", p.name)])
        found = [p for p in found if (p / "results.json").exists()]
        if found:
            return found[-1]
    raise Y2038Error(f"{arg}: neither a series directory nor a version with a series in {PATCHES_DIR}")


def sites(results: dict) -> Counter:
    found = Counter()
    for patch in results["patches"]:
        if "site_lines" not in patch:
            raise Y2038Error(f"{patch['name']}: no site_lines in results.json: regenerate the series")
        for rule, files in patch["site_lines"].items():
            for relpath, lines in files.items():
                found.update((rule, relpath, line) for line in lines)
    return found


def subject_of(patch: Path) -> str:
    msg = email.message_from_string(patch.read_text(errors="replace"))
    subject = re.sub(r"\s+", " ", str(msg["Subject"] or ""))
    return re.sub(r"^\[PATCH[^\]]*\]\s*", "", subject)


def diff_of(patch: Path) -> list:
    """The patch's diff, without what changes with the tree: index lines,
    hunk positions, the base-commit trailer."""
    text = patch.read_text(errors="replace")
    body = text[text.find("\ndiff --git") + 1:] if "\ndiff --git" in text else ""
    body = body.split("\nbase-commit:")[0]
    out = []
    for line in body.splitlines():
        if line.startswith("index "):
            continue
        out.append(re.sub(r"^@@ [^@]* @@", "@@", line))
    return out


def map_patches(old_dir: Path, old: dict, new_dir: Path, new: dict):
    """[(old patch or None, new patch or None)]: same subject and a shared
    file first, then the same files, then the same subject."""
    olds = list(old["patches"])
    pairs = []
    for patch in new["patches"]:
        subject = subject_of(new_dir / patch["name"])
        tests = (lambda o: subject_of(old_dir / o["name"]) == subject and set(o["files"]) & set(patch["files"]),
                 lambda o: set(o["files"]) == set(patch["files"]),
                 lambda o: subject_of(old_dir / o["name"]) == subject)
        match = next((o for test in tests for o in olds if test(o)), None)
        if match:
            olds.remove(match)
        pairs.append((match, patch))
    return pairs + [(o, None) for o in olds]


def compare(old_dir: Path, new_dir: Path) -> dict:
    old, new = read_json(old_dir / "results.json", "series"), read_json(new_dir / "results.json", "series")
    old_sites, new_sites = sites(old), sites(new)
    fixed, kept, added = old_sites - new_sites, old_sites & new_sites, new_sites - old_sites
    rules = sorted({s[0] for s in old_sites | new_sites})
    per_rule = {rule: {"fixed_upstream": sum(n for s, n in fixed.items() if s[0] == rule),
                       "kept": sum(n for s, n in kept.items() if s[0] == rule),
                       "new": sum(n for s, n in added.items() if s[0] == rule)} for rule in rules}
    patches = []
    for o, n in map_patches(old_dir, old, new_dir, new):
        entry = {"old": o["name"] if o else None, "new": n["name"] if n else None,
                 "subject": subject_of((new_dir / n["name"]) if n else (old_dir / o["name"]))}
        if o and n:
            a, b = diff_of(old_dir / o["name"]), diff_of(new_dir / n["name"])
            entry["status"] = "=" if a == b else "!"
            if a != b:
                entry["interdiff"] = list(difflib.unified_diff(a, b, o["name"], n["name"], lineterm="", n=1))
        else:
            entry["status"] = "<" if o else ">"
        patches.append(entry)

    def listing(counter):
        return [f"{rule}: {relpath}: {line}" for (rule, relpath, line), n in sorted(counter.items())
                for _ in range(n)]
    return {"old": {"dir": old_dir.name, "version": old["version"]},
            "new": {"dir": new_dir.name, "version": new["version"]},
            "totals": {"fixed_upstream": sum(fixed.values()), "kept": sum(kept.values()), "new": sum(added.values())},
            "rules": per_rule, "patches": patches,
            "sites": {"fixed_upstream": listing(fixed), "kept": listing(kept), "new": listing(added)}}


def summary_line(report: dict) -> str:
    t = report["totals"]
    counts = Counter(p["status"] for p in report["patches"])
    return (f"{t['fixed_upstream']} sites fixed upstream, {t['kept']} kept, {t['new']} new; "
            f"patches: {counts['=']} same, {counts['!']} changed, {counts['<']} only in "
            f"{report['old']['version']}, {counts['>']} new")


def cover_section(report: dict) -> str:
    lines = [f"Comparison with the series for Linux {report['old']['version']} (tools/y2038 compare):",
             f"  {summary_line(report)}"]
    for rule, c in report["rules"].items():
        lines.append(f"  {Path(rule).stem}: {c['fixed_upstream']} fixed upstream, {c['kept']} kept, {c['new']} new")
    return "\n".join(lines)


def text(report: dict) -> str:
    old, new = report["old"]["version"], report["new"]["version"]
    rule_width = max([len(r) for r in report["rules"]] + [4])
    lines = [f"Linux {old} -> {new}: {summary_line(report)}", "",
             f"{'rule':{rule_width}} {'fixed upstream':>15} {'kept':>6} {'new':>6}"]
    for rule, c in report["rules"].items():
        lines.append(f"{rule:{rule_width}} {c['fixed_upstream']:>15} {c['kept']:>6} {c['new']:>6}")
    lines += ["", f"Patches ({old} <-> {new}, as git range-diff shows them):"]
    width = max([len(p["old"] or "-") for p in report["patches"]] + [1])
    for p in report["patches"]:
        lines.append(f"  {p['old'] or '-':{width}} {p['status']} {p['new'] or '-'}  {p['subject']}")
        lines += [f"      {line}" for line in p.get("interdiff", [])]
    for kind in ("fixed_upstream", "new"):
        lines += ["", f"Sites {kind.replace('_', ' ')} ({len(report['sites'][kind])}):"]
        lines += [f"  {s}" for s in report["sites"][kind]] or ["  none"]
    return "\n".join(lines) + "\n"


def write_to_newer(new_dir: Path, report: dict) -> None:
    results = read_json(new_dir / "results.json", "series")
    results["compare"] = {k: report[k] for k in ("old", "totals", "rules")}
    write_json(new_dir / "results.json", results)
    section = "\n\n" + cover_section(report)
    for cover in new_dir.glob("*/0000-cover-letter.patch"):
        text = COMPARE_SECTION.sub("", cover.read_text(), count=1)
        boot = BOOT_SECTION.search(text)
        if not boot:
            raise Y2038Error(f"{cover}: no boot verification paragraph to put the comparison after")
        cover.write_text(text[:boot.end()] + section + text[boot.end():])
