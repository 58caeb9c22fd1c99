# SPDX-License-Identifier: GPL-2.0-only
"""convert on real out-of-tree modules: Debian 12 DKMS source packages,
fetched at test time with `apt-get download` into the work directory
(never committed, never installed).

For each: convert with the range read from the code leaves the code the
preprocessor keeps for every older kernel of the range as it was (compile-
free check at each version boundary) and uses no API a kernel of the range
lacks; with --min-kernel 5.10 no version conditional decided for 5.10-6.12
is left; both results build wherever the original builds against the
packaged kernels (allmodconfig, x86_64 and arm, W=1, nothing new).

`make test` runs three packages against 6.1; `make check-dkms` all eight
against 6.1 and 6.12 (Y2038_DKMS=all, Y2038_DKMS_KVERS=6.1,6.12) and writes
docs/verification.md's table to <work>/dkms-table.md, and converts every
other DKMS package with old time code too (EveryPackage: never a traceback).
"""
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List

from helpers import run_cli
from y2038lib import old_time_api
from y2038lib.outoftree import api_availability, kernel_versions as kv
from y2038lib.verification import dkms, module_verify
from y2038lib.engine import rules
from y2038lib.common import work_dir

QUICK = ("rtpengine-kernel-dkms", "v4l2loopback-dkms", "apfs-dkms")
PACKAGES = dkms.PACKAGES if os.environ.get("Y2038_DKMS") == "all" else QUICK
KVERS = tuple(os.environ.get("Y2038_DKMS_KVERS", "6.1").split(","))


def texts_of(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_text(errors="replace") for p in sorted(root.rglob("*.[ch]"))}


class RealModules(unittest.TestCase):
    tmp: Path  # these three: set by setUpClass and check_package
    rows: Dict[str, str]
    build_keys: List[str]

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-dkms-"))
        cls.rows = {}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)
        if cls.rows:
            header = ("| module | range read from the code | sites converted | kept for older kernels | "
                      "need a newer kernel | branches dropped with --min-kernel 5.10 | sites converted then | "
                      + " | ".join(f"build {k} (original / default / 5.10)" for k in cls.build_keys) + " |")
            lines = [header, "|" + "---|" * header.count(" | ") + "---|"]
            lines += [row for _, row in sorted(cls.rows.items())]
            (work_dir() / "dkms-table.md").write_text("\n".join(lines) + "\n")

    def convert(self, source: Path, out: Path, *extra):
        proc = run_cli("convert", str(source), "--out", str(out), *extra)
        self.assertIn(proc.returncode, (0, 3), proc.stdout + proc.stderr)
        return json.loads((out / "y2038-convert.json").read_text())

    def check_package(self, package: str):
        source = dkms.fetch(package)
        default = self.convert(source, self.tmp / package / "default")
        as_written = self.convert(source, self.tmp / package / "as-written", "--no-compat-header")
        newer = self.convert(source, self.tmp / package / "5.10", "--min-kernel", "5.10")
        original = texts_of(source)
        project = kv.Project(original)
        kernel_range = project.default_range()
        histories = [api_availability.RuleHistory.of(r) for _, rs in rules.campaigns() for r in rs]
        samples = kv.samples_for(project.tested, kernel_range.lo, kernel_range.hi)
        for relpath in default["changed"]:
            if relpath not in original or relpath in project.problems:
                continue
            converted = (self.tmp / package / "default" / relpath).read_text(errors="replace")
            self.assertEqual(api_availability.unavailable_uses(original[relpath], converted, project, samples,
                                                               histories, set(default["compat_header"]["names"])),
                             [], f"{package}: {relpath}")
        for relpath in as_written["changed"]:  # without y2038-compat.h old kernels see the code as it was
            if relpath not in original or relpath in project.problems:
                continue
            converted = (self.tmp / package / "as-written" / relpath).read_text(errors="replace")
            for version in samples:
                if version < kv.code(2, 6, 31):  # older than every replacement the rules write
                    self.assertEqual(kv.lines_compiled_at(converted, project, version),
                                     kv.lines_compiled_at(original[relpath], project, version),
                                     f"{package}: {relpath}: changed for Linux {kv.show(version)}")
        self.assertEqual(default["version_check"], [])
        self.assertEqual(newer["version_check"], [])
        # nothing decided for 5.10..6.12 is left after --min-kernel 5.10
        result = texts_of(self.tmp / package / "5.10")
        again = kv.Project(result)
        for relpath, text in result.items():
            if relpath in again.problems:
                continue
            self.assertEqual(kv.drop_dead_branches(text, again, again.default_range("5.10"))[0], text,
                             f"{package}: {relpath}: a conditional decided for 5.10-6.12 is left")
        builds = []
        for name in ("default", "5.10"):
            checked = module_verify.verify(source, self.tmp / package / name, KVERS)
            self.assertEqual(checked["verdict"], "pass", f"{package} ({name}): {module_verify.text(checked)}")
            builds.append(checked["builds"])
        cells = []
        type(self).build_keys = sorted(builds[0])
        for key in sorted(builds[0]):
            cells.append(f"{builds[0][key]['original']} / {builds[0][key]['converted']} / "
                         f"{builds[1][key]['converted']}")
        sites = lambda r: sum(e["sites"] for e in r["campaigns"])
        self.rows[package] = (f"| {package} | {default['kernels']['text'].split(' (')[0]} | {sites(default)} | "
                              f"{len(default['kept_for_older_kernels'])} | {len(default['needs_newer_kernel'])} | "
                              f"{newer['compat']['branches_dropped']} | {sites(newer)} | " + " | ".join(cells) + " |")


def make_test(package):
    def test(self):
        self.check_package(package)
    test.__name__ = f"test_{package.replace('-', '_')}"
    return test


for _package in PACKAGES:
    setattr(RealModules, f"test_{_package.replace('-', '_')}", make_test(_package))


@unittest.skipUnless(os.environ.get("Y2038_DKMS") == "all", "make check-dkms runs it (every DKMS package)")
class EveryPackage(unittest.TestCase):
    """convert on every DKMS package of the apt sources (not only the eight
    built above) with old time code: exit 0 (or 3 with problems listed),
    never a traceback, with the range read from the code and with
    --min-kernel 4.19; <work>/dkms-every.md lists the uses before and left."""

    def test_convert_never_crashes(self):
        rows = ["| package | old time-API uses | left, range from the code | left, --min-kernel 4.19 |",
                "|---|---:|---:|---:|"]
        with tempfile.TemporaryDirectory() as tmp:
            for package in dkms.every_package():
                source = dkms.fetch(package)
                before = old_time_api.count_uses(source)
                if not before:
                    continue
                left = []
                for extra in ([], ["--min-kernel", "4.19"]):
                    out = Path(tmp) / f"{package}{len(extra)}"
                    proc = run_cli("convert", str(source), "--out", str(out), *extra)
                    with self.subTest(package=package, options=extra):
                        self.assertIn(proc.returncode, (0, 3), proc.stdout + proc.stderr)
                        self.assertNotIn("Traceback", proc.stdout + proc.stderr)
                    left.append(str(old_time_api.count_uses(out)))
                rows.append(f"| {package} | {before} | {' | '.join(left)} |")
        self.assertGreater(len(rows), 2 + 5, "fewer than six packages with old time code: apt sources?")
        (work_dir() / "dkms-every.md").write_text("\n".join(rows) + "\n")
