# SPDX-License-Identifier: GPL-2.0-only
"""compare: two series (usually two kernel versions) side by side.

A site is (rule, file, the line the rule changed), as the series stage
records it in results.json ("site_lines").  Per rule: gone upstream (only
in the older series), kept (in both), new (only in the newer).  With the
newer tree at hand, what happened to each gone site: fixed as proposed
(the patch's new lines are in the newer file), changed otherwise (the
file is there, the proposed lines are not), moved (the same rule and line
in another file: counted neither as gone nor as new), removed (the file is
gone).  Patches are
mapped across the two series by subject and files, and shown the way
`git range-diff` does: "=" same change, "!" changed (with the diff between
the two diffs), "<" only in the older, ">" only in the newer.  The newer
series' results.json gets "compare" (records.CompareSummary), and so its
cover letters the summary (covers.py).  It keeps each gone site's fate:
a machine without the newer tree compares as the one with it did.
"""
import difflib
import email
import re
from collections import Counter
from pathlib import Path

from . import covers
from .. import tree as tree_stage
from ..common import PATCHES_DIR, Y2038Error
from ..records import CompareSummary, SeriesResults


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


def sites(results: SeriesResults) -> Counter:
    found: Counter = Counter()
    for patch in results.patches:
        for rule, files in patch.site_lines.items():
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


def map_patches(old_dir: Path, old: SeriesResults, new_dir: Path, new: SeriesResults):
    """[(old patch or None, new patch or None)]: same subject and a shared
    file first, then the same files, then the same subject."""
    olds = list(old.patches)
    pairs = []
    for patch in new.patches:
        subject = subject_of(new_dir / patch.name)
        tests = (lambda o: subject_of(old_dir / o.name) == subject and set(o.files) & set(patch.files),
                 lambda o: set(o.files) == set(patch.files),
                 lambda o: subject_of(old_dir / o.name) == subject)
        match = next((o for test in tests for o in olds if test(o)), None)
        if match:
            olds.remove(match)
        pairs.append((match, patch))
    return pairs + [(o, None) for o in olds]


def added_lines(patch: Path, relpath: str) -> list:
    """The code lines a patch adds to one file, stripped."""
    out, current = [], None
    for line in patch.read_text(errors="replace").splitlines():
        if line.startswith("+++ "):
            current = line[6:]
        elif current == relpath and line.startswith("+") and line[1:].strip():
            out.append(line[1:].strip())
    return out


def fates(old_dir: Path, old: SeriesResults, gone: Counter, added: Counter, new_src, recorded=None) -> dict:
    """{site: fate} for the sites gone upstream (module docstring); moved
    ones are taken out of gone and added.  Without the newer tree, the fate
    recorded ({site: fate}) where it was at hand, or "not checked"."""
    fate, recorded = {}, recorded or {}
    for site in sorted(gone):
        rule, relpath, line = site
        moved = next((s for s in sorted(added) if s[0] == rule and s[2] == line and s[1] != relpath), None)
        if moved:
            fate[site] = f"moved to {moved[1]}"
            gone[site] -= 1
            added[moved] -= 1
        elif new_src is None:
            fate[site] = recorded.get(site, "not checked (the newer tree is not here)")
        elif not (new_src / relpath).exists():
            fate[site] = "removed (the file is gone)"
        else:
            patch = next(p for p in old.patches if relpath in p.site_lines.get(rule, {}))
            text = {l.strip() for l in (new_src / relpath).read_text(errors="replace").splitlines()}
            proposed = added_lines(old_dir / patch.name, relpath)
            fate[site] = ("fixed as proposed" if proposed and all(l in text for l in proposed)
                          else "changed otherwise")
    gone += Counter()  # drop the zero counts
    added += Counter()
    return fate


def source_of(version: str):
    """The unpacked tree of a kernel version (6.12.118), if the tree stage made it here."""
    try:
        tree = tree_stage.load(".".join(version.split(".")[:2]))
    except Y2038Error:
        return None
    return tree.src if tree.version == version and tree.src.is_dir() else None


def recorded_fates(old: SeriesResults, new: SeriesResults) -> dict:
    """{site: fate} of the sites gone upstream, as the newer series' last
    comparison with this older version found them."""
    if not new.compare or new.compare.old["version"] != old.version:
        return {}
    return {(rule, relpath, line): fate for rule, relpath, line, fate in new.compare.gone_sites}


def compare(old_dir: Path, new_dir: Path) -> dict:
    # the newer series' own comparison, if made by an older toolkit, is what this one replaces
    old, new = SeriesResults.read(old_dir), SeriesResults.read(new_dir, redoing="compare")
    old_sites, new_sites = sites(old), sites(new)
    fixed, kept, added = old_sites - new_sites, old_sites & new_sites, new_sites - old_sites
    fate = fates(old_dir, old, fixed, added, source_of(new.version), recorded_fates(old, new))
    moved = {site: f for site, f in fate.items() if f.startswith("moved")}
    fate_counts: Counter = Counter()
    for site, f in fate.items():
        if site not in moved:
            fate_counts[f] += fixed[site]
    rules = sorted({s[0] for s in old_sites | new_sites})
    per_rule = {rule: {"gone_upstream": sum(n for s, n in fixed.items() if s[0] == rule),
                       "kept": sum(n for s, n in kept.items() if s[0] == rule),
                       "new": sum(n for s, n in added.items() if s[0] == rule)} for rule in rules}

    def listing(counter):
        return [f"{rule}: {relpath}: {line}" for (rule, relpath, line), n in sorted(counter.items())
                for _ in range(n)]
    return {"old": {"dir": old_dir.name, "version": old.version},
            "new": {"dir": new_dir.name, "version": new.version},
            "totals": {"gone_upstream": sum(fixed.values()), "moved": len(moved), "kept": sum(kept.values()),
                       "new": sum(added.values())},
            "fates": dict(sorted(fate_counts.items())),
            "rules": per_rule, "patches": patch_pairs(old_dir, old, new_dir, new),
            "gone_sites": [[r, f, l, fate[(r, f, l)]] for r, f, l in sorted(fate) if (r, f, l) not in moved],
            "sites": {"gone_upstream": [f"{r}: {f}: {l}: {fate[(r, f, l)]}" for r, f, l in sorted(fate)
                                        if not fate[(r, f, l)].startswith("moved")],
                      "moved": [f"{r}: {f}: {l}: {fate[(r, f, l)]}" for r, f, l in sorted(fate)
                                if fate[(r, f, l)].startswith("moved")],
                      "kept": listing(kept), "new": listing(added)}}


def patch_pairs(old_dir: Path, old: SeriesResults, new_dir: Path, new: SeriesResults) -> list:
    """The patches mapped across the two series, as git range-diff shows them."""
    patches = []
    for o, n in map_patches(old_dir, old, new_dir, new):
        entry = {"old": o.name if o else None, "new": n.name if n else None,
                 "subject": subject_of((new_dir / n.name) if n else (old_dir / o.name))}
        if o and n:
            a, b = diff_of(old_dir / o.name), diff_of(new_dir / n.name)
            entry["status"] = "=" if a == b else "!"
            if a != b:
                entry["interdiff"] = list(difflib.unified_diff(a, b, o.name, n.name, lineterm="", n=1))
        else:
            entry["status"] = "<" if o else ">"
        patches.append(entry)
    return patches


def summary(report: dict) -> CompareSummary:
    """What the newer series keeps of a comparison: its cover letters' paragraph, and the sites' fates."""
    return CompareSummary(old=report["old"], totals=report["totals"], rules=report["rules"], fates=report["fates"],
                          patches=dict(sorted(Counter(p["status"] for p in report["patches"]).items())),
                          gone_sites=report["gone_sites"])


def summary_line(report: dict) -> str:
    return covers.compare_summary_line(summary(report))


def text(report: dict) -> str:
    old, new = report["old"]["version"], report["new"]["version"]
    rule_width = max([len(r) for r in report["rules"]] + [4])
    lines = [f"Linux {old} -> {new}: {summary_line(report)}", "",
             f"{'rule':{rule_width}} {'gone upstream':>15} {'kept':>6} {'new':>6}"]
    for rule, c in report["rules"].items():
        lines.append(f"{rule:{rule_width}} {c['gone_upstream']:>15} {c['kept']:>6} {c['new']:>6}")
    lines += ["", f"Patches ({old} <-> {new}, as git range-diff shows them):"]
    width = max([len(p["old"] or "-") for p in report["patches"]] + [1])
    for p in report["patches"]:
        lines.append(f"  {p['old'] or '-':{width}} {p['status']} {p['new'] or '-'}  {p['subject']}")
        lines += [f"      {line}" for line in p.get("interdiff", [])]
    for kind in ("gone_upstream", "moved", "new"):
        lines += ["", f"Sites {kind.replace('_', ' ')} ({len(report['sites'][kind])}):"]
        lines += [f"  {s}" for s in report["sites"][kind]] or ["  none"]
    return "\n".join(lines) + "\n"


def write_to_newer(new_dir: Path, report: dict) -> None:
    """The comparison into the newer series' results.json, for its REVIEW.md
    (the report stage; `make compare` runs it), its cover letters re-rendered
    from the record (they no longer carry it)."""
    results = SeriesResults.read(new_dir, redoing="compare")
    results.compare = summary(report)
    results.write(new_dir)
    covers.write_all(new_dir, results)
