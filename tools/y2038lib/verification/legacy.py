# SPDX-License-Identifier: GPL-2.0-only
"""Legacy modules: out-of-tree code written against the 3.x time API
(boot-tests/legacy-modules/src), converted by `y2038 convert`, built
against a boot kernel and loaded in the guest by /init.

Each module checks itself at load time, across 2038-01-19 03:14:07 UTC, and
prints "y2038-legacy: <module>: ok N <check>"; the boot stage reads those
lines as the tests legacy/<module>/<check>.
"""
import re
import shutil
from pathlib import Path

from ..outoftree import convert
from ..engine import rules
from ..engine.apply import SPATCH_TIMEOUT
from ..common import REPO, run, write_atomic

LEGACY_DIR = REPO / "boot-tests" / "legacy-modules"
SOURCE = LEGACY_DIR / "src"
# committed next to the sources: what reviewers read, kept in sync by a test
COMMITTED = [LEGACY_DIR / name for name in convert.OUTPUTS[:2]]
LINE = re.compile(r"y2038-legacy: (?P<module>\w+): (?P<not>not )?ok \d+ (?P<check>\S+)")
DONE = re.compile(r"y2038-legacy: (?P<module>\w+): done \d+ checks")


def modules() -> list:
    """Module names, from the Kbuild's obj-m line."""
    kbuild = (SOURCE / "Kbuild").read_text()
    return sorted(re.findall(r"(\w+)\.o", " ".join(re.findall(r"^obj-m\s*\+?=(.*)$", kbuild, re.M))))


def convert_sources(dest: Path, jobs: int) -> dict:
    """The legacy sources run through the whole catalogue into dest."""
    return convert.convert(SOURCE, dest, rules.campaigns(), jobs, SPATCH_TIMEOUT)


def build(kernel, source: Path, dest: Path) -> dict:
    """Build the modules in source against a configured and built boot kernel,
    in a fresh copy at dest (kbuild writes beside the sources).  Returns
    {"modules": [paths], "errors": [...], "warnings": [...], "log": text}."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns(*convert.OUTPUTS))
    # -k: every module's errors, not only the first one's
    proc = kernel.make("-k", f"M={dest}", "W=1", "modules", check=False)
    log = proc.stdout + proc.stderr
    built = [dest / f"{name}.ko" for name in modules()]
    errors = [l for l in log.splitlines() if re.search(r"\berror\b|undefined!", l)]
    warnings = [l for l in log.splitlines() if "warning:" in l]
    if proc.returncode == 0 and not all(p.exists() for p in built):
        errors.append("make succeeded but not every module was built")
    return {"modules": [str(p) for p in built if p.exists()] if proc.returncode == 0 else [],
            "errors": errors, "warnings": warnings, "log": log, "returncode": proc.returncode}


def cpio(kernel_src: Path, kos, dest: Path) -> Path:
    """A cpio holding /legacy/<module>.ko, to be appended to the base initramfs
    (the kernel unpacks concatenated archives)."""
    spec = ["dir /legacy 0755 0 0"] + [f"file /legacy/{Path(k).name} {k} 0644 0 0" for k in kos]
    listing = dest.with_suffix(".list")
    listing.write_text("\n".join(spec) + "\n")
    # one per archive: the architectures' boots make theirs side by side, and a binary one of them is running
    # cannot be linked over by the other (ETXTBSY)
    gen = dest.with_name(f"{dest.stem}-gen_init_cpio")
    run(["gcc", "-O2", "-o", str(gen), str(kernel_src / "usr" / "gen_init_cpio.c")])
    write_atomic(dest, run([gen, listing], binary=True).stdout)
    return dest


def initramfs_with_modules(base: Path, extra: Path, dest: Path) -> Path:
    with open(dest, "wb") as out:
        for part in (base, extra):
            out.write(part.read_bytes())
    return dest


def parse(console: str, loaded) -> list:
    """Tests legacy/<module>/<check> from the modules' lines; a module /init
    loaded that did not finish its self-check fails legacy/<module>/finished."""
    tests = [{"name": f"legacy/{m.group('module')}/{m.group('check')}",
              "result": "fail" if m.group("not") else "pass"} for m in LINE.finditer(console)]
    finished = {m.group("module") for m in DONE.finditer(console)}
    for module in loaded:
        tests.append({"name": f"legacy/{module}/finished", "result": "pass" if module in finished else "fail"})
    return tests
