# SPDX-License-Identifier: GPL-2.0-only
"""Which architectures build and run a driver that only some platforms have.

x86_64 and ARM allmodconfig build most drivers; one whose Kconfig entry
depends on a platform symbol (`depends on ARCH_K3`, without COMPILE_TEST)
is built only where that symbol is defined (arch/arm64/Kconfig.platforms).
The same reading tells a driver no 32-bit machine runs: a bug of 32-bit
arithmetic there hits COMPILE_TEST builds only.  Read from the tree itself:
the directory's Makefile names the file's CONFIG_ symbol, its Kconfig entry
the platform, arch/*/Kconfig* the architecture.
"""
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional


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


def kconfig_entry(src: Path, relpath: str, symbol: str) -> tuple:
    """(the Kconfig file, its `depends on` lines joined with &&) of `config
    symbol`, from the Kconfig files of the file's directory and those above it."""
    directory = src / Path(relpath).parent
    while directory != src.parent:
        for kconfig in sorted(directory.glob("Kconfig*")):
            text = kconfig.read_text(errors="replace")
            m = re.search(rf"^(?:menu)?config {symbol}\n((?:[ \t]+.*\n|\n)*)", text, re.M)
            if m:
                lines = re.findall(r"^\s*depends on (.*?)\s*$", m.group(1), re.M)
                return kconfig.relative_to(src).as_posix(), " && ".join(
                    f"({line})" if "||" in line and len(lines) > 1 else line for line in lines)
        directory = directory.parent
    return None, ""


def depends(src: Path, relpath: str, symbol: str) -> str:
    """The `depends on` lines of `config symbol`."""
    return kconfig_entry(src, relpath, symbol)[1]


@lru_cache(maxsize=None)
def sixty_four_bit_arch_dirs(src: Path) -> frozenset:
    """arch/<dir> names whose Kconfig makes every kernel 64-bit
    (`config 64BIT` with `def_bool y`: arm64, alpha, s390, loongarch)."""
    return frozenset(kconfig.parent.name for kconfig in (src / "arch").glob("*/Kconfig")
                     if re.search(r"^config 64BIT\n\s+def_bool y\s*$", kconfig.read_text(errors="replace"), re.M))


@dataclass(frozen=True)
class SixtyFourBitOnly:
    """Why a file runs on 64-bit machines only: its Kconfig entry's terms."""
    kconfig: str  # the Kconfig file
    symbol: str  # CONFIG_ symbol, without CONFIG_
    depends: str  # its `depends on` lines
    arches: tuple  # the architectures that build it for real, all 64-bit ("64-bit": any)


def top_level(expr: str, operator: str) -> list:
    """expr split at the operator where no parenthesis is open."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(expr):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and expr.startswith(operator, i):
            parts.append(expr[start:i])
            start = i + len(operator)
    return [p.strip() for p in parts + [expr[start:]]]


def bare(term: str) -> str:
    while term.startswith("(") and term.endswith(")"):
        term = term[1:-1].strip()
    return term


def sixty_four_bit_only(src: Path, relpath: str) -> Optional[SixtyFourBitOnly]:
    """The reason no 32-bit machine runs this file, or None: a term its
    Kconfig entry must meet is 64BIT, or every way to meet it other than
    COMPILE_TEST is a platform only 64-bit architectures define."""
    arch = relpath.split("/")[1] if relpath.startswith("arch/") else None
    if arch:
        return SixtyFourBitOnly(f"arch/{arch}/Kconfig", "64BIT", "def_bool y", (arch,)) \
            if arch in sixty_four_bit_arch_dirs(src) else None
    symbol = config_symbol(src, relpath)
    kconfig, deps = kconfig_entry(src, relpath, symbol) if symbol else (None, "")
    for conjunct in top_level(deps, "&&") if deps else []:
        ways = [bare(w) for w in top_level(bare(conjunct), "||")]
        real = [w for w in ways if w != "COMPILE_TEST"]
        if real and all(w in SIXTY_FOUR_BIT_SYMBOLS or sixty_four_bit_platform(src, w) for w in real):
            dirs = {d for w in real for d in SIXTY_FOUR_BIT_SYMBOLS.get(w, ()) or platform_arch_dirs(src, w)}
            return SixtyFourBitOnly(kconfig, symbol, deps, tuple(sorted(dirs)))
    return None


# symbols only 64-bit kernels define, and the architectures they are on
SIXTY_FOUR_BIT_SYMBOLS = {"64BIT": ("64-bit",), "X86_64": ("x86",), "ARM64": ("arm64",), "PPC64": ("powerpc",),
                          "SPARC64": ("sparc",)}


def sixty_four_bit_platform(src: Path, symbol: str) -> bool:
    """A platform symbol (ARCH_K3) that only 64-bit architectures define."""
    dirs = platform_arch_dirs(src, symbol) if symbol.startswith("ARCH_") else ()
    return bool(dirs) and set(dirs) <= sixty_four_bit_arch_dirs(src)


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
