# SPDX-License-Identifier: GPL-2.0-only
"""What every stage shares: errors, paths, JSON stage files, subprocesses."""
import json
import hashlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COCCI_DIR = Path(os.environ.get("Y2038_COCCI_DIR") or REPO / "cocci")
PATCHES_DIR = REPO / "generated-patches"

# A fixed identity and date make the baseline and every generated commit
# reproducible byte for byte.
FIXED_DATE = "2000-01-01T00:00:00+0000"
DEFAULT_SIGNOFF = "y2038 toolkit <y2038-toolkit@example.org>"


class Y2038Error(Exception):
    """An error the user can act on; printed as one line, without a traceback."""


def work_dir() -> Path:
    """Where trees, caches and build output live: never inside the checkout."""
    env = os.environ.get("Y2038_WORK")
    if env:
        path = Path(env)
    else:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        path = Path(cache) / "y2038"
    path = path.resolve()
    if path == REPO or REPO in path.parents:
        raise Y2038Error(f"work directory {path} is inside the checkout; set Y2038_WORK elsewhere")
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_atomic(path: Path, data: bytes) -> None:
    """Written whole and renamed into place: an interrupted stage never leaves
    half a file, and concurrent writers (threads, processes, machines sharing
    a cache) never see one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_bytes(data)
    tmp.replace(path)


def digest(*parts) -> str:
    """sha256 of parts (bytes, or anything as its str), each ended by a NUL."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else str(part).encode())
        h.update(b"\0")
    return h.hexdigest()


def path_key(path: Path) -> str:
    """A short name for a directory, for state kept per directory in the work dir."""
    return digest(str(path.resolve()))[:12]


def write_json(path: Path, data) -> None:
    write_atomic(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def read_json(path: Path, stage_hint: str):
    if not path.exists():
        raise Y2038Error(f"{path} is missing: run `tools/y2038 {stage_hint}` first")
    return json.loads(path.read_text())


def run(cmd, cwd=None, env=None, check=True, input=None, timeout=None) -> subprocess.CompletedProcess:
    """Run a command, capturing text output; a failure becomes a Y2038Error."""
    proc = subprocess.run(cmd, cwd=cwd, env=env, input=input, timeout=timeout,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and proc.returncode != 0:
        detail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
        raise Y2038Error(f"`{' '.join(map(str, cmd))}` failed: {detail[-1] if detail else proc.returncode}")
    return proc


def git_env(date: str = FIXED_DATE, identity: str = DEFAULT_SIGNOFF) -> dict:
    name, _, email = identity.partition(" <")
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email.rstrip(">"),
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email.rstrip(">"),
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    return env


def ccache_dir() -> Path:
    """ccache's directory: Y2038_CCACHE_DIR (one cache shared by several work
    directories, or on a disk several machines mount) or <work>/ccache."""
    env = os.environ.get("Y2038_CCACHE_DIR")
    return Path(env).resolve() if env else work_dir() / "ccache"


def progress(msg: str) -> None:
    print(f"y2038: {msg}", file=sys.stderr, flush=True)


class Step:
    """A long step a user waits for.  On a terminal, one line kept up to date:
    what it is doing, how far, how long so far.  In a log (CI), a line when
    it starts and one when it ends, nothing in between."""

    def __init__(self, what: str, total: int = None):
        self.what, self.total, self.done, self.detail = what, total, 0, ""
        self.live = sys.stderr.isatty()
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def __enter__(self):
        self.start = time.monotonic()
        if self.live:
            threading.Thread(target=self._tick, daemon=True).start()
        else:
            progress(f"{self.what}...")
        return self

    def update(self, done: int, detail: str = "") -> None:
        with self.lock:
            self.done, self.detail = done, detail
        if self.live:
            self._draw()

    def _tick(self):
        while not self.stopped.wait(1):
            self._draw()

    def _draw(self):
        with self.lock:
            how_far = f" [{self.done}/{self.total}]" if self.total else ""
            line = f"y2038: {self.what}{how_far} {self.detail} ({time.monotonic() - self.start:.0f} s)"
            sys.stderr.write("\r\033[K" + line[:200])
            sys.stderr.flush()

    def __exit__(self, kind, value, traceback):
        self.stopped.set()
        if self.live:
            sys.stderr.write("\r\033[K")
        how_far = f" {self.done} of {self.total}" if self.total else ""
        outcome = "failed" if kind else "done"
        progress(f"{self.what}: {outcome}{how_far} in {time.monotonic() - self.start:.0f} s")
        return False
