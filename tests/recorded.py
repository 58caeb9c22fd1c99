# SPDX-License-Identifier: GPL-2.0-only
"""Recorded outputs in place of external programs, for the unit tests:
a stage's logic runs without spatch, make or QEMU (common.COMMANDS)."""
import subprocess
from contextlib import contextmanager

from y2038lib import common  # on sys.path: the tests import helpers first


class Recorded(common.Commands):
    """Answers each command from the first recording whose prefix it starts
    with; a command nothing answers fails the test.  An answer is
    (returncode, output) or (returncode, stdout, stderr), or a function of
    (cmd, how) returning one (to write the files the program would), or
    "timeout".  calls: the commands asked, in order."""

    def __init__(self, *recordings):
        self.recordings = [(list(prefix), answer) for prefix, answer in recordings]
        self.calls = []

    def run(self, cmd, **how):
        self.calls.append(cmd)
        for prefix, answer in self.recordings:
            if cmd[:len(prefix)] == prefix:
                return self.completed(cmd, how, answer(cmd, how) if callable(answer) else answer)
        raise AssertionError(f"no recording answers {cmd}")

    @staticmethod
    def completed(cmd, how, answer):
        if answer == "timeout":
            raise subprocess.TimeoutExpired(cmd, how.get("timeout"))
        returncode, stdout, stderr = (*answer, "") if len(answer) == 2 else answer
        if not how.get("text"):
            stdout, stderr = stdout.encode(), stderr.encode()
        return subprocess.CompletedProcess(cmd, returncode, stdout, stderr)


@contextmanager
def recorded(*recordings):
    """with recorded((prefix, answer), ...) as commands: every command run
    inside answered from the recordings."""
    saved, common.COMMANDS = common.COMMANDS, Recorded(*recordings)
    try:
        yield common.COMMANDS
    finally:
        common.COMMANDS = saved
