# SPDX-License-Identifier: GPL-2.0-only
"""Stage logic on recorded outputs (tests/recorded.py): the apply stage's
reading of spatch's log and its cache, the build stage's reading of make's
output; no spatch, make or QEMU runs."""
import hashlib
import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock
from pathlib import Path
from types import SimpleNamespace

from helpers import REPO
from recorded import recorded
from y2038lib.engine import apply, layout, rules, spatch
from y2038lib.verification import build

# a patch rule of the catalogue: only its path and options reach the recorded spatch
# (a rule with probes would run as a copy: tests/test_messages.py has those)
RULE = next(r for r in map(rules.parse_rule, sorted(REPO.glob("cocci/*/*.cocci")))
            if r.patch_mode and not r.probed and not r.needs_types)  # spatch on batches of files, no probes


def batch_spatch(cmd, how):
    """spatch --file-groups as it answers: a.c changed (two lines it could not
    parse), b.c timed out, c.c not reached before the process ended."""
    (Path(how["cwd"]) / "a.c.cocci_res").write_text("int after;\n")
    return 0, ("init_defs_builtins: /usr/lib/coccinelle/standard.h\n"
               "HANDLING: a.c\nbadcount: 2\n"
               "HANDLING: b.c\nEXN: Common.Timeout in b.c\n")


class SpatchLog(unittest.TestCase):
    def test_a_batch_is_read_per_file_and_a_file_not_reached_runs_alone(self):
        inputs = {"a.c": b"int before;\n", "b.c": b"int b;\n", "c.c": b"int c;\n"}
        with recorded((spatch.spatch_command("--sp-file", str(RULE.path), "-D", "patch", "--parse-error-msg",
                                             "--timeout", "5", *RULE.options, "--file-groups"), batch_spatch),
                      (["spatch"], (1, "Skipping: c.c\n"))) as commands:
            results = spatch.run_spatch_batch(RULE, inputs, 5)
        self.assertEqual(results["a.c"], {"status": "changed", "unparsed_lines": 2, "output": b"int after;\n"})
        self.assertEqual(results["b.c"], {"status": "timeout", "detail": "spatch --timeout 5 expired"})
        self.assertEqual(results["c.c"], {"status": "unchanged", "unparsed_lines": 0})
        self.assertEqual(len(commands.calls), 2)
        self.assertEqual(commands.calls[1][-3:], ["c.c", "-o", commands.calls[1][-1]])

    def test_spatch_is_given_the_systems_python(self):
        """Not the first python3 on PATH, which spatch asks otherwise at
        every start (pyenv's shims there cost 1.4 s of CPU a run)."""
        with mock.patch.object(spatch, "SYSTEM_PYTHON", Path("/bin/sh")):
            self.assertEqual(spatch.spatch_command("--version"), ["spatch", "--python", "/bin/sh", "--version"])
        with mock.patch.object(spatch, "SYSTEM_PYTHON", Path("/nonexistent/python3")):
            self.assertEqual(spatch.spatch_command("--version"), ["spatch", "--version"])

    def test_a_failure_keeps_the_last_lines_of_the_log(self):
        log = "init_defs_builtins: x\nHANDLING: a.c\nparse error\n  line 3\nFatal error: ouch\n"
        with recorded((["spatch"], (1, log))):
            result = spatch.run_spatch(RULE, "a.c", b"int a;\n", 5)
        self.assertEqual(result, {"status": "failed", "detail": "parse error |   line 3 | Fatal error: ouch"})

    def test_a_killed_spatch_is_a_timeout(self):
        with recorded((["spatch"], "timeout")):
            result = spatch.run_spatch(RULE, "a.c", b"int a;\n", 5)
        self.assertEqual(result, {"status": "timeout", "detail": "spatch killed after 65 s"})


class ApplierCache(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="y2038-units-"))
        self.addCleanup(shutil.rmtree, self.scratch)
        (self.scratch / "src").mkdir()
        (self.scratch / "src" / "a.c").write_text("int before;\n")
        os.environ["Y2038_SPATCH_CACHE"] = str(self.scratch / "cache")
        self.addCleanup(os.environ.pop, "Y2038_SPATCH_CACHE")
        self.tree = SimpleNamespace(src=self.scratch / "src", baseline="0" * 40)

    def run_rule(self):
        with recorded((["spatch", "--version"], (0, "spatch version 1.1.1\n")),
                      (["spatch"], batch_spatch)) as commands:
            applier = apply.Applier(self.tree, jobs=1, timeout=5)
            return applier.run_rule(RULE, ["a.c"]), applier, commands

    def test_a_result_is_cached_and_comes_back_with_its_layout(self):
        first, applier, _ = self.run_rule()
        self.assertEqual((applier.spatch_runs, applier.cache_hits), (1, 0))
        # kept with its layout restored: a hit is not compared with its input again
        with mock.patch.object(layout, "with_layout", side_effect=AssertionError("laid out again")):
            again, applier, commands = self.run_rule()
        self.assertEqual((applier.spatch_runs, applier.cache_hits), (0, 1))
        self.assertEqual([c[:2] for c in commands.calls], [["spatch", "--version"]])
        self.assertEqual(again, first)
        self.assertEqual(again["a.c"]["output"], b"int after;\n")
        self.assertEqual(again["a.c"]["input"], b"int before;\n")

    def test_a_rule_that_reads_headers_runs_once_per_architecture(self):
        """The include paths are the architecture's (spatch finds a file's
        own headers beside it): files of many directories share a spatch
        process (its start costs a second of CPU for such a rule); out-of-tree
        code, whose own directory is on the path, one per directory."""
        typed = next(r for r in map(rules.parse_rule, sorted(REPO.glob("cocci/*/*.cocci"))) if r.needs_types)
        files = ["drivers/a/x.c", "drivers/a/y.c", "drivers/b/z.c", "arch/arm/kernel/w.c"]
        for relpath in files:
            (self.tree.src / relpath).parent.mkdir(parents=True, exist_ok=True)
            (self.tree.src / relpath).write_text("int x;\n")

        def handled(cmd, how):
            groups = Path(cmd[cmd.index("--file-groups") + 1]).read_text().split()
            return 0, "".join(f"HANDLING: {f}\n" for f in groups)

        def processes(own_directory):
            with recorded((["spatch", "--version"], (0, "spatch version 1.1.1\n")),
                          (["spatch"], handled)) as commands:
                applier = apply.Applier(self.tree, jobs=2, timeout=5)
                applier.own_directory_includes = own_directory
                results = applier.run_rule(typed, files)
            self.assertEqual({f: r["status"] for f, r in results.items()}, dict.fromkeys(files, "unchanged"))
            return sorted((c[c.index("-I") + 1], Path(c[c.index("--file-groups") + 1]).name) for c in commands.calls
                          if c[:2] != ["spatch", "--version"])
        self.assertEqual([d for d, _ in processes(False)],
                         [str(self.tree.src / "arch/arm/include"), str(self.tree.src / "arch/x86/include")])
        self.assertEqual([d for d, _ in processes(True)], [str(self.tree.src / d) for d in
                                                            ("arch/arm/kernel", "drivers/a", "drivers/b")])
        # a rule whose python keeps what it saw by name has a process per file
        by_name = next(r for r in map(rules.parse_rule, sorted(REPO.glob("cocci/*/*.cocci"))) if r.one_file_per_process)
        with recorded((["spatch", "--version"], (0, "spatch version 1.1.1\n")), (["spatch"], handled)) as commands:
            apply.Applier(self.tree, jobs=2, timeout=5).run_rule(by_name, files)
        self.assertEqual(len([c for c in commands.calls if c[:2] != ["spatch", "--version"]]), 4)

    def test_another_spatch_version_is_another_key(self):
        cache = spatch.SpatchCache(self.scratch / "cache", "spatch version 1.1.1")
        other = spatch.SpatchCache(self.scratch / "cache", "spatch version 1.2")
        self.assertNotEqual(cache.key(RULE, "a.c", b"x"), other.key(RULE, "a.c", b"x"))
        self.assertNotEqual(cache.key(RULE, "a.c", b"x"), cache.key(RULE, "a.c", b"y"))
        self.assertNotEqual(cache.key(RULE, "a.c", b"x"), cache.key(RULE, "b.c", b"x"))


def make_answer(out: Path):
    """make -k -Otarget of three units, as kbuild prints it out of tree with
    CCACHE_BASEDIR: a.c builds with a warning, b.c fails, arch/foo/c.c is in
    no Makefile of this architecture."""
    def answer(cmd, how):
        (out / "kernel/time").mkdir(parents=True, exist_ok=True)
        (out / "kernel/time/a.o").write_text("")
        (out / "kernel/time/a.i").write_text('# 1 "kernel/time/a.c"\nint a;\n\nint b;\n')
        return 2, ("  CC      kernel/time/a.o\n"
                   "../src/kernel/time/a.c:3:5: warning: unused variable 'x' [-Wunused-variable]\n"
                   "  CPP     kernel/time/a.i\n"
                   "  CC [M]  drivers/x/b.o\n"
                   "../src/drivers/x/b.c:7:9: error: implicit declaration of function 'f'\n"
                   "make[3]: *** [scripts/Makefile.build:250: drivers/x/b.o] Error 1\n"
                   "make[1]: *** No rule to make target 'arch/foo/c.o'.  Stop.\n")
    return answer


class MakeOutput(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="y2038-units-"))
        self.addCleanup(shutil.rmtree, self.scratch)
        os.environ["Y2038_CCACHE_DIR"] = str(self.scratch / "ccache")
        self.addCleanup(os.environ.pop, "Y2038_CCACHE_DIR")
        tree = SimpleNamespace(state=self.scratch, src=self.scratch / "kernel", baseline="0" * 40)
        self.builder = build.Builder(tree, jobs=1)

    def test_each_unit_gets_its_own_verdict(self):
        arch = build.ARCHES["x86_64"]
        out = self.builder.root / arch.name
        with recorded((["make", "-k", "-Otarget"], make_answer(out))):
            result = self.builder.compile(arch, ["kernel/time/a.c", "drivers/x/b.c", "arch/foo/c.c"])
        self.assertEqual(result["kernel/time/a.c"], {
            "status": "ok", "messages": ["kernel/time/a.c:3:5: warning: unused variable 'x' [-Wunused-variable]"],
            "lines": {"kernel/time/a.c": {1, 3}}})
        self.assertEqual(result["drivers/x/b.c"], {
            "status": "failed", "messages": ["drivers/x/b.c:7:9: error: implicit declaration of function 'f'"]})
        self.assertEqual(result["arch/foo/c.c"]["status"], "not-built")


class GitOfTheRun(unittest.TestCase):
    def test_a_commit_starts_no_repack(self):
        """The baseline commit leaves ~75,000 loose objects: `git gc --auto`
        after each later commit would repack them all in the background
        while the run compiles.  The repository here asks for a repack after
        two loose objects, in the foreground, so that the control commit
        (the user's environment) shows it would happen."""
        from y2038lib.common import git_env

        def in_17(name):
            """Content whose blob is in objects/17/: git counts loose objects there."""
            n = 0
            while not hashlib.sha1(f"blob {len(f'{name}{n}')}\0{name}{n}".encode()).hexdigest().startswith("17"):
                n += 1
            return f"{name}{n}"

        with tempfile.TemporaryDirectory() as d:
            def commit(env, name):
                (Path(d) / name).write_text(in_17(name))
                for args in (["add", name], ["commit", "-qm", name]):
                    subprocess.run(["git", *args], cwd=d, env=env, check=True, capture_output=True)
                return list((Path(d) / ".git" / "objects" / "pack").glob("*.pack"))

            env = git_env()
            subprocess.run(["git", "init", "-q", d], env=env, check=True)
            for key, value in (("gc.auto", "1"), ("gc.autoDetach", "false"), ("gc.autoPackLimit", "1")):
                subprocess.run(["git", "config", key, value], cwd=d, env=env, check=True)
            self.assertEqual(commit(env, "a"), [])
            self.assertEqual(commit(env, "b"), [])
            with mock.patch.dict(os.environ, {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name",
                                              "GIT_CONFIG_VALUE_0": "Caller"}):
                given = git_env()  # a setting the caller gives git this way is kept
            self.assertEqual([given[f"GIT_CONFIG_{k}_{n}"] for n in (0, 1) for k in ("KEY", "VALUE")],
                             ["user.name", "Caller", "gc.auto", "0"])
            user = {k: v for k, v in env.items() if k not in ("GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
                                                              "GIT_CONFIG_VALUE_0")}
            self.assertNotEqual(commit(user, "c"), [], "the control commit did not repack: the test shows nothing")


if __name__ == "__main__":
    unittest.main()
