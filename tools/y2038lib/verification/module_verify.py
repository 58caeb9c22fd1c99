# SPDX-License-Identifier: GPL-2.0-only
"""convert --verify: the original and the converted module built as external
modules against the packaged kernels, x86_64 and 32-bit ARM.

The kernels are the build stage's allmodconfig directories (prepared once
per baseline, shared with `tools/y2038 build`), plus `modules_prepare`.  The
converted module must build wherever the original builds, with no error or
W=1 warning the original does not have; an original that fails and a
converted module that builds is listed as fixed.
"""
import os
import tempfile
from pathlib import Path
from typing import Optional

from .. import deps
from . import dkms
from .. import tree as tree_stage
from .build import ARCHES, Builder, available_arches
from ..common import Step, Y2038Error, digest, run

DEFAULT_KVERS = ("6.1", "6.12")
DEFAULT_ARCHES = ("x86_64", "arm")


def prepared_kernel(kver: str, arch_name: str, jobs: int):
    """A make function for external modules against that kernel's allmodconfig."""
    deps.ensure([kver], with_build=True)
    tree = tree_stage.prepare(kver)
    builder = Builder(tree, jobs)
    arch = ARCHES[arch_name]
    why = available_arches([arch_name], install=True)[arch_name]
    if why:
        raise Y2038Error(f"cannot build for {arch_name}: {why}")
    head = builder.git("rev-parse", "HEAD", check=False).stdout.strip() if (builder.src / ".git").exists() else ""
    if head != tree.baseline:
        builder.reset(tree.baseline)
    builder.configure(arch)
    out = builder.root / arch.name
    stamp = out / ".y2038-modules-prepared"
    if not stamp.exists() or stamp.read_text() != tree.baseline:
        with Step(f"{arch_name}: make modules_prepare in {out}"):
            proc = run(["make", *builder.make_args(arch), "modules_prepare"], cwd=builder.src,
                       env=builder.env, check=False)
        if proc.returncode != 0:
            raise Y2038Error(f"{arch_name}: make modules_prepare failed: "
                             f"{' | '.join((proc.stderr or proc.stdout).strip().splitlines()[-3:])}")
        stamp.write_text(tree.baseline)

    def make(args):
        return run(["make", *builder.make_args(arch), *args], cwd=builder.src, env=builder.env, check=False)
    return tree.version, make


def verify(original: Path, converted: Path, kvers=DEFAULT_KVERS, arches=DEFAULT_ARCHES,
           jobs: Optional[int] = None) -> dict:
    """{"<kernel> <arch>": {"original", "converted", "new_errors", "new_warnings",
    "verdict"}} and an overall "verdict": pass when the converted module
    builds wherever the original does, with nothing new."""
    jobs = jobs or os.cpu_count() or 1  # cpu_count(): None when it cannot tell
    results = {}
    with tempfile.TemporaryDirectory(prefix="y2038-verify-") as scratch:
        for kver in kvers:
            for arch in arches:
                version, make = prepared_kernel(kver, arch, jobs)
                key = f"{version} {arch}"
                with Step(f"verify: {original.name} and its conversion against Linux {key}"):
                    before = dkms.build(make, original, Path(scratch) / digest(key, "original")[:12])
                    after = dkms.build(make, converted, Path(scratch) / digest(key, "converted")[:12])
                new_errors = [e for e in after["errors"] if e not in before["errors"]]
                new_warnings = [w for w in after["warnings"] if w not in before["warnings"]]
                if before["ok"] and not after["ok"]:
                    verdict = "fail: the original builds, the converted module does not"
                elif new_warnings and after["ok"]:
                    verdict = "fail: new warnings"
                elif not before["ok"] and after["ok"]:
                    verdict = "fixed: the original does not build, the converted module does"
                elif not before["ok"]:
                    verdict = "neither builds" + (" (new errors)" if new_errors else " (same errors)")
                else:
                    verdict = "pass"
                results[key] = {"original": "ok" if before["ok"] else "failed",
                                "converted": "ok" if after["ok"] else "failed",
                                "original_errors": before["errors"][:10],
                                "new_errors": new_errors[:10], "new_warnings": new_warnings[:10],
                                "verdict": verdict}
    failed = [k for k, r in results.items() if r["verdict"].startswith("fail")]
    return {"builds": results, "verdict": "fail" if failed else "pass"}


def text(result: dict) -> str:
    lines = [f"Build check (original vs converted, W=1): {result['verdict'].upper()}"]
    for key, r in sorted(result["builds"].items()):
        lines.append(f"  Linux {key}: original {r['original']}, converted {r['converted']}: {r['verdict']}")
        lines += [f"    new error: {e}" for e in r["new_errors"]]
        lines += [f"    new warning: {w}" for w in r["new_warnings"]]
    return "\n".join(lines) + "\n"
