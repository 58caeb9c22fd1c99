# SPDX-License-Identifier: GPL-2.0-only
"""Sources built for the kernel and for user space from one file (fixtures
written here, in the shapes of SDK libraries and telephony drivers that
share a header with their user tools): the kernel side converted, and left
alone, said so: a structure a header declares for both builds, a local that
the user-space arm fills with gettimeofday(), a value only the user-space
build declares."""
import json
import shutil
import tempfile
import textwrap
import unittest
from pathlib import Path

from helpers import put_tools_on_path, run_cli

put_tools_on_path()
from y2038lib.outoftree import driver_types, dual_build  # noqa: E402

PROTO_H = textwrap.dedent("""\
    #ifndef _XP_PROTO_H
    #define _XP_PROTO_H

    #ifdef __KERNEL__
    #include <linux/types.h>
    #else
    #include <sys/time.h>
    #endif

    struct xp_stats {
    \tstruct timeval last_sync;
    \tunsigned int frames;
    };

    #ifdef __KERNEL__
    struct xp_dev {
    \tstruct timeval opened;
    \tstruct xp_stats stats;
    };
    #endif

    #endif
    """)

DEV_C = textwrap.dedent("""\
    #include "xp_proto.h"

    static void xp_open(struct xp_dev *dev)
    {
    \tdo_gettimeofday(&dev->opened);
    }

    static long xp_age(struct xp_dev *dev)
    {
    \treturn dev->opened.tv_sec;
    }

    static void xp_sync(struct xp_dev *dev)
    {
    \tdo_gettimeofday(&dev->stats.last_sync);
    }
    """)

UTIL_C = textwrap.dedent("""\
    unsigned long long util_usecs(void)
    {
    \tstruct timeval t;

    #if defined(__KERNEL__)
    \tdo_gettimeofday(&t);
    #else
    \tgettimeofday(&t, NULL);
    #endif
    \treturn (unsigned long long)t.tv_sec * 1000000 + t.tv_usec;
    }

    #ifdef __KERNEL__
    static long util_kernel_ms(void)
    {
    \tstruct timeval tv;

    \tdo_gettimeofday(&tv);
    \treturn tv.tv_sec * 1000 + tv.tv_usec / 1000;
    }
    #else
    static struct timeval last;

    static long util_user_ms(void)
    {
    \tgettimeofday(&last, NULL);
    \treturn last.tv_sec * 1000 + last.tv_usec / 1000;
    }
    #endif
    """)

DRIVER = {"xp_proto.h": PROTO_H, "xp_dev.c": DEV_C, "util.c": UTIL_C}


class Lines(unittest.TestCase):
    def test_the_user_side_is_what_a_build_without_kernel_compiles(self):
        user = dual_build.user_only_lines(DRIVER)
        lines = UTIL_C.split("\n")
        self.assertIn(lines.index("\tgettimeofday(&t, NULL);") + 1, user["util.c"])
        self.assertIn(lines.index("static struct timeval last;") + 1, user["util.c"])
        self.assertNotIn(lines.index("\tdo_gettimeofday(&t);") + 1, user["util.c"])
        self.assertNotIn(lines.index("\treturn (unsigned long long)t.tv_sec * 1000000 + t.tv_usec;") + 1,
                         user["util.c"])
        self.assertNotIn("xp_dev.c", user)  # no __KERNEL__ test: both builds see all of it

    def test_a_header_s_structures_outside_its_kernel_arms_are_shared(self):
        shared = dual_build.shared_structs(DRIVER)
        self.assertEqual(sorted(shared), ["xp_stats"])
        self.assertIn("xp_proto.h:10: struct xp_stats is declared for user space too", shared["xp_stats"])

    def test_a_header_without_a_user_space_arm_is_the_kernel_s(self):
        # a vestigial #ifdef __KERNEL__ in a header that includes kernel headers whatever it says
        header = ("#include <linux/wait.h>\n#ifdef __KERNEL__\nstruct ops { int x; };\n#endif\n"
                  "struct frame {\n\tstruct list_head list;\n\tstruct timeval created;\n};\n")
        self.assertEqual(dual_build.shared_structs({"frame.h": header}), {})
        new, converted, kept = driver_types.convert({"frame.h": header, "frame.c": (
            '#include "frame.h"\n\nvoid stamp(struct frame *f)\n{\n\tdo_gettimeofday(&f->created);\n}\n')})
        self.assertEqual(converted, ["field created"])

    def test_another_condition_decides_nothing(self):
        text = "#ifdef __USER_LEVEL__\nint a;\n#else\nint b;\n#endif\n#ifndef __KERNEL__\nint c;\n#endif\n"
        self.assertEqual(dual_build.user_only_lines({"a.c": text}), {"a.c": {7}})


class UserSpaceFiles(unittest.TestCase):
    """A tool beside the module: the files including a C library header the
    module does not ship, and the headers only they include, each include
    read as every file it may name."""

    def test_a_tools_header_and_a_header_the_kernel_includes_by_angle_brackets(self):
        texts = {"xdrv_main.c": '#include <xdrv_stamp.h>\n#include "regs.h"\n',
                 "regs.h": "#define XDRV_REG_CTRL 4\n",
                 "include/xdrv_stamp.h": "static inline time_t xdrv_now_sec(void);\n",
                 "tools/xdrvctl.c": '#include <stdio.h>\n#include "../include/xdrv_stamp.h"\n#include "regs.h"\n',
                 "tools/regs.h": "struct tool_sample { struct timeval when; };\n",
                 "solx/solx.c": "#include <sys/debug.h>\n", "include/sys/debug.h": "#define ASSERT(x)\n"}
        # "regs.h" beside each includer: the top one is the driver's, tools/regs.h the tool's; the kernel
        # side's <xdrv_stamp.h> keeps that header the kernel's; the module's own <sys/debug.h> is no libc
        self.assertEqual(dual_build.user_space_files(texts), {"tools/xdrvctl.c", "tools/regs.h"})


class Pass(unittest.TestCase):
    def setUp(self):
        self.new, self.converted, self.kept = driver_types.convert(DRIVER)

    def test_the_kernel_side_converts(self):
        self.assertIn("field opened", self.converted)
        self.assertIn("\tstruct timespec64 opened;\n", self.new["xp_proto.h"])
        self.assertIn("ktime_get_real_ts64(&dev->opened);", self.new["xp_dev.c"])

    def test_the_shared_structure_stays_and_says_why(self):
        self.assertIn("\tstruct timeval last_sync;\n", self.new["xp_proto.h"])
        self.assertIn("do_gettimeofday(&dev->stats.last_sync);", self.new["xp_dev.c"])
        why = [k["why"] for k in self.kept if ("xp_proto.h", "last_sync") in k["names"]]
        self.assertTrue(why and "declared for user space too" in why[0], self.kept)

    def test_the_user_side_stays_and_says_why(self):
        self.assertNotIn("util.c", self.new)
        whys = " | ".join(k["why"] for k in self.kept)
        self.assertIn("declared for the user-space build only", whys)


class ConvertBoth(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-dual-"))
        (cls.tmp / "xp").mkdir()
        for name, text in DRIVER.items():
            (cls.tmp / "xp" / name).write_text(text)
        cls.result = run_cli("convert", str(cls.tmp / "xp"), "--out", str(cls.tmp / "out"), "--min-kernel", "4.19")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_kernel_arm_converted_user_arm_and_shared_local_left_and_listed(self):
        self.assertIn(self.result.returncode, (0, 3), self.result.stderr)
        util = (self.tmp / "out" / "util.c").read_text()
        kernel_ms = util[util.index("util_kernel_ms"):util.index("#else\nstatic")]
        self.assertIn("ktime_get_real_ts64(&tv);", kernel_ms)
        self.assertNotIn("struct timeval", kernel_ms)
        self.assertIn("\tstruct timeval t;\n\n#if defined(__KERNEL__)\n\tdo_gettimeofday(&t);\n#else\n"
                      "\tgettimeofday(&t, NULL);\n", util)  # shared by both builds: as it was
        self.assertIn("static struct timeval last;\n", util)
        report = json.loads((self.tmp / "out" / "y2038-convert.json").read_text())
        left = "\n".join(report["left"])
        self.assertIn("util.c:8: passed to gettimeofday() in the user-space build", left)


if __name__ == "__main__":
    unittest.main()
