# SPDX-License-Identifier: GPL-2.0-only
"""What every stage shares: errors, paths, JSON stage files, digests and
dependency keys, and the one way out to external programs (run)."""
import ast
import json
import hashlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Optional

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


def digest_stream(chunks) -> str:
    """sha256 of the chunks (bytes) one after the other, nothing between
    them: for what is too big to hold at once (a tarball)."""
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()


def digest(*parts) -> str:
    """sha256 of parts (bytes, or anything as its str), each ended by a NUL."""
    return digest_stream(chunk for part in parts
                         for chunk in (part if isinstance(part, bytes) else str(part).encode(), b"\0"))


def file_digest(path: Path) -> str:
    """sha256 of a file's content, read a MiB at a time."""
    with open(path, "rb") as f:
        return digest_stream(iter(lambda: f.read(1 << 20), b""))


def dependency_key(*inputs, code=()) -> str:
    """The key of a cached result: what it depends on, all of it.
    inputs: the data it is made from (bytes, str, numbers; a Path stands for
    its file's content).  code: the toolkit modules (module objects or .py
    paths) whose code makes the result, see code_key."""
    return digest(*(p.read_bytes() if isinstance(p, Path) else p for p in inputs),
                  *([code_key(code)] if code else []))


def code_key(modules) -> str:
    """A digest of the code of modules (module objects or .py paths), each
    with every module of its package it imports, directly or not: no change
    to code a result depends on leaves it stale, and a change to any other
    module keeps it.  Computed afresh each time (a few ms): a caller asking
    for many keys computes it once and passes it as an input."""
    files = code_files([Path(getattr(m, "__file__", m)) for m in modules])
    return digest(*(f"{relative_name(f)}\0".encode() + f.read_bytes() for f in files))


def relative_name(path: Path) -> str:
    """A module's path from the top of its package tree (y2038lib/engine/apply.py):
    keys are the same in every checkout."""
    return str(path.relative_to(package_top(path).parent))


def package_top(path: Path) -> Path:
    """The outermost package holding the module at path: its folder and
    those above it that have an __init__.py."""
    top = path.parent
    while (top.parent / "__init__.py").exists():
        top = top.parent
    return top


def code_files(start) -> tuple:
    """The .py files of the modules start (paths) and of every module of
    their package tree they import, transitively (lazy imports inside
    functions too), sorted."""
    seen, todo = set(), [Path(p).resolve() for p in start]
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo += imported_files(path)
    return tuple(sorted(seen))


def imported_files(path: Path) -> list:
    """The .py files of the modules of its package tree (package_top) that
    the module at path imports; absolute imports are looked up from its top."""
    top = package_top(path)
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            if node.level == 0:
                base = top.parent
            where = base.joinpath(*node.module.split(".")) if node.module else base
            found += [module_file(where), *(module_file(where / alias.name) for alias in node.names)]
        elif isinstance(node, ast.Import):
            found += [module_file(top.parent.joinpath(*alias.name.split("."))) for alias in node.names]
    return [f for f in found if f and (f == top or top in f.parents)]


def module_file(where: Path):
    """The file of the module at where (a .py file or a package), or None."""
    for candidate in (where.with_name(where.name + ".py"), where / "__init__.py"):
        if candidate.is_file():
            return candidate.resolve()
    return None


def path_key(path: Path) -> str:
    """A short name for a directory, for state kept per directory in the work dir."""
    return digest(str(path.resolve()))[:12]


def write_json(path: Path, data) -> None:
    write_atomic(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def read_json(path: Path, stage_hint: str):
    if not path.exists():
        raise Y2038Error(f"{path} is missing: run `tools/y2038 {stage_hint}` first")
    return json.loads(path.read_text())


TimeoutExpired = subprocess.TimeoutExpired


class Commands:
    """Where every external program (spatch, git, make, qemu, tar, perl
    scripts) is started: run() calls COMMANDS.run, so a test can put an
    object answering with recorded outputs in its place (tests/recorded.py)
    and run a stage's logic without spatch, make or QEMU.  run() takes the
    arguments of subprocess.run and returns a CompletedProcess; start(),
    for a program that runs beside the caller, those of subprocess.Popen."""

    def run(self, cmd, **how) -> subprocess.CompletedProcess:
        return subprocess.run(cmd, **how)

    def start(self, cmd, **how) -> subprocess.Popen:
        return subprocess.Popen(cmd, **how)


COMMANDS = Commands()


def run(cmd, cwd=None, env=None, check=True, input=None, timeout=None, binary=False,
        merge_output=False, log=None) -> subprocess.CompletedProcess:
    """Run a command, capturing its output (text, or bytes when binary);
    a failure becomes a Y2038Error.  merge_output: stderr into stdout, in
    order.  log: an open file that gets both as they come, nothing captured.
    Without input, stdin is /dev/null: no command waits on the terminal.
    A timeout raises TimeoutExpired (the command killed)."""
    stdout = log or subprocess.PIPE
    stderr = subprocess.STDOUT if merge_output or log else subprocess.PIPE
    proc = COMMANDS.run([str(c) for c in cmd], cwd=cwd, env=env, input=input, timeout=timeout,
                        stdin=None if input is not None else subprocess.DEVNULL,
                        stdout=stdout, stderr=stderr, text=not binary)
    if check and proc.returncode != 0:
        output = proc.stderr or proc.stdout or ""
        detail = (output.decode(errors="replace") if isinstance(output, bytes) else output).strip().splitlines()
        raise Y2038Error(f"`{' '.join(map(str, cmd))}` failed: {detail[-1] if detail else proc.returncode}")
    return proc


def git_env(date: str = FIXED_DATE, identity: str = DEFAULT_SIGNOFF) -> dict:
    name, _, email = identity.partition(" <")
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email.rstrip(">"),
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email.rstrip(">"),
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    # no `git gc --auto` after a commit: the repack of a whole kernel tree's
    # objects it can start in the background takes a core for minutes while
    # the run compiles (settings the caller gives git this way are kept)
    count = int(env.get("GIT_CONFIG_COUNT") or 0)
    env.update({"GIT_CONFIG_COUNT": str(count + 1), f"GIT_CONFIG_KEY_{count}": "gc.auto",
                f"GIT_CONFIG_VALUE_{count}": "0"})
    return env


def ccache_dir() -> Path:
    """ccache's directory: Y2038_CCACHE_DIR (one cache shared by several work
    directories, or on a disk several machines mount) or <work>/ccache."""
    env = os.environ.get("Y2038_CCACHE_DIR")
    return Path(env).resolve() if env else work_dir() / "ccache"


# steps run in threads (the boot stage's kernels and machines): one writer
# at a time, and on a terminal only the newest step's line is kept up to date
TERMINAL = threading.Lock()
LIVE_STEPS: list = []


def progress(msg: str) -> None:
    with TERMINAL:
        sys.stderr.write(("\r\033[K" if sys.stderr.isatty() else "") + f"y2038: {msg}\n")
        sys.stderr.flush()


class Step:
    """A long step a user waits for.  On a terminal, one line kept up to date:
    what it is doing, how far, how long so far.  In a log (CI), a line when
    it starts and one when it ends, nothing in between."""

    def __init__(self, what: str, total: Optional[int] = None):
        self.what, self.total, self.done, self.detail = what, total, 0, ""
        self.live = sys.stderr.isatty()
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def __enter__(self):
        self.start = time.monotonic()
        if self.live:
            with TERMINAL:
                LIVE_STEPS.append(self)
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
        with TERMINAL:
            if LIVE_STEPS and LIVE_STEPS[-1] is self:
                sys.stderr.write("\r\033[K" + line[:200])
                sys.stderr.flush()

    def __exit__(self, kind, value, traceback):
        self.stopped.set()
        if self.live:
            with TERMINAL:
                LIVE_STEPS.remove(self)
        how_far = f" {self.done} of {self.total}" if self.total else ""
        outcome = "failed" if kind else "done"
        progress(f"{self.what}: {outcome}{how_far} in {time.monotonic() - self.start:.0f} s")
        return False
