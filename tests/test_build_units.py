# SPDX-License-Identifier: GPL-2.0-only
"""build_units: the modules a directory builds (Kbuild/Makefile, dkms.conf)
and the kernel range of each file read from its own module's conditionals
only (planted trees written here)."""
import json
import tempfile
import time
import unittest
from pathlib import Path

import helpers

helpers.put_tools_on_path()
from y2038lib.outoftree import build_units, kernel_versions  # noqa: E402

OLD_HEADER = """#include <linux/version.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 4, 0)
#define OLD 1
#endif
"""
NEW_C = """#include <linux/version.h>
#include "common.h"
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 10, 0)
static int x;
#endif
"""
PLAIN_C = "#include <linux/time.h>\nvoid f(void) { struct timeval tv; do_gettimeofday(&tv); }\n"


def plant(root: Path, files: dict) -> dict:
    for relpath, text in files.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(text)
    return {r: t for r, t in files.items() if r.endswith((".c", ".h"))}


class Units(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def units(self, files: dict) -> dict:
        texts = plant(self.root, files)
        return {u.name: u for u in build_units.find_units(self.root, texts)}

    def test_kbuild_composite_and_single_objects(self):
        units = self.units({
            "Kbuild": "obj-m += drv.o\nobj-$(CONFIG_X) += alone.o\n"
                      "drv-objs := core.o \\\n\t$(src)/sub/io.o\n# obj-m += commented.o\n",
            "core.c": '#include "core.h"\n', "core.h": '#include "sub/regs.h"\n', "sub/regs.h": "",
            "sub/io.c": "", "alone.c": "", "commented.c": '#include "loose.h"\n', "loose.h": "", "stray.h": ""})
        self.assertEqual(units["drv"].files, ["core.c", "sub/io.c", "core.h", "sub/regs.h"])
        self.assertEqual(units["drv"].defined_in, "Kbuild")
        self.assertEqual(units["alone"].files, ["alone.c"])
        # what no build file compiles is a unit alone, with what it includes
        self.assertEqual(units["commented.c"].files, ["commented.c", "loose.h"])
        self.assertNotIn("loose.h", units)
        self.assertEqual(units["stray.h"].defined_in, "")

    def test_make_variables_expanded(self):
        units = self.units({
            "Makefile": "MODULE_NAME = 8812au\nOS_FILES := os/osdep.o\nifeq ($(CONFIG_USB), y)\n"
                        "OS_FILES += os/usb.o\nendif\nobj-$(CONFIG_RTL) := $(MODULE_NAME).o\n"
                        "$(MODULE_NAME)-y += $(OS_FILES) core/$(MODULE_NAME)_main.o\n",
            "os/osdep.c": "", "os/usb.c": "", "core/8812au_main.c": "", "other.c": ""})
        self.assertEqual(units["8812au"].files, ["os/osdep.c", "os/usb.c", "core/8812au_main.c"])
        self.assertIn("other.c", units)

    def test_variable_appended_through_itself(self):
        """A vendor SDK's shape: flags and objects appended to a variable
        through its own value, forty times: each object once, in seconds
        (the expansion multiplied the values at every level: gigabytes)."""
        appends = "".join(f"DRV_OBJS := $(DRV_OBJS) part{i}.o\nEXTRA_CFLAGS := $(EXTRA_CFLAGS) -Iinc{i}\n"
                          for i in range(40))
        files = {f"part{i}.c": "" for i in range(40)}
        files["Makefile"] = (appends + "EXTRA_CFLAGS += $(DRV_OBJS:.o=)\nobj-m := drv.o\n"
                             "drv-objs := $(DRV_OBJS) $(DRV_OBJS) main.o\n")
        files["main.c"] = ""
        start = time.monotonic()
        units = self.units(files)
        self.assertLess(time.monotonic() - start, 30)
        self.assertEqual(units["drv"].files, [f"part{i}.c" for i in range(40)] + ["main.c"])

    def test_variables_referring_to_each_other(self):
        self.assertEqual(build_units.expand("$(A)", {"A": ["a $(B)"], "B": ["b $(A)", "c"]}), "a b c")

    def test_dkms_conf_location_and_name(self):
        units = self.units({
            "dkms.conf": 'PACKAGE_NAME="x"\nBUILT_MODULE_NAME[0]="fast"\nBUILT_MODULE_LOCATION[0]="src/"\n'
                         'BUILT_MODULE_NAME[1]="tool"\nBUILT_MODULE_LOCATION[1]="tool"\n',
            "src/Kbuild": "obj-m := fast.o\nfast-y := a.o b.o\n", "src/a.c": "", "src/b.c": "",
            "tool/t1.c": "", "tool/t2.c": ""})
        self.assertEqual(units["fast"].files, ["src/a.c", "src/b.c"])
        self.assertEqual(units["fast"].defined_in, "src/Kbuild, dkms.conf")
        # no Kbuild names it: every .c under its location
        self.assertEqual((units["tool"].files, units["tool"].defined_in), (["tool/t1.c", "tool/t2.c"], "dkms.conf"))


class RangePerModule(unittest.TestCase):
    """The issue's case: one header testing 2.4 in a folder of unrelated
    modules decides the range of its own module only."""

    def test_range_read_from_each_module(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            texts = plant(root, {"Kbuild": "obj-m += old.o new.o plain.o\n", "old.c": '#include "old.h"\n',
                                 "old.h": OLD_HEADER, "new.c": NEW_C, "common.h": "", "plain.c": PLAIN_C,
                                 "loose.c": PLAIN_C})
            project = kernel_versions.Project(texts)
            modules = build_units.ModuleRanges(root, project, None, None)
            show = {f: kernel_versions.show(r.lo + 1) for f, r in modules.of_file.items()}
            self.assertEqual(show["old.c"], "2.4")
            self.assertEqual(show["old.h"], "2.4")
            self.assertEqual(show["new.c"], "3.10")
            self.assertEqual(show["common.h"], "3.10")  # included by new.c only
            self.assertIn("no version conditional", modules.of_file["plain.c"].why)
            self.assertIn("no version conditional", modules.of_file["loose.c"].why)
            # the directory as a whole still reads 2.4 (the widest range)
            self.assertEqual(kernel_versions.show(project.default_range().lo + 1), "2.4")
            lines = modules.report()
            self.assertTrue(any(line.startswith("new (Kbuild): kernels before 3.10") and "common.h" in line
                                for line in lines), lines)
            self.assertTrue(any(line.startswith("loose.c (no build file groups it)") for line in lines), lines)

    def test_site_filter_per_module(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            texts = plant(root, {"Kbuild": "obj-m += old.o plain.o\n", "old.c": '#include "old.h"\n',
                                 "old.h": OLD_HEADER, "plain.c": PLAIN_C})
            project = kernel_versions.Project(texts)
            modules = build_units.ModuleRanges(root, project, None, None)
            made = []
            dispatch = modules.site_filter(lambda r: made.append(r) or (lambda *args: (r, args[1])),
                                           project.default_range())
            self.assertEqual(dispatch(None, "plain.c", b"", b"")[0], modules.of_file["plain.c"])
            self.assertEqual(dispatch(None, "old.c", b"", b"")[0], modules.of_file["old.c"])
            dispatch(None, "plain.c", b"", b"")
            self.assertEqual(len(made), 2)  # one filter per range, reused

    def test_min_kernel_is_every_module_range(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            texts = plant(root, {"old.h": OLD_HEADER, "plain.c": PLAIN_C})
            modules = build_units.ModuleRanges(root, kernel_versions.Project(texts), "4.19", None)
            self.assertEqual({kernel_versions.show(r.lo) for r in modules.ranges}, {"4.19"})


if __name__ == "__main__":
    unittest.main()


OLD_MODULE_C = """#include <linux/version.h>
#include <linux/time.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
#define OLD_KERNEL 1
#endif

long old_stamp(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	return tv.tv_sec;
}
"""
NEW_MODULE_C = """#include <linux/time.h>

long new_stamp(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	return tv.tv_sec;
}
"""


class ConvertPerModule(unittest.TestCase):
    """convert on a folder of two modules: the one whose conditionals reach
    2.6.20 gets the compat header, the one with none is converted for the
    packaged kernel alone, and the report lists both with their ranges."""

    def test_each_module_its_own_range(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, out = Path(tmp) / "src", Path(tmp) / "out"
            plant(src, {"Kbuild": "obj-m += oldmod.o newmod.o\n", "oldmod.c": OLD_MODULE_C,
                        "newmod.c": NEW_MODULE_C})
            proc = helpers.run_cli("convert", str(src), "--out", str(out), "--campaign", "legacy-time-api")
            self.assertIn(proc.returncode, (0, 3), proc.stdout + proc.stderr)
            new, old = (out / "newmod.c").read_text(), (out / "oldmod.c").read_text()
            self.assertIn("ktime_get_real_ts64", new)
            self.assertNotIn("y2038-compat.h", new)  # its module supports 6.12 only
            self.assertIn("ktime_get_real_ts64", old)
            self.assertIn('#include "y2038-compat.h"', old)  # kernels before 2.6.20: the fallback
            report = (out / "y2038-convert.txt").read_text()
            self.assertIn("Modules (from the build files) and the kernels each supports (2):", report)
            self.assertIn("  oldmod (Kbuild): 2.6.19 to 6.12 (its conditionals test versions down to 2.6.20", report)
            self.assertIn("  newmod (Kbuild): 6.12 to 6.12 (no version conditional", report)

    def test_without_compat_header_only_the_old_module_waits(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, out = Path(tmp) / "src", Path(tmp) / "out"
            plant(src, {"Kbuild": "obj-m += oldmod.o newmod.o\n", "oldmod.c": OLD_MODULE_C,
                        "newmod.c": NEW_MODULE_C})
            proc = helpers.run_cli("convert", str(src), "--out", str(out), "--campaign", "legacy-time-api",
                                   "--no-compat-header")
            self.assertIn(proc.returncode, (0, 3), proc.stdout + proc.stderr)
            self.assertIn("ktime_get_real_ts64", (out / "newmod.c").read_text())  # the folder's 2.6.19 is not its
            self.assertIn("do_gettimeofday(&tv);", (out / "oldmod.c").read_text())
            self.assertIn("oldmod.c:", "\n".join(json.loads((out / "y2038-convert.json").read_text())
                                                 ["needs_newer_kernel"]))

    def test_whole_driver_pass_per_module(self):
        """A driver's own struct field converts with its uses when its
        module's range allows, though another module of the folder tests 2.6.20."""
        with tempfile.TemporaryDirectory() as tmp:
            src, out = Path(tmp) / "src", Path(tmp) / "out"
            plant(src, {"Kbuild": "obj-m += oldmod.o drv.o\n", "oldmod.c": OLD_MODULE_C,
                        "drv.h": "#include <linux/time.h>\nstruct drv_state {\n\tstruct timeval stamp;\n\tint n;\n};\n",
                        "drv.c": '#include "drv.h"\n\nvoid drv_mark(struct drv_state *d)\n{\n'
                                 "\tdo_gettimeofday(&d->stamp);\n}\n\nlong drv_age(struct drv_state *d)\n{\n"
                                 "\treturn d->stamp.tv_sec;\n}\n"})
            proc = helpers.run_cli("convert", str(src), "--out", str(out), "--campaign", "legacy-time-api",
                                   "--no-compat-header")
            self.assertIn(proc.returncode, (0, 3), proc.stdout + proc.stderr)
            self.assertIn("struct timespec64 stamp;", (out / "drv.h").read_text())
            self.assertIn("ktime_get_real_ts64(&d->stamp);", (out / "drv.c").read_text())
