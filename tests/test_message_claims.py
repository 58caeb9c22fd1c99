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
import datetime
import re
import unittest

from helpers import REPO, put_tools_on_path
put_tools_on_path()
from y2038lib.engine import rules, smpl  # noqa: E402
from y2038lib.posting import product_facts  # noqa: E402

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


# A fix's facts, as product_facts and fixes.wrapped_seconds write them: every
# number in them is a group, checked against what this test computes.
PRODUCT_FACT = re.compile(
    r"In (?P<function>\w+)\(\), (?P<count>.+?) is an? (?P<type>[\w ]+?)(?:, (?P<source>[^.]+?))?\. "
    r"On machines whose long is 32 bits wide, (?P<expression>.+?) is computed in a 32-bit "
    r"(?P<kind>unsigned long|long), which (?P<how>keeps it modulo 2\^32 ns \(4\.29 s\)|"
    r"overflows past 2\^31 - 1 ns \(2\.147 s\) and turns it negative): "
    r"(?:from (?P<smallest>\d+) (?P<smallest_unit>us|ms|s) on it is wrong: )?"
    r"(?P<example>\d+) (?P<unit>us|ms|s) gives (?P<wrapped>-?\d+) ns \((?P<wrapped_s>-?[\d.]+) s\) "
    r"instead of (?P<product>\d+) ns \((?P<product_s>[\d.]+) s\)\.")
SECONDS_FACT = re.compile(
    r"(?P<name>\w+) is (?P<value>\d+), so on 32-bit machines ktime_set\(0, (?P=name) \* NSEC_PER_SEC\) in "
    r"(?P<where>.+?) is (?P<product>\d+) mod 2\^32 = (?P<wrapped>\d+) ns \((?P<wrapped_s>[\d.]+) s\) "
    r"instead of (?P<seconds>\d+) s\.")
# a paragraph that states a figure of its own site
FACT_MARK = re.compile(r" gives -?\d| mod 2\^32 = ")
DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC")
UNIT = {"s": NSEC_PER_SEC, "ms": NSEC_PER_MSEC, "us": 10 ** 3}
UNIT_OF = {"NSEC_PER_SEC": "s", "NSEC_PER_MSEC": "ms", "NSEC_PER_USEC": "us"}
# C's conversions: an unsigned type of int's rank or wider times a long
# is an unsigned long where long is 32 bits; anything else (the narrower
# types promote to int) is a long
UNSIGNED_TYPES = {"unsigned int", "unsigned long", "u32", "__u32", "size_t"}


def as_32_bits(value, signed):
    low = value % U32_WRAP
    return low - U32_WRAP if signed and low >= 2 ** 31 else low


def in_seconds(ns):
    return f"{ns // NSEC_PER_SEC}" if ns % NSEC_PER_SEC == 0 else f"{ns / NSEC_PER_SEC:.3f}"


def product_claims(m):
    """[(what, stated, derived)] for every number of a product fact."""
    signed = m["type"] not in UNSIGNED_TYPES
    limit = 2 ** 31 if signed else U32_WRAP
    unit = UNIT_OF[re.search(r"NSEC_PER_\w+", m["expression"]).group(0)]
    example, product, wrapped = int(m["example"]), int(m["product"]), int(m["wrapped"])
    claims = [("the product's type", m["kind"], "long" if signed else "unsigned long"),
              ("how it goes wrong", m["how"].startswith("overflows"), signed),
              ("the example's unit", m["unit"], unit),
              ("the product", product, example * UNIT[unit]),
              ("the product goes wrong", product >= limit, True),
              ("the wrapped value", wrapped, as_32_bits(product, signed)),
              ("the wrapped value in s", m["wrapped_s"], in_seconds(wrapped)),
              ("the product in s", m["product_s"], in_seconds(product))]
    if m["smallest"]:
        smallest = -(-limit // UNIT[unit])
        claims += [("the smallest count that goes wrong", int(m["smallest"]), smallest),
                   ("its unit", m["smallest_unit"], unit),
                   ("the example is whole seconds past it", example * UNIT[unit] % NSEC_PER_SEC == 0
                    and example >= smallest and (example * UNIT[unit] - NSEC_PER_SEC) < limit, True)]
    else:  # no smallest: a constant, and the example is its value
        claims.append(("the constant", m["source"], f"the constant {example}"))
    return claims


def seconds_claims(m):
    """[(what, stated, derived)] for every number of a wrapped ktime_set() fact."""
    value, product, wrapped = int(m["value"]), int(m["product"]), int(m["wrapped"])
    return [("the product", product, value * NSEC_PER_SEC), ("the wrapped value", wrapped, product % U32_WRAP),
            ("the wrapped value in s", m["wrapped_s"], f"{wrapped / NSEC_PER_SEC:.2f}"),
            ("the seconds", int(m["seconds"]), value)]


def fact_claims(paragraph):
    """[(what, stated, derived)] of a fix's fact paragraph; None when the
    paragraph is no fact this test knows (then it must hold no number)."""
    flat = " ".join(paragraph.split())
    product = PRODUCT_FACT.fullmatch(flat)
    if product:
        return product_claims(product)
    seconds = SECONDS_FACT.fullmatch(flat)
    return seconds_claims(seconds) if seconds else None


def fix_messages():
    """(name, message) of every committed fix patch."""
    for patch in sorted(REPO.glob("generated-patches/linux-*/fixes-*/0*.patch")):
        if not patch.name.startswith("0000-"):
            yield patch.name, patch.read_text().split("\n\n", 1)[1].split("\n---\n")[0]


def fix_message_paragraphs():
    """The paragraphs of every committed fix patch's message that say a fact
    (a figure past the rule's own text): '<count> gives', 'mod 2^32 ='."""
    for name, body in fix_messages():
        for paragraph in re.split(r"\n\s*\n", body):
            if FACT_MARK.search(" ".join(paragraph.split())):
                yield name, paragraph


class FixFacts(unittest.TestCase):
    """The facts a fix's message states of its own site: every number in
    them is derived again here, from the count's type and the unit."""

    def products(self):
        """A product of every kind of count and unit, as product_facts makes them."""
        for kind in ("int", "unsigned int", "unsigned long", "u32", "__u32", "u16", "long", "s32", "size_t"):
            for unit in ("NSEC_PER_SEC", "NSEC_PER_MSEC", "NSEC_PER_USEC"):
                yield product_facts.Product("f", f"x * {unit}", "x", unit, kind, "the module parameter x", "x")
        for value, kind in ((60, "unsigned long"), (3, "int"), (5, "unsigned int")):
            yield product_facts.Product("f", "RETRY * NSEC_PER_SEC", "RETRY", "NSEC_PER_SEC", kind,
                                        f"the constant {value}", "RETRY", value)

    def assert_claims_hold(self, paragraph, where):
        claims = fact_claims(paragraph)
        self.assertIsNotNone(claims, f"{where}: a fact this test cannot check: {paragraph}")
        for what, stated, derived in claims:
            self.assertEqual(stated, derived, f"{where}: {what}: {paragraph}")

    def test_every_number_of_a_product_fact_is_derived(self):
        for product in self.products():
            with self.subTest(type=product.type, unit=product.unit, value=product.value):
                self.assert_claims_hold(product_facts.sentence(product), "product_facts.sentence")

    def test_every_number_of_the_committed_fix_messages_is_derived(self):
        for name, paragraph in fix_message_paragraphs():
            with self.subTest(patch=name):
                self.assert_claims_hold(paragraph, name)

    def test_every_date_of_a_fix_message_is_when_a_signed_32_bit_time_turns_negative(self):
        first_negative = datetime.datetime.fromtimestamp(2 ** 31, datetime.timezone.utc)
        for name, body in fix_messages():
            for date in DATE.findall(" ".join(body.split())):
                self.assertEqual(date, first_negative.strftime("%Y-%m-%d %H:%M:%S UTC"), name)

    def test_a_wrong_number_fails(self):
        right = product_facts.sentence(next(self.products()))
        wrong = right.replace("gives -1294967296 ns", "gives -1294967295 ns")
        self.assertNotEqual(right, wrong)
        self.assertTrue(any(stated != derived for _, stated, derived in fact_claims(wrong)))
        lpfc = ("LPFC_SEC_MIN is 60, so on 32-bit machines ktime_set(0, LPFC_SEC_MIN * NSEC_PER_SEC) in f() is "
                "60000000000 mod 2^32 = 4165425152 ns (4.17 s) instead of 60 s.")
        self.assertTrue(all(stated == derived for _, stated, derived in fact_claims(lpfc)))
        self.assertTrue(any(s != d for _, s, d in fact_claims(lpfc.replace("(4.17 s)", "(4.18 s)"))))
        self.assertIsNone(fact_claims("In f(), x is an int: it gives 7 ns."))


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
