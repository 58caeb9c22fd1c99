# SPDX-License-Identifier: GPL-2.0-only
"""Which kernels have the APIs a rule writes and removes, and so where a
rule's change may stand in code that supports a range of kernels.

The rules' own headers are the history (see README, "Adding a rule"):
  // Introduced: 3.17 timespec64, 3.17 ktime_get_real_ts64, 4.18 ktime_get_raw_ts64
      a name the rule may write, and the first kernel that has it; `*`
      stands for every change the rule makes (4.10 for scalar ktime_t
      arithmetic: ktime_t was a union until 4.10);
  // Removed: 5.0 do_gettimeofday, 5.6 timeval
      a name the rule takes away, and the first kernel without it; `-` when
      the old form was never removed (a cleanup).
A parenthesised note may follow any item.

A change stands where, on every kernel of the range for which its lines
are compiled, the names it writes exist; and not where the code is only
compiled for kernels that still have every name it takes away (a branch
for old kernels is left exactly as it is).  A rule that links a
declaration to its uses (all uses or none) is judged per function; a rule
whose sites are independent says `// Sites: independent`.
"""
import difflib
import re
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

from ..csource import IDENTIFIER, blank_comments, blank_comments_and_literals
from . import kernel_versions as kv

ITEM = re.compile(r"(?P<version>\d+\.\d+(?:\.\d+)?)\s+(?P<name>\*|[A-Za-z_]\w*)(?:\s*\([^()]*(?:\([^()]*\)[^()]*)*\))?")
TYPES = {"timespec64", "timespec", "timeval"}


def history(value: str) -> dict:
    """'3.17 timespec64, 4.18 ktime_get_raw_ts64 (note)' -> {name: version code}."""
    value = (value or "").strip()
    if value in ("", "-"):
        return {}
    found = {}
    rest = value
    for m in ITEM.finditer(value):
        found[m.group("name")] = kv.parse(m.group("version"))
        rest = rest.replace(m.group(0), "", 1)
    if not found or rest.strip(" ,;"):
        raise ValueError(f"cannot read {rest.strip(' ,;') or value!r}: "
                         f"write '<version> <name>[ (note)], ...'")
    return found


@dataclass
class RuleHistory:
    introduced: dict
    removed: dict
    independent: bool
    # what the `*` entry needs, for the report: its note up to a ':', unless about ktime_t
    everything: str = "scalar ktime_t arithmetic"

    @classmethod
    def of(cls, rule) -> "RuleHistory":
        introduced = rule.headers.get("Introduced") or ""
        note = re.search(r"(?:^|,)\s*\d+\.\d+(?:\.\d+)?\s+\*\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", introduced)
        try:
            found = cls(history(introduced), history(rule.headers.get("Removed")),
                        rule.headers.get("Sites", "").strip() == "independent")
        except ValueError as err:
            raise ValueError(f"{rule.relpath}: {err}") from None
        if note and "ktime_t" not in note.group(1):
            found.everything = note.group(1).split(":")[0].strip()
        return found


def catalogue_names(histories) -> set:
    """Every API name the catalogue knows the history of."""
    return {name for h in histories for table in (h.introduced, h.removed) for name in table if name != "*"}


@dataclass
class Decision:
    line: int  # first line of the site in the file before the rule
    accepted: bool
    reason: str = ""
    kept_for_older: bool = False  # left because only older kernels, which have the old API, compile it


@dataclass
class Outcome:
    content: bytes
    decisions: list = field(default_factory=list)

    @property
    def refused(self):
        return [d for d in self.decisions if not d.accepted]


def code_units(lines) -> list:
    """For each line, the index of the top-level unit (function, struct,
    file-scope statement) it belongs to; None if the braces do not balance
    (then the whole file is one unit)."""
    text = "\n".join(lines)
    blank = blank_comments_and_literals(text)
    units, depth, unit = [], 0, 0
    for line in blank.split("\n"):
        units.append(unit)
        if line.lstrip().startswith("#"):
            if depth == 0:
                unit += 1
            continue
        depth += line.count("{") - line.count("}")
        if depth < 0:
            return [0] * len(lines)
        if depth == 0 and (line.rstrip().endswith((";", "}")) or not line.strip()):
            unit += 1
    return units if depth == 0 else [0] * len(lines)


def shim_definitions(text: str, names) -> dict:
    """{line: (name, last line)} where the code defines a kernel API itself
    (a compat shim: a function or macro of that name), with the line its
    definition ends on.  A definition the code exports (EXPORT_SYMBOL*) is
    the API's own implementation, the kernel's, not a stand-in for it: a
    module exporting a name the kernel exports fails to load."""
    found: Dict[int, Tuple[str, int]] = {}
    exported = set(re.findall(r"\bEXPORT_SYMBOL\w*\s*\(\s*(\w+)\s*\)", text))
    names = set(names) - exported
    if not names:
        return found
    alternatives = "|".join(sorted(map(re.escape, names)))
    blank = blank_comments(text)
    line_of = lambda offset: blank.count("\n", 0, offset) + 1
    for m in re.finditer(rf"^[ \t]*#[ \t]*define[ \t]+({alternatives})\b(?:[^\n]*\\\n)*[^\n]*", blank, re.M):
        found[line_of(m.start(1))] = (m.group(1), line_of(m.end()))
    for m in re.finditer(rf"^[\w \t\*]*?\b({alternatives})\s*\([^;{{}}]*\)\s*\{{", blank, re.M):
        depth, end = 0, len(blank)
        for pos in range(m.end() - 1, len(blank)):
            depth += {"{": 1, "}": -1}.get(blank[pos], 0)
            if depth == 0:
                end = pos
                break
        found[line_of(m.start(1))] = (m.group(1), line_of(end))
    return found


class SiteFilter:
    """Keeps the changes of a rule that every kernel of the range can take."""

    def __init__(self, project: kv.Project, kernel_range: kv.KernelRange, histories: dict, fallbacks=frozenset()):
        """histories: {rule.relpath: RuleHistory}; fallbacks: names the
        converted code may use on any kernel of the range (compat_fallbacks)."""
        self.project = project
        self.range = kernel_range
        self.histories = histories
        self.fallbacks = fallbacks
        self.names = catalogue_names(histories.values())

    def __call__(self, rule, relpath: str, before: bytes, after: bytes) -> Outcome:
        rh = self.histories[rule.relpath]
        old = before.decode(errors="replace").split("\n")
        new = after.decode(errors="replace").split("\n")
        try:
            versions = self.project.versions(relpath, self.range) if relpath in self.project.texts else None
        except kv.ConditionalError:
            versions = None
        if versions is None or versions.text != before.decode(errors="replace"):
            versions = self._versions_of(before.decode(errors="replace"))
        units = code_units(old)
        shims = shim_definitions("\n".join(old), self.names)
        shim_lines = {n: (name, first, last) for first, (name, last) in shims.items()
                      for n in range(first, last + 1)}
        groups = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
                  if op[0] != "equal"]
        decisions = [self._judge(rh, versions, old, new, op, shim_lines) for op in groups]
        if not rh.independent:  # all uses of a declaration or none: per function
            refused_units = {units[min(op[1], len(old) - 1)] for op, d in zip(groups, decisions)
                             if not d.accepted}
            for op, d in zip(groups, decisions):
                unit = units[min(op[1], len(old) - 1)]
                if d.accepted and unit in refused_units:
                    d.accepted = False
                    other = next(x for o, x in zip(groups, decisions)
                                 if units[min(o[1], len(old) - 1)] == unit and x.reason)
                    d.reason = f"goes with line {other.line}: {other.reason}"
                    d.kept_for_older = other.kept_for_older
        result, last = [], 0
        for op, d in zip(groups, decisions):
            tag, i1, i2, j1, j2 = op
            result += old[last:i1]
            result += new[j1:j2] if d.accepted else old[i1:i2]
            last = i2
        result += old[last:]
        return Outcome("\n".join(result).encode(), decisions)

    def _versions_of(self, text: str):
        try:
            return kv.SourceVersions(text, self.project.evaluator,
                                     kv.samples_for(self.project.tested, self.range.lo, self.range.hi))
        except kv.ConditionalError:
            return None

    def _judge(self, rh: RuleHistory, versions, old, new, op, shim_lines) -> Decision:
        tag, i1, i2, j1, j2 = op
        line = i1 + 1
        # a deletion that takes whole definitions away (a dead #else branch
        # unifdef drops) rewrites no shim into a call of itself
        inside = [name for name, first, last in (shim_lines[n] for n in range(i1 + 1, max(i1, i2) + 1)
                                                 if n in shim_lines)
                  if tag != "delete" or not i1 < first <= last <= i2]
        if inside:
            return Decision(line, False, f"inside the code's own {inside[0]} (a compat shim): never rewritten",
                            True)
        kernels: Sequence[int]
        if versions is None:
            kernels = (self.range.lo, self.range.hi)
        else:
            span = range(i1 + 1, i2 + 1) if i2 > i1 else [max(i1, 1)]
            kernels = sorted({v for n in span for v in versions.kernels(n)})
        if not kernels:
            return Decision(line, False, f"compiled for no kernel of {self.range.text()}", True)
        lo, hi = kernels[0], kernels[-1]
        removed_tokens = {t for l in old[i1:i2] for t in IDENTIFIER.findall(l)}
        added_tokens = {t for l in new[j1:j2] for t in IDENTIFIER.findall(l)} - removed_tokens
        gone = [v for n, v in rh.removed.items() if n in removed_tokens]
        if gone and hi < min(gone):
            names = ", ".join(sorted(n for n in rh.removed if n in removed_tokens))
            return Decision(line, False, f"compiled only for kernels "
                                         f"{'before ' + kv.show(hi + 1) if hi & 255 == 255 else 'up to ' + kv.show(hi)}, "
                                         f"which still have {names}: left for them", True)
        needs = [(v, n) for n, v in rh.introduced.items()
                 if n == "*" or (n in added_tokens and n not in self.fallbacks)]
        if needs:
            version, name = max(needs)
            if version > lo:
                what = (rh.everything if name == "*" else
                        f"struct {name}" if name in TYPES else f"{name}()")
                return Decision(line, False, f"{what} needs Linux {kv.show(version)}; "
                                             f"this code supports {kv.describe(lo)}", False)
        return Decision(line, True)


def unavailable_uses(original: str, converted: str, project, samples, histories, provided=frozenset()) -> list:
    """The compile-free check: at each sample kernel version, the lines the
    preprocessor keeps in the conversion but not in the original may only
    use the names the rules' histories say that kernel has (or the
    converted code's compat header provides): none added after it, none
    removed before it (a line a rule wrote that still names struct timeval
    does not build from 5.6 on).  Returns ["<version>: <name> (since <v>):
    <line>"] and ["<version>: <name> (gone since <v>): <line>"]."""
    first: Dict[str, int] = {}
    gone: Dict[str, int] = {}
    for h in histories:
        for name, version in h.introduced.items():
            if name != "*" and name not in provided:
                first[name] = min(version, first.get(name, version))
        for name, version in h.removed.items():
            if name != "*" and name not in provided:
                gone[name] = min(version, gone.get(name, version))
    found = []
    for version in samples:
        before = set(kv.lines_compiled_at(original, project, version))
        for line in kv.lines_compiled_at(converted, project, version):
            if line in before:
                continue
            code = blank_comments_and_literals(line)
            for name in IDENTIFIER.findall(code):
                if name in first and first[name] > version:
                    found.append(f"{kv.show(version)}: {name} (since {kv.show(first[name])}): {line.strip()}")
            for m in REMOVED_USE.finditer(code):
                name = m.group("type") or m.group("call") or m.group("macro")
                if name in gone and gone[name] <= version:
                    found.append(f"{kv.show(version)}: {name} (gone since {kv.show(gone[name])}): {line.strip()}")
    return found


# what a removed name can be in a line: a structure type, a call, a macro (a member name such as ktime's tv
# is also any variable's: not read)
REMOVED_USE = re.compile(r"\bstruct\s+(?P<type>\w+)|\b(?P<call>[a-z_]\w*)\s*\(|\b(?P<macro>[A-Z][A-Z0-9_]*)\b")
# the same in code that was there: a pointer to a structure no header defines still compiles, as a pointer
# to an incomplete structure (a tracepoint's prototype of a syscall taking a `struct timespec __user *`),
# and so does a forward declaration `struct timeval;`; only a value of it does not.  A call through a member
# (`ops->mktime()`) is the driver's own, and a config symbol (`IS_ENABLED(CONFIG_KTIME_SCALAR)`) compiles unset
REMOVED_VALUE_USE = re.compile(r"\bstruct\s+(?P<type>\w+)\b(?!\s*(?:(?:const|volatile|__user|__kernel)\b\s*)*[*;])|"
                               r"(?<!->)(?<!\.)\b(?P<call>[a-z_]\w*)\s*\(|\b(?!CONFIG_)(?P<macro>[A-Z][A-Z0-9_]*)\b")


# the old time API's typedefs the kernel's headers dropped: include/linux/types.h's time_t went in 5.6 ("y2038:
# remove unused time32 interfaces"); its replacement is a choice no rule makes (time64_t: 64-bit division on
# 32-bit machines then needs div_s64(); a user-space ABI keeps __kernel_old_time_t)
REMOVED_TYPEDEFS = {"time_t": kv.code(5, 6, 0)}
TYPEDEF_USE = re.compile(rf"\b(?P<typedef>{'|'.join(REMOVED_TYPEDEFS)})\b")


def removed_uses(text: str, project, newest: int, gone: Dict[str, int]) -> List[Tuple[int, str]]:
    """(line, name) of each code line that the newest kernel of the range
    compiles (the version decided, everything else kept) and that names a
    structure type, call, macro or typedef (REMOVED_TYPEDEFS) that kernel
    no longer has; gone: {name: first kernel without it}."""
    names = {name for name, version in {**gone, **REMOVED_TYPEDEFS}.items() if version <= newest}
    code = blank_comments_and_literals(text)
    if not names or not re.search(rf"\b(?:{'|'.join(map(re.escape, sorted(names)))})\b", code):
        return []
    versions = kv.SourceVersions(text, project.evaluator, [newest])
    found = []
    for n, line in enumerate(code.split("\n"), 1):
        if n in versions.directive_lines or not versions.kernels(n):
            continue
        for m in [*REMOVED_VALUE_USE.finditer(line), *TYPEDEF_USE.finditer(line)]:
            name = next(v for v in m.groupdict().values() if v)
            if name in names and (n, name) not in found:
                found.append((n, name))
    return found
