# SPDX-License-Identifier: GPL-2.0-only
"""Build stage: every patch of the series, in order, compiled on x86_64 and
32-bit ARM (and on the architecture of arch/<arch>/ files where a Debian
cross compiler exists), the way the 0-day bot builds a posted series.

For each patch, applied with `git am` to a worktree of the baseline
(<state>/build/src): the touched .c files, and a few files including each
touched header, are built out of tree with one targeted `make X.o X.i` per
architecture under allmodconfig (plus tools/configs/build-allmod.config, W=1).
Recorded per patch: the build per architecture, whether every changed line
reached the compiler (JMake: the line survived preprocessing into X.i), and
the W=1 warnings the patch added (a unit that warns or fails is built again
as it was before the patch, to compare).  A patch that fails any of these is
taken back out of the worktree, so every later patch builds on the verified
series.  Patches touching disjoint .c files share one make per architecture.

Progress is saved after each patch, so an interrupted stage resumes.  The
results go into the series' results.json (per patch, and under "build" with
the verified series' head commit, which the boot stage reads) and into its
cover letters.
"""
import fcntl
import os
import re
import shutil
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

from .. import deps
from ..common import (REPO, Step, Y2038Error, ccache_dir, dependency_key, git_env, path_key, progress,
                      read_json, run, write_json)
from ..posting import covers
from ..records import BUILD_PATCH_KEYS, BuildSummary, Patch, SeriesResults
from ..platforms import platform_arches

CONFIG_FRAGMENT = REPO / "tools" / "configs" / "build-allmod.config"
INCLUDERS_PER_HEADER = 2
ERROR_LINES = 12


@dataclass(frozen=True)
class Arch:
    name: str  # as in results.json
    karch: str  # ARCH= for make
    cross: str  # CROSS_COMPILE= prefix
    package: str  # Debian package of the compiler

    @property
    def compiler(self) -> str:
        return f"{self.cross}gcc"


ARCHES = {a.name: a for a in (
    Arch("x86_64", "x86_64", "", "gcc"),
    Arch("arm", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf"),
    Arch("arm64", "arm64", "aarch64-linux-gnu-", "gcc-aarch64-linux-gnu"),
    Arch("mips", "mips", "mips-linux-gnu-", "gcc-mips-linux-gnu"),
    Arch("riscv", "riscv", "riscv64-linux-gnu-", "gcc-riscv64-linux-gnu"),
    Arch("powerpc", "powerpc", "powerpc64le-linux-gnu-", "gcc-powerpc64le-linux-gnu"),
    Arch("s390", "s390", "s390x-linux-gnu-", "gcc-s390x-linux-gnu"),
)}
DEFAULT_ARCHES = ("x86_64", "arm")
ARCH_DIRS = {"x86": "x86_64", "arm": "arm", "arm64": "arm64", "mips": "mips", "riscv": "riscv",
             "powerpc": "powerpc", "s390": "s390"}


def arches_for(relpath: str, src: Path):
    """Architectures that compile this file: its own for arch/<dir>/, else
    the defaults, and the architecture of the one platform a driver depends
    on (platform_arches: am65-cpts is arm64's K3 only)."""
    parts = relpath.split("/")
    if parts[0] == "arch" and len(parts) > 2:
        name = ARCH_DIRS.get(parts[1])
        return (name,) if name else ()
    defaults = [d for d, name in ARCH_DIRS.items() if name in DEFAULT_ARCHES]
    return DEFAULT_ARCHES + tuple(ARCH_DIRS[d] for d in platform_arches(src, relpath, defaults) if d in ARCH_DIRS)


def added_lines(patch_text: str) -> dict:
    """{file: [new line numbers of '+' lines that hold code]} from a unified diff."""
    out: Dict[str, List[int]] = {}
    path: Optional[str] = None
    line = 0
    for text in patch_text.splitlines():
        if text.startswith("+++ "):
            path = None if text[4:] == "/dev/null" else text[6:]
        elif text.startswith("@@ "):
            hunk = re.match(r"@@ -\S+ \+(\d+)", text)
            assert hunk, text  # git writes every hunk header so
            line = int(hunk.group(1))
        elif path and text.startswith("+"):
            code = re.sub(r"/\*.*?\*/|//.*", "", text[1:]).strip()
            # a comment's continuation is "* text" or "*/"; "*p = x;" is code
            if code and not re.match(r"\*(\s|/|$)|/\*", code):
                out.setdefault(path, []).append(line)
            line += 1
        elif path and text.startswith(" "):
            line += 1
    return out


def preprocessed_lines(i_text: str, src: Path) -> dict:
    """{relpath: set of lines that reached the compiler} from gcc -E line markers."""
    seen: Dict[str, Set[int]] = {}
    current: Optional[Set[int]] = None
    line = 0
    prefix = str(src) + "/"
    for text in i_text.splitlines():
        m = re.match(r'# (\d+) "(.*?)"', text)
        if m:
            line = int(m.group(1))
            current = seen.setdefault(m.group(2).removeprefix(prefix), set())
            continue
        if text.strip() and current is not None:
            current.add(line)
        line += 1
    return seen


def directive_lines(source: list) -> set:
    """Line numbers of preprocessor directives and their continuation lines:
    cpp consumes them, so they never show in X.i and are not counted."""
    found, continued = set(), False
    for n, text in enumerate(source, 1):
        if continued or text.lstrip().startswith("#"):
            found.add(n)
            continued = text.rstrip().endswith("\\")
    return found


def line_compiled(line: int, seen: set, source: list) -> bool:
    """Seen by the compiler, or folded into the line that starts a macro call
    spanning several lines (cpp prints such a call on its first line); a
    preprocessor directive in between means the line may have been skipped."""
    if line in seen:
        return True
    earlier = [n for n in seen if n < line]
    if not earlier:
        return False
    start = max(earlier)
    return not any(source[n - 1].lstrip().startswith("#") for n in range(start + 1, line + 1)
                   if n - 1 < len(source))


def parse_make_output(text: str, src: Path, build_dir: Path) -> dict:
    """{target: [warning or error lines]} from `make -Otarget` output, relative paths."""
    per_target: Dict[str, List[str]] = {}
    target: Optional[str] = None
    # CCACHE_BASEDIR makes gcc name sources relative to the build directory
    relative_src = os.path.relpath(src, build_dir) + "/"
    for raw in text.splitlines():
        line = raw.replace(str(src) + "/", "").replace(str(build_dir) + "/", "").replace(relative_src, "")
        m = re.match(r"\s+(?:CC|CPP)(?: \[M\])?\s+(\S+\.[oi])$", line)
        if m:
            target = m.group(1)
            per_target.setdefault(target, [])
        elif target and re.search(r": (warning|error|fatal error): ", line):
            per_target[target].append(line.strip())
    return per_target


def warning_key(line: str) -> str:
    """A warning without line and column numbers, so lines moved by the patch compare equal."""
    return re.sub(r"^(\S+?):\d+(:\d+)?:", r"\1:", line)


_HELD = {}  # build directory -> the descriptor holding its lock, for the process's lifetime


def lock_build_dir(root: Path) -> None:
    """One process at a time in a kernel's build directory: the build and
    boot stages and `convert --verify` reset its worktree, and two of them at
    once would build each other's checkouts."""
    key = str(root.resolve())
    if key in _HELD:
        return
    fd = os.open(root / ".lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise Y2038Error(f"{root} is in use by another y2038 process (a build, boot or convert --verify against "
                         f"the same kernel): wait for it, or give this one its own Y2038_WORK") from None
    _HELD[key] = fd


# ccache's direct mode, never its depend mode: depend mode never runs the
# preprocessor, so ccache cannot see an assembler .incbin, and ARM's
# arch/arm/boot/compressed/piggy.S (.incbin of the compressed kernel, its
# own text unchanged) came from the cache: every zImage after the first was
# the first one, whatever the build had changed.  The namespace keeps the
# objects depend mode cached out of reach.
CCACHE_NAMESPACE = "y2038-direct-mode"


def compiler_env(state: Path, distcc: bool = False) -> Dict[str, str]:
    """ccache for the kernel builds under state (CCACHE_BASEDIR: the
    variants' trees share objects by their relative paths)."""
    env = {"CCACHE_DIR": str(ccache_dir()), "CCACHE_BASEDIR": str(state), "CCACHE_NAMESPACE": CCACHE_NAMESPACE}
    if distcc:
        env["CCACHE_PREFIX"] = "distcc"  # ccache hands what it does not have to distcc
    return env


class Builder:
    """The worktree, one out-of-tree allmodconfig per architecture, ccache."""

    def __init__(self, tree, jobs: int, src: Optional[Path] = None, distcc: bool = False):
        """distcc: ccache hands what it does not have to distcc, which spreads
        the compiles over distcc's own host list."""
        self.tree = tree
        self.jobs = jobs
        self.root = tree.state / "build"
        self.src = src or self.root / "src"
        self.root.mkdir(exist_ok=True)
        lock_build_dir(self.root)
        self.env = dict(git_env(), **compiler_env(tree.state, distcc), KBUILD_BUILD_TIMESTAMP="2000-01-01",
                        KBUILD_BUILD_USER="y2038", KBUILD_BUILD_HOST="y2038")

    def git(self, *args, check=True):
        # the worktree's own .git: HEAD, index and `git am` state are per worktree
        return run(["git", *args], cwd=self.src, env=self.env, check=check)

    def reset(self, commit: str) -> None:
        if not (self.src / "Makefile").exists():
            progress(f"checking out the baseline into {self.src}")
            if self.src.exists():
                shutil.rmtree(self.src)
            self.tree.git("worktree", "prune", env=self.env)
            self.tree.git("worktree", "add", "-f", "--detach", str(self.src), self.tree.baseline, env=self.env)
        self.git("am", "--abort", check=False)
        # reset keeps the mtime of untouched files, so make rebuilds only what changed
        self.git("reset", "-q", "--hard", commit)

    def make_args(self, arch: Arch):
        return [f"O={self.root / arch.name}", f"ARCH={arch.karch}", f"CROSS_COMPILE={arch.cross}",
                f"CC=ccache {arch.compiler}", "W=1", f"-j{self.jobs}"]

    def configure(self, arch: Arch) -> None:
        """allmodconfig + prepare, once per baseline, fragment and compiler."""
        out = self.root / arch.name
        compiler = run([arch.compiler, "--version"]).stdout.splitlines()[0]
        # make makes the configuration from these alone: no code of ours in it
        want = dependency_key(self.tree.baseline, CONFIG_FRAGMENT, compiler, *self.make_args(arch)[1:3])
        stamp = out / ".y2038-configured"
        if stamp.exists() and stamp.read_text() == want:
            return
        out.mkdir(exist_ok=True)
        for targets in ([f"KCONFIG_ALLCONFIG={CONFIG_FRAGMENT}", "allmodconfig"], ["prepare"]):
            with Step(f"{arch.name}: make {targets[-1]} in {out}"):
                proc = run(["make", *self.make_args(arch), *targets], cwd=self.src, env=self.env, check=False)
            if proc.returncode != 0:
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
                raise Y2038Error(f"{arch.name}: `make {' '.join(targets)}` failed: {' | '.join(tail)}")
        stamp.write_text(want)

    def compile(self, arch: Arch, units, preprocess: bool = True) -> dict:
        """{unit: {"status", "messages", "lines"}} for a batch of .c files
        (relative paths); "lines" (from X.i) only when preprocess."""
        out = self.root / arch.name
        suffixes = (".o", ".i") if preprocess else (".o",)
        targets = []
        for unit in units:
            for suffix in suffixes:
                target = unit[:-2] + suffix
                (out / target).unlink(missing_ok=True)  # a stale object must not pass for a build
                targets.append(target)
        # one stream: make -Otarget keeps each target's stdout and stderr together
        text = run(["make", "-k", "-Otarget", *self.make_args(arch), *targets], cwd=self.src, env=self.env,
                   check=False, merge_output=True).stdout
        messages = parse_make_output(text, self.src, out)
        result: Dict[str, Dict[str, Any]] = {}
        for unit in units:
            obj, pre = unit[:-2] + ".o", unit[:-2] + ".i"
            if re.search(rf"No rule to make target '{re.escape(obj)}'", text):
                result[unit] = {"status": "not-built", "messages": ["not built by this architecture's Makefiles"]}
                continue
            lines = messages.get(obj, []) + messages.get(pre, [])
            if (out / obj).exists() and (not preprocess or (out / pre).exists()):
                result[unit] = {"status": "ok", "messages": [l for l in lines if ": warning: " in l]}
                if preprocess:
                    result[unit]["lines"] = preprocessed_lines((out / pre).read_text(errors="replace"), self.src)
            else:
                errors = [l for l in lines if "error: " in l] or \
                         [l for l in text.splitlines() if "rror" in l and unit[:-2] in l] or \
                         text.strip().splitlines()[-3:]
                result[unit] = {"status": "failed", "messages": errors[:ERROR_LINES]}
        return result


def distcc_jobs() -> int:
    """How many compiles distcc's host list takes at once (DISTCC_HOSTS,
    ~/.distcc/hosts or /etc/distcc/hosts): the -j of a distributed build."""
    proc = run(["distcc", "-j"], check=False)
    if proc.returncode != 0 or not proc.stdout.strip().isdigit():
        raise Y2038Error("distcc has no usable host list: set DISTCC_HOSTS, for example "
                         f"'localhost/2 buildbox/8' ({(proc.stderr or proc.stdout).strip()})")
    hosts = run(["distcc", "--show-hosts"], check=False).stdout.split()
    progress(f"compiling through distcc: {' '.join(hosts)} (-j{proc.stdout.strip()})")
    return int(proc.stdout)


def header_includers(builder, header: str, prefer) -> list:
    """A few .c files that include the header, those the patch touches first."""
    if header.startswith("include/"):
        name, where = header[len("include/"):], ["*.c"]
    elif header.startswith("arch/") and "/include/" in header:
        name, where = header.split("/include/", 1)[1], [f"arch/{header.split('/')[1]}/*.c"]
    else:
        name, where = Path(header).name, [f"{Path(header).parent}/*.c"]
    # "# include" with a space is common (kernel/sched/build_utility.c)
    pattern = rf'^\s*#\s*include\s*[<"]{re.escape(name)}[>"]'
    found = builder.git("grep", "-l", "-E", pattern, "--", *where, check=False).stdout.split()
    ordered = [f for f in prefer if f in found] + sorted(f for f in found if f not in prefer)
    return ordered[:INCLUDERS_PER_HEADER]


def build_units(builder, files, arch: str) -> list:
    """The .c files to build for these touched files: the .c files themselves,
    files including a touched header, and files including a touched .c file
    (kernel/sched/ builds debug.c inside build_utility.c)."""
    units = set()
    for f in files:
        if arch not in arches_for(f, builder.tree.src):
            continue
        if f.endswith(".c"):
            units.add(f)
        if f.endswith((".c", ".h")):
            units.update(header_includers(builder, f, files))
    return sorted(units)


def build_context(tree, arches) -> str:
    """What every patch's build result depends on beside the patch: the
    baseline, the configuration, the architectures and this stage's code
    (a changed stage does not resume on, or reuse, old results)."""
    return dependency_key(tree.baseline, CONFIG_FRAGMENT, " ".join(arches), code=[__file__])


def series_fingerprint(series_dir: Path, names, tree, arches) -> str:
    return dependency_key(build_context(tree, arches),
                          *(f"{name}\0".encode() + (series_dir / name).read_bytes() for name in names))


def patch_key(builder, patch: Path, files, context: str) -> str:
    """What one patch's build result depends on: its diff (not its message),
    the files it changes and every header the patches before it changed,
    as they are before it (a .c file of another patch is in no unit of this
    one), the baseline, configuration, architectures and this stage's code
    (context)."""
    text = patch.read_text(errors="replace")
    # the diff alone: no message, no abbreviated blob ids, no signature or base block
    diff = re.split(r"\n-- \n|\nbase-commit:", text[text.find("\ndiff --git"):])[0]
    diff = re.sub(r"(?m)^index .*\n", "", diff).rstrip("\n")
    headers = builder.git("diff", "--name-only", builder.tree.baseline, "HEAD", "--", "*.h").stdout.split()
    blobs = builder.git("ls-tree", "HEAD", "--", *sorted(set(headers) | set(files))).stdout
    return dependency_key(context, diff, blobs)


def patch_record_path(tree, key: str) -> Path:
    return tree.state / "build" / "patches" / f"{key}.json"


def cached_record(tree, key: str):
    path = patch_record_path(tree, key)
    return read_json(path, "build") if path.exists() else None


def available_arches(wanted, install: bool) -> dict:
    """{arch name: None if usable, else why not}; installs missing cross compilers when allowed."""
    missing = [ARCHES[a] for a in wanted if not shutil.which(ARCHES[a].compiler)]
    if missing and install:
        try:
            deps.ensure_packages([a.package for a in missing])
        except Y2038Error as err:
            progress(f"warning: {err}")
    return {a: None if shutil.which(ARCHES[a].compiler) else
            f"no {ARCHES[a].compiler} here (apt-get install {ARCHES[a].package})" for a in wanted}


BATCH_MAX = 32  # patches built by one make per architecture


def batches(builder, patches, arches: dict):
    """Consecutive patches that can be built together: each touches only .c
    files no other patch of the batch touches or builds, so one make per
    architecture gives every patch the result it would get alone.  A patch
    touching a header is a batch of its own."""
    batch: List[Patch] = []
    taken: Set[str] = set()
    for patch in patches:
        units = {u for name in arches_wanted(patch, builder.tree.src)
                 for u in build_units(builder, patch.files, name)}
        alone = any(not f.endswith(".c") for f in patch.files)
        if batch and (alone or len(batch) == BATCH_MAX or taken & (units | set(patch.files))):
            yield batch
            batch, taken = [], set()
        batch.append(patch)
        taken |= units | set(patch.files)
        if alone:
            yield batch
            batch, taken = [], set()
    if batch:
        yield batch


def arches_wanted(patch: Patch, src: Path):
    return sorted({a for f in patch.files for a in arches_for(f, src)} | set(DEFAULT_ARCHES))


def apply_patch(builder, patch: Patch, patch_path: Path, arches: dict):
    """git am one patch; (record, what judge_patch needs) or (record, None)."""
    record: Dict[str, Any] = {"build": {}, "build_errors": {}, "lines_compiled": [0, 0], "lines_not_compiled": [],
              "new_warnings": [], "units": {}}
    proc = builder.git("am", "-q", "--keep-cr", str(patch_path), check=False)
    if proc.returncode != 0:
        builder.git("am", "--abort", check=False)
        record.update(verified=False, reason="does not apply: " + (proc.stderr.strip().splitlines() or ["?"])[0])
        return record, None
    changed = added_lines(patch_path.read_text(errors="replace"))
    sources = {f: (builder.src / f).read_text(errors="replace").splitlines() for f in changed}
    directives = {f: directive_lines(sources[f]) for f in changed}
    proven = {(f, n): False for f, lines in changed.items() for n in lines if n not in directives[f]}
    for name in arches_wanted(patch, builder.tree.src):
        units = build_units(builder, patch.files, name)
        if not units:
            record["build"][name] = "not-built"
            continue
        if arches.get(name):
            record["build"][name] = "not-built"
            record["build_errors"][name] = [arches[name]]
            continue
        builder.configure(ARCHES[name])
        record["units"][name] = units
    return record, {"sources": sources, "proven": proven}


def judge_patch(record: dict, context: dict, compiled: dict, before: dict) -> dict:
    """The patch's own units in compiled ({arch: {unit: result}}) against
    before: sets record's verdict; returns its units' results to keep."""
    sources, proven, built = context["sources"], context["proven"], {}
    for name, units in record["units"].items():
        after = {u: compiled[name][u] for u in units}
        statuses = set()
        for unit, res in after.items():
            prior = before.get(name, {}).get(unit)
            if res["status"] == "failed" and prior and prior["status"] != "ok":
                res = {"status": "not-built", "messages": ["does not build before this patch either"]}
            statuses.add(res["status"])
            if res["status"] == "failed":
                record["build_errors"].setdefault(name, []).extend(res["messages"])
            if res["status"] != "ok":
                continue
            old = Counter(map(warning_key, prior["messages"])) if prior and prior["status"] == "ok" else Counter()
            for warning in res["messages"]:
                if old[warning_key(warning)] > 0:
                    old[warning_key(warning)] -= 1
                elif f"{name}: {warning}" not in record["new_warnings"]:
                    record["new_warnings"].append(f"{name}: {warning}")
            for (f, n) in proven:
                if not proven[(f, n)] and line_compiled(n, res["lines"].get(f, set()), sources[f]):
                    proven[(f, n)] = True
        record["build"][name] = "failed" if "failed" in statuses else "ok" if "ok" in statuses else "not-built"
        built[name] = {u: {"status": r["status"], "messages": r["messages"]} for u, r in after.items()}
    record["lines_compiled"] = [sum(proven.values()), len(proven)]
    record["lines_not_compiled"] = [f"{f}:{n}" for (f, n), ok in sorted(proven.items()) if not ok]
    reasons = [f"{a} build failed" for a, s in record["build"].items() if s == "failed"]
    if not {"ok", "failed"} & set(record["build"].values()):
        reasons.append("not built on any architecture here")
    if record["lines_not_compiled"]:
        reasons.append(f"{len(record['lines_not_compiled'])} changed lines not compiled")
    if record["new_warnings"]:
        reasons.append(f"{len(record['new_warnings'])} new warnings")
    record["verified"] = not reasons
    if reasons:
        record["reason"] = "; ".join(reasons)
    return built


def verify_batch(builder, batch, series_dir: Path, arches: dict, before: dict) -> list:
    """Apply the batch's patches, build them with one make per architecture,
    and keep on the worktree only those verified, in order."""
    head = builder.git("rev-parse", "HEAD").stdout.strip()
    applied = [(patch, *apply_patch(builder, patch, series_dir / patch.name, arches)) for patch in batch]
    units: Dict[str, List[str]] = {}
    for _, record, context in applied:
        for name, todo in (record["units"] if context else {}).items():
            units.setdefault(name, []).extend(todo)
    compiled = compile_per_arch(builder, units)
    build_before(builder, head, compiled, before)
    records, keep = [], []
    for patch, record, context in applied:
        if context:
            built = judge_patch(record, context, compiled, before)
            if record["verified"]:
                keep.append(patch)
                for name, results in built.items():
                    before.setdefault(name, {}).update(results)
        records.append(record)
    if len(keep) < len(applied):
        # files are disjoint within a batch: the verified patches apply alone
        builder.git("reset", "-q", "--hard", head)
        for patch in keep:
            builder.git("am", "-q", "--keep-cr", str(series_dir / patch.name))
    return records


def compile_per_arch(builder, units: dict, preprocess: bool = True) -> dict:
    """{arch: builder.compile()} for {arch: units}, the architectures' makes
    side by side: much of a small make is its own single-threaded start."""
    with ThreadPoolExecutor(max_workers=max(1, len(units))) as pool:
        futures = {name: pool.submit(builder.compile, ARCHES[name], todo, preprocess)
                   for name, todo in units.items()}
        return {name: future.result() for name, future in futures.items()}


def build_before(builder, head: str, compiled: dict, before: dict) -> None:
    """Adds to before the W=1 messages of units as they were at head, before
    the batch, for the units that warned or failed in the batch and have no
    earlier result: a unit that builds without a warning gained none, so
    most units are compiled once, not twice."""
    todo = {name: sorted(u for u, r in results.items()
                         if u not in before.get(name, {}) and (r["status"] == "failed" or r["messages"]))
            for name, results in compiled.items()}
    todo = {name: units for name, units in todo.items() if units}
    if not todo:
        return
    changed = builder.git("diff", "--name-only", head, "HEAD").stdout.split()
    if not changed:  # nothing applied: the results at head are the ones just compiled
        for name, units in todo.items():
            before.setdefault(name, {}).update({u: {"status": compiled[name][u]["status"],
                                                    "messages": compiled[name][u]["messages"]} for u in units})
        return
    # restore also removes files the batch added, and brings back those it deleted
    builder.git("restore", f"--source={head}", "--", *changed)
    try:
        results = compile_per_arch(builder, todo, preprocess=False)
    finally:
        builder.git("restore", "--source=HEAD", "--", *changed)
    for name, unit_results in results.items():
        before.setdefault(name, {}).update(
            {u: {"status": r["status"], "messages": r["messages"]} for u, r in unit_results.items()})


def configure_all(builder, patches, arches: dict) -> None:
    """allmodconfig + prepare of every architecture the series builds on,
    side by side: kconfig's conf runs on one core."""
    wanted = [ARCHES[name] for name, why_not in arches.items()
              if not why_not and any(build_units(builder, p.files, name) for p in patches)]
    with ThreadPoolExecutor(max_workers=max(1, len(wanted))) as pool:
        list(pool.map(builder.configure, wanted))


def progress_file(tree, series_dir: Path, fingerprint: str) -> Path:
    """One per series directory and series: a test series never disturbs
    `make run`'s, and both the series as written and as posted (without the
    patches not verified) resume."""
    return tree.state / "build" / f"progress-{path_key(series_dir)}-{fingerprint[:12]}.json"


def forget_other_progress(tree, series_dir: Path, keep) -> None:
    """Only the states of this series directory's last run stay."""
    for path in (tree.state / "build").glob(f"progress-{path_key(series_dir)}-*.json"):
        if path not in keep:
            path.unlink()


def build_stage(tree, series_dir: Path, jobs: int, withdraw, install: bool = True,
                distcc: bool = False) -> BuildSummary:
    """withdraw(tree, series_dir, results, {name: reason}) -> {old name: new
    name}: takes the patches not verified out of the postings (the series
    stage's series.withdraw_unverified, which writes postings)."""
    results = SeriesResults.read(series_dir)
    if results.baseline != tree.baseline:
        raise Y2038Error(f"{series_dir} was made for another baseline: run `tools/y2038 series` again")
    patches = results.patches
    missing = [p.name for p in patches if not (series_dir / p.name).is_file()]
    if missing:
        raise Y2038Error(f"{series_dir}: patches listed in results.json are missing: {', '.join(missing[:3])}")
    wanted = sorted({a for p in patches for f in p.files for a in arches_for(f, tree.src)} | set(DEFAULT_ARCHES))
    arches = available_arches(wanted, install)
    for name in DEFAULT_ARCHES:
        if arches[name]:
            raise Y2038Error(f"cannot build for {name}: {arches[name]}")
    builder = Builder(tree, jobs, distcc=distcc)
    built_arches = [a for a, why in arches.items() if not why]
    fingerprint = series_fingerprint(series_dir, [p.name for p in patches], tree, built_arches)
    state_path = progress_file(tree, series_dir, fingerprint)
    state = resumed_state(builder, state_path, fingerprint, len(patches))
    context = build_context(tree, built_arches)
    build_batches(builder, series_dir, patches, arches, state, state_path, context)
    summary = summarize(patches, state, tree.baseline)
    for patch, record in zip(patches, state["done"]):
        for key in BUILD_PATCH_KEYS:
            setattr(patch, key, record.get(key))
    keep = [state_path]
    withdrawn = dict(summary.not_verified or {})
    # a posted series (already without them) remembers what was taken out
    summary.not_verified = {**state.get("withdrawn", {}), **withdrawn}
    if withdrawn:
        # not posted: into unverified/, the postings written again without them
        renamed = withdraw(tree, series_dir, results, withdrawn)
        summary.verified = [renamed[name] for name in summary.verified]
        progress(f"{len(withdrawn)} patches not verified: moved to {series_dir / 'unverified'}")
        # the posted series is these verified patches in this order: its build is this one
        posted = series_fingerprint(series_dir, [p.name for p in results.patches], tree, built_arches)
        keep.append(progress_file(tree, series_dir, posted))
        write_json(keep[-1], dict(state, fingerprint=posted, done=[r for r in state["done"] if r["verified"]],
                                  withdrawn=summary.not_verified))
    forget_other_progress(tree, series_dir, keep)
    results.build = summary
    results.write(series_dir)
    covers.write_all(series_dir, results)
    return summary


def resumed_state(builder, state_path: Path, fingerprint: str, npatches: int) -> dict:
    """The saved progress of this series' build, with the worktree at its
    head; or a fresh one at the baseline."""
    tree = builder.tree
    state = read_json(state_path, "build") if state_path.exists() else {}
    if state.get("fingerprint") == fingerprint and builder.git("cat-file", "-e", state["head"], check=False).returncode == 0:
        progress(f"resuming after {len(state['done'])} of {npatches} patches")
        builder.reset(state["head"])
        return state
    builder.reset(tree.baseline)
    state = {"fingerprint": fingerprint, "done": [], "head": tree.baseline, "seconds": 0, "before": {}}
    write_json(state_path, state)
    return state


def build_batches(builder, series_dir: Path, patches, arches: dict, state: dict, state_path: Path,
                  context: str) -> None:
    """Every patch not done yet, batch by batch: a patch built before with
    the same diff and headers keeps its result; progress saved after each batch."""
    tree, started, configured = builder.tree, time.monotonic(), False
    for batch in batches(builder, patches[len(state["done"]):], arches):
        first = len(state["done"]) + 1
        span = f"{first}-{first + len(batch) - 1}" if len(batch) > 1 else f"{first}"
        keys = [patch_key(builder, series_dir / p.name, p.files, context) for p in batch]
        records = [cached_record(tree, key) for key in keys]
        if all(records):
            # each patch's diff and every header before it as in an earlier build: its result stands
            for patch, record in zip(batch, records):
                if record["verified"]:
                    builder.git("am", "-q", "--keep-cr", str(series_dir / patch.name))
            progress(f"[{span}/{len(patches)}] unchanged (same diffs, same headers before them): "
                     f"{sum(r['verified'] for r in records)} verified")
        else:
            if not configured:  # the architectures side by side, once something is to be compiled
                configure_all(builder, patches[first - 1:], arches)
                configured = True
            with Step(f"[{span}/{len(patches)}] {batch[0].name}" + (" ..." if len(batch) > 1 else "")):
                records = verify_batch(builder, batch, series_dir, arches, state["before"])
            patch_record_path(tree, keys[0]).parent.mkdir(parents=True, exist_ok=True)
            for key, record in zip(keys, records):
                write_json(patch_record_path(tree, key), record)
        for patch, record in zip(batch, records):
            if not record["verified"]:
                progress(f"  {patch.name}: not verified: {record['reason']}")
        state["done"] += records
        state["head"] = builder.git("rev-parse", "HEAD").stdout.strip()
        state["seconds"] = round(state["seconds"] + time.monotonic() - started, 1)
        started = time.monotonic()
        write_json(state_path, state)


def summarize(patches, state, baseline: str) -> BuildSummary:
    per_arch: Dict[str, Counter] = {}
    for record in state["done"]:
        for arch, status in record["build"].items():
            per_arch.setdefault(arch, Counter())[status] += 1
    return BuildSummary(
        baseline=baseline, verified_head=state["head"], seconds=state["seconds"],
        arches={a: dict(c) for a, c in sorted(per_arch.items())},
        verified=[p.name for p, r in zip(patches, state["done"]) if r["verified"]],
        not_verified={p.name: r["reason"] for p, r in zip(patches, state["done"]) if not r["verified"]},
        lines_compiled=[sum(r["lines_compiled"][0] for r in state["done"]),
                        sum(r["lines_compiled"][1] for r in state["done"])],
        config=f"allmodconfig + {CONFIG_FRAGMENT.relative_to(REPO)}, W=1")


def build_text(summary: BuildSummary) -> str:
    arches = "; ".join(f"{a}: " + ", ".join(f"{n} {s}" for s, n in sorted(c.items()))
                       for a, c in (summary.arches or {}).items())
    compiled, not_verified = summary.lines_compiled or [0, 0], summary.not_verified or {}
    lines = [f"build stage {summary.seconds} s ({summary.config}): {arches}",
             f"changed lines compiled: {compiled[0]} of {compiled[1]}; "
             f"verified patches: {len(summary.verified)} of {len(summary.verified) + len(not_verified)}"]
    lines += [f"  not verified: {name}: {why}" for name, why in not_verified.items()]
    return "\n".join(lines)
