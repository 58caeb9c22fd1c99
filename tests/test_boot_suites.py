# SPDX-License-Identifier: GPL-2.0-only
"""boot_suites: a patched kernel runs the KUnit suites and timer selftests
of the code its series touches, the pristine one runs them all, and the
kernel command line says so."""
import unittest

import helpers
helpers.put_tools_on_path()
from y2038lib.verification import boot_suites as bs
SELFTESTS = ("posix_timers", "nanosleep", "inconsistency-check")  # the arm initramfs's


class Plan(unittest.TestCase):
    def test_pristine_runs_everything(self):
        plan = bs.plan("pristine", [])
        self.assertEqual(plan["kunit"], ["rtc_lib_test_cases", "time_test_cases"])
        self.assertEqual(plan["selftests"], list(bs.QUICK_SELFTESTS))
        # every suite of ours by one glob, so the fix checks built in are left out
        self.assertEqual(bs.cmdline(plan, SELFTESTS), ["kunit.filter_glob=*_test_cases"])

    def test_driver_series_runs_only_the_init_checks(self):
        # the 6.1 series: drivers, and kernel/time/timer_list.c (the /proc printer)
        plan = bs.plan("patched", ["drivers/rtc/rtc-meson-vrtc.c", "kernel/time/timer_list.c", "block/blk-wbt.c"])
        self.assertEqual((plan["kunit"], plan["selftests"]), ([], []))
        self.assertIn("init's 2038 checks ran", plan["why"])
        self.assertEqual(bs.cmdline(plan, SELFTESTS), ["kunit.enable=0", "y2038_selftests=none"])

    def test_timekeeping_runs_the_selftests(self):
        plan = bs.plan("patched", ["kernel/time/timekeeping.c"])
        self.assertEqual((plan["kunit"], plan["selftests"]), ([], list(bs.QUICK_SELFTESTS)))
        self.assertIn("kernel/time/timekeeping.c", plan["why"])
        self.assertEqual(bs.cmdline(plan, SELFTESTS), ["kunit.enable=0"])

    def test_a_suite_runs_for_the_code_it_tests(self):
        plan = bs.plan("patched", ["drivers/rtc/lib.c"])
        self.assertEqual(plan["kunit"], ["rtc_lib_test_cases"])
        self.assertEqual(bs.cmdline(plan, SELFTESTS), ["kunit.filter_glob=rtc_lib_test_cases", "y2038_selftests=none"])
        both = bs.plan("patched", ["include/linux/time64.h"])
        self.assertEqual(both["kunit"], ["rtc_lib_test_cases", "time_test_cases"])
        self.assertEqual(both["selftests"], list(bs.QUICK_SELFTESTS))  # include/linux/time*.h


if __name__ == "__main__":
    unittest.main()
