# SPDX-License-Identifier: GPL-2.0-only
"""The patched boot kernels' baseline objects, built at nice 19 beside the
apply, hazards, series and build stages of a cold run, which leave a core
idle much of the time (rules with few candidates, git, python).  The run
stops them when those stages end; the boot stage makes the rest.

Only where no patched kernel was built yet, so a re-run never touches a
built worktree.  The baseline is what the boot stage builds minus the
series and the fix checks: the patches' files get new mtimes when the boot
stage applies them, and adding the checks' options rebuilds only the
objects that use them (kbuild's fixdep keeps each object's CONFIG_
symbols), so everything else built here is reused as it is, by make.
"""
import os
import signal
import subprocess
import threading

from .. import common
from ..common import progress
from .boot import BUILT_STAMP, MACHINES, Kernel
from .build import Builder


class Prebuild:
    def __init__(self, tree, jobs: int, distcc: bool = False, arches=tuple(MACHINES)):
        """Starts building in the background; stop() before the boot stage."""
        self.processes: list = []
        self.stopping = False
        self.lock = threading.Lock()  # a make is started, or the builds stopped, not both at once
        self.threads = []
        root = tree.state / "boot" / "patched"
        builder = None
        for arch in arches:
            if (root / arch / BUILT_STAMP).exists():
                continue
            if builder is None:
                builder = Builder(tree, jobs, root / "src", distcc)
                builder.reset(tree.baseline)
            kernel = Kernel(builder, "patched", MACHINES[arch], jobs)
            thread = threading.Thread(target=self.build, args=(kernel,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def build(self, kernel: Kernel) -> None:
        arch = kernel.machine.arch
        try:
            kernel.configure()
            with self.lock:
                if self.stopping:
                    return
                progress(f"{arch}: building the baseline of the patched kernel at nice 19 while the stages run")
                proc = common.COMMANDS.start(["nice", "-n", "19", *kernel.make_command(*kernel.build_targets())],
                                             cwd=kernel.src, env=kernel.builder.env, stdin=subprocess.DEVNULL,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                             start_new_session=True)
                self.processes.append(proc)
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
        with self.lock:
            self.stopping = True
            for proc in self.processes:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM)
        self.finish()
