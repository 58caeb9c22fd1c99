# SPDX-License-Identifier: GPL-2.0-only
"""Shared by the tests: paths, running the CLI, a tiny fake kernel tree."""
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
Y2038 = REPO / "tools" / "y2038"
sys.path.insert(0, str(REPO / "tools"))


def run_cli(*args, env=None, check=False):
    full_env = dict(os.environ, **(env or {}))
    proc = subprocess.run([sys.executable, str(Y2038), *args], env=full_env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and proc.returncode != 0:
        raise AssertionError(f"y2038 {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


def make_mini_tree(root: Path, files: dict) -> Path:
    """The smallest directory the tree stage accepts as a kernel, plus files."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "Makefile").write_text("VERSION = 3\nPATCHLEVEL = 10\nSUBLEVEL = 0\nEXTRAVERSION =\n")
    (root / "kernel").mkdir(exist_ok=True)
    (root / "include" / "linux").mkdir(parents=True, exist_ok=True)
    (root / "scripts").mkdir(exist_ok=True)
    (root / "scripts" / "get_maintainer.pl").write_text("#!/usr/bin/perl\n")
    (root / "MAINTAINERS").write_text("")
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
