# SPDX-License-Identifier: GPL-2.0-only
"""The whole-driver pass (driver_types) on a driver written here
(tests/fixtures/whole-driver): a struct's timespec fields declared in its
header, filled and combined in two .c files with locals and a parameter,
convert together with the prototype and a printed tv_sec's format; a
timeval file-scope variable converts with its tv_usec; a timeval and a
timespec in ioctl structures keep their layout (struct __kernel_old_timeval
and __kernel_old_timespec, filled from a timespec64); a field passed to a
kernel function stays, listed with its line; and the result is what convert
writes."""
import json
import shutil
import tempfile
import unittest
from pathlib import Path

from helpers import REPO, run_cli
from y2038lib.outoftree import driver_types
FIXTURE = REPO / "tests" / "fixtures" / "whole-driver"


class WholeDriver(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.texts = {p.name: p.read_text() for p in sorted(FIXTURE.glob("*.[ch]"))}
        cls.new, cls.converted, cls.kept = driver_types.convert(cls.texts)

    def test_fields_locals_and_parameters_convert_together(self):
        self.assertIn("field last, field start, local delta, local now, param when", self.converted)
        self.assertIn("\tstruct timespec64 last;\n\tstruct timespec64 start;", self.new["drv.h"])
        self.assertIn("void drv_stamp(struct drv_state *s, struct timespec64 *when);", self.new["drv.h"])
        core = self.new["drv_core.c"]
        for line in ("void drv_stamp(struct drv_state *s, struct timespec64 *when)",
                     "struct timespec64 now, delta;", "ktime_get_real_ts64(&now);",
                     "delta = timespec64_sub(now, s->start);",
                     'pr_info("tick %lld.%09ld\\n", delta.tv_sec, delta.tv_nsec);',
                     "s->x = timespec64_to_ns(&s->last) / 1000;"):
            self.assertIn(line, core)
        init = self.new["drv_init.c"]
        for line in ("ktime_get_ts64(&s->start);", "ktime_get_coarse_real_ts64(&s->last);",
                     "static struct timespec64 drv_loaded;", "ktime_get_real_ts64(&drv_loaded);",
                     'pr_info("loaded at %lld.%06lu\\n", drv_loaded.tv_sec, drv_loaded.tv_nsec / NSEC_PER_USEC);'):
            self.assertIn(line, init)

    def test_a_timeval_that_reaches_user_space_keeps_its_size(self):
        self.assertIn("field when (an ABI: kept at its size, filled from a timespec64)", self.converted)
        self.assertIn("\tstruct __kernel_old_timeval when;", self.new["drv.h"])
        self.assertIn("\tstruct timespec64 now64;\n\tstruct drv_ioc ioc;\n\n\tktime_get_real_ts64(&now64);\n"
                      "\tioc.when.tv_sec = now64.tv_sec;\n\tioc.when.tv_usec = now64.tv_nsec / NSEC_PER_USEC;\n",
                      self.new["drv_core.c"])

    def test_a_timespec_that_reaches_user_space_keeps_its_layout(self):
        self.assertIn("field at (an ABI: kept at its size, filled from a timespec64)", self.converted)
        self.assertIn("\tstruct __kernel_old_timespec at;", self.new["drv.h"])
        self.assertIn("\t\tstruct timespec64 now64;\n\t\tstruct drv_info info;\n\n\t\tktime_get_real_ts64(&now64);\n"
                      "\t\tinfo.at.tv_sec = now64.tv_sec;\n\t\tinfo.at.tv_nsec = now64.tv_nsec;\n", self.new["drv_core.c"])

    def test_what_has_no_safe_form_stays_and_is_listed(self):
        whys = [k["why"] for k in self.kept]
        self.assertIn("drv_core.c:37: passed to kernel_fn() [field stamp: kept as struct timespec]", whys)
        self.assertIn("\tstruct timespec stamp;", self.new["drv.h"])

    def test_ops_callbacks_move_to_their_timespec64_members(self):
        self.assertIn("local later, local now, param ts", self.converted)
        ptp = self.new["drv_ptp.c"]
        for line in ("static int drv_ptp_gettime(struct ptp_clock_info *ptp, struct timespec64 *ts)",
                     "ktime_get_real_ts64(ts);", "struct timespec64 now, later = ns_to_timespec64(5);",
                     "info->gettime64 = drv_ptp_gettime;", "info->gettime64(info, &now);",
                     "now = timespec64_add(now, later);"):
            self.assertIn(line, ptp)

    def test_interfaces_and_mixed_declarations_stay(self):
        whys = [k["why"] for k in self.kept]
        self.assertIn("drv_ptp.c:22: drv_export_seconds() is exported and not called here: its type is other "
                      "modules' interface [param a: kept as struct timeval]", whys)
        self.assertIn("int drv_export_seconds(struct timeval a)", self.new["drv_ptp.c"])
        self.assertIn("struct timespec one, two[2];", self.new["drv_ptp.c"])

    def test_an_exported_helper_called_here_changes_with_its_callers(self):
        self.assertIn("local t1, local t2, param a, param b (exported: modules outside the directory that call "
                      "drv_gap_ms() must change with it)", self.converted)
        ptp = self.new["drv_ptp.c"]
        for line in ("int drv_gap_ms(struct timespec64 a, struct timespec64 b)",
                     "(b.tv_nsec / NSEC_PER_USEC - a.tv_nsec / NSEC_PER_USEC) / 1000;",
                     "struct timespec64 t1, t2;", "ktime_get_real_ts64(&t2);"):
            self.assertIn(line, ptp)

    def test_microseconds_written_into_a_timeval_stay_exact(self):
        self.assertIn("global drv_blit_time", self.converted)
        self.assertIn("local deadline", self.converted)
        debug = self.new["drv_debug.c"]
        for line in ("struct timespec64 drv_blit_time;", "jiffies_to_timespec64(jiffies, &drv_blit_time);",
                     "struct timespec64 now;\n\n\t\tjiffies_to_timespec64(jiffies, &now);",
                     "drv_blit_time.tv_nsec = (now.tv_nsec / NSEC_PER_USEC - drv_blit_time.tv_nsec / "
                     "NSEC_PER_USEC) * NSEC_PER_USEC;",
                     '(int)(drv_blit_time.tv_nsec / NSEC_PER_USEC));',
                     "deadline.tv_nsec = (usec % 1000000) * NSEC_PER_USEC;",
                     "return deadline.tv_sec * 1000 + deadline.tv_nsec / NSEC_PER_MSEC;",
                     "drv_blit_time.tv_nsec = 0;", "drv_blit_time.tv_nsec += 5 * NSEC_PER_USEC;"):
            self.assertIn(line, debug)

    def test_a_range_that_forbids_a_line_keeps_its_whole_group(self):
        new, converted, kept = driver_types.convert(self.texts, lambda relpath, line, text: relpath != "drv_init.c")
        # drv_init.c fills s->start: the whole drv_state group stays; the ioctl's does not touch drv_init.c
        self.assertEqual(sorted(converted), ["field at (an ABI: kept at its size, filled from a timespec64)",
                                             "field when (an ABI: kept at its size, filled from a timespec64)",
                                             "global drv_blit_time", "local deadline",
                                             "local later, local now, param ts", "local now",
                                             "local t1, local t2, param a, param b (exported: modules outside the "
                                             "directory that call drv_gap_ms() must change with it)"])
        self.assertIn("\tstruct timespec last;\n\tstruct timespec start;", new["drv.h"])
        # and a range before 5.1 (no __kernel_old_timeval) keeps the ABI fields too
        new, converted, kept = driver_types.convert(
            self.texts, lambda relpath, line, text: "__kernel_old_" not in text)
        self.assertNotIn("field when (an ABI: kept at its size, filled from a timespec64)", converted)
        self.assertNotIn("field at (an ABI: kept at its size, filled from a timespec64)", converted)

    def test_convert_writes_it(self):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-whole-"))
        self.addCleanup(shutil.rmtree, tmp)
        proc = run_cli("convert", str(FIXTURE), "--out", str(tmp / "out"), check=True)
        report = json.loads((tmp / "out" / "y2038-convert.json").read_text())
        self.assertEqual(len(report["whole_driver"]["converted"]), 9, proc.stdout)
        for name, text in self.new.items():
            written = (tmp / "out" / name).read_text()
            if name != "drv.h":  # the files that now call an accessor get its header
                self.assertIn('#include <linux/ktime.h>\n#include "drv.h"\n', written)
            self.assertEqual(written.replace("#include <linux/ktime.h>\n", ""), text)
        self.assertTrue(any("passed to kernel_fn()" in line for line in report["left"]))
        self.assertEqual(report["version_check"], [])
