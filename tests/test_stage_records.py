# SPDX-License-Identifier: GPL-2.0-only
"""The apply stage's matches.json and the hazards stage's hazards.json as
records (y2038lib/records.py): read and written again byte for byte, made
by the apply stage's campaign run (on recorded spatch output), and a file
made by another toolkit is an error that names the stage to run again."""
import copy
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

import helpers
helpers.put_tools_on_path()
from recorded import recorded
from test_units_stages import RULE
from y2038lib.common import Y2038Error, write_json
from y2038lib.engine import apply
from y2038lib.records import CampaignMatches, Hazards, Matches

FILE = "kernel/time/a.c"
RULE_RUN = {"name": "core_declarations", "path": "cocci/timespec64-core/core_declarations.cocci",
            "subject": "time: use timespec64 in the timekeeping core", "candidates": 2, "seconds": 0.4,
            "files": {FILE: 2}, "sites": 2, "timeouts": {}, "failed": {"kernel/time/b.c": "parse error"},
            "unparsed": {FILE: 3}, "left": {FILE: [f"{FILE}:225: left as it is, convert by hand: struct timespec now;"]},
            "removed": {FILE: ["struct timespec wall_to_monotonic;", "static struct timespec raw_time;"]},
            "listed": {FILE: ["getnstimeofday"]}}
# only a listing rule that changed something has "listed"
NOTHING_FOUND = {k: v for k, v in RULE_RUN.items() if k != "listed"} | {
    "files": {}, "sites": 0, "removed": {}, "left": {}, "failed": {}, "unparsed": {}}
# as the apply stage writes it: a campaign that changed a file, one that found nothing
MATCHES = {"version": "3.10", "baseline": "c" * 40, "spatch": "spatch version 1.1.1", "final": "f" * 40,
           "campaigns": [{"name": "timespec64-core", "rules": [RULE_RUN], "files": [FILE], "sites": 2,
                          "unsettled": {}, "commit": "f" * 40},
                         {"name": "ktime-direct", "rules": [NOTHING_FOUND],
                          "files": [], "sites": 0, "unsettled": {}, "commit": None}],
           "idempotent": True, "idempotence_check": {"seconds": 8.2, "spatch_runs": 47},
           "spatch_runs": 147, "cache_hits": 54, "seconds": 48.9, "inputs": "d" * 64}
HAZARDS = {"version": "3.10", "baseline": "c" * 40, "seconds": 0.5,
           "rules": [{"rule": "cocci/y2038-hazards/seconds_truncation.cocci", "candidates": 14, "reports": 1}],
           "hazards": [{"file": FILE, "line": 15, "class": "y2038", "kind": "wallclock",
                        "code": "s32 now = ktime_get_real_seconds();",
                        "rule": "cocci/y2038-hazards/seconds_truncation.cocci",
                        "why": "seconds stored in a signed 32-bit (or 32-bit long) variable"}]}


class StageFiles(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="y2038-records-"))
        self.addCleanup(shutil.rmtree, self.scratch)

    def written(self, record, data) -> Path:
        """data as the stage writes it, in a directory of its own."""
        folder = Path(tempfile.mkdtemp(dir=self.scratch))
        write_json(folder / record.NAME, data)
        return folder

    def test_round_trip_byte_for_byte(self):
        for record, data in ((Matches, MATCHES), (Hazards, HAZARDS)):
            folder, again = self.written(record, data), Path(tempfile.mkdtemp(dir=self.scratch))
            record.read(folder).write(again)
            self.assertEqual((again / record.NAME).read_bytes(), (folder / record.NAME).read_bytes(), record.NAME)

    def test_fields_read_as_attributes(self):
        matches = Matches.read(self.written(Matches, MATCHES))
        self.assertEqual(matches.changed_files(), [FILE])
        self.assertEqual(matches.campaigns[0].rules[0].listed, {FILE: ["getnstimeofday"]})
        self.assertIsNone(matches.campaigns[1].rules[0].listed)
        self.assertIsNone(matches.campaigns[1].commit)
        hazard = Hazards.read(self.written(Hazards, HAZARDS)).hazards[0]
        self.assertEqual((hazard.cls, hazard.line, hazard.kind), ("y2038", 15, "wallclock"))

    def read_changed(self, record, data, change):
        data = copy.deepcopy(data)
        change(data)
        return record.read(self.written(record, data))

    def test_old_file_names_the_stage_to_run_again(self):
        with self.assertRaisesRegex(Y2038Error, r"RuleMatches without removed .* run `tools/y2038 apply` again"):
            self.read_changed(Matches, MATCHES, lambda d: d["campaigns"][0]["rules"][0].pop("removed"))
        with self.assertRaisesRegex(Y2038Error, r"CampaignMatches without commit .* run `tools/y2038 apply` again"):
            self.read_changed(Matches, MATCHES, lambda d: d["campaigns"][1].pop("commit"))
        with self.assertRaisesRegex(Y2038Error, r"Hazard without kind .* run `tools/y2038 hazards` again"):
            self.read_changed(Hazards, HAZARDS, lambda d: d["hazards"][0].pop("kind"))
        with self.assertRaisesRegex(Y2038Error, r"Hazard without class .* run `tools/y2038 hazards` again"):
            self.read_changed(Hazards, HAZARDS, lambda d: d["hazards"][0].pop("class"))
        with self.assertRaisesRegex(Y2038Error, r"Hazards without rules .* run `tools/y2038 hazards` again"):
            self.read_changed(Hazards, HAZARDS, lambda d: d.pop("rules"))

    def test_unknown_key_or_layout_is_an_error(self):
        with self.assertRaisesRegex(Y2038Error, r"matches.json: Matches with mood, unknown to this toolkit: "
                                                r"run `tools/y2038 apply` again"):
            self.read_changed(Matches, MATCHES, lambda d: d.update(mood="good"))
        with self.assertRaisesRegex(Y2038Error, r"hazards.json: layout 2, this toolkit reads 1: "
                                                r"run `tools/y2038 hazards` again"):
            self.read_changed(Hazards, HAZARDS, lambda d: d.update(schema=2))
        self.assertEqual(self.read_changed(Matches, MATCHES, lambda d: d.update(schema=1)).final, "f" * 40)

    def test_a_missing_file_names_the_stage_that_makes_it(self):
        with self.assertRaisesRegex(Y2038Error, r"matches.json is missing: run `tools/y2038 apply` first"):
            Matches.read(self.scratch)
        with self.assertRaisesRegex(Y2038Error, r"hazards.json is missing: run `tools/y2038 hazards` first"):
            Hazards.read(self.scratch)


BEFORE = "long us = ktime_to_us(ktime_sub(end, start));\n"
AFTER = "long us = ktime_us_delta(end, start);\n"


def converting_spatch(cmd, how):
    """spatch --file-groups converting a.c (two lines it could not parse)."""
    (Path(how["cwd"]) / "a.c.cocci_res").write_text(AFTER)
    return 0, "HANDLING: a.c\nbadcount: 2\n"


class CampaignRun(unittest.TestCase):
    """run_campaign on recorded spatch output makes the record matches.json holds."""

    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="y2038-records-"))
        self.addCleanup(shutil.rmtree, self.scratch)
        (self.scratch / "src").mkdir()
        (self.scratch / "src" / "a.c").write_text(BEFORE)
        os.environ["Y2038_SPATCH_CACHE"] = str(self.scratch / "cache")
        self.addCleanup(os.environ.pop, "Y2038_SPATCH_CACHE")

    def test_a_campaign_run_is_a_record(self):
        tree = SimpleNamespace(src=self.scratch / "src", baseline="0" * 40)
        tokens = RULE.tokens()  # asks spatch once, before the recorded one answers
        with recorded((["spatch", "--version"], (0, "spatch version 1.1.1\n")), (["spatch"], converting_spatch)):
            applier = apply.Applier(tree, jobs=1, timeout=5)
            applier.token_files = {token: {"a.c"} for token in tokens}
            entry, changed = apply.run_campaign(applier, "c", [RULE])
        self.assertEqual(changed, {"a.c"})
        self.assertIsInstance(entry, CampaignMatches)
        self.assertEqual((entry.files, entry.sites, entry.commit), (["a.c"], 1, None))
        rule = entry.rules[0]
        self.assertEqual((rule.path, rule.files, rule.removed, rule.unparsed),
                         (RULE.relpath, {"a.c": 1}, {"a.c": [BEFORE.strip()]}, {"a.c": 2}))
        data = json.loads(json.dumps(entry.to_json()))
        self.assertEqual(CampaignMatches.from_json(data, "matches.json"), entry)


if __name__ == "__main__":
    unittest.main()
