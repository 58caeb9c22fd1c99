# SPDX-License-Identifier: GPL-2.0-only
"""Sources built for the kernel and for user space from one file: a
header shared with a user tool, a library whose `#ifdef __KERNEL__` arm
calls do_gettimeofday() and whose other arm gettimeofday().

Kbuild always defines __KERNEL__, so the kernel side is what the lines
compiled with it defined are, the user side what they are without it.  The
whole-driver pass converts the kernel side and leaves alone, saying so:
- a structure such a header declares where user space sees it (its layout
  is what both builds share: a user tool has no struct timespec64);
- a value declared or used on a line only the user-space build compiles
  (a local both arms fill, one with gettimeofday()).
Only __KERNEL__ is read: other conditions (a project's own __USER_LEVEL__,
versions, CONFIG_*) stay unknown, so a line is the user side's alone only
when a __KERNEL__ test says so.
"""
import re
from pathlib import PurePosixPath
from typing import Dict, List, Optional, Set

from . import compat_fallbacks, kernel_versions as kv
from .build_units import include_targets
from ..csource import blank_comments_and_literals

KERNEL_TEST = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b[^\n]*\b__KERNEL__\b", re.M)
STRUCT_BODY = re.compile(r"\bstruct\s+([A-Za-z_]\w*)\s*\{")
INCLUDE = re.compile(r"^\s*#\s*include\b")
# C library headers: Kbuild compiles with -nostdinc, so a file including one whatever its conditionals say is
# built for user space only (a tool beside the module)
LIBC_INCLUDE = re.compile(r"<(?:stdio|stdlib|unistd|pthread|time|string|errno|fcntl|signal|getopt|netdb|syslog|"
                          r"stdint)\.h>|<sys/")


class Build(kv.Evaluator):
    """Conditionals as one build reads them: __KERNEL__ defined (kernel)
    or not (user space), everything else unknown."""

    def __init__(self, kernel: bool):
        super().__init__(kv.Macros())
        self.kernel = kernel

    def value(self, node: kv.Node, version: int, env=None):
        if node.kind == "defined" and node.value == "__KERNEL__":
            return int(self.kernel)
        return super().value(node, version, env)

    def name_value(self, name: str, version: int, env):
        return kv.UNKNOWN if name == "LINUX_VERSION_CODE" else super().name_value(name, version, env)


def compiled_lines(text: str, kernel: bool) -> Optional[Set[int]]:
    """The lines that build may compile; None when the file tests no
    __KERNEL__ (both builds see all of it) or its conditionals do not pair."""
    if not KERNEL_TEST.search(text):
        return None
    try:
        versions = kv.SourceVersions(text, Build(kernel), [0])
    except kv.ConditionalError:
        return None
    return {n for n in range(1, text.count("\n") + 2) if versions.kernels(n)}


def user_space_file(text: str, own=frozenset()) -> bool:
    """A file that includes a C library header outside any conditional:
    no kernel build compiles it.  A header the module ships itself (own:
    the directory's relpaths; SPL's include/sys/time.h) is no libc's."""
    for m in compat_fallbacks.top_level_includes(text):
        name = re.search(r"<([^>]+)>", m.group(0))
        if name and LIBC_INCLUDE.search(m.group(0)) and \
                not any(path == name.group(1) or path.endswith("/" + name.group(1)) for path in own):
            return True
    return False


def user_space_files(texts: Dict[str, str]) -> Set[str]:
    """The files only user space builds: those including a C library
    header (user_space_file), and the headers only such files include (an
    include read as every file it may name: build_units.include_targets)."""
    found = {relpath for relpath, text in texts.items() if user_space_file(text, texts)}
    by_name: Dict[str, List[str]] = {}
    for relpath in texts:
        by_name.setdefault(PurePosixPath(relpath).name, []).append(relpath)
    includers: Dict[str, Set[str]] = {}
    for relpath, text in texts.items():
        for quoted, angled in re.findall(r'^\s*#\s*include\s*(?:"([^"]+)"|(<[^>]+>))', text, re.M):
            for target in include_targets(relpath, quoted or angled, texts, by_name):
                includers.setdefault(target, set()).add(relpath)
    while True:
        more = {relpath for relpath in texts if relpath.endswith(".h") and relpath not in found
                and includers.get(relpath) and includers[relpath] <= found}
        if not more:
            return found
        found |= more


def user_only_lines(texts: Dict[str, str]) -> Dict[str, Set[int]]:
    """{relpath: lines only the user-space build compiles}, for the files with such lines."""
    found = {}
    for relpath, text in texts.items():
        user, kernel = compiled_lines(text, False), compiled_lines(text, True)
        if user is not None and kernel is not None and user - kernel:
            found[relpath] = user - kernel
    return found


def shared_structs(texts: Dict[str, str], user_only: Optional[Dict[str, Set[int]]] = None) -> Dict[str, str]:
    """{struct name: why} of the structures a header built for user space
    too declares outside its kernel-only lines.  Built for user space: it
    includes something on a line only the user-space build compiles
    (`#else #include <stdint.h>`); a header whose __KERNEL__ test has no
    such arm (a kernel header that includes <linux/wait.h> whatever the
    test says) is the kernel's alone."""
    found: Dict[str, str] = {}
    user_only = user_only_lines(texts) if user_only is None else user_only
    for relpath, text in sorted(texts.items()):
        lines = text.split("\n")
        if not relpath.endswith(".h") or not any(INCLUDE.match(lines[n - 1]) for n in user_only.get(relpath, ())):
            continue
        user = compiled_lines(text, False) or set()
        code = blank_comments_and_literals(text)
        for m in STRUCT_BODY.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            if line in user:
                found.setdefault(m.group(1), f"{relpath}:{line}: struct {m.group(1)} is declared for user space "
                                             f"too ({relpath} tests __KERNEL__): the layout both builds share stays")
    return found
