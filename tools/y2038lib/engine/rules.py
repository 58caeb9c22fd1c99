# SPDX-License-Identifier: GPL-2.0-only
"""The rule catalogue: cocci/<campaign>/<rule>.<kind> and their headers.

A rule is a Coccinelle semantic patch (.cocci) or, for what Coccinelle
cannot see, a preprocessor rule (.unifdef: unifdef arguments), a Kconfig
rule (.kconfig: editor commands, see kconfig.py) or a text rule (.text:
comment and conditional commands, see text_rules.py).  Campaigns run in the
order of CAMPAIGN_ORDER, rules in name order.  Header lines ("// Key:
value", continued by indented "//  " lines) follow the kernel's
scripts/coccinelle style; the ones the driver reads are Scope, Exclude,
Options, Subject, Prefilter, Prefilter-regex, Leftover-regex, Lists,
Out-of-tree and the "///" rationale.
"""
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import kconfig, smpl, text_rules
from .spatch import parse_cocci
from ..common import COCCI_DIR, Y2038Error, dependency_key

# Legacy conversions first (they produce the APIs that ktime-direct refines).
CAMPAIGN_ORDER = ["ktime-scalar", "timespec64-core", "legacy-time-api", "ktime-direct", "y2038-fixes", "y2038-hazards"]
REQUIRED_HEADERS = ("Confidence", "Scope", "Introduced", "Subject")
# rule kind -> the files it applies to (git pathspec, and fnmatch on the path)
RULE_KINDS = {"cocci": "*.[ch]", "unifdef": "*.[ch]", "kconfig": "*Kconfig*", "text": "*.[ch]"}
# rule kind -> the module that carries the rule out, where it is not spatch or unifdef
EDITORS = {"kconfig": kconfig, "text": text_rules}
C_KEYWORDS = {"if", "else", "for", "while", "do", "return", "sizeof", "struct", "union", "enum",
              "static", "const", "void", "int", "long", "unsigned", "char", "switch", "case",
              "break", "continue", "goto", "typeof"}


@dataclass
class Rule:
    path: Path
    campaign: str
    name: str
    text: str
    rationale: str
    headers: dict = field(default_factory=dict)

    @property
    def fixes_32bit_only(self) -> bool:
        """'// Machines: 32-bit': the bug it fixes is one of machines whose long is 32 bits."""
        return self.headers.get("Machines", "").strip() == "32-bit"

    @property
    def kind(self) -> str:
        return self.path.suffix[1:]

    @property
    def relpath(self) -> str:
        return f"cocci/{self.campaign}/{self.path.name}"

    @property
    def file_glob(self) -> str:
        return RULE_KINDS[self.kind]

    @property
    def body(self):
        """Non-Coccinelle rules: the lines after the header."""
        return [l.strip() for l in self.text.splitlines() if l.strip() and not l.startswith("//")]

    @functools.cached_property  # asked for each (rule, file) of a run
    def digest(self) -> str:
        """The rule's text, and for .kconfig/.text rules the editor that
        carries them out: a cached result is only as current as both."""
        editor = EDITORS.get(self.kind)
        return dependency_key(self.text, code=[editor] if editor else [])

    @functools.cached_property
    def sub_rules(self):
        """A .cocci rule's SmPL rules (smpl.py), [] for the other kinds."""
        return smpl.parse(self.text) if self.kind == "cocci" else []

    @property
    def probed(self):
        """The names of the sub-rules whose firing apply records per file:
        all of its transforming rules when each is named and carries a
        '// Rewrite:' annotation, else none (its whole rationale is told)."""
        return smpl.probed_names(self.sub_rules)

    @property
    def options(self):
        return self.headers.get("Options", "").split()

    @property
    def scope(self):
        value = self.headers.get("Scope", "all").split()
        return [] if value == ["all"] else value

    @property
    def exclude(self):
        return self.headers.get("Exclude", "").split()

    @property
    def needs_types(self) -> bool:
        """'// Types: headers': spatch must read the tree's headers to know the
        types of fields (the driver adds the include paths per file);
        '// Types: included-headers': only the headers the file includes
        itself (their own includes unread: seconds, not minutes, a file)."""
        return self.headers.get("Types", "").strip() in ("headers", "included-headers")

    @property
    def one_file_per_process(self) -> bool:
        """'// Processes: one per file': a rule whose python scripts keep what
        they saw by name, not by file, so that in a batch one file's findings
        would change the next file's result."""
        return self.headers.get("Processes", "").strip() == "one per file"

    @property
    def reads_headers_recursively(self) -> bool:
        return self.headers.get("Types", "").strip() == "headers"

    @property
    def patch_mode(self) -> bool:
        return self.kind != "cocci" or bool(re.search(r"^virtual\s+patch\b", self.text, re.M))

    @property
    def content_regex(self):
        """'// Prefilter-regex:': a candidate's contents must match it (for
        tokens too common to prefilter on alone, or a rule that changes
        only a shape the tokens do not tell)."""
        value = self.headers.get("Prefilter-regex")
        return re.compile(value.encode(), re.M) if value else None

    @property
    def out_of_tree(self) -> bool:
        """'// Out-of-tree: no' keeps the rule from `convert`, which ignores
        scopes: it is written for the kernel's own files only."""
        return self.headers.get("Out-of-tree", "yes").strip() != "no"

    @property
    def listing(self):
        """'// Lists: <label>: <regex>': the names the regex's first group
        finds in what the rule added, given under the label in the commit
        message (the functions a rule wrapped, say); None without it."""
        value = self.headers.get("Lists")
        if not value:
            return None
        label, _, regex = value.partition(": ")
        return label.strip(), re.compile(regex.encode(), re.M)

    def listed_names(self, before: bytes, after: bytes) -> list:
        """The names of the Lists regex in after and not in before."""
        found = lambda text: {m.decode() for m in self.listing[1].findall(text)}
        return sorted(found(after) - found(before))

    @property
    def leftover_regex(self):
        """'// Leftover-regex:': a match left after the rule ran is reported
        as something it could not convert."""
        value = self.headers.get("Leftover-regex")
        return re.compile(value.encode(), re.M) if value else None

    def token_regex(self) -> "re.Pattern":
        """Matches file contents holding one of the rule's tokens."""
        return re.compile((r"\b(" + "|".join(map(re.escape, self.tokens())) + r")\b").encode())

    def tokens(self):
        """Identifiers of which a file must hold one for the rule to change it:
        the '// Prefilter:' header, else the grep query spatch itself computes
        (as for --use-gitgrep), else the fixed identifiers on '-' lines."""
        explicit = self.headers.get("Prefilter")
        if explicit:
            return explicit.split()
        if self.kind != "cocci":
            raise Y2038Error(f"{self.relpath}: a .{self.kind} rule needs a '// Prefilter:' header")
        query = spatch_grep_query(self.path, "patch" if self.patch_mode else "report")
        if query:
            return query
        return self.minus_tokens()

    def minus_tokens(self):
        """Each transforming SmPL rule's '-' lines: their fixed identifiers,
        or where they have none the names an identifier metavariable on them
        may take (`identifier U = {NSEC_PER_SEC, NSEC_PER_USEC}`: a file
        holding only NSEC_PER_USEC is a candidate too).  A rule whose '-' lines hold
        neither could change any file: it needs a '// Prefilter:'."""
        metavars = set()
        headers = re.findall(r"^@[^@\n]*@\n(.*?)^@@", self.text, re.M | re.S)
        choices = {name: set(re.findall(r"[A-Za-z_]\w*", names)) for header in headers
                   for name, names in re.findall(r"\bidentifier\s+(\w+)\s*=\s*\{([^}]*)\}", header)}
        for header in headers:
            for decl in header.split(";"):
                # "expression a, b" or "identifier fn != {x, y}": keep the names only
                decl = re.sub(r"\{[^}]*\}|\"[^\"]*\"", "", decl)
                first, *others = [re.sub(r"(!=|=|:).*", "", part, flags=re.S) for part in decl.split(",")]
                metavars.update(re.findall(r"[A-Za-z_]\w*", first)[-1:])
                for part in others:
                    metavars.update(re.findall(r"[A-Za-z_]\w*", part))
        found = set()
        for sub in smpl.transforming(self.sub_rules):
            names = {n for line in sub.body if line.startswith("-") for n in re.findall(r"[A-Za-z_]\w*", line)}
            # a fixed name is needed where it is; else one of a metavariable's names
            tokens = (names - metavars - C_KEYWORDS) or set().union(*(choices[n] for n in names & choices.keys()))
            if not tokens:
                raise Y2038Error(f"{self.relpath}: rule {sub.name or sub.header.strip()} has no fixed identifier "
                                 f"on a '-' line; add a '// Prefilter:' header")
            found |= tokens
        return sorted(found)


@functools.lru_cache(maxsize=None)
def spatch_grep_query(path: Path, mode: str):
    """['a', 'b'] for spatch's "Grep query" 'a || b'; None when it has none
    or when the query is not a plain disjunction of identifiers."""
    lines = parse_cocci(path, "-D", mode, "--use-gitgrep", merge_output=True)[1].splitlines()
    if "Grep query" not in lines:
        return None
    query = lines[lines.index("Grep query") + 1].split(" || ")
    return sorted(query) if all(re.fullmatch(r"[A-Za-z_]\w*", t) for t in query) else None


def parse_rule(path: Path) -> Rule:
    text = path.read_text()
    headers, rationale, last = {}, [], None
    for line in text.splitlines():
        if line.startswith("///"):
            rationale.append(line[3:].removeprefix(" "))
        elif line.startswith("//  ") and last:
            headers[last] += " " + line[2:].strip()
        elif (m := re.match(r"//\s*([A-Z][\w-]*):\s*(.*)", line)):
            last = m.group(1)
            headers[last] = m.group(2).strip()
        elif line.startswith("//"):
            last = None
        elif line.strip():
            break
    rule = Rule(path=path, campaign=path.parent.name, name=path.stem, text=text,
                rationale="\n".join(rationale).strip(), headers=headers)
    missing = [h for h in REQUIRED_HEADERS if h not in headers]
    if missing or not rule.rationale:
        what = ", ".join(missing) if missing else "/// rationale"
        raise Y2038Error(f"{rule.relpath}: header lacks {what}")
    return rule


def campaigns(selected=None, cocci_dir: Path = COCCI_DIR):
    """[(campaign, [Rule, ...]), ...] in run order; unknown names are an error."""
    present = [d.name for d in sorted(cocci_dir.iterdir()) if d.is_dir() and rule_files(d)]
    order = [c for c in CAMPAIGN_ORDER if c in present] + [c for c in present if c not in CAMPAIGN_ORDER]
    if selected:
        unknown = [c for c in selected if c not in present]
        if unknown:
            raise Y2038Error(f"unknown campaign {', '.join(unknown)}; known: {', '.join(order)}")
        order = [c for c in order if c in selected]
    return [(c, [parse_rule(p) for p in rule_files(cocci_dir / c)]) for c in order]


def rule_files(folder: Path):
    return sorted(p for p in folder.iterdir() if p.suffix[1:] in RULE_KINDS)
