# SPDX-License-Identifier: GPL-2.0-only
"""Kernel version ranges: which kernels a line of out-of-tree code is compiled for.

Out-of-tree code supports a range of kernels with preprocessor conditionals
on LINUX_VERSION_CODE and KERNEL_VERSION(a,b,c), directly or through the
project's own wrappers (`#define FOO_LINUX_VERSION_CODE LINUX_VERSION_CODE`,
`#define FOO_KERNEL_VERSION(a,b,c) KERNEL_VERSION(a,b,c)`,
`#define LINUX_VERSION_AT_LEAST(a,b,c,ra,rb) LINUX_VERSION_CODE >= KERNEL_VERSION(a,b,c)`).
Conditions are evaluated in three-valued logic: the version parts are
decided, anything else (CONFIG_*, RHEL_RELEASE_CODE, a project's own flags)
is unknown and never guessed.  A wrapper defined twice (once for RHEL, once
for mainline) is read in its mainline form, the one written with
LINUX_VERSION_CODE: the kernels this toolkit builds for are mainline.

A version is the kernel's own code, (a << 16) + (b << 8) + c.  Every
condition is constant between the versions the code tests, so evaluating
it at each tested version, one below and one above, and at the range's
ends, tells every kernel of the range.
"""
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Set, Tuple

from ..csource import blank_comments, blank_comments_and_literals
from ..deps import NEWEST_PACKAGED



def code(a: int, b: int, c: int = 0) -> int:
    return (a << 16) + (b << 8) + min(c, 255)


def parse(text: str) -> int:
    """'5.10' or '4.19.158' -> its version code."""
    m = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?", text.strip())
    if not m:
        raise ValueError(f"not a kernel version: {text!r} (expected X.Y or X.Y.Z)")
    return code(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def show(version: int) -> str:
    a, b, c = version >> 16, (version >> 8) & 255, version & 255
    return f"{a}.{b}" if c == 0 else f"{a}.{b}.{c}"


def describe(version: int) -> str:
    """'2.6.32', or 'kernels before 2.6.17' for the version just below one
    the code tests (the lower end of a range read from the code)."""
    if version & 255 == 255:
        return f"kernels before {show(version + 1)}"
    return show(version)


def upper_end(text: str) -> int:
    """The newest kernel of a series: '6.12' -> 6.12.255."""
    version = parse(text)
    return version | 255 if text.count(".") == 1 else version


# ---- expressions ---------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<num>0[xX][0-9a-fA-F]+|\d+)[uUlL]*|(?P<id>[A-Za-z_]\w*)|"
                   r"(?P<op>\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%<>!~&|^?:(),]))")
BINARY = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
          ("<<", ">>"), ("+", "-"), ("*", "/", "%")]
UNKNOWN = None  # a value the version does not decide


@dataclass
class Node:
    kind: str  # num, id, call, defined, unary, binary, ternary, paren
    value: Any = None  # number, name or operator, by kind
    args: tuple = ()
    start: int = 0
    end: int = 0


class ExprError(ValueError):
    pass


def tokenize(text: str):
    tokens, pos = [], 0
    text = blank_comments(text)
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = TOKEN.match(text, pos)
        kind = m.lastgroup if m else None  # every alternative of TOKEN is a named group
        if not m or not kind:
            raise ExprError(f"cannot read {text[pos:].strip()!r}")
        start = m.start(kind)
        value = m.group(kind)
        tokens.append((kind, int(value, 0) if kind == "num" else value, start, m.end()))
        pos = m.end()
    return tokens


class Parser:
    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None, 0, 0)

    def take(self, value=None):
        tok = self.peek()
        if tok[0] is None or (value is not None and tok[1] != value):
            raise ExprError(f"expected {value or 'more'}")
        self.i += 1
        return tok

    def parse(self) -> Node:
        node = self.ternary()
        if self.i != len(self.tokens):
            raise ExprError(f"unexpected {self.peek()[1]!r}")
        return node

    def ternary(self) -> Node:
        cond = self.binary(0)
        if self.peek()[1] == "?":
            self.take("?")
            yes = self.ternary()
            self.take(":")
            no = self.ternary()
            return Node("ternary", "?", (cond, yes, no), cond.start, no.end)
        return cond

    def binary(self, level: int) -> Node:
        if level == len(BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in BINARY[level]:
            op = self.take()[1]
            right = self.binary(level + 1)
            left = Node("binary", op, (left, right), left.start, right.end)
        return left

    def unary(self) -> Node:
        kind, value, start, end = self.peek()
        if kind == "op" and value in ("!", "~", "-", "+"):
            self.take()
            inner = self.unary()
            return Node("unary", value, (inner,), start, inner.end)
        if kind == "op" and value == "(":
            self.take()
            inner = self.ternary()
            close = self.take(")")
            return Node("paren", None, (inner,), start, close[3])
        if kind == "num":
            self.take()
            return Node("num", value, (), start, end)
        if kind == "id" and value == "defined":
            self.take()
            if self.peek()[1] == "(":
                self.take("(")
                name = self.take()
                close = self.take(")")
                return Node("defined", name[1], (), start, close[3])
            name = self.take()
            return Node("defined", name[1], (), start, name[3])
        if kind == "id":
            self.take()
            if self.peek()[1] == "(":
                self.take("(")
                args = []
                while self.peek()[1] != ")":
                    args.append(self.ternary())
                    if self.peek()[1] == ",":
                        self.take(",")
                close = self.take(")")
                return Node("call", value, tuple(args), start, close[3])
            return Node("id", value, (), start, end)
        raise ExprError(f"unexpected {value!r}")


class Macros:
    """The project's wrappers of the version macros, from its #defines."""

    DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?[ \t]*(.*)$", re.M)

    def __init__(self):
        self.objects = {}  # name -> Node
        self.functions = {}  # name -> (params, body text)

    @classmethod
    def from_sources(cls, texts):
        macros = cls()
        for text in texts:
            for m in cls.DEFINE.finditer(join_continuations(text)):
                name, params, body = m.group(1), m.group(3), m.group(4).strip()
                if name in ("LINUX_VERSION_CODE", "KERNEL_VERSION"):
                    continue  # a project's fallback of the kernel's own macros
                # the kernel's own encoding: a wrapper defined once per configuration (a sublevel past 255
                # counted in 16 bits, a RHEL release) is read in the arm built on the kernel's macros: a test
                # of LINUX_VERSION_CODE, or a constructor that is KERNEL_VERSION() of its arguments; a
                # comparison with one fixed version (a vendor backport's) is no such arm
                mainline = re.search(r"\bLINUX_VERSION_CODE\b", body) is not None or (
                    params is not None and re.search(r"\bKERNEL_VERSION\s*\(", body) is not None
                    and re.search(r"[<>]|[=!]=", body) is None)
                versionish = mainline or "KERNEL_VERSION" in body or name.endswith("KERNEL_VERSION")
                if not versionish:
                    continue
                if params is not None:
                    if name in macros.functions and not mainline:
                        continue  # keep the mainline definition
                    macros.functions[name] = ([p.strip() for p in params.split(",") if p.strip()], body)
                else:
                    try:
                        node = Parser(body).parse()
                    except ExprError:
                        continue
                    if name not in macros.objects or mainline:
                        macros.objects[name] = node
        return macros

    def expand_call(self, node: Node):
        params, body = self.functions[node.value]
        if len(params) != len(node.args):
            return None
        return params, body


class Evaluator:
    """Three-valued evaluation of directive expressions at one version."""

    def __init__(self, macros: Macros):
        self.macros = macros
        self.cache: Dict[str, Node] = {}  # expression text -> parsed

    def value(self, node: Node, version: int, env=None):
        """The node's value at version (env: a function macro's arguments),
        or UNKNOWN."""
        kind = node.kind
        if kind == "num":
            return node.value
        if kind == "paren":
            return self.value(node.args[0], version, env)
        if kind == "defined":
            return UNKNOWN
        if kind == "id":
            return self.name_value(node.value, version, env)
        if kind == "call":
            return self.call_value(node, version, env)
        if kind == "unary":
            inner = self.value(node.args[0], version, env)
            if inner is UNKNOWN:
                return UNKNOWN
            return {"!": int(not inner), "~": ~inner, "-": -inner, "+": inner}[node.value]
        if kind == "ternary":
            cond = self.value(node.args[0], version, env)
            if cond is UNKNOWN:
                yes, no = (self.value(a, version, env) for a in node.args[1:])
                return yes if yes == no else UNKNOWN
            return self.value(node.args[1] if cond else node.args[2], version, env)
        return self.binary_value(node, version, env)

    def name_value(self, name: str, version: int, env):
        if env and name in env:
            return env[name]
        if name == "LINUX_VERSION_CODE":
            return version
        if name in self.macros.objects:
            return self.value(self.macros.objects[name], version)
        return UNKNOWN

    def call_value(self, node: Node, version: int, env):
        """KERNEL_VERSION(a, b, c), or a function macro expanded."""
        args = [self.value(a, version, env) for a in node.args]
        if node.value == "KERNEL_VERSION" and len(args) == 3:
            return UNKNOWN if UNKNOWN in args else code(*args)
        if node.value in self.macros.functions:
            expanded = self.macros.expand_call(node)
            if expanded:
                params, body = expanded
                try:
                    tree = self.parsed(body)
                except ExprError:
                    return UNKNOWN
                return self.value(tree, version, dict(zip(params, args)))
        return UNKNOWN

    def binary_value(self, node: Node, version: int, env):
        """&& and || decided by either side where one decides; the other
        operators need both."""
        op = node.value
        left = self.value(node.args[0], version, env)
        if op in ("&&", "||"):
            if left is not UNKNOWN and bool(left) == (op == "||"):
                return int(op == "||")
            right = self.value(node.args[1], version, env)
            if right is not UNKNOWN and bool(right) == (op == "||"):
                return int(op == "||")
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            return int(bool(right))
        right = self.value(node.args[1], version, env)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        try:
            return {"==": lambda: int(left == right), "!=": lambda: int(left != right),
                    "<": lambda: int(left < right), ">": lambda: int(left > right),
                    "<=": lambda: int(left <= right), ">=": lambda: int(left >= right),
                    "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
                    "/": lambda: int(left / right), "%": lambda: left % right,
                    "<<": lambda: left << right, ">>": lambda: left >> right,
                    "&": lambda: left & right, "|": lambda: left | right, "^": lambda: left ^ right}[op]()
        except (ZeroDivisionError, ValueError):
            return UNKNOWN

    def parsed(self, text: str) -> Node:
        if text not in self.cache:
            self.cache[text] = Parser(text).parse()
        return self.cache[text]

    def tested_versions(self, node: Node, env=None) -> set:
        """KERNEL_VERSION(...) values compared in the expression (wrappers expanded)."""
        found = set()
        if node.kind == "call" and node.value == "KERNEL_VERSION":
            value = self.value(node, 0, env)
            if value is not UNKNOWN:
                found.add(value)
        elif node.kind == "call" and node.value in self.macros.functions:
            expanded = self.macros.expand_call(node)
            if expanded:
                args = [self.value(a, 0, env) for a in node.args]
                try:
                    found |= self.tested_versions(self.parsed(expanded[1]), dict(zip(expanded[0], args)))
                except ExprError:
                    pass
        for arg in node.args:
            found |= self.tested_versions(arg, env)
        return found

    def mentions_version(self, node: Node) -> bool:
        if node.kind == "id" and (node.value == "LINUX_VERSION_CODE" or node.value in self.macros.objects):
            return True
        if node.kind == "call" and node.value in self.macros.functions:
            return True
        return any(self.mentions_version(a) for a in node.args)


class FlagEvaluator(Evaluator):
    """The project's evaluator, plus the module's own flags that are defined
    on every kernel of the range from a line on (feature_macros): a test of
    one at a later line is decided, like a version test."""

    def __init__(self, macros: Macros, defined_from: Dict[str, int]):
        super().__init__(macros)
        self.defined_from = defined_from
        self.line = 0  # the line of the conditional being decided

    def known(self, node: Node) -> bool:
        return node.kind == "defined" and self.defined_from.get(node.value, self.line) < self.line

    def value(self, node: Node, version: int, env=None):
        return 1 if self.known(node) else super().value(node, version, env)

    def mentions_version(self, node: Node) -> bool:
        return self.known(node) or super().mentions_version(node)


# ---- conditional structure ------------------------------------------------

DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", re.S)


def join_continuations(text: str) -> str:
    return re.sub(r"\\\n", " ", text)


def logical_lines(text: str):
    """[(first line number, last line number, joined text)], 1-based."""
    result, lines, n = [], text.split("\n"), 0
    while n < len(lines):
        first, joined = n, lines[n]
        while joined.endswith("\\") and n + 1 < len(lines):
            n += 1
            joined = joined[:-1] + " " + lines[n]
        result.append((first + 1, n + 1, joined))
        n += 1
    return result


class ConditionalError(ValueError):
    """An #elif/#else/#endif without its #if, or an #if without #endif."""


@dataclass
class Branch:
    directive: str  # if, ifdef, ifndef, elif, else
    expr: Node  # None: decided by nothing we know (ifdef) or #else
    text: str  # the directive's condition as written
    first: int  # line of the directive
    last: int  # last line of the directive (continuations)


@dataclass
class Chain:
    branches: list
    endif: tuple  # (first, last) lines of #endif


def directive_of(line: str):
    m = DIRECTIVE.match(line)
    return (m.group(1), m.group(2).strip()) if m else (None, None)


def condition_node(directive: str, rest: str):
    if directive in ("if", "elif"):
        try:
            return Parser(rest).parse()
        except ExprError:
            return None
    name = re.match(r"[A-Za-z_]\w*", rest)
    if directive in ("ifdef", "ifndef") and name:  # unknown, unless a FlagEvaluator knows the name
        node = Node("defined", name.group(0), (), 0, name.end())
        return node if directive == "ifdef" else Node("unary", "!", (node,), 0, name.end())
    return None


class SourceVersions:
    """Which kernels each line of one file is compiled for."""

    def __init__(self, text: str, evaluator: Evaluator, samples):
        self.text = text
        self.evaluator = evaluator
        self.samples = sorted(samples)
        self.chains: List[Chain] = []
        self.line_frames: Dict[int, tuple] = {}  # line number -> tuple of (chain index, branch index)
        self.tested: Set[int] = set()
        self.directive_lines: Set[int] = set()
        self._parse()
        self.frame_cache: Dict[tuple, tuple] = {}

    def _parse(self):
        stack, frames = [], ()
        # a '#' inside a block comment starts no directive (comments go before directives)
        code_lines = blank_comments_and_literals(self.text).split("\n")
        for first, last, joined in logical_lines(self.text):
            directive, rest = directive_of(joined) if code_lines[first - 1].lstrip().startswith("#") \
                else (None, None)
            for n in range(first, last + 1):
                self.line_frames[n] = frames
            if directive is None:
                continue
            if directive != "if" and directive[:2] != "if" and stack:
                for n in range(first, last + 1):  # it belongs to the code around the chain
                    self.line_frames[n] = frames[:-1]
            self.directive_lines.update(range(first, last + 1))
            if directive in ("if", "ifdef", "ifndef"):
                node = condition_node(directive, rest)
                chain = Chain([Branch(directive, node, rest, first, last)], None)
                self.chains.append(chain)
                stack.append(len(self.chains) - 1)
                self._note_tested(node)
            elif directive in ("elif", "else"):
                if not stack:
                    raise ConditionalError(f"line {first}: #{directive} without #if")
                node = condition_node(directive, rest)
                self.chains[stack[-1]].branches.append(Branch(directive, node, rest, first, last))
                self._note_tested(node)
            else:
                if not stack:
                    raise ConditionalError(f"line {first}: #endif without #if")
                self.chains[stack.pop()].endif = (first, last)
            frames = tuple((c, len(self.chains[c].branches) - 1) for c in stack)
            # a directive belongs to the code around it, not to its own branch
        if stack:
            raise ConditionalError(f"line {self.chains[stack[-1]].branches[0].first}: #if without #endif")

    def _note_tested(self, node):
        if node is not None and self.evaluator.mentions_version(node):
            self.tested |= self.evaluator.tested_versions(node)

    def branch_value(self, chain: int, branch: int, version: int):
        """True/False/UNKNOWN: is this branch of the chain the one compiled?"""
        result: Optional[bool] = True
        for n, b in enumerate(self.chains[chain].branches[:branch + 1]):
            value: Optional[int]
            if b.directive == "else":
                value = 1
            elif b.expr is None:
                value = UNKNOWN
            else:
                value = self.evaluator.value(b.expr, version)
            value = UNKNOWN if value is UNKNOWN else bool(value)
            if n < branch:
                value = UNKNOWN if value is UNKNOWN else not value
            if value is False:
                return False
            if value is UNKNOWN:
                result = UNKNOWN
        return result

    def kernels(self, line: int) -> tuple:
        """The sample versions for which the line may be compiled."""
        frames = self.line_frames.get(line, ())
        if frames not in self.frame_cache:
            self.frame_cache[frames] = tuple(v for v in self.samples
                                             if all(self.branch_value(c, b, v) is not False for c, b in frames))
        return self.frame_cache[frames]


def samples_for(tested, lo: int, hi: int):
    points = {lo, hi}
    for v in tested:
        points |= {v - 1, v, v + 1}
    return sorted(p for p in points if lo <= p <= hi)


@dataclass
class KernelRange:
    lo: int
    hi: int
    why: str

    def text(self) -> str:
        return f"{describe(self.lo)} to {show(self.hi & ~255)} ({self.why})"


class Project:
    """The version conditionals of a whole directory of sources."""

    def __init__(self, texts: dict):
        """texts: {relpath: source text} of the .c and .h files."""
        self.texts = texts
        self.evaluator = Evaluator(Macros.from_sources(texts.values()))
        self.problems = {}  # relpath -> why its conditionals could not be read
        self.tested: Dict[int, str] = {}  # version -> first relpath:line testing it
        self.tested_in: Dict[str, Dict[int, str]] = {}  # the same, per file
        for relpath, text in sorted(texts.items()):
            try:
                versions = SourceVersions(text, self.evaluator, ())
            except ConditionalError as err:
                self.problems[relpath] = str(err)
                continue
            for chain in versions.chains:
                for branch in chain.branches:
                    if branch.expr is not None and self.evaluator.mentions_version(branch.expr):
                        for v in self.evaluator.tested_versions(branch.expr):
                            self.tested.setdefault(v, f"{relpath}:{branch.first}")
                            self.tested_in.setdefault(relpath, {}).setdefault(v, f"{relpath}:{branch.first}")

    def default_range(self, min_kernel=None, max_kernel=None, relpaths=None) -> KernelRange:
        """The range of the whole directory, or read from the conditionals
        of the files relpaths only (one module: build_units)."""
        hi = upper_end(max_kernel or NEWEST_PACKAGED)
        if min_kernel:
            return KernelRange(parse(min_kernel), hi, "--min-kernel")
        tested = self.tested if relpaths is None else \
            {v: where for r in sorted(relpaths, reverse=True) for v, where in self.tested_in.get(r, {}).items()}
        plausible = [v for v in tested if code(2, 0) <= v <= hi]
        if not plausible:
            return KernelRange(parse(NEWEST_PACKAGED), hi, "no version conditional: written for one kernel, "
                                                            f"converted for the packaged {NEWEST_PACKAGED}")
        oldest = min(plausible)
        return KernelRange(oldest - 1, hi, f"its conditionals test versions down to {show(oldest)} "
                                           f"({tested[oldest]}): kernels before {show(oldest)} supported")

    def versions(self, relpath: str, kernel_range: KernelRange):
        """SourceVersions of one file over the range; None if its conditionals do not nest."""
        if relpath in self.problems:
            return None
        samples = samples_for(self.tested, kernel_range.lo, kernel_range.hi)
        return SourceVersions(self.texts[relpath], self.evaluator, samples)


# ---- dead compat code ------------------------------------------------------

def simplified(evaluator: Evaluator, node: Node, text: str, samples):
    """(constant or None, text, changed): the condition over every sample; a
    version test decided for all of them folds away, unknown parts stay as
    written."""
    values = {evaluator.value(node, v) for v in samples}
    if len(values) == 1 and UNKNOWN not in values:
        return int(bool(values.pop())), None, True
    written = text[node.start:node.end].strip()
    if node.kind == "paren":
        const, inner, changed = simplified(evaluator, node.args[0], text, samples)
        if const is not None or not changed:
            return const, written if const is None else None, changed
        atom = re.fullmatch(r"!?\s*(defined\s*\(?\s*\w+\s*\)?|\w+(\([^()]*\))?)", inner.strip())
        return None, inner if atom else f"({inner})", True
    if node.kind == "binary" and node.value in ("&&", "||"):
        neutral = 1 if node.value == "&&" else 0
        parts, any_changed = [], False
        for child in node.args:
            const, part, changed = simplified(evaluator, child, text, samples)
            any_changed |= changed
            if const is None:
                parts.append(part)
            elif const != neutral:
                return const, None, True
        if not parts:
            return neutral, None, True
        return None, f" {node.value} ".join(parts) if any_changed else written, any_changed
    if node.kind == "unary" and node.value == "!":
        const, inner, changed = simplified(evaluator, node.args[0], text, samples)
        if const is not None:
            return int(not const), None, True
        if not changed:
            return None, written, False
        return None, "!" + inner if inner.startswith("(") or re.fullmatch(r"[\w()\s]+", inner) \
            else f"!({inner})", True
    return None, written, False


def drop_dead_branches(text: str, project: Project, kernel_range: KernelRange, defined_from=None):
    """Conditionals decided for every kernel of the range resolved the way
    unifdef does: the dead branches and the directives go, a partly decided
    condition keeps its unknown part.  defined_from: {flag: line} of the
    module's own flags known defined after that line (feature_macros).
    Returns (text, branches dropped)."""
    samples = samples_for(project.tested, kernel_range.lo, kernel_range.hi)
    evaluator = FlagEvaluator(project.evaluator.macros, defined_from or {})
    versions = SourceVersions(text, evaluator, samples)
    lines = text.split("\n")
    drop: Set[int] = set()
    replace: Dict[int, Tuple[str, Optional[str]]] = {}
    dropped = 0
    for chain in versions.chains:
        evaluator.line = chain.branches[0].first
        decided = chain_decisions(chain, evaluator, samples)
        if decided:
            dropped += resolve_chain(chain, decided, drop, replace)
    drop_one_blank_line_each(lines, drop)
    out = []
    for n, line in enumerate(lines, 1):
        if n in drop:
            continue
        if n in replace:
            word, cond = replace[n]
            directive = re.match(r"^(\s*#\s*)", line)
            assert directive, line  # replace holds directive lines only
            indent = directive.group(1)
            out.append(f"{indent}{word}" + (f" {cond}" if cond else ""))
            continue
        out.append(line)
    return "\n".join(out), dropped


def chain_decisions(chain, evaluator, samples):
    """[(constant or None, simplified condition or None)] for each branch
    of the chain; None where no version test decides anything in it."""
    decided = []
    for branch in chain.branches:
        if branch.directive == "else":
            decided.append((1, None))
        elif branch.expr is None or not evaluator.mentions_version(branch.expr):
            decided.append((None, None))
        else:
            const, new, changed = simplified(evaluator, branch.expr, branch.text, samples)
            decided.append((const, new if changed else None))
    if all(const is None and new is None for (const, new), branch in zip(decided, chain.branches)
           if branch.directive != "else"):
        return None  # no version test decided here: an #else alone decides nothing
    return decided


def resolve_chain(chain, decided, drop: set, replace: dict) -> int:
    """The chain's dead branches and spent directives into drop (line
    numbers), its rewritten directives into replace ({line: (word,
    condition)}); returns the branches dropped."""
    ends = [b.first for b in chain.branches[1:]] + [chain.endif[0]]
    kept, bare, dropped = 0, False, 0
    for branch, (const, new), end in zip(chain.branches, decided, ends):
        directive_lines = range(branch.first, branch.last + 1)
        if bare or const == 0:
            drop.update(range(branch.first, end))
            dropped += 1
            continue
        if const == 1 and not kept:  # this branch is the whole chain now: its body stays, bare
            drop.update(directive_lines)
            bare = True
            continue
        if const == 1:
            word, cond = "else", None
        else:
            word = branch.directive
            if word == "elif" and not kept:
                word = "if"
            cond = new if new is not None else branch.text
        if branch.directive == "else" and word == "else":
            pass  # an #else that stays one keeps its line, comment and all
        elif const == 1 or new is not None or word != branch.directive:
            replace[branch.first] = (word, cond)
            drop.update(directive_lines[1:])
        kept += 1
        if const == 1:  # an #else now: what follows is dead
            for later, later_end in zip(chain.branches[chain.branches.index(branch) + 1:],
                                        ends[chain.branches.index(branch) + 1:]):
                drop.update(range(later.first, later_end))
                dropped += 1
            break
    if bare or not kept:
        drop.update(range(chain.endif[0], chain.endif[1] + 1))
    return dropped


def drop_one_blank_line_each(lines: list, drop: set) -> None:
    """unifdef -B: a removed section takes one of the blank lines around it."""
    for n in sorted(drop):
        if n - 1 not in drop and n - 1 >= 1 and not lines[n - 2].strip():
            end = n
            while end + 1 in drop:
                end += 1
            if end + 1 <= len(lines) and not lines[end].strip():
                drop.add(end + 1)


def lines_compiled_at(text: str, project: Project, version: int) -> list:
    """The code lines the preprocessor may keep at that kernel version (the
    version decided, everything else left in): a compile-free view to
    compare an original and its conversion at each boundary of a range."""
    versions = SourceVersions(text, project.evaluator, [version])
    return [line for n, line in enumerate(text.split("\n"), 1)
            if n not in versions.directive_lines and versions.kernels(n)]
