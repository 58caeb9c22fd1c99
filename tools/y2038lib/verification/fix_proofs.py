# SPDX-License-Identifier: GPL-2.0-only
"""Fix proofs: a y2038 fix counts as proven when a boot check across 2038
fails on the kernel without it and passes on the kernel with it.

The check (boot-tests/fix-checks/<name>/, fix_checks.py) is built into the
boot stage's patched kernel for its machine (Arch:), which carries the
whole verified series: that kernel, booted with only the check's KUnit
suite, is the kernel with the fix.  Then the fix alone is taken back out
of its worktree (git apply -R), the kernel built again (only what the fix
touches recompiles): the kernel without it.  Copies of both images boot at
once; `make run` builds them while its boot stage's guests run.  The
worktree is left at the series.  The KUnit suite runs before /init; the
clock is the test's to set.  A proof's result is kept by its inputs
(dependency_key) and not redone while they hold.
"""
import shutil
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..common import Step, Y2038Error, dependency_key, progress, read_json, write_json
from ..posting import covers
from ..records import FIX_CHECKS_DIR, FixProof, SeriesResults
from .background_makes import BackgroundMakes
from .boot import INIT_SOURCE, Boots, Kernel, build_initramfs, kunit_results, run_qemu
from .fix_checks import Check

WITHOUT_FIX_COMMIT = "y2038 fix proof (not posted): without "


def build_with_check(kernel: Kernel, check: Check, label: str) -> tuple:
    """(the kernel image, or None, build log excerpt)."""
    with Step(f"fix proof {check.name}: building the kernel {label}"):
        return kernel.build()


def boot_with_check(tree, kernel: Kernel, check: Check, label: str, built: tuple, initramfs: Path) -> dict:
    """Boot build_with_check()'s image; the suite's cases with their results."""
    image, errors = built
    if not image:
        return {"verdict": "error", "cases": [], "problems": ["kernel build failed:", *errors]}
    log = kernel.out.parent / f"console-{kernel.machine.arch}-{check.name}-{label}.log"
    with Step(f"fix proof {check.name}: booting {label} (console: {log})"):
        console, seconds, exited = run_qemu(kernel.machine, image, initramfs, log,
                                            (f"kunit.filter_glob={check.suite}", "y2038_selftests=none"))
    before_init = console.partition("y2038-init: start")[0]
    prefix = f"kunit.{check.suite}."
    cases = [t for t in kunit_results(tree, before_init) if t["name"].startswith(prefix)]
    problems = [] if exited else ["the guest did not end: killed after the timeout"]
    if not cases:
        problems.append(f"the suite {check.suite} printed no results")
    verdict = "error" if problems else "fail" if any(c["result"] != "pass" for c in cases) else "pass"
    return {"verdict": verdict, "cases": cases, "problems": problems, "seconds": seconds, "log": str(log)}


def proof_key(boots: Boots, patch: Path, check: Check) -> str:
    return dependency_key(*boots.kernel_inputs("patched", check.arch), patch.read_bytes(), INIT_SOURCE,
                          code=[__file__])


def kept_proof(tree, boots: Boots, patch: Path, check: Check):
    """(the proof's key, where its result is kept, the result kept there when it has this key)."""
    key = proof_key(boots, patch, check)
    saved = tree.state / "fix-proofs" / check.name / "result.json"
    kept = read_json(saved, "boot") if saved.exists() else {}
    return key, saved, kept["result"] if kept.get("key") == key else None


def images_record(tree, patch: Path, check: Check) -> Path:
    return tree.state / "fix-proofs" / check.name / f"{patch.stem}.images.json"


def build_images(tree, kernel: Kernel, patch: Path, check: Check, key: str) -> dict:
    """The two kernels of a proof: {"with-fix": (image or None, build errors),
    "without-fix": the same, "not-taken-out": None, or why the fix does not
    come out of the tree (then "without-fix" is (None, None))}.  Each image is a copy (the build
    directory is the patched kernel's), named for the fix; the record of
    them (images_record) is written once both are made, with the proof's
    key, and removed when the proof has booted them."""
    record = images_record(tree, patch, check)
    if record.exists():
        kept = read_json(record, "boot")
        if kept.get("key") == key and all(Path(i).exists() for i, _ in kept["images"].values() if i):
            return {"not-taken-out": kept.get("not-taken-out"),
                    **{label: (Path(i) if i else None, errors) for label, (i, errors) in kept["images"].items()}}
        record.unlink()  # its copies are about to be written over
    builder = kernel.builder
    head = builder.git("rev-parse", "HEAD").stdout.strip()
    images: dict = {"not-taken-out": None}
    try:
        images["with-fix"] = kept_copy(kernel, patch, "with-fix", build_with_check(kernel, check, "with-fix"))
        builder.git("update-index", "-q", "--refresh", check=False)  # the build touched what it rebuilt
        taken_out = builder.git("apply", "-R", "--index", str(patch), check=False)
        if taken_out.returncode == 0:
            builder.git("commit", "-q", "-m", WITHOUT_FIX_COMMIT + patch.name)
            images["without-fix"] = kept_copy(kernel, patch, "without-fix",
                                              build_with_check(kernel, check, "without-fix"))
        else:  # this fix has no kernel without it; the other fixes' proofs go on
            images["without-fix"] = (None, None)
            images["not-taken-out"] = (f"{patch.name} does not come out of the patched tree again "
                                       f"({(taken_out.stderr.strip().splitlines() or ['?'])[0]}): "
                                       "a later patch changed its lines")
    except BaseException:
        remove_copies(images)
        raise
    finally:
        builder.git("reset", "-q", "--hard", head)
    record.parent.mkdir(parents=True, exist_ok=True)
    write_json(record, {"key": key, "not-taken-out": images["not-taken-out"],
                        "images": {label: (str(images[label][0]) if images[label][0] else None, images[label][1])
                                   for label in ("with-fix", "without-fix")}})
    return images


def kept_copy(kernel: Kernel, patch: Path, label: str, built: tuple) -> tuple:
    image, errors = built
    if not image:
        return None, errors
    copy = kernel.out.parent / f"{image.name}-{patch.stem}-{label}"
    shutil.copyfile(image, copy)
    return copy, errors


def remove_copies(images: dict) -> None:
    for label in ("with-fix", "without-fix"):
        if images.get(label, (None,))[0]:
            images[label][0].unlink(missing_ok=True)


class AheadBuilds:
    """The kernels of every proof still to run, built while the boot
    stage's guests wait for 2038 (`make run`; their CPU is idle then): at
    nice 19, so a guest never waits for them, in process groups that
    stop() ends.  A head start only: what fails here is said, and each
    proof builds what it lacks and reports it."""

    def __init__(self, tree, series_dir: Path, jobs: int, distcc: bool = False):
        self.tree, self.series_dir, self.jobs, self.distcc = tree, series_dir, jobs, distcc
        self.makes = BackgroundMakes()
        self.thread = threading.Thread(target=self.build, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def build(self) -> None:
        try:
            results = SeriesResults.read(self.series_dir)
            if results.build is None or results.build.baseline != self.tree.baseline:
                return  # the proof stage says why
            boots = Boots(self.tree, self.series_dir, results, self.jobs, self.distcc)
            for patch, check in proofs_to_make(results, boots):
                if check is None:
                    continue
                key, _, kept = kept_proof(self.tree, boots, self.series_dir / patch.name, check)
                if kept is None:
                    build_images(self.tree, AheadKernel(boots.kernel("patched", check.arch), self),
                                 self.series_dir / patch.name, check, key)
        except Exception as err:  # noqa: BLE001 - a head start only
            progress(f"the fix proofs' kernels were not built ahead ({err}); each proof builds its own")

    def make(self, kernel: Kernel, targets, check: bool) -> subprocess.CompletedProcess:
        proc = self.makes.start(kernel.make_command(*targets), cwd=kernel.src, env=kernel.env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc is None:
            raise Y2038Error("stopped with the run")
        out, err = proc.communicate()
        if check and proc.returncode != 0:
            raise Y2038Error(f"`make {' '.join(targets)}` failed in {kernel.out}")
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def finish(self) -> None:
        if self.thread.is_alive():
            self.thread.join()

    def stop(self) -> None:
        """End the builds now (make deletes what it was writing)."""
        self.makes.stop()
        self.finish()


class AheadKernel(Kernel):
    """A kernel whose makes are those of AheadBuilds."""

    def __init__(self, kernel: Kernel, builds: AheadBuilds):  # a copy of kernel: no configuring again
        self.__dict__.update(kernel.__dict__)
        self.builds = builds

    def make(self, *targets, check=True):
        return self.builds.make(self, targets, check)


def prove(tree, boots: Boots, patch: Path, check: Check) -> dict:
    """Boot the patched kernel with the check and the same kernel without
    the fix, at once: proven when the check passes with it and fails without it."""
    key, saved, kept = kept_proof(tree, boots, patch, check)
    if kept is not None:
        progress(f"fix proof {check.name}: unchanged (same fix, check and kernel): {kept['verdict']}")
        return dict(kept, reused=True)
    started = time.monotonic()
    kernel = boots.kernel("patched", check.arch)
    images = build_images(tree, kernel, patch, check, key)
    initramfs = build_initramfs(tree, kernel.machine)
    with ThreadPoolExecutor(max_workers=1) as pool:  # the with-fix guest beside this thread's
        booting = pool.submit(boot_with_check, tree, kernel, check, "with-fix", images["with-fix"], initramfs)
        before = ({"verdict": "error", "cases": [], "problems": [images["not-taken-out"]]}
                  if images["not-taken-out"]
                  else boot_with_check(tree, kernel, check, "without-fix", images["without-fix"], initramfs))
        after = booting.result()
    remove_copies(images)
    images_record(tree, patch, check).unlink()
    result = {"check": check.name, "suite": check.suite, "arch": check.arch, "before": before, "after": after,
              "verdict": verdict(before, after), "seconds": round(time.monotonic() - started, 1)}
    saved.parent.mkdir(parents=True, exist_ok=True)
    write_json(saved, {"key": key, "result": result})
    return result


def verdict(before: dict, after: dict) -> str:
    if "error" in (before["verdict"], after["verdict"]):
        return "error"
    if before["verdict"] == "fail" and after["verdict"] == "pass":
        return "proven"
    if before["verdict"] == "pass":
        return "not proven: the check passes without the fix"
    return "not proven: the check fails with the fix"


NO_CHECK = (f"no guest check: {FIX_CHECKS_DIR}/ has none for this code yet, so the fix is built "
            "(build stage) but not proven in a boot")


def proofs_to_make(results: SeriesResults, boots: Boots) -> list:
    """[(fix patch, its check or None)] of every verified fix of the series."""
    verified = results.build.verified if results.build else []
    return [(p, boots.fix_checks.get(p.name)) for p in results.fix_patches() if p.name in verified]


def proofs_stage(tree, series_dir: Path, jobs: int, distcc: bool = False) -> SeriesResults:
    """Every verified fix patch of the series proven (or said to have no
    check); results.json's fix_proofs and the fix postings' cover letters."""
    results = SeriesResults.read(series_dir)
    if results.build is None or results.build.baseline != tree.baseline:
        raise Y2038Error(f"{series_dir}: no build results for this baseline: run `tools/y2038 build` first")
    boots = Boots(tree, series_dir, results, jobs, distcc)
    proofs = {}
    for patch, check in proofs_to_make(results, boots):
        proofs[patch.name] = (FixProof.from_json(prove(tree, boots, series_dir / patch.name, check), "fix proof")
                              if check else FixProof(verdict=NO_CHECK))
    results.fix_proofs = proofs or None
    results.write(series_dir)
    covers.write_all(series_dir, results)
    return results


def proofs_text(results: SeriesResults) -> str:
    lines = []
    for name, proof in sorted((results.fix_proofs or {}).items()):
        if not proof.check:
            lines.append(f"fix {name}: {proof.verdict}")
            continue
        lines.append(f"fix {name}: {proof.verdict} ({proof.suite} on {proof.arch}: without the fix "
                     f"{proof.outcome('before')['verdict']}, failing {', '.join(proof.failing('before')) or 'nothing'}; "
                     f"with it {proof.outcome('after')['verdict']}"
                     + (", failing " + ", ".join(proof.failing('after')) if proof.failing('after') else "")
                     + (", unchanged: not booted again" if proof.reused else "") + ")")
    return "\n".join(lines)


def all_proven(results: SeriesResults) -> bool:
    """No fix whose check failed to prove it (a fix without a check is not held against the series)."""
    return all(p.verdict == "proven" for p in (results.fix_proofs or {}).values() if p.check)
