# SPDX-License-Identifier: GPL-2.0-only
"""Fix proofs: a y2038 fix counts as proven when a boot check across 2038
fails on the kernel without it and passes on the kernel with it.

The check (boot-tests/fix-checks/<name>/, fix_checks.py) is built into the
boot stage's patched kernel for its machine (Arch:), which carries the
whole verified series: that kernel, booted with only the check's KUnit
suite, is the kernel with the fix.  Then the fix alone is taken back out
of its worktree (git apply -R), the kernel built again (only what the fix
touches recompiles) and booted: the kernel without it.  The kernel with the
fix boots (a copy of its image) while the one without it builds.  The worktree is
left at the series.  The KUnit suite runs before /init; the clock is the
test's to set.  A proof's result is kept by its inputs (dependency_key)
and not redone while they hold.
"""
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..common import Step, Y2038Error, dependency_key, progress, read_json, write_json
from ..posting import covers
from ..records import FIX_CHECKS_DIR, FixProof, SeriesResults
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


def prove(tree, boots: Boots, patch: Path, check: Check) -> dict:
    """Boot the patched kernel with the check, then without the fix: proven
    when the check passes with it and fails without it."""
    key = dependency_key(*boots.kernel_inputs("patched", check.arch), patch.read_bytes(), INIT_SOURCE,
                         code=[__file__])
    saved = tree.state / "fix-proofs" / check.name / "result.json"
    if saved.exists() and read_json(saved, "boot").get("key") == key:
        result = read_json(saved, "boot")["result"]
        progress(f"fix proof {check.name}: unchanged (same fix, check and kernel): {result['verdict']}")
        return dict(result, reused=True)
    started = time.monotonic()
    kernel = boots.kernel("patched", check.arch)
    builder = kernel.builder
    head = builder.git("rev-parse", "HEAD").stdout.strip()
    initramfs = build_initramfs(tree, kernel.machine)
    image, errors = build_with_check(kernel, check, "with-fix")
    # a copy of it boots (QEMU: a core) while the kernel without the fix builds
    # in the same directory; an error there waits for this boot to end
    copy = None
    if image:
        copy = kernel.out.parent / f"{image.name}-{check.name}-with-fix"
        shutil.copyfile(image, copy)
    with ThreadPoolExecutor(max_workers=1) as pool:
        booting = pool.submit(boot_with_check, tree, kernel, check, "with-fix", (copy, errors), initramfs)
        try:
            taken_out = builder.git("apply", "-R", "--index", str(patch), check=False)
            if taken_out.returncode == 0:
                builder.git("commit", "-q", "-m", WITHOUT_FIX_COMMIT + patch.name)
                before = boot_with_check(tree, kernel, check, "without-fix",
                                         build_with_check(kernel, check, "without-fix"), initramfs)
            else:  # this fix has no kernel without it; the other fixes' proofs go on
                before = {"verdict": "error", "cases": [], "problems": [
                    f"{patch.name} does not come out of the patched tree again "
                    f"({(taken_out.stderr.strip().splitlines() or ['?'])[0]}): a later patch changed its lines"]}
        finally:
            builder.git("reset", "-q", "--hard", head)
        after = booting.result()
    if copy:
        copy.unlink()
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


def proofs_stage(tree, series_dir: Path, jobs: int, distcc: bool = False) -> SeriesResults:
    """Every verified fix patch of the series proven (or said to have no
    check); results.json's fix_proofs and the fix postings' cover letters."""
    results = SeriesResults.read(series_dir)
    if results.build is None or results.build.baseline != tree.baseline:
        raise Y2038Error(f"{series_dir}: no build results for this baseline: run `tools/y2038 build` first")
    fixes = [p for p in results.fix_patches() if p.name in results.build.verified]
    boots = Boots(tree, series_dir, results, jobs, distcc)
    proofs = {}
    for patch in fixes:
        check = boots.fix_checks.get(patch.name)
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
