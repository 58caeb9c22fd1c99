# SPDX-License-Identifier: GPL-2.0-only
"""Out-of-tree modules as Debian ships them (DKMS source packages), and how
to build one against a prepared kernel the way its dkms.conf does.

Sources come from `apt-get download <pkg>` unpacked with `dpkg-deb -x`
(never `apt-get install`: that builds them for this machine's kernel) into
<work>/dkms/<pkg>/, outside any checkout.  A build runs kbuild on a copy
(kbuild writes beside the sources): `make -C <kernel> O=<build dir>
M=<copy>/<BUILT_MODULE_LOCATION> modules` with the VAR=value arguments of
the package's own `make -C ... M=...` command; W=1 warnings and errors are
compared between the original and the converted copy.
"""
import os
import re
import shutil
from pathlib import Path
from typing import Dict, List

from ..common import Y2038Error, progress, run, work_dir

# Debian 12's DKMS packages the issue tracker measured convert on
PACKAGES = ("iptables-netflow-dkms", "dahdi-dkms", "falcosecurity-scap-dkms", "rtpengine-kernel-dkms",
            "v4l2loopback-dkms", "apfs-dkms", "xtables-addons-dkms", "jool-dkms")


def every_package() -> List[str]:
    """Every DKMS source package the machine's apt sources have (Debian 12:
    about 30), dh-dkms (the packaging helper) aside."""
    proc = run(["apt-cache", "search", "--names-only", "--", "-dkms$"], check=False)
    names = sorted(line.split()[0] for line in proc.stdout.splitlines() if line.strip())
    return [name for name in names if name != "dh-dkms"]


def fetch(package: str) -> Path:
    """The package's module source directory (usr/src/<module>-<version>), downloaded once."""
    root = work_dir() / "dkms" / package
    found = sorted(root.glob("usr/src/*/dkms.conf"))
    if found:
        return found[0].parent
    root.mkdir(parents=True, exist_ok=True)
    progress(f"apt-get download {package}")
    download = lambda: run(["apt-get", "download", package], cwd=root, check=False, merge_output=True)
    proc = download()
    if proc.returncode != 0 and os.geteuid() == 0:  # package lists never fetched, or stale
        run(["apt-get", "update", "-q"], check=False)
        proc = download()
    debs = sorted(root.glob(f"{package}_*.deb"))
    if proc.returncode != 0 or not debs:
        raise Y2038Error(f"`apt-get download {package}` failed (run apt-get update? no network?): "
                         f"{' | '.join(proc.stdout.strip().splitlines()[-2:])}")
    run(["dpkg-deb", "-x", str(debs[-1]), str(root)])
    found = sorted(root.glob("usr/src/*/dkms.conf"))
    if not found:
        raise Y2038Error(f"{debs[-1].name} holds no usr/src/*/dkms.conf: not a DKMS source package")
    return found[0].parent


def dkms_conf(source: Path) -> Dict[str, str]:
    """dkms.conf's assignments ({'MAKE[0]': ..., 'BUILT_MODULE_LOCATION[0]': ...}), quotes removed."""
    conf = source / "dkms.conf"
    values: Dict[str, str] = {}
    if conf.exists():
        text = re.sub(r"\\\n", " ", conf.read_text(errors="replace"))
        for m in re.finditer(r"^\s*([A-Z_]+(?:\[\d+\])?)=(.*)$", text, re.M):
            values[m.group(1)] = m.group(2).strip().strip("\"'")
    return values


def kbuild_plan(source: Path) -> tuple:
    """(module directory relative to source, extra make arguments) for kbuild."""
    conf = dkms_conf(source)
    location = conf.get("BUILT_MODULE_LOCATION[0]", "").strip("/")
    command = conf.get("MAKE[0]", "") or conf.get("MAKE", "")
    args = []
    if re.search(r"\bM=", command):
        m = re.search(r"\bM=\S*?/build/?(\S*)", command)
        if m and m.group(1):
            location = m.group(1).strip("/")
        for var, value in re.findall(r"\b([A-Z][A-Z0-9_]*)=(\"[^\"]*\"|\S+)", command):
            if var in ("M", "KERNELRELEASE", "KVERS", "KERNEL_DIR", "KSRC"):
                continue
            value = value.strip('"').replace('\\"', "")
            if "$" in value and not re.search(r"\$\{?(BDIR|dkms_tree)", value):
                continue
            args.append(f"{var}={value}")
    return location, args


def build(kernel_make, source: Path, dest: Path) -> dict:
    """Build a copy of source at dest with kernel_make(args) -> CompletedProcess.
    Returns {"ok", "errors", "warnings", "modules", "log"}."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("y2038-convert.*"))
    location, extra = kbuild_plan(source)
    extra = [re.sub(r"\$\{?(BDIR|dkms_tree)\}?(/\$\{?PACKAGE_NAME\}?/\$\{?PACKAGE_VERSION\}?/build)?",
                    str(dest), a) for a in extra]
    proc = kernel_make(["-k", f"M={dest / location if location else dest}", "W=1",
                        "KBUILD_MODPOST_WARN=1", *extra, "modules"])
    log = proc.stdout + proc.stderr
    modules = sorted(str(p.relative_to(dest)) for p in dest.rglob("*.ko"))
    return {"ok": proc.returncode == 0 and bool(modules),
            "errors": sorted({message_key(l, dest) for l in log.splitlines() if re.search(r"\berror\b", l)}),
            "warnings": sorted({message_key(l, dest) for l in log.splitlines()
                                if "warning:" in l and "modpost" not in l}),
            "modules": modules, "log": log[-4000:]}


def message_key(line: str, dest: Path) -> str:
    """A compiler message without the build copy's path and the line numbers:
    the same message before and after a conversion compares equal."""
    line = line.replace(str(dest) + "/", "")
    return re.sub(r":\d+:\d+:|:\d+:", ":", line).strip()
