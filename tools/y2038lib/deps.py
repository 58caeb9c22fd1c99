# SPDX-License-Identifier: GPL-2.0-only
"""Install the Debian packages the pipeline needs, or say clearly why not."""
import os
import re
import shutil

from .common import Y2038Error, progress, run

# Tools every stage needs, then what the build and boot stages need.
BASE_PACKAGES = ["coccinelle", "git", "perl", "python3", "xz-utils", "unifdef", "id-utils"]
BUILD_PACKAGES = ["gcc", "make", "flex", "bison", "bc", "libelf-dev", "libssl-dev", "cpio",
                  "ccache", "gcc-arm-linux-gnueabihf", "libc6-dev-armhf-cross",
                  "qemu-system-x86", "qemu-system-arm"]
# What only the tests need: the review page is checked in a headless browser,
# a distcc daemon on localhost takes the compiles of `build --distcc`,
# the committed series of both packaged kernels are regenerated, and each
# posting is taken apart by b4 the way a maintainer applies it; make test
# runs make lint first.
LINT_PACKAGES = ["pyflakes3", "python3-mypy"]
TEST_PACKAGES = ["chromium", "distcc", "b4", *LINT_PACKAGES]
TEST_KVERS = ("6.1", "6.12")
# The newest linux-source Debian packages: the default upper end of an
# out-of-tree module's range, and what a fix on an older tree is compared
# with (posting/fixes.py), so a series for a packaged tree needs it too.
NEWEST_PACKAGED = "6.12"


def source_package(kver: str):
    """linux-source-X.Y for a version such as 6.1; None for a path."""
    return f"linux-source-{kver}" if re.fullmatch(r"\d+\.\d+", kver) else None


def missing(packages):
    out = run(["dpkg-query", "-W", "-f", "${Package} ${db:Status-Status}\n", *packages], check=False).stdout
    installed = {line.split()[0] for line in out.splitlines() if line.endswith(" installed")}
    return [p for p in packages if p not in installed]


def ensure(kvers=("6.1",), with_build=True, with_tests=False) -> None:
    if not shutil.which("dpkg-query"):
        raise Y2038Error("dpkg-query not found: this toolkit installs its dependencies on Debian 12 only")
    wanted = BASE_PACKAGES + (BUILD_PACKAGES if with_build else []) + (TEST_PACKAGES if with_tests else [])
    kvers = list(kvers) + (list(TEST_KVERS) if with_tests else [])
    if any(source_package(k) for k in kvers):
        kvers.append(NEWEST_PACKAGED)
    ensure_packages(wanted + sorted({p for p in map(source_package, kvers) if p}))


def ensure_packages(wanted) -> None:
    todo = missing(wanted)
    if not todo:
        return
    if os.geteuid() != 0:
        raise Y2038Error(f"missing packages {' '.join(todo)} and not root: "
                         f"run `sudo apt-get install {' '.join(todo)}`")
    progress(f"installing {' '.join(todo)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", *todo]):
        proc = run(cmd, env=env, check=False, merge_output=True)
        if proc.returncode != 0:
            tail = " | ".join(proc.stdout.strip().splitlines()[-3:])
            raise Y2038Error(f"`{' '.join(cmd)}` failed (no network or no such package?): {tail}")
    still = missing(todo)
    if still:
        raise Y2038Error(f"apt-get did not install {' '.join(still)}")
