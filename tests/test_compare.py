# SPDX-License-Identifier: GPL-2.0-only
"""`y2038 compare`: sites gone upstream / kept / new per rule, and patches
mapped across two series.  Run on the committed 6.1 series against itself
and against a changed copy (a patch taken out, a site changed), and, when
both are committed, 6.1 against 6.12: the 6.12 cover letters carry what
compare prints today, with or without the 6.12 tree on the machine."""
import json
import shutil
import tempfile
import unittest
from collections import Counter
from pathlib import Path
from unittest import mock

from helpers import run_cli
from y2038lib.posting import compare, covers
from y2038lib.common import Y2038Error
from y2038lib.records import SeriesResults


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # the newer tree tells what happened to a site gone upstream
        if Path("/usr/src/linux-source-6.12.tar.xz").exists():
            run_cli("tree", "--kver", "6.12", check=True)
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-compare-"))
        cls.old = compare.series_of("6.1")
        # a series against itself or a changed copy: the committed one with the most patches
        # (6.1's posts its fixes only: stable trees take no clean-ups)
        committed = []
        for version in ("6.1", "6.12"):
            try:
                committed.append(compare.series_of(version))
            except Y2038Error:
                pass
        cls.one = max(committed, key=lambda d: len(json.loads((d / "results.json").read_text())["patches"]))
        cls.results = json.loads((cls.one / "results.json").read_text())
        cls.record = SeriesResults.read(cls.one)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_a_series_against_itself_keeps_everything(self):
        report = compare.compare(self.one, self.one)
        total = sum(p["sites"] for p in self.results["patches"])
        self.assertEqual(report["totals"], {"gone_upstream": 0, "moved": 0, "kept": total, "new": 0})
        self.assertEqual({p["status"] for p in report["patches"]}, {"="})

    def test_removed_patch_and_changed_site_are_told_apart(self):
        new = self.tmp / "changed"
        shutil.copytree(self.one, new)
        results = json.loads((new / "results.json").read_text())
        gone = results["patches"].pop(0)
        changed = results["patches"][0]
        rule, files = next(iter(changed["site_lines"].items()))
        relpath = next(iter(files))
        files[relpath][0] += " /* changed upstream */"
        (new / "results.json").write_text(json.dumps(results))
        report = compare.compare(self.one, new)
        self.assertEqual(report["totals"]["gone_upstream"], gone["sites"] + 1)
        self.assertEqual(report["totals"]["new"], 1)
        self.assertEqual(report["rules"][rule]["new"], 1)
        statuses = {p["old"]: p["status"] for p in report["patches"]}
        self.assertEqual(statuses[gone["name"]], "<")
        self.assertEqual(statuses[changed["name"]], "=")  # same diff: only the recorded site differs
        text = compare.text(report)
        self.assertIn(f"{gone['sites'] + 1} sites gone upstream", text)
        self.assertIn("/* changed upstream */", text)

    def test_what_happened_to_a_gone_site(self):
        """fates(): the newer tree has the proposed lines (fixed as proposed),
        the file without them (changed otherwise), no file (removed), or the
        same site is new in another file (moved: neither gone nor new)."""
        patch = next(p for p in self.results["patches"] if len(p["files"]) >= 1)
        rule, files = next(iter(patch["site_lines"].items()))
        relpath, lines = next(iter(files.items()))
        site = (rule, relpath, lines[0])
        proposed = compare.added_lines(self.one / patch["name"], relpath)
        self.assertTrue(proposed)
        newer = self.tmp / "newer"
        for content, fate in (("\n".join(proposed) + "\n", "fixed as proposed"), ("int x;\n", "changed otherwise"),
                              (None, "removed (the file is gone)")):
            shutil.rmtree(newer, ignore_errors=True)
            if content is not None:
                (newer / relpath).parent.mkdir(parents=True)
                (newer / relpath).write_text(content)
            newer.mkdir(exist_ok=True)
            gone, added = Counter({site: 1}), Counter()
            self.assertEqual(compare.fates(self.one, self.record, gone, added, newer), {site: fate})
        moved_to = (rule, "drivers/elsewhere/" + Path(relpath).name, lines[0])
        gone, added = Counter({site: 1}), Counter({moved_to: 1})
        self.assertEqual(compare.fates(self.one, self.record, gone, added, newer),
                         {site: f"moved to {moved_to[1]}"})
        self.assertEqual((sum(gone.values()), sum(added.values())), (0, 0))

    def test_unknown_series_is_a_clear_error(self):
        with self.assertRaisesRegex(Y2038Error, "neither a series directory nor a version"):
            compare.series_of("9.9")

    def test_committed_newer_review_carries_todays_comparison(self):
        try:
            new = compare.series_of("6.12")
        except Y2038Error:
            self.skipTest("no 6.12 series committed")
        proc = run_cli("compare", "6.1", "6.12", "--no-write", check=True)
        report = compare.compare(self.old, new)
        self.assertIn(compare.summary_line(report), proc.stdout)
        section = covers.compare_section(compare.summary(report))
        self.assertIn(section, (new / "REVIEW.md").read_text(), "run `make compare` and commit")
        # the whole series' comparison is no posting's business
        for cover in new.glob("*/0000-cover-letter.patch"):
            self.assertNotIn("Comparison with the series", cover.read_text(), cover)
        self.assertEqual(json.loads((new / "results.json").read_text())["compare"], compare.summary(report).to_json())

    def test_without_the_newer_tree_the_recorded_fates_stand(self):
        """A machine without the newer tree compares as one with it did:
        the fates recorded in the newer series' results.json."""
        try:
            new = compare.series_of("6.12")
        except Y2038Error:
            self.skipTest("no 6.12 series committed")
        with mock.patch.object(compare, "source_of", return_value=None):
            report = compare.compare(self.old, new)
        self.assertNotIn("not checked", compare.text(report))
        self.assertEqual(compare.summary(report), SeriesResults.read(new).compare)

    def test_a_gone_site_without_tree_or_record_is_not_checked(self):
        patch = self.record.patches[0]
        rule, files = next(iter(patch.site_lines.items()))
        relpath, lines = next(iter(files.items()))
        site = (rule, relpath, lines[0])
        self.assertEqual(compare.fates(self.one, self.record, Counter({site: 1}), Counter(), None),
                         {site: "not checked (the newer tree is not here)"})
        self.assertEqual(compare.fates(self.one, self.record, Counter({site: 1}), Counter(), None,
                                       {site: "fixed as proposed"}), {site: "fixed as proposed"})
