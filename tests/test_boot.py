# SPDX-License-Identifier: GPL-2.0-only
"""The boot stage in QEMU: the committed series boots and keeps time on
x86_64 and 32-bit ARM, and a planted timekeeping bug is caught.

PackagedSeriesBoots boots pristine and patched kernels of both architectures
for the verified series committed in generated-patches/ (on a copy, so the
committed results are not touched; --pristine always).  PlantedBug boots an
x86_64 kernel whose ktime_get_real_ts64() truncates seconds to 32 bits, the
y2038 bug itself; the boot verdict must be FAIL and name the check that
caught it, the selftests of the timekeeping code it touched must have run,
and a second boot of the same kernel is not run again.
"""
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path

from helpers import REPO, planted_series, run_cli
from y2038lib.verification import legacy
from y2038lib import tree as tree_stage
KVER = os.environ.get("KVER", "6.1")
TARBALL = Path(f"/usr/src/linux-source-{KVER}.tar.xz")
Y2038_CHECKS = ("init.clock_nanosleep_abstime_past_2038", "init.time_t_past_int32_max", "init.gmtime_2038_01_19",
                "init.syscall_and_vdso_agree", "init.timerfd_abstime_past_2038", "init.rtc_post_2038_roundtrip",
                "init.rtc_at_boot")
# per kernel, each fix proven in a boot: a word of its patch's name, the check's
# machine, and the check's cases that fail without the fix (exactly these)
FIX_PROOFS_EXPECTED = {
    "6.1.192": [("sunrpc", "x86_64", ["kunit.y2038_gss_krb5_v1.expired_after_2038"])],
    # stmmac's and wave5's checks (boot-tests/fix-checks/) prove fixes 6.12.118's series holds: mainline
    # has stmmac's (posting/mainline_fixes.py); wave5's driver runs on arm64 only (platforms.py)
    "6.12.118": [("lpfc", "arm", ["kunit.y2038_lpfc_cmf.cmf_stats_timer_is_one_minute"]),
                 ("perf", "arm", ["kunit.y2038_perf_mux.five_seconds"]),
                 ("io_uring", "arm", ["kunit.y2038_io_uring_min_wait.five_seconds"]),
                 ("workqueue", "arm", ["kunit.y2038_wq_cpu_intensive.five_seconds"])],
}


@unittest.skipUnless(TARBALL.exists(), f"{TARBALL} is not installed (make deps installs it)")
class PackagedSeriesBoots(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        run_cli("tree", "--kver", KVER, check=True)
        cls.tree = tree_stage.load(KVER)
        committed = REPO / "generated-patches" / f"linux-{cls.tree.version}"
        if not (committed / "results.json").exists() or "build" not in json.loads((committed / "results.json").read_text()):
            raise unittest.SkipTest(f"no built series for {cls.tree.version} committed: run `make run KVER={KVER}`")
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-boot-"))
        shutil.copytree(committed, cls.tmp / "series")
        cls.proc = run_cli("boot", "--kver", KVER, "--out", str(cls.tmp / "series"), "--pristine", "always")
        cls.results = json.loads((cls.tmp / "series" / "results.json").read_text())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_patched_kernels_pass(self):
        for arch in ("x86_64", "arm"):
            boot = self.results["boot"][arch]
            self.assertEqual(boot["verdict"], "pass", f"{arch}: {boot['problems']}\n{self.proc.stdout}")
            self.assertEqual(boot["regressions"], [])
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr[-2000:])

    def test_every_fix_with_a_check_is_proven_across_2038(self):
        """A fix's boot check fails on the kernel without it and passes with it,
        and exactly the cases the fix is about fail without it (6.1: the GSS v1
        context that never expires after 2038, on x86_64; 6.12 on 32-bit arm:
        lpfc's one-minute statistics timer armed for 4.17 s, stmmac's PTP
        snapshot seconds kept modulo 2^32 ns, perf's 5000 ms multiplexing
        interval wrapped to 705 ms, io_uring's 5 s minimum wait ending after
        705 ms, the workqueue's 5 s CPU-intensive threshold acting as 705 ms)."""
        fix_postings = [p for p in self.results["postings"] if p.get("fix")]
        proofs = self.results.get("fix_proofs", {})
        for posting in fix_postings:
            for name in posting["patches"]:
                proof = proofs[name]
                if not proof.get("check"):
                    continue
                self.assertEqual(proof["verdict"], "proven", f"{name}: {proof}")
                self.assertEqual(proof["before"]["verdict"], "fail", name)
                self.assertEqual(proof["after"]["verdict"], "pass", name)
                self.assertTrue(proof["before"]["cases"] and proof["after"]["cases"], name)
        for word, arch, failing in FIX_PROOFS_EXPECTED.get(self.tree.version, ()):
            names = [n for n in proofs if word in n.lower()]
            self.assertEqual(len(names), 1, f"{word}: {proofs.keys()}")
            self.assertEqual(proofs[names[0]].get("arch"), arch, names[0])
            failed = [c["name"] for c in proofs[names[0]]["before"]["cases"] if c["result"] == "fail"]
            self.assertEqual(failed, failing, names[0])

    def test_pristine_kernels_pass(self):
        for arch in ("x86_64", "arm"):
            self.assertEqual(self.results["boot_pristine"][arch]["verdict"], "pass", arch)

    def test_2038_checks_kunit_and_selftests_ran(self):
        for key in ("boot", "boot_pristine"):
            for arch in ("x86_64", "arm"):
                boot = self.results[key][arch]
                results = {t["name"]: t["result"] for t in boot["tests"]}
                for check in Y2038_CHECKS:
                    self.assertEqual(results.get(check), "pass", f"{key} {arch}: {check}")
                # what ran is what the plan said, and the reason is recorded
                for suite in boot["suites"]["kunit"]:
                    self.assertTrue([n for n in results if n.startswith(f"kunit.{suite}.")], f"{key} {arch}: {suite}")
                for selftest in boot["suites"]["selftests"]:
                    if selftest != "valid-adjtimex" or arch == "x86_64":
                        self.assertEqual(results.get(f"kselftest.{selftest}"), "pass", f"{key} {arch}: {selftest}")
                self.assertFalse([n for n in results if n.startswith("kselftest.") and
                                  n.removeprefix("kselftest.") not in boot["suites"]["selftests"]], f"{key} {arch}")
                self.assertTrue(boot["suites"]["why"])
            # the pristine kernel runs every suite
            self.assertEqual(sorted(self.results["boot_pristine"][arch]["suites"]["kunit"]),
                             ["rtc_lib_test_cases", "time_test_cases"])

    def test_converted_legacy_modules_pass_their_checks_across_2038(self):
        for key in ("boot", "boot_pristine"):
            for arch in ("x86_64", "arm"):
                boot = self.results[key][arch]
                results = {t["name"]: t["result"] for t in boot["tests"]}
                self.assertEqual(boot["legacy_build_warnings"], [], f"{key} {arch}")
                for module in (m.removeprefix("legacy_") for m in legacy.modules()):
                    checks = {n: r for n, r in results.items() if n.startswith(f"legacy/{module}/")}
                    self.assertEqual(checks.get(f"legacy/{module}/loaded"), "pass", f"{key} {arch} {module}")
                    self.assertEqual(checks.get(f"legacy/{module}/finished"), "pass", f"{key} {arch} {module}")
                    self.assertIn("pass", checks.get(f"legacy/{module}/clock_crosses_2038", "missing"))
                    self.assertGreaterEqual(len(checks), 8, f"{key} {arch} {module}: {checks}")
                    self.assertEqual([n for n, r in checks.items() if r != "pass"], [], f"{key} {arch}")
                for check in ("tstamp/device_read_past_2038", "tstamp/device_coarse_past_2038",
                              "sensor/ioctl_answers", "sensor/ioctl_time_past_2038"):
                    self.assertEqual(results.get(f"legacy/{check}"), "pass", f"{key} {arch} {check}")


@unittest.skipUnless(TARBALL.exists(), f"{TARBALL} is not installed (make deps installs it)")
class PlantedBug(unittest.TestCase):
    def test_truncated_realtime_seconds_fail_the_boot(self):
        run_cli("tree", "--kver", KVER, check=True)
        tree = tree_stage.load(KVER)
        path = "kernel/time/timekeeping.c"
        text = (tree.src / path).read_text()
        line = "\t\tts->tv_sec = tk->xtime_sec;"
        self.assertLess(text.index("void ktime_get_real_ts64("), text.index(line))
        with tempfile.TemporaryDirectory(prefix="y2038-planted-") as tmp:
            out = Path(tmp)
            names = planted_series(tree, out, [(path, line, "\t\tts->tv_sec = (s32)tk->xtime_sec;")])
            # the boot stage reads the verified patches from the build stage's results
            results = json.loads((out / "results.json").read_text())
            results["build"] = {"baseline": tree.baseline, "verified": names}
            (out / "results.json").write_text(json.dumps(results))
            proc = run_cli("boot", "--kver", KVER, "--out", str(out), "--arch", "x86_64", "--pristine", "never")
            results = json.loads((out / "results.json").read_text())
            again = run_cli("boot", "--kver", KVER, "--out", str(out), "--arch", "x86_64", "--pristine", "never")
            second = json.loads((out / "results.json").read_text())["boot"]["x86_64"]
        # the planted kernel is a new source: built and booted, not a cached result
        self.assertNotIn("patched x86_64: unchanged", proc.stderr)
        self.assertIn("patched x86_64: unchanged", again.stderr)
        self.assertEqual((again.returncode, second["verdict"], second["tests"]), (1, "fail", results["boot"]["x86_64"]["tests"]))
        # timekeeping.c is code the timer selftests exercise
        self.assertIn("kselftest.posix_timers", [t["name"] for t in results["boot"]["x86_64"]["tests"]])
        boot = results["boot"]["x86_64"]
        self.assertEqual(proc.returncode, 1, proc.stderr[-2000:])
        self.assertEqual(boot["verdict"], "fail")
        failed = [t["name"] for t in boot["tests"] if t["result"] == "fail"]
        self.assertIn("init.syscall_and_vdso_agree", failed, boot)
        # the converted legacy module compares ktime_get_real_ts64() with a deadline
        self.assertIn("legacy/clockstats/deadline_passed_after_2038", failed, boot)
