# SPDX-License-Identifier: GPL-2.0-only
"""Boot stage: small kernels, pristine and with the verified series, booted in
QEMU (TCG) on x86_64 and 32-bit ARM with an initramfs that checks timekeeping.

Like kunit.py, four steps per kernel: config (tinyconfig + the fragments in
boot-tests/configs/ via the tree's merge_config.sh), build (ccache), run
(QEMU with the RTC a few seconds before 2038-01-19 03:14:07 UTC, the console
logged to the work dir, a wall-clock timeout) and parse (KUnit's KTAP with the
tree's kunit.py parse, the init's KTAP, panics, oopses and warnings).
The patched kernel boots first; the pristine one only when the patched one
fails something (to tell a regression from a known failure; --pristine).
The verdict per architecture: the patched kernel passes everything the
pristine kernel passes, and its own checks pass.  Which KUnit suites and
selftests a boot runs: boot_suites.py.  A boot whose inputs did not change
since that kernel's last boot is not run again (boot_key).  Which of the
series' changed files each kernel built in is recorded with its boot
(changed_files_built), so each cover letter says which of its files the
boots ran.  Results go into the series' results.json ("boot",
"boot_pristine") and cover letters.
"""
import calendar
import json
import os
import re
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import boot_suites, fix_checks, legacy
from .machines import MACHINES, Machine
from .boot_suites import QUICK_SELFTESTS
from ..common import (REPO, Step, TimeoutExpired, Y2038Error, dependency_key, progress, read_json, run,
                      write_atomic, write_json)
from ..posting import covers
from ..records import BOOT_RTC_BASE, BootResult, SeriesResults
from .build import CCACHE_NAMESPACE, Builder

BOOT_TESTS = REPO / "boot-tests"
INIT_SOURCE = BOOT_TESTS / "y2038-init.c"
# valid-adjtimex defines its own clock_adjtime(), which clashes with glibc's
# when linked statically; renamed, it makes the 32-bit time syscall with
# glibc's 64-bit struct timex on armhf and fails on every kernel.
SELFTESTS_LEFT_OUT = {"arm": ("valid-adjtimex",)}
RTC_BASE = BOOT_RTC_BASE
PROBLEM = re.compile(r"Kernel panic|Oops|BUG:|WARNING:|Unable to handle kernel|general protection fault")


BUILT_STAMP = ".y2038-built-commit"  # in a kernel's build directory: the commit it was last built from
COMPILER_STAMP = ".y2038-compiler"  # beside it: the compiler environment (ccache namespace) of that build


def clean_head(builder) -> str:
    """The worktree's HEAD commit, or "" when it has no checkout or local changes."""
    if not (builder.src / "Makefile").exists():
        return ""
    status = builder.git("status", "--porcelain", "--untracked-files=no", check=False)
    head = builder.git("rev-parse", "HEAD", check=False).stdout.strip()
    return head if status.returncode == 0 and not status.stdout.strip() else ""


# ccache compiles what its preprocessor run hashed (run_second_cpp off): a
# miss runs cpp once, not twice (a cold ARM boot kernel 277 -> 244 s), and
# .incbin is still seen there.  The build stage keeps the second cpp: its W=1
# warnings are compared, and they read the source, not its expansion.
BOOT_KERNEL_CCACHE = {"CCACHE_NOCPP2": "1"}


class Kernel:
    """One (variant, architecture) kernel: config and build in <state>/boot/<variant>/<arch>."""

    def __init__(self, builder: Builder, variant: str, machine: Machine, jobs: int, checks=()):
        """checks: the fix checks committed in the builder's worktree; those
        of this machine are configured in."""
        self.builder, self.src, self.variant, self.machine, self.jobs = builder, builder.src, variant, machine, jobs
        # <variant>/src beside <variant>/<arch>: the same relative paths for
        # every variant, so ccache (CCACHE_BASEDIR) shares their objects
        self.out = self.src.parent / machine.arch
        self.fragments = self.fragments_for(machine, checks)

    @staticmethod
    def fragments_for(machine: Machine, checks=()) -> list:
        return [BOOT_TESTS / "configs" / "base.config", BOOT_TESTS / "configs" / f"{machine.arch}.config",
                *fix_checks.fragments(checks, machine.arch)]

    @property
    def env(self) -> dict:
        return dict(self.builder.env, **BOOT_KERNEL_CCACHE)

    def make_command(self, *targets) -> list:
        m = self.machine
        return ["make", f"O={self.out}", f"ARCH={m.karch}", f"CROSS_COMPILE={m.cross}",
                f"CC=ccache {m.cross}gcc", f"-j{self.jobs}", *targets]

    # "modules": modpost writes Module.symvers, which the legacy modules link against
    def build_targets(self) -> tuple:
        return Path(self.machine.image).name, "modules"

    def make(self, *targets, check=True):
        return run(self.make_command(*targets), cwd=self.src, env=self.env, check=check)

    def configure(self) -> bool:
        """Whether the configuration was made (again)."""
        stamp = self.out / ".y2038-configured"
        # made by make and merge_config.sh from these alone: no code of ours in it
        want = dependency_key(self.builder.tree.baseline, *self.fragments)
        if stamp.exists() and stamp.read_text() == want:
            return False
        self.out.mkdir(parents=True, exist_ok=True)
        self.make("tinyconfig")
        # merge_config.sh needs absolute fragment paths: with relative ones it
        # prints an error and leaves tinyconfig, a no-MMU kernel on ARM
        run(["scripts/kconfig/merge_config.sh", "-m", "-O", str(self.out), str(self.out / ".config"),
             *map(str, self.fragments)], cwd=self.src, env=dict(self.builder.env, ARCH=self.machine.karch,
                                                                 CROSS_COMPILE=self.machine.cross))
        self.make("olddefconfig")
        config = (self.out / ".config").read_text()
        for fragment in self.fragments:
            for line in fragment.read_text().splitlines():
                if line.startswith("CONFIG_") and line not in config.splitlines():
                    raise Y2038Error(f"{self.machine.arch}: {line} from {fragment.name} did not survive "
                                     f"olddefconfig (a missing dependency?)")
        stamp.write_text(want)
        return True

    def build(self):
        """(image path or None, build log excerpt)."""
        if not self.configure() and self.up_to_date():
            return self.out / self.machine.image, []
        self.forget_incbin_objects_of_another_compiler()
        self.touch_changed_since_last_build()
        proc = self.make(*self.build_targets(), check=False)
        if proc.returncode != 0:
            errors = [l for l in (proc.stdout + proc.stderr).splitlines() if "error" in l.lower()]
            return None, errors[:12]
        self.mark_built()
        return self.out / self.machine.image, []

    def mark_built(self) -> None:
        """Record the commit built: the next build touches what changed since."""
        (self.out / BUILT_STAMP).write_text(self.head())
        (self.out / COMPILER_STAMP).write_text(CCACHE_NAMESPACE)

    def up_to_date(self) -> bool:
        """Built from this commit, and the worktree clean since: make would
        walk the whole tree to find nothing to do (16 s)."""
        stamp = self.out / BUILT_STAMP
        return (self.out / self.machine.image).exists() and stamp.exists() and \
            stamp.read_text() == clean_head(self.builder) and self.built_by_this_compiler()

    def built_by_this_compiler(self) -> bool:
        compiler = self.out / COMPILER_STAMP
        return compiler.exists() and compiler.read_text() == CCACHE_NAMESPACE

    def forget_incbin_objects_of_another_compiler(self) -> None:
        """A build directory last built in another compiler environment
        (ccache's depend mode, which cached assembler objects whatever their
        .incbin pulled in: ARM's compressed kernel) has its .incbin objects
        made again; make alone would keep them."""
        if not (self.out / BUILT_STAMP).exists() or self.built_by_this_compiler():
            return
        sources = self.builder.git("grep", "-l", r"\.incbin", "--", "*.S", check=False).stdout.split()
        objects = [self.out / Path(s).with_suffix(".o") for s in sources]
        for obj in [*objects, *self.out.glob("arch/*/boot/compressed/piggy.o")]:
            obj.unlink(missing_ok=True)

    def head(self) -> str:
        return self.builder.git("rev-parse", "HEAD").stdout.strip()

    def touch_changed_since_last_build(self) -> None:
        """git keeps a file's mtime when it thinks the file is unchanged, so
        make could miss a file that differs from the last build: touch them."""
        stamp = self.out / BUILT_STAMP
        if not stamp.exists() or stamp.read_text() == self.head():
            return
        changed = self.builder.git("diff", "--name-only", stamp.read_text(), "HEAD").stdout.split()
        for relpath in changed:
            if (self.src / relpath).exists():
                os.utime(self.src / relpath)


def selftests_for(machine: Machine):
    return [t for t in QUICK_SELFTESTS if t not in SELFTESTS_LEFT_OUT.get(machine.arch, ())]


def build_initramfs(tree, machine: Machine) -> Path:
    """The init and the quick timer selftests, static, in a cpio made by the tree's gen_init_cpio."""
    root = tree.state / "boot" / f"initramfs-{machine.arch}"
    selftests = tree.src / "tools/testing/selftests/timers"
    cflags = ["-static", "-O2", "-D_GNU_SOURCE", *machine.user_cflags]
    want = dependency_key(INIT_SOURCE, *cflags, *(selftests / f"{t}.c" for t in selftests_for(machine)),
                          tree.baseline)
    cpio = root / "initramfs.cpio"
    stamp = root / ".stamp"
    if cpio.exists() and stamp.exists() and stamp.read_text() == want:
        return cpio
    root.mkdir(parents=True, exist_ok=True)
    cc = f"{machine.cross}gcc"
    run([cc, *cflags, "-Wall", "-o", str(root / "init"), str(INIT_SOURCE)])
    spec = ["dir /dev 0755 0 0", "nod /dev/console 0600 0 0 c 5 1", "dir /proc 0755 0 0",
            "dir /sys 0755 0 0", "dir /selftests 0755 0 0", f"file /init {root / 'init'} 0755 0 0"]
    for test in selftests_for(machine):
        extra = []
        if test == "valid-adjtimex":
            # its own clock_adjtime() clashes with glibc's when linked statically
            extra = ["-Dclock_adjtime=selftest_clock_adjtime"]
        run([cc, *cflags, *extra, f"-I{selftests.parent}", "-o", str(root / test), str(selftests / f"{test}.c"),
             "-lrt", "-lpthread", "-lm"])
        spec.append(f"file /selftests/{test} {root / test} 0755 0 0")
    (root / "initramfs.list").write_text("\n".join(spec) + "\n")
    gen = root / "gen_init_cpio"
    run(["gcc", "-O2", "-o", str(gen), str(tree.src / "usr" / "gen_init_cpio.c")])
    write_atomic(cpio, run([gen, root / "initramfs.list"], binary=True).stdout)
    stamp.write_text(want)
    return cpio


def run_qemu(machine: Machine, image: Path, initrd: Path, log: Path, params=()):
    """(console text, seconds, exited by itself); params: more kernel parameters."""
    base = calendar.timegm(time.strptime(RTC_BASE, "%Y-%m-%dT%H:%M:%S"))
    cmd = [*machine.qemu, "-nographic", "-no-reboot", "-rtc", f"base={RTC_BASE}", "-kernel", str(image),
           "-initrd", str(initrd), "-append",
           " ".join([f"console={machine.console} panic=-1 oops=panic y2038_rtc_base={base}", *params])]
    started = time.monotonic()
    with open(log, "wb") as out:
        try:
            run(cmd, check=False, log=out, timeout=machine.timeout)
            exited = True
        except TimeoutExpired:  # killed
            exited = False
    return log.read_text(errors="replace"), round(time.monotonic() - started, 1), exited


def kunit_results(tree, console: str) -> list:
    """KUnit's KTAP from the console, parsed by the tree's own kunit.py."""
    proc = run(["python3", tree.src / "tools/testing/kunit/kunit.py", "parse", "--json=stdout"], input=console,
               check=False)
    start = proc.stdout.find("{")
    if start < 0:
        return [{"name": "kunit", "result": "fail"}]
    try:
        data = json.loads(proc.stdout[start:])
    except json.JSONDecodeError:
        return [{"name": "kunit", "result": "fail"}]
    tests = []

    def walk(group, prefix):
        for case in group.get("test_cases", []):
            tests.append({"name": f"{prefix}{case['name']}",
                          "result": {"PASS": "pass", "SKIP": "skip"}.get(case["status"], "fail")})
        for sub in group.get("sub_groups", []):
            walk(sub, f"{prefix}{sub['name']}.")
    walk(data, "kunit.")
    return tests


def parse_console(tree, console: str, exited: bool, kunit_wanted: bool = True) -> dict:
    """kunit_wanted: KUnit suites were asked for; else KUnit must say it is disabled."""
    before_init, _, after = console.partition("y2038-init: start")
    if kunit_wanted:
        tests = kunit_results(tree, before_init) if "KTAP version" in before_init or "TAP version" in before_init \
            else [{"name": "kunit", "result": "fail"}]
    else:
        tests = [] if "kunit: disabled" in before_init else [{"name": "kunit.disabled", "result": "fail"}]
    for m in re.finditer(r"^(not )?ok \d+ (\S+)(?: # (SKIP)?.*)?$", after, re.M):
        kind = "kselftest." if m.group(2) in QUICK_SELFTESTS else "" if m.group(2).startswith("legacy/") else "init."
        tests.append({"name": f"{kind}{m.group(2)}",
                      "result": "skip" if m.group(3) else "fail" if m.group(1) else "pass"})
    loaded = [t["name"].split("/")[1] for t in tests if re.fullmatch(r"legacy/\w+/loaded", t["name"])]
    tests += legacy.parse(after, loaded)
    lines = console.splitlines()
    problems = []
    for n, line in enumerate(lines):
        if PROBLEM.search(line):
            problems.append("\n".join(lines[max(0, n - 2):n + 12]))
    verdict_line = re.search(r"y2038-init: verdict (PASS|FAIL)", after)
    if not exited:
        problems.append("the guest stopped answering: killed after the timeout; last lines:\n"
                        + "\n".join(lines[-15:]))
    elif not verdict_line:
        problems.append("the guest stopped before the init's verdict; last lines:\n" + "\n".join(lines[-15:]))
    ok = (exited and verdict_line and verdict_line.group(1) == "PASS" and not problems
          and all(t["result"] != "fail" for t in tests))
    return {"verdict": "pass" if ok else "fail", "tests": tests, "problems": problems}


def checkout_variant(builder: Builder, verified: list, series_dir: Path, checks=()) -> None:
    """The baseline plus the verified patches, applied the way a maintainer
    would, then the fix checks (never posted; configured in only on their
    machine's kernel)."""
    builder.reset(builder.tree.baseline)
    for name in verified:
        if not (series_dir / name).is_file():
            raise Y2038Error(f"{series_dir / name}: verified patch missing from the series")
        proc = builder.git("am", "-q", "--keep-cr", str(series_dir / name), check=False)
        if proc.returncode != 0:
            builder.git("am", "--abort", check=False)
            raise Y2038Error(f"verified patch {name} does not apply: run `tools/y2038 build` again")
    for check in checks:
        fix_checks.add_check(builder, check)


def changed_files_built(out: Path, files) -> dict:
    """Of the series' changed .c files, those the kernel built in out made
    an object of: "built_in", linked into the booted image (a member of its
    thin archive vmlinux.a, built-in.a before 6.1), or "module", built but
    not linked in (the guest loads only the legacy modules)."""
    archive = next((out / name for name in ("vmlinux.a", "built-in.a") if (out / name).exists()), None)
    linked = set(run(["ar", "t", archive]).stdout.split()) if archive else set()
    found: dict = {"built_in": [], "module": []}
    for relpath in sorted(f for f in files if f.endswith(".c")):
        obj = relpath[:-2] + ".o"
        if (out / obj).exists():
            found["built_in" if {str(out / obj), obj} & linked else "module"].append(relpath)
    return found


def build_kernel(kernel: Kernel) -> tuple:
    """(image or None, errors, seconds)."""
    started = time.monotonic()
    with Step(f"{kernel.variant} {kernel.machine.arch}: building the kernel in {kernel.out}"):
        image, errors = kernel.build()
    return image, errors, time.monotonic() - started


def boot_one(tree, kernel: Kernel, initrd, legacy_source, suites, files, built=None, booting=lambda: None) -> dict:
    """files: the series' changed files, to record which of them the kernel
    built; built: build_kernel()'s answer when the kernel was built already;
    booting: called once the guest needs nothing more of the build
    directory (it boots a copy of the image)."""
    machine, variant = kernel.machine, kernel.variant
    image, errors, kernel_seconds = built or build_kernel(kernel)
    started = time.monotonic()
    compiled = changed_files_built(kernel.out, files) if image else None
    if image:
        with Step(f"{variant} {machine.arch}: building the converted legacy modules"):
            modules = legacy.build(kernel, legacy_source, kernel.out.parent / f"legacy-{machine.arch}")
        errors = modules["errors"]
    build_seconds = round(kernel_seconds + time.monotonic() - started, 1)
    if not image or errors:
        what = "kernel" if not image else "converted legacy modules"
        return {"verdict": "fail", "tests": [], "problems": [f"{what} build failed:\n" + "\n".join(errors[:12])],
                "build_seconds": build_seconds, "seconds": 0}
    extra = legacy.cpio(kernel.src, modules["modules"], kernel.out.parent / f"legacy-{machine.arch}.cpio")
    initrd = legacy.initramfs_with_modules(initrd, extra, kernel.out.parent / f"initramfs-{machine.arch}.cpio")
    log = kernel.out.parent / f"console-{machine.arch}.log"
    booted = kernel.out.parent / f"{image.name}-{machine.arch}-booting"
    shutil.copyfile(image, booted)
    booting()
    try:
        with Step(f"{variant} {machine.arch}: booting in QEMU (console: {log})"):
            console, seconds, exited = run_qemu(machine, booted, initrd, log,
                                                boot_suites.cmdline(suites, selftests_for(machine)))
    finally:
        booted.unlink()
    result = parse_console(tree, console, exited, bool(suites["kunit"]))
    result.update(seconds=seconds, build_seconds=build_seconds, log=str(log),
                  legacy_build_warnings=modules["warnings"], suites=suites, compiled=compiled,
                  config=[str(f.relative_to(REPO)) for f in kernel.fragments])
    return result


def boot_key(tree, kernel_inputs: list, machine: Machine, suites: dict, legacy_source: Path) -> str:
    """What a boot's result depends on: what its kernel is made of
    (Boots.kernel_inputs), the init, the selftests, the converted legacy
    modules, the suites asked for, and this stage's code."""
    # what is built: the conversion's own report (rule names, timings) is not
    legacy_files = sorted(p for p in legacy_source.rglob("*")
                          if p.is_file() and (p.suffix in (".c", ".h") or p.name in ("Kbuild", "Makefile")))
    selftests = tree.src / "tools/testing/selftests/timers"
    return dependency_key(*kernel_inputs, machine, json.dumps(suites, sort_keys=True), INIT_SOURCE,
                          *(selftests / f"{t}.c" for t in selftests_for(machine)),
                          *(f"{p.relative_to(legacy_source)}".encode() + p.read_bytes() for p in legacy_files),
                          code=[__file__])


def has_commit(tree, commit) -> bool:
    return bool(commit) and tree.git("cat-file", "-e", f"{commit}^{{commit}}", check=False).returncode == 0


def tree_id(tree, commit: str) -> str:
    return tree.git("rev-parse", f"{commit}^{{tree}}").stdout.strip()


class Boots:
    """The boots of one series: the patched and pristine kernels' worktrees,
    each checked out once, and each boot's result saved with its key.
    Both kernels carry the checks of the series' fixes (fix_checks.checks_of),
    so the same configuration shares their objects and a fix's proof
    rebuilds only what it changes; a boot's KUnit run leaves the checks out.
    A proof leaves the patched worktree at the series, its kernel built
    without the fix: the next build makes what the fix touches again."""

    def __init__(self, tree, series_dir: Path, results: SeriesResults, jobs: int, distcc: bool):
        self.tree, self.series_dir, self.jobs, self.distcc = tree, series_dir, jobs, distcc
        self.build = results.built(tree.baseline, series_dir)
        self.files = sorted({f for p in results.patches if p.name in self.build.verified for f in p.files})
        self.root = tree.state / "boot"
        self.root.mkdir(parents=True, exist_ok=True)
        self.legacy_source = self.root / "legacy-converted"
        self.fix_checks = fix_checks.checks_of(results)  # {fix patch: the check that proves it}
        self.checks = fix_checks.distinct(self.fix_checks.values())
        self.builders: dict = {}
        self.built: dict = {}  # (variant, arch) -> build_kernel()'s answer, for boots still to run
        self.keys: dict = {}  # (variant, arch) -> boot_key()

    def checkout(self, variant) -> Builder:
        """The variant's worktree with its patches and the checks: the
        patched kernel's source is known only once they are applied (git am).
        A worktree left clean at the same patches and checks is kept as it
        is: applying them again would make make rebuild what they touch."""
        if variant not in self.builders:
            builder = self.builders[variant] = Builder(self.tree, self.jobs, self.root / variant / "src",
                                                       self.distcc)
            patches = self.build.verified if variant == "patched" else []
            want = dependency_key(self.tree.baseline,
                                  *(f"{name}\0".encode() + (self.series_dir / name).read_bytes() for name in patches),
                                  *self.check_files())
            stamp = self.root / variant / ".y2038-checked-out"
            if not (stamp.exists() and stamp.read_text() == f"{want} {clean_head(builder)}"):
                stamp.unlink(missing_ok=True)
                checkout_variant(builder, patches, self.series_dir, self.checks)
                stamp.write_text(f"{want} {clean_head(builder)}")
        return self.builders[variant]

    def kernel(self, variant, arch) -> Kernel:
        return Kernel(self.checkout(variant), variant, MACHINES[arch], self.jobs, self.checks)

    def check_files(self) -> list:
        return [f for c in self.checks for f in c.files]

    def kernel_inputs(self, variant, arch) -> list:
        """What the variant's kernel for arch is made of: its source (a git
        tree id), its configuration fragments, the checks committed on it and
        the compiler environment (a result from another one is not reused)."""
        return [self.source(variant), *Kernel.fragments_for(MACHINES[arch]), *self.check_files(), CCACHE_NAMESPACE]

    def source(self, variant) -> str:
        """The git tree id of the variant's kernel source."""
        if variant == "pristine":
            return tree_id(self.tree, self.tree.baseline)
        head = self.build.verified_head
        if head and has_commit(self.tree, head):
            # the build stage applied exactly the verified patches, in order, on the
            # baseline (a series built in another work dir has no such commit here)
            return tree_id(self.tree, head)
        return self.checkout(variant).git("rev-parse", "HEAD^{tree}").stdout.strip()

    def saved(self, variant, arch) -> tuple:
        """(this boot's key, where its result is kept, the result kept there when it has this key)."""
        if (variant, arch) not in self.keys:  # hashing the legacy modules and the init: once per boot
            suites = boot_suites.plan(variant, self.files)
            self.keys[variant, arch] = boot_key(self.tree, self.kernel_inputs(variant, arch), MACHINES[arch],
                                                suites, self.legacy_source)
        key = self.keys[variant, arch]
        path = self.root / "results" / f"{variant}-{arch}.json"
        kept = read_json(path, "boot") if path.exists() else {}
        return key, path, kept["result"] if kept.get("key") == key else None

    def build_side_by_side(self, variant, arches) -> None:
        """The kernels of the boots to run, built at once: each make's
        single-threaded steps (link, objtool, compression, modpost) leave
        a core to the other."""
        todo = [arch for arch in arches if self.saved(variant, arch)[2] is None]
        if len(todo) < 2:
            return
        kernels = {arch: self.kernel(variant, arch) for arch in todo}  # one checkout, before the threads
        with ThreadPoolExecutor(max_workers=len(todo)) as pool:
            futures = {arch: pool.submit(build_kernel, kernel) for arch, kernel in kernels.items()}
            self.built.update({(variant, arch): future.result() for arch, future in futures.items()})

    def boot_at_once(self, variant, arches, while_booting=lambda: None) -> dict:
        """{arch: boot()}: QEMU's TCG runs a guest on one core, so the
        machines boot at once, a core each (as many as make's jobs).
        while_booting: called once no guest needs its build directory."""
        latch = AllStarted(len(arches), while_booting)
        started = {arch: latch.one() for arch in arches}
        with ThreadPoolExecutor(max_workers=max(1, min(len(arches), self.jobs))) as pool:
            return dict(zip(arches, pool.map(lambda arch: self.boot(variant, arch, started[arch]), arches)))

    def boot(self, variant, arch, started=lambda: None) -> dict:
        try:
            key, path, kept = self.saved(variant, arch)
            if kept is not None:
                progress(f"{variant} {arch}: unchanged (same kernel source, configuration, init, tests and "
                         f"legacy modules as its last boot): {kept['verdict'].upper()}")
                return dict(kept, reused=True)
            result = boot_one(self.tree, self.kernel(variant, arch), build_initramfs(self.tree, MACHINES[arch]),
                              self.legacy_source, boot_suites.plan(variant, self.files), self.files,
                              self.built.pop((variant, arch), None), started)
        finally:
            started()  # a guest that does not boot needs nothing either
        path.parent.mkdir(exist_ok=True)
        write_json(path, {"key": key, "result": result})
        return result


class AllStarted:
    """Calls then() once, in the thread of the last guest to start (or to
    be found not to boot): each guest calls its own one() at least once."""

    def __init__(self, count: int, then):
        self.left, self.then, self.lock = count, then, threading.Lock()

    def one(self):
        done = []

        def started():
            with self.lock:
                if done:
                    return
                done.append(True)
                self.left -= 1
                last = self.left == 0
            if last:
                self.then()
        return started


def boot_stage(tree, series_dir: Path, jobs: int, arches=tuple(MACHINES), pristine="auto",
               distcc=False, while_booting=lambda: None) -> SeriesResults:
    """pristine: "auto" boots the pristine kernel of an architecture only
    when the patched one fails something (to tell a regression from a
    known failure), "always" or "never".  A boot whose inputs (boot_key)
    are those of the last boot of that kernel is not run again.
    while_booting: called (and must return at once) when the patched
    guests have all started: the patched build directories are free."""
    results = SeriesResults.read(series_dir)
    boots = Boots(tree, series_dir, results, jobs, distcc)
    with Step(f"converting the legacy modules into {boots.legacy_source}"):
        legacy.convert_sources(boots.legacy_source, jobs)
    pristines: dict = {}
    boots.build_side_by_side("patched", arches)
    patched = boots.boot_at_once("patched", arches, while_booting)
    for arch in arches:
        failing = patched[arch]["problems"] or any(t["result"] == "fail" for t in patched[arch]["tests"])
        if pristine == "always" or (pristine == "auto" and failing):
            pristines[arch] = boots.boot("pristine", arch)
        else:
            patched[arch]["pristine"] = ("not booted: the patched kernel passed every check" if pristine == "auto"
                                         else "not booted (--pristine never)")
    for arch, boot in patched.items():
        judge_against_pristine(boot, pristines.get(arch))
    where = str(series_dir / "results.json")
    results.boot = {arch: BootResult.from_json(boot, where) for arch, boot in patched.items()}
    results.boot_pristine = {arch: BootResult.from_json(boot, where) for arch, boot in pristines.items()} or None
    results.write(series_dir)
    covers.write_all(series_dir, results)
    return results


def judge_against_pristine(patched: dict, pristine_boot) -> None:
    """The patched kernel's verdict: its own checks pass, and it passes
    everything the pristine kernel (when booted) passes."""
    if not pristine_boot:
        patched["regressions"], patched["known_failures"] = [], []
        return
    before = {t["name"]: t["result"] for t in pristine_boot["tests"]}
    after = {t["name"]: t["result"] for t in patched["tests"]}
    # a suite the patched kernel did not run is no regression
    patched["regressions"] = sorted(n for n, r in before.items() if r == "pass" and n in after and after[n] != "pass")
    # a kernel test that fails on the pristine kernel too is reported, not held against the series
    patched["known_failures"] = sorted(n for n, r in after.items()
                                       if r == "fail" and before.get(n) == "fail" and not n.startswith("init."))
    own_checks_pass = all(r != "fail" for n, r in after.items() if n not in patched["known_failures"])
    healthy = not patched["problems"] and patched["seconds"] > 0
    patched["verdict"] = "pass" if own_checks_pass and healthy and not patched["regressions"] else "fail"


def boot_text(results: SeriesResults) -> str:
    lines = []
    for variant, boots in (("pristine", results.boot_pristine), ("patched", results.boot)):
        for arch, boot in sorted((boots or {}).items()):
            failed = [t["name"] for t in boot.tests if t["result"] == "fail"]
            lines.append(f"{variant} {arch}: {boot.verdict.upper()} "
                         f"(build {boot.build_seconds} s, boot {boot.seconds} s, {len(boot.tests)} tests"
                         + (f", failed: {', '.join(failed)}" if failed else "")
                         + (f", regressions: {', '.join(boot.regressions)}" if boot.regressions else "")
                         + (", unchanged: not booted again" if boot.reused else "") + ")")
            lines += [f"    {p.splitlines()[0]}" for p in boot.problems]
            if boot.suites:
                lines.append(f"    suites: {boot.suites['why']}")
            if boot.pristine:
                lines.append(f"    pristine kernel {boot.pristine}")
    return "\n".join(lines)


def booted_ok(results: SeriesResults) -> bool:
    """Every patched kernel booted passed."""
    return all(b.verdict == "pass" for b in (results.boot or {}).values())
