# SPDX-License-Identifier: GPL-2.0-only
"""Bad input gets a clear one-line error and loses nothing."""
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from helpers import make_mini_tree, run_cli
from y2038lib.verification import build
from y2038lib import deps
from y2038lib.common import Y2038Error

SLOW_FILE_BRANCHES = 1500  # one function with this many branches keeps spatch busy for seconds


class BadInputs(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="y2038-test-"))
        self.env = {"Y2038_WORK": str(self.tmp / "work")}

    def test_a_build_directory_in_use_is_refused(self):
        root = self.tmp / "build"
        root.mkdir()
        other = os.open(root / ".lock", os.O_CREAT | os.O_RDWR)  # another process's lock, as flock sees it
        self.addCleanup(os.close, other)
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with self.assertRaisesRegex(Y2038Error, "in use by another y2038 process"):
            build.lock_build_dir(root)
        fcntl.flock(other, fcntl.LOCK_UN)
        build.lock_build_dir(root)  # free again: taken, and kept for this process
        build.lock_build_dir(root)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def assertError(self, proc, *needles):
        self.assertEqual(proc.returncode, 1, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertTrue(lines and lines[-1].startswith("y2038: error: "), proc.stderr)
        for needle in needles:
            self.assertIn(needle, lines[-1])

    def test_missing_tarball(self):
        proc = run_cli("tree", "--kver", str(self.tmp / "linux-source-9.9.tar.xz"), env=self.env)
        self.assertError(proc, "linux-source-9.9.tar.xz", "no such")

    def test_missing_packaged_version(self):
        proc = run_cli("tree", "--kver", "2.4", env=self.env)
        self.assertError(proc, "/usr/src/linux-source-2.4.tar.xz not found", "apt-get install linux-source-2.4")

    def test_corrupt_tarball(self):
        tree = make_mini_tree(self.tmp / "linux-source-3.10", {"drivers/a.c": "int x;\n" * 20000})
        good = self.tmp / "good.tar.xz"
        subprocess.run(["tar", "-cJf", str(good), "-C", str(self.tmp), tree.name], check=True)
        corrupt = self.tmp / "linux-source-3.10.tar.xz"
        corrupt.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
        before = corrupt.read_bytes()
        proc = run_cli("tree", "--kver", str(corrupt), env=self.env)
        self.assertError(proc, "corrupt tarball", str(corrupt))
        self.assertEqual(corrupt.read_bytes(), before, "the tarball must never be modified")

    def test_directory_that_is_not_a_kernel_tree(self):
        (self.tmp / "notakernel").mkdir()
        (self.tmp / "notakernel" / "Makefile").write_text("all:\n")
        proc = run_cli("tree", "--kver", str(self.tmp / "notakernel"), env=self.env)
        self.assertError(proc, "is not a kernel tree")

    def test_rule_that_does_not_parse(self):
        cocci = self.tmp / "cocci" / "broken"
        cocci.mkdir(parents=True)
        (cocci / "bad.cocci").write_text(
            "/// A rule with a syntax error.\n// Confidence: High\n// Scope: all\n// Introduced: 3.17\n"
            "// Subject: break things\nvirtual patch\n@@\nexpression E;\n@@\n- foo(E\n+ bar(E)\n")
        tree = make_mini_tree(self.tmp / "tree", {"drivers/a.c": "void f(void) { foo(1); }\n"})
        env = dict(self.env, Y2038_COCCI_DIR=str(self.tmp / "cocci"))
        run_cli("tree", "--kver", str(tree), env=env, check=True)
        proc = run_cli("apply", "--kver", str(tree), env=env)
        self.assertError(proc, "cocci/broken/bad.cocci does not parse")

    def test_rule_without_header(self):
        cocci = self.tmp / "cocci" / "bare"
        cocci.mkdir(parents=True)
        (cocci / "nohdr.cocci").write_text("virtual patch\n@@\n@@\n- foo()\n+ bar()\n")
        tree = make_mini_tree(self.tmp / "tree", {"drivers/a.c": "void f(void) { foo(); }\n"})
        env = dict(self.env, Y2038_COCCI_DIR=str(self.tmp / "cocci"))
        run_cli("tree", "--kver", str(tree), env=env, check=True)
        self.assertError(run_cli("apply", "--kver", str(tree), env=env), "cocci/bare/nohdr.cocci: header lacks")

    def test_spatch_timeout_is_a_warning_and_other_files_go_on(self):
        slow = "void f(int a, u64 *t)\n{\n" + "".join(
            f"\tif (a > {n}) {{ t[{n}] = ktime_to_ns(ktime_get()); }} else if (a < {n}) {{ while (a--) h(a); }}\n"
            for n in range(SLOW_FILE_BRANCHES)) + "}\n"
        tree = make_mini_tree(self.tmp / "tree", {
            "drivers/slow.c": slow,
            "drivers/fast.c": "void f(u64 *t) { *t = ktime_to_ns(ktime_get()); }\n"})
        run_cli("tree", "--kver", str(tree), env=self.env, check=True)
        proc = run_cli("apply", "--kver", str(tree), "--timeout", "1", "--campaign", "ktime-direct",
                       env=self.env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("WARNING: cocci/ktime-direct/ktime_get_ns.cocci: drivers/slow.c: timeout", proc.stderr)
        self.assertIn("1 timed out", proc.stdout)
        self.assertIn("drivers/slow.c: not converted: spatch --timeout 1 expired", proc.stdout)
        self.assertIn("ktime_get_ns.cocci: 1 sites in 1 files", proc.stdout)

    def apply_grow_rule(self, header: str):
        """apply with one rule, cocci/grow/grow.cocci, that adds one to every
        delay() each time it runs, on a tree whose drivers/a.c has delay(1)."""
        cocci = self.tmp / "cocci" / "grow"
        cocci.mkdir(parents=True)
        (cocci / "grow.cocci").write_text(
            header + "// Confidence: Low\n// Scope: all\n// Introduced: 3.17\n// Subject: grow\n"
            "virtual patch\n@@\nexpression E;\n@@\n- delay(E)\n+ delay(E + 1)\n")
        tree = make_mini_tree(self.tmp / "tree", {"drivers/a.c": "void f(void) { delay(1); }\n"})
        env = dict(self.env, Y2038_COCCI_DIR=str(self.tmp / "cocci"))
        run_cli("tree", "--kver", str(tree), env=env, check=True)
        return run_cli("apply", "--kver", str(tree), env=env)

    def test_rule_that_is_not_idempotent_is_named(self):
        self.assertError(self.apply_grow_rule("/// Adds one each time: never a fixed point.\n"),
                         "not idempotent", "cocci/grow/grow.cocci changes drivers/a.c again")

    def test_idempotence_check_takes_a_rules_candidates_as_a_run_does(self):
        """A file its Prefilter-regex no longer matches is no candidate of the
        rule in a run, so the check does not run the rule on it either (such
        runs took minutes of spatch with the tree's headers)."""
        proc = self.apply_grow_rule("/// Adds one to a delay of 1 only.\n// Prefilter-regex: delay\\(1\\)\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        matches = json.loads(next((self.tmp / "work").glob("*/matches.json")).read_text())
        self.assertEqual(matches["idempotence_check"]["spatch_runs"], 0)
        self.assertEqual(matches["campaigns"][0]["rules"][0]["sites"], 1)

    def test_an_unchanged_apply_keeps_its_record_and_a_changed_rule_runs_again(self):
        header = "/// Adds one to a delay of 1 only.\n// Prefilter-regex: delay\\(1\\)\n"
        self.assertEqual(self.apply_grow_rule(header).returncode, 0)
        rule = self.tmp / "cocci" / "grow" / "grow.cocci"
        env = dict(self.env, Y2038_COCCI_DIR=str(self.tmp / "cocci"))
        again = run_cli("apply", "--kver", str(self.tmp / "tree"), env=env, check=True)
        self.assertIn("apply stage unchanged", again.stderr + again.stdout)
        matches = json.loads(next((self.tmp / "work").glob("*/matches.json")).read_text())
        self.assertEqual((matches["spatch_runs"], matches["cache_hits"]), (0, 0))
        self.assertEqual(matches["campaigns"][0]["rules"][0]["sites"], 1)
        rule.write_text(rule.read_text().replace("delay(E + 1)", "delay(E + 2)"))
        changed = run_cli("apply", "--kver", str(self.tmp / "tree"), env=env, check=True)
        self.assertNotIn("apply stage unchanged", changed.stderr + changed.stdout)
        matches = json.loads(next((self.tmp / "work").glob("*/matches.json")).read_text())
        self.assertEqual(matches["spatch_runs"], 1)

    def test_missing_packages_without_root(self):
        with mock.patch.object(deps, "missing", return_value=["coccinelle"]), \
             mock.patch.object(os, "geteuid", return_value=1000):
            with self.assertRaisesRegex(Y2038Error, "missing packages coccinelle and not root"):
                deps.ensure(["6.1"])

    def test_apt_failure_is_reported(self):
        failing = subprocess.CompletedProcess([], 100, stdout="E: Unable to locate package nope\n")
        with mock.patch.object(deps, "missing", return_value=["nope"]), \
             mock.patch.object(os, "geteuid", return_value=0), \
             mock.patch.object(subprocess, "run", return_value=failing):
            with self.assertRaisesRegex(Y2038Error, "apt-get update -q.*failed.*Unable to locate package"):
                deps.ensure(["6.1"])
