# SPDX-License-Identifier: GPL-2.0-only
"""Legacy code end to end, before the boot: `y2038 convert` on the legacy
modules in boot-tests/legacy-modules/src (written against the 3.x time API).

Conversion: the committed y2038-convert.patch and .txt are what convert
writes today; DIR is never written; no legacy construct is left; a second
run changes nothing; bad input is refused without losing anything.
AgainstPackagedKernel: as written, each module fails to build against the
packaged kernel and the compiler names the removed APIs; converted, all of
them build for x86_64 and ARM with W=1 and no warning.  (test_boot.py loads
them in QEMU across 2038.)
"""
import hashlib
import json
import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from helpers import REPO, run_cli
from y2038lib.verification import fix_checks, legacy
from y2038lib.records import SeriesResults
from y2038lib import tree as tree_stage
from y2038lib.verification.boot import MACHINES, Kernel, checkout_variant
from y2038lib.verification.build import Builder

KVER = os.environ.get("KVER", "6.1")
TARBALL = Path(f"/usr/src/linux-source-{KVER}.tar.xz")
# what the compiler must name in each file as written: the removed APIs it uses
# (an implicit declaration is reported once: get_seconds in the shared header)
REMOVED_APIS = {
    "legacy_clockstats.c": ("ktime_get_ts", "getrawmonotonic", "getnstimeofday", "set_normalized_timespec",
                            "timespec_compare", "mktime"),
    "legacy_tstamp.c": ("do_gettimeofday", "current_kernel_time", "CURRENT_TIME"),
    "legacy_watchdog.c": ("tv64", "ktime_to_timespec"),
    "legacy_selftest.h": ("get_seconds",),
}
# no token of the 3.x time API may be left in the converted sources
LEGACY_TOKENS = re.compile(r"\b(do_gettimeofday|getnstimeofday|current_kernel_time|get_seconds|CURRENT_TIME|"
                           r"ktime_get_ts|getrawmonotonic|timespec_(add|sub|compare|to_ns|add_ns)|"
                           r"set_normalized_timespec|ktime_to_timespec|mktime|tv64|struct timespec|"
                           r"struct timeval|KTIME_SCALAR)\b|\.tv\.n?sec")


def digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(root)).encode() + path.read_bytes())
    return h.hexdigest()


class Conversion(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-legacy-"))
        cls.before = digest(legacy.SOURCE)
        # OUT's parent does not exist yet: convert makes it
        cls.proc = run_cli("convert", str(legacy.SOURCE), "--out", str(cls.tmp / "new" / "out"),
                           check=True)
        cls.out = cls.tmp / "new" / "out"
        cls.report = json.loads((cls.out / "y2038-convert.json").read_text())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_committed_patch_and_report_are_current(self):
        for committed in legacy.COMMITTED:
            fresh = self.out / committed.name
            self.assertTrue(committed.exists(), f"{committed} is not committed: `make legacy-patch`")
            self.assertEqual(committed.read_text(), fresh.read_text(),
                             f"{committed.relative_to(REPO)} is out of date: `make legacy-patch`")

    def test_source_directory_is_not_written(self):
        self.assertEqual(digest(legacy.SOURCE), self.before)

    def test_every_legacy_construct_is_converted(self):
        self.assertEqual(self.report["left"], [])
        for path in sorted(self.out.glob("*.[ch]")):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                code = re.sub(r"/\*.*|^\s*\*.*|//.*|\"[^\"]*\"", "", line)
                self.assertIsNone(LEGACY_TOKENS.search(code), f"{path.name}:{n}: {line.strip()}")
        converted = {f for e in self.report["campaigns"] for f in e["files"]}
        self.assertEqual(converted, {"legacy_clockstats.c", "legacy_selftest.h", "legacy_tstamp.c",
                                     "legacy_watchdog.c", "legacy_sensor_main.c"})
        # legacy_sensor's header and ring: the whole-driver pass, with its .c files
        self.assertEqual(set(self.report["whole_driver"]["files"]),
                         {"legacy_sensor.h", "legacy_sensor_main.c", "legacy_sensor_ring.c"})

    def test_second_run_changes_nothing(self):
        proc = run_cli("convert", str(self.out), "--out", str(self.tmp / "again"), check=True)
        again = json.loads((self.tmp / "again" / "y2038-convert.json").read_text())
        self.assertEqual(sum(e["sites"] for e in again["campaigns"]), 0, proc.stdout)
        self.assertEqual((self.tmp / "again" / "y2038-convert.patch").read_text(), "")

    def test_bad_directories_are_refused_and_nothing_is_lost(self):
        proc = run_cli("convert", str(self.tmp / "no-such-dir"), "--out", str(self.tmp / "x"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("no-such-dir: no such directory", proc.stderr)
        proc = run_cli("convert", str(self.out), "--out", str(self.out / "inside"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("must be outside", proc.stderr)
        foreign = self.tmp / "foreign"
        foreign.mkdir()
        (foreign / "notes.txt").write_text("mine")
        proc = run_cli("convert", str(legacy.SOURCE), "--out", str(foreign))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("was not written by `y2038 convert`", proc.stderr)
        self.assertEqual((foreign / "notes.txt").read_text(), "mine")
        a_file = self.tmp / "a-file"
        a_file.write_text("mine")
        proc = run_cli("convert", str(legacy.SOURCE), "--out", str(a_file))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("exists and is not a directory", proc.stderr)
        self.assertEqual(a_file.read_text(), "mine")


@unittest.skipUnless(TARBALL.exists(), f"{TARBALL} is not installed (make deps installs it)")
class AgainstPackagedKernel(unittest.TestCase):
    """Built against the pristine boot kernels (the packaged tree as it is)."""

    @classmethod
    def setUpClass(cls):
        run_cli("tree", "--kver", KVER, check=True)
        tree = tree_stage.load(KVER)
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-legacy-build-"))
        run_cli("convert", str(legacy.SOURCE), "--out", str(cls.tmp / "converted"), check=True)
        src = tree.state / "boot" / "pristine" / "src"
        builder = Builder(tree, os.cpu_count(), src)
        # the boot stage's pristine kernels for the committed series: its fix checks in, one configuration to build
        committed = REPO / "generated-patches" / f"linux-{tree.version}"
        checks = fix_checks.boot_checks(SeriesResults.read(committed)) if (committed / "results.json").exists() else []
        checkout_variant(builder, [], cls.tmp, checks)
        cls.kernels = {}
        for arch in ("x86_64", "arm"):
            kernel = Kernel(builder, "pristine", MACHINES[arch], os.cpu_count(), checks)
            image, errors = kernel.build()
            if not image:
                raise AssertionError(f"{arch} boot kernel does not build: {errors}")
            cls.kernels[arch] = kernel

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_legacy_sources_do_not_build_and_the_compiler_names_the_removed_apis(self):
        for arch, kernel in self.kernels.items():
            result = legacy.build(kernel, legacy.SOURCE, self.tmp / f"as-written-{arch}")
            self.assertNotEqual(result["returncode"], 0, f"{arch}: the legacy sources built as written")
            self.assertEqual(result["modules"], [])
            for source, apis in REMOVED_APIS.items():
                errors = "\n".join(l for l in result["errors"] if f"/{source}:" in l)
                for api in apis:  # gcc quotes with ‘’ in a UTF-8 locale, '' in C
                    self.assertRegex(errors, rf"[‘']{api}[’']", f"{arch}: {source}: the compiler does not name {api}")

    def test_converted_modules_build_without_warnings(self):
        for arch, kernel in self.kernels.items():
            result = legacy.build(kernel, self.tmp / "converted", self.tmp / f"converted-{arch}")
            self.assertEqual(result["returncode"], 0, f"{arch}:\n{result['log'][-3000:]}")
            self.assertEqual([Path(m).name for m in result["modules"]],
                             [f"{m}.ko" for m in legacy.modules()])
            self.assertEqual(result["warnings"], [], f"{arch}: W=1 warnings")
