#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Recall of the hazards report against history: the places where a newer
tree widened a 32-bit seconds value (or rewrote the code around one) that
an older tree still holds, and how many of them the older tree's report
flags.  Writes docs/hazard-recall.md, which the report reads.

The places are found without the rules, by text: in each .c file of the
older tree (comments and literals blanked, tools/y2038lib/csource.py), a
32-bit seconds shape in a function: a local of int, s32, long, u32 (...)
declared or assigned from ktime_get_real_seconds(), get_seconds() or a
tv_sec, or such a value cast to one of those types.  The same function of
the same file in the newer tree no longer has that shape (same variable or
cast, same source): widened or rewritten.  A place is flagged when the
older report has a report (any class) inside that function.

  tools/hazard_recall.py [--old TREE] [--new TREE] [--report y2038-hazards.txt] [--out FILE]
"""
import argparse
import os
import re
import sys
from pathlib import Path
from typing import AbstractSet, Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from y2038lib.csource import blank_comments_and_literals  # noqa: E402
from y2038lib.common import PATCHES_DIR, REPO, work_dir  # noqa: E402
from y2038lib.posting.hazard_decisions import RECALL_FILE, flagged, parse_report_text, percent  # noqa: E402

SKIPPED = ("tools/", "samples/", "scripts/", "usr/", "Documentation/")  # not kernel code, as the rule's Exclude
SOURCE = (r"(?:ktime_get_real_seconds\s*\(\s*\)|(?<!\w)get_seconds\s*\(\s*\)|inode_get_[amc]time_sec\s*\([^()]*\)"
          r"|[\w\]\)]\s*(?:\.|->)\s*tv_sec\b)")
TYPE32 = (r"(?:unsigned\s+int|unsigned\s+long(?!\s+long)|unsigned|(?<!long\s)long(?!\s+long)|int|s32|__s32|u32|__u32"
          r"|time_t)")
VALUE = rf"(?:\(\s*\w+\s*\)\s*)?[\w.\->\[\]]*?{SOURCE}"  # the seconds themselves, perhaps cast
SHAPES = {
    "declaration": re.compile(rf"\b{TYPE32}\s+(\w+)\s*=\s*({VALUE})\s*[;,]"),
    "assignment": re.compile(rf"(?<![\w.>])(\w+)\s*=\s*({VALUE})\s*;"),
    "cast": re.compile(rf"\(\s*{TYPE32}\s*\)\s*\(?\s*({VALUE})"),
    "field": re.compile(rf"(?:\.|->)\s*(\w+)\s*=\s*({VALUE})\s*;"),
}
DECLARED32 = re.compile(rf"\b{TYPE32}\s+([\w\s*,\[\]]+?)\s*[;=)]")
SIGNATURE = re.compile(r"^\s*[\w\s*]*?\b(\w+)\s*\((.*)\)[\w\s]*$", re.S)  # type name(parameters) attributes


def functions(code: str) -> dict:
    """{name: [(first line, last line, text)]} of a blanked file's function
    definitions, kernel style: body braces at the start of their lines."""
    lines = code.split("\n")
    found: Dict[str, list] = {}
    for i, line in enumerate(lines):
        if not line.startswith("{"):
            continue
        head = " ".join(lines[max(0, i - 6):i]).rsplit(";", 1)[-1].rsplit("}", 1)[-1]
        m = SIGNATURE.match(head)
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("}")), None)
        if m and end is not None and "=" not in head:
            found.setdefault(function_name(m), []).append((i + 1, end + 1, "\n".join(lines[i:end + 1])))
    return found


def function_name(signature) -> str:
    """The name; a SYSCALL_DEFINEn(name, ...) or other defining macro's first argument with it."""
    name, first = signature.group(1), signature.group(2).split(",")[0].strip()
    return f"{name}({first})" if name.isupper() or "DEFINE" in name else name


def source_name(value: str) -> str:
    """What the seconds are, without the path to them (names of locals change
    across versions): the call, or the timespec member's name and tv_sec."""
    value = re.sub(r"\s+", "", value)
    if m := re.search(r"inode_get_([amc])time_sec\(", value):  # 6.6's accessor of inode->i_[amc]time
        return f"i_{m.group(1)}time.tv_sec"
    m = re.search(r"(\w+)(?:\.|->)tv_sec$", value)
    if m and m.group(1).startswith("i_"):
        return f"{m.group(1)}.tv_sec"
    return re.sub(r".*?(\w+\(\)|tv_sec)$", r"\1", value)


def declared32(code: str) -> set:
    """The names code declares with a 32-bit type."""
    return {re.sub(r"[\s*]|\[.*", "", name) for m in DECLARED32.finditer(code) for name in m.group(1).split(",")}


def fields32(tree: Path, relpath: str) -> set:
    """Names declared 32-bit in a file or in the headers it includes (one
    level: "x.h" beside it, <x/y.h> under include/): the fields a seconds
    value may be stored in.  By name only: a field of that name in another
    structure counts too."""
    path = tree / relpath
    text = path.read_text(errors="replace")
    headers = [path.parent / name for name in re.findall(r'(?m)^#\s*include\s+"([^"]+)"', text)]
    headers += [tree / "include" / name for name in re.findall(r"(?m)^#\s*include\s+<([^>]+)>", text)]
    codes = [text] + [h.read_text(errors="replace") for h in headers if h.is_file()]
    return set().union(*(declared32(blank_comments_and_literals(code)) for code in codes))


def shapes(body: str, first: int, fields: AbstractSet[str] = frozenset()) -> list:
    """[(key, line)] of the 32-bit seconds shapes of a function body that
    starts at line first (fields: the 32-bit field names, fields32); key:
    (what holds them, the seconds' source)."""
    declared = declared32(body)
    found = []
    for kind, pattern in SHAPES.items():
        for m in pattern.finditer(body):
            holder = "cast" if kind == "cast" else m.group(1)
            if (kind == "assignment" and holder not in declared) or (kind == "field" and holder not in fields):
                continue
            holder = f"field {holder}" if kind == "field" else holder
            found.append(((holder, source_name(m.groups()[-1])), first + body.count("\n", 0, m.start())))
    return found


def widened_places(old: Path, new: Path, seen: dict) -> list:
    """[{file, function, how, old_line, start, end, new_line, old_code, new_code}], by file:
    the shapes of the older tree whose holder and source the newer file no
    longer has, in that function ("changed") or with that function gone
    from the file ("removed").  A file the newer tree lacks (moved: found
    by its unique name) is not compared.  seen: counts of what was read."""
    places, moved = [], moved_files(new)
    for relpath in candidate_files(old):
        newpath = relpath if (new / relpath).exists() else moved.get(os.path.basename(relpath))
        seen["files"] = seen.get("files", 0) + 1
        if newpath is None:
            seen.setdefault("not compared", []).append(relpath)
            continue
        before, after = functions(read_blanked(old / relpath)), functions(read_blanked(new / newpath))
        old_fields, new_fields = fields32(old, relpath), fields32(new, newpath)
        kept = {key for definitions in after.values() for first, _, body in definitions
                for key, _ in shapes(body, first, new_fields)}  # a shape moved to another function is kept
        for name in sorted(before):
            for first, last, body in before[name]:
                for key, line in shapes(body, first, old_fields):
                    seen["shapes"] = seen.get("shapes", 0) + 1
                    if key not in kept:
                        kept.add(key)  # one place per holder and source
                        places.append(place(old, new, (relpath, newpath), name, (first, last), key, line,
                                            after.get(name, [])))
    return places


def moved_files(tree: Path) -> dict:
    """{file name: its path} of the .c files whose name is unique in tree (fs/cifs/ became fs/smb/client/)."""
    paths: Dict[str, List[str]] = {}
    for folder, _, files in os.walk(tree):
        for name in files:
            if name.endswith(".c"):
                paths.setdefault(name, []).append(os.path.relpath(os.path.join(folder, name), tree))
    return {name: found[0] for name, found in paths.items() if len(found) == 1}


def place(old, new, paths, name, span, key, line, newer_definitions) -> dict:
    """One place, with the first line of the newer function that names its holder (or source), if any."""
    (relpath, newpath), (holder, source) = paths, key
    named = re.compile(rf"(?<!\w){re.escape(source if holder == 'cast' else holder.split()[-1])}(?!\w)")
    newer = (new / newpath).read_text(errors="replace").split("\n")
    hits = [n for first, last, _ in newer_definitions for n in range(first, last + 1) if named.search(newer[n - 1])]
    how = ("changed" if newer_definitions else "removed") + ("" if newpath == relpath else f", now {newpath}")
    return {"file": relpath, "function": name, "how": how, "old_line": line, "start": span[0], "end": span[1],
            "new_line": str(hits[0]) if hits else "-", "new_code": newer[hits[0] - 1].strip() if hits else "",
            "old_code": (old / relpath).read_text(errors="replace").split("\n")[line - 1].strip()}


def read_blanked(path: Path) -> str:
    """A file's code: comments, literals and preprocessor lines blanked."""
    text = blank_comments_and_literals(path.read_text(errors="replace"))
    return re.sub(r"(?m)^[ \t]*#.*$", "", text)  # preprocessor lines: a macro's braces are not a body's


def candidate_files(root: Path):
    """The kernel's .c files that name a seconds source at all (a fast first cut)."""
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            relpath = os.path.relpath(os.path.join(folder, name), root)
            if name.endswith(".c") and not relpath.startswith(SKIPPED):
                data = Path(folder, name).read_bytes()
                if b"tv_sec" in data or b"real_seconds" in data or b"get_seconds" in data:
                    yield relpath


def version(tree: Path) -> str:
    """The tree's version, as its Makefile says (6.1.192)."""
    make = dict(re.findall(r"(?m)^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)", (tree / "Makefile").read_text()))
    return f"{make['VERSION']}.{make['PATCHLEVEL']}.{make['SUBLEVEL']}"


def write_list(places: list, seen: dict, versions: tuple, report: Path, out: Path) -> str:
    """docs/hazard-recall.md: the places, each flagged or not, and the recall."""
    old_version, new_version = versions
    hazards = parse_report_text(report.read_text())["hazards"]
    for p in places:
        p["flagged"] = "yes" if flagged(p, hazards) else "no"
    hits = sum(p["flagged"] == "yes" for p in places)
    figure = (f"recall against {old_version} -> {new_version} history: "
              f"{hits} of {len(places)} ({percent(hits, len(places))})")
    rows = [f"| {p['file']} | {p['function']} | {p['old_line']} | {p['start']}-{p['end']} | {p['new_line']} "
            f"| {p['flagged']} | {p['how']} | {code_cell(p['old_code'])} | {code_cell(p['new_code'])} |"
            for p in places]
    out.write_text("\n".join([
        "# Recall of the hazards report against history", "",
        f"Computed on {old_version} and {new_version} (Debian's linux-source packages) by "
        f"`tools/hazard_recall.py` (`make hazard-recall`), against {report.relative_to(REPO)}.", "",
        "Each row: a function where the older tree keeps seconds in 32 bits (a local of int, s32, long, u32 ... "
        "declared or assigned from ktime_get_real_seconds(), get_seconds() or a tv_sec, a field of such a type "
        "assigned one, or seconds cast to such a "
        "type) and the newer tree's same function no longer does (widened, or the code rewritten). "
        "How: changed (the function is still there, without the shape) or removed (the function is gone from "
        "the file: the code was rewritten or dropped). "
        "Flagged: the older tree's hazard report has a report inside that function. "
        "Function lines: the body's first and last line in the older tree.", "",
        f"Read: {seen.get('files', 0)} .c files of {old_version} naming a seconds source, "
        f"{seen.get('shapes', 0)} shapes in their functions; not compared (no file of that path or unique name "
        f"in {new_version}): {', '.join(seen.get('not compared', [])) or 'none'}.", "",
        "Limits: fields count as 32-bit by name (declared so in the file or a header it includes directly), so a "
        "field widened in a header the file reaches indirectly is not seen; headers' own inline functions are not "
        "compared (.c files only); a function renamed counts as removed.", "",
        figure, "",
        "| file | function | old line | function lines | new line | flagged | how | old code | new code |",
        "|---|---|---|---|---|---|---|---|---|", *rows, ""]))
    return figure


def unpacked(series: str) -> Path:
    """Where the tree stage (y2038 tree --kver <series>) unpacks Debian's linux-source-<series>."""
    return work_dir() / f"linux-source-{series}" / "unpacked" / f"linux-source-{series}"


def code_cell(code: str) -> str:
    return f"`{code}`" if code else "-"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, default=unpacked("6.1"), help="default: the tree stage's 6.1")
    parser.add_argument("--new", type=Path, default=unpacked("6.12"), help="default: the tree stage's 6.12")
    parser.add_argument("--report", type=Path, help="the older tree's y2038-hazards.txt "
                        "(default: the committed one of generated-patches/)")
    parser.add_argument("--out", type=Path, default=RECALL_FILE)
    args = parser.parse_args(argv)
    old_version, new_version = version(args.old), version(args.new)
    report = args.report or PATCHES_DIR / f"linux-{old_version}" / "y2038-hazards.txt"
    seen: Dict[str, Any] = {}
    places = widened_places(args.old, args.new, seen)
    print(write_list(places, seen, (old_version, new_version), report.resolve(), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
