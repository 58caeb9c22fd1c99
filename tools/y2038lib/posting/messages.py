# SPDX-License-Identifier: GPL-2.0-only
"""A patch's commit message, built from what its diff holds.

The subject names the functions the diff uses (a rule's `// Subject:` may
hold a glob, `ktime_get*_ns()`, or alternatives, `a()/b()`: they are filled
from the diff); the body gives a short background once, then what each
sub-rule that fired in the patch did (its `// Rewrite:` sentences, once per
shape), the changes counted from the diff, and the semantic patch of those
sub-rules between `// <smpl>` and `// </smpl>`, as Coccinelle-made kernel
patches carry it.  A rule without annotations (or a group whose record does
not say what fired) tells its whole `///` rationale and shows all of its
transforming rules.
"""
import difflib
import re
from typing import Dict, List, Tuple

from . import posting_rules
from .covers import campaign_info, wrap
from ..common import COCCI_DIR
from . import shown_smpl
from ..engine import smpl
from ..engine.rules import parse_rule

MAX_SUBJECT = 75  # checkpatch's and the kernel's limit for a summary line
SMPL_INTRO = "(https://coccinelle.gitlabpages.inria.fr/website)"
# a call in a subject: name(...) with at most one level of nested calls
CALL = r"[\w*]+\((?:[^()]|\([^()]*\))*\)"
ALTERNATIVES = re.compile(rf"{CALL}(?:/{CALL})+")
GLOB_CALL = re.compile(CALL)


def rewrites(before: bytes, after: bytes) -> int:
    """The lines a patch changes: a line replaced, removed or added counts
    once (a run of three rewritten calls is three, not one)."""
    return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, before.splitlines(), after.splitlines(), autojunk=False).get_opcodes() if op != "equal")


def commit_message(group: dict, signoff) -> str:
    """The commit message of a group; signoff None: a draft, no Signed-off-by.
    group["diffs"]: {file: (before, after)}, what the subject and counts are
    taken from (without it, the group's recorded counts)."""
    prefix = group.get("prefix") or posting_rules.subject_prefix(group["files"][0])
    tree = group.get("tree", "")
    campaign = campaign_info(group["campaign"])
    parsed = [parse_rule(COCCI_DIR.parent / r["path"]) for r in group["rules"]]
    diffs = group.get("diffs", {})
    # a fix's own summary (the value it is for) where its facts give one
    summary = group.get("summary") or (group["rules"][0]["subject"] if len(parsed) == 1 else campaign["subject"])
    summary = filled_subject(summary, diffs, lambda s: len(posting_rules.subject(prefix, s, tree)))
    body = Paragraphs()
    # a fix whose facts say what breaks where, and whose remedy says what it does to
    # those values, needs neither the rule's background nor its general sentences
    remedy = group.get("remedy")
    if not remedy:
        # background: a rule's rationale is never empty (parse_rule), a campaign's text may be
        body.add(filled_text(paragraphs(parsed[0].rationale)[0], diffs) if len(parsed) == 1 else campaign["text"])
    # a fix says first what breaks where, then what the rewrite does
    for fact in group.get("facts", []):
        body.add(fact)
    if remedy:
        body.add(remedy)
    shapes: set = set()
    for rule, record in zip(parsed, group["rules"] if not remedy else []):
        told = told_rewrites(rule, record.get("fired"))
        for sub in told or []:
            if sub.shape not in shapes:
                shapes.add(sub.shape)
                body.add(sub.sentences)
        if told is None:
            for paragraph in paragraphs(rule.rationale):
                body.add(paragraph)
        if rule.listing and record.get("listed"):
            body.add(f"{rule.listing[0]}: {', '.join(record['listed'])}.")
    changes, nfiles = counts(group, diffs)
    body.add(f"{changes} changed line{'s' if changes != 1 else ''} in {nfiles} file{'s' if nfiles != 1 else ''}, "
             f"generated with Coccinelle" + ("." if group.get("fix") else "; no functional change intended."))
    text = posting_rules.subject(prefix, summary, tree) + "\n\n" + body.text()
    patches = [semantic_patch(rule, record.get("fired")) for rule, record in zip(parsed, group["rules"])]
    if any(patches):
        text += "\n\n" + smpl_section([p for p in patches if p])
    # the people and lists go in the mail's To/Cc (format-patch), not in the history
    trailer = list(group.get("trailers", []))
    if signoff:
        trailer.append(f"Signed-off-by: {signoff}")
    return text + ("\n\n" + "\n".join(trailer) if trailer else "") + "\n"


class Paragraphs:
    """A message body: each paragraph wrapped, and given once."""

    def __init__(self) -> None:
        self.seen: List[str] = []

    def add(self, text: str) -> None:
        for paragraph in paragraphs(text):
            if " ".join(paragraph.split()) not in self.seen:
                self.seen.append(" ".join(paragraph.split()))

    def text(self) -> str:
        return "\n\n".join(wrap(p) for p in self.seen)


def paragraphs(text: str) -> List[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


def told_rewrites(rule, fired):
    """The annotated sub-rules to tell for a rule whose record names the
    ones that fired (file order), or None: tell its whole rationale."""
    if not rule.probed or not fired:
        return None
    return smpl.transforming(rule.sub_rules, fired)


def semantic_patch(rule, fired) -> str:
    """The SmPL of the sub-rules that fired, or of every transforming one
    when the record does not say; "" for a rule that is not Coccinelle's."""
    if rule.kind != "cocci":
        return ""
    told = told_rewrites(rule, fired)
    return shown_smpl.semantic_patch(rule.sub_rules, told if told is not None else smpl.transforming(rule.sub_rules))


def smpl_section(patches: List[str]) -> str:
    """The semantic patches between // <smpl> and // </smpl>, as
    Coccinelle-made kernel patches give them."""
    simplified = ", simplified," if any(map(shown_smpl.is_simplified, patches)) else ""
    lead = (f"The semantic patch that makes this change{simplified} is as follows:" if len(patches) == 1 else
            f"The semantic patches that make this change{simplified} are as follows:")
    return "\n\n".join([f"{lead}\n{SMPL_INTRO}", *(f"// <smpl>\n{p}\n// </smpl>" for p in patches)])


def counts(group: dict, diffs: Dict[str, Tuple[bytes, bytes]]) -> Tuple[int, int]:
    """(changes, files) of the patch, from its diff when given."""
    changed = {f: d for f, d in diffs.items() if d[0] != d[1]}
    if changed:
        return sum(rewrites(before, after) for before, after in changed.values()), len(changed)
    return group.get("rewrites", group["sites"]), len(group["files"])


def diff_sides(diffs: Dict[str, Tuple[bytes, bytes]]) -> Tuple[str, str]:
    """(removed, added): the lines each side of the diffs holds alone, joined."""
    removed, added = [], []
    for before, after in diffs.values():
        for line in difflib.unified_diff(before.decode(errors="replace").splitlines(),
                                         after.decode(errors="replace").splitlines(), lineterm="", n=0):
            if line.startswith("-") and not line.startswith("---"):
                removed.append(line[1:])
            elif line.startswith("+") and not line.startswith("+++"):
                added.append(line[1:])
    return " ".join(removed), " ".join(added)


def call_regex(call: str) -> str:
    """A regex for a call of a subject in code: '*' is any part of a name
    (a group each), '()' any arguments."""
    out = r"\b"
    for token in re.findall(r"\(\)|\*|[()]|[^()*]+", call):
        out += {"()": r"\((?:[^()]|\([^()]*\))*\)", "*": r"(\w*)", "(": r"\(\s*", ")": r"\s*\)"}.get(
            token, re.escape(token))
    return out


def used_forms(call: str, removed: str, added: str) -> List[str]:
    """The forms of call (its '*' filled in) the diff adds or removes: those
    it holds a different number of times on each side."""
    pattern = re.compile(call_regex(call))
    forms = set()
    for side in (removed, added):
        for m in pattern.finditer(side):
            form = call
            for part in m.groups():
                form = form.replace("*", part, 1)
            forms.add(form)
    exact = {f: re.compile(call_regex(f)) for f in forms}
    return sorted(f for f in forms if len(exact[f].findall(removed)) != len(exact[f].findall(added)))


def named(forms: List[str], original: str) -> str:
    """One form: it; two: 'a and b'; none or more: the original (their common name)."""
    if len(forms) == 1:
        return forms[0]
    return " and ".join(forms) if len(forms) == 2 else original


def fills(text: str, removed: str, added: str) -> List[Tuple[int, int, str]]:
    """(start, end, form) of each glob and alternative of text, named from
    the diff's sides."""
    found = []
    for m in ALTERNATIVES.finditer(text):
        # each alternative by the forms the diff uses: its globs filled too
        used = [form for alt in m.group(0).split("/") for form in used_forms(alt, removed, added)]
        found.append((m.start(), m.end(), named(used, m.group(0))))
    for m in GLOB_CALL.finditer(text):
        if "*" in m.group(0) and not any(s <= m.start() < e for s, e, _ in found):
            found.append((m.start(), m.end(), named(used_forms(m.group(0), removed, added), m.group(0))))
    return sorted(found)


def filled(text: str, chosen) -> str:
    for start, end, form in reversed(chosen):
        text = text[:start] + form + text[end:]
    return text


def filled_text(text: str, diffs) -> str:
    """text (a message's first paragraph) with its globs and alternatives
    named from the diff."""
    return filled(text, fills(text, *diff_sides(diffs))) if diffs else text


def filled_subject(summary: str, diffs, length) -> str:
    """summary with its globs and alternatives named from the diff; when
    that makes the subject (length(summary)) longer than MAX_SUBJECT, the
    summary without its "instead of ..." part, named; else fillings undone,
    the last first."""
    if not diffs:
        return summary
    sides = diff_sides(diffs)
    short = summary.split(" instead of ")[0]
    for candidate in dict.fromkeys((summary, short)):
        text = filled(candidate, fills(candidate, *sides))
        if length(text) <= MAX_SUBJECT:
            return text
    chosen = fills(summary, *sides)
    while chosen:
        text = filled(summary, chosen)
        if length(text) <= MAX_SUBJECT or length(text) <= length(summary):
            return text
        chosen.pop()
    return summary
