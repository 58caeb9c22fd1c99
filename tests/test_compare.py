# SPDX-License-Identifier: GPL-2.0-only
"""`y2038 compare`: sites gone upstream / kept / new per rule, and patches
mapped across two series.  Run on the committed 6.1 series against itself
and against a changed copy (a patch taken out, a site changed), and, when
both are committed, 6.1 against 6.12: the 6.12 cover letters carry what
compare prints today."""
import json
import shutil
import tempfile
import unittest
from pathlib import Path

from helpers import run_cli
from y2038lib import compare
from y2038lib.common import Y2038Error


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # the newer tree tells what happened to a site gone upstream
        if Path("/usr/src/linux-source-6.12.tar.xz").exists():
            run_cli("tree", "--kver", "6.12", check=True)
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-compare-"))
        cls.old = compare.series_of("6.1")
        cls.results = json.loads((cls.old / "results.json").read_text())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_a_series_against_itself_keeps_everything(self):
        report = compare.compare(self.old, self.old)
        total = sum(p["sites"] for p in self.results["patches"])
        self.assertEqual(report["totals"], {"gone_upstream": 0, "moved": 0, "kept": total, "new": 0})
        self.assertEqual({p["status"] for p in report["patches"]}, {"="})

    def test_removed_patch_and_changed_site_are_told_apart(self):
        new = self.tmp / "changed"
        shutil.copytree(self.old, new)
        results = json.loads((new / "results.json").read_text())
        gone = results["patches"].pop(0)
        changed = results["patches"][0]
        rule, files = next(iter(changed["site_lines"].items()))
        relpath = next(iter(files))
        files[relpath][0] += " /* changed upstream */"
        (new / "results.json").write_text(json.dumps(results))
        report = compare.compare(self.old, new)
        self.assertEqual(report["totals"]["gone_upstream"], gone["sites"] + 1)
        self.assertEqual(report["totals"]["new"], 1)
        self.assertEqual(report["rules"][rule]["new"], 1)
        statuses = {p["old"]: p["status"] for p in report["patches"]}
        self.assertEqual(statuses[gone["name"]], "<")
        self.assertEqual(statuses[changed["name"]], "=")  # same diff: only the recorded site differs
        text = compare.text(report)
        self.assertIn(f"{gone['sites'] + 1} sites gone upstream", text)
        self.assertIn("/* changed upstream */", text)

    def test_unknown_series_is_a_clear_error(self):
        with self.assertRaisesRegex(Y2038Error, "neither a series directory nor a version"):
            compare.series_of("9.9")

    def test_committed_newer_cover_letters_carry_todays_comparison(self):
        try:
            new = compare.series_of("6.12")
        except Y2038Error:
            self.skipTest("no 6.12 series committed")
        proc = run_cli("compare", "6.1", "6.12", "--no-write", check=True)
        report = compare.compare(self.old, new)
        self.assertIn(compare.summary_line(report), proc.stdout)
        section = compare.cover_section(report)
        for cover in new.glob("*/0000-cover-letter.patch"):
            self.assertIn(section, cover.read_text(), f"{cover}: run `make compare` and commit")
        self.assertEqual(json.loads((new / "results.json").read_text())["compare"]["totals"], report["totals"])
