# SPDX-License-Identifier: GPL-2.0-only
"""A module's own feature flags, decided for the range.

Out-of-tree drivers test flags that their own compat header defines per
kernel version (Intel's kcompat.h: `#if LINUX_VERSION_CODE <
KERNEL_VERSION(4,1,0) ... #else #define HAVE_PTP_CLOCK_INFO_GETTIME64
#endif`, then `#ifdef HAVE_PTP_CLOCK_INFO_GETTIME64` in the driver).  Once
--min-kernel has resolved the version conditionals, a definition left
outside every conditional (an include guard aside) holds on every kernel of
the range: a test of that name after it, in the same file or after an
unconditional `#include "..."` that reaches the header, is decided.

Only "defined" is ever concluded.  A name the module #undefs anywhere, or
defines only inside a conditional, stays unknown, and so does a flag the
module never defines: the kernel's headers or the build may define it.
"""
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Dict, List, Set, Tuple

from . import kernel_versions as kv
from .build_units import include_targets

DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")
UNDEF = re.compile(r"^\s*#\s*undef\s+([A-Za-z_]\w*)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|(<[^>]+>))')
# the kernel's include directories: `#include <linux/x.h>` is the kernel's header whatever the module holds
KERNEL_INCLUDE_DIRS = {"linux", "asm", "asm-generic", "uapi", "generated", "net", "media", "sound", "scsi", "crypto",
                       "trace", "video", "drm", "rdma", "xen", "keys", "misc", "soc", "dt-bindings", "acpi", "kvm",
                       "clocksource", "pcmcia", "ras", "target", "vdso", "memory", "ufs", "math-emu"}


@dataclass
class FileFacts:
    defines: Dict[str, int] = field(default_factory=dict)  # name -> first line of an unconditional #define
    includes: List[Tuple[int, str]] = field(default_factory=list)  # (line, path as written), unconditional


def has_include_guard(versions: kv.SourceVersions, lines: List[str]) -> bool:
    """Is the file's first conditional its include guard (`#ifndef G` then
    `#define G`, its #endif the file's last directive)?"""
    if not versions.chains:
        return False
    first = versions.chains[0]
    guard = first.branches[0]
    if guard.directive != "ifndef" or len(first.branches) != 1 or not guard.text.split():
        return False
    after = next((line for line in lines[guard.last:] if line.strip()), "")
    define = DEFINE.match(after)
    return define is not None and define.group(1) == guard.text.split()[0] \
        and first.endif[0] >= max(versions.directive_lines)


def facts_of(text: str) -> FileFacts:
    """The unconditional #defines and #includes of one file (`<x.h>` kept
    with its brackets)."""
    versions = kv.SourceVersions(text, kv.Evaluator(kv.Macros()), ())
    lines = text.split("\n")
    outside = ((0, 0),) if has_include_guard(versions, lines) else ()
    facts = FileFacts()
    for number, line in enumerate(lines, 1):
        if versions.line_frames.get(number, ()) not in ((), outside):
            continue
        if (define := DEFINE.match(line)):
            facts.defines.setdefault(define.group(1), number)
        elif (include := INCLUDE.match(line)):
            facts.includes.append((number, include.group(1) or include.group(2)))
    return facts


def resolver(texts: Dict[str, str]):
    """relpath, written include -> the one file of the directory it names,
    or None.  `<wrapper/time.h>` names a file through the module's own
    include directory (-I: the one file whose path ends so), never a
    kernel header."""
    by_name: Dict[str, List[str]] = {}
    for relpath in texts:
        by_name.setdefault(PurePosixPath(relpath).name, []).append(relpath)

    def resolve(relpath: str, include: str):
        path = include.strip("<>")
        if include.startswith("<") and (path.split("/")[0] in KERNEL_INCLUDE_DIRS or "/" not in path):
            return None
        named = include_targets(relpath, include, texts, by_name)
        return named[0] if len(named) == 1 else None
    return resolve


def defined_from(texts: Dict[str, str]) -> Dict[str, Dict[str, int]]:
    """{relpath: {flag: line after which it is defined on every kernel}} of
    texts (already resolved for the range); files whose conditionals do not
    pair are left out."""
    facts: Dict[str, FileFacts] = {}
    for relpath, text in texts.items():
        try:
            facts[relpath] = facts_of(text)
        except kv.ConditionalError:
            continue
    undone = {name for text in texts.values() for name in UNDEF.findall(text)}
    resolve = resolver(texts)
    reached: Dict[str, Set[str]] = {}

    def names_reached(relpath: str, seen: Set[str]) -> Set[str]:
        if relpath not in reached:
            names = set(facts[relpath].defines) if relpath in facts else set()
            for _, include in facts[relpath].includes if relpath in facts else ():
                target = resolve(relpath, include)
                if target and target not in seen:
                    names |= names_reached(target, seen | {target})
            reached[relpath] = names
        return reached[relpath]

    result = {}
    for relpath, own in facts.items():
        known = dict(own.defines)
        for line, include in own.includes:
            target = resolve(relpath, include)
            for name in names_reached(target, {relpath, target}) if target else ():
                known[name] = min(line, known.get(name, line))
        result[relpath] = {name: line for name, line in known.items() if name not in undone}
    return result
