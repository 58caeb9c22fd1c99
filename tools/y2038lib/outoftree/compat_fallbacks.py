# SPDX-License-Identifier: GPL-2.0-only
"""How converted out-of-tree code keeps building on the older kernels it
supports: for the newer time API names the rules write, what the kernels
before each name had instead.

Out-of-tree modules carry such definitions themselves (a compat.h of
LINUX_VERSION_CODE tests).  `convert` writes one, y2038-compat.h, into the
converted directory with just the fallbacks its code needs, and includes it
where they are used; a change whose names all have a usable fallback then
stands on every kernel of the range instead of being left as it was.

A fallback is usable for a range when each old name its definitions use is
one the original code already used (it compiled wherever the code was
supported) or one the kernel history below says every kernel of the range
has.  Facts come from ../shared/REFERENCE.md and trees of the era; names
whose history is not known here have no fallback.
"""
import re
from dataclasses import dataclass

from . import kernel_versions as kv

HEADER = "y2038-compat.h"


@dataclass(frozen=True)
class Tier:
    before: str       # for kernels before this version (and from the tier below it on)
    definition: str
    uses: tuple       # old kernel names the definition relies on


@dataclass(frozen=True)
class Fallback:
    name: str
    tiers: tuple      # oldest first
    needs: tuple = ()  # other fallbacks the definitions use


def _alias(name, old, since="3.17"):
    """A function-like name that was `old` with struct timespec before `since`."""
    return Fallback(name, (Tier(since, f"#define {name}(...) {old}(__VA_ARGS__)", (old,)),), ("timespec64",))


FALLBACKS = {f.name: f for f in (
    Fallback("timespec64", (Tier("3.17", "#define timespec64 timespec", ("timespec",)),)),
    _alias("ktime_get_real_ts64", "getnstimeofday"),
    _alias("ktime_get_ts64", "ktime_get_ts"),
    Fallback("ktime_get_raw_ts64", (
        Tier("3.17", "#define ktime_get_raw_ts64(ts) getrawmonotonic(ts)", ("getrawmonotonic",)),
        Tier("4.18", "#define ktime_get_raw_ts64(ts) (*(ts) = ktime_to_timespec64(ktime_get_raw()))",
             ("ktime_to_timespec64", "ktime_get_raw"))), ("timespec64",)),
    Fallback("ktime_get_boottime_ts64", (
        Tier("3.17", "#define ktime_get_boottime_ts64(ts) get_monotonic_boottime(ts)", ("get_monotonic_boottime",)),
        Tier("4.18", "#define ktime_get_boottime_ts64(ts) (*(ts) = ktime_to_timespec64(ktime_get_boottime()))",
             ("ktime_to_timespec64", "ktime_get_boottime"))), ("timespec64",)),
    Fallback("ktime_get_coarse_real_ts64", (
        Tier("3.17", "#define ktime_get_coarse_real_ts64(ts) (*(ts) = current_kernel_time())",
             ("current_kernel_time",)),
        Tier("4.18", "#define ktime_get_coarse_real_ts64(ts) "
                     "(*(ts) = timespec_to_timespec64(current_kernel_time()))",
             ("timespec_to_timespec64", "current_kernel_time"))), ("timespec64",)),
    _alias("timespec64_sub", "timespec_sub"),
    _alias("timespec64_add", "timespec_add"),
    _alias("timespec64_compare", "timespec_compare"),
    _alias("timespec64_equal", "timespec_equal"),
    _alias("timespec64_to_ns", "timespec_to_ns"),
    _alias("timespec64_valid", "timespec_valid"),
    _alias("timespec64_add_ns", "timespec_add_ns"),
    _alias("ns_to_timespec64", "ns_to_timespec"),
    _alias("set_normalized_timespec64", "set_normalized_timespec"),
    _alias("ktime_to_timespec64", "ktime_to_timespec"),
    _alias("timespec64_to_ktime", "timespec_to_ktime"),
    _alias("jiffies_to_timespec64", "jiffies_to_timespec"),
    Fallback("ktime_get_ns", (Tier("3.17", "#define ktime_get_ns() ((u64)ktime_to_ns(ktime_get()))",
                                   ("ktime_to_ns", "ktime_get")),)),
    Fallback("ktime_get_real_ns", (Tier("3.17", "#define ktime_get_real_ns() ((u64)ktime_to_ns(ktime_get_real()))",
                                        ("ktime_to_ns", "ktime_get_real")),)),
    Fallback("ktime_get_real_seconds", (
        Tier("3.17", "#define ktime_get_real_seconds() ((s64)get_seconds())", ("get_seconds",)),
        Tier("3.19", "#define ktime_get_real_seconds() ((time64_t)get_seconds())", ("get_seconds",))),),
    Fallback("mktime64", (Tier("3.19", "#define mktime64(...) mktime(__VA_ARGS__)", ("mktime",)),)),
    Fallback("current_time", (Tier("4.9", "#define current_time(inode) current_fs_time((inode)->i_sb)",
                                   ("current_fs_time",)),)),
    Fallback("__kernel_old_timeval", (Tier("5.1", "#define __kernel_old_timeval timeval", ("timeval",)),)),
    # the compat ioctl's 32-bit timespec copies: compat_*_timespec64 until 5.1 renamed them
    Fallback("get_old_timespec32", (Tier("5.1", "#define get_old_timespec32(ts, uts) compat_get_timespec64(ts, uts)",
                                         ("compat_get_timespec64",)),), ("timespec64",)),
    Fallback("put_old_timespec32", (Tier("5.1", "#define put_old_timespec32(ts, uts) compat_put_timespec64(ts, uts)",
                                         ("compat_put_timespec64",)),), ("timespec64",)),
    # struct input_event's timeval before 4.16 (uapi linux/input.h), the two names after
    Fallback("input_event_sec", (Tier("4.16", "#define input_event_sec time.tv_sec", ("timeval",)),)),
    Fallback("input_event_usec", (Tier("4.16", "#define input_event_usec time.tv_usec", ("timeval",)),)),
    Fallback("__kernel_old_timespec", (Tier("5.6", "#define __kernel_old_timespec timespec", ("timespec",)),)),
)}

# The first kernel with each old name a fallback uses, where it is known;
# a name the original code uses needs no entry.
OLD_SINCE = {
    "timespec": "2.0", "timeval": "2.0",
    "getnstimeofday": "2.6.11", "get_seconds": "2.6.11", "current_kernel_time": "2.6.11",
    "mktime": "2.6.11",
    "ktime_get": "2.6.16", "ktime_get_real": "2.6.16", "ktime_to_ns": "2.6.16", "ktime_to_timespec": "2.6.16",
    "timespec_to_ktime": "2.6.16", "ns_to_timespec": "2.6.16",
    "getrawmonotonic": "2.6.28", "get_monotonic_boottime": "2.6.39", "ktime_get_boottime": "2.6.39",
    "ktime_to_timespec64": "3.17", "timespec_to_timespec64": "3.17", "ktime_get_raw": "3.17",
    "compat_get_timespec64": "4.15", "compat_put_timespec64": "4.15",
}


def usable(kernel_range, original_names: set) -> set:
    """The fallbacks whose definitions every kernel of the range that takes
    them can compile: they stand in for their names on those kernels."""
    found = set()
    for name, fallback in FALLBACKS.items():
        lower, ok = 0, True
        for tier in fallback.tiers:
            if kernel_range.lo < kv.parse(tier.before):  # some kernel of the range takes this tier
                oldest = max(lower, kernel_range.lo)
                ok = ok and all(old in original_names or kv.parse(OLD_SINCE.get(old, "99.0")) <= oldest
                                for old in tier.uses)
            lower = kv.parse(tier.before)
        if ok:
            found.add(name)
    return {name for name in found if all(dep in found for dep in FALLBACKS[name].needs)}


def needed(text: str, kernel_range, names) -> list:
    """The fallbacks among names that a converted file uses and some kernel
    of the range lacks, with the fallbacks they need, in table order."""
    used = {n for n in set(re.findall(r"\b\w+\b", text)) & set(names)
            if kernel_range.lo < kv.parse(FALLBACKS[n].tiers[-1].before)}
    for n in list(used):
        used |= set(FALLBACKS[n].needs)
    return [n for n in FALLBACKS if n in used]


def header_text(names) -> str:
    """y2038-compat.h with the fallbacks for names (table order)."""
    out = ["/* SPDX-License-Identifier: GPL-2.0-only */",
           "/*",
           " * Written by the y2038 toolkit's convert: the time API this module now",
           " * uses, for the older kernels it supports that lack it.  Delete an entry",
           " * once the module no longer supports kernels before its version.",
           " */",
           "#ifndef Y2038_COMPAT_H",
           "#define Y2038_COMPAT_H",
           "",
           "#include <linux/version.h>",
           "#include <linux/time.h>",
           "#include <linux/ktime.h>",
           ""]
    for name in FALLBACKS:
        if name not in names:
            continue
        tiers = FALLBACKS[name].tiers
        for i, tier in enumerate(tiers):
            v = kv.parse(tier.before)
            out.append(f"#{'if' if i == 0 else 'elif'} LINUX_VERSION_CODE < "
                       f"KERNEL_VERSION({v >> 16}, {(v >> 8) & 255}, {v & 255})")
            out.append(tier.definition)
        out += ["#endif", ""]
    out.append("#endif /* Y2038_COMPAT_H */")
    return "\n".join(out) + "\n"


INCLUDE_GUARD = re.compile(r"^[ \t]*#[ \t]*ifndef[ \t]+(\w+)[ \t]*\n[ \t]*#[ \t]*define[ \t]+\1\b", re.M)


def top_level_includes(text: str) -> list:
    """The #include lines outside any conditional but a header's include
    guard (matches, in order)."""
    directives = list(re.finditer(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif|include)\b[^\n]*\n", text, re.M))
    first_if = next((m for m in directives if m.group(1).startswith("if")), None)
    guard = first_if is not None and INCLUDE_GUARD.match(text, first_if.start())
    depth, found = (-1 if guard else 0), []
    for m in directives:
        word = m.group(1)
        depth += 1 if word.startswith("if") else -1 if word == "endif" else 0
        if word == "include" and depth == 0:
            found.append(m)
    return found


def with_include(text: str, relpath: str) -> str:
    """text with #include of the header (at the directory's top) after its
    last #include outside any conditional, or first if it has none."""
    line = f'#include "{"../" * relpath.count("/")}{HEADER}"\n'
    if line in text:
        return text
    last = top_level_includes(text)
    at = last[-1].end() if last else 0
    return text[:at] + line + text[at:]
