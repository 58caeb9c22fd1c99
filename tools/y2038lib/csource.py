# SPDX-License-Identifier: GPL-2.0-only
"""C source text, read the way the passes need it: comments and literals
blanked (replaced by spaces, newlines kept, so every offset and line number
of the code stays where it was), and identifiers.

Three strengths of blanking, because the passes differ on purpose:
comments only (a shim definition or an #if expression is found by its
text, strings and all), comments and string literals (the rule engine's
leftover and designator scans), and comments with string and character
literals (the whole-driver pass and the code-unit split, where a '{' or
'"' in a character literal would unbalance the count).

The scanner is a regular expression, not a lexer: a literal ends at its
line's end unless continued by a backslash, and a // comment ends at its
line's end even after a backslash.  Each works on str or bytes.
"""
import re

COMMENT = r"/\*.*?\*/|//[^\n]*"
STRING = r'"(?:\\.|[^"\\\n])*"'
CHARACTER = r"'(?:\\.|[^'\\\n])*'"
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _pair(pattern: str):
    """The pattern compiled for str and for bytes (DOTALL: a block comment
    spans lines, a backslash escapes a newline)."""
    return re.compile(pattern, re.S), re.compile(pattern.encode(), re.S)


COMMENTS = _pair(COMMENT)
COMMENTS_AND_STRINGS = _pair(f"{COMMENT}|{STRING}")
COMMENTS_AND_LITERALS = _pair(f"{COMMENT}|{STRING}|{CHARACTER}")
NOT_NEWLINE = _pair(r"[^\n]")


def _blank(patterns, text):
    is_bytes = isinstance(text, bytes)
    pattern, not_newline = patterns[is_bytes], NOT_NEWLINE[is_bytes]
    space = b" " if is_bytes else " "
    return pattern.sub(lambda m: not_newline.sub(space, m.group(0)), text)


def blank_comments(text):
    """Block and line comments as spaces."""
    return _blank(COMMENTS, text)


def blank_comments_and_strings(text):
    """Comments and string literals as spaces; character literals kept."""
    return _blank(COMMENTS_AND_STRINGS, text)


def blank_comments_and_literals(text):
    """Comments, string and character literals as spaces."""
    return _blank(COMMENTS_AND_LITERALS, text)
