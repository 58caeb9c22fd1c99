# SPDX-License-Identifier: GPL-2.0-only
"""convert on code that supports a range of kernels (fixtures written here,
in the shapes real DKMS modules have): version conditionals read, the range
taken from the code or from --min-kernel, branches for older kernels left
as written, what needs a newer kernel listed, dead compat branches dropped,
compat shims never rewritten, and one file's trouble never the run's."""
import json
import shutil
import tempfile
import textwrap
import unittest
from pathlib import Path

from helpers import REPO, run_cli
from y2038lib.outoftree import api_availability, compat_fallbacks, convert, kernel_versions as kv
from y2038lib.engine import rules
COMPAT_H = textwrap.dedent("""\
    #include <linux/version.h>
    #define NF_KERNEL_VERSION(a, b, c) KERNEL_VERSION(a, b, c)
    #define NF_LINUX_VERSION_CODE LINUX_VERSION_CODE

    #if NF_LINUX_VERSION_CODE < NF_KERNEL_VERSION(4, 10, 0)
    # define first_tv64 first.tv64
    #else
    # define first_tv64 first
    #endif

    #if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 22)
    static inline long nf_ktime_ns(ktime_t kt)
    {
    \treturn kt.tv64;
    }
    #else
    # define nf_ktime_ns(kt) ((kt).tv64)
    #endif

    #if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 0, 0)
    static inline void do_gettimeofday(struct timeval *tv)
    {
    \tstruct timespec64 ts;

    \tktime_get_real_ts64(&ts);
    \ttv->tv_sec = ts.tv_sec;
    \ttv->tv_usec = ts.tv_nsec / 1000;
    }
    #endif
    """)

MAIN_C = textwrap.dedent("""\
    #include <linux/hrtimer.h>
    #include "compat.h"

    static struct hrtimer timer;

    static void arm_timer(unsigned long ns)
    {
    \thrtimer_start(&timer, ktime_set(0, ns), HRTIMER_MODE_REL);
    }

    static long stamp_ms(void)
    {
    \tstruct timeval tv;

    \tdo_gettimeofday(&tv);
    \treturn tv.tv_sec * 1000 + tv.tv_usec / 1000;
    }

    #if defined(CONFIG_NF_NAT_NEEDED) && LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 39)
    static void nat_stamp(u32 timeout, ktime_t *out)
    {
    \t*out = ktime_set(0, timeout);
    }
    #endif

    #if LINUX_VERSION_CODE >= KERNEL_VERSION(4, 10, 0) || (defined(RHEL_RELEASE) && LINUX_VERSION_CODE == KERNEL_VERSION(3, 10, 0))
    static long new_api(void) { return 1; }
    #endif

    static long linked(void)
    {
    \tstruct timeval tv;

    #if LINUX_VERSION_CODE >= KERNEL_VERSION(4, 19, 0)
    \tdo_gettimeofday(&tv);
    #else
    \tdo_gettimeofday(&tv);
    #endif
    \treturn tv.tv_sec;
    }
    """)


def write(root: Path, files: dict) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


class Conditionals(unittest.TestCase):
    def setUp(self):
        self.project = kv.Project({"compat.h": COMPAT_H, "main.c": MAIN_C})

    def test_range_read_from_the_code(self):
        r = self.project.default_range()
        self.assertEqual(r.lo, kv.code(2, 6, 22) - 1)
        self.assertEqual(kv.show(r.hi & ~255), "6.12")
        self.assertIn("kernels before 2.6.22", r.text())
        self.assertEqual(self.project.default_range("5.10").lo, kv.code(5, 10))

    def test_no_conditional_means_the_packaged_kernel(self):
        r = kv.Project({"a.c": "int x;\n#ifdef CONFIG_FOO\nint y;\n#endif\n"}).default_range()
        self.assertEqual(r.lo, kv.parse(kv.NEWEST_PACKAGED))

    def test_a_version_the_module_names_for_itself_is_no_kernel_version(self):
        text = "#define MY_VERSION_CODE KERNEL_VERSION(0, 12, 7)\n#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 1, 0)\nint x;\n#endif\n"
        self.assertEqual(kv.Project({"a.c": text}).default_range().lo, kv.code(3, 1) - 1)

    def test_a_wrapper_defined_per_configuration_is_read_in_the_kernels_encoding(self):
        # a sublevel past 255 counted in 16 bits in one arm, the kernel's macros in the other: the
        # first arm's encoding (major << 24) compared with LINUX_VERSION_CODE would decide every test
        version_h = ("#ifndef X_SUBLEVEL\n#define X_SUBLEVEL 0\n#endif\n#if (X_SUBLEVEL >= 256)\n"
                     "#define X_KERNEL_VERSION(a, b, c) ((((a) << 24) + ((b) << 16) + (c)) * 1ULL)\n"
                     "#define X_LINUX_VERSION_CODE X_KERNEL_VERSION(X_MAJOR, X_MINOR, X_SUBLEVEL)\n#else\n"
                     "#define X_KERNEL_VERSION(a, b, c) (KERNEL_VERSION(a, b, c) * 1ULL)\n"
                     "#define X_LINUX_VERSION_CODE (LINUX_VERSION_CODE * 1ULL)\n#endif\n")
        flags_h = ("#include \"version.h\"\n#if (X_LINUX_VERSION_CODE >= X_KERNEL_VERSION(3, 17, 0))\n"
                   "# define X_HAS_TIMESPEC64\n#endif\n#if (X_LINUX_VERSION_CODE >= X_KERNEL_VERSION(5, 6, 0))\n"
                   "typedef __kernel_old_time_t time_t;\n#endif\n")
        project = kv.Project({"version.h": version_h, "flags.h": flags_h})
        v = project.versions("flags.h", kv.KernelRange(kv.code(4, 19), kv.code(6, 12, 255), ""))
        lines = flags_h.split("\n")
        self.assertEqual(min(v.kernels(lines.index("# define X_HAS_TIMESPEC64") + 1)), kv.code(4, 19))
        typedef = v.kernels(lines.index("typedef __kernel_old_time_t time_t;") + 1)
        self.assertEqual(min(typedef), kv.code(5, 6))

    def test_a_wrapper_set_to_one_fixed_version_is_no_kernels_encoding(self):
        # a vendor backport pins the module's version name: the kernel's LINUX_VERSION_CODE still decides
        compat_h = ("#define X_LINUX_VERSION_CODE LINUX_VERSION_CODE\n#ifdef CONFIG_X_VENDOR_BACKPORT\n"
                    "#undef X_LINUX_VERSION_CODE\n#define X_LINUX_VERSION_CODE KERNEL_VERSION(4, 4, 0)\n#endif\n"
                    "#if X_LINUX_VERSION_CODE >= KERNEL_VERSION(4, 15, 0)\nint timer_setup_arm;\n#endif\n")
        project = kv.Project({"compat.h": compat_h})
        v = project.versions("compat.h", kv.KernelRange(kv.code(4, 19), kv.code(6, 12, 255), ""))
        self.assertEqual(min(v.kernels(compat_h.split("\n").index("int timer_setup_arm;") + 1)), kv.code(4, 19))

    def test_a_predicate_wrapper_defined_again_for_a_vendor_release_is_read_in_its_mainline_form(self):
        compat_h = ("#ifndef RHEL_MAJOR\n#define DRV_KV_BEFORE(a, b, c) (LINUX_VERSION_CODE < KERNEL_VERSION(a, b, c))\n"
                    "#else\n#define DRV_RHEL_CODE KERNEL_VERSION(3, 10, 0)\n"
                    "#define DRV_KV_BEFORE(a, b, c) (DRV_RHEL_CODE < KERNEL_VERSION(a, b, c))\n#endif\n"
                    "#if DRV_KV_BEFORE(4, 15, 0)\nint setup_timer_arm;\n#else\nint timer_setup_arm;\n#endif\n")
        project = kv.Project({"compat.h": compat_h})
        v = project.versions("compat.h", kv.KernelRange(kv.code(4, 19), kv.code(6, 12, 255), ""))
        self.assertEqual(min(v.kernels(compat_h.split("\n").index("int timer_setup_arm;") + 1)), kv.code(4, 19))
        self.assertFalse(v.kernels(compat_h.split("\n").index("int setup_timer_arm;") + 1))

    def test_lines_know_their_kernels_through_wrappers_and_else(self):
        r = self.project.default_range()
        v = self.project.versions("compat.h", r)
        lines = COMPAT_H.split("\n")
        old = lines.index("# define first_tv64 first.tv64") + 1
        new = lines.index("# define first_tv64 first") + 1
        self.assertLess(max(v.kernels(old)), kv.code(4, 10))
        self.assertEqual(min(v.kernels(new)), kv.code(4, 10))

    def test_unknown_parts_are_never_guessed(self):
        r = self.project.default_range()
        v = self.project.versions("main.c", r)
        lines = MAIN_C.split("\n")
        nat = lines.index("\t*out = ktime_set(0, timeout);") + 1
        rhel = lines.index("static long new_api(void) { return 1; }") + 1
        self.assertEqual(min(v.kernels(nat)), kv.code(2, 6, 39))  # CONFIG_ part undecided: may be compiled
        self.assertIn(kv.code(3, 10, 0), v.kernels(rhel))  # RHEL part undecided
        self.assertNotIn(kv.code(3, 10, 1), v.kernels(rhel))

    def test_dead_branches_dropped_and_partial_conditions_kept(self):
        text, dropped = kv.drop_dead_branches(MAIN_C, self.project, self.project.default_range("5.10"))
        self.assertIn("#if defined(CONFIG_NF_NAT_NEEDED)\n", text)
        self.assertNotIn("RHEL_RELEASE", text)
        self.assertIn("static long new_api(void) { return 1; }\n", text)
        self.assertIn("\tstruct timeval tv;\n\n\tdo_gettimeofday(&tv);\n\treturn tv.tv_sec;\n", text)
        self.assertEqual(dropped, 1)
        text, dropped = kv.drop_dead_branches(COMPAT_H, self.project, self.project.default_range("5.10"))
        self.assertEqual(dropped, 2)
        self.assertNotIn("first.tv64", text)
        self.assertIn("# define first_tv64 first\n", text)
        self.assertIn("# define nf_ktime_ns(kt) ((kt).tv64)\n", text)  # the branch for 2.6.22 on stays
        self.assertNotIn("#endif\n\n\n", text)
        kv.SourceVersions(text, self.project.evaluator, ())  # still nests

    def test_conditionals_without_a_version_test_are_left_alone(self):
        src = ("#ifdef CONFIG_X\nint a;\n#else /* CONFIG_X */\nint b;\n#endif\n"
               "#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 0, 0)\nint c;\n#elif defined(CONFIG_Y)\nint d;\n"
               "#else /* neither */\nint e;\n#endif\n")
        project = kv.Project({"a.c": src})
        text, dropped = kv.drop_dead_branches(src, project, project.default_range("5.10"))
        self.assertEqual(text, src.replace("#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 0, 0)\nint c;\n#elif", "#if"))
        self.assertEqual(dropped, 1)

    def test_conditionals_that_do_not_nest_are_a_problem_not_a_crash(self):
        project = kv.Project({"bad.c": "#endif\nint x;\n", "good.c": MAIN_C})
        self.assertIn("bad.c", project.problems)
        self.assertNotIn("good.c", project.problems)


    def test_a_directive_in_a_block_comment_is_no_directive(self):
        """A vendor file's code commented out, its #if and all: the
        preprocessor drops comments before it reads directives."""
        src = ("/*\n#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 0) \\\n    || defined(CHIP_X)\nint old;\n*/\n"
               "#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 0, 0)\nint a; /* #endif */\n#else\nint b;\n#endif\n")
        project = kv.Project({"a.c": src})
        self.assertEqual(project.problems, {})
        self.assertEqual(project.default_range().lo, kv.code(3, 0) - 1)  # not 2.6: that test is a comment
        text, dropped = kv.drop_dead_branches(src, project, project.default_range("5.10"))
        self.assertEqual((text, dropped), (src.split("#if LINUX_VERSION_CODE < KERNEL_VERSION(3")[0] + "int b;\n", 1))


class Headers(unittest.TestCase):
    def test_every_rule_history_is_machine_readable_and_consistent(self):
        seen = {}
        for _, campaign_rules in rules.campaigns():
            for rule in campaign_rules:
                h = api_availability.RuleHistory.of(rule)
                self.assertTrue(h.introduced or rule.headers.get("Introduced", "").strip() == "-",
                                f"{rule.relpath}: // Introduced: names nothing (write '-' if the rule writes no name)")
                for table, kind in ((h.introduced, "introduced"), (h.removed, "removed")):
                    for name, version in table.items():
                        if name != "*":
                            self.assertEqual(seen.setdefault((kind, name), version), version,
                                             f"{rule.relpath}: {name} {kind} in another version elsewhere")
        self.assertEqual(seen[("introduced", "ktime_get_raw_ts64")], kv.code(4, 18))
        self.assertEqual(seen[("introduced", "ktime_get_real_ts64")], kv.code(3, 17))

    def test_a_header_that_does_not_read_is_refused(self):
        with self.assertRaises(ValueError):
            api_availability.history("3.17 timespec64, soon ktime_get_ns")


class Convert(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-versions-"))
        cls.src = write(cls.tmp / "nf", {"compat.h": COMPAT_H, "main.c": MAIN_C})
        cls.default = run_cli("convert", str(cls.src), "--out", str(cls.tmp / "default"), "--no-compat-header")
        cls.compat = run_cli("convert", str(cls.src), "--out", str(cls.tmp / "compat"))
        cls.newer = run_cli("convert", str(cls.src), "--out", str(cls.tmp / "5.10"), "--min-kernel", "5.10")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def report(self, name):
        return json.loads((self.tmp / name / "y2038-convert.json").read_text())

    def test_default_range_leaves_code_for_older_kernels_as_written(self):
        self.assertEqual(self.default.returncode, 0, self.default.stderr)
        self.assertIn("kernels before 2.6.22", self.default.stdout)
        self.assertEqual((self.tmp / "default" / "compat.h").read_text(), COMPAT_H)
        self.assertEqual((self.tmp / "default" / "main.c").read_text(), MAIN_C)
        report = self.report("default")
        needs = "\n".join(report["needs_newer_kernel"])
        self.assertIn("main.c:8: scalar ktime_t arithmetic needs Linux 4.10; this code supports 2.6.21",
                      needs)
        self.assertIn("main.c:22: scalar ktime_t arithmetic needs Linux 4.10; this code supports 2.6.39", needs)
        self.assertIn("struct timespec64 needs Linux 3.17", needs)
        kept = "\n".join(report["kept_for_older_kernels"])
        self.assertIn("compat.h:6: compiled only for kernels before 4.10, which still have tv64", kept)
        self.assertTrue(any("compat.h:21: defines its own do_gettimeofday" in s for s in report["shims"]))

    def test_compile_free_view_is_the_same_for_every_older_kernel(self):
        project = kv.Project({"compat.h": COMPAT_H, "main.c": MAIN_C})
        for name in ("compat.h", "main.c"):
            converted = (self.tmp / "default" / name).read_text()
            for version in kv.samples_for(project.tested, kv.code(2, 6, 0), kv.code(6, 12, 255)):
                self.assertEqual(kv.lines_compiled_at(converted, project, version),
                                 kv.lines_compiled_at((self.src / name).read_text(), project, version))

    def test_compat_header_carries_the_new_api_back_to_older_kernels(self):
        self.assertEqual(self.compat.returncode, 0, self.compat.stderr)
        main = (self.tmp / "compat" / "main.c").read_text()
        self.assertIn('#include "compat.h"\n#include "y2038-compat.h"\n', main)
        self.assertIn("\tstruct timespec64 tv;\n\n\tktime_get_real_ts64(&tv);\n"
                      "\treturn tv.tv_sec * 1000 + tv.tv_nsec / NSEC_PER_MSEC;", main)
        # scalar ktime_t arithmetic has no fallback: still left for kernels before 4.10
        self.assertIn("hrtimer_start(&timer, ktime_set(0, ns), HRTIMER_MODE_REL);", main)
        header = (self.tmp / "compat" / "y2038-compat.h").read_text()
        self.assertIn("#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 17, 0)\n#define timespec64 timespec\n#endif", header)
        self.assertIn("#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 17, 0)\n"
                      "#define ktime_get_real_ts64(...) getnstimeofday(__VA_ARGS__)\n#endif", header)
        self.assertNotIn("getrawmonotonic", header)  # only what the code uses
        report = self.report("compat")
        self.assertEqual(report["compat_header"]["names"], ["timespec64", "ktime_get_real_ts64"])
        self.assertEqual(report["version_check"], [])
        self.assertFalse(any("timespec64" in line for line in report["needs_newer_kernel"]))
        patch = (self.tmp / "compat" / "y2038-convert.patch").read_text()
        self.assertIn("--- /dev/null\n+++ b/y2038-compat.h\n", patch)

    def test_a_name_the_code_defines_itself_gets_no_fallback(self):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-own-compat-"))
        self.addCleanup(shutil.rmtree, tmp)
        own = "#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 17, 0)\n#define timespec64 timespec\n#endif\n"
        src = write(tmp / "src", {"compat.h": COMPAT_H + own, "main.c": MAIN_C})
        proc = run_cli("convert", str(src), "--out", str(tmp / "out"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        report = json.loads((tmp / "out" / "y2038-convert.json").read_text())
        self.assertNotIn("timespec64", report["compat_header"]["names"])

    def test_a_fallback_stands_only_where_its_old_names_exist(self):
        since_2_6_20 = kv.KernelRange(kv.code(2, 6, 20), kv.code(6, 12, 255), "test")
        usable = compat_fallbacks.usable(since_2_6_20, {"do_gettimeofday"})
        self.assertIn("ktime_get_real_ts64", usable)  # getnstimeofday: 2.6.11
        self.assertNotIn("ktime_get_raw_ts64", usable)  # getrawmonotonic came in 2.6.28
        self.assertIn("ktime_get_raw_ts64", compat_fallbacks.usable(since_2_6_20, {"getrawmonotonic"}))
        self.assertNotIn("timespec64_sub", usable)  # history of timespec_sub not known here
        self.assertIn("timespec64_sub", compat_fallbacks.usable(since_2_6_20, {"timespec_sub"}))
        # a range that starts at 3.17 needs no tier below it
        self.assertIn("ktime_get_raw_ts64",
                      compat_fallbacks.usable(kv.KernelRange(kv.code(3, 17, 0), kv.code(6, 12, 255), "t"), set()))
        for fallback in compat_fallbacks.FALLBACKS.values():  # each agrees with the rules' // Introduced:
            known = [h.introduced[fallback.name] for _, campaign_rules in rules.campaigns()
                     for h in map(api_availability.RuleHistory.of, campaign_rules) if fallback.name in h.introduced]
            if known:
                self.assertEqual(kv.parse(fallback.tiers[-1].before), min(known), fallback.name)

    def test_the_include_goes_after_the_last_unconditional_one(self):
        guarded = "#ifndef DRV_H\n#define DRV_H\n#include <linux/time.h>\n#ifdef X\n#include <a.h>\n#endif\nint x;\n#endif\n"
        self.assertEqual(compat_fallbacks.with_include(guarded, "sub/drv.h"),
                         guarded.replace("time.h>\n", 'time.h>\n#include "../y2038-compat.h"\n'))
        branchy = "#include <a.h>\n#ifndef EXTERNAL\n#include <b.h>\n#else\n#include \"b.h\"\n#endif\nint y;\n"
        self.assertEqual(compat_fallbacks.with_include(branchy, "c.c"),
                         branchy.replace("a.h>\n", 'a.h>\n#include "y2038-compat.h"\n'))

    def test_min_kernel_drops_dead_compat_code_and_converts(self):
        self.assertEqual(self.newer.returncode, 0, self.newer.stderr)
        main = (self.tmp / "5.10" / "main.c").read_text()
        compat = (self.tmp / "5.10" / "compat.h").read_text()
        self.assertIn("hrtimer_start(&timer, ns, HRTIMER_MODE_REL);", main)
        self.assertIn("*out = timeout;", main)
        self.assertIn("ktime_get_real_ts64(&tv);", main)
        self.assertNotIn(".tv64", compat)
        self.assertIn("# define first_tv64 first\n", compat)
        # the shim's own body is never rewritten into a call of itself
        self.assertIn("\tktime_get_real_ts64(&ts);\n\ttv->tv_sec = ts.tv_sec;", compat)
        report = self.report("5.10")
        self.assertEqual(report["compat"]["branches_dropped"], 3)
        self.assertEqual(report["needs_newer_kernel"], [])


class OneFilesTrouble(unittest.TestCase):
    """A rule pair that never settles, a file unifdef refuses, a spatch
    timeout: each is listed, the file keeps its last good content, every
    other file is converted, and the exit status says so (3)."""

    def test_problems_are_listed_and_the_rest_converted(self):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-trouble-"))
        self.addCleanup(shutil.rmtree, tmp)
        cocci = tmp / "cocci" / "flip"
        cocci.mkdir(parents=True)
        header = ("/// {what}\n// Confidence: High\n// Scope: all\n// Introduced: 2.6.16 {new}\n"
                  "// Removed: -\n// Sites: independent\n// Subject: flip\n// Options: --no-includes\n\n"
                  "virtual patch\n\n@@\n@@\n- {old}(\n+ {new}(\n  ...)\n")
        (cocci / "a_to_b.cocci").write_text(header.format(what="a to b", old="flip_a", new="flip_b"))
        (cocci / "b_to_a.cocci").write_text(header.format(what="b to a", old="flip_b", new="flip_a"))
        shutil.copytree(REPO / "cocci" / "ktime-scalar", tmp / "cocci" / "ktime-scalar")
        src = write(tmp / "src", {
            "flips.c": "void f(void)\n{\n\tflip_a(1);\n}\n",
            "stray.c": "#if BITS_PER_LONG != 64 && !defined(CONFIG_KTIME_SCALAR)\nint a;\n#endif\n#endif\n",
            "good.c": "#include <linux/hrtimer.h>\nvoid g(struct hrtimer *t)\n{\n"
                      "\thrtimer_start(t, ktime_set(0, 5), HRTIMER_MODE_REL);\n}\n",
        })
        proc = run_cli("convert", str(src), "--out", str(tmp / "out"),
                       env={"Y2038_COCCI_DIR": str(tmp / "cocci")})
        self.assertEqual(proc.returncode, 3, proc.stdout + proc.stderr)
        report = json.loads((tmp / "out" / "y2038-convert.json").read_text())
        problems = "\n".join(report["problems"])
        self.assertIn("flips.c: still changed by", problems)
        self.assertIn("stray.c: not converted by this rule", problems)
        self.assertIn("hrtimer_start(t, 5, HRTIMER_MODE_REL);", (tmp / "out" / "good.c").read_text())
        self.assertEqual((tmp / "out" / "stray.c").read_text(), (src / "stray.c").read_text())

    def test_a_spatch_timeout_is_listed_and_the_rest_converted(self):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-timeout-"))
        self.addCleanup(shutil.rmtree, tmp)
        body = "".join(f"\tif (x == {n}) y = ktime_set(0, {n});\n" for n in range(4000))
        src = write(tmp / "src", {"huge.c": f"void h(int x, ktime_t y)\n{{\n{body}}}\n",
                                  "good.c": "void g(ktime_t *k)\n{\n\t*k = ktime_set(0, 5);\n}\n"})
        proc = run_cli("convert", str(src), "--out", str(tmp / "out"), "--timeout", "1", "--min-kernel", "5.10",
                       env={"Y2038_SPATCH_CACHE": str(tmp / "cache")})
        report = json.loads((tmp / "out" / "y2038-convert.json").read_text())
        self.assertIn("*k = 5;", (tmp / "out" / "good.c").read_text())
        if proc.returncode == 3:
            self.assertTrue(any(p.startswith("huge.c: not converted by this rule: spatch:")
                                for p in report["problems"]), report["problems"])
        else:  # spatch finished within the second: then the file was converted
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("huge.c", report["changed"])


class TimekeepingInclude(unittest.TestCase):
    """In 3.x <linux/time.h> declared the clock accessors; <linux/timekeeping.h>
    declares their replacements: a converted file that has no way to it gets
    <linux/ktime.h>, which includes it after what it needs."""

    def test_added_where_needed_and_only_there(self):
        from y2038lib.outoftree.convert import with_timekeeping_include
        before = b'#include <linux/time.h>\n#include "drv.h"\n\nvoid f(struct timespec *t) { getnstimeofday(t); }\n'
        after = before.replace(b"getnstimeofday", b"ktime_get_real_ts64").replace(b"timespec", b"timespec64")
        self.assertEqual(with_timekeeping_include(before, after),
                         after.replace(b'<linux/time.h>\n', b'<linux/time.h>\n#include <linux/ktime.h>\n'))
        only_local = b'#include "drv.h"\n\nvoid f(void) { x = ktime_get_real_seconds(); }\n'
        self.assertTrue(with_timekeeping_include(b"", only_local).startswith(b"#include <linux/ktime.h>\n"))
        through_ktime = b"#include <linux/ktime.h>\nvoid f(void) { ktime_get_ts64(&t); }\n"
        self.assertEqual(with_timekeeping_include(b"", through_ktime), through_ktime)
        unchanged_use = b"#include <linux/time.h>\nvoid f(void) { ktime_get_ts64(&t); }\n"
        self.assertEqual(with_timekeeping_include(unchanged_use, unchanged_use), unchanged_use)


class UnbalancedByRules(unittest.TestCase):
    """A rule that leaves a file whose #if/#endif no longer pair up (the
    seed's ktime.h once did) is that rule's problem for that file: the file
    is kept as it was, the run goes on (never a traceback)."""

    def conversion(self, root: Path, rules_files: dict):
        from types import SimpleNamespace
        evaluator = kv.Evaluator(kv.Macros())
        return SimpleNamespace(project=SimpleNamespace(evaluator=evaluator), source=SimpleNamespace(src=root),
                               report={"problems": [], "campaigns": [{"rules": [
                                   {"path": path, "files": files} for path, files in rules_files.items()]}]})

    def test_the_file_is_kept_and_the_rule_named(self):
        from y2038lib.outoftree.convert import unbalanced_by_rules
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "k.h").write_text("#if A\nint x;\n#endif\nint y;\n")
            (root / "ok.c").write_text("#if A\nint x;\n#endif\n")
            (root / "bad.c").write_text("#endif\n")  # unbalanced as written: not the rules' doing
            conv = self.conversion(root, {"cocci/c/r.cocci": {"k.h": 1}, "cocci/c/s.cocci": {"ok.c": 1}})
            changed = {"k.h": b"int x;\n#endif\nint y;\n", "ok.c": b"int x;\n", "bad.c": b"#endif\nint z;\n"}
            self.assertEqual(unbalanced_by_rules(conv, changed), ["k.h"])
            self.assertEqual(len(conv.report["problems"]), 1)
            self.assertTrue(conv.report["problems"][0].startswith("k.h: left as it was:"))
            self.assertIn("#endif without #if", conv.report["problems"][0])
            self.assertIn("[cocci/c/r.cocci]", conv.report["problems"][0])


class EachStepIsolated(unittest.TestCase):
    """Never a traceback: each kind of per-file failure (a spatch error, a
    rule's Python exception, a result whose #if/#endif no longer pair, the
    version filter's, the whole-driver pass's and the compile-free check's
    exceptions) is a problem line naming the file and the rule or step; the
    file keeps its last good content, the others are converted, exit 3.
    The failures without a cheap real cause are planted by monkeypatching."""

    FLIP = ("/// {what}\n// Confidence: High\n// Scope: all\n// Introduced: 2.6.16 {new}\n// Removed: -\n"
            "// Sites: independent\n// Subject: {what}\n// Options: --no-includes\n\nvirtual patch\n\n{body}")

    def planted_rules(self, root: Path) -> Path:
        cocci = root / "cocci"
        (cocci / "legacy-time-api").mkdir(parents=True)  # the whole-driver pass runs before it
        (cocci / "legacy-time-api" / "flip.cocci").write_text(self.FLIP.format(
            what="flip", new="flip_b", body="@@\n@@\n- flip_a(\n+ flip_b(\n  ...)\n"))
        # one disjunction rewriting a literal and, inside it, a member: spatch's "already tagged token"
        (cocci / "legacy-time-api" / "twice.cocci").write_text(self.FLIP.format(
            what="twice", new="twice_b", body="@@\ntypedef kt;\nexpression E, x;\n@@\n(\n- (kt){ .ns = E }\n+ E\n|\n"
                 "- x.ns\n+ x\n)\n"))
        shutil.copytree(REPO / "cocci" / "ktime-scalar", cocci / "ktime-scalar")
        return cocci

    def test_every_failure_kind_is_a_problem_of_its_file(self):
        from unittest import mock
        from y2038lib import cli
        from y2038lib.engine import apply
        from y2038lib.outoftree import driver_types
        tmp = Path(tempfile.mkdtemp(prefix="y2038-isolated-"))
        self.addCleanup(shutil.rmtree, tmp)
        cocci = self.planted_rules(tmp)
        flip = "void {name}(void)\n{{\n\tflip_a(1);\n}}\n"
        names = ("good", "endif", "filter", "check", "whole")
        src = write(tmp / "src", {**{f"{n}.c": flip.format(name=n) for n in names},
                                  "tagged.c": "kt t(kt a)\n{\n\treturn (kt){ .ns = a.ns };\n}\n",
                                  "raises.c": "#ifdef CONFIG_KTIME_SCALAR\nint r;\n#endif\n"})
        real = {"batch": apply.run_spatch_batch, "text": apply.run_text_rule, "campaigns": rules.campaigns,
                "filter": api_availability.SiteFilter.__call__, "uses": api_availability.unavailable_uses,
                "driver": driver_types.convert}

        def batch(rule, inputs, timeout, extra=(), tree=None):  # a rule that unpairs the conditionals of endif.c
            results = real["batch"](rule, inputs, timeout, extra, tree)
            if "endif.c" in results and results["endif.c"]["status"] == "changed":
                results["endif.c"]["output"] += b"#endif\n"
            return results

        def text_rule(rule, relpath, content):
            if relpath == "raises.c":
                raise RuntimeError("planted in a text rule")
            return real["text"](rule, relpath, content)

        def site_filter(self_, rule, relpath, before, after):
            if relpath == "filter.c":
                raise KeyError("planted in the version filter")
            return real["filter"](self_, rule, relpath, before, after)

        def uses(original, converted, *args):
            if "void check(" in converted:
                raise ValueError("planted in the compile-free check")
            return real["uses"](original, converted, *args)

        def driver(texts, allowed):
            if "whole.c" in texts:
                raise IndexError("planted in the whole-driver pass")
            return real["driver"](texts, allowed)

        with mock.patch.object(apply, "run_spatch_batch", batch), \
                mock.patch.object(apply, "run_text_rule", text_rule), \
                mock.patch.object(rules, "campaigns", lambda selected=None: real["campaigns"](selected, cocci)), \
                mock.patch.object(api_availability.SiteFilter, "__call__", site_filter), \
                mock.patch.object(api_availability, "unavailable_uses", uses), \
                mock.patch.object(driver_types, "convert", driver), \
                mock.patch.dict("os.environ", {"Y2038_SPATCH_CACHE": str(tmp / "cache")}):
            code = cli.main(["convert", str(src), "--out", str(tmp / "out"), "--jobs", "1"])
        self.assertEqual(code, 3)
        problems = json.loads((tmp / "out" / "y2038-convert.json").read_text())["problems"]
        expected = {
            "tagged.c": "not converted by this rule: spatch: Failure(\"rule starting on line",
            "raises.c": "not converted by this rule: exception: RuntimeError: planted in a text rule",
            "endif.c": "not converted by this rule: conditionals: its result no longer pairs #if/#endif",
            "filter.c": "not converted by this rule: version filter: KeyError: 'planted in the version filter'",
            "check.c": "not checked: exception: ValueError: planted in the compile-free check",
            "whole.c": "left out of the whole-driver pass: exception: IndexError: planted in the whole-driver pass"}
        self.assertTrue(any("already tagged token" in p for p in problems if p.startswith("tagged.c")), problems)
        for relpath, what in expected.items():
            self.assertTrue(any(p.startswith(f"{relpath}: {what}") for p in problems), (relpath, problems))
        rules_of = {"tagged.c": "twice.cocci", "raises.c": "ktime_scalar_ifdefs.unifdef", "endif.c": "flip.cocci",
                    "filter.c": "flip.cocci", "check.c": "compile-free check", "whole.c": "whole-driver"}
        for relpath, rule in rules_of.items():
            self.assertTrue(any(p.startswith(f"{relpath}: ") and p.endswith(f"{rule}]") for p in problems),
                            (relpath, problems))
        out = tmp / "out"
        for unchanged in ("tagged.c", "raises.c", "endif.c", "filter.c"):  # the last good content: the original
            self.assertEqual((out / unchanged).read_text(), (src / unchanged).read_text(), unchanged)
        for converted in ("good.c", "check.c", "whole.c"):  # flip.cocci still ran on them
            self.assertIn("flip_b(1);", (out / converted).read_text(), converted)


CAPTURE_C = """\
#include <media/videobuf-core.h>

struct cam_buffer {
	struct videobuf_buffer vb;
	int fmt;
};

static void cam_fill(struct cam_buffer *buf)
{
	buf->vb.state = VIDEOBUF_DONE;
	do_gettimeofday(&buf->vb.ts);
}
"""


class PerMinKernel(unittest.TestCase):
    """The legacy-time-api campaign run once on FILES for each --min-kernel
    of KERNELS (self.runs, outputs under self.tmp / kernel)."""
    FILES: dict = {}
    KERNELS: tuple = ()

    MAX_KERNEL: tuple = ()  # ("--max-kernel", "X.Y") for every run

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-range-"))
        cls.src = write(cls.tmp / "src", cls.FILES)
        cls.runs = {k: run_cli("convert", str(cls.src), "--out", str(cls.tmp / k), "--campaign", "legacy-time-api",
                               "--min-kernel", k, *cls.MAX_KERNEL) for k in cls.KERNELS}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)


class VideobufRange(PerMinKernel):
    """struct videobuf_buffer's ts is a struct timeval before 5.1 and u64
    nanoseconds after: the stamp changes only where every kernel of the
    range has the u64 field."""
    FILES = {"capture.c": CAPTURE_C}
    KERNELS = ("4.19", "5.1")

    def test_a_range_from_4_19_keeps_the_stamp_and_says_why(self):
        self.assertEqual(self.runs["4.19"].returncode, 0, self.runs["4.19"].stderr)
        self.assertIn("do_gettimeofday(&buf->vb.ts);", (self.tmp / "4.19" / "capture.c").read_text())
        report = json.loads((self.tmp / "4.19" / "y2038-convert.json").read_text())
        self.assertIn("capture.c:11: u64 nanoseconds in struct videobuf_buffer's ts needs Linux 5.1; "
                      "this code supports 4.19", "\n".join(report["needs_newer_kernel"]))

    def test_a_range_from_5_1_stores_nanoseconds(self):
        self.assertEqual(self.runs["5.1"].returncode, 0, self.runs["5.1"].stderr)
        self.assertIn("\tbuf->vb.state = VIDEOBUF_DONE;\n\tbuf->vb.ts = ktime_get_real_ns();\n}",
                      (self.tmp / "5.1" / "capture.c").read_text())


INODE_TIMES_C = """\
void keep_times(struct inode *inode, struct inode *copy)
{
	struct timespec now;
	struct timespec atime;

	getnstimeofday(&now);
	atime = inode->i_atime;
	copy->i_atime = atime;
	copy->i_mtime = now;
}
"""


class InodeTimesRange(PerMinKernel):
    """struct inode's time members are struct timespec64 from Linux 4.18
    and gone (accessors instead) from 6.6 (i_ctime) and 6.7 (i_atime,
    i_mtime): the locals copied to and from them convert only where every
    kernel of the range has them so (the whole-driver pass reads the
    member's name against its history, as it reads the functions it
    writes); the range up to 6.12 refuses them too (TimesPastTheMembers)."""
    FILES = {"times.c": INODE_TIMES_C}
    KERNELS = ("4.14", "4.19")
    MAX_KERNEL = ("--max-kernel", "6.5")

    def test_from_4_19_the_locals_convert(self):
        self.assertEqual(self.runs["4.19"].returncode, 0, self.runs["4.19"].stderr)
        self.assertIn("\tstruct timespec64 now;\n\tstruct timespec64 atime;\n\n\tktime_get_real_ts64(&now);\n"
                      "\tatime = inode->i_atime;", (self.tmp / "4.19" / "times.c").read_text())

    def test_from_4_14_they_stay_and_the_report_says_why(self):
        self.assertEqual(self.runs["4.14"].returncode, 0, self.runs["4.14"].stderr)
        self.assertIn("\tstruct timespec atime;\n", (self.tmp / "4.14" / "times.c").read_text())
        report = (self.tmp / "4.14" / "y2038-convert.txt").read_text()
        self.assertIn("the kernel range does not allow this change [local atime: kept as struct timespec]", report)


class TimesPastTheMembers(PerMinKernel):
    FILES = {"times.c": INODE_TIMES_C}
    KERNELS = ("4.19",)

    def test_a_range_up_to_6_12_keeps_them_and_says_why(self):
        self.assertEqual(self.runs["4.19"].returncode, 0, self.runs["4.19"].stderr)
        self.assertIn("\tstruct timespec atime;\n", (self.tmp / "4.19" / "times.c").read_text())
        self.assertIn("the kernel range does not allow this change [local atime: kept as struct timespec]",
                      (self.tmp / "4.19" / "y2038-convert.txt").read_text())


class CompileFreeCheck(unittest.TestCase):
    """A line a conversion wrote may name nothing a kernel of the range
    lacks: no name added after the range's first kernel, and no structure
    type, call or macro removed before a kernel of it (a rewritten copy that
    still casts to struct timeval does not build from 5.6 on).  A member
    named like a removed one (ktime's tv) is any variable's name too."""

    ORIGINAL = "int get(unsigned long arg)\n{\n\tstruct timeval tv;\n\n\tdo_gettimeofday(&tv);\n" \
               "\treturn copy_to_user((struct timeval *)arg, &tv, sizeof(tv));\n}\n"

    def check(self, converted: str, lo=(4, 19, 0)):
        project = kv.Project({"t.c": self.ORIGINAL})
        samples = kv.samples_for(project.tested, kv.code(*lo), kv.code(6, 12, 255))
        histories = [api_availability.RuleHistory.of(r) for _, rs in rules.campaigns() for r in rs]
        histories.append(convert.WHOLE_DRIVER_HISTORY)  # what the whole-driver pass writes, as convert checks it
        return api_availability.unavailable_uses(self.ORIGINAL, converted, project, samples, histories,
                                                 {"__kernel_old_timeval"})  # y2038-compat.h's, before 5.1

    def test_a_written_line_naming_a_removed_type_is_listed(self):
        found = self.check(self.ORIGINAL.replace("struct timeval tv;", "struct timespec64 tv;").replace(
            "do_gettimeofday(&tv);", "ktime_get_real_ts64(&tv);").replace(
            "copy_to_user((struct timeval *)arg, &tv, sizeof(tv))",
            "put_user(tv.tv_sec, &((struct __kernel_old_timeval __user *)(struct timeval *)arg)->tv_sec)"))
        self.assertTrue(found)
        self.assertTrue(all(" timeval (gone since 5.6): " in f and "put_user(" in f for f in found), found)

    def test_a_call_removed_before_the_range_is_listed_and_a_member_named_tv_is_not(self):
        found = self.check(self.ORIGINAL.replace("do_gettimeofday(&tv);", "ktime_get_real_ts64(&tv);\n"
                                                 "\tfoo.tv = getnstimeofday(NULL) ? 0 : 1;"))
        self.assertEqual({f.split(" (")[0].split(": ")[1] for f in found}, {"getnstimeofday"})

    def test_a_clean_conversion_lists_nothing_and_comments_are_no_use(self):
        self.assertEqual(self.check(self.ORIGINAL.replace("struct timeval tv;", "struct timespec64 tv;").replace(
            "do_gettimeofday(&tv);", "ktime_get_real_ts64(&tv); /* was do_gettimeofday(), not ktime_get_coarse_real_ns() */").replace(
            "copy_to_user((struct timeval *)arg, &tv, sizeof(tv))",
            "put_user(tv.tv_sec, &((struct __kernel_old_timeval __user *)arg)->tv_sec)")), [])


TIME_T_C = """\
#include <linux/version.h>

/* a time_t in a comment is no use */
static time_t last_seen;

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 6, 0)
static time_t legacy_stamp(void)
{
	return get_seconds();
}
#endif

long age(long now)
{
	return now - last_seen;
}

#ifndef __KERNEL__
struct age_user_stamp {
	time_t sec;
};
#endif
"""


class RemovedTypedef(unittest.TestCase):
    """time_t left include/linux/types.h in 5.6; which type replaces it (time64_t,
    whose division on 32-bit machines needs div_s64(), or a user ABI's
    __kernel_old_time_t) is not the rules' choice: each line a kernel of the
    range from 5.6 on compiles is listed as left, a branch for older kernels,
    a user-space-only declaration (libc's time_t) and a comment are not, nor
    anything when the range stops before 5.6."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-time-t-"))
        src = write(cls.tmp / "src", {"age.c": TIME_T_C})
        cls.runs = {name: run_cli("convert", str(src), "--out", str(cls.tmp / name), "--campaign", "legacy-time-api",
                                  "--min-kernel", "4.19", *extra)
                    for name, extra in (("6.12", ()), ("5.4", ("--max-kernel", "5.4")))}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def left(self, name):
        self.assertEqual(self.runs[name].returncode, 0, self.runs[name].stderr)
        return json.loads((self.tmp / name / "y2038-convert.json").read_text())["left"]

    def test_a_line_a_kernel_from_5_6_compiles_is_left(self):
        left = [line for line in self.left("6.12") if line.endswith("[time_t]")]
        self.assertEqual([line.split(": ")[0] for line in left], ["age.c:4"])
        self.assertIn("time_t is gone from Linux 5.6: time64_t", left[0])

    def test_a_range_that_stops_before_5_6_lists_none(self):
        self.assertFalse([line for line in self.left("5.4") if line.endswith("[time_t]")])


UNCONVERTED_C = """\
#include <linux/version.h>
#include <linux/time.h>

#ifndef __KERNEL__
struct timeval user_side;
#endif

/* the driver's own stand-in for a removed call: its callers build */
static inline void do_settimeofday(struct timespec64 *ts) { }

extern void board_log(struct timeval *tv);
struct timespec;
extern long board_wait(const struct timespec __user *timeout);

static void board_stamp(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	board_log(&tv);
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 0, 0)
static void board_old(struct timeval *tv)
{
	do_gettimeofday(tv);
}
#endif

static void board_set(struct timespec64 *ts)
{
	do_settimeofday(ts);
}
"""


class UnconvertedRemovedNames(unittest.TestCase):
    """A line the newest kernel of the range compiles that still names an API
    it lacks does not build there: convert lists each such line no other entry
    of the report lists, so nothing that stops the module building is passed
    over in silence; not a pointer to a structure no header defines (an
    incomplete type compiles), nor a line only older kernels or user space compile (a
    `#ifndef __KERNEL__` arm, a file including a C library header), nor a
    name the driver defines itself, nor a line a rule already reported."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-unconverted-"))
        tool = ("#include <stdio.h>\n#include <sys/time.h>\n#include \"portable.h\"\n\n"  # a user-space tool beside it
                "struct timeval started;\n\nint main(void)\n{\n\treturn gettimeofday(&started, NULL);\n}\n")
        # the tool's own header: its struct timeval is libc's stand-in, not the module's
        portable = "#ifndef HAVE_STRUCT_TIMEVAL\nstruct timeval { long tv_sec; long tv_usec; };\n#endif\n"
        # the module's own <sys/...> header (-I): no libc; a config symbol and a member call named like removed API
        solx = ("#include <sys/debug.h>\n\nstatic void solx_show(void) { struct timeval when = solx_when(); }\n\n"
                "static long solx_secs(struct solx_hw *hw)\n{\n\tif (IS_ENABLED(CONFIG_KTIME_SCALAR))\n"
                "\t\treturn 0;\n\treturn hw->ops->get_seconds(hw->priv);\n}\n")
        own_time = ("#if !defined(HAVE_LINUX_TIME_T)\ntypedef time64_t time_t;\n#endif\n\n"  # its own where the kernel's went
                    "static time_t last_seen;\n"
                    "/* the record user space reads: struct timeval { long tv_sec; long tv_usec; }; */\n")
        src = write(cls.tmp / "src", {"stamp.c": UNCONVERTED_C, "tools/stamp-read.c": tool, "own_time.c": own_time,
                                      "tools/portable.h": portable, "solx/solx.c": solx,
                                      "include/sys/debug.h": "#define ASSERT(x) BUG_ON(!(x))\n"})
        cls.result = run_cli("convert", str(src), "--out", str(cls.tmp / "out"), "--min-kernel", "4.19")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def left(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        return json.loads((self.tmp / "out" / "y2038-convert.json").read_text())["left"]

    def test_each_unlisted_line_naming_a_removed_api_is_left(self):
        unconverted = [line for line in self.left() if line.endswith("[unconverted]")]
        # not tools/, nor lines 11-13's pointers and forward declaration (an incomplete type compiles)
        self.assertEqual([line.split(": ")[0] for line in unconverted], ["stamp.c:17"])
        self.assertIn("struct timeval is gone from Linux 5.6 and no rule converted this use", unconverted[0])

    def test_a_module_header_under_sys_is_no_libc_and_a_member_or_config_name_no_kernel_api(self):
        # its <sys/debug.h> is the module's own: the file is the kernel's and its kept local is listed, once;
        # IS_ENABLED(CONFIG_KTIME_SCALAR) (line 7) and hw->ops->get_seconds() (line 9) compile
        solx = [line.split(": ")[0] for line in self.left() if line.startswith("solx/")]
        self.assertEqual(solx, ["solx/solx.c:3"])

    def test_nothing_of_a_user_space_tool_is_left(self):
        self.assertFalse([line for line in self.left() if line.startswith("tools/")])

    def test_a_typedef_the_driver_defines_is_not_listed(self):
        self.assertFalse([line for line in self.left() if line.startswith("own_time.c")])

    def test_a_line_a_rule_reported_is_listed_once(self):
        left = self.left()
        at19 = [line for line in left if line.startswith("stamp.c:19:")]
        self.assertEqual(len(at19), 1, left)
        self.assertIn("[cocci/legacy-time-api/do_gettimeofday.cocci]", at19[0])


BOARD_C = """\
#include <linux/time.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 32)
#define BOARD_OLD_RTC 1
#endif

void read_persistent_clock(struct timespec *ts)
{
\tts->tv_sec = 0;
\tts->tv_nsec = 0;
}

static u64 board_uptime_ns(void)
{
\tstruct timespec ts;

\tktime_get_ts(&ts);
\treturn timespec_to_ns(&ts);
}

struct board_clock {
\tstruct timespec boot;
};

static void board_boot_stamp(struct board_clock *clk)
{
\tktime_get_ts(&clk->boot);
\tmonotonic_to_bootbased(&clk->boot);
}
"""


class WrittenLines(unittest.TestCase):
    def test_a_line_of_a_rewritten_run_maps_to_the_same_share_of_its_replacement(self):
        read = "a\n" + "".join(f"old{i}\n" for i in range(6)) + "z\n"
        written = ("a\nnew0\nnew1\nnew2\nz\n").encode()  # six lines merged into three
        moved = [convert.on_written_lines(f"x.c:{line}: why", {"x.c": read}, {"x.c": written}, {})
                 for line in (2, 4, 6, 8)]
        self.assertEqual([m.split(":")[1] for m in moved], ["2", "3", "4", "5"])


class ReportLines(unittest.TestCase):
    """Every entry of the report names the line as OUT has it: a group the
    whole-driver pass keeps is read before the rules that add an #include
    (or lines) above it, after dead branches went, and is listed where it
    ended up."""

    def converted(self, min_kernel: str):
        """(OUT's board.c as lines, the report's left entries)."""
        tmp = Path(tempfile.mkdtemp(prefix="y2038-lines-"))
        self.addCleanup(shutil.rmtree, tmp)
        src = write(tmp / "src", {"board.c": BOARD_C})
        result = run_cli("convert", str(src), "--out", str(tmp / "out"), "--min-kernel", min_kernel)
        self.assertEqual(result.returncode, 0, result.stderr)
        return ((tmp / "out" / "board.c").read_text().split("\n"),
                json.loads((tmp / "out" / "y2038-convert.json").read_text())["left"])

    def test_a_kept_group_is_listed_at_its_line_in_out(self):
        written, left = self.converted("4.4")
        self.assertEqual(written[2], "#include <linux/ktime.h>")  # added above the hook, 3 dead lines dropped
        kept = [line for line in left if "[param ts: kept as struct timespec] [whole-driver]" in line]
        self.assertEqual(len(kept), 1, left)
        line = int(kept[0].split(":")[1])
        self.assertEqual(written[line - 1], "void read_persistent_clock(struct timespec *ts)")

    def test_a_kept_line_a_later_rule_rewrote_is_listed_where_the_rewrite_stands(self):
        written, left = self.converted("4.19")
        kept = [line for line in left if "[field boot: kept as struct timespec] [whole-driver]" in line]
        self.assertEqual(len(kept), 1, left)  # boottime_pair merged the two lines after the pass read them
        self.assertEqual(written[int(kept[0].split(":")[1]) - 1], "\tget_monotonic_boottime(&clk->boot);")
