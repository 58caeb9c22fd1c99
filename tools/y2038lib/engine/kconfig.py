# SPDX-License-Identifier: GPL-2.0-only
"""A small Kconfig editor for the .kconfig rules of the catalogue.

Kconfig is not C, so Coccinelle cannot retire a configuration symbol.  A
.kconfig rule holds, after its header, one command per line:

  always-y SYMBOL   the behaviour SYMBOL selected is now unconditional:
                    the "config SYMBOL" entry (with its help text and
                    the "# ..." comment lines right above it, which
                    describe it) and
                    every "select SYMBOL" / "select SYMBOL if EXPR" line go;
                    any other reference (depends on, default, if, imply)
                    is left as it is and reported, since rewriting the
                    expression around it is a decision for a human.
"""
import re
from typing import List, Tuple

from ..common import Y2038Error

# A line at column 0 that is not blank or a help-text continuation ends an entry.
ENTRY_END = re.compile(r"^\S")


def parse_commands(body, relpath: str):
    """[('always-y', 'SYM'), ...] from the rule's body lines."""
    commands = []
    for line in body:
        words = line.split()
        if len(words) != 2 or words[0] != "always-y" or not re.fullmatch(r"[A-Z0-9_]+", words[1]):
            raise Y2038Error(f"{relpath}: cannot read command {line!r} (expected: always-y SYMBOL)")
        commands.append(tuple(words))
    if not commands:
        raise Y2038Error(f"{relpath}: no command after the header")
    return commands


def always_y(text: str, symbol: str):
    """(new text, [(line number, why), ...] for the references left)."""
    lines = text.splitlines(True)
    out: List[str] = []
    left: List[Tuple[int, str]] = []
    entry = re.compile(rf"^(menu)?config\s+{symbol}\s*$")
    select = re.compile(rf"^\s*select\s+{symbol}(\s+if\s+.*)?\s*$")
    mention = re.compile(rf"\b{symbol}\b")
    i = 0
    while i < len(lines):
        line = lines[i]
        if entry.match(line):
            while out and out[-1].startswith("#"):  # its own comment goes with it
                out.pop()
            i += 1
            while i < len(lines) and not ENTRY_END.match(lines[i]):
                i += 1
            continue  # the blank line before the next entry stays with it
        if select.match(line):
            i += 1
            continue
        if mention.search(line.split("#", 1)[0]):
            left.append((i + 1, f"{symbol} is referred to here; it is always y now: "
                                f"simplify the expression by hand: {line.strip()}"))
        out.append(line)
        i += 1
    edited = "".join(out)
    if edited != text:  # an entry removed at the end leaves no blank tail
        edited = edited.rstrip("\n") + "\n"
    return edited, left


def edit(text: str, commands):
    left = []
    for _, symbol in commands:
        text, found = always_y(text, symbol)
        left += found
    return text, left
