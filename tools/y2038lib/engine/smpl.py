# SPDX-License-Identifier: GPL-2.0-only
"""The SmPL rules of a .cocci file: which of them transform code, the
`// Rewrite:` annotation each carries (docs/rules.md, the sub-rule
convention), and the probes that tell which of them fired in a file.

A transforming rule is named and directly preceded by

    // Rewrite: <shape>
    //  <sentences for the commit message>

Its probe is an `@script:python depends on <name>@` rule appended to the
file: spatch runs it once per file in which <name> matched, and it prints
PROBE_MARKER and the name right after spatch's "HANDLING: <file>" line.
How a commit message shows the rules is posting/shown_smpl.py's (the apply
stage's cached results depend on this module's code, not on that).
"""
import re
from dataclasses import dataclass, field
from typing import List, Optional

PROBE_MARKER = "Y2038-FIRED:"
MODES = {"patch", "context", "org", "report"}  # the virtual rules of the kernel's .cocci files
# what may follow a rule's dependency in its @...@ line
QUALIFIER = re.compile(r"(?:^|\s)(exists|forall|disable|using|expression|strict|extends)\b")
HEADER = re.compile(r"^@(?!@)[^@]*@\s*$|^@@\s*$")


@dataclass
class SubRule:
    """One SmPL rule (or script rule) of a .cocci file."""
    header: str  # the @...@ line
    kind: str  # "smpl" or the script kind ("script:python", "initialize:python", ...)
    name: Optional[str]
    depends: str  # the expression after "depends on", or ""
    metavars: List[str] = field(default_factory=list)
    body: List[str] = field(default_factory=list)
    shape: Optional[str] = None  # its "// Rewrite:" shape
    sentences: str = ""  # the lines after it, joined

    @property
    def transforms(self) -> bool:
        return self.kind == "smpl" and any(l.startswith(("-", "+")) for l in self.body)

    @property
    def reports_only(self) -> bool:
        """Only the context, org or report modes run it."""
        words = set(re.findall(r"\w+", self.depends))
        return bool(words & (MODES - {"patch"})) and "patch" not in words

    @property
    def reporting(self) -> bool:
        """A script rule, or one that only the context, org or report modes run."""
        return self.kind != "smpl" or self.reports_only

    def references(self, names) -> set:
        """The rules among names this one inherits from or depends on."""
        used = set(re.findall(r"\w+", self.depends))
        used |= set(re.findall(r"\b(\w+)\.\w+", " ".join(self.metavars)))
        return used & set(names)


def parse_header(line: str):
    """(kind, name, depends) of a rule's @...@ line."""
    inner = line.strip()[1:-1].strip()
    kind = "smpl"
    if (m := re.match(r"(script|initialize|finalize):(\w+)\s*", inner)):
        kind, inner = m.group(0).strip(), inner[m.end():]
    name = None
    if inner and not inner.startswith("depends"):
        name, _, inner = inner.partition(" ")
        inner = inner.strip()
    depends = re.match(r"depends\s+on\s+(.*)", inner, re.S)
    return kind, name, depends.group(1).strip() if depends else inner


def split_depends(text: str):
    """(dependency, qualifiers) of what follows a rule's name: the
    qualifiers (exists, forall, disable ..., ...) come after the dependency."""
    m = QUALIFIER.search(text)
    return (text[:m.start()].strip(), text[m.start():].strip()) if m else (text.strip(), "")


def parse(text: str) -> List[SubRule]:
    """The rules of a .cocci file in order, each with its annotation."""
    rules: List[SubRule] = []
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        if not HEADER.match(lines[n]):
            n += 1
            continue
        comment = preceding_comment(lines, n)
        if rules:  # that comment closed the rule before
            del rules[-1].body[len(rules[-1].body) - len(comment):]
        kind, name, depends = parse_header(lines[n])
        rule = SubRule(header=lines[n], kind=kind, name=name, depends=depends)
        n += 1
        while n < len(lines) and lines[n].strip() != "@@":
            rule.metavars.append(lines[n])
            n += 1
        n += 1
        while n < len(lines) and not HEADER.match(lines[n]):
            rule.body.append(lines[n])
            n += 1
        rule.shape, rule.sentences = annotation(comment)
        rules.append(rule)
    for rule in rules:
        while rule.body and not rule.body[-1].strip():
            rule.body.pop()
    return rules


def preceding_comment(lines: List[str], n: int) -> List[str]:
    """The '//' lines right above line n (none if a blank line is between),
    with the blank lines between them and the rule before."""
    start = n
    while start > 0 and lines[start - 1].startswith("//"):
        start -= 1
    if start == n:
        return []
    while start > 0 and not lines[start - 1].strip():
        start -= 1
    return lines[start:n]


def annotation(comment: List[str]):
    """(shape, sentences) of a '// Rewrite:' block, or (None, "")."""
    for k, line in enumerate(comment):
        if (m := re.match(r"//\s*Rewrite:\s*(.*)", line)):
            sentences = []
            for more in comment[k + 1:]:
                if not more.startswith("//  "):
                    break
                sentences.append(more[2:].strip())
            return m.group(1).strip(), " ".join(sentences)
    return None, ""


def probed_names(rules: List[SubRule]) -> List[str]:
    """The names of the rules to probe: every rule that transforms code in
    patch mode, when all of them are named and annotated; else none (the
    rule's messages fall back to its whole rationale)."""
    changing = transforming(rules)
    if not changing or any(r.name is None or r.shape is None for r in changing):
        return []
    return [r.name for r in changing if r.name]


def probes(names: List[str]) -> str:
    """The script rules appended to a .cocci to print which rules fired."""
    return "".join(f'\n@script:python depends on {name}@\n@@\nprint("{PROBE_MARKER} {name}", flush=True)\n'
                   for name in names)


def fired_in(log: str) -> List[str]:
    """The rule names the probes printed in (one file's part of) spatch's log."""
    return sorted(set(re.findall(rf"^{re.escape(PROBE_MARKER)} (\w+)$", log, re.M)))


def transforming(rules: List[SubRule], names=None) -> List[SubRule]:
    """The rules that transform code in patch mode; names: only those named."""
    return [r for r in rules if r.transforms and not r.reporting and (names is None or r.name in names)]
