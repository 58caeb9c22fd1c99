# SPDX-License-Identifier: GPL-2.0-only
"""The build stage flags what it must, and goes on with the rest.

A six-patch series on the packaged tree, made here: a patch that builds, one
that breaks the build, one whose changed line no configuration compiles, one
more that builds, one that builds in a file with W=1 warnings of its own, and
one that adds a W=1 warning.  The stage must verify the first, the fourth and
the fifth, reject the three planted ones with the reason, take them out of
the posting (into unverified/, the posting written again with the three
verified ones), and resume from its saved progress when run again.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import unittest
from pathlib import Path

from helpers import planted_series, run_cli
from y2038lib.verification import build
from y2038lib import tree as tree_stage
KVER = os.environ.get("KVER", "6.1")
TARBALL = Path(f"/usr/src/linux-source-{KVER}.tar.xz")

GOOD = ("kernel/time/itimer.c", "\tdo_setitimer(ITIMER_REAL, &it_new, &it_old);",
        "\tdo_setitimer(ITIMER_REAL, &it_new, (&it_old));")
BROKEN = ("kernel/time/timeconv.c", "\tdays = div_s64_rem(totalsecs, SECS_PER_DAY, &remainder);",
          "\tdays = div_s64_rem(totalsecs, SECS_PER_DAY_Y2038_UNDEFINED, &remainder);")
NOT_COMPILED = ("kernel/time/time.c", '#include "timekeeping.h"\n',
                '#include "timekeeping.h"\n\n#ifdef CONFIG_Y2038_NO_SUCH_OPTION\n'
                'static int y2038_never_compiled(void) { return 0; }\n#endif\n')
GOOD_LATER = ("kernel/time/alarmtimer.c", "\tdelta = ktime_sub(absexp, base->get_ktime());",
              "\tdelta = ktime_sub(absexp, (base->get_ktime()));")
# tick-oneshot.c has kernel-doc warnings under W=1 in 6.1 and 6.12 alike
WARNED_BEFORE = ("kernel/time/tick-oneshot.c", "\tclockevents_program_event(dev, ktime_get(), true);",
                 "\tclockevents_program_event(dev, (ktime_get()), true);")
NEW_WARNING = ("kernel/time/timecounter.c", "#include <linux/timecounter.h>\n",
               "#include <linux/timecounter.h>\n\nint y2038_planted_no_prototype(void)\n{\n\treturn 0;\n}\n")


def forget_build_results(tree) -> None:
    """The planted patches are the same each run: without their kept
    results (a cache, keyed by diff) the stage must compile them."""
    shutil.rmtree(build.patch_record_path(tree, "x").parent, ignore_errors=True)


@unittest.skipUnless(TARBALL.exists(), f"{TARBALL} is not installed (make deps installs it)")
class BuildStage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        run_cli("tree", "--kver", KVER, check=True)
        cls.tree = tree_stage.load(KVER)
        cls.out = Path(tempfile.mkdtemp(prefix="y2038-build-"))
        changes = (GOOD, BROKEN, NOT_COMPILED, GOOD_LATER, WARNED_BEFORE, NEW_WARNING)
        for path, old, _ in changes:
            assert (cls.tree.src / path).read_text().count(old) == 1, f"{old!r} not once in {path} of this tree"
        cls.names = planted_series(cls.tree, cls.out, changes)
        forget_build_results(cls.tree)
        cls.written = json.loads((cls.out / "results.json").read_text())
        cls.first = run_cli("build", "--kver", KVER, "--out", str(cls.out), check=True)
        cls.results = json.loads((cls.out / "results.json").read_text())
        cls.progress = [json.loads(p.read_text()) for p in cls.progress_files()]
        cls.second = run_cli("build", "--kver", KVER, "--out", str(cls.out), check=True)
        # no saved progress: each patch's result is found by its diff and the headers before it
        for path in cls.progress_files():
            path.unlink()
        cls.third = run_cli("build", "--kver", KVER, "--out", str(cls.out), check=True)
        cls.third_results = json.loads((cls.out / "results.json").read_text())

    @classmethod
    def progress_files(cls):
        return sorted(build.progress_file(cls.tree, cls.out, "").parent.glob(
            build.progress_file(cls.tree, cls.out, "").name.replace(".json", "*.json")))

    @classmethod
    def tearDownClass(cls):
        for path in cls.progress_files():
            path.unlink()
        shutil.rmtree(cls.out)

    def patch(self, n):
        """The n-th planted patch's record: the kept ones are in results, the others in unverified."""
        commit = self.written["patches"][n]["commit"]
        kept = [p for p in self.results["patches"] if p["name"] in self.results["build"]["verified"]]
        by_files = {p["files"][0]: p for p in kept}
        if self.written["patches"][n]["files"][0] in by_files:
            return by_files[self.written["patches"][n]["files"][0]]
        return dict(self.not_verified_records()[commit], verified=False,
                    reason=self.results["build"]["not_verified"][self.names[n]])

    def not_verified_records(self):
        """The build records of the patches not posted, from the saved progress of the whole series."""
        whole = next(p for p in self.progress if len(p["done"]) == len(self.names))
        return {w["commit"]: r for w, r in zip(self.written["patches"], whole["done"])}

    def test_good_patches_verified_on_both_architectures(self):
        for n in (0, 3, 4):
            p = self.patch(n)
            self.assertEqual(p["build"], {"arm": "ok", "x86_64": "ok"}, p)
            self.assertEqual(p["lines_compiled"], [1, 1], p)
            self.assertEqual(p["new_warnings"], [], p)
            self.assertTrue(p["verified"], p)

    def test_broken_build_is_isolated_with_compiler_error(self):
        p = self.patch(1)
        self.assertEqual(p["build"], {"arm": "failed", "x86_64": "failed"}, p)
        self.assertFalse(p["verified"])
        self.assertIn("SECS_PER_DAY_Y2038_UNDEFINED", " ".join(p["build_errors"]["x86_64"]))

    def test_line_no_configuration_compiles_is_named(self):
        p = self.patch(2)
        self.assertEqual(p["build"], {"arm": "ok", "x86_64": "ok"}, p)
        self.assertEqual(p["lines_compiled"][1] - p["lines_compiled"][0], 1, p)
        self.assertEqual(len(p["lines_not_compiled"]), 1)
        self.assertTrue(p["lines_not_compiled"][0].startswith("kernel/time/time.c:"), p)
        self.assertFalse(p["verified"])
        self.assertIn("not compiled", p["reason"])

    def test_warnings_the_file_had_before_are_not_new(self):
        for arch in ("x86_64", "arm"):
            before = self.progress[0]["before"][arch][WARNED_BEFORE[0]]
            self.assertTrue(before["messages"], f"{arch}: the premise, W=1 warnings before the patch")
        self.assertEqual(self.patch(4)["new_warnings"], [])

    def test_added_warning_is_named_per_architecture(self):
        p = self.patch(5)
        self.assertFalse(p["verified"])
        self.assertIn("new warnings", p["reason"])
        for arch in ("x86_64", "arm"):
            # named from the source tree, as the reader finds it, whatever gcc's working directory
            self.assertTrue([w for w in p["new_warnings"]
                             if re.match(rf"{arch}: kernel/time/timecounter\.c:\d+:\d+: warning: no previous "
                                         r"prototype for \W?y2038_planted_no_prototype", w)], p)

    def test_verified_series_holds_only_verified_patches(self):
        build = self.results["build"]
        self.assertEqual(build["verified"], [p["name"] for p in self.results["patches"]])
        self.assertEqual([p["files"] for p in self.results["patches"]], [[GOOD[0]], [GOOD_LATER[0]], [WARNED_BEFORE[0]]])
        self.assertEqual(sorted(build["not_verified"]), [self.names[1], self.names[2], self.names[5]])
        changed = subprocess.run(["git", "diff", "--name-only", build["baseline"], build["verified_head"]],
                                 env=dict(os.environ, GIT_DIR=str(self.tree.git_dir)), check=True,
                                 text=True, stdout=subprocess.PIPE).stdout.split()
        self.assertEqual(sorted(changed), sorted([GOOD[0], GOOD_LATER[0], WARNED_BEFORE[0]]))

    def test_patches_not_verified_are_not_posted(self):
        posting = sorted(p.name for p in (self.out / "01-t").glob("*.patch"))
        self.assertEqual(posting, ["0000-cover-letter.patch"] + [Path(n).name for n in self.results["build"]["verified"]])
        self.assertTrue(all(re.match(r"000[1-3]-", Path(n).name) for n in self.results["build"]["verified"]))
        held = sorted(p.name for p in (self.out / "unverified").glob("*.patch"))
        self.assertEqual(held, sorted(self.names[n].replace("/", "-") for n in (1, 2, 5)))
        readme = (self.out / "unverified" / "README").read_text()
        for n in (1, 2, 5):
            self.assertIn(f"{self.names[n].replace('/', '-')}: {self.results['build']['not_verified'][self.names[n]]}",
                          readme)
        self.assertEqual((self.out / "series").read_text().split(), self.results["build"]["verified"])
        for name in self.results["build"]["verified"]:  # renumbered: 1/3 .. 3/3
            self.assertRegex((self.out / name).read_text(), r"Subject: \[DRAFT PATCH [1-3]/3\]")

    def test_cover_letter_describes_only_what_is_posted(self):
        cover = (self.out / "01-t" / "0000-cover-letter.patch").read_text()
        self.assertIn("changed lines seen by the compiler: 3 of 3", cover)
        self.assertIn("x86_64 3 built", cover)
        for n in (1, 2, 5):
            self.assertNotIn(Path(self.names[n]).name, cover)
        self.assertNotIn("Build verification: not run yet", cover)

    def test_patches_built_before_are_not_compiled_again(self):
        self.assertIn("unchanged (same diffs, same headers before them): 3 verified", self.third.stderr)
        self.assertNotIn("done in", self.third.stderr)
        for before, after in zip(self.results["patches"], self.third_results["patches"]):
            for key in build.BUILD_PATCH_KEYS:
                self.assertEqual(before.get(key), after.get(key), key)

    def test_second_run_resumes_without_building(self):
        self.assertIn("resuming after 3 of 3 patches", self.second.stderr)
        self.assertEqual(json.loads((self.out / "results.json").read_text())["patches"], self.results["patches"])


@unittest.skipUnless(TARBALL.exists(), f"{TARBALL} is not installed (make deps installs it)")
class DistccBuild(unittest.TestCase):
    """`build --distcc` hands the compiles to distcc's hosts: here a distccd
    on localhost, which logs every compile it did."""

    def test_compiles_go_to_the_distcc_host(self):
        run_cli("tree", "--kver", KVER, check=True)
        tree = tree_stage.load(KVER)
        forget_build_results(tree)
        self.assertTrue(shutil.which("distccd"), "distccd not installed (make test installs distcc)")
        with tempfile.TemporaryDirectory(prefix="y2038-distcc-") as tmp:
            tmp = Path(tmp)
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            with open(tmp / "distccd.log", "w") as log:
                daemon = subprocess.Popen(["distccd", "--no-detach", "--daemon", "--allow", "127.0.0.1",
                                           "--listen", "127.0.0.1", "--port", str(port), "--jobs", "2",
                                           "--log-stderr", "--log-level", "info"],
                                          stdout=log, stderr=subprocess.STDOUT)
            try:
                names = planted_series(tree, tmp / "series", [GOOD])
                # an empty ccache: every compile reaches distcc
                env = {"DISTCC_HOSTS": f"127.0.0.1:{port}/2", "Y2038_CCACHE_DIR": str(tmp / "ccache")}
                proc = run_cli("build", "--kver", KVER, "--out", str(tmp / "series"), "--distcc", env=env)
            finally:
                daemon.terminate()
                daemon.wait(10)
                for path in (tree.state / "build").glob(build.progress_file(tree, tmp / "series", "").name
                                                          .replace(".json", "*.json")):
                    path.unlink()
            self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
            self.assertIn(f"compiling through distcc: 127.0.0.1:{port}/2 (-j2)", proc.stderr)
            results = json.loads((tmp / "series" / "results.json").read_text())
            self.assertEqual(results["build"]["verified"], names)
            done = [l for l in (tmp / "distccd.log").read_text().splitlines()
                    if "COMPILE_OK" in l and "kernel/time/itimer.c" in l]
            for compiler in ("/arm-linux-gnueabihf-gcc ", "/gcc "):
                self.assertTrue([l for l in done if compiler in l], f"no {compiler!r} compile in the log: {done}")
