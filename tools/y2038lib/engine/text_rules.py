# SPDX-License-Identifier: GPL-2.0-only
"""A small editor for the .text rules of the catalogue: what goes with a
removed configuration but that neither Coccinelle nor unifdef sees
(comments that describe it, a conditional that only existed for it).

A .text rule holds, after its header, one command per line:

  drop-comment-paragraph /REGEX/
      in C block comments, a paragraph (lines between blank comment lines)
      whose text matches REGEX goes; a comment whose every paragraph
      matches goes whole, with one of the blank lines around it; the first
      paragraph (the comment's subject) goes only with the whole comment
  rewrite-comment /REGEX/ TEXT
      inside C comments, REGEX is replaced by TEXT
  keep-first-branch /REGEX/ defining NAME
      an #if whose condition matches REGEX and whose first branch
      #defines NAME keeps its first branch only, without the directives
  ktime-designators
      designated initialisers of the non-scalar ktime_t that spatch does
      not see (nested designators): `.x.tv64 = v` and `.x = { .tv64 = v }`
      become `.x = v`; `.x.tv.sec = s` and `.x.tv.nsec = ns` in one
      initialiser become `.x = (s64)s * NSEC_PER_SEC + ns` (a constant
      expression: it stays valid in a static initialiser), either alone
      the part given (a designated initialiser zeroes the rest)

It reports nothing: what it does not match it leaves alone.
"""
import re
from typing import Dict, List, Optional, Pattern, Tuple

from ..common import Y2038Error
from ..csource import blank_comments_and_strings

COMMAND = re.compile(r"^(drop-comment-paragraph|rewrite-comment|keep-first-branch)\s+/((?:\\/|[^/])+)/\s*(.*)$")
BARE_COMMANDS = ("ktime-designators",)
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
# (verb, regex, argument); the bare commands have neither regex nor argument
Command = Tuple[str, Optional[Pattern[str]], Optional[str]]


def parse_commands(body, relpath: str) -> List[Command]:
    commands: List[Command] = []
    for line in body:
        if line.strip() in BARE_COMMANDS:
            commands.append((line.strip(), None, None))
            continue
        m = COMMAND.match(line)
        if not m:
            raise Y2038Error(f"{relpath}: cannot read command {line!r}")
        verb, regex, rest = m.group(1), m.group(2).replace("\\/", "/"), m.group(3).strip()
        try:
            pattern = re.compile(regex)
        except re.error as err:
            raise Y2038Error(f"{relpath}: bad regex in {line!r}: {err}") from None
        if verb == "keep-first-branch":
            name = re.fullmatch(r"defining\s+([A-Za-z_]\w*)", rest)
            if not name:
                raise Y2038Error(f"{relpath}: {line!r}: expected 'defining NAME' after the regex")
            rest = name.group(1)
        elif verb == "rewrite-comment" and not rest:
            raise Y2038Error(f"{relpath}: {line!r}: rewrite-comment needs the new text")
        commands.append((verb, pattern, rest))
    if not commands:
        raise Y2038Error(f"{relpath}: no command after the header")
    return commands


def comment_paragraphs(comment: str):
    """[(first, last)] line indexes of the paragraphs of a block comment."""
    lines = comment.split("\n")
    body = [re.sub(r"^\s*/?\*+/?|\*/\s*$", "", l).strip() for l in lines]
    paragraphs, start = [], None
    for n, text in enumerate(body):
        if text and start is None:
            start = n
        if not text and start is not None:
            paragraphs.append((start, n - 1))
            start = None
    if start is not None:
        paragraphs.append((start, len(lines) - 1))
    return lines, body, paragraphs


def drop_paragraphs(text: str, pattern) -> str:
    def edit(m):
        comment = m.group(0)
        lines, body, paragraphs = comment_paragraphs(comment)
        doomed = [p for p in paragraphs if pattern.search(" ".join(body[p[0]:p[1] + 1]))]
        if not doomed:
            return comment
        if len(doomed) == len(paragraphs):
            return "\0DROP\0"
        # the first paragraph is the comment's subject: it goes only with the whole comment
        doomed = [p for p in doomed if p != paragraphs[0]]
        drop = set()
        for first, last in doomed:
            drop.update(range(first, last + 1))
            # with the blank comment line after it (or before it, at the end)
            if last + 1 < len(lines) and not body[last + 1] and last + 1 != len(lines) - 1:
                drop.add(last + 1)
            elif first - 1 > 0 and not body[first - 1]:
                drop.add(first - 1)
        if 0 in drop or len(lines) - 1 in drop:  # the first or last line also opens or closes it
            return comment
        return "\n".join(l for n, l in enumerate(lines) if n not in drop)
    edited = BLOCK_COMMENT.sub(edit, text)
    if "\0DROP\0" not in edited:
        return edited
    out = edited.split("\n")
    result: List[str] = []
    for n, line in enumerate(out):
        if line.strip() == "\0DROP\0":
            # unifdef -B: take one of the blank lines around it
            if result and not result[-1].strip() and n + 1 < len(out) and not out[n + 1].strip():
                result.pop()
            elif result and not result[-1].rstrip().endswith(("{", "*/")) and result[-1].strip() and \
                    n + 1 < len(out) and out[n + 1].strip() and not out[n + 1].lstrip().startswith("}"):
                result.append("")  # it stood between two statements: a blank line keeps them apart
            continue
        result.append(line.replace("\0DROP\0", "").rstrip() if "\0DROP\0" in line else line)
    return "\n".join(result)


def keep_first_branch(text: str, pattern, name: str) -> str:
    lines = text.split("\n")
    n = 0
    while n < len(lines):
        m = re.match(r"^\s*#\s*if\s+(.*?)\s*$", lines[n])
        if m and pattern.search(m.group(1)):
            depth, branches, end = 0, [n], None
            for k in range(n + 1, len(lines)):
                d = re.match(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b", lines[k])
                if not d:
                    continue
                if d.group(1).startswith("if"):
                    depth += 1
                elif d.group(1) == "endif" and depth:
                    depth -= 1
                elif d.group(1) == "endif":
                    end = k
                    break
                elif not depth:
                    branches.append(k)
            if end is not None:
                first = lines[n + 1:branches[1] if len(branches) > 1 else end]
                if any(re.match(rf"^\s*#\s*define\s+{re.escape(name)}\b", l) for l in first):
                    lines[n:end + 1] = [re.sub(r"^(\s*)#\s+define", r"\1#define", l) for l in first]
                    n += len(first)
                    continue
        n += 1
    return "\n".join(lines)


def edit(text: str, commands) -> str:
    for verb, pattern, arg in commands:
        if verb == "drop-comment-paragraph":
            text = drop_paragraphs(text, pattern)
        elif verb == "rewrite-comment":
            text = BLOCK_COMMENT.sub(lambda m: pattern.sub(arg, m.group(0)), text)
        elif verb == "ktime-designators":
            text = ktime_designators(text)
        else:
            text = keep_first_branch(text, pattern, arg)
    return text


DESIGNATOR = re.compile(r"(?<![\w\]\)])(?P<path>(?:\.\s*[A-Za-z_]\w*\s*(?:\[[^\]=]*\]\s*)*)+?)"
                        r"(?:\.\s*tv64|\.\s*tv\s*\.\s*(?P<half>n?sec))\s*=(?!=)\s*")
BRACED_TV64 = re.compile(r"(?P<path>\.\s*[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*=\s*\{\s*\.\s*tv64\s*=\s*"
                         r"(?P<value>[^{},]+?)\s*,?\s*\}")
LOW_PRECEDENCE = re.compile(r"\?|\|\||&&|[|&^]|<<|>>|[<>=!]=|[<>]")


def opening_brace(code: str, pos: int) -> int:
    """Offset of the '{' that opens the innermost block around pos (-1 if none)."""
    depth = 0
    while pos > 0:
        pos -= 1
        if code[pos] == "}":
            depth += 1
        elif code[pos] == "{":
            if depth == 0:
                return pos
            depth -= 1
    return -1


def value_end(text: str, start: int, stops: str = ",") -> int:
    """Where the value starting at start ends: the next of stops (an
    initialiser's ',') or closing bracket at its own nesting level."""
    depth = 0
    for pos in range(start, len(text)):
        c = text[pos]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return pos
            depth -= 1
        elif c in stops and depth == 0:
            return pos
    return len(text)


def designator_sites(code: str) -> list:
    """[(start, value start, value end, path, half)] of the .tv64/.tv.sec/
    .tv.nsec designators in initialisers (code: blanked)."""
    sites = []
    for m in DESIGNATOR.finditer(code):
        before = code[:m.start()].rstrip()
        while before.rsplit("\n", 1)[-1].lstrip().startswith("#"):  # an #if/#else between designators
            before = before.rsplit("\n", 1)[0].rstrip() if "\n" in before else ""
        if not before.endswith(("{", ",")):
            continue  # not a designator: a member access in an expression
        end = value_end(code, m.end())
        end = m.end() + len(code[m.end():end].rstrip())
        path = re.sub(r"\s+", "", m.group("path"))
        sites.append((m.start(), m.end(), end, path, m.group("half")))
    return sites


def designator_span(text: str, start: int, end: int) -> Tuple[int, int]:
    """(start, end) of the designator start..end with its comma (the one
    after it, or before it for the last one) and, if alone, its line."""
    if end < len(text) and text[end] == ",":
        end += 1
        while end < len(text) and text[end] in " \t":
            end += 1
    else:  # the last one: take the comma before it
        start = len(text[:start].rstrip()) - 1 if text[:start].rstrip().endswith(",") else start
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if not text[line_start:start].strip() and not text[end:line_end if line_end >= 0 else None].strip():
        start, end = line_start, (line_end + 1 if line_end >= 0 else len(text))
    return start, end


def ktime_designators(text: str) -> str:
    """The ktime-designators command (see the top of this file)."""
    text = BRACED_TV64.sub(lambda m: f"{m.group('path')} = {m.group('value').strip()}", text)
    code = blank_comments_and_strings(text)
    sites = designator_sites(code)
    if not sites:
        return text
    # .tv.sec and .tv.nsec of one object in one initialiser (same enclosing brace)
    brace_of = lambda pos: opening_brace(code, pos)
    groups: Dict[Tuple[int, str], Dict[str, tuple]] = {}
    for site in sites:
        if site[4]:
            groups.setdefault((brace_of(site[0]), site[3]), {})[site[4]] = site
    edits: List[Tuple[int, int, str]] = []  # (start, end, replacement)
    for site in sites:
        start, vstart, vend, path, half = site
        value = text[vstart:vend].strip()
        if not half:
            edits.append((start, vend, f"{path} = {value}"))
            continue
        pair = groups[(brace_of(start), path)]
        sec, nsec = pair.get("sec"), pair.get("nsec")
        if half == "nsec" and sec:
            continue  # written with its .tv.sec
        wrap = lambda v: f"({v})" if LOW_PRECEDENCE.search(v) or "+" in v or "-" in v.lstrip("-") else v
        if half == "nsec":
            edits.append((start, vend, f"{path} = {value}"))
            continue
        seconds = f"(s64){wrap(value)} * NSEC_PER_SEC"
        if nsec:
            ns_value = text[nsec[1]:nsec[2]].strip()
            if ns_value not in ("0", "0L", "0UL"):
                seconds += f" + {wrap(ns_value)}"
            edits.append((*designator_span(text, nsec[0], nsec[2]), ""))
        edits.append((start, vend, f"{path} = {seconds}"))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text
