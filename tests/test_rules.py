# SPDX-License-Identifier: GPL-2.0-only
"""Every rule in cocci/ against its Coccinelle-style test triple (X.cocci, X.c, X.res).

.unifdef rules have the same triple; .kconfig rules take X.Kconfig as input.

One test per rule: the rule turns X.c into exactly X.res (the file holds the
code it must change and the look-alike code it must leave alone), changes
nothing when run again on X.res, and has a complete header.  For report-only
rules X.res holds the sorted report lines: what must be reported, and by
omission what must not.  A failure
prints the diff between the expected and the actual output.
"""
import difflib
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from helpers import REPO
from y2038lib.engine import apply, rules
from y2038lib.posting import series
def spatch_report(rule, source: Path) -> str:
    """Report-only rules: the sorted report lines are the output."""
    proc = subprocess.run(["spatch", "--sp-file", str(rule.path), "-D", "report", "--very-quiet",
                           *rule.options, source.name], cwd=source.parent,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"spatch failed on {source.name}: {proc.stderr.strip()}")
    return "".join(sorted(proc.stdout.splitlines(True)))


def run_rule(rule, source: Path) -> str:
    if rule.kind != "cocci":
        result = apply.run_text_rule(rule, source.name, source.read_bytes())
        if result["status"] == "failed":
            raise AssertionError(f"{rule.relpath} failed on {source.name}: {result['detail']}")
        return result.get("output", source.read_bytes()).decode()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "out.c"
        proc = subprocess.run(["spatch", "--sp-file", str(rule.path), "-D", "patch", "--very-quiet",
                               *rule.options, str(source), "-o", str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise AssertionError(f"spatch failed on {source.name}: {proc.stderr.strip()}")
        return out.read_text() if out.exists() else source.read_text()


# Names so common that a prefilter on them alone would send most of the tree
# through spatch (2115 candidate files instead of 1, once).
TOO_COMMON = {"inode", "tv", "tv_sec", "tv_nsec", "tv_usec", "sec", "nsec", "ktime_t", "timespec", "timeval"}


class RuleTriples(unittest.TestCase):
    def test_catalogue_is_not_empty(self):
        self.assertGreater(sum(len(r) for _, r in rules.campaigns()), 0)

    def test_every_rules_history_reads(self):
        """convert reads each rule's Introduced:/Removed: lines to know the
        kernels its output builds on: a line it cannot read stops it."""
        from y2038lib.outoftree.api_availability import RuleHistory
        for _, campaign in rules.campaigns():
            for rule in campaign:
                with self.subTest(rule=rule.relpath):
                    RuleHistory.of(rule)

    def test_prefilters_are_specific(self):
        for _, campaign in rules.campaigns():
            for rule in (r for r in campaign if r.patch_mode and not r.content_regex):
                common = TOO_COMMON & set(rule.tokens())
                self.assertFalse(common, f"{rule.relpath} prefilters on {sorted(common)}: "
                                         f"add a '// Prefilter:' of API names or a '// Prefilter-regex:'")

    def test_prefilter_regexes_hold_every_function_the_rule_changes(self):
        """A Prefilter-regex keeps files from spatch: it must match every
        function of the rule's own test input that the rule changes."""
        def functions(text):
            return re.split(r"(?m)^}\n", text)

        for _, campaign in rules.campaigns():
            for rule in (r for r in campaign if r.patch_mode and r.content_regex and r.kind == "cocci"):
                before = functions(rule.path.with_suffix(".c").read_text())
                after = set(functions(rule.path.with_suffix(".res").read_text()))
                changed = [b for b in before if b not in after]
                self.assertTrue(changed, rule.relpath)
                for function in changed:
                    self.assertRegex(function.encode(), rule.content_regex, rule.relpath)

    def test_prefilter_tokens_are_in_every_function_the_rule_changes(self):
        """The tokens git grep looks for keep files from spatch: where they
        are derived (spatch's grep query, or the '-' lines), every function
        of a rule's own test input that the rule changes must hold one
        (ns_product_32's NSEC_PER_USEC products were never candidates while
        its tokens were NSEC_PER_SEC alone).  A '// Prefilter:' is a choice
        made for the whole file (core_uses' changes follow its calls)."""
        def functions(text):
            return re.split(r"(?m)^}\n", text)

        for _, campaign in rules.campaigns():
            for rule in (r for r in campaign if r.patch_mode and r.kind == "cocci" and "Prefilter" not in r.headers):
                before = functions(rule.path.with_suffix(".c").read_text())
                after = set(functions(rule.path.with_suffix(".res").read_text()))
                for function in (b for b in before if b not in after):
                    with self.subTest(rule=rule.relpath, function=function.split("(")[0][-40:]):
                        self.assertRegex(function.encode(), rule.token_regex())

    def test_minus_line_tokens_take_an_identifier_metavariables_names(self):
        rule = rules.parse_rule(REPO / "cocci/y2038-fixes/ns_product_32.cocci")
        self.assertEqual(rule.minus_tokens(), ["NSEC_PER_MSEC", "NSEC_PER_SEC", "NSEC_PER_USEC"])

    def test_leftover_regexes_list_what_the_triple_leaves(self):
        """A '// Leftover-regex:' lists what the rule leaves for a human: its
        triple must hold such code, and the regex must find it in the output
        but not in the lines the rule wrote."""
        for rule in (r for _, c in rules.campaigns() for r in c if r.leftover_regex):
            expected = rule.path.with_suffix(".res").read_bytes()
            found = apply.leftovers(rule, {"status": "unchanged", "input": expected})
            self.assertTrue(found, f"{rule.relpath}: its .res holds nothing its Leftover-regex lists")
            written = set(expected.splitlines()) - set(rule.path.with_suffix(".c").read_bytes().splitlines())
            for line, why in found:
                self.assertNotIn(expected.splitlines()[line - 1], written, f"{rule.relpath} lists its own output: {why}")

    def test_leftovers_name_the_line_of_the_designator(self):
        """A match that starts at the ',' ending the line before is listed
        on the designator's own line."""
        rule = rules.parse_rule(REPO / "cocci/ktime-scalar/tv64.cocci")
        text = b"static struct s x = {\n\t.type = EV_SW,\n\t.debounce_time.tv64 = 0,\n};\n"
        self.assertEqual([line for line, _ in apply.leftovers(rule, {"status": "unchanged", "input": text})], [3])

    def test_listed_names_are_the_functions_the_rule_added(self):
        """A '// Lists:' header names, in the commit message, what the rule
        added: on its own triple it must find each name and nothing else."""
        listing = [r for _, c in rules.campaigns() for r in c if r.listing]
        self.assertTrue(listing)
        for rule in listing:
            before = rule.path.with_suffix(".c").read_bytes()
            after = rule.path.with_suffix(".res").read_bytes()
            names = rule.listed_names(before, after)
            self.assertTrue(names, rule.relpath)
            for name in names:
                # the wrapper keeps the name, the static twin is <name>64
                self.assertRegex(after, rf"(?m)^[^ \n][^(\n]*\b{name}\(".encode(), name)
                self.assertRegex(after, rf"(?m)^static [^(\n]*\b{name}64\(".encode(), name)

    def test_commit_message_names_the_listed_functions(self):
        rule = next(r for _, c in rules.campaigns() for r in c if r.listing)
        group = {"files": ["kernel/time/timekeeping.c"], "campaign": rule.campaign, "sites": 2, "cc": [],
                 "rules": [{"path": rule.relpath, "subject": rule.headers["Subject"], "sites": 2,
                            "listed": ["do_settimeofday", "getnstimeofday"]}]}
        message = series.commit_message(group, "T <t@example.org>")
        self.assertIn(f"{rule.listing[0]}: do_settimeofday, getnstimeofday.", " ".join(message.split()))


def make_test(rule):
    def test(self):
        source = rule.path.with_suffix(".Kconfig" if rule.kind == "kconfig" else ".c")
        expected = rule.path.with_suffix(".res")
        self.assertTrue(source.exists() and expected.exists(),
                        f"{rule.relpath} needs its test triple {source.name} and {expected.name}")
        self.assertTrue(rule.tokens())
        if not rule.patch_mode:
            actual = spatch_report(rule, source)
            self.assertTrue(actual, f"{rule.relpath} reports nothing on {source.name}")
            diff = "".join(difflib.unified_diff(expected.read_text().splitlines(True), actual.splitlines(True),
                                                f"{expected.name} (expected)", "spatch -D report"))
            self.assertFalse(diff, f"{rule.relpath} report differs from {expected.name}:\n{diff}")
            return
        actual = run_rule(rule, source)
        diff = "".join(difflib.unified_diff(expected.read_text().splitlines(True), actual.splitlines(True),
                                            f"{expected.name} (expected)", "spatch output"))
        self.assertFalse(diff, f"{rule.relpath} output differs from {expected.name}:\n{diff}")
        self.assertNotEqual(source.read_text(), expected.read_text(), f"{expected.name} shows no change")
        again = run_rule(rule, expected)
        self.assertEqual(again, expected.read_text(), f"{rule.relpath} is not idempotent on {expected.name}")
    return test


for _campaign, _rules in rules.campaigns():
    for _rule in _rules:
        setattr(RuleTriples, f"test_{_campaign.replace('-', '_')}__{_rule.name}", make_test(_rule))


class OneFileAtATime(unittest.TestCase):
    """The engine runs a rule on a batch of files in one spatch process
    (--file-groups): what the rule learnt of one file must not decide
    another.  ktime_set.cocci reads a file's own macros: a file that
    defines a name differently, run first, must not keep the next file
    from converting its own constant."""

    def test_each_triple_twice_in_one_batch(self):
        """Every rule's triple input, twice in one spatch batch: both copies
        give the expected result (the same names in both files: a rule that
        keys what it learnt by function and local only counts both)."""
        from y2038lib.engine.spatch import run_spatch_batch
        for _, campaign_rules in rules.campaigns():
            for rule in campaign_rules:
                source, expected = rule.path.with_suffix(".c"), rule.path.with_suffix(".res")
                if rule.kind != "cocci" or not rule.patch_mode or not source.exists() or not expected.exists():
                    continue
                with self.subTest(rule=rule.relpath):
                    text = source.read_bytes()
                    results = run_spatch_batch(rule, {"first.c": text, "second.c": text}, 120)
                    self.assertEqual([results[f].get("output", text) == expected.read_bytes()
                                      for f in ("first.c", "second.c")], [True, True])

    def test_a_files_macros_are_its_own(self):
        from y2038lib.engine.spatch import run_spatch_batch
        rule = next(r for _, rs in rules.campaigns() for r in rs if r.relpath == "cocci/ktime-scalar/ktime_set.cocci")
        other = b"#define PERIOD_NS (3 * NSEC_PER_SEC)\nstatic void g(struct d *d) { d->t = ktime_set(0, PERIOD_NS); }\n"
        mine = b"#define PERIOD_NS 100\nstatic void f(struct d *d) { d->t = ktime_set(0, PERIOD_NS); }\n"
        results = run_spatch_batch(rule, {"other.c": other, "mine.c": mine}, 60)
        self.assertIn(b"d->t = PERIOD_NS;", results["mine.c"].get("output", b""))
        self.assertEqual(results["other.c"].get("output", other), other)


class KconfigEditor(unittest.TestCase):
    def test_references_it_leaves_are_reported(self):
        rule = rules.parse_rule(REPO / "cocci/ktime-scalar/ktime_scalar_kconfig.kconfig")
        source = rule.path.with_suffix(".Kconfig")
        result = apply.run_text_rule(rule, "arch/x86/Kconfig", source.read_bytes())
        lines = source.read_text().splitlines()
        self.assertEqual([lines[n - 1].strip() for n, _ in result["left"]],
                         ["depends on PARAVIRT && !KTIME_SCALAR"])

    def test_unreadable_command_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / "bad.kconfig"
            path.write_text(rule_header() + "remove KTIME_SCALAR\n")
            rule = rules.parse_rule(path)
            with self.assertRaisesRegex(Exception, "cannot read command 'remove KTIME_SCALAR'"):
                apply.check_rule_parses(rule)


def rule_header() -> str:
    return ("/// A test rule.\n// Confidence: Low\n// Scope: all\n// Introduced: 3.17\n"
            "// Subject: test\n// Prefilter: KTIME_SCALAR\n\n")
