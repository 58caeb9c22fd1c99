# SPDX-License-Identifier: GPL-2.0-only
"""The semantic patch a commit message shows for the sub-rules that fired
(engine/smpl.py parses them): whole, as it runs, when short; simplified
when the rules that decide where it applies would bury the change.
"""
import ast
import re
from typing import Dict, List, Optional

from ..engine.smpl import SubRule, split_depends

POSITION_DECL = re.compile(r"^(\s*)position\s+(.*?);\s*$")
# a metavariable's Python constraint or fresh identifier: `script:python(...) { code }`
PYTHON_CODE = re.compile(r"script:python\s*\([^)]*\)\s*\{(.*?)\}\s*;", re.S)
PYTHON_CONSTRAINT = re.compile(r"\s*:\s*script:python\s*\([^)]*\)\s*\{.*?\}(?=\s*[;,])", re.S)


def needed(rules: List[SubRule], wanted: List[SubRule]) -> List[SubRule]:
    """wanted and every rule they inherit from or depend on, reporting
    rules aside, in file order."""
    by_name = {r.name: r for r in rules if r.name and not r.reports_only and r.kind in ("smpl", "script:python")}
    keep = {id(r) for r in wanted}
    todo = [name for r in wanted for name in r.references(by_name)]
    while todo:
        rule = by_name[todo.pop()]
        if id(rule) not in keep:
            keep.add(id(rule))
            todo += rule.references(by_name)
    return [r for r in rules if id(r) in keep]


# a commit message shows a semantic patch whole up to this many lines; a
# longer one (the rules that decide where it applies, their Python) is shown
# simplified: a 300-line script for a 3-line diff buries the change
SHOWN_WHOLE = 60
SIMPLIFIED = "// Simplified from {n} lines: the rules that decide where it\n// applies are left out."


def is_simplified(shown: str) -> bool:
    return shown.startswith(SIMPLIFIED.split("{")[0])


def semantic_patch(rules: List[SubRule], wanted: List[SubRule]) -> str:
    """The semantic patch of the rules wanted as a commit message shows it:
    whole (runs as printed) when short, else simplified."""
    whole = runnable_patch(rules, wanted)
    lines = whole.count("\n") + 1
    return whole if lines <= SHOWN_WHOLE else simplified_patch(rules, wanted, lines)


def simplified_patch(rules: List[SubRule], wanted: List[SubRule], lines: int) -> str:
    """The rules wanted alone, for a reader: no dependency, no position or
    Python constraint, what they inherit declared in place as the rule that
    binds it declares it (rule.x -> x)."""
    parts = [SIMPLIFIED.format(n=lines)]
    # the type names the shown rules use, declared once for the parser, as the file's rules declare them
    declared = [name.strip() for r in rules for d in declarations(r.metavars) if d.startswith("typedef ")
                for name in d[len("typedef "):].rstrip(";").split(",")]
    used = set(re.findall(r"\w+", "\n".join(line for r in wanted for line in r.metavars + r.body)))
    typedefs = [t for t in dict.fromkeys(declared + [t for r in wanted for t in typed_names(r.metavars)])
                if t in used]
    for rule in wanted:
        _, qualifiers = split_depends(rule.depends)
        metavars = wrap_declaration(f"typedef {', '.join(typedefs)};") if typedefs and rule is wanted[0] else []
        for line in declarations([m for m in rule.metavars if not m.lstrip().startswith("//")]):
            line = in_place(rules, PYTHON_CONSTRAINT.sub("", line))
            if not POSITION_DECL.match(line):
                metavars += wrap_declaration(line)
        body = [re.sub(r"@\w+\b", "", line) for line in rule.body if not line.lstrip().startswith("//")]
        scripted = added_only(rules, rule, body)
        note = [f"// {', '.join(scripted)}: chosen by the rules left out"] if scripted else []
        parts.append("\n".join([*note, "@" + " ".join(w for w in (rule.name or "", qualifiers) if w) + "@",
                                *metavars, "@@", *body]))
    return "\n\n".join(parts)


def added_only(rules: List[SubRule], rule: SubRule, body: List[str]) -> List[str]:
    """The metavariables rule takes from a script rule and uses in added
    lines only: what such a script decides (a cast's type) the simplified
    patch cannot; spatch refuses it, so the patch says so."""
    scripts = {r.name for r in rules if r.kind.startswith("script") and r.name}
    inherited = [name for origin, name in re.findall(r"\b(\w+)\.(\w+)", " ".join(rule.metavars))
                 if origin in scripts]
    removed = " ".join(line for line in body if not line.startswith("+"))
    return [name for name in dict.fromkeys(inherited) if not re.search(rf"\b{name}\b", removed)]


C_TYPES = {"int", "long", "short", "char", "unsigned", "signed", "void", "float", "double", "const"}


def typed_names(metavars: List[str]) -> List[str]:
    """Type names (not C's own) that typed expression metavariables use:
    `idexpression ktime_t E;` needs `typedef ktime_t;` where no rule before
    declares it."""
    found = re.findall(r"^\s*(?:local\s+)?(?:idexpression|expression)\s+(?!struct\b)(\w+)\s*\**\s+\w",
                       "\n".join(metavars), re.M)
    return [t for t in dict.fromkeys(found) if t not in C_TYPES]


def in_place(rules: List[SubRule], line: str) -> str:
    """A declaration of one inherited metavariable (`identifier wide.U;`)
    as the SmPL rule that binds it declares it, constraints on its values
    kept (`identifier U = {NSEC_PER_SEC, ...};`); any other with the rule
    names taken out."""
    m = re.fullmatch(r"\s*[^,]*?\b(\w+)\.(\w+)\s*;", line)
    origin = next((r for r in rules if m and r.name == m.group(1) and r.kind == "smpl"), None)
    if m and origin:
        for declaration in declarations([d for d in origin.metavars if not d.lstrip().startswith("//")]):
            items = top_level_items(PYTHON_CONSTRAINT.sub("", declaration))
            if len(items) == 1 and re.search(rf"\b{m.group(2)}\s*(?:[=!:]|;)", items[0]):
                return in_place(rules, items[0])
    return re.sub(r"\b\w+\.(\w+)", r"\1", line)


def top_level_items(declaration: str) -> List[str]:
    """A declaration cut at the commas outside braces and strings."""
    items, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(declaration):
        quoted = quoted != (ch == '"')
        depth += 0 if quoted else {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and not depth and not quoted:
            items.append(declaration[start:i])
            start = i + 1
    return [item.strip() for item in items + [declaration[start:]]]


def runnable_patch(rules: List[SubRule], wanted: List[SubRule]) -> str:
    """The semantic patch of the rules wanted, as it runs: with the rules
    they need, without the virtual modes, comments, or position
    metavariables no shown rule constrains or inherits."""
    shown, python = with_python(rules, needed(rules, wanted))
    inherited = {m for r in shown for m in re.findall(r"\b(\w+\.\w+)", " ".join(r.metavars))}
    parts = []
    for rule in shown:
        dropped: Dict[str, bool] = {}
        metavars = [kept for line in rule.metavars if not line.lstrip().startswith("//")
                    and (kept := trimmed_positions(line, rule.name, inherited, dropped)) is not None]
        body = [line for line in rule.body if not line.lstrip().startswith("//")]
        for position in dropped:
            body = [re.sub(rf"@{position}\b", "", line) for line in body]
        metavars = [wrapped for line in declarations(metavars) for wrapped in wrap_declaration(line)]
        parts.append("\n".join([rule_header(rule), *metavars, "@@", *body]))
    if python is not None:
        parts.insert(0, f"@initialize:python@\n@@\n{python}".rstrip())
    return "\n\n".join(parts)


def with_python(rules: List[SubRule], shown: List[SubRule]):
    """(shown, code): shown with what its Python constraints need to run as
    printed (the script rules that fill the state the constraints read, and
    the rules those inherit from) and the @initialize:python@ code they
    call, trimmed to it ("" when they call nothing there, None when the
    shown rules run no Python)."""
    init = next((r for r in rules if r.kind == "initialize:python"), None)
    codes = [code for r in shown for code in PYTHON_CODE.findall("\n".join(r.metavars))]
    if not codes and not any(r.kind == "script:python" for r in shown):
        return shown, None
    called = set().union(*map(python_names, codes),
                         *(python_names("\n".join(r.body)) for r in shown if r.kind == "script:python"))
    # spatch starts Python only for a file with a script rule: a constraint alone fails without one
    source = "\n".join(init.body) if init else ""
    scripts = [r for r in rules if r.kind == "script:python" and not r.reports_only]
    while True:  # a filler's own rules may read state more fillers fill
        state = python_closure(source, called)
        fillers = [r for r in scripts if r not in shown and python_names("\n".join(r.body)) & state]
        if not fillers:
            return shown, python_source(source, state)
        shown = needed(rules, [*shown, *fillers])
        shown += [f for f in fillers if f not in shown]
        shown.sort(key=rules.index)
        called |= set().union(*(python_names("\n".join(r.body)) for r in shown if r.kind == "script:python"),
                              *(python_names(c) for r in shown for c in PYTHON_CODE.findall("\n".join(r.metavars))))


def python_names(code: str) -> set:
    """The names a piece of Python code reads or calls."""
    return {n.id for n in ast.walk(ast.parse(code.strip() or "None")) if isinstance(n, ast.Name)}


def python_defines(stmt: ast.stmt) -> set:
    """The top-level names a statement of a module binds."""
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def python_closure(source: str, names: set) -> set:
    """names and every top-level name of source they need, transitively."""
    statements = ast.parse(source).body
    wanted, todo = set(), set(names)
    while todo:
        name = todo.pop()
        wanted.add(name)
        for stmt in statements:
            if name in python_defines(stmt):
                todo |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)} - wanted
    return wanted


def python_source(source: str, wanted: set) -> str:
    """The statements of source that bind a wanted name, in order."""
    kept = []
    for stmt in ast.parse(source).body:
        if python_defines(stmt) & wanted:
            text = ast.get_source_segment(source, stmt) or ""
            kept.append(("\n" if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)) else "") + text)
    return "\n".join(kept).strip("\n")


def declarations(lines: List[str]) -> List[str]:
    """Metavariable lines as whole declarations, one a line (a declaration
    the rule file spread over lines joined, its spacing collapsed), so that
    wrapping them gives one layout."""
    joined = [""]
    for line in lines:
        joined[-1] = f"{joined[-1]} {line.strip()}".strip()
        if joined[-1].endswith(";"):
            joined.append("")
    return [d for d in joined if d]


def wrap_declaration(line: str, width: int = 75) -> List[str]:
    """A metavariable declaration longer than width (checkpatch's limit for
    a commit message line) broken after its commas: SmPL reads a
    declaration up to its ';'."""
    if len(line) <= width:
        return [line]
    lines = [""]
    for piece in declaration_pieces(line):
        if lines[-1] and len(lines[-1]) + 1 + len(piece) > width:
            lines.append("  ")
        lines[-1] += (" " if lines[-1].strip() else "") + piece
    return lines


def declaration_pieces(line: str) -> List[str]:
    """A declaration cut after its commas, never in a Python constraint
    (spatch runs the code of one cut there as broken Python)."""
    code = [m.span() for m in PYTHON_CODE.finditer(line)]
    cuts = [m.end() for m in re.finditer(r", ", line)
            if not any(start <= m.start() < end for start, end in code)]
    return [line[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(line)])]


def rule_header(rule: SubRule) -> str:
    """The @...@ line without the patch mode in its dependency."""
    depends, qualifiers = split_depends(rule.depends)
    depends = re.sub(r"^\s*patch\s*(&&\s*)?|\s*&&\s*patch\b", "", depends).strip()
    words = [rule.kind if rule.kind != "smpl" else "", rule.name or "",
             f"depends on {depends}" if depends else "", qualifiers]
    return "@" + " ".join(w for w in words if w) + "@"


def trimmed_positions(line: str, rule_name, inherited: set, dropped: Dict[str, bool]) -> Optional[str]:
    """A metavariable line of rule_name without the unconstrained positions
    no other shown rule inherits ("rule.position" in inherited; each one
    left out recorded in dropped); None when nothing is left of it."""
    m = POSITION_DECL.match(line)
    if not m:
        return line
    kept = []
    for item in (i.strip() for i in re.split(r",(?![^{]*\})", m.group(2))):
        name = re.split(r"\W", item, maxsplit=1)[0]
        if item == name and f"{rule_name}.{name}" not in inherited:
            dropped[name] = True
        else:
            kept.append(item)
    return f"{m.group(1)}position {', '.join(kept)};" if kept else None
