# SPDX-License-Identifier: GPL-2.0-only
"""How the boot stage schedules its kernel builds, without a kernel build:
the kernels of the boots to run are built side by side, a boot whose
result is kept builds nothing, a boot uses the kernel built for it, and
the early build of a cold run (boot_prebuild.py) starts, ends and stops."""
import os
import shutil
import subprocess
import tempfile
import threading
import time
import unittest
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import helpers
helpers.put_tools_on_path()
from recorded import recorded  # noqa: E402
from y2038lib.common import Y2038Error, git_env  # noqa: E402
from y2038lib.records import SeriesResults  # noqa: E402
from y2038lib.verification import boot, boot_prebuild, fix_checks  # noqa: E402


def planted_boots(kept_arches=()):
    """What Boots.build_side_by_side uses of a Boots: kept results, kernels, and where builds go."""
    return SimpleNamespace(saved=lambda variant, arch: ("key", None, {"verdict": "pass"} if arch in kept_arches else None),
                           kernel=lambda variant, arch: SimpleNamespace(arch=arch), built={})


class SideBySide(unittest.TestCase):
    def test_both_kernels_build_at_once(self):
        both_started = threading.Barrier(2, timeout=10)  # broken, and the test fails, if one waits for the other

        def build(kernel):
            both_started.wait()
            return f"{kernel.arch}-image", [], 1.0
        boots = planted_boots()
        with mock.patch.object(boot, "build_kernel", build):
            boot.Boots.build_side_by_side(boots, "patched", ("x86_64", "arm"))
        self.assertEqual(boots.built, {("patched", "x86_64"): ("x86_64-image", [], 1.0),
                                       ("patched", "arm"): ("arm-image", [], 1.0)})

    def test_the_machines_boot_at_once(self):
        both_booting = threading.Barrier(2, timeout=10)

        def boot_one_machine(variant, arch, started):
            started()
            both_booting.wait()
            return {"verdict": "pass", "arch": arch}
        boots = SimpleNamespace(jobs=2, boot=boot_one_machine)
        booted = boot.Boots.boot_at_once(boots, "patched", ("x86_64", "arm"))
        self.assertEqual(booted, {"x86_64": {"verdict": "pass", "arch": "x86_64"},
                                  "arm": {"verdict": "pass", "arch": "arm"}})

    def test_a_kept_boot_builds_nothing_and_one_kernel_is_left_to_its_boot(self):
        boots = planted_boots(kept_arches=("arm",))
        with mock.patch.object(boot, "build_kernel", side_effect=AssertionError("built")):
            boot.Boots.build_side_by_side(boots, "patched", ("x86_64", "arm"))
        self.assertEqual(boots.built, {})

    def test_a_boot_uses_the_kernel_built_for_it(self):
        kernel = SimpleNamespace(machine=boot.MACHINES["arm"], variant="patched")
        with mock.patch.object(boot, "build_kernel", side_effect=AssertionError("built again")):
            result = boot.boot_one(None, kernel, None, None, {}, [], built=(None, ["error: x"], 42.0))
        self.assertEqual((result["verdict"], result["build_seconds"]), ("fail", 42.0))
        self.assertIn("kernel build failed:\nerror: x", result["problems"][0])


class UpToDate(unittest.TestCase):
    """A kernel built from the worktree's commit, clean since, is not made again."""

    def kernel(self):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-built-"))
        self.addCleanup(shutil.rmtree, tmp)
        src = tmp / "src"
        src.mkdir()
        (src / "Makefile").write_text("all:\n")

        def git(*args, check=True):
            return subprocess.run(["git", *args], cwd=src, env=git_env(), check=check, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        git("init", "-q")
        git("add", "-A")
        git("commit", "-q", "-m", "baseline")
        kernel = boot.Kernel(SimpleNamespace(src=src, git=git, env={}), "patched", boot.MACHINES["arm"], 1)
        (kernel.out / "arch/arm/boot").mkdir(parents=True)
        (kernel.out / kernel.machine.image).write_text("zImage")
        kernel.mark_built()
        self.enterContext(mock.patch.object(boot.Kernel, "configure", lambda k: False))
        return kernel

    def test_a_kernel_built_from_this_commit_is_not_made_again(self):
        kernel = self.kernel()
        with recorded() as commands:  # no make: a make would fail the test
            self.assertEqual(kernel.build(), (kernel.out / kernel.machine.image, []))
        self.assertEqual(commands.calls, [])

    def test_a_change_since_is_made(self):
        kernel = self.kernel()
        (kernel.src / "Makefile").write_text("all:\n\ttrue\n")
        with recorded((["make"], (0, ""))) as commands:
            kernel.build()
        self.assertEqual([c[0] for c in commands.calls], ["make"])


    def test_a_kernel_built_by_another_compiler_makes_its_incbin_objects_again(self):
        """ccache's depend mode served ARM a cached piggy.o whatever kernel its
        .incbin pulled in: a build directory it made is made again, the
        .incbin objects deleted so make assembles them anew."""
        kernel = self.kernel()
        (kernel.src / "arch/arm/boot/compressed").mkdir(parents=True)
        (kernel.src / "arch/arm/boot/compressed/piggy.S").write_text('\t.incbin "piggy_data"\n')
        (kernel.src / "lib.S").write_text("\tnop\n")
        kernel.builder.git("add", "-A")
        kernel.builder.git("commit", "-q", "-m", "wrappers")
        kernel.mark_built()
        wrappers = [kernel.out / "arch/arm/boot/compressed/piggy.o", kernel.out / "lib.o"]
        for obj in wrappers:
            obj.parent.mkdir(parents=True, exist_ok=True)
            obj.write_text("cached")
        (kernel.out / boot.COMPILER_STAMP).write_text("ccache depend mode")
        with recorded((["make"], (0, ""))) as commands:
            kernel.build()
        self.assertEqual([c[0] for c in commands.calls], ["make"])
        self.assertEqual([o.exists() for o in wrappers], [False, True])  # lib.S has no .incbin
        self.assertEqual((kernel.out / boot.COMPILER_STAMP).read_text(), boot.CCACHE_NAMESPACE)
        with recorded() as commands:  # built by this compiler now: nothing to make
            kernel.build()
        self.assertEqual(commands.calls, [])


class EarlyBuild(unittest.TestCase):
    """boot_prebuild.Prebuild with make replaced by a command of the test's."""

    def start(self, command, built_arches=(), checks=(), resets=None, add_check=None):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-prebuild-"))
        self.addCleanup(shutil.rmtree, tmp)
        for arch in built_arches:
            (tmp / "boot/patched" / arch).mkdir(parents=True)
            (tmp / "boot/patched" / arch / ".y2038-built-commit").write_text("c" * 40)
        self.marked = []
        (tmp / "boot/patched/src").mkdir(parents=True)
        self.added = []
        builder = SimpleNamespace(src=tmp / "boot/patched/src", env=dict(os.environ),
                                  reset=lambda commit: (resets if resets is not None else []).append(commit))
        # for the test's whole length: the builds run in threads of their own
        self.enterContext(mock.patch.object(boot_prebuild, "Builder", lambda *args: builder))
        self.enterContext(mock.patch.object(boot.Kernel, "configure", lambda kernel: None))
        self.enterContext(mock.patch.object(boot.Kernel, "make_command", lambda kernel, *targets: command))
        self.enterContext(mock.patch.object(boot.Kernel, "mark_built",
                                            lambda kernel: self.marked.append(kernel.machine.arch)))
        self.enterContext(mock.patch.object(fix_checks, "add_check",
                                            add_check or (lambda b, check: self.added.append(check.name))))
        self.kernels = []
        kernel_class = boot_prebuild.Kernel
        self.enterContext(mock.patch.object(boot_prebuild, "Kernel", lambda *args: self.kernels.append(
            kernel_class(*args)) or self.kernels[-1]))
        early = boot_prebuild.Prebuild(SimpleNamespace(state=tmp, baseline="b" * 40), 1, checks=checks)
        self.addCleanup(early.stop)
        return early

    def test_a_finished_build_marks_the_commit_it_built(self):
        early = self.start(["true"])
        early.finish()
        self.assertEqual(sorted(self.marked), ["arm", "x86_64"])

    def test_the_checks_given_are_committed_and_configured_on_their_machine(self):
        gss = next(c for c in fix_checks.checks() if c.name == "gss-krb5-v1-expiry")  # an x86_64 check
        early = self.start(["true"], checks=[gss])
        early.finish()
        self.assertEqual(self.added, [gss.name])
        fragments = {k.machine.arch: k.fragments for k in self.kernels}
        self.assertIn(gss.config, fragments["x86_64"])
        self.assertNotIn(gss.config, fragments["arm"])

    def test_a_check_that_cannot_be_committed_leaves_every_check_out(self):
        gss = next(c for c in fix_checks.checks() if c.name == "gss-krb5-v1-expiry")
        resets = []

        def add_check(builder, check):
            raise Y2038Error("net/sunrpc/Kconfig: no such file")
        early = self.start(["true"], checks=[gss], resets=resets, add_check=add_check)
        early.finish()
        self.assertEqual(resets, ["b" * 40, "b" * 40])  # the baseline again, without the check's commit
        self.assertNotIn(gss.config, [f for k in self.kernels for f in k.fragments])
        self.assertEqual(sorted(self.marked), ["arm", "x86_64"])

    def test_the_expected_checks_are_those_of_the_last_series_else_the_committed_one(self):
        tree = SimpleNamespace(version="6.1.192")
        committed = boot_prebuild.PATCHES_DIR / "linux-6.1.192"
        self.assertTrue((committed / "results.json").is_file())
        want = [c.name for c in fix_checks.boot_checks(SeriesResults.read(committed))]
        self.assertEqual(want, ["gss-krb5-v1-expiry"])  # the committed 6.1 series proves the SUNRPC fix
        with tempfile.TemporaryDirectory() as out:
            self.assertEqual([c.name for c in boot_prebuild.expected_checks(tree, Path(out))], want)
            results = SeriesResults.read(committed)
            results.build.verified = [n for n in results.build.verified if "SUNRPC" not in n]
            results.write(Path(out))  # a last series whose fix did not build: no check
            self.assertEqual(boot_prebuild.expected_checks(tree, Path(out)), [])
        self.assertEqual(boot_prebuild.expected_checks(SimpleNamespace(version="2.6.0"), Path("/nonexistent")), [])

    def test_a_kernel_built_before_is_left_alone(self):
        early = self.start(["false"], built_arches=("x86_64", "arm"))
        self.assertEqual(early.threads, [])

    def test_stopping_ends_the_builds_at_once(self):
        early = self.start(["sleep", "60"])
        deadline = time.monotonic() + 10
        while len(early.makes.processes) < 2 and time.monotonic() < deadline:  # both makes started
            time.sleep(0.05)
        self.assertEqual(len(early.makes.processes), 2)
        started = time.monotonic()
        early.stop()
        self.assertLess(time.monotonic() - started, 10)
        self.assertTrue(all(p.returncode < 0 for p in early.makes.processes))
        self.assertEqual(self.marked, [])


if __name__ == "__main__":
    unittest.main()
