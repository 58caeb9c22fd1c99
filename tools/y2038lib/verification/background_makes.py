# SPDX-License-Identifier: GPL-2.0-only
"""Makes that run beside a stage on its idle CPU (the early build of the
boot kernels, the fix proofs' kernels built while the guests boot): at
nice 19, so the stage's own work never waits for them, each in a process
group of its own, so stop() ends them and their compilers at once."""
import os
import signal
import subprocess
import threading
from typing import Optional

from .. import common


class BackgroundMakes:
    def __init__(self) -> None:
        self.lock = threading.Lock()  # a make is started, or the makes stopped, not both at once
        self.stopping = False
        self.processes: list = []

    def start(self, cmd, **how) -> Optional[subprocess.Popen]:
        """The make started (subprocess.Popen's arguments), or None once stopped."""
        with self.lock:
            if self.stopping:
                return None
            proc = common.COMMANDS.start(["nice", "-n", "19", *cmd], start_new_session=True, **how)
            self.processes.append(proc)
            return proc

    def stop(self) -> None:
        """End every make now (make deletes what it was writing); none starts after."""
        with self.lock:
            self.stopping = True
            for proc in self.processes:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM)
