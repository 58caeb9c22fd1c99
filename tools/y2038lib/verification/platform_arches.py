# SPDX-License-Identifier: GPL-2.0-only
"""Which architecture builds a driver that only one platform has.

x86_64 and ARM allmodconfig build most drivers; one whose Kconfig entry
depends on a platform symbol (`depends on ARCH_K3`, without COMPILE_TEST)
is built only where that symbol is defined (arch/arm64/Kconfig.platforms).
Read from the tree itself: the directory's Makefile names the file's
CONFIG_ symbol, its Kconfig entry the platform, arch/*/Kconfig* the
architecture.
"""
import re
from functools import lru_cache
from pathlib import Path


def config_symbol(src: Path, relpath: str):
    """CONFIG_X of `obj-$(CONFIG_X) += file.o`, also through `mod-y += file.o`."""
    makefile = src / Path(relpath).parent / "Makefile"
    if not makefile.exists():
        return None
    text = re.sub(r"\\\n", " ", makefile.read_text(errors="replace"))
    target = Path(relpath).stem + ".o"
    for _ in range(2):  # the file itself, then the composite module it is part of
        m = re.search(rf"^obj-\$\(CONFIG_(\w+)\)\s*[+:]?=.*(?<![\w-]){re.escape(target)}\b", text, re.M)
        if m:
            return m.group(1)
        m = re.search(rf"^([\w-]+)-(?:y|objs)\s*[+:]?=.*(?<![\w-]){re.escape(target)}\b", text, re.M)
        if not m:
            return None
        target = m.group(1) + ".o"
    return None


def depends(src: Path, relpath: str, symbol: str) -> str:
    """The `depends on` lines of `config symbol`, from the Kconfig files of
    the file's directory and those above it."""
    directory = src / Path(relpath).parent
    while directory != src.parent:
        for kconfig in sorted(directory.glob("Kconfig*")):
            text = kconfig.read_text(errors="replace")
            m = re.search(rf"^(?:menu)?config {symbol}\n((?:[ \t]+.*\n|\n)*)", text, re.M)
            if m:
                return " ".join(re.findall(r"^\s*depends on (.*)$", m.group(1), re.M))
        directory = directory.parent
    return ""


@lru_cache(maxsize=None)
def platform_arch_dirs(src: Path, symbol: str) -> tuple:
    """The arch/<dir> names whose Kconfig defines a platform symbol."""
    found = []
    for kconfig in sorted((src / "arch").glob("*/**/Kconfig*")):
        if re.search(rf"^(?:menu)?config {symbol}\s*$", kconfig.read_text(errors="replace"), re.M):
            found.append(kconfig.relative_to(src / "arch").parts[0])
    return tuple(dict.fromkeys(found))


def platform_arches(src: Path, relpath: str, defaults) -> tuple:
    """arch/<dir> names that build this file when the default architectures
    (their arch/ dir names) do not: the platforms its Kconfig entry depends
    on (none with COMPILE_TEST, none when a default has the platform)."""
    if not relpath.endswith(".c") or relpath.startswith("arch/"):
        return ()
    symbol = config_symbol(src, relpath)
    deps = depends(src, relpath, symbol) if symbol else ""
    if not deps or "COMPILE_TEST" in deps:
        return ()
    dirs = tuple(dict.fromkeys(d for s in re.findall(r"\bARCH_\w+", deps) for d in platform_arch_dirs(src, s)))
    return () if set(dirs) & set(defaults) else dirs
