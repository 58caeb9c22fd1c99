# SPDX-License-Identifier: GPL-2.0-only
"""A module's own compat wrappers over the time API, once --min-kernel makes
them dead (fixtures written here, in the shape of out-of-tree network
drivers that carry a kcompat.h): the feature flags the module's compat
header defines per kernel version decided for the range, the old-API side
of a PTP driver's gettime/gettime64 pair gone, and its struct timespec
locals converted through the timespec_to_timespec64() crossings; and what
must stay: a flag defined only for old kernels, one the module #undefs, one
tested before its header is included, a crossing of a value the driver
hands to a kernel function."""
import json
import shutil
import tempfile
import textwrap
import unittest
from pathlib import Path

from helpers import put_tools_on_path, run_cli

put_tools_on_path()
from y2038lib.outoftree import driver_types, feature_macros, kernel_versions as kv  # noqa: E402

KCOMPAT_H = textwrap.dedent("""\
    #ifndef _NIC_KCOMPAT_H_
    #define _NIC_KCOMPAT_H_

    #include <linux/version.h>

    #if LINUX_VERSION_CODE < KERNEL_VERSION(3, 17, 0)
    #define timespec64 timespec
    #define HAVE_OLD_TIME_ONLY
    #endif

    #if LINUX_VERSION_CODE < KERNEL_VERSION(3, 19, 0)
    #define NIC_PTP_OLD_OPS
    #else
    #define HAVE_NIC_GETTIME64
    #define HAVE_NIC_UNDONE
    #endif

    #ifdef CONFIG_NIC_QUIRK
    #undef HAVE_NIC_UNDONE
    #endif

    #endif /* _NIC_KCOMPAT_H_ */
    """)

NIC_H = textwrap.dedent("""\
    #ifndef _NIC_H_
    #define _NIC_H_
    #include "kcompat.h"

    struct nic_adapter {
    \tstruct ptp_clock_info caps;
    \tvoid *regs;
    };

    #endif
    """)

PTP_C = textwrap.dedent("""\
    #include <linux/ptp_clock_kernel.h>
    #include "nic.h"

    static void nic_read_clock(struct nic_adapter *nic, struct timespec *ts)
    {
    \tts->tv_sec = readl(nic->regs);
    \tts->tv_nsec = readl(nic->regs + 4);
    }

    static void nic_write_clock(struct nic_adapter *nic, const struct timespec *ts)
    {
    \twritel(ts->tv_sec, nic->regs);
    \twritel(ts->tv_nsec, nic->regs + 4);
    }

    static int nic_adjtime(struct ptp_clock_info *ptp, s64 delta)
    {
    \tstruct nic_adapter *nic = container_of(ptp, struct nic_adapter, caps);
    \tstruct timespec now, then = ns_to_timespec(delta);

    \tnic_read_clock(nic, &now);
    \tnow = timespec_add(now, then);
    \tnic_write_clock(nic, (const struct timespec *)&now);
    \treturn 0;
    }

    static int nic_gettime64(struct ptp_clock_info *ptp, struct timespec64 *ts64)
    {
    \tstruct nic_adapter *nic = container_of(ptp, struct nic_adapter, caps);
    \tstruct timespec ts;

    \tnic_read_clock(nic, &ts);
    \t*ts64 = timespec_to_timespec64(ts);
    \treturn 0;
    }

    static int nic_settime64(struct ptp_clock_info *ptp, const struct timespec64 *ts64)
    {
    \tstruct nic_adapter *nic = container_of(ptp, struct nic_adapter, caps);
    \tstruct timespec ts;

    \tts = timespec64_to_timespec(*ts64);
    \tnic_write_clock(nic, &ts);
    \treturn 0;
    }

    #ifndef HAVE_NIC_GETTIME64
    static int nic_gettime(struct ptp_clock_info *ptp, struct timespec *ts)
    {
    \tstruct timespec64 ts64;

    \tnic_gettime64(ptp, &ts64);
    \t*ts = timespec64_to_timespec(ts64);
    \treturn 0;
    }
    #endif

    static void nic_ptp_init(struct nic_adapter *nic)
    {
    #ifdef HAVE_NIC_GETTIME64
    \tnic->caps.gettime64 = nic_gettime64;
    \tnic->caps.settime64 = nic_settime64;
    #else
    \tnic->caps.gettime = nic_gettime;
    #endif
    #ifdef HAVE_OLD_TIME_ONLY
    \tnic->caps.max_adj = 1;
    #endif
    #ifdef HAVE_NIC_UNDONE
    \tnic->caps.max_adj = 2;
    #endif
    #if defined(HAVE_NIC_GETTIME64) && defined(CONFIG_NIC_PPS)
    \tnic->caps.pps = 1;
    #endif
    \tnic->caps.adjtime = nic_adjtime;
    }
    """)

EARLY_C = textwrap.dedent("""\
    #ifdef HAVE_NIC_GETTIME64
    static int early = 1;
    #endif
    #include "kcompat.h"
    """)

MODULE = {"kcompat.h": KCOMPAT_H, "nic.h": NIC_H, "nic_ptp.c": PTP_C, "early.c": EARLY_C}


def resolved(min_kernel: str) -> dict:
    """The module's files with their version conditionals resolved for the range."""
    project = kv.Project(MODULE)
    return {relpath: kv.drop_dead_branches(text, project, project.default_range(min_kernel))[0]
            for relpath, text in MODULE.items()}


class FeatureFlags(unittest.TestCase):
    def test_a_flag_left_outside_every_conditional_is_known_after_its_include(self):
        flags = feature_macros.defined_from(resolved("4.19"))
        self.assertEqual(flags["nic_ptp.c"]["HAVE_NIC_GETTIME64"], 2)  # the line of #include "nic.h"
        self.assertEqual(flags["early.c"]["HAVE_NIC_GETTIME64"], 4)
        self.assertIn("_NIC_H_", flags["nic_ptp.c"])

    def test_a_header_through_the_modules_own_include_directory_is_reached(self):
        texts = {"include/wrapper/flags.h": "#define HAVE_WRAPPED_TS64\n",
                 "include/linux/time.h": "#define HAVE_OWN_LINUX_COPY\n",
                 "src/main.c": "#include <wrapper/flags.h>\n#include <linux/time.h>\nint x;\n"}
        flags = feature_macros.defined_from(texts)["src/main.c"]
        self.assertEqual(flags.get("HAVE_WRAPPED_TS64"), 1)  # -I include: <wrapper/flags.h> is the module's
        self.assertNotIn("HAVE_OWN_LINUX_COPY", flags)  # <linux/...> is the kernel's header

    def test_what_is_never_concluded(self):
        flags = feature_macros.defined_from(resolved("4.19"))["nic_ptp.c"]
        self.assertNotIn("HAVE_OLD_TIME_ONLY", flags)  # defined only for kernels before the range
        self.assertNotIn("HAVE_NIC_UNDONE", flags)  # #undef'd somewhere
        self.assertNotIn("CONFIG_NIC_PPS", flags)  # never defined here
        # on a range that still has 3.18 the flag is defined only in a branch: unknown
        self.assertNotIn("HAVE_NIC_GETTIME64", feature_macros.defined_from(resolved("3.10"))["nic_ptp.c"])

    def test_the_tests_of_a_known_flag_are_decided_the_rest_stay(self):
        texts = resolved("4.19")
        project = kv.Project(MODULE)
        flags = feature_macros.defined_from(texts)
        text, dropped = kv.drop_dead_branches(texts["nic_ptp.c"], project, project.default_range("4.19"),
                                              flags["nic_ptp.c"])
        self.assertEqual(dropped, 2)  # the #ifndef section, the #else of the #ifdef
        self.assertNotIn("nic_gettime(", text)
        self.assertIn("\tnic->caps.gettime64 = nic_gettime64;\n\tnic->caps.settime64 = nic_settime64;\n"
                      "#ifdef HAVE_OLD_TIME_ONLY\n", text)
        self.assertIn("#ifdef HAVE_NIC_UNDONE\n", text)
        self.assertIn("#if defined(CONFIG_NIC_PPS)\n", text)
        early, dropped = kv.drop_dead_branches(texts["early.c"], project, project.default_range("4.19"),
                                               flags["early.c"])
        self.assertEqual((early, dropped), (texts["early.c"], 0))  # tested before the include: unknown


class Crossings(unittest.TestCase):
    """The pass alone, on the driver as --min-kernel 4.19 leaves it."""

    def test_the_locals_convert_through_the_crossings(self):
        texts = resolved("4.19")
        flags = feature_macros.defined_from(texts)
        project = kv.Project(MODULE)
        texts["nic_ptp.c"] = kv.drop_dead_branches(texts["nic_ptp.c"], project, project.default_range("4.19"),
                                                   flags["nic_ptp.c"])[0]
        new, converted, kept = driver_types.convert(texts)
        self.assertEqual(kept, [])
        self.assertEqual(converted, ["local now, local then, local ts, param ts"])
        ptp = new["nic_ptp.c"]
        for line in ("static void nic_read_clock(struct nic_adapter *nic, struct timespec64 *ts)",
                     "nic_write_clock(nic, (const struct timespec64 *)&now);", "*ts64 = ts;", "ts = *ts64;",
                     "struct timespec64 now, then = ns_to_timespec64(delta);"):
            self.assertIn(line, ptp)
        self.assertNotIn("struct timespec ", ptp)

    def test_a_crossing_of_a_value_handed_to_a_kernel_function_stays(self):
        text = PTP_C.replace("\tnic_read_clock(nic, &ts);\n\t*ts64", "\tnic_read_clock(nic, &ts);\n"
                             "\tkernel_takes(&ts);\n\t*ts64")
        new, converted, kept = driver_types.convert({"nic.h": NIC_H, "nic_ptp.c": text})
        self.assertNotIn("*ts64 = ts;", new.get("nic_ptp.c", text))
        self.assertTrue(any("passed to kernel_takes()" in k["why"] for k in kept), kept)


class ConvertModule(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-kcompat-"))
        for name, text in MODULE.items():
            (cls.tmp / "nic" / name).parent.mkdir(parents=True, exist_ok=True)
            (cls.tmp / "nic" / name).write_text(text)
        cls.newer = run_cli("convert", str(cls.tmp / "nic"), "--out", str(cls.tmp / "4.19"), "--min-kernel", "4.19")
        cls.read = run_cli("convert", str(cls.tmp / "nic"), "--out", str(cls.tmp / "read"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_min_kernel_drops_the_old_api_side_and_converts_the_rest(self):
        self.assertIn(self.newer.returncode, (0, 3), self.newer.stderr)
        ptp = (self.tmp / "4.19" / "nic_ptp.c").read_text()
        self.assertNotIn("HAVE_NIC_GETTIME64", ptp)
        self.assertNotIn("timespec_to_timespec64", ptp)
        self.assertNotIn("struct timespec ", ptp)
        report = json.loads((self.tmp / "4.19" / "y2038-convert.json").read_text())
        self.assertEqual(report["compat"]["flag_branches_dropped"], 2)
        self.assertIn("testing the module's own feature flags",
                      (self.tmp / "4.19" / "y2038-convert.txt").read_text())

    def test_the_range_read_from_the_code_keeps_the_old_side(self):
        self.assertIn(self.read.returncode, (0, 3), self.read.stderr)
        ptp = (self.tmp / "read" / "nic_ptp.c").read_text()
        self.assertIn("#ifndef HAVE_NIC_GETTIME64\nstatic int nic_gettime(struct ptp_clock_info *ptp, "
                      "struct timespec *ts)", ptp)


if __name__ == "__main__":
    unittest.main()
