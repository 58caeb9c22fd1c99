# SPDX-License-Identifier: GPL-2.0-only
"""hazard_decisions: the decisions table parsed (a malformed line named),
matched to reports by file and line text, the undecided ones listed, the
precision and the recall against history computed; the committed table
decides every wall-clock and unknown report of both committed series."""
import sys
import tempfile
import unittest
from pathlib import Path

import helpers
from y2038lib.common import Y2038Error, work_dir
from y2038lib.posting import hazard_decisions as hd
from y2038lib.posting.hazards import LINE, hazard_entry, hazards_text
from y2038lib.records import Hazard, Hazards


def as_record(report: dict) -> Hazards:
    """A report parsed back from its text, as the hazards stage's record."""
    return Hazards(version=report["version"], baseline="0" * 40, rules=[], seconds=0.0, hazards=[
        Hazard(file=h["file"], line=h["line"], cls=h["class"], why=h["why"], kind=h["kind"],
               rule="cocci/y2038-hazards/seconds_truncation.cocci", code=h.get("code", ""))
        for h in report["hazards"]])

TABLE = ("# a comment\n\n"
         "net/a.c\tnow = ktime_get_real_seconds();\twallclock\tbug\ts32 now compared with a time64_t\n"
         "fs/b.c\t(u32)ktime_get_real_seconds()\twallclock\tformat\t__le32 on disk\n")
SERIES = {"6.1.192": "6.1", "6.12.118": "6.12"}


def hazard(file, line, cls, kind, code):
    return {"file": file, "line": line, "class": cls, "why": "w", "kind": kind, "code": code}


REPORT = {"version": "6.1.192", "hazards": [
    hazard("net/a.c", 127, "y2038", "wallclock", "now = ktime_get_real_seconds();"),
    hazard("fs/b.c", 9, "y2106", "wallclock", "sb->t = (u32)ktime_get_real_seconds();"),
    hazard("fs/c.c", 3, "y2106", "wallclock", "x = (u32)ts.tv_sec;"),
    hazard("drivers/d.c", 5, "y2038", "abi", "time32[0] = ts.tv_sec;"),
]}
RECALL = ("# Recall\n\nComputed on 6.1.192 and 6.12.118 (Debian's) by tools/hazard_recall.py\n\n"
          "| file | function | old line | function lines | new line | flagged | how | old code | new code |\n"
          "|---|---|---|---|---|---|---|---|---|\n"
          "| net/a.c | verify | 127 | 100-140 | - | yes | removed | `now = x;` | - |\n"
          "| fs/z.c | SYSCALL_DEFINE1(time) | 10 | 5-20 | 12 | no | changed | `u32 t = ts.tv_sec;` | `time64_t t;` |\n")


class Table(unittest.TestCase):
    def test_parsed_with_blanks_squeezed(self):
        decisions = hd.parse_decisions(TABLE.replace("now = ", "now  =   "))
        self.assertEqual([d.decision for d in decisions], ["bug", "format"])
        self.assertEqual(decisions[0].match, "now = ktime_get_real_seconds();")

    def test_malformed_line_is_an_error_naming_it(self):
        for bad, says in (("net/a.c\tnow\twallclock\tbug\n", "t.tsv:1: expected 5"),
                          ("net/a.c\tnow\twallclock\tmaybe\twhy\n", "t.tsv:1: decision 'maybe'"),
                          ("# c\nnet/a.c\tnow\tclock\tbug\twhy\n", "t.tsv:2: kind 'clock'"),
                          ("net/a.c\t \twallclock\tbug\twhy\n", "t.tsv:1: expected 5")):
            with self.assertRaises(Y2038Error) as caught:
                hd.parse_decisions(bad, "t.tsv")
            self.assertIn(says, str(caught.exception))

    def test_committed_table_parses(self):
        self.assertTrue(hd.load_decisions())


class Matching(unittest.TestCase):
    def test_by_file_and_line_text_else_undecided(self):
        decided = dict((h["file"], d) for h, d in hd.decide(REPORT["hazards"], hd.parse_decisions(TABLE)))
        self.assertEqual(decided["net/a.c"].decision, "bug")
        self.assertEqual(decided["fs/b.c"].decision, "format")
        self.assertIsNone(decided["fs/c.c"])  # same code shape, another file: not decided
        self.assertIsNone(decided["drivers/d.c"])

    def test_text_lists_decided_and_undecided(self):
        lines = hd.decisions_text(REPORT["hazards"], hd.parse_decisions(TABLE))
        self.assertEqual(lines[0], "Decisions (cocci/y2038-hazards/decisions.tsv): 2 decided, 2 not")
        self.assertIn("    net/a.c:127: s32 now compared with a time64_t", lines)
        self.assertIn("    fs/c.c:3: not decided (wallclock: read it)", lines)
        self.assertIn("    the others, listed above, kind as triaged: abi 1", lines)

    def test_precision(self):
        decided = hd.decide(REPORT["hazards"], hd.parse_decisions(TABLE))
        self.assertEqual(hd.precision_line(decided), "precision: 1 real bug in 3 wall-clock reports (33%); "
                                                     "1 in 2 signed reports (50%); 1 in 4 reports (25%)")
        self.assertIn("0 real bugs in 0 wall-clock reports (n/a)", hd.precision_line([]))

    def test_entry_carries_its_line_code(self):
        m = LINE.match("net/a.c:2:1-4: y2038: seconds stored")
        entry = hazard_entry(m, "int f(void)\n{\tnow  =  ktime_get_real_seconds();\n", "r.cocci")
        self.assertEqual(entry.code, "{ now = ktime_get_real_seconds();")
        self.assertEqual(entry.kind, "wallclock")


class Recall(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = Path(self.folder.name) / "hazard-recall.md"
        self.path.write_text(RECALL)

    def tearDown(self):
        self.folder.cleanup()

    def test_computed_on_the_older_tree_committed_otherwise(self):
        recall = hd.read_recall(self.path)
        self.assertEqual([row["function"] for row in recall[2]], ["verify", "SYSCALL_DEFINE1(time)"])
        self.assertEqual(hd.recall_line(REPORT, recall), "recall against 6.1.192 -> 6.12.118 history: 1 of 2 (50%)")
        newer = hd.recall_line(dict(REPORT, version="6.12.118"), recall)
        self.assertTrue(newer.startswith("recall against 6.1.192 -> 6.12.118 history: 1 of 2 (50%), measured on "
                                         "the 6.1.192 report"), newer)
        self.assertIn("not measured", hd.recall_line(REPORT, None))

    def test_a_list_without_its_trees_is_an_error(self):
        self.path.write_text(RECALL.replace("Computed on", "Made from"))
        with self.assertRaises(Y2038Error):
            hd.read_recall(self.path)

    def test_committed_list_is_read(self):
        old, new, rows = hd.read_recall()
        self.assertEqual((old, new), ("6.1.192", "6.12.118"))
        self.assertIn("gss_verify_mic_v1", [row["function"] for row in rows])


OLD_C = """static int check(struct ctx *ctx)
{
\ts32 now;

\tnow = ktime_get_real_seconds();
\treturn now > ctx->endtime;
}

static void stamp(struct rec *r, struct timespec64 *ts)
{
\tr->t = (u32)ts->tv_sec;
}
"""


class History(unittest.TestCase):
    """tools/hazard_recall.py on two tiny trees: the local widened is a place,
    the cast kept is not."""

    def test_widened_local_found_kept_cast_not(self):
        sys.path.insert(0, str(helpers.REPO / "tools"))
        import hazard_recall
        with tempfile.TemporaryDirectory() as folder:
            old, new = Path(folder, "old"), Path(folder, "new")
            for root, code in ((old, OLD_C), (new, OLD_C.replace("s32 now;", "time64_t now;"))):
                (root / "net").mkdir(parents=True)
                (root / "net" / "a.c").write_text(code)
            seen = {}
            places = hazard_recall.widened_places(old, new, seen)
        self.assertEqual([(p["function"], p["old_line"], p["new_line"], p["how"]) for p in places],
                         [("check", 5, "3", "changed")])
        self.assertEqual(seen["shapes"], 2)


class CommittedSeries(unittest.TestCase):
    """The committed reports: their text stays as it was, with the decision
    lines after it; every wall-clock and unknown report decided."""

    def committed(self, version):
        text = (helpers.REPO / "generated-patches" / f"linux-{version}" / "y2038-hazards.txt").read_text()
        return text.split("\nDecisions ")[0].rstrip("\n") + "\n"

    def test_existing_sections_unchanged(self):
        for version in SERIES:
            text = self.committed(version)
            report = hd.parse_report_text(text)
            self.assertEqual(report["version"], version)
            out = hazards_text(as_record(report))
            self.assertTrue(out.startswith(text), version)
            self.assertIn("\nprecision: 0 real bugs in ", out)  # without the tree's code nothing is matched

    def test_every_wallclock_and_unknown_report_decided(self):
        decisions = hd.load_decisions()
        for version, series in SERIES.items():
            tree = work_dir() / f"linux-source-{series}" / "unpacked" / f"linux-source-{series}"
            if not tree.is_dir():
                self.skipTest(f"{tree} not unpacked")
            report = hd.parse_report_text(self.committed(version), tree)
            open_ = [h for h, d in hd.decide(report["hazards"], decisions)
                     if not d and h["kind"] in ("wallclock", "unknown")]
            self.assertEqual(open_, [], version)
            if version == "6.1.192":
                self.assertIn("precision: 1 real bug in 13 wall-clock reports", hazards_text(as_record(report)))
                self.assertIn("recall against 6.1.192 -> 6.12.118 history: ", hazards_text(as_record(report)))


if __name__ == "__main__":
    unittest.main()
