# SPDX-License-Identifier: GPL-2.0-only
"""What a y2038 fix says and where it goes.

A fix (a campaign of Kind: fix) is posted apart from the clean-ups and
before them.  Its message says what breaks and when, names the function and
the variable it widens (read from its own diff), and what the newest
packaged kernel has in the same place, read from Debian's tarball of it:

- the same function with the value widened: the fix is upstream, and this
  patch is its backport (stable-kernel-rules.rst, option 3 needs the
  upstream change described; a tarball has no commit ids to cite);
- no such function any more: upstream removed the code instead of fixing
  it, so the stable trees that still have it need their own fix;
- the same bug: the fix is for the maintainers' tree first.

On an older tree (a stable series) the patch goes to the stable
maintainers, the subsystem's people copied, and its posting's subject
names that series ("[PATCH 6.1]"); on the newest packaged tree it goes to
the maintainers.  A fix made on a stable point release carries "Cc:
stable" with the series that has the bug.
On a git checkout each line the fix removes is looked up in the tree's own
history (`git log -S`): the commit that introduced it is the patch's
"Fixes:" line.  A tarball has no history, so it gets none.
"""
import difflib
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..common import Y2038Error, digest, run, work_dir, write_atomic
from ..deps import NEWEST_PACKAGED as NEWEST_SERIES
from .posting_rules import is_newest, series_of

TARBALL = "/usr/src/linux-source-{series}.tar.xz"
STABLE_SECTION = "STABLE BRANCH"
# "s32 now;" and "int now = ...;": the type and the name a fix widened
DECLARATION = re.compile(r"^\s*(?:const\s+)?([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*(?:=[^;]*)?;")
FUNCTION_START = re.compile(r"^(?:[A-Za-z_][\w \t\*]*?[\s\*])?([A-Za-z_]\w*)\s*\([^;]*$")


@dataclass
class Widened:
    """One declaration a fix widened."""
    function: str
    variable: str
    old_type: str
    new_type: str


def enclosing_function(lines: List[str], index: int) -> str:
    """The function a line of C belongs to: the last definition above it
    (kernel style: the name starts its line, or follows the return type on it)."""
    for line in reversed(lines[:index]):
        if line.startswith("}"):
            break
        m = FUNCTION_START.match(line)
        if m and not line.startswith((" ", "\t", "#")):
            return m.group(1)
    return ""


def widened(before: str, after: str) -> List[Widened]:
    """The declarations whose type the fix changed, with their function."""
    old, new = before.splitlines(), after.splitlines()
    found = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "replace":
            continue
        for o, n in zip(old[i1:i2], new[j1:j2]):
            mo, mn = DECLARATION.match(o), DECLARATION.match(n)
            if mo and mn and mo.group(2) == mn.group(2) and mo.group(1) != mn.group(1):
                found.append(Widened(enclosing_function(old, i1), mo.group(2), mo.group(1), mn.group(1)))
    return found


def function_body(text: str, function: str) -> Optional[str]:
    """A function's definition in a C file, or None."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        m = FUNCTION_START.match(line)
        if m and m.group(1) == function and not line.startswith((" ", "\t", "#")):
            end = next((k for k in range(n, len(lines)) if lines[k].startswith("}")), len(lines) - 1)
            return "\n".join(lines[n:end + 1])
    return None


def changed_middle(old: str, new: str) -> Tuple[str, str]:
    """The parts of two versions of a line that differ: what is left of
    each once their common start and end (whole tokens) are taken off."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    while start and (old[start - 1].isalnum() or old[start - 1] == "_"):
        start -= 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    while end and (old[len(old) - end].isalnum() or old[len(old) - end] == "_"):
        end -= 1
    return old[start:len(old) - end].strip(), new[start:len(new) - end].strip()


def mainline_has(relpath: str, before: str, after: str) -> bool:
    """Whether the newest packaged kernel still has the bug a fix removes:
    each changed part is in the same function there, its fixed form is not."""
    newer = newer_file(relpath)
    if newer is None:
        return False
    old = before.splitlines()
    pairs = [(i1, old[i1:i2], after.splitlines()[j1:j2]) for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, old, after.splitlines(), autojunk=False).get_opcodes() if tag == "replace"]
    for index, removed, added in pairs:
        body = function_body(newer, enclosing_function(old, index) or "")
        for line, fixed in zip(removed, added):
            bug, cure = changed_middle(line, fixed)
            if body is None or bug not in body or (cure and cure in body):
                return False
    return bool(pairs)


def upstream_status(change: Widened, relpath: str, newer: Optional[str], newer_version: str) -> str:
    """What the newest packaged kernel has where the fix changes the code."""
    where = f"Linux {newer_version} (Debian's linux-source-{series_of(newer_version)})"
    if newer is None:
        return (f"{where} has no {relpath}: the code was removed or moved upstream, so there is no "
                f"upstream change to backport; this fix is for the stable trees that still have it.")
    body = function_body(newer, change.function)
    if body is None:
        return (f"{where} no longer has {change.function}(): upstream removed the code rather than "
                f"fixing it, so there is no upstream change to backport; this fix is for the stable "
                f"trees that still have it.")
    decl = next((m for m in map(DECLARATION.match, body.splitlines()) if m and m.group(2) == change.variable), None)
    if decl and decl.group(1) == change.new_type:
        return (f"{where} has this fix: its {change.function}() declares "
                f"\"{change.new_type} {change.variable}\".  This is the backport of that change.")
    return f"{where} still has the same code in {change.function}(): the fix is needed upstream too."


def newer_file(relpath: str) -> Optional[str]:
    """relpath in the newest packaged kernel (None if it has no such file)."""
    return newer_files([relpath])[relpath]


def newer_files(relpaths) -> Dict[str, Optional[str]]:
    """{relpath: its text in the newest packaged kernel, or None where it has
    no such file}, read from Debian's tarball and kept in the work dir.  The
    files not kept yet come out of one pass over the tarball, which stops
    when it has them all (--occurrence): decompressing the whole tarball
    costs about 10 s of CPU a pass."""
    tarball = Path(TARBALL.format(series=NEWEST_SERIES))
    if not tarball.exists():
        raise Y2038Error(f"{tarball} is missing: a fix's message says what the newest packaged kernel has; "
                         f"run `apt-get install linux-source-{NEWEST_SERIES}`")
    caches = {r: work_dir() / "upstream" / digest(tarball.stat().st_size, tarball.stat().st_mtime, r)
              for r in relpaths}
    missing = sorted(r for r, cache in caches.items() if not cache.exists())
    if missing:
        top = f"linux-source-{NEWEST_SERIES}"
        with tempfile.TemporaryDirectory(prefix="y2038-upstream-") as scratch:
            run(["tar", "-xJf", tarball, "--occurrence=1", "-C", scratch, *(f"{top}/{r}" for r in missing)],
                check=False)  # tar fails on a member it lacks: that file is absent
            for relpath in missing:
                found = Path(scratch) / top / relpath
                text = found.read_text(errors="replace") if found.exists() else None
                caches[relpath].parent.mkdir(parents=True, exist_ok=True)
                write_atomic(caches[relpath], (text if text is not None else "\0absent").encode())
    kept = {r: cache.read_text() for r, cache in caches.items()}
    return {r: None if text == "\0absent" else text for r, text in kept.items()}


def newer_version() -> str:
    """The newest packaged kernel's full version, from its Makefile."""
    makefile = newer_file("Makefile") or ""
    numbers = [re.search(rf"^{k}\s*=\s*(\d+)", makefile, re.M) for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL")]
    return ".".join(m.group(1) for m in numbers if m) or NEWEST_SERIES


# ktime_set(0, N * NSEC_PER_SEC) and ktime_set(0, NSEC_PER_SEC * N) with N a name
WRAPPED_SECONDS = re.compile(r"ktime_set\(\s*0\s*,\s*\(?(?:([A-Za-z_]\w*)\)?\s*\*\s*NSEC_PER_SEC|"
                             r"NSEC_PER_SEC\s*\*\s*\(?([A-Za-z_]\w*))\)?\s*\)")
WRAP = 2 ** 32  # the 32-bit unsigned long ktime_set() takes its nanoseconds in


def macro_value(src: Path, relpath: str, name: str) -> Optional[int]:
    """The integer a macro is #defined to in the changed file or a header of
    its directory (the driver's own), or None."""
    folder = (src / relpath).parent
    define = re.compile(rf"^#\s*define\s+{re.escape(name)}\s+\(?(\d+)[uUlL]*\)?\s*(?:/[*/].*)?$", re.M)
    for path in [src / relpath, *sorted(folder.glob("*.h"))]:
        m = define.search(path.read_text(errors="replace")) if path.is_file() else None
        if m:
            return int(m.group(1))
    return None


def wrapped_seconds(src: Path, relpath: str, before: str, after: str) -> List[str]:
    """What a removed ktime_set(0, N * NSEC_PER_SEC) was on 32-bit machines,
    N's value read from the driver's own #define, and in which functions."""
    old, new = before.splitlines(), set(after.splitlines())
    where: Dict[Tuple[str, int], List[str]] = {}
    for n, line in enumerate(old):
        m = WRAPPED_SECONDS.search(line) if line not in new else None
        name = m and (m.group(1) or m.group(2))
        value = macro_value(src, relpath, name) if name else None
        if name and value is not None and value * 10 ** 9 >= WRAP:
            where.setdefault((name, value), []).append(f"{enclosing_function(old, n) or relpath}()")
    said = []
    for (name, value), functions in where.items():
        wrapped = value * 10 ** 9 % WRAP
        said.append(f"{name} is {value}, so on 32-bit machines ktime_set(0, {name} * NSEC_PER_SEC) in "
                    f"{' and '.join(dict.fromkeys(functions))} is {value * 10 ** 9} mod 2^32 = {wrapped} ns "
                    f"({wrapped / 1e9:.2f} s) instead of {value} s.")
    return said


def message_facts(version: str, src: Path, relpath: str, before: str, after: str) -> List[str]:
    """The paragraphs a fix's message has beyond its rule's rationale: what
    it widens where, and (on an older tree) what upstream has there; what a
    wrapped ktime_set() was."""
    paragraphs = wrapped_seconds(src, relpath, before, after)
    for change in widened(before, after):
        where = f"{change.function}()" if change.function else relpath
        paragraphs.append(f"{where} keeps ktime_get_real_seconds() in \"{change.old_type} {change.variable}\" "
                          f"and compares it with a time64_t: from 2038-01-19 03:14:08 UTC on, {change.variable} "
                          f"is negative and the comparison gives the wrong answer, on 32-bit and 64-bit "
                          f"machines alike.")
        if not is_newest(version):
            paragraphs.append(upstream_status(change, relpath, newer_file(relpath), newer_version()))
    return paragraphs


def faulty_parts(before: str, after: str) -> List[str]:
    """What the fix changes in each line it rewrites (the line's changed
    middle, "NSEC_PER_MSEC * timer"; the whole line where that part is too
    short to name the bug), each once: the text whose first appearance is
    the bug's, though the code around it changed since (cpuctx became cpc)."""
    old, new = before.splitlines(), after.splitlines()
    parts: List[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("equal", "insert"):
            continue
        pairs = zip(old[i1:i2], new[j1:j2]) if tag == "replace" and i2 - i1 == j2 - j1 else \
            ((line, "") for line in old[i1:i2])
        for line, fixed in pairs:
            bug = changed_middle(line, fixed)[0] if fixed else line.strip()
            part = bug if len(re.findall(r"\w+", bug)) >= 2 else line.strip()
            if part and part not in parts:
                parts.append(part)
    return parts


def fixes_tags(tree, diffs: Dict[str, Tuple[bytes, bytes]]) -> List[str]:
    """'Fixes: <commit> ("<subject>")' for the commits of the tree's history
    that introduced the lines the fix removes (diffs: {file: (before, after)}).
    None for a tarball, and none where the line is older than the history
    a shallow clone has (its boundary commit did not introduce it)."""
    if tree.info.get("kind") != "git":
        return []
    shallow_file = Path(tree.git_dir) / "shallow"
    boundary = set(shallow_file.read_text().split()) if shallow_file.exists() else set()
    tags: List[str] = []
    for relpath, (before, after) in sorted(diffs.items()):
        for line in faulty_parts(before.decode(errors="replace"), after.decode(errors="replace")):
            found = tree.git("log", f"-S{line}", "--reverse", "--abbrev=12", "--format=%H %h (\"%s\")",
                             tree.baseline, "--", relpath, check=False)
            first = found.stdout.splitlines()[:1] if found.returncode == 0 else []
            if not first:
                continue
            commit, _, cited = first[0].partition(" ")
            if commit not in boundary and f"Fixes: {cited}" not in tags:
                tags.append(f"Fixes: {cited}")
    return tags


def trailers(version: str) -> List[str]:
    """Cc: stable for a fix made on a stable point release (6.1.192, and
    the newest packaged 6.12.118 too): that stable series has the bug.
    Without a version: "# 6.12" would claim the bug began there, and only
    the introducing commit (a Fixes: tag) tells which series have it."""
    point = version.split(".")[2:3]
    return ["Cc: stable@vger.kernel.org"] if point and point[0].isdigit() and int(point[0]) else []


def stable_recipients(maint, recipients: List[dict]) -> List[dict]:
    """Who an older tree's fix goes to: the stable maintainers and list
    (MAINTAINERS' STABLE BRANCH), the subsystem's people copied."""
    section = maint.section(STABLE_SECTION)
    if section is None:
        raise Y2038Error(f"MAINTAINERS has no {STABLE_SECTION!r} section: a stable fix has no recipients")
    stable = [{"address": m, "role": f"maintainer:{STABLE_SECTION}", "to": True} for m in section["M"]]
    stable += [{"address": l, "role": f"open list:{STABLE_SECTION}", "to": False} for l in section["L"]]
    return stable + [dict(r, to=False) for r in recipients]


def posting_subject_prefix(version: str, tree_kind: str, draft: bool) -> str:
    """'[PATCH 6.1]' for a stable tree's fix; '[PATCH net]' for netdev's
    fixes (maintainer-netdev.rst); '[PATCH]' otherwise."""
    words = ["PATCH"]
    if not is_newest(version):
        words.append(series_of(version))
    elif tree_kind == "netdev":
        words.append("net")
    if draft:
        words.insert(0, "DRAFT")
    return " ".join(words)
