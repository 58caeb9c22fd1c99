# SPDX-License-Identifier: GPL-2.0-only
"""A cover letter's subject prefix and its list of patches: a posting of
several subject prefixes is named by what they share, or by its tree (the
third review of issue 27: "sched: ..." for a sched/debug and a timers
patch), and a patch's prefix is listed without Input's " -" separator."""
import types
import unittest

import helpers
helpers.put_tools_on_path()
from y2038lib.posting import covers, posting_rules as pr
from y2038lib.records import Patch, Posting

TIP = pr.KERNEL_ORG + "tip/tip.git"
INPUT = pr.KERNEL_ORG + "dtor/input.git"


def patch(prefix: str, campaign: str = "ktime-direct") -> Patch:
    return Patch(name=f"{prefix}.patch", campaign=campaign, subsystem="S", tree=TIP, files=[f"{prefix}.c"],
                 rules=[], sites=1, rewrites=2, prefix=prefix, recipients=[], commit="0" * 40, site_lines={},
                 checkpatch={"errors": [], "warnings": []})


def posting(tree: str, patches) -> Posting:
    return Posting(dir="d", tree=tree, prefix=patches[0].prefix, part=1, of=1, route=[], to=[], cc=[],
                   patches=[p.name for p in patches])


RESULTS = types.SimpleNamespace(campaigns=["ktime-scalar", "ktime-direct"], version="6.12.118")


class CoverPrefix(unittest.TestCase):
    def test_one_prefix_is_kept_whole(self):
        self.assertEqual(covers.cover_prefix(["hwmon: (bt1-pvt)"] * 2, ""), "hwmon: (bt1-pvt)")
        self.assertEqual(covers.cover_prefix(["Input: uinput -"], INPUT), "Input: uinput -")

    def test_the_shared_leading_part_names_several(self):
        self.assertEqual(covers.cover_prefix(["drm/vmwgfx", "drm/panel: edp", "drm/sti"], ""), "drm")
        self.assertEqual(covers.cover_prefix(["drm/msm/dpu", "drm/msm"], ""), "drm/msm")
        self.assertEqual(covers.cover_prefix(["scsi: lpfc", "scsi: ufs: core", "scsi: ufs: core"], ""), "scsi")
        self.assertEqual(covers.cover_prefix(["scsi: ufs: core", "scsi: ufs: qcom"], ""), "scsi: ufs")
        self.assertEqual(covers.cover_prefix(["Input", "Input: walkera0701 -", "Input: uinput -"], INPUT), "Input")
        # a shared start of a word is not a shared part
        self.assertEqual(covers.cover_prefix(["net: stmmac", "netfilter"], pr.KERNEL_ORG + "netdev/net.git"),
                         "net")

    def test_nothing_shared_names_the_tree(self):
        self.assertEqual(covers.cover_prefix(["sched/debug", "timers"], TIP), "tip")
        self.assertEqual(covers.cover_prefix(["cpufreq: speedstep-lib", "thermal: sysfs", "PM: sleep"],
                                             pr.KERNEL_ORG + "rafael/linux-pm.git"), "linux-pm")
        self.assertEqual(covers.cover_prefix(["s390/a", "vfio"], pr.KERNEL_ORG + "s390/linux.git"), "s390")
        self.assertEqual(covers.cover_prefix(["sched/debug", "timers"], ""), "")

    def test_the_cover_subject_of_a_tip_posting_of_two_subsystems(self):
        patches = [patch("sched/debug"), patch("timers")]
        self.assertEqual(covers.subject(RESULTS, posting(TIP, patches), patches),
                         "tip: Use the direct ktime accessors")

    def test_the_cover_subject_of_an_input_posting(self):
        patches = [patch("Input", "ktime-scalar"), patch("Input: walkera0701 -")]
        self.assertEqual(covers.subject(RESULTS, posting(INPUT, patches), patches),
                         "Input: use the scalar ktime_t directly; use the direct ktime accessors")


class ChangesPerPatch(unittest.TestCase):
    def test_an_input_prefix_is_listed_without_its_separator(self):
        patches = [patch("Input: walkera0701 -"), patch("hwmon: (bt1-pvt)")]
        lines = covers.intro(RESULTS, posting(INPUT, patches), patches)
        self.assertIn("    2  Input: walkera0701  (ktime-direct)", lines)
        self.assertIn("    2  hwmon: (bt1-pvt)  (ktime-direct)", lines)
        self.assertFalse([l for l in lines if " -  (" in l], lines)


if __name__ == "__main__":
    unittest.main()
