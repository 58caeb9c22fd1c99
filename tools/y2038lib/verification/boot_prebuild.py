# SPDX-License-Identifier: GPL-2.0-only
"""The patched boot kernels' baseline objects, built at nice 19 beside the
apply, hazards, series and build stages of a cold run, which leave a core
idle much of the time (rules with few candidates, git, python).  The run
stops them when those stages end; the boot stage makes the rest.

Only where no patched kernel was built yet, so a re-run never touches a
built worktree.  What is built is the baseline with the fix checks of the
last series of this kernel version (its results.json, or the committed one
in generated-patches/): the series to come most likely proves the same
fixes, and a check's options can turn on whole subsystems (the SUNRPC
check: the network stack and crypto), whose symbols most objects read, so
building without them would be mostly rebuilt.  The boot stage applies
the series and its own checks: kbuild's fixdep rebuilds what the patches
touch and every object that reads an option that differs (a wrong guess
costs what no guess costs), and everything else built here is reused.
"""
import subprocess
import threading

from pathlib import Path

from . import fix_checks
from .background_makes import BackgroundMakes
from ..common import PATCHES_DIR, Y2038Error, progress
from ..records import RESULTS_NAME, SeriesResults
from .boot import BUILT_STAMP, Kernel
from .build import Builder
from .machines import MACHINES


def expected_checks(tree, series_dir: Path) -> list:
    """The fix checks of the last series of this tree: the one in the run's
    series directory, else the committed one of its version; none when
    neither has results."""
    for folder in (series_dir, PATCHES_DIR / f"linux-{tree.version}"):
        if (folder / RESULTS_NAME).is_file():
            try:
                return fix_checks.boot_checks(SeriesResults.read(folder))
            except Y2038Error:  # another toolkit's layout: no guess
                return []
    return []


class Prebuild:
    def __init__(self, tree, jobs: int, distcc: bool = False, arches=tuple(MACHINES), checks=()):
        """Starts building in the background; stop() before the boot stage.
        checks: the fix checks to build in (expected_checks())."""
        self.makes = BackgroundMakes()
        self.threads = []
        root = tree.state / "boot" / "patched"
        builder = None
        for arch in arches:
            if (root / arch / BUILT_STAMP).exists():
                continue
            if builder is None:
                builder = Builder(tree, jobs, root / "src", distcc)
                builder.reset(tree.baseline)
                try:
                    for check in checks:
                        fix_checks.add_check(builder, check)
                except (OSError, Y2038Error) as err:  # a head start only: without the checks then
                    progress(f"the early build leaves the fix checks out ({err})")
                    builder.reset(tree.baseline)
                    checks = ()
            kernel = Kernel(builder, "patched", MACHINES[arch], jobs, checks)
            thread = threading.Thread(target=self.build, args=(kernel,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def build(self, kernel: Kernel) -> None:
        arch = kernel.machine.arch
        try:
            kernel.configure()
            proc = self.makes.start(kernel.make_command(*kernel.build_targets()), cwd=kernel.src,
                                    env=kernel.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            if proc is None:
                return
            progress(f"{arch}: building the baseline of the patched kernel at nice 19 while the stages run")
            if proc.wait() == 0:
                kernel.mark_built()
        except Exception as err:  # noqa: BLE001 - a head start only: the boot stage builds and reports
            progress(f"{arch}: the early build stopped ({err}); the boot stage builds the kernel")

    def finish(self) -> None:
        """Wait for the builds: what is left of them is the boot stage's work anyway."""
        for thread in self.threads:
            thread.join()

    def stop(self) -> None:
        """End the builds now (make deletes what it was writing): the boot
        stage makes the rest at the run's priority, which a make started at
        nice 19 cannot get back unless run by root."""
        self.makes.stop()
        self.finish()
