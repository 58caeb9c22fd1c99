# SPDX-License-Identifier: GPL-2.0-only
"""Which of the hazards rules' reports a maintainer should act on.

The rules see a seconds value kept in 32 bits; whether that is a bug
depends on what the value is (DESCRIPTIONS).  Read from the report's line,
then from the lines of its function above it: the first kind whose pattern
matches wins, so a compat structure filled from the wall clock is "abi".
Reports are listed in ORDER: the real candidates first.
"""
import re

KINDS = [
    ("abi", r"\b(?!(?:__)?(?:u|s|le|be)32\b|cpu_to_[lb]e32\b|[lb]e32_to_cpu\b)(?:[A-Za-z_]\w*32|compat_\w*|old_\w*)\b"),
    ("format", r"\b(?:__le32|__be32|cpu_to_le32|cpu_to_be32|htonl|put_unaligned_[lb]e32)\b"),
    ("register", r"\b(?:\w*reg_read\w*|readl|ioread32|\w*read_reg\w*|\w*_wr|\w*_write\w*|writel|iowrite32|"
                 r"lower_32_bits)\s*\("),
    ("wallclock", r"\b(?:ktime_get_real\w*|ktime_get_clocktai\w*|get_seconds|CLOCK_REALTIME|current_time|"
                  r"ktime_get_coarse_real\w*|real_seconds)\b"),
    ("duration", r"\b(?:\w+_sub|\w*_delta\w*|\w*remaining\w*|\w*diff\w*|duration\w*)\b"),
    ("monotonic", r"\b(?:ktime_get|ktime_get_ts64|ktime_get_boottime\w*|ktime_get_raw\w*|ktime_get_seconds|"
                  r"jiffies\w*|CLOCK_MONOTONIC|CLOCK_BOOTTIME)\b"),
]
DESCRIPTIONS = {
    "wallclock": "wall-clock time: the real candidates",
    "unknown": "the value's source not seen: read by hand",
    "monotonic": "monotonic or boot time: seconds since boot, not a date",
    "duration": "a difference or a remaining time, not a date",
    "register": "a hardware register's value (PTP clocks included): the hardware's width",
    "format": "an on-disk or wire format: the format's width",
    "abi": "a 32-bit compat or old ABI structure: 32 bits on purpose",
}
ORDER = ["wallclock", "unknown", "monotonic", "duration", "register", "format", "abi"]
WINDOW = 12  # lines above the report, within its function


def window(lines: list, line: int) -> str:
    """The reported line and the lines above it, back to its function's
    signature (the line before its opening brace)."""
    start = line
    while start > 1 and line - start < WINDOW and not lines[start - 1].startswith("{"):
        start -= 1
    return "\n".join(lines[max(start - 2, 0):line])


def triage(source: str, line: int, path: str = "") -> str:
    """The kind (DESCRIPTIONS) of a report at line of source (path: the file's)."""
    lines = source.splitlines()
    if not 0 < line <= len(lines):
        return "unknown"
    if re.search(r"(^drivers/ptp/|_ptp\.c$|/ptp\.c$)", path):
        return "register"
    here, around = lines[line - 1], window(lines, line)
    for text in (here, around):  # what the reported line itself says first, then its context
        for kind, pattern in KINDS:
            if re.search(pattern, text):
                return kind
    return "unknown"
