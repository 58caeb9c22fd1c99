# SPDX-License-Identifier: GPL-2.0-only
"""Whole-driver analysis: the driver's own struct timespec/timeval
declarations, converted to struct timespec64 with every use, in every file
of the directory, or not at all.

A rule run file by file cannot change a field declared in a header and
filled in three .c files.  This pass reads the directory as one program:

- candidates: fields of structs the driver defines (not in a uapi header),
  file-scope variables, locals and the parameters of functions it defines
  (`struct timespec *p` or by value) of type struct timespec or timeval;
- uses: every mention of each name (a field as `.name`/`->name`), with the
  expression around it: a fill (`getnstimeofday(&x->ts)`), a helper
  (`timespec_sub(a, b)`, `timespec_to_ns(&x)`), a member (`.tv_sec`,
  `.tv_nsec`, `.tv_usec`), an assignment from a clock or between two
  candidates, an argument to one of the driver's own functions whose
  parameter is a candidate, a print of `.tv_sec` (the format then says
  `%lld`);
- clusters: candidates linked by assignment, helpers or calls convert
  together; one use of any other kind (copy_to_user, a kernel interface, a
  structure that reaches user space through sizeof(struct ...) in
  copy_to_user/copy_from_user or an _IO*() ioctl number) keeps the whole
  cluster as it is, listed with the reason and the line.

Names are matched by text, so a field name shared with another structure
(a kernel one included) brings that structure's uses in: any use that is not
one of the shapes above keeps the cluster, which errs on the side of leaving
code alone.
"""
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Dict, List, Optional, Set, Tuple

from . import build_units, dual_build
from ..csource import blank_comments_and_literals
from ..old_time_api import PATTERN as OLD_API
from ..engine.text_rules import opening_brace, value_end

FILLS = {  # old fill -> (its timespec64 form, first kernel with it)
    "getnstimeofday": "ktime_get_real_ts64", "do_gettimeofday": "ktime_get_real_ts64",
    "ktime_get_real_ts": "ktime_get_real_ts64", "ktime_get_ts": "ktime_get_ts64",
    "do_posix_clock_monotonic_gettime": "ktime_get_ts64",  # ktime_get_ts() under its POSIX clock's name, 3.x
    "getrawmonotonic": "ktime_get_raw_ts64", "get_monotonic_boottime": "ktime_get_boottime_ts64",
    "getboottime": "getboottime64",
    "jiffies_to_timespec": "jiffies_to_timespec64", "jiffies_to_timeval": "jiffies_to_timespec64",
}
TIMEVAL_FILLS = {"do_gettimeofday", "jiffies_to_timeval"}  # the rest fill a struct timespec
# struct inode's and struct iattr's time members, struct timespec64 from Linux 4.18: a candidate copied to or from
# one converts with it (the edit naming the member is its own text: the range check reads the name)
KERNEL_TIMESPEC64_MEMBERS = {"i_atime", "i_mtime", "i_ctime", "ia_atime", "ia_mtime", "ia_ctime"}
KERNEL_MEMBER_VALUE = re.compile(r"&?\s*[A-Za-z_(][\w\s.\->\[\]()*]*?(?:\.|->)\s*(\w+)\s*")
# edits no per-file rule makes (a jiffies fill, a tv_usec write, a tv_sec write, a kernel's timespec64 member): this
# pass takes such lone locals
PASS_ONLY_EDITS = {"jiffies_to_timespec64", "timespec64_to_jiffies", "tv_nsec", "tv_sec"} | KERNEL_TIMESPEC64_MEMBERS
# and the edits that start so: a copy to or from user space in the old layout, an input_event's time fields
PASS_ONLY_STARTS = ("(get_user(", "(put_user(")
# ops members of struct timespec and their timespec64 forms (struct ptp_clock_info, 3.19)
OPS_64 = {"gettime": "gettime64", "settime": "settime64"}
EXPORTED = re.compile(r"\bEXPORT_SYMBOL(?:_GPL)?\s*\(\s*$")
# the kernel's weak hooks an arch or board file defines, and their timespec64 forms: the kernel declares the old
# name with struct timespec (until 5.x), so the definition changes its name with its type
KERNEL_HOOKS_64 = {"read_persistent_clock": "read_persistent_clock64", "read_boot_clock": "read_boot_clock64",
                   "update_persistent_clock": "update_persistent_clock64"}
HELPERS = {  # helper on struct timespec -> its timespec64 form
    "timespec_sub": "timespec64_sub", "timespec_add": "timespec64_add",
    "timespec_compare": "timespec64_compare", "timespec_equal": "timespec64_equal",
    "timespec_to_ns": "timespec64_to_ns", "timespec_valid": "timespec64_valid",
    "set_normalized_timespec": "set_normalized_timespec64", "timespec_add_ns": "timespec64_add_ns",
    "timespec_to_ktime": "timespec64_to_ktime", "timespec_to_jiffies": "timespec64_to_jiffies",
    "do_settimeofday": "do_settimeofday64",
}
# the compat ioctl's copies of a struct timespec in the 32-bit layout -> their timespec64 forms (5.1 names)
COMPAT_COPIES = {"compat_get_timespec": "get_old_timespec32", "compat_put_timespec": "put_old_timespec32"}
OLD_TYPE_CAST = re.compile(r"^\(\s*(?:const\s+)?struct\s+time(?:spec|val)\s*(?:__user\s*)?\*\s*\)\s*")
USER_COPIES = {"copy_from_user": ("get_user", 0, 1), "copy_to_user": ("put_user", 1, 0)}  # -> (access, value arg, user arg)
OLD_LAYOUT = {"timespec": ("__kernel_old_timespec", "tv_nsec"), "timeval": ("__kernel_old_timeval", "tv_usec")}
# helper on struct timeval -> the timespec64 one that says the same of the converted values
TIMEVAL_HELPERS = {"timeval_compare": "timespec64_compare", "timeval_to_jiffies": "timespec64_to_jiffies",
                   "timeval_to_ns": "timespec64_to_ns"}
SCALAR_ARGS = {"set_normalized_timespec": {1, 2}, "timespec_add_ns": {1}}  # helper -> its number arguments
VALUES = {  # call assigned to a candidate -> its timespec64 form
    "ns_to_timespec": "ns_to_timespec64", "ktime_to_timespec": "ktime_to_timespec64",
    "timespec_sub": "timespec64_sub", "timespec_add": "timespec64_add",
}
# the crossings between the two types, each the value itself once both sides are timespec64 (a driver
# half-way there: its ptp_clock_info's gettime64/settime64 callbacks around struct timespec locals)
TO_TIMESPEC64, FROM_TIMESPEC64 = "timespec_to_timespec64", "timespec64_to_timespec"
# call assigned to a timeval candidate -> the timespec64 form of the same instant (tv_usec reads divide it back)
TIMEVAL_VALUES = {"ktime_to_timeval": "ktime_to_timespec64", "ns_to_timeval": "ns_to_timespec64"}
WIDENED = {"lld", "llx", "llX", "llo"}  # a printed tv_sec's new conversion (print_edit)
# the fills of a field that keeps its user-space layout (one argument: &x.f)
BOUNDARY_FILLS = {"timeval": {"do_gettimeofday"},
                  "timespec": {"getnstimeofday", "ktime_get_real_ts", "ktime_get_ts", "getrawmonotonic",
                               "get_monotonic_boottime", "do_posix_clock_monotonic_gettime"}}
COARSE_NOW = "ktime_to_timespec64(ktime_get_coarse_real())"  # current_kernel_time()'s value as a timespec64
STATEMENT_FILLS = {"current_kernel_time": "ktime_get_coarse_real_ts64",
                   "CURRENT_TIME": "ktime_get_coarse_real_ts64"}
PRINTS = re.compile(r"^(printk|pr_[a-z_]+|dev_[a-z_]+|netdev_[a-z_]+|seq_printf|snprintf|sprintf|scnprintf|"
                    r"trace_printk|pr_debug|pr_info|pr_err|pr_warn)$")
# the names this pass may write, and the first kernel with each (the site
# filter and the compile-free check read them like a rule's // Introduced:)
INTRODUCED = ("5.1 __kernel_old_timeval, 5.6 __kernel_old_timespec, 3.17 timespec64, 3.17 ktime_get_real_ts64, 3.17 ktime_get_ts64, 4.18 ktime_get_raw_ts64, "
              "4.18 ktime_get_boottime_ts64, 4.18 ktime_get_coarse_real_ts64, 4.18 getboottime64, 3.17 jiffies_to_timespec64, 3.19 gettime64, 3.19 settime64, "
              "3.17 timespec64_sub, 3.17 timespec64_add, 3.17 timespec64_compare, 3.17 timespec64_equal, "
              "3.17 timespec64_to_ns, 3.17 timespec64_valid, 3.17 set_normalized_timespec64, "
              "3.17 timespec64_add_ns, 3.17 timespec64_to_ktime, 3.17 ns_to_timespec64, 3.17 ktime_to_timespec64, "
              "4.3 timespec64_to_jiffies, 4.16 input_event_sec, 4.16 input_event_usec, 4.4 do_settimeofday64, "
              "5.1 get_old_timespec32, 5.1 put_old_timespec32, 4.18 ktime_get_coarse_real, "
              "4.9 read_persistent_clock64 (by 4.9), 4.9 read_boot_clock64 (by 4.9), "
              "4.9 update_persistent_clock64 (by 4.9), "
              + ", ".join(f"4.18 {member}" for member in sorted(KERNEL_TIMESPEC64_MEMBERS)))
REMOVED = "5.6 timespec, 5.6 timeval"
# struct inode's time members left it for accessors (inode_set_ctime_to_ts(), ...): a line naming one builds only
# on the kernels before
GONE_MEMBERS = "6.6 i_ctime, 6.7 i_atime, 6.7 i_mtime"
SHIM_NAMES = set(FILLS) | set(FILLS.values()) | set(HELPERS) | set(HELPERS.values()) | set(VALUES) | set(TIMEVAL_HELPERS) | \
    set(VALUES.values()) | {"ns_to_timeval", "ktime_to_timeval", "timeval_to_ktime"}
# a printk level, a string without conversions: KERN_INFO "..." is a format this pass reads
KERN_LEVEL = re.compile(r"^\s*KERN_[A-Z]+\b")
# a cast to an integer type, the kernel's or a vendor's typedef of one (HI_U32, UINT32, uint32_t): what is printed
# is the cast's type, whatever tv_sec's
# the last word of a type that is no structure (a member `unsigned long addr;`)
BASIC_TYPE = re.compile(r"char|short|int|long|unsigned|signed|bool|_*[us](?:8|16|32|64)|u?int(?:8|16|32|64)_t|"
                        r"size_t|dma_addr_t|phys_addr_t|uintptr_t|void")
CAST = re.compile(r"\(\s*(?:unsigned\s+|signed\s+)?(?:long\s+long|long|int|(?:[A-Za-z]*_+)?[usUS](?:8|16|32|64)|"
                  r"U?INT(?:8|16|32|64)|u?int(?:8|16|32|64)_t|time64_t)\s*\)\s*$")
STATEMENT_START = re.compile(r"(?:[;{}]|\n[ \t]*#[^\n]*)$")  # what ends right before a statement (rstripped)
DECLARATION = re.compile(r"\bstruct\s+(timespec|timeval)\b(?!64)")


@dataclass
class Candidate:
    kind: str  # field, global, local, param
    name: str
    type: str  # timespec or timeval
    relpath: str
    decl: tuple  # (start, end) of the "struct timespec" words
    scope: Optional[Tuple[int, int]] = None  # (start, end) of the function body, for locals and params
    function: str = ""  # the function a param belongs to, and its position
    position: int = 0
    pointer: bool = False
    init: Optional[Tuple[int, int]] = None  # (start, end) of the initialiser's value
    in_macro: bool = False  # a local of a macro body: no per-file rule sees it
    static: bool = False  # a static local: it lives like a file-scope variable
    mixed: bool = False  # declared with a pointer or an array of the same type: not changed
    array: bool = False  # a file-scope array: its elements are what converts
    allocated: bool = False  # a pointer field the driver allocates as an array: its elements convert


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def matching(code: str, pos: int, open_char="(", close_char=")") -> int:
    """Offset of the bracket closing the one at pos."""
    depth = 0
    for i in range(pos, len(code)):
        if code[i] == open_char:
            depth += 1
        elif code[i] == close_char:
            depth -= 1
            if depth == 0:
                return i
    return -1


CPLUSPLUS = re.compile(r"\s*#\s*(?:ifdef\s+__cplusplus|if\s+(?:defined\s*\(?\s*)?__cplusplus)\b")


def first_branches(code: str) -> str:
    """code with the #else/#elif branches of each conditional blanked (the
    same offsets) when their braces do not balance: `#if 1 ... {` `#else ...
    {` `#endif` opens one brace, not two; a whole function in an #else
    branch (the other configuration's) stays.  An `#ifdef __cplusplus`
    branch (extern "C" {) is blanked: the kernel is compiled as C."""
    lines = code.split("\n")
    blank: Set[int] = set()
    open_branches: list = []  # per open conditional: (lines of its current branch or None, blanked whatever it holds)
    for number, line in enumerate(lines):
        directive = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b", line)
        word = directive.group(1) if directive else ""
        if word.startswith("if"):
            open_branches.append(([], True) if CPLUSPLUS.match(line) else (None, False))
        elif word in ("elif", "else", "endif") and open_branches:
            branch, dead = open_branches.pop()
            if branch and (dead or sum(lines[n].count("{") - lines[n].count("}") for n in branch)):
                blank.update(branch)
            if word != "endif":
                open_branches.append(([], False))
        elif not word:
            for branch, _ in open_branches:
                if branch is not None:
                    branch.append(number)
    return "\n".join(" " * len(line) if n in blank else line for n, line in enumerate(lines))


def never_compiled(code: str) -> Set[int]:
    """The lines of `#if 0` blocks (and of `#if 1`'s #else): no kernel and
    no configuration compiles them, so the range has nothing to say about
    them; they change with their group and stay consistent with it."""
    lines, stack = set(), []  # per open conditional: whether its current branch is dead
    for number, line in enumerate(code.split("\n"), 1):
        directive = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b\s*(\w*)", line)
        word = directive.group(1) if directive else ""
        if word.startswith("if"):
            stack.append({"0": "dead", "1": "live-const"}.get(directive.group(2) if directive else "", "")
                         if word == "if" else "")
        elif word == "else" and stack:
            stack[-1] = {"dead": "", "live-const": "dead"}.get(stack[-1], stack[-1])
        elif word == "elif" and stack:
            stack[-1] = "" if stack[-1] == "dead" else ("dead" if stack[-1] == "live-const" else "")
        elif word == "endif" and stack:
            stack.pop()
        if "dead" in stack and not word:
            lines.add(number)
    return lines


def functions(code: str):
    """[(name, params start, params end, body start, body end)] of the
    function definitions in a file (top level, braces balanced, each
    conditional read in its first branch)."""
    found = []
    code = first_branches(code)
    depth, counted = 0, 0  # the brace depth at offset counted (kept as the matches go forward: linear)
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", code):
        if m.group(1) in ("if", "while", "for", "switch", "return", "sizeof", "defined"):
            continue
        line_start = code.rfind("\n", 0, m.start()) + 1
        if code[line_start:m.start()].strip().startswith("#"):
            continue
        close = matching(code, m.end() - 1)
        if close < 0:
            continue
        after = BODY_BRACE.match(code, close + 1)
        if not after:
            continue
        depth += code.count("{", counted, m.start()) - code.count("}", counted, m.start())
        counted = m.start()
        if depth != 0:
            continue
        body = after.end() - 1
        end = matching(code, body, "{", "}")
        if end > 0:
            found.append((m.group(1), m.end(), close, body, end))
    return found


TAG_OR_MEMBER_BEFORE = re.compile(r"(?:\b(?:struct|union|enum)|\.|->)\s*$")  # before a name: not the function
OBJECT_ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(\w+)[ \t]*$", re.M)  # #define NEW old_function
OBJECT_ALIAS_LINE = re.compile(r"[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+\w+")  # its line, up to the function's name
MACRO_HEADER = re.compile(r"[ \t]*#[ \t]*define[ \t]+\w+\([^)]*\)[ \t]*")  # a line's start that precedes a macro's body

# a function body's brace, after the #endif of a header written once per configuration
BODY_BRACE = re.compile(r"(?:\s*\n[ \t]*#[ \t]*(?:endif|else|elif)\b[^\n]*)*\s*\{")


MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)", re.M)
PRINT_CALL = re.compile(r"\b(?:printk|pr_[a-z_]+|dev_[a-z_]+|trace_printk|seq_printf|s(?:c?n)?printf)\s*\(")


def print_macros(codes) -> Set[str]:
    """The driver's variadic macros that print their arguments: their body
    calls printk/pr_* or another such macro (LINE_DBG -> LINE_PRINTK -> printk)."""
    variadic = [(m.group(1), m.group(3)) for code in codes for m in MACRO.finditer(code) if "..." in m.group(2)]
    found: Set[str] = set()
    while True:  # a name defined twice (one per configuration) prints if one of its bodies does
        more = {name for name, body in variadic if name not in found and (
            PRINT_CALL.search(body) or any(re.search(rf"\b{p}\s*\(", body) for p in found))}
        if not more:
            return found
        found |= more


def macro_candidates(a) -> list:
    """A parameter of one of the driver's function-like macros becomes a
    candidate (kind "macro", position: its index) when a call of the macro
    hands it one of the driver's timespecs/timevals, or the address of one
    (`#define MY_NOW(ts) do_gettimeofday(ts)` called as `MY_NOW(&x)`: the
    parameter is then a pointer): the macro's body is then read like a
    function's, and converts with what it is given."""
    given: Dict[Tuple[str, int], Set[Tuple[str, bool]]] = {}  # -> {(type, handed its address)}
    macros = [(relpath, m) for relpath, code in a.code.items() for m in MACRO.finditer(code)]
    names = {m.group(1) for _, m in macros}
    for relpath, code in a.code.items():
        for call in re.finditer(r"\b(\w+)\s*\(", code):
            line_start = code.rfind("\n", 0, call.start()) + 1  # the line alone: the prefix would be quadratic
            if call.group(1) not in names or re.search(r"#\s*define\s*$", code[line_start:call.start()]):
                continue
            close = matching(code, call.end() - 1)
            pos = call.end()
            for index, arg in enumerate(split_args(code[call.end():close]) if close > 0 else []):
                address = re.match(r"\s*&\s*(?!&)", arg)
                start = pos + (address.end() if address else len(arg) - len(arg.lstrip()))
                target = link_target(a, relpath, start, pos + len(arg.rstrip()))
                member = re.search(r"(?:\.|->)\s*\w+\s*$", arg.rstrip())
                if target is not None and member and a.other_struct(relpath, pos + member.start(),
                                                                    a.candidates[target].function):
                    target = None  # another structure's member of the same name (x->addr.start)
                if target is not None:
                    pointer = bool(address) or a.candidates[target].pointer and not arg.strip().startswith("*")
                    given.setdefault((call.group(1), index), set()).add((a.candidates[target].type, pointer))
                elif (call.group(1), index) not in a.macro_foreign:  # the body cannot change for one caller only
                    a.macro_foreign[(call.group(1), index)] = f"{relpath}:{line_of(code, pos)}: " \
                                                              f"{call.group(1)}() is also given {arg.strip()[:40]}"
                pos += len(arg) + 1
    found = []
    for relpath, m in macros:
        params = [p.strip() for p in m.group(2).split(",")]
        for index, name in enumerate(params):
            kinds = given.get((m.group(1), index), set())
            if kinds and re.fullmatch(r"[A-Za-z_]\w*", name) and re.search(rf"\b{name}\b", m.group(3)):
                start = m.start(2) + m.group(2).index(name)
                found.append(Candidate("macro", name, next(iter(kinds))[0] if len(kinds) == 1 else "mixed", relpath,
                                       (start, start), (m.start(3), m.end(3)), m.group(1), index,
                                       pointer=all(by_address for _, by_address in kinds)))
    return found


# a structure whose bytes are a device's or a wire's: packed, or copied to or from I/O memory
LAYOUT_BOUND = re.compile(r"\bstruct\s+(\w+)\s*\{[^{}]*\}\s*(?:__packed|__attribute__\s*\(\(\s*_*packed_*\s*\)\))|"
                          r"\bmemcpy_(?:to|from)io\s*\([^;]*?sizeof\s*\(\s*struct\s+(\w+)")


TYPE_ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(struct[ \t]+(timespec|timeval))[ \t]*$", re.M)


def type_aliases(codes: dict) -> Dict[str, tuple]:
    """The driver's own names of the type (`#define NANOTIME_T struct
    timeval`): name -> (timespec or timeval, the file, the span of the
    define's `struct timeval`).  What is declared with one converts
    together: the define changes for all of them."""
    return {m.group(1): (m.group(3), relpath, m.start(2), m.end(2))
            for relpath, code in codes.items() for m in TYPE_ALIAS.finditer(code)}


def find_candidates(codes: dict, funcs: dict, aliases: dict):
    """([Candidate], {struct name: why it reaches user space}) of the
    blanked files (codes), their functions (funcs, by file) and the driver's
    names of the type (aliases)."""
    candidates: List[Candidate] = []
    abi_structs: Dict[str, str] = {}
    declarations = re.compile(DECLARATION.pattern + "".join(rf"|\b({re.escape(name)})\b" for name in aliases))
    for relpath, code in codes.items():
        for m in re.finditer(r"(_IO[RW]*\s*\([^;()]*?\bstruct\s+(\w+))|copy_(?:to|from)_user\s*\([^;]*?sizeof\s*\(\s*struct\s+(\w+)", code):
            name = m.group(2) or m.group(3)
            abi_structs.setdefault(name, f"{relpath}:{line_of(code, m.start())}: struct {name} reaches user space")
        for m in LAYOUT_BOUND.finditer(code):
            name = m.group(1) or m.group(2)
            abi_structs.setdefault(name, f"{relpath}:{line_of(code, m.start())}: struct {name} has a layout fixed "
                                         f"outside the driver (packed, or copied to device memory)")
        if "/uapi/" not in f"/{relpath}":
            candidates += file_candidates(relpath, code, funcs[relpath], declarations, aliases)
    return candidates, abi_structs


def file_candidates(relpath: str, code: str, funcs, declarations, aliases: dict) -> list:
    """The candidates declared in one file (code: blanked; funcs: its
    functions(); declarations: what starts one, `struct timeval` or one of
    the driver's aliases of it)."""
    found = []
    flat = first_branches(code)
    macros = [(m.start(), m.end()) for m in re.finditer(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", code, re.M)]
    for m in declarations.finditer(code):
        ctype = m.group(1) or aliases[m.group(0)][0]
        decl = re.match(r"\s*(\*?)\s*([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*([;,=)])", code[m.end():])
        if not decl:
            continue
        pointer, name, end = decl.group(1), decl.group(2), decl.group(4)
        if decl.group(3):  # an array declared alone converts element by element
            zeroed = end == "=" and re.match(r"[\s{},0]*;", code[m.end() + decl.end():])  # = {{0, 0}}: zero either way
            placed = placement(code, m.start(), funcs, pointer, end) if not pointer and (end == ";" or zeroed) else None
            if placed and placed[0] in ("global", "field", "local") and (placed[0] == "global" or end == ";"):
                found.append(Candidate(placed[0], name, ctype, relpath, (m.start(), m.end()), placed[1],
                                       function=placed[2], position=m.start(), array=True))
            continue
        macro = [span for span in macros if span[0] <= m.start() < span[1]]
        if macro:
            if not pointer and end != ")":
                found.append(Candidate("local", name, ctype, relpath, (m.start(), m.end()), macro[0],
                                       "#define", m.start(), False, None, True))
            continue
        placed = placement(code, m.start(), funcs, pointer, end)
        if not placed:
            continue
        kind, scope, function = placed
        block = None
        if kind == "local" and scope:
            block = scope = block_of(flat, m.start(), scope)
            scope = own_arm(code, m.start(), scope, name) or scope
        init = initialiser(code, m.end() + decl.end()) if end == "=" and kind in ("local", "global") else None
        line_start = code.rfind("\n", 0, m.start()) + 1
        static = kind == "local" and re.search(r"\bstatic\b", code[line_start:m.start()]) is not None
        if kind == "field" and pointer:  # a member pointer: an array the driver allocates, element by element
            found.append(Candidate(kind, name, ctype, relpath, (m.start(), m.end()), None, function,
                                   m.start(), array=True, allocated=True))
            continue
        found.append(Candidate(kind, name, ctype, relpath, (m.start(), m.end()), scope,
                               function, m.start(), bool(pointer), init, static=static))
        if kind in ("local", "global") and (end == "," or init):
            others = more_declarators(code, m.end() + decl.end() - 1, found[-1])
            if block and scope != block and any(own_arm(code, o.position, block, o.name) != scope for o in others):
                for c in [found[-1], *others]:  # a name of the list used outside the arm: the list is the block's
                    c.scope = block
            found += others
    return found + result_candidates(relpath, code, funcs)


RETURNS = re.compile(r"\bstruct\s+(timespec|timeval)\s+([A-Za-z_]\w*)\s*\(")


def result_candidates(relpath: str, code: str, funcs) -> list:
    """The value a function the driver defines returns, when its type is
    struct timespec or timeval (kind "result", name and function: the
    function's): it converts with the values returned and the variables
    its callers store it in."""
    found = []
    for m in RETURNS.finditer(code):
        f = next((f for f in funcs if f[0] == m.group(2) and f[1] == m.end()), None)
        if f and f[0] not in SHIM_NAMES and not OLD_API.match(f"{f[0]}("):  # the API itself, or a shim of it
            found.append(Candidate("result", f[0], m.group(1), relpath, (m.start(), m.end(1)), (f[3], f[4]), f[0],
                                   m.start()))
    return found


def placement(code: str, start: int, funcs, pointer: str, end: str):
    """(kind, scope, function) of a declaration at start, None where it is
    no candidate (a shim's parameter, a file-scope or member pointer, a
    prototype's parameter, an extern)."""
    inside = [f for f in funcs if f[1] <= start <= f[2]]
    body = [f for f in funcs if f[3] < start < f[4]]
    if inside and inside[0][0] in SHIM_NAMES:
        return None  # the code's own do_gettimeofday() & co: a compat shim, never rewritten
    if inside:
        return "param", (inside[0][3], inside[0][4]), inside[0][0]
    if body:
        return None if end == ")" else ("local", (body[0][3], body[0][4]), body[0][0])  # ")": a prototype's
    if end == ")" or in_parameter_list(code, start):
        return None  # a prototype's parameter (f(struct timeval a, struct timeval b);: the first ends in ',')
    if code[:start].count("{") - code[:start].count("}") > 0:
        # a field only right inside a struct's own braces (nested structs before it closed)
        brace = opening_brace(code, start)
        struct = re.search(r"\b(?:struct|union)\s+(\w+)?\s*$", code[:brace]) if brace >= 0 else None
        return None if not struct or pointer and end != ";" else ("field", None, struct.group(1) or "")
    if pointer or is_extern(code, start):
        return None
    return "global", None, ""


def is_extern(code: str, start: int) -> bool:
    """Whether the declaration at start is an extern one (its line says so)."""
    return re.search(r"\bextern\b", code[code.rfind("\n", 0, start) + 1:start]) is not None


def block_of(flat: str, start: int, body: Tuple[int, int]) -> Tuple[int, int]:
    """The innermost block around a local's declaration at start (flat:
    the code with first_branches()): its scope in C, so that a name another
    block of the function declares again (`struct vsg_buf *temp` in a loop,
    `struct timespec temp` in an else) is not one of its uses."""
    brace = opening_brace(flat, start)
    close = matching(flat, brace, "{", "}") if brace > body[0] else -1
    return (brace, close) if close > 0 else body


def own_arm(code: str, start: int, scope: Tuple[int, int], name: str) -> Optional[Tuple[int, int]]:
    """The arm of a conditional in scope where a local is declared at start,
    when scope mentions the name nowhere outside that conditional (#ifdef X
    struct timeval t; ... #else struct timespec t; ... #endif): a local of
    one arm is that arm's alone, whatever another arm names so."""
    mentions = [scope[0] + m.start() for m in re.finditer(rf"(?<![\w.>]){re.escape(name)}\b", code[scope[0]:scope[1]])]
    for opened, closed in conditional_arms(code, scope[0], scope[1]):
        if not opened <= start < closed:
            continue
        if any(not opened <= at < closed for at in mentions):
            return None
        return next((lo, hi) for lo, hi in arms_of(code, opened, closed) if lo <= start < hi)
    return None


CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", re.M)


def configuration_at(code: str, pos: int) -> frozenset:
    """The conditions that hold at pos, as the directives around it read
    them: `ifdef X` in its arm, `!ifdef X` in a later arm of its chain (an
    #elif's arm holds its own condition and the negations of the earlier
    ones)."""
    stack: List[List[str]] = []  # per open conditional: the conditions of its arms so far, the current one last
    for m in CONDITIONAL.finditer(code, 0, pos):
        word, condition = m.group(1), " ".join(m.group(2).split())
        if word.startswith("if"):
            stack.append([f"{word} {condition}"])
        elif stack and word == "elif":
            stack[-1].append(f"if {condition}")
        elif stack and word == "else":
            stack[-1].append("")
        elif stack and word == "endif":
            stack.pop()
    held: Set[str] = set()
    for arms in stack:
        held.update("!" + earlier for earlier in arms[:-1])
        held.update([arms[-1]] if arms[-1] else [])
    return frozenset(held)


def contradict(one: frozenset, other: frozenset) -> bool:
    """Whether two configurations (configuration_at()) cannot hold at once:
    one holds a condition the other negates (two arms of one conditional)."""
    return any("!" + c in other for c in one) or any("!" + c in one for c in other)


def arms_of(code: str, opened: int, closed: int) -> List[Tuple[int, int]]:
    """The spans of a conditional's arms (code[opened:closed], #if to #endif),
    each from its directive to the next #elif/#else/#endif of that depth."""
    arms, depth, lo, pos = [], 0, opened, opened
    for line in code[opened:closed].split("\n"):
        word = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b", line)
        if word and word.group(1).startswith("if"):
            depth += 1
        elif word and depth == 1 and word.group(1) in ("elif", "else", "endif"):
            arms.append((lo, pos))
            lo = pos
        if word and word.group(1) == "endif":
            depth -= 1
        pos += len(line) + 1
    return arms


# the declarators of a declaration before the one looked for: `a, *b, c[4], `
EARLIER_DECLARATORS = r"(?:(?:\*\s*)?\w+\s*(?:\[[^\]]*\]\s*)?,\s*)*"  # one way to split it: linear

def declaration_of(name: str):
    """A declaration of name (a type word before it: `return x;` is none),
    as the first declarator or a later one (struct timeval a, name;)."""
    return re.compile(rf"\bstruct\s+\w+\s+{EARLIER_DECLARATORS}\*?\s*{re.escape(name)}\b|"
                      rf"\b(?!return\b|else\b|case\b|goto\b|sizeof\b)\w+\s+{EARLIER_DECLARATORS}\*?"
                      rf"{re.escape(name)}\s*[;=,)]")


def in_parameter_list(code: str, start: int) -> bool:
    """Whether start (outside any function body) is inside the parentheses
    of a declaration: a prototype's or a function pointer's parameters."""
    statement = max(code.rfind(";", 0, start), code.rfind("{", 0, start), code.rfind("}", 0, start)) + 1
    return code.count("(", statement, start) > code.count(")", statement, start)


def initialiser(code: str, value_start: int) -> Tuple[int, int]:
    """(start, end) of the value from value_start to the ',' or ';' that ends it."""
    stop = value_start
    depth = 0
    while stop < len(code) and not (code[stop] in ",;" and depth == 0):
        depth += code[stop] in "({[" and 1 or (code[stop] in ")}]" and -1 or 0)
        stop += 1
    return value_start, stop


def more_declarators(code: str, name_end: int, primary: Candidate) -> list:
    """The other declarators of primary's declaration (struct timespec a,
    b = x;), as candidates like it; a local's pointer (struct timeval tv,
    *ref;) is a pointer candidate, as it is declared alone; another pointer
    or an array among them marks primary mixed."""
    found = []
    stop = code.find(";", primary.decl[1])
    first_end = primary.init[1] if primary.init else name_end
    pos = first_end
    for piece in split_args(code[first_end:stop])[1:] if code[first_end:stop].lstrip().startswith(",") else []:
        pos = code.index(piece, pos)
        d = re.match(r"\s*(\*?)\s*([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*(=)?", piece)
        if d and d.group(1) and not d.group(3) and primary.kind == "local" and not primary.static:
            init = (pos + d.end(), pos + len(piece)) if d.group(4) else None  # *to = NULL
            found.append(Candidate("local", d.group(2), primary.type, primary.relpath, primary.decl, primary.scope,
                                   primary.function, pos + d.start(2), True, init))
            pos += len(piece)
            continue
        if not d or d.group(1) or d.group(3):
            primary.mixed = True  # a pointer or an array declared alongside
            continue
        extra_init = (pos + d.end(), pos + len(piece)) if d.group(4) else None
        found.append(Candidate(primary.kind, d.group(2), primary.type, primary.relpath, primary.decl, primary.scope,
                               primary.function, pos + d.start(2), False, extra_init, static=primary.static))
        pos += len(piece)
    return found


USE_MEMBER = re.compile(r"\s*(?:\.|->)\s*(tv_sec|tv_nsec|tv_usec)\b")


def expression_start(code: str, end: int) -> int:
    """Start of the postfix expression ending at end (x, x->y, a[i].b, (p)->q)."""
    pos = end
    while pos > 0:
        while pos > 0 and code[pos - 1] in " \t\n":
            pos -= 1
        if pos >= 2 and code[pos - 2:pos] == "->":
            pos -= 2
            continue
        if pos >= 1 and code[pos - 1] == "." and not (pos >= 2 and code[pos - 2].isdigit()):
            pos -= 1
            continue
        if pos >= 1 and code[pos - 1] in ")]":
            opener = "(" if code[pos - 1] == ")" else "["
            depth, i = 0, pos - 1
            while i >= 0:
                if code[i] in ")]":
                    depth += 1
                elif code[i] in "([":
                    depth -= 1
                    if depth == 0:
                        break
                i -= 1
            if i < 0 or code[i] != opener:
                return pos
            # a call or a cast keeps going only for (expr)->x and a[i]
            pos = i
            continue
        m = re.search(r"[A-Za-z_]\w*$", code[:pos])
        if m:
            pos = m.start()
            # what came before must be a member operator to go on
            before = code[:pos].rstrip()
            if before.endswith("->") or (before.endswith(".") and not before[-2:-1].isdigit()):
                pos = len(before)
                continue
        return pos
    return pos


class Analysis:
    def __init__(self, texts: dict):
        self.texts = texts
        self.code = {p: blank_comments_and_literals(t) for p, t in texts.items()}
        self.type_aliases = type_aliases(self.code)
        self.funcs = {p: functions(c) for p, c in self.code.items()}  # once per file: the largest cost here
        self.candidates, self.abi_structs = find_candidates(self.code, self.funcs, self.type_aliases)
        self.user_only = dual_build.user_only_lines(texts)  # {relpath: lines compiled without __KERNEL__ only}
        self.shared_structs = dual_build.shared_structs(texts, self.user_only)  # a header a user tool includes too
        self.includers = including_files(texts)
        self._flat: Dict[str, str] = {}  # first_branches() of a file, when a shadowing is looked up there
        self._uses: Dict[int, list] = {}  # uses() of each candidate, by id
        self.ambiguous: Set[Tuple[str, str]] = set()  # (file, name): a local there in one configuration, a global in another
        self.global_files: Dict[str, Set[str]] = {}  # a global's name -> the files defining one of that name
        for c in self.candidates:
            if c.kind == "global":
                self.global_files.setdefault(c.name, set()).update(self.includers[c.relpath])
        self.param_of: Dict[Tuple[str, int], List[Candidate]] = {}  # (function, index) -> one per definition
        for c in self.candidates:
            if c.kind == "param":
                f = next(f for f in self.funcs[c.relpath] if (f[3], f[4]) == c.scope)
                params = split_args(self.code[c.relpath][f[1]:f[2]])
                index = next((i for i, p in enumerate(params) if re.search(rf"\b{c.name}\s*$", p.strip())), None)
                if index is not None:
                    self.param_of.setdefault((c.function, index), []).append(c)
        self.definitions: Dict[str, list] = {}  # a function's name -> its definitions [(file, function)]
        for p, fs in self.funcs.items():
            for f in fs:
                self.definitions.setdefault(f[0], []).append((p, f))
        self.defined = set(self.definitions)
        # `#define NANOTIME_SUB _isp_microtime_sub`: a call of the name is a call of the function
        # (`#define ns_to_timeval portable_ns_to_timeval` is a compat shim: the kernel's code calls it too)
        self.aliases = {m.group(1): m.group(2) for code in self.code.values() for m in OBJECT_ALIAS.finditer(code)
                        if m.group(2) in self.defined and m.group(1) not in SHIM_NAMES and not OLD_API.match(f"{m.group(1)}(")}
        self.results = {c.function: n for n, c in enumerate(self.candidates) if c.kind == "result"}
        self.print_macros = print_macros(self.code.values())
        self._string_macros: Dict[str, Set[str]] = {}  # string_macros() of a file's translation unit
        self._member_types: Dict[str, Set[str]] = {}  # member_types()' answers
        self.struct_names = {m.group(1) for code in self.code.values() for m in re.finditer(r"\bstruct\s+(\w+)\s*\{", code)}
        # function-like macros: a function whose header is one (static DEVICE_ATTR_READER(x, dev, buf) {)
        self.macro_names = {m.group(1) for code in self.code.values() for m in MACRO.finditer(code)}
        self.macro_params: Dict[Tuple[str, int], List[int]] = {}  # (macro, index) -> candidate indexes
        self.macro_foreign: Dict[Tuple[str, int], str] = {}  # (macro, index) -> an argument no candidate
        self.candidates += macro_candidates(self)
        for n, c in enumerate(self.candidates):
            if c.kind == "macro":
                self.macro_params.setdefault((c.function, int(c.position)), []).append(n)

    def uses(self, c: Candidate):
        """[(relpath, start, end)] of each mention, the declaration aside
        (found once per candidate: ambiguous_links() and examine() both read them)."""
        if id(c) not in self._uses:
            self._uses[id(c)] = self._find_uses(c)
        return self._uses[id(c)]

    def _find_uses(self, c: Candidate):
        found = []
        if c.kind == "field":
            pattern = re.compile(rf"(\.|->)\s*{re.escape(c.name)}\b")
            for relpath, code in self.code.items():
                for m in pattern.finditer(code):
                    if not self.other_struct(relpath, m.start(), c.function):
                        found.append((relpath, m.start(), self._element_end(code, m.end()) if c.array else m.end()))
            return found
        code = self.code[c.relpath]
        lo, hi = c.scope if c.scope else (0, len(code))
        if c.kind == "global":
            # another file that defines a global of the name means its own (one
            # SoC's copy of a driver beside another's, one of them built)
            mine = self.includers[c.relpath]
            files = [(p, other) for p, other in self.code.items()
                     if p in mine or p not in self.global_files.get(c.name, ())] \
                if not self.file_local(c) else [(p, self.code[p]) for p in sorted(mine)]
            for relpath, other in files:
                for m in re.finditer(rf"(?<![\w.>]){re.escape(c.name)}\b", other):
                    if relpath == c.relpath and m.start() == c.position:
                        continue  # a later declarator's own name (static struct timeval a, b;)
                    if relpath == c.relpath and c.decl[0] <= m.start() <= c.decl[1] + len(c.name) + 40 \
                            and other[c.decl[1]:m.start()].strip(" \t*,") == "":
                        continue
                    if any(f[3] < m.start() < f[4] and self._shadowed(relpath, f, c.name, m.start())
                           for f in self.funcs[relpath]):
                        continue
                    found.append((relpath, m.start(), self._element_end(other, m.end()) if c.array else m.end()))
            return found
        for m in re.finditer(rf"(?<![\w.>]){re.escape(c.name)}\b", code[lo:hi]):
            start = lo + m.start()
            found.append((c.relpath, start, self._element_end(code, start + len(c.name)) if c.array else start + len(c.name)))
        if c.kind == "local":  # the declaration's own mention (not a later cast's: copy_to_user((struct timeval *)p, &x, ...))
            found = [u for u in found if not (c.decl[1] <= u[1] and code[c.decl[1]:u[1]].strip(" \t*,\n") == ""
                                                   or re.match(r"\s*[,;=]", code[u[2]:]) and ";" not in code[c.decl[0]:u[1]])]
        return found

    def file_local(self, c: Candidate) -> bool:
        """Whether a global is static: its translation unit's alone."""
        code = self.code[c.relpath]
        return re.search(r"\bstatic\b", code[code.rfind("\n", 0, c.position) + 1:c.position]) is not None

    def alias_of(self, c: Candidate) -> str:
        """The driver's name of the type c is declared with (NANOTIME_T), or ''."""
        word = self.code[c.relpath][c.decl[0]:c.decl[1]]
        return word if word in self.type_aliases else ""

    def function_used_as_value(self, name: str):
        """[(relpath, offset, member)] where a function's name is used other
        than in a call or a declaration: member is the ops member it is
        assigned to (`x.gettime = fn`, `.gettime = fn,`) with offset at that
        member, else '' with offset at the name."""
        found = []
        for relpath, code in self.code.items():
            for m in re.finditer(rf"\b{re.escape(name)}\b(?!\s*\()", code):
                if TAG_OR_MEMBER_BEFORE.search(code, max(0, m.start() - 20), m.start()):
                    continue  # struct voice_stats, p->voice_stats: another name space's
                alias = OBJECT_ALIAS_LINE.fullmatch(code[code.rfind("\n", 0, m.start()) + 1:m.end()])
                if alias and self.aliases.get(alias.group(1)) == name:
                    continue  # the alias's own definition: calls of it are calls of the function
                member = re.search(r"(?:\.|->)\s*([A-Za-z_]\w*)\s*=\s*$", code[:m.start()])
                found.append((relpath, member.start(1), member.group(1)) if member else (relpath, m.start(), ""))
        return found

    def definitions_reached(self, fname: str, relpath: str, pos: int) -> list:
        """The definitions [(file, function)] of fname that a call or a
        prototype at pos in relpath names: its translation unit's own when
        it has one; of several, those the conditionals around pos select
        too (a function defined once per configuration: #ifdef A ... #endif
        #ifdef B ... #endif, each called under its own #ifdef)."""
        defs = self.definitions.get(fname, [])
        defs = [(p, f) for p, f in defs if relpath in self.includers[p]] or defs
        if len(defs) < 2 or len({p for p, _ in defs}) > 1:
            return defs  # files are chosen by the build, which this pass does not read: all of them
        here = configuration_at(self.code[relpath], pos)
        return [(p, f) for p, f in defs if configuration_at(self.code[p], f[1]) <= here] or defs

    def string_macros(self, relpath: str) -> Set[str]:
        """string_macros() that hold in every translation unit compiling the
        file: each .c file that includes it (a header's macro body expands
        where it is used, LOG_TAG defined by each), else the file itself,
        with the files each includes."""
        if relpath not in self._string_macros:
            units = sorted(q for q in self.includers[relpath] if q.endswith(".c")) or [relpath]
            held = [string_macros(text for p, text in self.texts.items() if unit in self.includers[p]) for unit in units]
            self._string_macros[relpath] = set.intersection(*held)
        return self._string_macros[relpath]

    def static_function(self, c: Candidate) -> bool:
        """Whether a parameter's function is defined static."""
        code = self.code[c.relpath]
        name_start = next(f[1] for f in self.funcs[c.relpath] if (f[3], f[4]) == c.scope) - 1
        name_start = code.rfind(c.function, 0, name_start)
        head = code[max(code.rfind(";", 0, name_start), code.rfind("}", 0, name_start),
                        code.rfind("#", 0, name_start)) + 1:name_start]
        return re.search(r"\bstatic\b", head) is not None

    def reaches(self, c: Candidate, fname: str, relpath: str, pos: int) -> bool:
        """Whether a call or prototype of fname at pos names c's function."""
        return any(p == c.relpath and (f[3], f[4]) == c.scope for p, f in self.definitions_reached(fname, relpath, pos))

    def params_reached(self, fname: str, idx: int, relpath: str, pos: int) -> Optional[List[Candidate]]:
        """The parameter candidates a call's idx-th argument reaches, None
        where a definition it reaches takes no candidate there."""
        defs = self.definitions_reached(fname, relpath, pos)
        targets = [c for c in self.param_of.get((fname, idx), []) if self.reaches(c, fname, relpath, pos)]
        return targets if defs and len(targets) == len(defs) else None

    def called(self, name: str) -> bool:
        """Whether the directory calls the function (not only declares or
        defines it: a declaration has a type word or '*' before the name)."""
        for code in self.code.values():
            for m in re.finditer(rf"\b{re.escape(name)}\s*\(", code):
                before = code[code.rfind("\n", 0, m.start()) + 1:m.start()]
                if re.search(r"\breturn\s*$", before) or not re.search(r"(?:[A-Za-z_]\w*|\*)\s*$", before):
                    return True
        return False

    def ops_members(self, member: str):
        """The parameter candidates of the functions assigned to an ops member."""
        names = set()
        for relpath, code in self.code.items():
            names |= set(re.findall(rf"(?:\.|->)\s*{member}\s*=\s*([A-Za-z_]\w*)\s*[,;]", code))
        return names

    def other_struct(self, relpath, pos, struct) -> bool:
        """Whether the member at pos belongs to a structure known to be
        another one than struct: its base is a variable declared with
        another struct type, or it is a designator of another struct's
        initialiser.  Unknown stays a use (the cautious answer)."""
        code = self.code[relpath]
        before = code[:pos].rstrip()
        if before.endswith(("{", ",")):  # a designator
            init = list(re.finditer(r"\bstruct\s+(\w+)\s+\**\w+(\s*\[[^\]]*\])?\s*=\s*\{", code[:pos]))
            return bool(init) and init[-1].group(1) != struct and \
                code[init[-1].end():pos].count("{") >= code[init[-1].end():pos].count("}")
        base = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\]\s*)?$", before)
        if not base or not struct:
            return False
        name = base.group(1)
        if re.search(r"(?:\.|->)\s*$", before[:base.start()]):  # x->addr.start: the type of the member addr
            types = self.member_types(name)
            return bool(types) and struct not in types and all(
                BASIC_TYPE.fullmatch(t) or t in self.struct_names or t in self.struct_types(name) for t in types)
        body = next((f for f in self.funcs[relpath] if f[1] <= pos <= f[4]), None)
        scope = code[body[1]:pos] if body else code[:pos]
        # the type's name ends where the variable's begins: `struct foo_info, member)` in a container_of()
        # declares no `info`
        declared = re.findall(rf"\bstruct\s+(\w+)(?:\s+|\s*\*+\s*){re.escape(name)}\s*[;,)=\[]", scope) or \
            re.findall(rf"\bstruct\s+(\w+)(?:\s+|\s*\*+\s*){re.escape(name)}\s*[;,=\[]", code[:pos])
        return bool(declared) and declared[-1] != struct

    def member_types(self, name: str) -> Set[str]:
        """The last word of each type the driver declares a member or a
        variable called name with (`struct img_addr addr;` -> img_addr,
        `unsigned long addr;` -> long); a typedef of a structure counts as
        the structure too (its name and the structure's)."""
        if name not in self._member_types:
            words = {m.group(1) for code in self.code.values() for m in re.finditer(
                rf"\b(\w+)\s*\**\s*\b{re.escape(name)}\s*(?:\[[^\]]*\]\s*)?;", code)}
            words -= {"return", "else", "case", "goto", "sizeof"}
            words |= {m.group(1) for code in self.code.values() for m in re.finditer(
                r"\btypedef\s+struct\s+(\w+)\s*\**\s*(\w+)\s*;", code) if m.group(2) in words}
            self._member_types[name] = words
        return self._member_types[name]

    def defines(self, name: str) -> bool:
        """Whether the driver defines a macro of that name itself (`#define
        CURRENT_TIME current_time(inode)`): its own meaning, not the kernel's."""
        return any(re.search(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\b", code, re.M) for code in self.code.values())

    def struct_types(self, name: str) -> Set[str]:
        """The structures the driver declares a member or a variable called
        name with, `struct` spelt out (`struct sprd_img_capture_param
        capture_param;`): its own or a header's it does not have, a
        structure either way."""
        return {m.group(1) for code in self.code.values() for m in re.finditer(
            rf"\bstruct\s+(\w+)\s*\**\s*\b{re.escape(name)}\s*(?:\[[^\]]*\]\s*)?;", code)}

    @staticmethod
    def _element_end(code, end):
        """The end of name[...] when a subscript follows the name at end."""
        subscript = re.match(r"\s*\[", code[end:])
        close = matching(code, end + subscript.end() - 1, "[", "]") if subscript else -1
        return close + 1 if close > 0 else end

    def _shadowed(self, relpath, f, name, at):
        """Whether the mention at `at` in function f names a parameter of
        the name or a local declared before it in a block around it.  A
        local declared under a conditional that may not hold at `at` (#ifdef
        A struct timeval g; ... #endif g = ...;) is the name there in one
        configuration and the global in another: not shadowed, and noted
        (ambiguous) so that both change together."""
        code = self.code[relpath]
        ambiguous = False
        for m in declaration_of(name).finditer(code, f[1], f[4]):
            if is_extern(code, m.start()):
                continue  # `extern struct timeval x;` in a block names the global
            if m.start() < f[3]:
                return True  # a parameter: the whole body's
            declared, here = configuration_at(code, m.start()), configuration_at(code, at)
            if m.start() < at and not contradict(declared, here):  # not another arm's local
                lo, hi = block_of(self.flat(relpath), m.start(), (f[3], f[4]))
                if lo <= at <= hi:
                    if declared <= here:
                        return True
                    ambiguous = True
        if ambiguous:
            self.ambiguous.add((relpath, name))
        return False

    def flat(self, relpath):
        if relpath not in self._flat:
            self._flat[relpath] = first_branches(self.code[relpath])
        return self._flat[relpath]


def including_files(texts: dict) -> Dict[str, Set[str]]:
    """Each file and the files that read it through `#include "x.c"`, at any
    depth (a vendor's per-board file including the driver's common code):
    they are one translation unit, so a static global of the file is theirs."""
    included_by: Dict[str, Set[str]] = {p: set() for p in texts}
    for p, text in texts.items():
        for include in build_units.INCLUDE.findall(text):
            target = build_units.normalised(PurePosixPath(p).parent / include)
            if target in included_by and target != p:
                included_by[target].add(p)
    closure = {}
    for p in texts:
        seen, todo = {p}, [p]
        while todo:
            for q in included_by[todo.pop()] - seen:
                seen.add(q)
                todo.append(q)
        closure[p] = seen
    return closure


def split_args(text: str):
    args, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        args.append(current)
    return args


def enclosing_call(code: str, pos: int):
    """(name, open paren, close paren, argument index) of the innermost call
    around pos, or None."""
    depth, i = 0, pos - 1
    while i >= 0:
        ch = code[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                m = re.search(r"([A-Za-z_]\w*)\s*$", code[:i])
                close = matching(code, i)
                if not m or close < 0:
                    return None
                index = len(split_args(code[i + 1:pos])) - 1 if code[i + 1:pos].strip() else 0
                if code[i + 1:pos].rstrip().endswith(","):
                    index += 1
                return m.group(1), i, close, max(index, 0)
            depth -= 1
        elif ch in ";{}" and depth == 0:
            return None
        i -= 1
    return None


def convert(texts: dict, allowed=lambda relpath, line, new: True):
    """Returns ({relpath: new text}, [converted cluster descriptions],
    [kept: {"why": "relpath:line: why", "names": [(relpath, name)]}]).  allowed(relpath, line, new text) -> bool
    says whether a line may take that change (the kernel range's verdict)."""
    numbers, described = ioctl_type_edits(texts, allowed)
    a = Analysis(texts)
    if not a.candidates and not numbers:
        return {}, [], []
    links = Links(len(a.candidates))
    found = examine(a, links)
    converted: list = []  # settle()'s descriptions
    kept: list = []
    per_file: Dict[str, Set[Tuple[int, int, str]]] = {}
    for _, members in sorted(links.groups().items()):
        lone = lone_locals(a, members)
        pass_only = any(e[3] in PASS_ONLY_EDITS or e[3].startswith(PASS_ONLY_STARTS) or "input_event_sec = " in e[3]
                        or ALLOCATORS.fullmatch(e[3])
                        or a.candidates[m].type == "timeval" and e[3] in TIMEVAL_HELPERS.values()  # no rule reads them
                        for m in members for e in found.edits[m])
        widened = any(e[3] in WIDENED for m in members for e in found.edits[m])
        if lone and not pass_only and not widened:
            continue  # locals of one declaration each: the per-file rules (timespec_locals, ...) own them
        outcome, what, cluster_edits = settle(a, texts, members, found, allowed)
        if lone and not pass_only and outcome != "converted":
            continue  # a printed lone local this pass cannot take: the per-file rules still try it
        (converted if outcome == "converted" else kept).append(what)
        for e in cluster_edits:
            per_file.setdefault(e[0], set()).add(e[1:])
    converted += described
    for e in numbers:
        per_file.setdefault(e[0], set()).add(e[1:])
    new_texts = {}
    for relpath, file_edits in per_file.items():
        text = texts[relpath]
        for start, end, new in sorted(file_edits, reverse=True):
            text = text[:start] + new + text[end:]
        new_texts[relpath] = text
    return new_texts, converted, kept


IOCTL_NUMBERS = {"_IOR": 2, "_IOW": 2, "_IOWR": 2}  # ioctl number macro -> its type argument
OLD_TYPE_ARG = re.compile(r"\s*struct\s+(timespec|timeval)\s*")


def ioctl_forwarders(codes) -> Dict[str, int]:
    """_IOR/_IOW/_IOWR and the driver's macros that hand one of their
    parameters to one of them as its type: name -> that argument's index."""
    found = dict(IOCTL_NUMBERS)
    defines = [(m.group(1), [x.strip() for x in m.group(2).split(",")], m.group(3))
               for code in codes for m in MACRO.finditer(code)]
    grown = True
    while grown:
        grown = False
        for name, params, body in defines:
            for m in re.finditer(r"\b(\w+)\s*\(", body):
                index = found.get(m.group(1))
                close = matching(body, m.end() - 1)
                args = split_args(body[m.end():close]) if index is not None and close > 0 else []
                arg = args[index].replace("\\", " ").strip() if index is not None and index < len(args) else ""
                if arg in params and name not in found:
                    found[name], grown = params.index(arg), True
    return found


def ioctl_type_edits(texts: dict, allowed):
    """A struct timespec or timeval named as an ioctl number's type
    (_IOW('a', 5, struct timespec), or through the driver's own macro that
    hands it to _IOW) becomes struct __kernel_old_timespec/timeval: the same
    size on every architecture (two longs), so the same number; user space
    keeps its layout.  Returns (edits, descriptions)."""
    codes = {p: blank_comments_and_literals(t) for p, t in texts.items() if "/uapi/" not in f"/{p}"}
    takers = ioctl_forwarders(codes.values())
    edits, described = [], []
    for relpath, code in codes.items():
        for m in re.finditer(r"\bstruct\s+(timespec|timeval)\b", code):
            call = enclosing_call(code, m.start())
            if not call or takers.get(call[0]) != call[3]:
                continue
            arg = split_args(code[call[1] + 1:call[2]])[call[3]].replace("\\", " ")
            new = f"struct __kernel_old_{m.group(1)}"
            line = line_of(code, m.start())
            if OLD_TYPE_ARG.fullmatch(arg) and allowed(relpath, line, new):
                edits.append((relpath, m.start(), m.end(), new))
                described.append(f"{relpath}:{line}: {call[0]}() ioctl number's {m.group(0)} (its size, its number)")
    return edits, described


class Links:
    """Candidates linked by assignment, helpers or calls (union-find over
    their indexes): each group converts together or not at all."""

    def __init__(self, count: int):
        self.parent = list(range(count))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, x: int, y: int) -> None:
        self.parent[self.find(x)] = self.find(y)

    def groups(self) -> dict:
        """{root: [members, in index order]}."""
        groups: Dict[int, List[int]] = {}
        for n in range(len(self.parent)):
            groups.setdefault(self.find(n), []).append(n)
        return groups


@dataclass
class Findings:
    """What reading every candidate's uses found, by candidate index."""
    edits: dict  # n -> [(relpath, start, end, new)]
    problems: dict = field(default_factory=dict)  # n -> the first reason it cannot convert
    abi: set = field(default_factory=set)  # fields of structures that reach user space
    exported: dict = field(default_factory=dict)  # n -> the EXPORT_SYMBOL'd function whose parameter it is


def examine(a, links: Links) -> Findings:
    """Every use of every candidate classified: the edits it needs, the
    links it makes, or the reason it keeps its cluster."""
    found = Findings({n: [] for n in range(len(a.candidates))})
    by_name: Dict[Tuple[str, str], List[int]] = {}
    for n, c in enumerate(a.candidates):
        by_name.setdefault((c.kind, c.name), []).append(n)
    declaration_links(a, links)
    alias_uses(a, found)
    for n, c in enumerate(a.candidates):
        users_too = user_side(a, c)
        if users_too:
            found.problems.setdefault(n, users_too)
        if not users_too and c.kind == "field" and c.function in a.abi_structs:
            found.problems.setdefault(n, a.abi_structs[c.function] + f" (field {c.name})")
            found.abi.add(n)
            for relpath, start, end in a.uses(c):  # only for the links: a parameter given &x.f stays with it
                classify(a, c, n, relpath, start, end, found.edits, links.union)
            continue
        if c.kind == "field" and len(by_name[("field", c.name)]) > 1:
            for other in by_name[("field", c.name)]:
                links.union(n, other)
        if c.mixed:
            found.problems.setdefault(n, f"{c.relpath}:{line_of(a.code[c.relpath], c.position)}: declared together "
                                         f"with a pointer or an array of the same type")
        if c.kind == "param":
            examine_function_uses(a, c, n, found)
            foreign_argument(a, c, n, found)
        if c.kind == "macro" and ((c.function, c.position) in a.macro_foreign or c.type == "mixed"):
            found.problems.setdefault(n, a.macro_foreign.get((c.function, c.position),
                                                             f"{c.function}() is given timespecs and timevals, "
                                                             f"or values and addresses"))
        if c.init:
            why = classify_initialiser(a, c, n, found.edits, links.union)
            if why:
                found.problems.setdefault(n, f"{c.relpath}:{line_of(a.code[c.relpath], c.init[0])}: {why}")
        if c.kind == "result":
            examine_function_uses(a, c, n, found)
            why = result_uses(a, c, n, links.union)
            if why:
                found.problems.setdefault(n, why)
            continue
        for relpath, start, end in a.uses(c):
            why = classify(a, c, n, relpath, start, end, found.edits, links.union)
            if why:
                line = line_of(a.code[relpath], start)
                user = line in a.user_only.get(relpath, ())
                found.problems.setdefault(n, f"{relpath}:{line}: {why}" + (
                    " in the user-space build (a line compiled without __KERNEL__): the value both builds "
                    "share stays" if user else ""))
    return found


def alias_uses(a, found: Findings) -> None:
    """A mention of the driver's name of the type that declares none of its
    values (a cast `(NANOTIME_T *)p`, another macro) keeps what it declares:
    the define cannot change for some of them; sizeof() follows the type."""
    declared = {a.alias_of(c): n for n, c in enumerate(a.candidates) if a.alias_of(c)}
    starts = {(c.relpath, c.decl[0]) for c in a.candidates}
    for name, n in declared.items():
        define = a.type_aliases[name]
        for relpath, code in a.code.items():
            for m in re.finditer(rf"\b{re.escape(name)}\b", code):
                if (relpath, m.start()) in starts or re.search(r"\bsizeof\s*\(\s*$", code[:m.start()]) or \
                        (relpath, define[2]) == (define[1], code.find("struct", m.end())):
                    continue
                found.problems.setdefault(n, f"{relpath}:{line_of(code, m.start())}: {name} (struct {define[0]}) "
                                             f"used other than to declare one of the driver's values")


def user_side(a, c) -> str:
    """Why a candidate belongs to the user-space side of a file built for
    both (dual_build), or ''."""
    if c.kind == "field" and c.function in a.shared_structs:
        return a.shared_structs[c.function] + f" (field {c.name})"
    line = line_of(a.code[c.relpath], c.position) if c.kind != "macro" else 0  # a macro's position is its parameter's
    if line in a.user_only.get(c.relpath, ()):
        return f"{c.relpath}:{line}: declared for the user-space build only (a line compiled without __KERNEL__)"
    return ""


def examine_function_uses(a, c, n, found: Findings) -> None:
    """A parameter's function: a kernel hook (KERNEL_HOOKS_64: renamed to
    its timespec64 form); used as a value: an ops member with a timespec64
    form, an export (its callers here change with it), or a callback whose
    type is an interface."""
    if c.function in KERNEL_HOOKS_64:  # its definition, the prototypes and calls here: the timespec64 hook
        for relpath, code in a.code.items():
            for m in re.finditer(rf"\b{c.function}(?=\s*\()", code):
                if not through_member(code, m.start()):  # ops->name(): a member's function
                    found.edits[n].append((relpath, m.start(), m.end(), KERNEL_HOOKS_64[c.function]))
    for relpath, start, member in a.function_used_as_value(c.function):
        if member in OPS_64:  # .gettime = fn: the timespec64 member of the same ops
            found.edits[n].append((relpath, start, start + len(member), OPS_64[member]))
            continue
        if EXPORTED.search(a.code[relpath][max(0, start - 40):start]):
            if a.called(c.function):  # the driver's own helper: its callers here change with it
                found.exported.setdefault(n, c.function)
            else:
                found.problems.setdefault(n, f"{relpath}:{line_of(a.code[relpath], start)}: {c.function}() is "
                                             f"exported and not called here: its type is other modules' interface")
            continue
        found.problems.setdefault(n, f"{relpath}:{line_of(a.code[relpath], start)}: {c.function}() is used "
                                     f"as a callback: its type is an interface (a kernel ops structure's, say)")


LEADING_OLD_POINTER_CAST = re.compile(r"\s*\(\s*(?:const\s+)?struct\s+time(?:spec|val)\s*\*\s*\)")


def foreign_argument(a, c, n, found: Findings) -> None:
    """A parameter converts with what the calls of its function (or of an
    alias of it) hand it: an argument that is not one of the driver's values
    nor NULL (`age(&k->stamp)`, a kernel structure's field) keeps the group."""
    index = param_index(a, c)
    names = {c.function} | {alias for alias, f in a.aliases.items() if f == c.function}
    calls = re.compile(rf"\b({'|'.join(map(re.escape, sorted(names)))})\s*\(")
    for relpath, code in a.code.items() if index >= 0 else []:
        for m in calls.finditer(code):
            if not any(f[3] < m.start() < f[4] for f in a.funcs[relpath]):
                continue  # a definition or a prototype: no call inside a function's body
            if not a.reaches(c, c.function, relpath, m.start()):
                continue  # a call of another definition of the name (another configuration's)
            close = matching(code, m.end() - 1)
            args = split_args(code[m.end():close]) if close > 0 else []
            if index >= len(args) or args[index].strip() in ("NULL", "0"):
                continue
            start = m.end() + sum(len(x) + 1 for x in args[:index])
            cast = LEADING_OLD_POINTER_CAST.match(args[index])  # (const struct timespec *)&now: converts with now
            lead = cast.end() if cast else 0
            address = re.match(r"\s*&\s*(?!&)", args[index][lead:])
            arg = args[index][lead:]
            if link_target(a, relpath, start + lead + (address.end() if address else len(arg) - len(arg.lstrip())),
                           start + len(args[index].rstrip())) is None:
                found.problems.setdefault(n, f"{relpath}:{line_of(code, m.start())}: {m.group(1)}() is given "
                                             f"{args[index].strip()[:40]}, not one of the driver's values")


def param_index(a, c) -> int:
    """The position of a parameter candidate in its function's list, -1 if unknown."""
    return next((i for (_, i), ps in a.param_of.items() if any(p is c for p in ps)), -1)


def value_form(name: str, ctype: str) -> Optional[str]:
    """The timespec64 form of a value call assigned to a candidate of ctype, or None."""
    return (VALUES if ctype == "timespec" else TIMEVAL_VALUES).get(name)


def lone_locals(a, members) -> bool:
    """Locals of one declaration each, none of them copied whole into
    another (y = x;): the per-file rules convert such a local alone, unless
    it takes an edit only this pass makes (PASS_ONLY_EDITS) or its seconds
    are printed (the pass widens any format it can read; the per-file rules
    refuse a format given with other string constants or a ktime_to_timeval()
    value printed at all).  A local of a function whose header is one of the
    driver's macros (static DEVICE_ATTR_READER(name, dev, buf) { ... }) is
    this pass's: spatch does not parse such a function.  So is a local used
    inside a preprocessor conditional opened in its function (`#if
    (BITS_PER_LONG > 32)` around one read, `#else` around another): spatch
    follows one configuration, so the per-file rule sees a use it cannot
    pair with the declaration and leaves the local; this pass reads both arms."""
    cands = [a.candidates[m] for m in members]
    return all(c.kind == "local" and not c.in_macro and not c.static and not c.array for c in cands) and \
        not any(sum(1 for o in a.candidates if (o.relpath, o.decl) == (c.relpath, c.decl)) > 1 for c in cands) and \
        not copied_whole(a, cands) and not any(c.function in a.macro_names for c in cands) and \
        not any(used_in_arms(a, c) for c in cands)


def conditional_arms(code: str, start: int, end: int) -> List[Tuple[int, int]]:
    """The spans of code[start:end] inside a preprocessor conditional opened
    there (#if/#ifdef/#ifndef to its #endif, its #else/#elif arms included)."""
    spans: List[Tuple[int, int]] = []
    depth, opened, pos = 0, 0, start
    for line in code[start:end].split("\n"):
        word = re.match(r"\s*#\s*(if|ifdef|ifndef|endif)\b", line)
        if word and word.group(1).startswith("if"):
            if not depth:
                opened = pos
            depth += 1
        elif word and depth:
            depth -= 1
            if not depth:
                spans.append((opened, pos + len(line)))
        pos += len(line) + 1
    return spans


def used_in_arms(a, c) -> bool:
    """Whether a local is mentioned inside a conditional opened in its
    function (its block may sit inside one: spatch reads one configuration)."""
    if not c.scope:
        return False
    body = next(((f[3], f[4]) for f in a.funcs[c.relpath] if f[3] <= c.scope[0] < f[4]), c.scope)
    spans = conditional_arms(a.code[c.relpath], body[0], body[1])
    return any(relpath == c.relpath and any(s <= start < e for s, e in spans) for relpath, start, _ in a.uses(c))


def copied_whole(a, cands) -> bool:
    """Whether one of these locals is assigned another's whole value."""
    for x in cands:
        for y in cands:
            if x is not y and x.relpath == y.relpath and x.scope == y.scope and x.scope and re.search(
                    rf"(?<![\w.>]){re.escape(x.name)}\s*=\s*{re.escape(y.name)}\s*;", a.code[x.relpath][x.scope[0]:x.scope[1]]):
                return True
    return False


def settle(a, texts, members, found: Findings, allowed):
    """How one cluster ends: ("converted", its description, its edits) or
    ("kept", {"why", "names"}, [])."""
    cands = [a.candidates[m] for m in members]
    names = ", ".join(sorted({f"{c.kind} {c.name}" for c in cands}))
    refused = [found.problems[m] for m in members if m in found.problems]
    cluster_edits = [e for m in members for e in found.edits[m]]
    cluster_edits += [a.type_aliases[a.alias_of(c)][1:] + ("struct timespec64",) if a.alias_of(c) else
                      (c.relpath, c.decl[0], c.decl[1], "struct timespec64") for c in cands if c.kind != "macro"]
    if not refused:
        dead = {p: never_compiled(a.code[p]) for p in {e[0] for e in cluster_edits}}
        blocked = [f"{p}:{line_of(texts[p], s)}" for p, s, _, new in cluster_edits
                   if line_of(texts[p], s) not in dead[p] and not allowed(p, line_of(texts[p], s), new)]
        if blocked:
            refused = [f"{blocked[0]}: the kernel range does not allow this change"]
    if refused and all(m in found.abi for m in members):
        boundary, why = boundary_edits(a, cands)
        if boundary is not None and all(allowed(p, line_of(texts[p], st), new) for p, st, _, new in boundary):
            return "converted", f"{names} (an ABI: kept at its size, filled from a timespec64)", boundary
        refused = [f"{refused[0]}; {why}" if why else refused[0]]
    if refused:
        return "kept", {"why": f"{refused[0]} [{names}: kept as struct {cands[0].type}]",
                        "names": sorted({(c.relpath, c.name) for c in cands})}, []
    changed_exports = sorted({found.exported[m] for m in members if m in found.exported})
    description = names + "".join(f" (exported: modules outside the directory that call {f}() "
                                  f"must change with it)" for f in changed_exports)
    return "converted", description, cluster_edits + prototype_edits(a, [c for c in cands if c.kind == "param"]) + \
        result_prototype_edits(a, [c for c in cands if c.kind == "result"])


def ungrouped(code: str, start: int, end: int):
    """The bounds of x with the grouping parentheses around it: `(x)` is the
    value x (`timespec_sub(now, (dev.stamp))`, `&(dev.stamp)`, a macro's
    `(t)`), where `f(x)`, `sizeof (x)`, `if (x)` and a cast's `(T)(x)` are not;
    a cast's `(T)(x)->f` is the cast of (x)->f, and the first parenthesis of
    a macro's body (`#define NOW(p) (p)->tv_sec = 0`) no call's."""
    while True:
        group = re.search(r"\(\s*$", code[:start])
        close = re.match(r"\s*\)", code[end:])
        before = code[:group.start()] if group else ""
        member_of_cast = before.rstrip().endswith(")") and close and re.match(r"\s*(?:\.|->)", code[end + close.end():])
        if not (group and close) or re.search(r"[\w)\]]\s*$", before) and not (
                member_of_cast or opens_macro_body(before)):
            return start, end
        start, end = group.start(), end + close.end()


EXTERN_DECLARATION = re.compile(r"\bextern\s+(?:volatile\s+)?(struct\s+time(?:spec|val))\s+$")
OLD_POINTER_CAST = re.compile(r"\(\s*(?:const\s+)?(struct\s+(timespec|timeval))\s*\*\s*\)\s*&$")
CONTROL = {"if", "while", "switch"}  # `if (ts)`: a test, no call (null_tested() reads it)


def classify(a, c, n, relpath, start, end, edits, union):
    """Records the edits a use needs; returns why it cannot convert, or ''."""
    code = a.code[relpath]
    expr_start = expression_start(code, start) if c.kind == "field" else start
    expr_start, end = ungrouped(code, expr_start, end)
    if c.allocated and "[" not in code[start:end]:  # the pointer itself, not one of its elements
        why = allocated_use(a, c, n, relpath, code[:expr_start].rstrip(), expr_start, end, edits)
        if why is not None:
            return why
    extern = EXTERN_DECLARATION.search(code, max(0, expr_start - 80), expr_start) if c.kind == "global" else None
    if extern and re.match(r"\s*(?:\[[^\]]*\]\s*)?;", code[end:]):  # extern struct timeval x;: its type changes with x
        edits[n].append((relpath, extern.start(1), extern.end(1), "struct timespec64"))
        return ""
    member = USE_MEMBER.match(code[end:end + 200])
    if member:
        return member_use(a, c, relpath, expr_start, member.group(1), end + member.start(1), end + member.end(1),
                          edits[n])
    before = code[:expr_start].rstrip()
    call = enclosing_call(code, expr_start)
    direct_arg = before.endswith(("(", ",")) and re.match(r"\s*[,)]", code[end:])
    if c.pointer and direct_arg and call and call[0] in FREES:
        return ""  # what it points at freed: no use of the type
    if c.pointer and direct_arg and call and call[0] not in CONTROL:  # a pointer parameter handed on as it is
        return handed_to(a, c, n, relpath, call, edits, union, memory=call[0] in ("memset", "memcpy"))
    if c.pointer and before.endswith("*") and re.match(r"\s*=[^=]", code[end:]):  # *p = value;
        return stored_through(a, c, n, relpath, end, edits, union)
    if c.pointer and null_tested(code, before, end):
        return ""  # a pointer tested against NULL
    # &x as an argument
    if before.endswith("&") and not before.endswith("&&"):
        cast = OLD_POINTER_CAST.search(before)  # (const struct timespec *)&x: the cast names x's new type
        if cast and cast.group(2) == c.type:
            edits[n].append((relpath, cast.start(1), cast.end(2), "struct timespec64"))
        inner_call = enclosing_call(code, len(before) - 1)
        if inner_call:
            return handed_to(a, c, n, relpath, inner_call, edits, union, memory=True)
        pointed = re.search(r"([A-Za-z_]\w*)\s*=\s*&$", before)  # p = &x; into a pointer candidate
        target = link_target(a, relpath, pointed.start(1), pointed.end(1)) if pointed else None
        if target is not None and a.candidates[target].pointer and re.match(r"\s*;", code[end:]):
            union(n, target)
            return ""
        return "address taken"
    if re.match(r"\s*=[^=]", code[end:]):  # x = value;
        return assigned(a, c, n, relpath, before, expr_start, end, edits, union)
    if re.search(r"\breturn\s*$", before) and re.match(r"\s*;", code[end:]):
        return returned(a, n, relpath, expr_start, union)
    return used_in_expression(a, c, n, relpath, before, call, end, edits, union)


ALLOCATORS = re.compile(r"(?:devm_)?(?:k[mz]alloc|kcalloc|kmalloc_array|kzalloc_node|kmalloc_node|v[mz]alloc|vmalloc_node"
                        r"|kv[mz]alloc|kvcalloc|kvmalloc_array|vcalloc)$")  # what FREES' kvfree frees too
FREES = {"kfree", "vfree", "kvfree", "devm_kfree"}


def allocated_use(a, c, n, relpath, before, expr_start, end, edits) -> Optional[str]:
    """A use of an allocated member pointer itself (not an element): its
    allocation (`x->f = kzalloc(sizeof(struct timespec) * n, ...)`: the
    size takes the new type), a free, a NULL store or test need nothing
    more; any other value stored keeps the group.  None: an ordinary use
    (an argument, say), classified as any other."""
    code = a.code[relpath]
    if null_tested(code, before, end):
        return ""
    call = enclosing_call(code, expr_start)
    if call and call[0] in FREES and before.endswith(("(", ",")) and re.match(r"\s*[,)]", code[end:]):
        return ""
    if not re.match(r"\s*=[^=]", code[end:]) or not STATEMENT_START.search(before):
        return None
    value_start = end + code[end:].index("=") + 1
    stop = code.find(";", value_start)
    value = code[value_start:stop].strip()
    if value in ("NULL", "0"):
        return ""
    alloc = re.match(r"\s*(?:\([^()]*\)\s*)?([A-Za-z_]\w*)\s*\(", code[value_start:stop])
    if not alloc or not ALLOCATORS.match(alloc.group(1)) or \
            matching(code, value_start + alloc.end() - 1) != code.rfind(")", value_start, stop):
        return f"its value comes from {a.texts[relpath][value_start:stop].strip()}"
    for size in re.finditer(rf"\bsizeof\s*\(\s*(struct\s+{c.type})\s*\)", code[value_start:stop]):
        edits[n].append((relpath, value_start + size.start(1), value_start + size.end(1), "struct timespec64"))
    if not re.search(r"\bsizeof\s*\(", code[value_start:stop]):
        return f"allocated without a sizeof: {a.texts[relpath][value_start:stop].strip()}"
    return ""


def null_tested(code: str, before: str, end: int) -> bool:
    """Whether the pointer ending at end is tested against NULL (`p == NULL`, `if (!p)`)."""
    return bool(re.match(r"\s*[!=]=\s*(NULL|0)\b", code[end:]) or
                re.search(r"(?:\bif\s*\(|!)\s*$", before) and re.match(r"\s*[)&|]", code[end:]))


def returned(a, n, relpath, pos, union):
    """return x; links x to the value its function returns, when that is
    a candidate."""
    fname = next((f[0] for f in a.funcs[relpath] if f[3] < pos < f[4]), "")
    if fname not in a.results:
        return f"returned by {fname}()"
    union(n, a.results[fname])
    return ""


def result_declaration(code: str, pos: int):
    """The span of "struct timespec" (or timeval) before the function name
    at pos when it is declared or defined there (at file scope), else None."""
    decl = re.search(r"\bstruct\s+time(?:spec|val)\s+$", code[max(0, pos - 60):pos])
    before = first_branches(code[:pos]) if decl else ""
    if not decl or before.count("{") != before.count("}"):
        return None
    start = max(0, pos - 60) + decl.start()
    return start, start + len(decl.group(0).rstrip())


def result_prototype_edits(a, results):
    """The prototypes of the functions whose results convert."""
    found = []
    for c in results:
        for relpath, code in a.code.items():
            for m in re.finditer(rf"\b{re.escape(c.function)}\s*\(", code):
                decl = result_declaration(code, m.start())
                close = matching(code, m.end() - 1)
                if decl and close > 0 and re.match(r"\s*;", code[close + 1:]):
                    found.append((relpath, decl[0], decl[1], "struct timespec64"))
    return found


def result_uses(a, c, n, union):
    """The calls of a function whose result is a candidate: each must store
    the value in a candidate (y = fn(...); or an initialiser, linked from
    y's side); its return statements must return a candidate (linked from
    theirs), else the reason."""
    for relpath, code in a.code.items():
        for m in re.finditer(rf"\b{re.escape(c.function)}\s*\(", code):
            if result_declaration(code, m.start()):
                continue  # the definition or a prototype
            close = matching(code, m.end() - 1)
            window = max(0, m.start() - 200)
            stored = re.search(r"(?:^|[;{}]|\bstruct\s+time(?:spec|val)\s+)\s*(\*\s*)?([A-Za-z_][\w.>\-\[\]]*)\s*=\s*$",
                               code[window:m.start()])  # y = fn(...); or *to = fn(...);
            if not stored or close < 0 or not re.match(r"\s*;", code[close + 1:]):
                return f"{relpath}:{line_of(code, m.start())}: the value of {c.function}() is not stored in a variable"
            target = link_target(a, relpath, window + stored.start(2), window + stored.end(2))
            if target is not None and stored.group(1) and not a.candidates[target].pointer:
                target = None  # *p->stamp = fn(): not a value field of that name
            if target is None:
                return f"{relpath}:{line_of(code, m.start())}: the value of {c.function}() goes to {stored.group(1) or ''}{stored.group(2)}"
    code = a.code[c.relpath]
    for m in re.finditer(r"\breturn\b\s*([^;]*);", code[c.scope[0]:c.scope[1]]):
        start = c.scope[0] + m.start(1)
        if link_target(a, c.relpath, start, start + len(m.group(1).rstrip())) is None:
            return f"{c.relpath}:{line_of(code, start)}: {c.function}() returns {m.group(1).strip()[:40]}"
    return ""


def member_use(a, c, relpath, expr_start, name, m_start, m_end, out):
    """x.tv_sec, x.tv_nsec, x.tv_usec (name, at m_start..m_end)."""
    code = a.code[relpath]
    if name == "tv_usec":
        return usec_use(a, c, relpath, expr_start, m_start, m_end, out)
    if name == "tv_sec" and (re.match(r"\s*(?:[-+*/]?=(?!=)|\+\+|--)", code[m_end:]) or
                             code[:expr_start].rstrip().endswith(("++", "--"))):
        # x.tv_sec -= offset; means the same on a time64_t; the per-file rules refuse a
        # written field, so this unchanged name marks the local as this pass's (PASS_ONLY_EDITS)
        out.append((relpath, m_start, m_end, "tv_sec"))
        return ""
    pos, call = expr_start, None
    while name == "tv_sec" and not CAST.search(code[:pos]):  # a cast one is printed as its cast's type
        call = enclosing_call(code, pos)
        if call and (PRINTS.match(call[0]) or call[0] in a.print_macros):
            return print_edit(a, relpath, call, pos, m_end, out)
        group = None if call else grouping_paren(code, pos)
        if group is None:
            break
        pos = group  # (x.tv_sec - y.tv_sec) * 1000 printed: the whole argument's format changes
    if call and '"' in "".join(call_args(a, relpath, call[1], call[2])[:call[3]]):
        if printed_as_long(a, relpath, call, out):
            return ""
        return f"tv_sec printed through {call[0]}(), whose format this pass does not read"
    return ""


OLD_LONG_ARG = re.compile(r"[\s\d()+\-*/]*")  # what else an argument of only long operands may hold


def printed_as_long(a, relpath, call, out) -> bool:
    """A format this pass does not read (a macro defined in a header outside
    the directory) printing an argument made only of time fields, integer
    constants and + - * /: the argument was a long before ((t2.tv_sec -
    t1.tv_sec) * 1000 + ...); cast to (long) it still is, so the format
    stays right on every architecture and prints what it printed before."""
    code = a.code[relpath]
    pieces = split_args(code[call[1] + 1:call[2]])
    start = call[1] + 1 + sum(len(p) + 1 for p in pieces[:call[3]])
    arg = pieces[call[3]]
    rest = re.sub(r"[A-Za-z_][\w.>\-\[\]]*?(?:\.|->)\s*tv_(?:sec|usec|nsec)\b", "", arg)
    if not arg.strip() or not OLD_LONG_ARG.fullmatch(rest) or re.match(r"\s*\(\s*long\s*\)", arg):
        return False
    lead = len(arg) - len(arg.lstrip())
    end = start + len(arg.rstrip())
    out.append((relpath, start + lead, start + lead, "(long)("))
    out.append((relpath, end, end, ")"))
    return True


def grouping_paren(code: str, pos: int):
    """The offset of the unmatched '(' before pos when no name precedes it
    (a grouping parenthesis), else None."""
    depth = 0
    for i in range(pos - 1, -1, -1):
        if code[i] == ")":
            depth += 1
        elif code[i] == "(":
            if depth == 0:
                return None if re.search(r"[\w\]]\s*$", code[:i]) else i
            depth -= 1
        elif code[i] in ";{}" and depth == 0:
            return None
    return None


def usec_use(a, c, relpath, expr_start, m_start, m_end, out):
    """x.tv_usec of a timeval: read as tv_nsec / NSEC_PER_USEC (or the
    milliseconds as tv_nsec / NSEC_PER_MSEC), written as tv_nsec."""
    code = a.code[relpath]
    if c.type != "timeval":
        return "tv_usec of a timespec"
    written = re.match(r"\s*(=(?!=)|\+=|-=)", code[m_end:])
    if written and not code[:expr_start].rstrip().endswith(("&", "++", "--")):
        return usec_write_edit(code, relpath, (expr_start, m_start, m_end), m_end + written.end(), out)
    if re.match(r"\s*(\+\+|--)", code[m_end:]) or code[:expr_start].rstrip().endswith(("&", "++", "--")):
        return "tv_usec written"
    to_ms = re.match(r"\s*/\s*(1000|USEC_PER_MSEC)\b", code[m_end:])
    operand = re.search(r"([*/%!~]|\([^()]*\))\s*$", code[:expr_start])  # x * f.tv_usec, (long)f.tv_usec
    if to_ms and not operand:  # f.tv_usec / 1000: the milliseconds, as do_gettimeofday.cocci writes them
        out.append((relpath, m_start, m_end + to_ms.end(), "tv_nsec / NSEC_PER_MSEC"))
        return ""
    out.append((relpath, m_start, m_end, "tv_nsec / NSEC_PER_USEC"))
    after_expr = code[m_end:m_end + 3]
    if re.match(r"\s*[*/%]", after_expr) or operand:  # the quotient keeps its meaning as an operand
        out[-1] = (relpath, expr_start, m_end, f"({a.texts[relpath][expr_start:m_start]}tv_nsec / NSEC_PER_USEC)")
    return ""


def stored_through(a, c, n, relpath, end, edits, union):
    """*p = value; through a pointer candidate."""
    code = a.code[relpath]
    value_start = end + code[end:].index("=") + 1
    stop = code.find(";", value_start)
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*\((.*)\)", code[value_start:stop].strip(), re.S)
    if crossed_back(a, c, n, relpath, value_start, stop, edits):
        return ""
    if m and value_form(m.group(1), c.type):
        vstart = value_start + len(code[value_start:stop]) - len(code[value_start:stop].lstrip())
        edits[n].append((relpath, vstart, vstart + len(m.group(1)), value_form(m.group(1), c.type)))
        if m.group(1) in ("timespec_sub", "timespec_add"):
            return link_args(a, c, n, relpath, code.index("(", vstart), code.rfind(")", vstart, stop), union, edits[n])
        return ""
    return link_value(a, c, n, relpath, value_start, stop, union, edits[n])


def crossed_back(a, c, n, relpath, start, stop, edits) -> bool:
    """A timespec candidate's value `timespec64_to_timespec(E)` (code from
    start to stop): E itself, the edit recorded, since the candidate becomes
    a timespec64."""
    code = a.code[relpath]
    vstart = start + len(code[start:stop]) - len(code[start:stop].lstrip())
    value = code[vstart:stop].rstrip()
    m = re.fullmatch(rf"{FROM_TIMESPEC64}\s*\((.*)\)", value, re.S)
    if not m or c.type != "timespec" or len(split_args(m.group(1))) != 1:
        return False
    edits[n].append((relpath, vstart, vstart + len(value), a.texts[relpath][vstart + m.start(1):vstart + m.end(1)].strip()))
    return True


def assigned(a, c, n, relpath, before, expr_start, end, edits, union):
    """x = value; a statement fill, a value helper, or another value."""
    code = a.code[relpath]
    value_start = end + code[end:].index("=") + 1
    stop = code.find(";", value_start)
    value = code[value_start:stop].strip()
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*(\((.*)\))?", value, re.S)
    if m and m.group(1) in STATEMENT_FILLS and (m.group(2) is None) == (m.group(1) == "CURRENT_TIME") \
            and c.type == "timespec" and STATEMENT_START.search(before) and not a.defines(m.group(1)):
        edits[n].append((relpath, expr_start, stop, f"{STATEMENT_FILLS[m.group(1)]}(&{a.texts[relpath][expr_start:end].strip()})"))
        return ""
    if crossed_back(a, c, n, relpath, value_start, stop, edits):
        return ""
    if m and value_form(m.group(1), c.type):
        vstart = value_start + (len(code[value_start:stop]) - len(code[value_start:stop].lstrip()))
        edits[n].append((relpath, vstart, vstart + len(m.group(1)), value_form(m.group(1), c.type)))
        return link_args(a, c, n, relpath, code.index("(", vstart), code.rfind(")", vstart, stop), union, edits[n]) \
            if m.group(1) in ("timespec_sub", "timespec_add") else ""
    return link_value(a, c, n, relpath, value_start, stop, union, edits[n])


def used_in_expression(a, c, n, relpath, before, call, end, edits, union):
    """x as a helper's argument, in sizeof, copied into another candidate
    (y = x;), or passed to a function: linked or refused."""
    code = a.code[relpath]
    if call and call[0] in HELPERS and c.type == "timespec":
        fname, open_, close, idx = call
        edits[n].append(renamed(code, relpath, open_, fname, HELPERS[fname]))
        return link_args(a, c, n, relpath, open_, close, union, edits[n])
    if call and call[0] == "sizeof":
        return ""
    if call and call[0] == TO_TIMESPEC64 and c.type == "timespec" and len(split_args(code[call[1] + 1:call[2]])) == 1:
        start = renamed(code, relpath, call[1], TO_TIMESPEC64, "")[1]
        edits[n].append((relpath, start, call[2] + 1, a.texts[relpath][call[1] + 1:call[2]].strip()))
        return ""
    # y = x; (x's value into another candidate)
    m = re.search(r"([A-Za-z_][\w.>\-\[\]]*)\s*\)?\s*=\s*\*?$", before)
    if m and code[end:].lstrip().startswith(";"):
        target = link_target(a, relpath, m.start(1), m.end(1))
        if target is not None:
            union(n, target)
            return ""
        if input_event_time(a, c, n, relpath, (m.start(1), m.end(1)), end, before.endswith("*"), edits):
            return ""
        member = kernel_member(a, c, relpath, m.start(1), m.end(1), False) if before.endswith("*") == c.pointer else None
        if member:
            edits[n].append(member)
            return ""
        return f"its value goes to {m.group(1).strip()}"
    if call and (call[0], call[3]) in a.macro_params:  # handed to one of the driver's macros
        for target in a.macro_params[(call[0], call[3])]:
            union(n, target)
        return ""
    if call:
        return link_param(a, c, n, call[0], call[3], union, (relpath, call[1]), edits[n]) \
            if call[0] in a.defined or call[0] in OPS_64 or call[0] in a.aliases else f"passed to {call[0]}()"
    if c.pointer and TRUTH_TEST_BEFORE.search(before) and TRUTH_TEST_AFTER.match(code[end:]):
        return ""  # if (to), end ? ... : 0, to != NULL: whether it points anywhere
    return "used as a whole value"


TRUTH_TEST_BEFORE = re.compile(r"(?:!|&&|\|\||\breturn|\?)\s*$")  # not "(": (void *)(to), (*cb)(to)
TRUTH_TEST_AFTER = re.compile(r"\s*(?:\?|\)|&&|\|\||[!=]=\s*(?:NULL|0)\b)")


INPUT_EVENT_TIME = re.compile(r"([A-Za-z_]\w*)\s*(?:\[[^\[\]]*\]\s*)?(\.|->)\s*time")


def input_event_time(a, c, n, relpath, target, end, deref, edits) -> bool:
    """`ev->time = tv;` into a struct input_event the function declares (a
    local, a parameter): from Linux 4.16 the kernel's input_event has no
    `time` member but input_event_sec and input_event_usec (the same bytes
    as the timeval of older kernels, which y2038-compat.h gives the two
    names); the converted value fills them.  Anything else named `time`
    (the driver's own structure, a timespec) stays refused."""
    code = a.code[relpath]
    m = INPUT_EVENT_TIME.fullmatch(code[target[0]:target[1]].strip())
    func = next((f for f in a.funcs[relpath] if f[1] <= target[0] <= f[4]), None)
    if not m or c.type != "timeval" or func is None or not re.search(
            rf"\bstruct\s+input_event\s*(?:\*\s*)*(?:const\s+)?{m.group(1)}\b", code[func[1]:func[4]]):
        return False
    text = a.texts[relpath]
    field_at = target[0] + len(code[target[0]:target[1]]) - len(code[target[0]:target[1]].lstrip()) + m.start(2)
    base = text[target[0] + len(text[target[0]:target[1]]) - len(text[target[0]:target[1]].lstrip()):field_at]
    base = base.rstrip() + m.group(2)
    value_start = code.rindex("=", target[1], end) + 1
    value = text[value_start:end].strip().lstrip("*").strip()
    access = value + ("->" if deref else ".")
    line_start = text.rfind("\n", 0, target[0]) + 1
    indent = text[line_start:target[0]][:len(text[line_start:target[0]]) - len(text[line_start:target[0]].lstrip())]
    edits[n].append((relpath, target[0], end, f"{base}input_event_sec = {access}tv_sec;\n{indent}"
                                              f"{base}input_event_usec = {access}tv_nsec / NSEC_PER_USEC"))
    return True


def renamed(code, relpath, open_, name, new):
    """The edit giving new for the name of the call whose '(' is at open_
    (`do_gettimeofday (&x)` has a space before it)."""
    start = code.rindex(name, 0, open_)
    return relpath, start, start + len(name), new


def handed_to(a, c, n, relpath, call, edits, union, memory=False):
    """x (or &x) as an argument of call: a fill or a helper takes its
    timespec64 name, one of the driver's own functions links x to its
    parameter; memory=True also accepts memset/memcpy of &x."""
    fname, open_, close, idx = call
    if fname in FILLS:
        if (c.type == "timeval") != (fname in TIMEVAL_FILLS):
            return f"{fname}() on a {c.type}"
        edits[n].append(renamed(a.code[relpath], relpath, open_, fname, FILLS[fname]))
        return ""
    helpers = TIMEVAL_HELPERS if c.type == "timeval" else HELPERS
    if fname in helpers:
        edits[n].append(renamed(a.code[relpath], relpath, open_, fname, helpers[fname]))
        return link_args(a, c, n, relpath, open_, close, union, edits[n])
    if fname in HELPERS or fname in TIMEVAL_HELPERS:
        return f"{fname}() on a {c.type}"
    if memory and fname in ("memset", "memcpy"):
        return copied(a, c, n, relpath, fname, open_, close, edits, union)
    if memory and fname in COMPAT_COPIES and c.type == "timespec" and idx == 0 and fname not in a.defined:
        edits[n].append(renamed(a.code[relpath], relpath, open_, fname, COMPAT_COPIES[fname]))
        return ""
    if memory and fname in USER_COPIES and fname not in a.defined:
        return user_copy(a, c, n, relpath, call, edits)
    if (fname, idx) in a.macro_params:  # its address handed to one of the driver's macros (MY_NOW(&x))
        for target in a.macro_params[(fname, idx)]:
            union(n, target)
        return ""
    return link_param(a, c, n, fname, idx, union, (relpath, open_), edits[n])


def user_copy(a, c, n, relpath, call, edits) -> str:
    """`if (copy_from_user(&x, arg, sizeof(x)))` of a whole struct timespec:
    user space keeps the old layout (long seconds and long nanoseconds on
    every architecture: `struct __kernel_old_timespec`), the value is the
    timespec64's; each field is read or written with get_user()/put_user()
    in that layout, the call tested as before (nonzero on a fault).  A
    timeval is written so too (`struct __kernel_old_timeval`, microseconds
    from the nanoseconds); read back, its microseconds would need scaling
    after the read: that copy keeps the group, as do any other size, a user
    pointer that is not a plain name (it is named twice) or a result used
    for more than its truth."""
    fname, open_, close, idx = call
    code, text = a.code[relpath], a.texts[relpath]
    access, value_at, user_at = USER_COPIES[fname]
    args = call_args(a, relpath, open_, close)
    if len(args) != 3 or idx != value_at or c.type not in OLD_LAYOUT or c.type == "timeval" and access != "put_user" \
            or c.array:  # one element's fields are no copy of the array
        return f"passed to {fname}()"
    user = args[user_at].strip()
    size = re.fullmatch(rf"sizeof\s*\(\s*(?:{re.escape(c.name)}|struct\s+{c.type})\s*\)", args[2].strip())
    plain_user = re.fullmatch(r"(?:\(\s*(?:const\s+)?(?:void|char|u8|struct\s+\w+)\s*(?:__user\s*)?\*\s*\)\s*)?"
                              r"[A-Za-z_]\w*", user)
    start = code.rindex(fname, 0, open_)
    tested = re.search(r"\bif\s*\(\s*!?\s*$", code[:start]) and re.match(r"\s*(?:!=\s*0\s*)?\)", code[close + 1:])
    if not (size and plain_user and tested):
        return f"passed to {fname}() (a size, a user pointer or a use of its result this pass does not read)"
    (layout, fraction), value = OLD_LAYOUT[c.type], args[value_at].strip().lstrip("&").strip()
    user = OLD_TYPE_CAST.sub("", user)  # (struct timeval *)arg: a type later kernels lack; the layout's cast says it
    user_field = f"&((struct {layout} __user *){user})->"
    edits[n].append((relpath, start, close + 1,
                     f"({access}({value}.tv_sec, {user_field}tv_sec) ||\n{indent_of(text, start)}\t"
                     f"{access}({value}.tv_nsec{' / NSEC_PER_USEC' if fraction == 'tv_usec' else ''}, "
                     f"{user_field}{fraction}))"))
    return ""


def indent_of(text: str, pos: int) -> str:
    """The leading white space of the line holding pos."""
    line = text[text.rfind("\n", 0, pos) + 1:pos]
    return line[:len(line) - len(line.lstrip())]


def copied(a, c, n, relpath, fname, open_, close, edits, union):
    """memcpy(&x, &y, size), memset(&x, 0, size): x and y convert together; a size spelt
    sizeof(struct timeval) or sizeof(struct timespec) takes the new type."""
    code = a.code[relpath]
    args = split_args(code[open_ + 1:close])
    size = re.fullmatch(r"\s*sizeof\s*\(\s*(struct\s+time(?:spec|val))\s*\)\s*", args[-1]) if len(args) == 3 else None
    size_start = open_ + 1 + len(args[0]) + len(args[1]) + 2 if len(args) == 3 else close
    if size:
        edits[n].append((relpath, size_start + size.start(1), size_start + size.end(1), "struct timespec64"))
        close = size_start - 1  # the size is settled: link the two addresses
    # sizeof(y) of a candidate: the size follows y's type, and y changes with the group
    of_value = re.fullmatch(r"\s*sizeof\s*(\(\s*)?(\*?\s*[\w.>\-\[\]]+?)\s*\)?\s*", args[-1]) if len(args) == 3 else None
    target = link_target(a, relpath, size_start + of_value.start(2), size_start + of_value.end(2)) \
        if of_value and (of_value.group(1) is not None) == args[-1].rstrip().endswith(")") else None
    if target is not None:
        union(n, target)
        close = size_start - 1
    elif len(args) == 3 and not size:  # memcpy(dst, &last, 8): the old size, half a timespec64
        return f"{fname}() of {args[-1].strip()} bytes, not the size of the type"
    if fname == "memcpy":  # both ends must be the driver's own: a byte buffer is a wire or register image
        pos = open_ + 1
        for arg in split_args(code[open_ + 1:close])[:2]:
            body = arg.strip().lstrip("&").strip()
            start = pos + arg.index(body) if body else pos
            if link_target(a, relpath, start, start + len(body)) is None:
                return f"copied to or from {body}, not one of the driver's own {c.type}s"
            pos += len(arg) + 1
    return link_args(a, c, n, relpath, open_, close, union)


def prototypes(a, fname: str):
    """(relpath, code, match of the name and its '(', offset of its ')') of
    each declaration of fname that is no definition, at file scope."""
    for relpath, code in a.code.items():
        for m in re.finditer(rf"\b{re.escape(fname)}\s*\(", code):
            close = matching(code, m.end() - 1)
            if close > 0 and re.match(r"\s*;", code[close + 1:]) and \
                    code[:m.start()].count("{") == code[:m.start()].count("}"):  # not a call
                yield relpath, code, m, close


def prototype_links(a, links) -> None:
    """One prototype for several definitions (a header's for a function
    each SoC's file defines, or each configuration's): their parameters at
    each position change together, or the prototype fits only some."""
    for (fname, _), params in a.param_of.items():
        if len(params) < 2:
            continue
        for relpath, _, m, _ in prototypes(a, fname):
            reached = [a.candidates.index(c) for c in params if a.reaches(c, fname, relpath, m.start())]
            for n in reached[1:]:
                links.union(reached[0], n)


def declaration_links(a, links) -> None:
    """The candidates whose declarations tie them, before any use is read."""
    shared: Dict[tuple, int] = {}
    for n, c in enumerate(a.candidates):  # a, b of "struct timespec a, b;" change together
        links.union(n, shared.setdefault((c.relpath, c.decl), n))
        if c.kind == "global" and not a.file_local(c):  # one per SoC copy: their users may share a header
            links.union(n, shared.setdefault(("global", c.name), n))
        if c.kind == "param":  # a function defined once per configuration (#ifdef/#else): its definitions together
            own_file = c.relpath if a.static_function(c) else ""  # a static one's are its file's alone
            links.union(n, shared.setdefault(("param", c.function, c.name, own_file), n))
        if a.alias_of(c):  # declared with the driver's name of the type: the define changes for all of them
            links.union(n, shared.setdefault(("alias", a.alias_of(c)), n))
    prototype_links(a, links)
    ambiguous_links(a, links)


def ambiguous_links(a, links) -> None:
    """A mention that is a local's in one configuration and a global's in
    another (Analysis._shadowed): the local and the globals of its name
    change together."""
    for c in a.candidates:
        if c.kind == "global":
            a.uses(c)  # notes those mentions in a.ambiguous
    for relpath, name in sorted(a.ambiguous):
        same = [n for n, c in enumerate(a.candidates) if c.name == name and
                (c.kind == "global" or c.kind == "local" and c.relpath == relpath)]
        for n in same[1:]:
            links.union(same[0], n)


def prototype_edits(a, params):
    """The declarations (prototypes) of functions whose parameters convert."""
    found = []
    for c in params:
        index = param_index(a, c)
        if index < 0:
            continue
        for relpath, code, m, close in prototypes(a, c.function):
            if a.reaches(c, c.function, relpath, m.start()):  # not another configuration's prototype
                params = split_args(code[m.end():close])
                if index >= len(params):
                    continue
                offset = m.end() + sum(len(x) + 1 for x in params[:index])
                decl = DECLARATION.search(code, offset, offset + len(params[index]))
                if decl:
                    found.append((relpath, decl.start(), decl.end(), "struct timespec64"))
    return found


def classify_initialiser(a, c, n, edits, union):
    """A declaration's own initialiser: a brace list, a value call with a
    timespec64 form, or another candidate; anything else stays for the
    per-file rules, which know more initialisers."""
    code = a.code[c.relpath]
    start, stop = c.init
    value = code[start:stop].strip()
    vstart = start + len(code[start:stop]) - len(code[start:stop].lstrip())
    if value.startswith("{") and c.type == "timeval":
        return timeval_braces(c, start, code[start:stop], edits[n])
    if value.startswith("{") or c.pointer and value in ("NULL", "0"):
        return ""
    if c.type == "timespec" and not c.pointer and re.fullmatch(r"current_kernel_time\s*\(\s*\)|CURRENT_TIME", value) \
            and not a.defines(value.split("(")[0].strip()):
        edits[n].append((c.relpath, vstart, vstart + len(value), COARSE_NOW))  # the coarse clock read on the spot
        return ""
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*\((.*)\)", value, re.S)
    if crossed_back(a, c, n, c.relpath, start, stop, edits):
        return ""
    if m and value_form(m.group(1), c.type):
        edits[n].append((c.relpath, vstart, vstart + len(m.group(1)), value_form(m.group(1), c.type)))
        if m.group(1) in ("timespec_sub", "timespec_add"):
            return link_args(a, c, n, c.relpath, code.index("(", vstart), vstart + len(value) - 1, union, edits[n])
        return ""
    return link_value(a, c, n, c.relpath, start, stop, union, edits[n])


def timeval_braces(c, start: int, value: str, out) -> str:
    """A timeval's brace initialiser as a timespec64's: zeros (0, NULL) stay,
    .tv_usec = E becomes .tv_nsec = (E) * NSEC_PER_USEC (0 stays 0); a
    positional {s, us} would be read as {s, ns}: why not, or ''."""
    if re.fullmatch(r"[\s{},]*(?:(?:0|NULL)[\s{},]*)*", value):  # zeros: zero in any unit
        return ""
    usec = re.search(r"\.\s*tv_usec\s*=\s*([^,}]*)", value)
    if not re.fullmatch(r"\{\s*(\.\s*tv_(sec|usec)\s*=\s*[^,{}]*,?\s*)*\}", value.strip()):
        return "initialised as {seconds, microseconds}"
    if usec:
        name = start + usec.start() + usec.group(0).index("tv_usec")
        out.append((c.relpath, name, name + len("tv_usec"), "tv_nsec"))
        if usec.group(1).strip() != "0":
            stop = start + usec.start(1) + len(usec.group(1).rstrip())
            out.append((c.relpath, start + usec.start(1), start + usec.start(1), "("))
            out.append((c.relpath, stop, stop, ") * NSEC_PER_USEC"))
    return ""


def link_target(a, relpath, start, end):
    """The candidate an lvalue expression names, or None."""
    code = a.code[relpath]
    text = code[start:end].strip()
    while text.startswith("(") and matching(text, 0) == len(text) - 1:  # grouping parentheses: &(p->stats.ts)
        text = text[1:-1].strip()
    field = re.search(r"(\.|->)\s*([A-Za-z_]\w*)\s*$", text)
    element = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*\[[^\[\]]*\]\s*", text)  # an array's element
    field_element = re.search(r"(\.|->)\s*([A-Za-z_]\w*)\s*\[[^\[\]]*\]\s*$", text)  # p->times[i]
    for n, c in enumerate(a.candidates):
        if field and c.kind == "field" and c.name == field.group(2) and not c.array:
            return n
        if field_element and c.kind == "field" and c.array and c.name == field_element.group(2):
            return n
        if element and c.array and c.name == element.group(1):
            return n
        if not field and not c.array and c.kind in ("local", "param", "global", "macro") and c.name == text.strip().lstrip("*") \
                and c.relpath == relpath and (c.scope is None or c.scope[0] <= start <= c.scope[1]):
            return n
    return None


def link_value(a, c, n, relpath, start, stop, union, out):
    code = a.code[relpath]
    value = code[start:stop].strip()
    vstart = start + len(code[start:stop]) - len(code[start:stop].lstrip())
    while value.startswith("(") and matching(value, 0) == len(value) - 1:  # grouping parentheses: (p->ts)
        inside = value[1:-1]
        vstart += 1 + len(inside) - len(inside.lstrip())
        value = inside.strip()
    if c.pointer and value in ("NULL", "0"):
        return ""  # a pointer set to none
    if c.pointer and c.kind != "field" and allocated_here(c, relpath, code, vstart, vstart + len(value), out):
        return ""
    address = re.match(r"&\s*(?!&)", value) if c.pointer else None
    if address:  # to = &end_time: the pointer and what it points at change together
        target = link_target(a, relpath, vstart + address.end(), vstart + len(value))
        if target is not None:
            union(n, target)
            return ""
    inner = value.lstrip("*").strip()
    cast = re.match(r"\*\s*\(\s*\(\s*struct\s+timespec\s*\*\s*\)\s*(\w+)\s*\)$", value)
    if cast:
        return "a cast from another type"
    target = link_target(a, relpath, vstart + (len(value) - len(inner)), vstart + len(value))
    if target is not None:
        union(n, target)
        return ""
    call = re.fullmatch(r"([A-Za-z_]\w*)\s*\(.*\)", value, re.S)
    if call and call.group(1) in a.results:  # the value one of the driver's own functions returns
        union(n, a.results[call.group(1)])
        return ""
    member = kernel_member(a, c, relpath, vstart, vstart + len(value), c.pointer)
    if member:
        out.append(member)
        return ""
    return f"assigned from {value[:40]}"


def allocated_here(c, relpath: str, code: str, start: int, end: int, out) -> bool:
    """A pointer given its own memory (`ts = kmalloc(sizeof(*ts), GFP_KERNEL)`,
    `kzalloc(sizeof(struct timespec), ...)`, the value from start to end): the
    size follows the pointer's new type, a spelt-out one takes it (the edit
    in out)."""
    alloc = re.fullmatch(r"(\([^()]*\)\s*)?([A-Za-z_]\w*)\s*\((.*)\)", code[start:end], re.S)
    if not alloc or not ALLOCATORS.match(alloc.group(2)):
        return False
    cast = alloc.group(1) and re.fullmatch(rf"\(\s*(?:(void)|struct\s+{c.type})\s*\*\s*\)\s*", alloc.group(1))
    if alloc.group(1) and not cast:
        return False  # memory taken as another type
    sizes = list(re.finditer(rf"\bsizeof\s*\(\s*(?:\*\s*{re.escape(c.name)}|(struct\s+{c.type}))\s*\)", alloc.group(3)))
    if not sizes or re.search(r"\bsizeof\b", re.sub(rf"\bsizeof\s*\(\s*(?:\*\s*{re.escape(c.name)}|struct\s+{c.type})\s*\)",
                                                  "", alloc.group(3))):
        return False  # a size of something else: not this pointer's memory alone
    out += [(relpath, start + alloc.start(3) + m.start(1), start + alloc.start(3) + m.end(1), "struct timespec64")
            for m in sizes if m.group(1)]
    if cast and not cast.group(1):  # (struct timeval *)kmalloc(...): the cast names the new type
        out.append((relpath, start + alloc.start(1), start + alloc.end(1), "(struct timespec64 *)"))
    out.append((relpath, start + alloc.start(2), start + alloc.end(2), alloc.group(2)))  # its own name: no per-file
    return True                                                                           # rule reads the allocation


def kernel_member(a, c, relpath, start, end, address: bool) -> Optional[Tuple[str, int, int, str]]:
    """The edit naming the kernel's timespec64 member the expression from
    start to end is (`inode->i_mtime`; `&attr->ia_ctime` where address
    says the candidate is a pointer to it), or None:
    a timeval has no such partner, nor does a member the driver declares
    itself with a type of its own (a struct timespec of a header it shares
    with user space; an on-disk `__le32 i_mtime` cannot hold a struct)."""
    code = a.code[relpath]
    m = KERNEL_MEMBER_VALUE.fullmatch(code, start, end)
    if not m or c.type != "timespec" or m.group(1) not in KERNEL_TIMESPEC64_MEMBERS or \
            code[start:end].lstrip().startswith("&") != address or \
            any(not OWN_SCALAR_TYPE.fullmatch(word) for word in a.member_types(m.group(1))) or \
            any(re.search(rf"\bstruct\s+time(?:spec|val)\b[^;{{}}()]*,\s*\**\s*{m.group(1)}\s*[,;\[]", other)
                for other in a.code.values()):  # a later declarator of the driver's own: struct timespec a, i_mtime;
        return None
    return relpath, m.start(1), m.end(1), m.group(1)


OWN_SCALAR_TYPE = re.compile(rf"{BASIC_TYPE.pattern}|_*(?:le|be)(?:16|32|64)|timespec64")


def link_args(a, c, n, relpath, open_, close, union, out=None):
    """Every argument of a helper must be a candidate (or a constant), but
    its seconds and nanoseconds (set_normalized_timespec(&t, s, ns)); the
    coarse wall clock read on the spot (`timespec_sub(current_kernel_time(),
    x)`) is its timespec64 value, ktime_to_timespec64(ktime_get_coarse_real())
    (Linux 4.18), when out takes the edit."""
    code = a.code[relpath]
    pos = open_ + 1
    helper = re.search(r"(\w+)\s*$", code[:open_])
    scalars = SCALAR_ARGS.get(helper.group(1) if helper else "", set())
    for index, arg in enumerate(split_args(code[open_ + 1:close])):
        stripped = arg.strip()
        if index in scalars:
            pos += len(arg) + 1
            continue
        lead = len(arg) - len(arg.lstrip())
        body = stripped.lstrip("&").strip().lstrip("(").rstrip(")").strip()
        if re.fullmatch(r"[\d\sA-Z_*+\-/()]+|[a-z_]\w*\s*\*\s*NSEC_PER_\w+|[\w.>\-\[\]]+?(\.|->)\s*tv_n?sec",
                        stripped) or not stripped:  # a constant, nanoseconds, a member's seconds or nanoseconds
            pos += len(arg) + 1
            continue
        offset = pos + lead + stripped.find(body)
        if out is not None and c.type == "timespec" and re.fullmatch(r"current_kernel_time\s*\(\s*\)", stripped):
            out.append((relpath, pos + lead, pos + lead + len(stripped), COARSE_NOW))
            pos += len(arg) + 1
            continue
        target = link_target(a, relpath, offset, offset + len(body))
        member = kernel_member(a, c, relpath, offset, offset + len(body), False) \
            if target is None and out is not None else None
        if member:
            out.append(member)
            pos += len(arg) + 1
            continue
        if target is None:
            if re.fullmatch(r"[a-z_]\w*", body):  # a scalar argument (nanoseconds, seconds)
                pos += len(arg) + 1
                continue
            return f"{body} in a helper is not the driver's own timespec"
        union(n, target)
        pos += len(arg) + 1
    return ""


def through_member(code: str, start: int) -> bool:
    """Is the name at start called through a structure member (x.f, x->f)?"""
    return re.search(r"(\.|->)\s*$", code[:start]) is not None


def link_param(a, c, n, fname, idx, union, place=None, edits=None):
    """place: (relpath, offset of the call's '('), to rename a call through
    an ops member (x->gettime(...) -> x->gettime64(...)).  A call of an alias
    of the driver's function is a call of the function."""
    targets = a.params_reached(a.aliases.get(fname, fname), idx, *place) if place else None
    if place:
        relpath, open_ = place
        start = renamed(a.code[relpath], relpath, open_, fname, '')[1]
        member_call = through_member(a.code[relpath], start)
        if member_call and fname not in OPS_64:  # ops->name(): a member's function, not the driver's name()
            return f"passed to {fname}() through a structure member"
    if targets is None and fname in OPS_64 and place:  # a call through the ops member
        callbacks = [a.param_of.get((f, idx)) for f in a.ops_members(fname)]
        if member_call and callbacks and all(callbacks):
            for callback in callbacks:
                for target in callback:
                    union(n, a.candidates.index(target))
            edits.append((relpath, start, open_, OPS_64[fname]))
            return ""
    if targets is None:
        return f"passed to {fname}()"
    for target in targets:
        union(n, a.candidates.index(target))
    return ""


def usec_write_edit(code, relpath, where, value_start, out) -> str:
    """x.tv_usec = E; (or +=, -=) of a timeval that becomes a timespec64:
    x.tv_nsec = (E) * NSEC_PER_USEC; (0 stays 0).  Reads divide it back, so
    the microseconds are exact; the product fits a 32-bit long for
    |E| < 2147483, which a microsecond field holds.  Also a write whose sign
    is tested, if ((x.tv_usec -= E) < 0) (BSD's tvsub()): scaled by a
    positive constant, the sign is the same.  where: (start of x, start and
    end of tv_usec).  Returns why not, or ''."""
    expr_start, m_start, m_end = where
    end = value_end(code, value_start, ";,")
    if end >= len(code) or code[end] != ";" and not (code[end] == "," and comma_operand(code, expr_start)):
        tested = sign_tested(code, expr_start)
        if tested is None:
            return "tv_usec written inside an expression"
        end = tested
    value = code[value_start:end].strip()
    if not value:
        return "tv_usec written"
    start = value_start + len(code[value_start:end]) - len(code[value_start:end].lstrip())
    stop = start + len(value)
    out.append((relpath, m_start, m_end, "tv_nsec"))
    if value != "0":
        simple = re.fullmatch(r"[\w.>-]+|\d+", value) and "-" not in value.replace("->", "")
        if not simple:
            out.append((relpath, start, start, "("))
        out.append((relpath, stop, stop, " * NSEC_PER_USEC" if simple else ") * NSEC_PER_USEC"))
    return ""


def opens_macro_body(before: str) -> bool:
    """Whether the code before a position ends with a function-like macro's
    header (`#define NOW(p)`): the position starts its body."""
    return MACRO_HEADER.fullmatch(before[before.rfind("\n") + 1:]) is not None


def comma_operand(code: str, expr_start: int) -> bool:
    """Whether a write starting at expr_start and ending at a ',' is an
    operand of a comma expression whose value nobody reads (`x.tv_usec = 0,
    do_gettimeofday(&x);` or a macro body of the kind): it starts a
    statement, a macro's body or follows such an operand's ',', inside no
    parentheses."""
    before = code[:expr_start].rstrip()
    starts = before.endswith(",") or STATEMENT_START.search(before) or opens_macro_body(before)
    return bool(starts) and enclosing_call(code, expr_start) is None and grouping_paren(code, expr_start) is None


def sign_tested(code: str, expr_start: int) -> Optional[int]:
    """The offset of the ')' closing a write that starts at expr_start, as in
    (x.tv_usec -= E) < 0, when only the written value's sign is tested."""
    if not code[:expr_start].rstrip().endswith("("):
        return None
    close = matching(code, code[:expr_start].rstrip().rindex("("))
    if close < 0 or not re.match(r"\s*(?:<|<=|>|>=|==|!=)\s*0(?![\w.])", code[close + 1:]):
        return None
    return close


def call_args(a, relpath, open_, close) -> list:
    """A call's arguments as written, split where the code (strings
    blanked) has its commas: a comma inside a format is no separator."""
    args, at = [], open_ + 1
    for piece in split_args(a.code[relpath][open_ + 1:close]):
        args.append(a.texts[relpath][at:at + len(piece)])
        at += len(piece) + 1
    return args


FORMAT_SPEC = re.compile(r"%(?:%|[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|z|j|t)?([diouxXcspn]))")
FORMAT_PIECE = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_]\w*|\S')  # a literal, a name, anything else


def string_macros(texts) -> Set[str]:
    """The object-like macros every definition of which in the driver is a
    string literal without a conversion (`#define LOG_TAG "MEDIA_MNTN"`):
    a format's piece that shifts none of its conversions."""
    values: Dict[str, Set[bool]] = {}
    for text in texts:
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.*)$", text, re.M):
            literal = re.fullmatch(r'"[^"%\\]*"', m.group(2).split("/*")[0].strip()) is not None
            values.setdefault(m.group(1), set()).add(literal)
    return {name for name, literal in values.items() if literal == {True}}


def format_specs(a, relpath: str, fmt_arg: str, position: int):
    """[(offset in fmt_arg, spec match in its literal)] of a format's
    conversions up to the position-th, or None where a piece before it is
    neither a literal, a printk level nor one of string_macros() (a macro
    parameter `fmt` after it shifts nothing)."""
    specs: list = []
    for piece in FORMAT_PIECE.finditer(fmt_arg):
        token = piece.group(0)
        if token.startswith('"'):
            specs += [(piece.start(), s) for s in FORMAT_SPEC.finditer(token) if s.group(0) != "%%"]
            if len(specs) > position:
                return specs
        elif not (KERN_LEVEL.match(token) or token in a.string_macros(relpath)):
            return None
    return specs


def print_edit(a, relpath, call, expr_start, m_end, out):
    """tv_sec printed: its conversion in the format becomes %lld."""
    name, open_, close, idx = call
    args = call_args(a, relpath, open_, close)
    fmt_index = next((i for i, arg in enumerate(args) if re.search(r'"', arg)), None)
    if fmt_index is None or idx <= fmt_index:
        return "printed with a format this pass cannot read"
    fmt_arg = args[fmt_index]
    position = idx - fmt_index - 1
    specs = format_specs(a, relpath, fmt_arg, position)
    if specs is None:
        return "printed with a format built from macros"
    fmt_offset = open_ + 1 + sum(len(x) + 1 for x in args[:fmt_index])
    if any("*" in s.group(0) for _, s in specs) or position >= len(specs):
        return "printed with a format this pass cannot read"
    base, spec = specs[position]
    if spec.group(4) not in "diuxX":
        return "printed as something else than a number"
    start = fmt_offset + base + (spec.start(3) if spec.group(3) else spec.start(4))
    end = fmt_offset + base + spec.end(4)
    # time64_t is a signed long long
    out.append((relpath, start, end, "lld" if spec.group(4) in "diu" else "ll" + spec.group(4)))
    return ""


DECLARATION_LINE = re.compile(r"^\s*(const\s+|static\s+|unsigned\s+|signed\s+|struct\s+\w+\s+\**\w|"
                              r"(u|s)(8|16|32|64)\s|int\s|long\s|char\s|bool\s|[a-z_]\w*_t\s+\**\w)")


def boundary_edits(a, members):
    """A struct timeval or timespec field of a structure that reaches user
    space keeps its layout: it becomes struct __kernel_old_timeval (Linux
    5.1 on) or struct __kernel_old_timespec (5.6 on at the latest: long
    seconds and long micro/nanoseconds, the same on every architecture),
    and a fill (do_gettimeofday(&x.f), getnstimeofday(&x.f), ...) becomes
    the timespec64 one into a local copied into it field by field.
    Returns (edits, '') or (None, why not)."""
    edits = []
    for c in members:
        edits.append((c.relpath, c.decl[0], c.decl[1], f"struct __kernel_old_{c.type}"))
        for relpath, start, end in a.uses(c):
            code, text = a.code[relpath], a.texts[relpath]
            expr_start = expression_start(code, start)
            if USE_MEMBER.match(code[end:end + 40]):
                continue  # .tv_sec / .tv_usec: the same members
            call = enclosing_call(code, expr_start)
            if call and call[0] == "sizeof":
                continue
            before = code[:expr_start].rstrip()
            if not (call and call[0] in BOUNDARY_FILLS[c.type] and before.endswith("&")
                    and len(split_args(code[call[1] + 1:call[2]])) == 1):
                return None, f"{relpath}:{line_of(code, start)}: a use other than a fill or its members"
            name, open_, close, _ = call
            stmt_start = renamed(code, relpath, open_, name, '')[1]
            if not re.match(r"\s*;", code[close + 1:]) or code[:stmt_start].rstrip()[-1:] not in (";", "{", "}"):
                return None, f"{relpath}:{line_of(code, start)}: {name}() is not a statement of its own"
            target = text[expr_start:end].strip()
            line_start = text.rfind("\n", 0, stmt_start) + 1
            indent = text[line_start:stmt_start]
            semicolon = close + 1 + code[close + 1:].index(";")
            fraction = "tv_usec = now64.tv_nsec / NSEC_PER_USEC" if c.type == "timeval" else "tv_nsec = now64.tv_nsec"
            edits.append((relpath, stmt_start, semicolon + 1,
                          f"{FILLS[name]}(&now64);\n{indent}{target}.tv_sec = now64.tv_sec;\n"
                          f"{indent}{target}.{fraction};"))
            block = max(opening_brace(code, stmt_start), 0)  # now64 declared at the start of the innermost block
            if re.search(r"\bnow64\b", code[block:matching(code, block, "{", "}")].replace(code[stmt_start:semicolon], "")):
                return None, f"{relpath}:{line_of(code, start)}: now64 is taken"
            eol = text.index("\n", block) + 1
            next_line = text[eol:text.find("\n", eol)]
            declaration = f"{indent}struct timespec64 now64;\n" + ("" if DECLARATION_LINE.match(next_line) else "\n")
            edits.append((relpath, eol, eol, declaration))
    return edits, ""
