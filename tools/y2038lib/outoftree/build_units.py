# SPDX-License-Identifier: GPL-2.0-only
"""The modules a directory of sources builds, read from its build files,
and which files each one compiles: what the kernels a file supports are a
property of (a module, not the folder the user pointed at).

Read:
- Kbuild and Makefile: `obj-m`/`obj-y`/`obj-$(CONFIG_X)` name the units
  (`foo.o`), `foo-objs`/`foo-y`/`foo-$(CONFIG_X)` their objects; make
  variables are expanded (`$(MODULE_NAME)-y += $(OS_FILES)`), every
  assignment of a variable is taken (conditionals are not evaluated: a
  file some configuration compiles belongs to the module), and paths are
  relative to the build file (`$(src)/` dropped);
- dkms.conf: `BUILT_MODULE_NAME[i]` at `BUILT_MODULE_LOCATION[i]`: the
  Kbuild unit of that name there, else every .c file under the location.

A unit's files are its .c files and the headers they include from the
directory (`#include "x.h"`, found beside the includer or anywhere in the
directory by name, transitively).  A .c file no unit compiles is a unit
alone with the headers it includes; a header nothing includes is alone.
A header several units include takes the widest range of them.
"""
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Dict, List, Optional, Set, Tuple

from . import kernel_versions as kv

BUILD_FILES = ("Kbuild", "Makefile", "makefile", "GNUmakefile")
ASSIGNMENT = re.compile(r"^\s*(?:override\s+|export\s+)?([^\s:+?=#]+)\s*(\+=|:=|::=|\?=|=)\s*(.*)$")
VARIABLE = re.compile(r"\$[({]([^(){}$]+)[)}]")
UNIT_LIST = re.compile(r"^obj-(?:m|y|\$\([^)]*\))$")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
DKMS_KEY = re.compile(r'^\s*(BUILT_MODULE_NAME|BUILT_MODULE_LOCATION)\[(\d+)\]\s*=\s*"?([^"\s#]*)"?', re.M)


@dataclass
class Unit:
    name: str  # the module (foo for foo.ko), or the file's own path when alone
    defined_in: str  # the build file that names it ("" when the file is alone)
    files: List[str] = field(default_factory=list)  # relpaths, .c first, then the headers

    def text(self) -> str:
        where = f" ({self.defined_in})" if self.defined_in else " (no build file groups it)"
        return f"{self.name}{where}"


def logical_lines(text: str) -> List[str]:
    """Make's lines: continuations joined, comments dropped."""
    return [line.split("#", 1)[0] for line in re.sub(r"\\\n", " ", text).split("\n")]


def make_variables(lines: List[str]) -> Dict[str, List[str]]:
    """{name: [every value assigned to it]}: all branches of conditionals."""
    found: Dict[str, List[str]] = {}
    for line in lines:
        m = ASSIGNMENT.match(line)
        if m:
            found.setdefault(m.group(1), []).append(m.group(3))
    return found


def expand(text: str, variables: Dict[str, List[str]], done: Optional[Dict[str, str]] = None,
           active: Tuple[str, ...] = ()) -> str:
    """$(VAR)/${VAR} replaced by every word any value of VAR gives (unknown:
    empty).  Each variable is expanded once and its words kept once: a
    vendor Makefile that appends to a variable through itself
    (`X := $(X) -Ia`, tens of times) would otherwise multiply its values at
    every level of nesting (gigabytes, tens of minutes)."""
    done = {} if done is None else done

    def value(m):
        name = m.group(1)
        if name in ("src", "obj", "srctree"):
            return "."
        if name in active:  # X in X's own value: every other value of X is taken already
            return ""
        if name not in done:
            words = " ".join(expand(v, variables, done, active + (name,))
                             for v in variables.get(name, [])).split()
            done[name] = " ".join(dict.fromkeys(words))
        return done[name]
    return VARIABLE.sub(value, text)


def kbuild_units(root: Path, build_file: Path, known: Set[str]) -> List[Unit]:
    """The units one build file names, with their .c files (relpaths in known)."""
    lines = logical_lines(build_file.read_text(errors="replace"))
    variables = make_variables(lines)
    expanded: Dict[str, str] = {}
    here = PurePosixPath(build_file.parent.relative_to(root).as_posix())
    objects: Dict[str, List[str]] = {}
    unit_names: List[str] = []
    for line in lines:
        m = ASSIGNMENT.match(line)
        if not m:
            continue
        target = expand(m.group(1), variables, expanded).strip()  # a CONFIG_ option expands to nothing
        words = expand(m.group(3), variables, expanded).split()
        if UNIT_LIST.match(m.group(1)):
            unit_names += [w[:-2] for w in words if w.endswith(".o")]
        else:
            part = re.match(r"^(.+)-(?:objs|y|m)?$", target)
            if part:
                objects.setdefault(part.group(1), []).extend(w for w in words if w.endswith(".o"))
    units = []
    for name in dict.fromkeys(unit_names):
        sources = [normalised(here / o[:-2]) + ".c" for o in objects.get(name, [name + ".o"])]
        files = [s for s in dict.fromkeys(sources) if s in known]
        if files:
            units.append(Unit(PurePosixPath(name).name, str(build_file.relative_to(root)), files))
    return units


def normalised(path: PurePosixPath) -> str:
    parts: List[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)


def dkms_units(root: Path, conf: Path, kbuild: List[Unit], known: Set[str]) -> List[Unit]:
    """The modules dkms.conf builds: its Kbuild unit of that name under the
    location, else every .c file under the location."""
    keys: Dict[str, Dict[str, str]] = {}
    for key, index, value in DKMS_KEY.findall(conf.read_text(errors="replace")):
        keys.setdefault(index, {})[key] = value
    base = PurePosixPath(conf.parent.relative_to(root).as_posix())
    units = []
    for entry in keys.values():
        name = entry.get("BUILT_MODULE_NAME")
        if not name or "$" in name:
            continue
        location = normalised(base / entry.get("BUILT_MODULE_LOCATION", "."))
        prefix = location + "/" if location else ""
        named = [u for u in kbuild if u.name == name and all(f.startswith(prefix) for f in u.files)]
        if named:
            named[0].defined_in += f", {conf.relative_to(root)}"
            continue
        files = sorted(f for f in known if f.endswith(".c") and f.startswith(prefix))
        if files:
            units.append(Unit(name, str(conf.relative_to(root)), files))
    return units


def include_targets(relpath: str, include: str, texts, by_name: Dict[str, List[str]]) -> List[str]:
    """The directory's files a written include may name: "x.h" beside the
    includer, else every x.h of by_name; <d/x.h> every path ending so,
    <x.h> every x.h (brackets kept in include)."""
    if include.startswith("<"):
        path = include[1:-1]
        return [other for other in by_name.get(PurePosixPath(path).name, [])
                if "/" not in path or other == path or other.endswith("/" + path)]
    beside = normalised(PurePosixPath(relpath).parent / include)
    return [beside] if beside in texts else by_name.get(PurePosixPath(include).name, [])


def included_headers(first: List[str], texts: Dict[str, str]) -> List[str]:
    """The directory's headers the files include, transitively."""
    by_name: Dict[str, List[str]] = {}
    for relpath in texts:
        if relpath.endswith(".h"):
            by_name.setdefault(PurePosixPath(relpath).name, []).append(relpath)
    found: List[str] = []
    todo = list(first)
    while todo:
        relpath = todo.pop()
        for include in INCLUDE.findall(texts.get(relpath, "")):
            for target in include_targets(relpath, include, texts, by_name):
                if target not in found and target not in first:
                    found.append(target)
                    todo.append(target)
    return sorted(found)


def find_units(root: Path, texts: Dict[str, str]) -> List[Unit]:
    """Every unit of the directory: Kbuild/Makefile ones, dkms.conf ones,
    then each .c file no unit compiles (with its headers), then each header
    nothing includes.  texts: {relpath: text} of the
    .c and .h files."""
    known = set(texts)
    units: List[Unit] = []
    for build_file in sorted(p for p in root.rglob("*") if p.name in BUILD_FILES and p.is_file()):
        units += kbuild_units(root, build_file, known)
    for conf in sorted(root.rglob("dkms.conf")):
        units += dkms_units(root, conf, units, known)
    compiled = {f for u in units for f in u.files}
    units += [Unit(relpath, "", [relpath]) for relpath in sorted(known - compiled) if relpath.endswith(".c")]
    for unit in units:
        unit.files += included_headers(unit.files, texts)
    grouped = {f for u in units for f in u.files}
    units += [Unit(relpath, "", [relpath]) for relpath in sorted(known - grouped)]
    return units


class ModuleRanges:
    """The kernel range of each module, and of each file from its modules."""

    def __init__(self, root: Path, project: kv.Project, min_kernel: Optional[str], max_kernel: Optional[str]):
        self.units = find_units(root, project.texts)
        self.ranges = [project.default_range(min_kernel, max_kernel, unit.files) for unit in self.units]
        self.of_file: Dict[str, kv.KernelRange] = {}
        for unit, unit_range in zip(self.units, self.ranges):
            for relpath in unit.files:  # a file in several modules: the widest range of them
                known = self.of_file.get(relpath)
                if known is None or unit_range.lo < known.lo:
                    self.of_file[relpath] = unit_range

    def range_of(self, relpath: str, default: kv.KernelRange) -> kv.KernelRange:
        """The file's range (default: a file no module knows, e.g. a new one)."""
        return self.of_file.get(relpath, default)

    def report(self) -> List[str]:
        """A line per module: its name, build file, range and files."""
        return [f"{unit.text()}: {unit_range.text()}: {', '.join(unit.files)}"
                for unit, unit_range in zip(self.units, self.ranges)]

    def site_filter(self, make_filter, default: kv.KernelRange):
        """The change filter of each file's module: make_filter(range) per
        range, chosen by the file (a file no module knows: default)."""
        filters: Dict[int, object] = {}

        def of(relpath: str):
            file_range = self.range_of(relpath, default)
            if id(file_range) not in filters:
                filters[id(file_range)] = make_filter(file_range)
            return filters[id(file_range)]
        return lambda rule, relpath, before, after: of(relpath)(rule, relpath, before, after)
