# SPDX-License-Identifier: GPL-2.0-only
"""Fix checks: what boot-tests/fix-checks/<name>/ holds, and how a check
enters a kernel tree and its configuration.

A check is a KUnit test of ours (never posted), the Kconfig entry that
builds it, the options the code under test needs, and a CHECK file that
says which file's fix it proves:

    Suite: y2038_gss_krb5_v1
    Proves: net/sunrpc/auth_gss/gss_krb5_unseal.c
    Test: y2038_gss_krb5_v1_test.c -> net/sunrpc/auth_gss
    Kconfig: net/sunrpc/Kconfig
    Arch: x86_64

Test: the test file and the directory it is built in (a Makefile line is
appended there, so it can call the driver's non-static functions);
Kconfig: the file its entry is appended to; Arch: the boot machine it
boots on (x86_64 when absent; arm where the bug needs a 32-bit long).

The boot stage builds the checks of a series' fixes into its kernels
(checks_of, boot_checks), so that proving a fix (fix_proofs.py) costs two small
rebuilds of a kernel already built, not a kernel of its own.
"""
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..common import REPO, Y2038Error
from ..records import FIX_CHECKS_DIR
from .machines import MACHINES

CHECKS_DIR = REPO / FIX_CHECKS_DIR
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

    @property
    def config(self) -> Path:
        return self.folder / "config"


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


def check_for(files, available=None) -> Optional[Check]:
    """The check that proves a fix of these files, or None; available:
    checks() when the caller has read them already."""
    return next((c for c in (checks() if available is None else available) if set(c.proves) & set(files)), None)


def checks_of(results) -> dict:
    """{fix patch name: its check} for the verified fixes of a built series that have one."""
    verified = results.build.verified if results.build else []
    available = checks()
    found = {}
    for patch in results.fix_patches():
        check = check_for(patch.files, available) if patch.name in verified else None
        if check:
            found[patch.name] = check
    return found


def distinct(found) -> list:
    """Checks without repeats, by name: several fixes can share one."""
    return sorted(set(found), key=lambda c: c.name)


def boot_checks(results) -> list:
    """The checks the boot stage builds into a built series' kernels."""
    return distinct(checks_of(results).values())


def fragments(checks, arch: str) -> list:
    """The config fragments of the checks that boot on arch."""
    return [c.config for c in checks if c.arch == arch]


def add_check(builder, check: Check) -> None:
    """The check's test, its Kconfig entry and its Makefile line, as one commit."""
    src = builder.src
    shutil.copyfile(check.folder / check.test, src / check.test_dir / check.test)
    with open(src / check.kconfig, "a") as kconfig:
        kconfig.write("\n" + (check.folder / "Kconfig").read_text())
    with open(src / check.test_dir / "Makefile", "a") as makefile:
        makefile.write(f"obj-$(CONFIG_{check.symbol}) += {Path(check.test).stem}.o\n")
    builder.git("add", "-A", "-f", check.test_dir, check.kconfig)
    builder.git("commit", "-q", "-m", CHECK_COMMIT + check.name)
