# SPDX-License-Identifier: GPL-2.0-only
"""Fix proofs: a y2038 fix counts as proven when a boot check across 2038
fails on the kernel without it and passes on the kernel with it.

A check lives in boot-tests/fix-checks/<name>/: a KUnit test of ours (never
posted), the Kconfig entry that builds it, the options the code under test
needs, and a CHECK file that says which file's fix it proves:

    Suite: y2038_gss_krb5_v1
    Proves: net/sunrpc/auth_gss/gss_krb5_unseal.c
    Test: y2038_gss_krb5_v1_test.c -> net/sunrpc/auth_gss
    Kconfig: net/sunrpc/Kconfig
    Arch: x86_64

Test: the test file and the directory it is built in (a Makefile line is
appended there, so it can call the driver's non-static functions);
Kconfig: the file its entry is appended to; Arch: the boot stage's machine
it boots on (x86_64 when absent; arm where the bug needs a 32-bit long).
The kernel is the boot stage's for that machine (tinyconfig +
boot-tests/configs + the check's config), built in
<state>/fix-proofs/<name>/: the baseline
with the check committed on it, booted; then the fix applied with `git am`,
built again (only what the fix touches recompiles) and booted.  The KUnit
suite runs before /init; the clock is the test's to set.  A proof's result
is kept by its inputs (dependency_key) and not redone while they hold.
"""
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..common import Step, Y2038Error, dependency_key, progress, read_json, write_json
from ..posting import covers
from ..records import FixProof, SeriesResults
from .boot import BOOT_TESTS, INIT_SOURCE, MACHINES, Kernel, build_initramfs, kunit_results, run_qemu
from .build import Builder

CHECKS_DIR = BOOT_TESTS / "fix-checks"
DEFAULT_ARCH = "x86_64"
CHECK_COMMIT = "y2038 boot check (not posted): "


@dataclass(frozen=True)
class Check:
    name: str
    folder: Path
    suite: str
    proves: tuple
    test: str
    test_dir: str
    kconfig: str
    arch: str = DEFAULT_ARCH

    @property
    def symbol(self) -> str:
        return "Y2038_CHECK_" + re.sub(r"\W", "_", self.name).upper()

    @property
    def files(self) -> list:
        return sorted(p for p in self.folder.iterdir() if p.is_file())


def read_check(folder: Path) -> Check:
    path = folder / "CHECK"
    if not path.exists():
        raise Y2038Error(f"{folder}: no CHECK file (Suite:, Proves:, Test:, Kconfig:)")
    fields = dict(line.split(":", 1) for line in path.read_text().splitlines() if ":" in line)
    fields = {k.strip(): v.strip() for k, v in fields.items()}
    missing = [k for k in ("Suite", "Proves", "Test", "Kconfig") if k not in fields]
    if missing:
        raise Y2038Error(f"{path}: missing {', '.join(missing)}")
    test, _, test_dir = fields["Test"].partition("->")
    arch = fields.get("Arch", DEFAULT_ARCH)
    if arch not in MACHINES:
        raise Y2038Error(f"{path}: Arch: {arch} is not a boot machine ({', '.join(MACHINES)})")
    check = Check(folder.name, folder, fields["Suite"], tuple(fields["Proves"].split()), test.strip(),
                  test_dir.strip(), fields["Kconfig"], arch)
    for name in (check.test, "Kconfig", "config"):
        if not (folder / name).is_file():
            raise Y2038Error(f"{folder}: {name} is missing")
    return check


def checks() -> list:
    return [read_check(d) for d in sorted(CHECKS_DIR.iterdir()) if d.is_dir()] if CHECKS_DIR.is_dir() else []


def check_for(files) -> Optional[Check]:
    """The check that proves a fix of these files, or None."""
    return next((c for c in checks() if set(c.proves) & set(files)), None)


class ProofKernel(Kernel):
    """The boot stage's kernel with the check's options merged in."""

    def __init__(self, builder, src, check: Check, jobs: int):
        super().__init__(builder, src, f"fix-{check.name}", MACHINES[check.arch], jobs)
        self.fragments = [*self.fragments_for(self.machine), check.folder / "config"]


def add_check(builder: Builder, check: Check) -> None:
    """The check's test, its Kconfig entry and its Makefile line, as one commit."""
    src = builder.src
    shutil.copyfile(check.folder / check.test, src / check.test_dir / check.test)
    with open(src / check.kconfig, "a") as kconfig:
        kconfig.write("\n" + (check.folder / "Kconfig").read_text())
    with open(src / check.test_dir / "Makefile", "a") as makefile:
        makefile.write(f"obj-$(CONFIG_{check.symbol}) += {Path(check.test).stem}.o\n")
    builder.git("add", "-A", "-f", check.test_dir, check.kconfig)
    builder.git("commit", "-q", "-m", CHECK_COMMIT + check.name)


def boot_with_check(tree, kernel: ProofKernel, check: Check, label: str) -> dict:
    """Build and boot; the suite's cases with their results."""
    with Step(f"fix proof {check.name}: building the kernel {label}"):
        image, errors = kernel.build()
    if not image:
        return {"verdict": "error", "cases": [], "problems": ["kernel build failed:", *errors]}
    log = kernel.out.parent / f"console-{label}.log"
    with Step(f"fix proof {check.name}: booting {label} (console: {log})"):
        console, seconds, exited = run_qemu(kernel.machine, image, build_initramfs(tree, kernel.machine), log,
                                            (f"kunit.filter_glob={check.suite}", "y2038_selftests=none"))
    before_init = console.partition("y2038-init: start")[0]
    prefix = f"kunit.{check.suite}."
    cases = [t for t in kunit_results(tree, before_init) if t["name"].startswith(prefix)]
    problems = [] if exited else ["the guest did not end: killed after the timeout"]
    if not cases:
        problems.append(f"the suite {check.suite} printed no results")
    verdict = "error" if problems else "fail" if any(c["result"] != "pass" for c in cases) else "pass"
    return {"verdict": verdict, "cases": cases, "problems": problems, "seconds": seconds, "log": str(log)}


def prove(tree, patch: Path, check: Check, jobs: int) -> dict:
    """Boot the baseline with the check, then with the fix: proven when the
    check fails before and passes after."""
    root = tree.state / "fix-proofs" / check.name
    key = dependency_key(tree.baseline, patch.read_bytes(), *check.files, INIT_SOURCE,
                         *Kernel.fragments_for(MACHINES[check.arch]), code=[__file__])
    saved = root / "result.json"
    if saved.exists() and read_json(saved, "boot").get("key") == key:
        result = read_json(saved, "boot")["result"]
        progress(f"fix proof {check.name}: unchanged (same fix, check and kernel): {result['verdict']}")
        return dict(result, reused=True)
    started = time.monotonic()
    builder = Builder(tree, jobs, root / "src")
    builder.reset(tree.baseline)
    add_check(builder, check)
    kernel = ProofKernel(builder, builder.src, check, jobs)
    before = boot_with_check(tree, kernel, check, "without-fix")
    applied = builder.git("am", "-q", "--keep-cr", str(patch), check=False)
    if applied.returncode != 0:
        builder.git("am", "--abort", check=False)
        raise Y2038Error(f"{patch.name} does not apply on the baseline: run `tools/y2038 series` again")
    after = boot_with_check(tree, kernel, check, "with-fix")
    result = {"check": check.name, "suite": check.suite, "arch": check.arch, "before": before, "after": after,
              "verdict": verdict(before, after), "seconds": round(time.monotonic() - started, 1)}
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


NO_CHECK = ("no guest check: boot-tests/fix-checks/ has none for this code yet, so the fix is built "
            "(build stage) but not proven in a boot")


def proofs_stage(tree, series_dir: Path, jobs: int) -> SeriesResults:
    """Every verified fix patch of the series proven (or said to have no
    check); results.json's fix_proofs and the fix postings' cover letters."""
    results = SeriesResults.read(series_dir)
    if results.build is None or results.build.baseline != tree.baseline:
        raise Y2038Error(f"{series_dir}: no build results for this baseline: run `tools/y2038 build` first")
    fixes = [p for p in results.fix_patches() if p.name in results.build.verified]
    proofs = {}
    for patch in fixes:
        check = check_for(patch.files)
        proofs[patch.name] = (FixProof.from_json(prove(tree, series_dir / patch.name, check, jobs), "fix proof")
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
