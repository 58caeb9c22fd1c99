# SPDX-License-Identifier: GPL-2.0-only
"""Every arithmetic figure a rule's header states is computed here, and
its prose names no SmPL metavariable.

The rationale, Comments and Rewrite: blocks of the ktime rules and the fixes
become commit messages; a wrong number there ("2.14 s" for 2^32 ns) is a
wrong claim to a maintainer.  Each figure in them must be one this test
knows how to derive and equal to what it computes; a figure it does not
know fails the test, so every claim stays checkable.  A metavariable in the
prose ("c is a constant ...", issue 27's second review, class B) is a name
the reader of the patch never saw: the '///' paragraphs and the Rewrite:
sentences must not use one of their own rule's as a word.
"""
import re
import unittest

from helpers import REPO, put_tools_on_path
put_tools_on_path()
from y2038lib.engine import rules, smpl  # noqa: E402

CHECKED = ["ktime-scalar/ktime_set.cocci", "ktime-scalar/ktime_zero_local.cocci",
           "y2038-fixes/ktime_set_seconds.cocci", "y2038-fixes/ns_product_32.cocci",
           "ktime-direct/ktime_get_ns.cocci", "ktime-direct/ktime_delta.cocci",
           "ktime-direct/ktime_get_ts64.cocci", "ktime-direct/ktime_get_ts64_scalar.cocci",
           "ktime-direct/ktime_to_ns_compare.cocci"]
# the rules checked for metavariables in their prose (globs under cocci/)
PROSE_CHECKED = ["ktime-scalar/ktime_set.cocci", "ktime-scalar/ktime_zero_local.cocci", "ktime-direct/*.cocci",
                 "y2038-fixes/ktime_set_seconds.cocci"]
NSEC_PER_SEC, NSEC_PER_MSEC = 10 ** 9, 10 ** 6
KTIME_SEC_MAX = (2 ** 63 - 1) // NSEC_PER_SEC
U32_WRAP = 2 ** 32
LPFC_SEC_MIN = 60


def wrapped_seconds(seconds):
    """What ktime_set(0, seconds * NSEC_PER_SEC) gives on a 32-bit machine, in s."""
    return (seconds * NSEC_PER_SEC) % U32_WRAP / NSEC_PER_SEC


# a claim as it is written -> its value computed from the definitions
DERIVED = {
    "2^32 ns": U32_WRAP,
    "2^31 - 1": 2 ** 31 - 1,
    "2.147 s": round((2 ** 31 - 1) / NSEC_PER_SEC, 3),
    "4.29 s": round(U32_WRAP / NSEC_PER_SEC, 2),
    "4294 ms": (U32_WRAP - 1) // NSEC_PER_MSEC,
    "255 ms": 2 ** 8 - 1,
    "N = 5": min(n for n in range(100) if n * NSEC_PER_SEC >= U32_WRAP),
    "at most 4": max(n for n in range(100) if n * NSEC_PER_SEC < U32_WRAP),
    "0.705 s": round(wrapped_seconds(5), 3),
    "4.17 s": round(wrapped_seconds(LPFC_SEC_MIN), 2),
    "4000000000 ns": 4 * NSEC_PER_SEC,
    "at most 32": 32,  # unsigned long's width on 32-bit machines
    "at most 255": 2 ** 8 - 1,
    "at most 4294": (U32_WRAP - 1) // NSEC_PER_MSEC,
    "2^31 - 1 ns": 2 ** 31 - 1,
    "5 s": min(n for n in range(100) if n * NSEC_PER_SEC >= U32_WRAP),
    "60 s": LPFC_SEC_MIN,
    "4 s": max(n for n in range(100) if n * NSEC_PER_SEC < U32_WRAP),
    "292 years": None,  # checked below: KTIME_SEC_MAX in years
}
# what each claim's text says its value is
STATED = {
    "2^32 ns": 2 ** 32, "2^31 - 1": 2147483647, "2.147 s": 2.147, "4.29 s": 4.29, "4294 ms": 4294,
    "255 ms": 255, "N = 5": 5, "at most 4": 4, "0.705 s": 0.705, "4.17 s": 4.17,
    "4000000000 ns": 4000000000, "at most 32": 32, "at most 255": 255, "5 s": 5, "60 s": 60,
    "4 s": 4,
    "at most 4294": 4294, "2^31 - 1 ns": 2147483647,
}
# a figure: a number with a unit, a power of two, or a bound in words
FIGURE = re.compile(r"2\^\d+(?: - 1)?(?: ns)?|\b\d+(?:\.\d+)?\s*(?:ns|ms|s|years)\b|"
                    r"\bN = \d+|at most \d+")
# figures that are not arithmetic: versions, dates, counts of files
NOT_ARITHMETIC = re.compile(r"^(?:Linux )?\d+\.\d+\b")


def header(path):
    """The lines that become messages: '///' rationale, '//' comments (with
    the Rewrite: blocks) up to the first rule, minus machine headers."""
    text = (REPO / "cocci" / path).read_text()
    lines = [l for l in text.splitlines() if l.startswith("//")]
    keep = [l for l in lines if not re.match(r"//\s*(Introduced|Removed|Options|Keywords|"
                                             r"Prefilter-regex|Exclude|Scope|SPDX)", l)]
    return "\n".join(l.lstrip("/ ") for l in keep)


def figures(text):
    # "2^32 ns (4.29 s)" holds two figures; "2^31 - 1 (2.147 s)" too
    flat = re.sub(r"\s+", " ", text)
    return [m.group(0).strip() for m in FIGURE.finditer(flat)]


def metavariables(sub_rules) -> set:
    """The names a .cocci's SmPL rules declare (inherited ones too, as
    'rule.name' names 'name'); typedefs and script rules' bindings aside."""
    names = set()
    for sub in (s for s in sub_rules if s.kind == "smpl"):
        for declaration in split_top(" ".join(sub.metavars), ";"):
            declaration = declaration.strip()
            if not declaration or declaration.startswith("typedef"):
                continue
            if declaration.startswith("{"):  # a set of types: {u8, u16} x
                declaration = declaration[declaration.index("}") + 1:]
            for item in split_top(declaration, ","):
                bare = re.split(r"\s*(?::|!=|=~|!~|=)", item, maxsplit=1)[0]
                found = re.findall(r"\w+", bare)
                if found:
                    names.add(found[-1])
    return names


def split_top(text: str, separator: str):
    """text split at separator where it is outside brackets and braces."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "({["
        depth -= ch in ")}]"
        if ch == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current]


def prose(rule):
    """(where, text) of what a rule's messages tell: its '///' paragraphs
    and each sub-rule's Rewrite: sentences."""
    yield "///", rule.rationale
    for sub in smpl.transforming(rule.sub_rules):
        if sub.sentences:
            yield f"Rewrite of {sub.name}", sub.sentences


def named_metavariables(text: str, names: set) -> list:
    """The metavariables text uses as words (ktime_get_ns holds no 'ns')."""
    return sorted(n for n in names if re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", text))


class MessageClaims(unittest.TestCase):
    def test_every_figure_is_derived_and_right(self):
        for path in CHECKED:
            for figure in figures(header(path)):
                with self.subTest(rule=path, figure=figure):
                    known = next((k for k in DERIVED if figure == k), None)
                    if known is None and re.fullmatch(r"2\^(\d+)", figure):
                        continue  # a bare power of two is its own value
                    self.assertIsNotNone(known, f"{path}: '{figure}' is a claim this test cannot check")
                    if known == "292 years":
                        self.assertEqual(round(KTIME_SEC_MAX / (365.25 * 86400)), 292)
                    else:
                        self.assertEqual(DERIVED[known], STATED[known], f"{path}: {figure}")

    def test_the_wrong_figures_of_issue_27_are_gone(self):
        for path in CHECKED:
            text = re.sub(r"\s+", " ", header(path))
            self.assertNotIn("2.14 s", text, path)
            self.assertNotIn("now exact", text, path)

    def test_an_unknown_figure_fails(self):
        self.assertIn("3.5 s", figures("a timeout of 3.5 s"))
        self.assertIsNone(next((k for k in DERIVED if k == "3.5 s"), None))

    def test_no_prose_names_a_metavariable(self):
        checked = [rules.parse_rule(path) for pattern in PROSE_CHECKED for path in sorted(REPO.glob(f"cocci/{pattern}"))]
        self.assertTrue(checked)
        for rule in checked:
            names = metavariables(rule.sub_rules)
            for where, text in prose(rule):
                with self.subTest(rule=rule.relpath, where=where):
                    self.assertEqual(named_metavariables(text, names), [], f"{rule.relpath}, {where}: {text}")

    def test_a_metavariable_in_prose_is_found(self):
        """The sentence of issue 27's second review fails; a name that only
        holds a metavariable, or a placeholder of another case, does not."""
        names = metavariables(smpl.parse(LEAKY))
        self.assertEqual(names, {"fn", "c", "x", "E", "w", "p", "later"})
        self.assertEqual(named_metavariables("c is a constant from 0 to 2^31 - 1 ns", names), ["c"])
        self.assertEqual(named_metavariables("ktime_us_delta(later, earlier)", names), ["later"])
        self.assertEqual(named_metavariables("ktime_set(0, C) of a constant C is C; use fn_x() and ktime.x_y", names), [])

    def test_the_limits_the_rules_use_are_the_derived_ones(self):
        ktime_set = (REPO / "cocci" / "ktime-scalar" / "ktime_set.cocci").read_text()
        self.assertIn("LIMIT = 2 ** 31", ktime_set)
        self.assertIn("WRAP = 2 ** 32", ktime_set)
        seconds = (REPO / "cocci" / "y2038-fixes" / "ktime_set_seconds.cocci").read_text()
        self.assertIn(f"LARGEST_EXACT = {DERIVED['at most 4']}", seconds)
        # a product in a 32-bit long overflows from 2^31 ns, in an unsigned long from 2^32 ns
        products = (REPO / "cocci" / "y2038-fixes" / "ns_product_32.cocci").read_text()
        self.assertIn("SIGNED_LIMIT = 2 ** 31", products)
        self.assertIn("UNSIGNED_LIMIT = 2 ** 32", products)
        self.assertEqual(DERIVED["2^31 - 1 ns"] + 1, 2 ** 31)


LEAKY = """
@alone depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
typedef u8, u16;
{u8, u16, unsigned long} x : script:python() { atom(x) };
expression E, c : script:python() { const_value(c) is not None };
@@
- ktime_set(0, c)
+ c

@other depends on alone@
identifier alone.fn;
expression later;
position p != alone.p;
{u64, s64} w;
@@
 ktime_set@p(0, w)
"""


if __name__ == "__main__":
    unittest.main()
