# SPDX-License-Identifier: GPL-2.0-only
"""Commit messages built from what fired (issue 27, items 3 and 4).

A planted rule with two annotated sub-rules runs with its probes in spatch
(a few small files, no kernel): apply records per file which of them
changed it, and a patch's message tells only those (their `Rewrite:`
sentences, their semantic patch between `// <smpl>` lines), fills the
subject's globs from the diff and counts the changes from it.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

import helpers
helpers.put_tools_on_path()
from y2038lib.engine import apply, rules, smpl, spatch
from y2038lib.posting import messages, series, shown_smpl
from y2038lib.records import RuleMatches

HEADER = """// SPDX-License-Identifier: GPL-2.0-only
/// Call the new helpers.
///
/// A second paragraph of rationale that only an unannotated rule tells.
//
// Confidence: High
// Scope: all
// Introduced: 6.1 bar, 6.1 qux
// Subject: use bar()/qux()
// Options: --no-includes

virtual patch
virtual report
"""

ANNOTATED = HEADER + """
@old@
typedef first_old_type_t, second_old_type_t, third_old_type_t, fourth_old_type_t;
identifier f;
position p;
@@
 old_style@p(f)

// Rewrite: foo(x) -> bar(x)
//  bar(x) is foo(x) under its new name: the same call.
@one depends on patch@
expression x;
position p;
@@
- foo@p(x)
+ bar(x)

// Rewrite: baz(x) -> qux(x)
//  qux(x) is what baz(x) always returned.
@two depends on patch@
expression x;
position q != old.p;
@@
- baz@q(x)
+ qux(x)

@seen depends on report@
expression x;
position p;
@@
 foo@p(x)

@script:python depends on report@
p << seen.p;
@@
coccilib.report.print_report(p[0], "use bar()")
"""

# the same transformations, without annotations: the fallback
UNANNOTATED = HEADER + """
@@
expression x;
@@
- foo(x)
+ bar(x)

@@
expression x;
@@
- baz(x)
+ qux(x)
"""

ONLY_FOO = b"int f(void)\n{\n\treturn foo(1);\n}\n"
ONLY_BAZ = b"int g(void)\n{\n\treturn baz(2);\n}\n"
BOTH = b"int h(void)\n{\n\tfoo(3);\n\treturn baz(4);\n}\n"


def plant(folder: Path, text: str, name: str = "planted"):
    path = folder / "cocci" / "planted" / f"{name}.cocci"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return rules.parse_rule(path)


def spatch_plain(rule, content: bytes, mode=("-D", "patch")) -> bytes:
    """The rule run by spatch as it is, without probes (mode: () for a
    semantic patch without virtual rules)."""
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "a.c").write_bytes(content)
        subprocess.run(["spatch", "--sp-file", str(rule.path), *mode, "--very-quiet", *rule.options,
                        "a.c", "-o", "out.c"], cwd=scratch, check=True, capture_output=True)
        out = Path(scratch) / "out.c"
        return out.read_bytes() if out.exists() else content


class Base(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="y2038-messages-"))
        self.addCleanup(shutil.rmtree, self.scratch)
        self.rule = plant(self.scratch, ANNOTATED)

    def group(self, rule, fired, diffs, **more):
        record = {"path": str(rule.path), "subject": rule.headers["Subject"], "sites": 1, "listed": [],
                  "fired": fired}
        return dict({"files": sorted(diffs), "campaign": "planted", "sites": 1, "prefix": "drv",
                     "rules": [record], "diffs": diffs}, **more)


class Probes(Base):
    def test_only_annotated_transforming_rules_are_probed(self):
        self.assertEqual(self.rule.probed, ["one", "two"])
        self.assertEqual(plant(self.scratch, UNANNOTATED, "plain").probed, [])

    def test_each_file_names_the_sub_rules_that_changed_it(self):
        for content, fired in ((ONLY_FOO, ["one"]), (ONLY_BAZ, ["two"]), (BOTH, ["one", "two"])):
            result = spatch.run_spatch(self.rule, "a.c", content, 30)
            self.assertEqual(result["status"], "changed")
            self.assertEqual(result["fired"], fired)
            self.assertEqual(result["output"], spatch_plain(self.rule, content), "the probes change the output")

    def test_a_batch_names_them_per_file(self):
        inputs = {"d/a.c": ONLY_FOO, "d/b.c": ONLY_BAZ, "c.c": BOTH, "e.c": b"int none;\n"}
        results = spatch.run_spatch_batch(self.rule, inputs, 30)
        self.assertEqual({f: r.get("fired") for f, r in results.items()},
                         {"d/a.c": ["one"], "d/b.c": ["two"], "c.c": ["one", "two"], "e.c": None})

    def test_apply_records_them_and_the_cache_keeps_them(self):
        (self.scratch / "src").mkdir()
        (self.scratch / "src" / "a.c").write_bytes(ONLY_BAZ)
        os.environ["Y2038_SPATCH_CACHE"] = str(self.scratch / "cache")
        self.addCleanup(os.environ.pop, "Y2038_SPATCH_CACHE")
        tree = SimpleNamespace(src=self.scratch / "src", baseline="0" * 40)
        for runs, hits in ((1, 0), (0, 1)):
            applier = apply.Applier(tree, jobs=1, timeout=30)
            record = apply.new_rule_record(self.rule)
            apply.record_results(applier, self.rule, record, applier.run_rule(self.rule, ["a.c"]))
            self.assertEqual((applier.spatch_runs, applier.cache_hits), (runs, hits))
            self.assertEqual(record.fired, {"a.c": ["two"]})

    def test_a_patch_without_a_record_of_every_file_falls_back(self):
        record = RuleMatches(name="r", path="p", subject="s", candidates=2, seconds=0, files={"a.c": 1, "b.c": 1},
                             sites=2, timeouts={}, failed={}, unparsed={}, left={}, removed={},
                             fired={"a.c": ["one"], "b.c": ["two"]})
        self.assertEqual(series.fired_in(record, ["a.c", "b.c"]), ["one", "two"])
        self.assertIsNone(series.fired_in(record, ["a.c", "c.c"]))
        record.fired = None
        self.assertIsNone(series.fired_in(record, ["a.c"]))


class Message(Base):
    def message(self, fired, before=ONLY_FOO, **more):
        after = spatch_plain(self.rule, before)
        return messages.commit_message(self.group(self.rule, fired, {"a.c": (before, after)}, **more), None)

    def smpl_of(self, message: str) -> str:
        found = re.search(r"^// <smpl>\n(.*?)^// </smpl>$", message, re.M | re.S)
        self.assertIsNotNone(found, message)
        return found.group(1) if found else ""

    def test_only_the_rewrite_that_fired_is_told(self):
        message = self.message(["one"])
        flat = " ".join(message.split())
        self.assertIn("bar(x) is foo(x) under its new name: the same call.", flat)
        self.assertNotIn("what baz(x) always returned", flat)
        self.assertNotIn("second paragraph", flat)  # the whole rationale is the fallback's
        self.assertIn("Call the new helpers.", flat)  # the background, once
        self.assertNotIn("Generated by", message)
        shown = self.smpl_of(message)
        self.assertIn("- foo(x)", shown)
        self.assertNotIn("baz", shown)
        self.assertNotIn("virtual", shown)
        self.assertNotIn("report", shown)
        self.assertNotIn("position", shown)  # p only served the report rule
        self.assertEqual(message.count("// <smpl>"), 1)

    def test_the_semantic_patch_shown_makes_the_change(self):
        """What the message shows, run by spatch, changes the file as the rule did."""
        message = self.message(["one", "two"], before=BOTH)
        shown = self.smpl_of(message)
        self.assertIn("@old@", shown)  # two needs it: position q != old.p
        self.assertLessEqual(max(map(len, shown.splitlines())), 75, "a declaration is not wrapped")
        path = self.scratch / "shown.cocci"
        path.write_text(shown)
        self.assertEqual(spatch_plain(SimpleNamespace(path=path, options=self.rule.options), BOTH, mode=()),
                         spatch_plain(self.rule, BOTH))
        self.assertNotEqual(spatch_plain(self.rule, BOTH), BOTH)

    def test_one_shape_is_told_once(self):
        twice = ANNOTATED.replace("// Rewrite: baz(x) -> qux(x)\n//  qux(x) is what baz(x) always returned.",
                                  "// Rewrite: foo(x) -> bar(x)\n//  bar(x) is foo(x) under its new name: the same call.")
        self.rule = plant(self.scratch, twice)
        flat = " ".join(self.message(["one", "two"], before=BOTH).split())
        self.assertEqual(flat.count("under its new name"), 1)

    def test_no_paragraph_is_given_twice(self):
        other = plant(self.scratch, ANNOTATED.replace("@@\n- foo", "@@\n- foo").replace(
            "Subject: use bar()/qux()", "Subject: other"), "other")
        group = self.group(self.rule, ["one"], {"a.c": (ONLY_FOO, spatch_plain(self.rule, ONLY_FOO))})
        group["rules"].append(dict(group["rules"][0], path=str(other.path)))
        message = messages.commit_message(group, None)
        body = message.split("\n\n")[1:]
        self.assertEqual(len(body), len(set(body)), message)
        self.assertNotIn("\n\n\n", message)  # the planted campaign has no text: no empty paragraph

    def test_an_unannotated_rule_tells_its_whole_rationale_and_smpl(self):
        self.rule = plant(self.scratch, UNANNOTATED, "plain")
        message = self.message(None)
        flat = " ".join(message.split())
        self.assertIn("Call the new helpers. A second paragraph", flat.replace("\n", " "))
        shown = self.smpl_of(message)
        self.assertIn("- foo(x)", shown)
        self.assertIn("- baz(x)", shown)

    def test_a_fix_has_its_trailers_after_the_semantic_patch(self):
        message = self.message(["one"], fix=True, trailers=["Cc: stable@vger.kernel.org"])
        self.assertTrue(message.endswith("// </smpl>\n\nCc: stable@vger.kernel.org\n"), message)
        self.assertIn("generated with Coccinelle.\n", message)


def diff_of(*pairs):
    return {f"f{n}.c": (before.encode(), after.encode()) for n, (before, after) in enumerate(pairs)}


class Subject(unittest.TestCase):
    GET_NS = "use ktime_get*_ns() instead of ktime_to_ns(ktime_get*())"

    def fill(self, summary, diffs, prefix="drv"):
        return messages.filled_subject(summary, diffs, lambda s: len(f"{prefix}: {s}"))

    def test_one_function_is_named(self):
        diffs = diff_of(("t = ktime_to_ns(ktime_get_real());\n", "t = ktime_get_real_ns();\n"))
        self.assertEqual(self.fill(self.GET_NS, diffs),
                         "use ktime_get_real_ns() instead of ktime_to_ns(ktime_get_real())")

    def test_two_are_named_when_they_fit(self):
        diffs = diff_of(("a = ktime_to_ns(ktime_get());\nb = ktime_to_ns(ktime_get_raw());\n",
                         "a = ktime_get_ns();\nb = ktime_get_raw_ns();\n"))
        self.assertEqual(self.fill("use ktime_get*_ns()", diffs), "use ktime_get_ns() and ktime_get_raw_ns()")
        # filled, the subject would pass 75 characters: the last filling is undone first, then the others
        self.assertEqual(messages.filled_subject("use ktime_get*_ns() for ktime_to_ns(ktime_get*())", diffs, len),
                         "use ktime_get_ns() and ktime_get_raw_ns() for ktime_to_ns(ktime_get*())")
        # too long with its "instead of" part filled in: the functions used, without it
        self.assertEqual(self.fill(self.GET_NS, diffs), "use ktime_get_ns() and ktime_get_raw_ns()")

    def test_too_long_a_subject_names_the_new_function_alone(self):
        diffs = diff_of(("ts = ktime_to_timespec64(ktime_get_real());\n", "ktime_get_real_ts64(&ts);\n"))
        summary = "use ktime_get*_ts64() instead of ktime_to_timespec64(ktime_get*())"
        self.assertEqual(self.fill(summary, diffs, prefix="media: vidtv"), "use ktime_get_real_ts64()")

    def test_the_first_paragraph_names_what_the_diff_uses(self):
        us = diff_of(("d = ktime_to_us(ktime_sub(now, start));\n", "d = ktime_us_delta(now, start);\n"))
        self.assertEqual(messages.filled_text("Use ktime_us_delta()/ktime_ms_delta() instead of converting a "
                                              "ktime_sub() result.", us),
                         "Use ktime_us_delta() instead of converting a ktime_sub() result.")

    def test_an_alternative_of_globs_is_named_by_the_function_used(self):
        seconds = diff_of(("struct timespec64 ts;\nktime_get_coarse_real_ts64(&ts);\nt = ts.tv_sec;\n",
                           "t = ktime_get_real_seconds();\n"))
        self.assertEqual(messages.filled_text("Read the clock with ktime_get*_ns()/ktime_get*_seconds() instead "
                                              "of through a timespec64.", seconds),
                         "Read the clock with ktime_get_real_seconds() instead of through a timespec64.")

    def test_changed_lines_are_counted_one_each(self):
        before = b"a = f(x);\nb = f(y);\nc = f(z);\nkeep;\n"
        self.assertEqual(messages.rewrites(before, before.replace(b"f(", b"g(")), 3)
        self.assertEqual(messages.rewrites(before, b"keep;\n"), 3)
        self.assertEqual(messages.rewrites(before, before + b"more;\n"), 1)

    def test_more_keep_their_common_name(self):
        diffs = diff_of(("a = ktime_to_ns(ktime_get());\nb = ktime_to_ns(ktime_get_raw());\n"
                         "c = ktime_to_ns(ktime_get_real());\n", "a = ktime_get_ns();\nb = ktime_get_raw_ns();\n"
                         "c = ktime_get_real_ns();\n"))
        self.assertEqual(self.fill("use ktime_get*_ns()", diffs), "use ktime_get*_ns()")

    def test_the_alternative_used_is_named(self):
        summary = "use ktime_us_delta()/ktime_ms_delta()"
        us = diff_of(("d = ktime_to_us(ktime_sub(now, start));\n", "d = ktime_us_delta(now, start);\n"))
        self.assertEqual(self.fill(summary, us), "use ktime_us_delta()")
        both = diff_of(("d = ktime_to_us(ktime_sub(now, start));\n", "d = ktime_us_delta(now, start);\n"),
                       ("e = ktime_to_ms(ktime_sub(ktime_get(), t));\n", "e = ktime_ms_delta(ktime_get(), t);\n"))
        self.assertEqual(self.fill(summary, both), "use ktime_us_delta() and ktime_ms_delta()")

    def test_a_name_on_both_sides_of_the_diff_is_not_counted(self):
        diffs = diff_of(("x = ktime_get_ns() + ktime_to_ns(ktime_get_boottime());\n",
                         "x = ktime_get_ns() + ktime_get_boottime_ns();\n"))
        self.assertEqual(self.fill("use ktime_get*_ns()", diffs), "use ktime_get_boottime_ns()")


class Counts(unittest.TestCase):
    def test_changes_and_files_are_counted_from_the_diff(self):
        diffs = diff_of(("a\nb\nc\nd\n", "A\nb\nC\nd\n"), ("x\n", "y\n"), ("same\n", "same\n"))
        group = {"files": sorted(diffs), "sites": 9, "rewrites": 9}
        self.assertEqual(messages.counts(group, diffs), (3, 2))
        self.assertEqual(messages.counts(group, {}), (9, 3))


class Catalogue(unittest.TestCase):
    def test_probed_rules_make_their_triples_unchanged_and_name_what_fired(self):
        """Every annotated rule of the catalogue: its triple's output with the
        probes is the .res, and the sub-rules named are among its probed."""
        probed = [r for _, c in rules.campaigns() for r in c if r.probed]
        self.assertTrue(probed)
        for rule in probed:
            source = rule.path.with_suffix(".c")
            result = spatch.run_spatch(rule, source.name, source.read_bytes(), 60)
            self.assertEqual(result["output"], rule.path.with_suffix(".res").read_bytes(), rule.relpath)
            self.assertTrue(result["fired"] and set(result["fired"]) <= set(rule.probed), rule.relpath)
            for sub in smpl.transforming(rule.sub_rules):
                self.assertTrue(sub.sentences, f"{rule.relpath}: {sub.name} has no Rewrite sentences")


if __name__ == "__main__":
    unittest.main()


class EveryRulesShownPatch(unittest.TestCase):
    """The semantic patch a message shows whole runs as printed: for every
    rule with a Coccinelle triple, the runnable patch of all its
    transforming sub-rules (Python constraints and the state they read
    included) changes the triple's input as the whole rule does; a longer
    one is shown simplified (SimplifiedPatches)."""

    def test_it_changes_each_triple_as_the_rule_does(self):
        checked = 0
        for path in sorted(rules.COCCI_DIR.glob("*/*.cocci")):
            rule = rules.parse_rule(path)
            changing = smpl.transforming(rule.sub_rules)
            triple = path.with_suffix(".c")
            if not changing or not triple.exists():
                continue
            with self.subTest(rule=path.name), tempfile.TemporaryDirectory() as scratch:
                shown = Path(scratch) / "shown.cocci"
                shown.write_text(shown_smpl.runnable_patch(rule.sub_rules, changing))
                before = triple.read_bytes()
                self.assertEqual(spatch_plain(SimpleNamespace(path=shown, options=rule.options), before, mode=()),
                                 spatch_plain(rule, before))
                self.assertEqual(long_smpl_lines(shown.read_text()), [],
                                 "checkpatch wants commit message lines of at most 75 characters")
                checked += 1
        self.assertGreater(checked, 10)


class SimplifiedPatches(unittest.TestCase):
    """A semantic patch longer than shown_smpl.SHOWN_WHOLE lines is shown
    simplified: each sub-rule's changes as the rule has them, without the
    rules that decide where it applies or any Python, and it parses
    (spatch --parse-cocci) unless it says what the rules left out choose.
    A fresh identifier's Python stays: it makes the change."""

    def test_each_long_patch_keeps_every_change_and_parses(self):
        checked = 0
        for path in sorted(rules.COCCI_DIR.glob("*/*.cocci")):
            rule = rules.parse_rule(path)
            for wanted in [[sub] for sub in smpl.transforming(rule.sub_rules)]:
                runnable = shown_smpl.runnable_patch(rule.sub_rules, wanted)
                shown = shown_smpl.semantic_patch(rule.sub_rules, wanted)
                if runnable.count("\n") < shown_smpl.SHOWN_WHOLE:
                    self.assertEqual(shown, runnable)
                    continue
                with self.subTest(rule=path.name, sub=wanted[0].name):
                    self.assertTrue(shown.startswith(shown_smpl.SIMPLIFIED.format(n=runnable.count("\n") + 1)))
                    # no script rule and no Python constraint (a fresh identifier's Python makes the change)
                    self.assertNotRegex(shown, r"@(script|initialize):|:\s*script:python")
                    self.assertLess(shown.count("\n"), runnable.count("\n") // 2)
                    changes = [re.sub(r"@\w+\b", "", line) for line in wanted[0].body if line[:1] in ("+", "-")]
                    self.assertEqual([line for line in shown.splitlines() if line[:1] in ("+", "-")], changes)
                    self.assertEqual(long_smpl_lines(shown), [], "commit message lines of at most 75 characters")
                    if "chosen by the rules left out" not in shown:
                        self.assertTrue(parses(shown), shown)
                    checked += 1
        self.assertGreater(checked, 10)

    def test_the_message_says_simplified(self):
        self.assertIn(", simplified,", messages.smpl_section([shown_smpl.SIMPLIFIED.format(n=99) + "\n@r@\n@@\n- a\n+ b"]))
        self.assertNotIn("simplified", messages.smpl_section(["@r@\n@@\n- a\n+ b"]))


def parses(smpl_text: str) -> bool:
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "shown.cocci").write_text(smpl_text)
        return subprocess.run(["spatch", "--parse-cocci", "shown.cocci"], cwd=scratch,
                              capture_output=True).returncode == 0


def long_smpl_lines(text: str) -> list:
    """Lines over 75 characters other than those SmPL reads as one: Python
    code, a regular expression or Python constraint, a disjunction."""
    python = re.findall(r"^@(?:initialize|script):python[^@]*@\n(?:.*\n)*?@@\n((?s:.*?))(?=^@)", text + "\n@", re.M)
    one_piece = set("\n".join(python).splitlines())
    return [line for line in text.splitlines() if len(line) > 75 and line not in one_piece
            and not re.search(r"[=!]~ \"|script:python|\\\(", line)]
