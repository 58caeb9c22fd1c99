# SPDX-License-Identifier: GPL-2.0-only
"""verification/fix_proofs.py without a kernel build: the CHECK files
(Arch: picks the boot machine, x86_64 when absent), and how a check is
added to the proof tree (its test in the driver's directory, built by a
Makefile line there, its Kconfig entry appended), on a planted git tree."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import helpers
helpers.put_tools_on_path()
from y2038lib.common import Y2038Error, git_env  # noqa: E402
from y2038lib.verification import fix_proofs  # noqa: E402

LPFC_INIT = "drivers/scsi/lpfc/lpfc_init.c"
GSS_UNSEAL = "net/sunrpc/auth_gss/gss_krb5_unseal.c"
STMMAC_HWTSTAMP = "drivers/net/ethernet/stmicro/stmmac/stmmac_hwtstamp.c"
PERF_CORE = "kernel/events/core.c"
IO_URING = "io_uring/io_uring.c"
WORKQUEUE = "kernel/workqueue.c"
WAVE5_VPU = "drivers/media/platform/chips-media/wave5/wave5-vpu.c"


class Checks(unittest.TestCase):
    def test_each_check_boots_where_its_bug_is(self):
        self.assertEqual(fix_proofs.check_for([GSS_UNSEAL]).arch, "x86_64")  # no Arch: line
        lpfc = fix_proofs.check_for([LPFC_INIT])
        self.assertEqual((lpfc.name, lpfc.arch, lpfc.suite), ("lpfc-cmf-stats-interval", "arm", "y2038_lpfc_cmf"))
        self.assertIsNone(fix_proofs.check_for(["drivers/scsi/lpfc/lpfc_sli.c"]))
        for path, name, suite in ((STMMAC_HWTSTAMP, "stmmac-ptp-seconds", "y2038_stmmac_ptp"),
                                  (PERF_CORE, "perf-mux-interval", "y2038_perf_mux"),
                                  (IO_URING, "io-uring-min-wait", "y2038_io_uring_min_wait"),
                                  (WORKQUEUE, "wq-cpu-intensive-thresh", "y2038_wq_cpu_intensive"),
                                  (WAVE5_VPU, "wave5-poll-interval", "y2038_wave5_poll")):
            check = fix_proofs.check_for([path])
            self.assertEqual((check.name, check.arch, check.suite), (name, "arm", suite))

    def test_a_check_that_includes_a_static_function_file_includes_the_file_it_proves(self):
        """stmmac's get_ptptime() and wave5's polling timer callback are
        static: the test, built in a directory always descended, compiles
        the driver's file into itself by a path relative to it."""
        for path in (STMMAC_HWTSTAMP, WAVE5_VPU):
            check = fix_proofs.check_for([path])
            includes = re.findall(r'^#include "(.+\.c)"$', (check.folder / check.test).read_text(), re.M)
            self.assertEqual([os.path.normpath(os.path.join(check.test_dir, i)) for i in includes], [path])

    def test_the_proof_kernel_is_the_boot_stage_kernel_of_the_check_arch(self):
        lpfc = fix_proofs.check_for([LPFC_INIT])
        kernel = fix_proofs.ProofKernel(None, Path("/nonexistent/src"), lpfc, 1)
        self.assertEqual(kernel.machine, fix_proofs.MACHINES["arm"])
        self.assertEqual([p.name for p in kernel.fragments], ["base.config", "arm.config", "config"])
        self.assertEqual(kernel.fragments[-1], lpfc.folder / "config")

    def test_each_check_config_turns_on_its_own_kconfig_entry(self):
        for check in fix_proofs.checks():
            self.assertIn(f"config {check.symbol}\n", (check.folder / "Kconfig").read_text(), check.name)
            self.assertIn(f"CONFIG_{check.symbol}=y", (check.folder / "config").read_text().splitlines(),
                          check.name)

    def test_an_arch_the_boot_stage_cannot_boot_is_refused(self):
        with tempfile.TemporaryDirectory(prefix="y2038-check-") as tmp:
            folder = Path(tmp) / "mips-check"
            shutil.copytree(fix_proofs.check_for([LPFC_INIT]).folder, folder)
            check_file = folder / "CHECK"
            check_file.write_text(check_file.read_text().replace("Arch: arm", "Arch: mips"))
            with self.assertRaisesRegex(Y2038Error, r"Arch: mips is not a boot machine \(x86_64, arm\)"):
                fix_proofs.read_check(folder)


class PlantedBuilder:
    """What add_check uses of the build stage's Builder: the tree and git on it."""

    def __init__(self, src: Path):
        self.src = src

    def git(self, *args):
        return subprocess.run(["git", *args], cwd=self.src, env=git_env(), check=True, text=True,
                              stdout=subprocess.PIPE)


class AddCheck(unittest.TestCase):
    def test_the_test_is_built_in_the_driver_directory_as_one_commit(self):
        check = fix_proofs.check_for([LPFC_INIT])
        with tempfile.TemporaryDirectory(prefix="y2038-proof-tree-") as tmp:
            builder = PlantedBuilder(Path(tmp))
            makefile, kconfig = builder.src / "drivers/scsi/lpfc/Makefile", builder.src / "drivers/scsi/Kconfig"
            makefile.parent.mkdir(parents=True)
            makefile.write_text("obj-$(CONFIG_SCSI_LPFC) := lpfc.o\n")
            kconfig.write_text("menu \"SCSI device support\"\nendmenu\n")
            builder.git("init", "-q")
            builder.git("add", "-A")
            builder.git("commit", "-q", "-m", "planted")
            fix_proofs.add_check(builder, check)
            self.assertEqual(makefile.read_text().splitlines(), [
                "obj-$(CONFIG_SCSI_LPFC) := lpfc.o",
                "obj-$(CONFIG_Y2038_CHECK_LPFC_CMF_STATS_INTERVAL) += y2038_lpfc_cmf_test.o"])
            self.assertTrue(kconfig.read_text().endswith((check.folder / "Kconfig").read_text()))
            self.assertEqual((builder.src / "drivers/scsi/lpfc/y2038_lpfc_cmf_test.c").read_bytes(),
                             (check.folder / check.test).read_bytes())
            subject, _, files = builder.git("log", "--format=%s", "--name-only", "-1").stdout.partition("\n")
            self.assertEqual(subject, fix_proofs.CHECK_COMMIT + "lpfc-cmf-stats-interval")
            self.assertEqual(files.split(), ["drivers/scsi/Kconfig", "drivers/scsi/lpfc/Makefile",
                                             "drivers/scsi/lpfc/y2038_lpfc_cmf_test.c"])
            self.assertEqual(builder.git("status", "--porcelain").stdout, "")


if __name__ == "__main__":
    unittest.main()
