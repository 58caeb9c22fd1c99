# SPDX-License-Identifier: GPL-2.0-only
"""verification/fix_checks.py and fix_proofs.py without a kernel build:
the CHECK files (Arch: picks the boot machine, x86_64 when absent), how a
check is added to a boot kernel's tree (its test in the driver's
directory, built by a Makefile line there, its Kconfig entry appended) and
configured in on its machine only, and how a proof boots the patched tree,
then the tree without the fix, on a planted git tree."""
import os
import re
import shutil
import fnmatch
import subprocess
import tempfile
import threading
import unittest
from unittest import mock
from types import SimpleNamespace
from pathlib import Path

import helpers
helpers.put_tools_on_path()
from y2038lib.common import Y2038Error, git_env  # noqa: E402
from y2038lib.verification import boot, boot_suites, fix_checks, fix_proofs  # noqa: E402

LPFC_INIT = "drivers/scsi/lpfc/lpfc_init.c"
GSS_UNSEAL = "net/sunrpc/auth_gss/gss_krb5_unseal.c"
STMMAC_HWTSTAMP = "drivers/net/ethernet/stmicro/stmmac/stmmac_hwtstamp.c"
PERF_CORE = "kernel/events/core.c"
IO_URING = "io_uring/io_uring.c"
WORKQUEUE = "kernel/workqueue.c"
WAVE5_VPU = "drivers/media/platform/chips-media/wave5/wave5-vpu.c"


class Checks(unittest.TestCase):
    def test_each_check_boots_where_its_bug_is(self):
        self.assertEqual(fix_checks.check_for([GSS_UNSEAL]).arch, "x86_64")  # no Arch: line
        lpfc = fix_checks.check_for([LPFC_INIT])
        self.assertEqual((lpfc.name, lpfc.arch, lpfc.suite), ("lpfc-cmf-stats-interval", "arm", "y2038_lpfc_cmf"))
        self.assertIsNone(fix_checks.check_for(["drivers/scsi/lpfc/lpfc_sli.c"]))
        for path, name, suite in ((STMMAC_HWTSTAMP, "stmmac-ptp-seconds", "y2038_stmmac_ptp"),
                                  (PERF_CORE, "perf-mux-interval", "y2038_perf_mux"),
                                  (IO_URING, "io-uring-min-wait", "y2038_io_uring_min_wait"),
                                  (WORKQUEUE, "wq-cpu-intensive-thresh", "y2038_wq_cpu_intensive"),
                                  (WAVE5_VPU, "wave5-poll-interval", "y2038_wave5_poll")):
            check = fix_checks.check_for([path])
            self.assertEqual((check.name, check.arch, check.suite), (name, "arm", suite))

    def test_a_check_that_includes_a_static_function_file_includes_the_file_it_proves(self):
        """stmmac's get_ptptime() and wave5's polling timer callback are
        static: the test, built in a directory always descended, compiles
        the driver's file into itself by a path relative to it."""
        for path in (STMMAC_HWTSTAMP, WAVE5_VPU):
            check = fix_checks.check_for([path])
            includes = re.findall(r'^#include "(.+\.c)"$', (check.folder / check.test).read_text(), re.M)
            self.assertEqual([os.path.normpath(os.path.join(check.test_dir, i)) for i in includes], [path])

    def test_a_boot_kernel_is_configured_with_the_checks_of_its_machine_only(self):
        lpfc, gss = fix_checks.check_for([LPFC_INIT]), fix_checks.check_for([GSS_UNSEAL])
        builder = SimpleNamespace(src=Path("/nonexistent/src"))
        arm = boot.Kernel(builder, "patched", boot.MACHINES["arm"], 1, [gss, lpfc])
        self.assertEqual([p.name for p in arm.fragments], ["base.config", "arm.config", "config"])
        self.assertEqual(arm.fragments[-1], lpfc.config)
        x86 = boot.Kernel(builder, "patched", boot.MACHINES["x86_64"], 1, [gss, lpfc])
        self.assertEqual(x86.fragments[-1], gss.config)

    def test_a_boots_kunit_run_leaves_every_check_out(self):
        """The checks are built into the boot kernels; only a proof runs one."""
        for check in fix_checks.checks():
            self.assertFalse(fnmatch.fnmatchcase(check.suite, boot_suites.EVERY_SUITE_GLOB), check.name)
            self.assertNotIn(check.suite, boot_suites.KUNIT_SUITES)

    def test_a_series_checks_are_those_of_its_verified_fixes(self):
        fix, unverified = SimpleNamespace(name="0001-fix", files=[LPFC_INIT]), SimpleNamespace(name="0002", files=[WORKQUEUE])
        results = SimpleNamespace(fix_patches=lambda: [fix, unverified], build=SimpleNamespace(verified=["0001-fix"]))
        self.assertEqual(fix_checks.checks_of(results), {"0001-fix": fix_checks.check_for([LPFC_INIT])})
        results.build = SimpleNamespace(verified=["0002", "0001-fix"])
        self.assertEqual([c.name for c in fix_checks.boot_checks(results)],
                         ["lpfc-cmf-stats-interval", "wq-cpu-intensive-thresh"])
        results.build = None  # not built: no kernel carries a check
        self.assertEqual(fix_checks.boot_checks(results), [])

    def test_each_check_config_turns_on_its_own_kconfig_entry(self):
        for check in fix_checks.checks():
            self.assertIn(f"config {check.symbol}\n", (check.folder / "Kconfig").read_text(), check.name)
            self.assertIn(f"CONFIG_{check.symbol}=y", (check.folder / "config").read_text().splitlines(),
                          check.name)

    def test_an_arch_the_boot_stage_cannot_boot_is_refused(self):
        with tempfile.TemporaryDirectory(prefix="y2038-check-") as tmp:
            folder = Path(tmp) / "mips-check"
            shutil.copytree(fix_checks.check_for([LPFC_INIT]).folder, folder)
            check_file = folder / "CHECK"
            check_file.write_text(check_file.read_text().replace("Arch: arm", "Arch: mips"))
            with self.assertRaisesRegex(Y2038Error, r"Arch: mips is not a boot machine \(x86_64, arm\)"):
                fix_checks.read_check(folder)


class PlantedBuilder:
    """What add_check uses of the build stage's Builder: the tree and git on it."""

    def __init__(self, src: Path):
        self.src = src

    def git(self, *args, check=True):
        return subprocess.run(["git", *args], cwd=self.src, env=git_env(), check=check, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)


class AddCheck(unittest.TestCase):
    def test_the_test_is_built_in_the_driver_directory_as_one_commit(self):
        check = fix_checks.check_for([LPFC_INIT])
        with tempfile.TemporaryDirectory(prefix="y2038-proof-tree-") as tmp:
            builder = PlantedBuilder(Path(tmp))
            makefile, kconfig = builder.src / "drivers/scsi/lpfc/Makefile", builder.src / "drivers/scsi/Kconfig"
            makefile.parent.mkdir(parents=True)
            makefile.write_text("obj-$(CONFIG_SCSI_LPFC) := lpfc.o\n")
            kconfig.write_text("menu \"SCSI device support\"\nendmenu\n")
            builder.git("init", "-q")
            builder.git("add", "-A")
            builder.git("commit", "-q", "-m", "planted")
            fix_checks.add_check(builder, check)
            self.assertEqual(makefile.read_text().splitlines(), [
                "obj-$(CONFIG_SCSI_LPFC) := lpfc.o",
                "obj-$(CONFIG_Y2038_CHECK_LPFC_CMF_STATS_INTERVAL) += y2038_lpfc_cmf_test.o"])
            self.assertTrue(kconfig.read_text().endswith((check.folder / "Kconfig").read_text()))
            self.assertEqual((builder.src / "drivers/scsi/lpfc/y2038_lpfc_cmf_test.c").read_bytes(),
                             (check.folder / check.test).read_bytes())
            subject, _, files = builder.git("log", "--format=%s", "--name-only", "-1").stdout.partition("\n")
            self.assertEqual(subject, fix_checks.CHECK_COMMIT + "lpfc-cmf-stats-interval")
            self.assertEqual(files.split(), ["drivers/scsi/Kconfig", "drivers/scsi/lpfc/Makefile",
                                             "drivers/scsi/lpfc/y2038_lpfc_cmf_test.c"])
            self.assertEqual(builder.git("status", "--porcelain").stdout, "")


class Prove(unittest.TestCase):
    """prove() on a planted patched tree, the kernel builds replaced by a
    look at the fixed file each build would compile, the boots by a look
    at the image each would boot."""

    def planted(self, tmp: str) -> SimpleNamespace:
        check = fix_checks.check_for([WORKQUEUE])
        src, state = Path(tmp) / "src", Path(tmp) / "state"
        (src / "kernel").mkdir(parents=True)
        builder = PlantedBuilder(src)
        fixed = src / WORKQUEUE
        fixed.write_text("unsigned long thresh_ns = thresh_us * NSEC_PER_USEC;\n")
        builder.git("init", "-q")
        builder.git("add", "-A")
        builder.git("commit", "-q", "-m", "baseline")
        fixed.write_text("u64 thresh_ns = (u64)thresh_us * NSEC_PER_USEC;\n")
        builder.git("commit", "-q", "-am", "workqueue: multiply in 64 bits")
        patch = Path(tmp) / "0001-fix.patch"
        patch.write_text(builder.git("format-patch", "-1", "--stdout").stdout)
        out = Path(tmp) / "boot" / "x86_64"
        out.mkdir(parents=True)
        kernel = SimpleNamespace(builder=builder, out=out, machine=SimpleNamespace(arch="x86_64"))
        return SimpleNamespace(check=check, builder=builder, fixed=fixed, patch=patch, out=out, state=state,
                               head=builder.git("rev-parse", "HEAD").stdout.strip(),
                               boots=SimpleNamespace(kernel_inputs=lambda variant, arch: ["tree-id"],
                                                     kernel=lambda v, a: kernel),
                               tree=SimpleNamespace(baseline="b" * 40, state=state), built_from=[], booted=[])

    def faked(self, t: SimpleNamespace):
        """build_with_check, boot_with_check and build_initramfs replaced:
        an image holds what its kernel was built from; a boot reads it."""
        def build_with_check(k, c, label):
            # Kernel.build() touches what changed since its last build: the index's stat data goes stale
            os.utime(t.fixed, (1_000_000_000, 1_000_000_000))
            t.built_from.append((label, t.fixed.read_text().split()[0]))
            (t.out / "bzImage").write_text(t.built_from[-1][1])
            return t.out / "bzImage", []

        both_booting = threading.Barrier(2, timeout=10)

        def boot_with_check(tree, k, c, label, built, initramfs):
            t.booted.append((label, built[0].read_text()))
            both_booting.wait()  # the other kernel boots at the same time, or this times out
            return {"verdict": "pass" if label == "with-fix" else "fail", "cases": []}
        return mock.patch.multiple(fix_proofs, boot_with_check=boot_with_check, build_with_check=build_with_check,
                                   build_initramfs=lambda tree, machine: None)

    def test_the_patched_tree_boots_with_the_fix_and_without_it_and_is_left_at_the_series(self):
        with tempfile.TemporaryDirectory(prefix="y2038-proof-") as tmp:
            t = self.planted(tmp)
            with self.faked(t):
                result = fix_proofs.prove(t.tree, t.boots, t.patch, t.check)
                self.assertEqual(t.built_from, [("with-fix", "u64"), ("without-fix", "unsigned")])
                # the with-fix image's copy kept it through the without-fix build; both copies are gone
                self.assertEqual(sorted(t.booted), [("with-fix", "u64"), ("without-fix", "unsigned")])
                self.assertEqual([p.name for p in t.out.parent.iterdir()], ["x86_64"])
                self.assertFalse(fix_proofs.images_record(t.tree, t.patch, t.check).exists())
                self.assertEqual(result["verdict"], "proven")
                self.assertEqual(t.builder.git("rev-parse", "HEAD").stdout.strip(), t.head)
                self.assertEqual(t.builder.git("status", "--porcelain").stdout, "")
                again = fix_proofs.prove(t.tree, t.boots, t.patch, t.check)  # same inputs: kept, nothing built or booted
                self.assertEqual((len(t.built_from), len(t.booted), again["reused"]), (2, 2, True))
                # a fix a later patch rewrote cannot be taken out: its proof is an error, the tree stays at the series
                rewritten = Path(tmp) / "0002-rewritten.patch"
                rewritten.write_text(t.patch.read_text().replace("+u64 thresh_ns", "+s64 thresh_ns"))
                with mock.patch.object(fix_proofs, "boot_with_check", lambda *a: t.booted.append(a[3]) or {
                        "verdict": "pass", "cases": []}):  # one boot: no kernel without the fix
                    failed = fix_proofs.prove(t.tree, t.boots, rewritten, t.check)
            self.assertEqual(failed["verdict"], "error")
            self.assertIn("does not come out of the patched tree again", failed["before"]["problems"][0])
            self.assertEqual(t.built_from[2:], [("with-fix", "u64")])
            self.assertEqual(t.builder.git("rev-parse", "HEAD").stdout.strip(), t.head)

    def test_kernels_built_ahead_are_booted_without_building_again(self):
        """make run builds a proof's kernels while the boot stage's guests run
        (AheadBuilds -> build_images); the proof then only boots them."""
        with tempfile.TemporaryDirectory(prefix="y2038-proof-") as tmp:
            t = self.planted(tmp)
            with self.faked(t):
                key = fix_proofs.proof_key(t.boots, t.patch, t.check)
                fix_proofs.build_images(t.tree, t.boots.kernel("patched", "x86_64"), t.patch, t.check, key)
                self.assertEqual((t.built_from, t.booted), ([("with-fix", "u64"), ("without-fix", "unsigned")], []))
                (t.out / "bzImage").write_text("overwritten by a later build")
                result = fix_proofs.prove(t.tree, t.boots, t.patch, t.check)
            self.assertEqual(len(t.built_from), 2)
            self.assertEqual(sorted(t.booted), [("with-fix", "u64"), ("without-fix", "unsigned")])
            self.assertEqual(result["verdict"], "proven")

    def test_kernels_built_for_other_inputs_are_built_again(self):
        with tempfile.TemporaryDirectory(prefix="y2038-proof-") as tmp:
            t = self.planted(tmp)
            with self.faked(t):
                fix_proofs.build_images(t.tree, t.boots.kernel("patched", "x86_64"), t.patch, t.check, "another key")
                fix_proofs.prove(t.tree, t.boots, t.patch, t.check)
            self.assertEqual(len(t.built_from), 4)

    def test_kernels_whose_copies_are_gone_are_built_again(self):
        with tempfile.TemporaryDirectory(prefix="y2038-proof-") as tmp:
            t = self.planted(tmp)
            with self.faked(t):
                key = fix_proofs.proof_key(t.boots, t.patch, t.check)
                images = fix_proofs.build_images(t.tree, t.boots.kernel("patched", "x86_64"), t.patch, t.check, key)
                images["without-fix"][0].unlink()
                result = fix_proofs.prove(t.tree, t.boots, t.patch, t.check)
            self.assertEqual((len(t.built_from), result["verdict"]), (4, "proven"))


class AheadBuilding(unittest.TestCase):
    def test_stop_ends_a_running_make_and_no_make_starts_after(self):
        kernel = SimpleNamespace(make_command=lambda *targets: ["sleep", "30"], src=Path("/"), out=Path("/"),
                                 env=dict(os.environ))
        ahead = fix_proofs.AheadBuilds(SimpleNamespace(), Path("/nonexistent"), 1)
        answers = []
        making = threading.Thread(target=lambda: answers.append(ahead.make(kernel, ("bzImage",), False)))
        making.start()
        for _ in range(100):
            if ahead.makes.processes:
                break
            threading.Event().wait(0.05)
        ahead.stop()
        making.join(5)
        self.assertFalse(making.is_alive(), "the make was not ended")
        self.assertLess(answers[0].returncode, 0)  # killed by the signal
        with self.assertRaises(Y2038Error):
            ahead.make(kernel, ("bzImage",), False)

    def test_a_failure_is_said_and_left_to_the_proofs(self):
        ahead = fix_proofs.AheadBuilds(SimpleNamespace(baseline="b" * 40), Path("/nonexistent/series"), 1)
        said = []
        with mock.patch.object(fix_proofs, "progress", said.append):
            ahead.start()
            ahead.finish()
        self.assertEqual(len(said), 1)
        self.assertIn("were not built ahead", said[0])


class GuestsStarted(unittest.TestCase):
    """boot.AllStarted: the boot stage's while_booting runs once, when the
    last guest has started or was found not to boot."""

    def test_called_once_after_every_guest_and_never_before(self):
        calls = []
        latch = boot.AllStarted(2, lambda: calls.append("built"))
        first, second = latch.one(), latch.one()
        first()
        first()  # a guest says it twice (before QEMU and when its boot ends): counted once
        self.assertEqual(calls, [])
        second()
        second()
        self.assertEqual(calls, ["built"])

    def test_a_guest_that_fails_before_booting_still_counts(self):
        calls = []
        boots = boot.Boots.__new__(boot.Boots)
        boots.jobs = 2

        def saved(variant, arch):  # x86_64 was booted before with these inputs; arm's inputs cannot be read
            if arch == "arm":
                raise Y2038Error("arm: no kernel source")
            return "key", Path("/nonexistent"), {"verdict": "pass"}
        boots.saved = saved
        with self.assertRaises(Y2038Error):
            boots.boot_at_once("patched", ["x86_64", "arm"], lambda: calls.append("built"))
        self.assertEqual(calls, ["built"])

    def test_a_guest_says_it_started_after_its_modules_and_boots_a_copy_of_its_image(self):
        with tempfile.TemporaryDirectory(prefix="y2038-boot-") as tmp:
            out = Path(tmp) / "x86_64"
            out.mkdir()
            image = out / "bzImage"
            image.write_text("the patched kernel")
            kernel = SimpleNamespace(machine=boot.MACHINES["x86_64"], variant="patched", out=out, src=Path(tmp),
                                     fragments=[])
            order = []

            def qemu(machine, booted, initrd, log, params):
                image.write_text("a kernel built while the guest runs")
                order.append(("qemu", booted.read_text()))
                return "", 1.0, True
            with mock.patch.multiple(boot.legacy, build=lambda *a: order.append("modules") or {
                                         "errors": [], "warnings": [], "modules": []},
                                     cpio=lambda *a: None, initramfs_with_modules=lambda *a: None), \
                    mock.patch.multiple(boot, run_qemu=qemu, changed_files_built=lambda *a: {},
                                        parse_console=lambda *a: {}):
                boot.boot_one(None, kernel, None, None, {"kunit": [], "selftests": []}, [], (image, [], 0.0),
                              lambda: order.append("started"))
            self.assertEqual(order, ["modules", "started", ("qemu", "the patched kernel")])
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), ["x86_64"])  # the copy is gone


if __name__ == "__main__":
    unittest.main()
