# SPDX-License-Identifier: GPL-2.0-only
"""The old (y2038-unsafe or removed) kernel time API, as a regex table:
what `tools/corpus` counts before and after `convert`, and what the
README's corpus table reports.  A use is one match in code (comments and
string literals blanked), in a .c or .h file.

The table names the old interfaces, not every y2038 hazard: a 32-bit
variable holding ktime_get_real_seconds() is the hazard report's business.
"""
import re
from pathlib import Path
from typing import Dict, Iterable

from .csource import blank_comments_and_strings

# name -> pattern; each kind is counted once per match
OLD_API = {
    "struct timeval": r"\bstruct\s+timeval\b",
    "struct timespec": r"\bstruct\s+timespec\b",
    "do_gettimeofday": r"\bdo_gettimeofday\s*\(",
    "do_settimeofday": r"\bdo_settimeofday\s*\(",
    "getnstimeofday": r"\bgetnstimeofday\s*\(",
    "getrawmonotonic": r"\bgetrawmonotonic\s*\(",
    "getboottime": r"\bgetboottime\s*\(",
    "ktime_get_ts": r"\bktime_get_(?:real_|raw_|boot_)?ts\s*\(",
    "get_monotonic_boottime": r"\bget_monotonic_(?:boottime|coarse)\s*\(",
    "current_kernel_time": r"\bcurrent_kernel_time\s*\(",
    "get_seconds": r"\bget_seconds\s*\(",
    "current_fs_time": r"\bcurrent_fs_time\s*\(",
    "CURRENT_TIME": r"\bCURRENT_TIME(?:_SEC)?\b",
    "timespec helpers": r"\b(?:timespec_(?:sub|add|add_safe|compare|equal|to_ns|to_ktime|trunc|valid|"
                        r"to_jiffies)|set_normalized_timespec|ns_to_timespec|jiffies_to_timespec)\s*\(",
    "timeval helpers": r"\b(?:timeval_(?:to_ns|to_ktime|compare|to_jiffies|valid)|ns_to_timeval|"
                       r"jiffies_to_timeval)\s*\(",
    "ktime to timespec/timeval": r"\bktime_to_(?:timespec|timeval)\s*\(",
    "ktime .tv64": r"\.tv64\b",
    "ktime .tv.sec/.tv.nsec": r"\.tv\.n?sec\b",
}
PATTERN = re.compile("|".join(f"(?P<k{i}>{p})" for i, p in enumerate(OLD_API.values())))
KINDS = list(OLD_API)
SOURCE_SUFFIXES = (".c", ".h")


def uses_in_text(text: str) -> Dict[str, int]:
    """{kind: count} of old time-API uses in C text."""
    counts: Dict[str, int] = {}
    for match in PATTERN.finditer(blank_comments_and_strings(text)):
        kind = KINDS[int((match.lastgroup or "k0")[1:])]
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def source_files(root: Path, skip: Iterable[str] = ()) -> Iterable[Path]:
    """The .c and .h files under root, sorted, without the named ones
    (relative paths).  convert's y2038-compat.h is counted: its fallbacks
    name the old API for the older kernels of the range."""
    skipped = set(skip)
    for path in sorted(root.rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and \
                path.relative_to(root).as_posix() not in skipped:
            yield path


def count_uses(root: Path) -> int:
    """Old time-API uses in the .c and .h files under root."""
    return sum(sum(uses_in_text(path.read_text(errors="replace")).values())
               for path in source_files(root))
