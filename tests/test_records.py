# SPDX-License-Identifier: GPL-2.0-only
"""The stage records and the cover letters made from them, on the committed
series, without spatch, make or QEMU: results.json read and written again
is byte for byte the same, every committed cover letter renders again from
its results.json alone, and a file made by another toolkit is an error that
names the stage to run again."""
import copy
import json
import tempfile
import unittest
from pathlib import Path

from helpers import REPO, run_cli
from y2038lib.common import Y2038Error
from y2038lib.posting import covers
from y2038lib.records import BUILD_PATCH_KEYS, CompareSummary, SeriesResults

COMMITTED = sorted(p for p in (REPO / "generated-patches").glob("linux-*") if (p / "results.json").exists())


class Records(unittest.TestCase):
    def test_results_round_trip_byte_for_byte(self):
        self.assertTrue(COMMITTED, "no committed series")
        for series in COMMITTED:
            with tempfile.TemporaryDirectory() as tmp:
                SeriesResults.read(series).write(Path(tmp))
                self.assertEqual((Path(tmp) / "results.json").read_bytes(),
                                 (series / "results.json").read_bytes(), series.name)

    def read_changed(self, change) -> SeriesResults:
        """The committed 6.1 results.json, changed by change(data), read back."""
        data = json.loads((COMMITTED[0] / "results.json").read_text())
        change(data)
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "results.json").write_text(json.dumps(data))
            return SeriesResults.read(Path(tmp))

    def test_missing_key_names_the_stage_to_run_again(self):
        with self.assertRaisesRegex(Y2038Error, r"Patch without site_lines .* run `tools/y2038 series` again"):
            self.read_changed(lambda d: d["patches"][0].pop("site_lines"))
        with self.assertRaisesRegex(Y2038Error, r"BuildSummary without verified .* run `tools/y2038 build` again"):
            self.read_changed(lambda d: d["build"].pop("verified"))
        with self.assertRaisesRegex(Y2038Error, r"BootResult without verdict .* run `tools/y2038 boot` again"):
            self.read_changed(lambda d: d["boot"]["x86_64"].pop("verdict"))

    def test_an_old_comparison_is_an_error_except_to_compare_itself(self):
        def old_compare(data):
            data["compare"] = {"old": {"dir": "linux-6.0", "version": "6.0"}, "totals": {}, "rules": {}}
        with self.assertRaisesRegex(Y2038Error, r"CompareSummary without fates.* run `tools/y2038 compare` again"):
            self.read_changed(old_compare)
        data = json.loads((COMMITTED[0] / "results.json").read_text())
        old_compare(data)
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "results.json").write_text(json.dumps(data))
            self.assertIsNone(SeriesResults.read(Path(tmp), redoing="compare").compare)

    def test_unknown_key_or_layout_is_an_error(self):
        with self.assertRaisesRegex(Y2038Error, r"Posting with mood, unknown to this toolkit"):
            self.read_changed(lambda d: d["postings"][0].update(mood="good"))
        with self.assertRaisesRegex(Y2038Error, r"layout 2, this toolkit reads 1: run `tools/y2038 series` again"):
            self.read_changed(lambda d: d.update(schema=2))
        self.assertEqual(self.read_changed(lambda d: d.update(schema=1)).version, COMMITTED[0].name[len("linux-"):])

    def test_missing_results_say_which_stage_makes_them(self):
        proc = run_cli("report", "--out", str(REPO / "no-such-series"))
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("results.json is missing: run `tools/y2038 series` first", proc.stderr)


class CoverLetters(unittest.TestCase):
    def test_committed_cover_letters_render_from_results(self):
        for series in COMMITTED:
            results = SeriesResults.read(series)
            for posting in results.postings:
                cover = series / posting.dir / covers.COVER_NAME
                text = cover.read_text()
                self.assertEqual(covers.render(text, results, posting, cover), text, cover)

    def test_stages_not_run_leave_their_placeholders(self):
        series = COMMITTED[0]
        results = SeriesResults.read(series)
        stripped = copy.deepcopy(results)
        stripped.build = stripped.boot = stripped.boot_pristine = stripped.compare = None
        for patch in stripped.patches:
            for key in BUILD_PATCH_KEYS:
                setattr(patch, key, None)
        posting = stripped.postings[0]
        cover = series / posting.dir / covers.COVER_NAME
        text = covers.render(cover.read_text(), stripped, posting, cover)
        self.assertIn(f"\n\n{covers.BUILD_PLACEHOLDER}\n\n{covers.BOOT_PLACEHOLDER}\n\n", text)
        self.assertNotIn("Build verification (", text)
        # and back: the committed letter again, from the committed results
        self.assertEqual(covers.render(text, results, posting, cover), cover.read_text())

    def test_git_format_patch_placeholders_are_filled(self):
        series = COMMITTED[0]
        results = SeriesResults.read(series)
        posting = results.postings[0]
        cover = series / posting.dir / covers.COVER_NAME
        text = cover.read_text()
        head, tail = covers.frame(text, len(posting.patches), cover)
        subject = covers.subject(results, posting, results.patches_of(posting))
        skeleton = head.replace(subject, covers.SUBJECT_HERE) + covers.BLURB_HERE + tail
        self.assertIn(covers.SUBJECT_HERE, skeleton)
        self.assertEqual(covers.render(skeleton, results, posting, cover), text)

    def test_a_letter_without_git_frame_is_an_error(self):
        results = SeriesResults.read(COMMITTED[0])
        posting = results.postings[0]
        with self.assertRaisesRegex(Y2038Error, "not a cover letter of git format-patch"):
            covers.render("Subject: x\n\nno shortlog\n", results, posting, Path("cover"))

    def test_compare_paragraph_from_the_record(self):
        summary = CompareSummary(old={"dir": "linux-6.1.1", "version": "6.1.1"},
                                 totals={"gone_upstream": 2, "moved": 1, "kept": 3, "new": 4},
                                 rules={"cocci/a/b.cocci": {"gone_upstream": 2, "kept": 3, "new": 4}},
                                 fates={"changed otherwise": 2}, patches={"=": 1, ">": 2},
                                 gone_sites=[["cocci/a/b.cocci", "f.c", "x = 1;", "changed otherwise"]] * 2)
        self.assertEqual(covers.compare_section(summary),
                         "Comparison with the series for Linux 6.1.1 (tools/y2038 compare):\n"
                         "  2 sites gone upstream (2 changed otherwise), 1 moved, 3 kept, 4 new; "
                         "patches: 1 same, 0 changed, 0 only in 6.1.1, 2 new\n"
                         "  b: 2 gone upstream, 3 kept, 4 new")


class ExitStatus(unittest.TestCase):
    def test_help_documents_the_exit_status(self):
        proc = run_cli("--help", check=True)
        for line in ("0  done", "1  failed", "2  usage", "3  partial"):
            self.assertIn(line, proc.stdout)

    def test_usage_error_is_2(self):
        self.assertEqual(run_cli("no-such-command").returncode, 2)


if __name__ == "__main__":
    unittest.main()
