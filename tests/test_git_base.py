# SPDX-License-Identifier: GPL-2.0-only
"""A series made on a git checkout: base-commit is the checkout's HEAD and
the user's repository is only read; the coccinelle-rule/ posting adds the
ktime-direct rules to scripts/coccinelle/api/ in coccicheck's format, and
`tools/y2038 coccicheck` finds with them exactly what the series converts.

The planted checkout is a few files of Debian's 6.12 tarball (unpacked by
the tree stage) with a made-up history of two commits."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from helpers import REPO, make_mini_tree, run_cli
from y2038lib import tree
from y2038lib.posting import coccicheck_rule, covers
from y2038lib.records import Posting, SeriesResults

TARBALL = Path("/usr/src/linux-source-6.12.tar.xz")  # make test's deps install it


def packaged_source() -> Path:
    """The unpacked 6.12 tree, unpacked by the tree stage if no test did yet."""
    run_cli("tree", "--kver", "6.12", check=True)
    return tree.load("6.12").src
# what the tree stage, get_maintainer.pl, checkpatch.pl and make coccicheck need, and four files with sites
PLANTED = ["Makefile", "MAINTAINERS", "scripts/get_maintainer.pl", "scripts/checkpatch.pl", "scripts/spelling.txt",
           "scripts/const_structs.checkpatch", "scripts/coccicheck", "scripts/Kbuild.include",
           "scripts/subarch.include", "scripts/Makefile.extrawarn", "arch/x86/Makefile",
           "scripts/coccinelle/api/kvmalloc.cocci", "include/linux/ktime.h", "include/linux/kconfig.h",
           "include/linux/compiler-version.h", "drivers/net/ethernet/cadence/macb_ptp.c",
           "kernel/time/timer_list.c", "drivers/input/keyboard/adp5588-keys.c",
           # get_maintainer.pl's test of a kernel tree
           "COPYING", "CREDITS", "Kbuild", "README", "Documentation/Makefile", "fs/Makefile", "init/Makefile",
           "ipc/Makefile", "lib/Makefile"]
SECOND_COMMIT = "drivers/media/test-drivers/vidtv/vidtv_psi.c"
USER_ENV = dict(os.environ, GIT_AUTHOR_NAME="U", GIT_AUTHOR_EMAIL="u@example.org", GIT_COMMITTER_NAME="U",
                GIT_COMMITTER_EMAIL="u@example.org", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
                GIT_COMMITTER_DATE="2026-01-01T00:00:00Z", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")


def git(checkout: Path, *args) -> str:
    return subprocess.run(["git", "-C", str(checkout), *args], env=USER_ENV, check=True, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout


def user_state(checkout: Path) -> dict:
    """Everything of the user's repository a run could change: refs, HEAD, index, work tree, worktrees."""
    return {"refs": git(checkout, "for-each-ref"), "head": git(checkout, "symbolic-ref", "HEAD"),
            "status": git(checkout, "status", "--porcelain", "-uall"), "diff": git(checkout, "diff"),
            "staged": git(checkout, "diff", "--cached"), "worktrees": git(checkout, "worktree", "list"),
            "objects": git(checkout, "count-objects", "-v"),
            "files": sorted(str(p.relative_to(checkout)) for p in checkout.rglob("*") if ".git" not in p.parts)}


@unittest.skipUnless(TARBALL.is_file(), f"{TARBALL} missing (make test installs linux-source-6.12)")
class GitCheckoutBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-gitbase-"))
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)
        cls.checkout = cls.tmp / "net-next"
        packaged = packaged_source()
        for relpath in PLANTED + [SECOND_COMMIT]:
            (cls.checkout / relpath).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(packaged / relpath, cls.checkout / relpath)
        git(cls.checkout, "init", "-q", "-b", "main")
        git(cls.checkout, "add", *PLANTED)
        git(cls.checkout, "commit", "-q", "-m", "planted Linux 6.12")
        git(cls.checkout, "tag", "v6.12-planted")
        git(cls.checkout, "add", SECOND_COMMIT)
        git(cls.checkout, "commit", "-q", "-m", "media: vidtv: planted")
        cls.head = git(cls.checkout, "rev-parse", "HEAD").strip()
        # the user's own work in progress: a staged file, an edit, an untracked file
        (cls.checkout / "NOTES").write_text("staged\n")
        git(cls.checkout, "add", "NOTES")
        macb = cls.checkout / "drivers/net/ethernet/cadence/macb_ptp.c"
        macb.write_text(macb.read_text().replace("/* 1. get current system time */", "/* edited */"))
        (cls.checkout / "scratch.txt").write_text("untracked\n")
        cls.before = user_state(cls.checkout)
        cls.env = {"Y2038_WORK": str(cls.tmp / "work")}
        cls.out = cls.tmp / "series"
        for stage in (["tree"], ["apply", "--campaign", "ktime-direct", "--jobs", "2"],
                      ["series", "--draft", "--out", str(cls.out)]):
            run_cli(stage[0], "--kver", str(cls.checkout), *stage[1:], env=cls.env, check=True)

    def test_base_commit_is_the_checkouts_head(self):
        covers_written = sorted(self.out.rglob(covers.COVER_NAME))  # format-patch puts it in the cover letter
        # tip, Input and media, and the rule posting; netdev takes no clean-ups (held)
        self.assertEqual(len(covers_written), 4)
        for mail in covers_written:
            self.assertEqual(re.findall(r"(?m)^base-commit: (\w+)$", mail.read_text()), [self.head], mail)

    def test_the_users_branch_index_and_work_tree_are_untouched(self):
        self.assertEqual(user_state(self.checkout), self.before)

    def test_a_posting_applies_to_a_clone_of_the_head(self):
        """What a maintainer does: fetch base-commit, git am (the user's edit is not in the baseline)."""
        clone = self.tmp / "maintainer"
        subprocess.run(["git", "clone", "-q", str(self.checkout), str(clone)], env=USER_ENV, check=True)
        posting = self.out / "dtor-input"
        git(clone, "am", "-q", *[str(p) for p in sorted(posting.glob("0*.patch"))[1:]])
        self.assertRegex((clone / "drivers/input/keyboard/adp5588-keys.c").read_text(), r"ktime_(us|ms)_delta\(")

    def test_the_cover_letter_names_the_base(self):
        cover = (self.out / "dtor-input" / covers.COVER_NAME).read_text()
        self.assertIn(f"Base: v6.12-planted-1-g{self.head[:12]} (the base-commit line below).", cover)

    def rule_patches(self):
        return sorted((self.out / coccicheck_rule.FOLDER).glob("00[0-9][1-9]-*.patch"))

    def test_the_rule_posting_adds_each_rule_that_fired_in_coccichecks_format(self):
        added = {}
        for patch in self.rule_patches():
            text = patch.read_text()
            self.assertRegex(text, r"(?m)^To: Julia Lawall <Julia.Lawall@inria.fr>,\n    Nicolas Palix <nicolas.palix@imag.fr>$")
            self.assertRegex(text, r"(?m)^Cc: cocci@inria.fr")
            path = re.search(r"(?m)^\+\+\+ b/(\S+)$", text).group(1)
            added[path] = rule = coccicheck_rule.added_file(text)
            self.assertTrue(rule.startswith("// SPDX-License-Identifier: GPL-2.0-only\n/// "), path)
            for header in ("Confidence", "Copyright", "Comments"):
                self.assertRegex(rule, rf"(?m)^// {header}: \S", path)
            self.assertIn("\n// Options: --no-includes --include-headers\n", rule)
            self.assertNotRegex(rule, r"(?m)^// (Scope|Exclude|Introduced|Removed|Keywords|Prefilter-regex|Subject|Sites):")
            for mode in ("patch", "context", "org", "report"):
                self.assertIn(f"\nvirtual {mode}\n", rule)
        self.assertEqual(sorted(added), ["scripts/coccinelle/api/ktime_delta.cocci",
                                         "scripts/coccinelle/api/ktime_get_ns.cocci",
                                         "scripts/coccinelle/api/ktime_get_ts64.cocci"])

    def test_each_mode_of_an_emitted_rule_runs(self):
        """spatch -D patch/context/org/report with the emitted rule on its test input."""
        for patch in self.rule_patches():
            rule = self.tmp / Path(patch.name).with_suffix(".cocci").name
            rule.write_text(coccicheck_rule.added_file(patch.read_text()))
            name = re.search(r"scripts/coccinelle/api/(\w+)\.cocci", patch.read_text()).group(1)
            for mode, shows in (("patch", "\n+"), ("context", "\n-"), ("org", "* TODO"), ("report", "WARNING")):
                proc = subprocess.run(["nice", "spatch", "--very-quiet", "-D", mode, "--cocci-file", str(rule),
                                       str(REPO / "cocci/ktime-direct" / f"{name}.c")],
                                      text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                self.assertEqual(proc.returncode, 0, proc.stdout)
                self.assertIn(shows, proc.stdout, f"{name} -D {mode}")

    def test_coccicheck_finds_exactly_what_the_series_converts(self):
        proc = run_cli("coccicheck", "--kver", str(self.checkout), "--out", str(self.out), "--jobs", "1",
                       env=self.env)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        cover = (self.out / coccicheck_rule.FOLDER / covers.COVER_NAME).read_text()
        # ktime_get_ns: timer_list.c 2; ktime_delta: adp5588-keys.c; ktime_get_ts64: vidtv_psi.c (macb_ptp.c's
        # clean-up is held: netdev takes none, so it is in no posting and no count)
        for rule, sites in (("ktime_delta", 1), ("ktime_get_ns", 2), ("ktime_get_ts64", 1)):
            self.assertIn(f"  {rule}.cocci: exact: {sites} run{'s' * (sites > 1)} of changed lines in the series, "
                          f"{sites} report{'s' * (sites > 1)} (one a line) before, 0 after", cover)
        self.assertEqual(user_state(self.checkout), self.before)


class HeadMoves(unittest.TestCase):
    def test_a_new_head_is_a_new_baseline_and_an_unchanged_one_is_reused(self):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-headmove-"))
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        checkout = make_mini_tree(tmp / "linux", {"drivers/a.c": "int a;\n", "kernel/k.c": "", "include/linux/x.h": ""})
        git(checkout, "init", "-q")
        git(checkout, "add", "-A")
        git(checkout, "commit", "-qm", "one")
        env = {"Y2038_WORK": str(tmp / "work")}
        for n in (1, 2):
            if n == 2:
                (checkout / "drivers/a.c").write_text("int b;\n")
                git(checkout, "commit", "-qam", "two")
            head = git(checkout, "rev-parse", "HEAD").strip()
            self.assertIn(f"(baseline {head[:12]})", run_cli("tree", "--kver", str(checkout), env=env, check=True).stdout)
        (checked_out,) = (tmp / "work").glob("git-linux-*/checkout/drivers/a.c")
        self.assertEqual(checked_out.read_text(), "int b;\n")
        self.assertIn("reusing", run_cli("tree", "--kver", str(checkout), env=env, check=True).stderr)


class Forms(unittest.TestCase):
    def test_a_tarball_base_says_so_and_how_to_make_the_posting_again(self):
        results = SeriesResults(version="6.1.192", baseline="0" * 40, draft=True, source="linux-source-6.1.tar.xz",
                                campaigns=[], postings=[], patches=[],
                                base={"kind": "tarball", "package": "linux-source-6.1"})
        posting = Posting(dir="netdev-net-next", tree="git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git",
                          prefix="net", part=1, of=1, route=[], to=[], cc=[], patches=[])
        text = covers.base_section(results, posting)
        self.assertIn("Debian's linux-source-6.1 (Linux 6.1.192, stable point release 192)", " ".join(text.split()))
        self.assertIn("no upstream tree has", " ".join(text.split()))
        self.assertIn("\n  make series KVER=/path/to/netdev-net-next SIGNOFF='Name <email>'", text)
        posting.fix, posting.mail_prefix = True, "PATCH 6.1"  # a fix for the stable tree: made on linux-6.1.y
        self.assertIn("\n  make series KVER=/path/to/linux-6.1.y SIGNOFF='Name <email>'", covers.base_section(results, posting))

    def test_exact_means_every_change_reported_every_report_a_change_none_after(self):
        changes = {"a.c": [[10, 11], [20, 20]]}
        self.assertEqual(coccicheck_rule.verdict(changes, {"a.c": [10, 20]}, {})["verdict"], "exact")
        self.assertEqual(coccicheck_rule.verdict(changes, {"a.c": [11, 20, 30]}, {})["problems"],
                         ["a.c:30: reported, not changed by the series"])
        self.assertEqual(coccicheck_rule.verdict(changes, {"a.c": [10]}, {"b.c": [5]})["problems"],
                         ["a.c:20-20: changed by the series, not reported",
                          "b.c: still reported after the series, lines 5"])

    def test_a_change_is_a_run_of_changed_lines_holding_a_line_the_rule_removed(self):
        before = b"a\nx = ktime_to_ns(ktime_get());\nb\nc\nstruct timespec64 ts;\n"
        after = b"a\nx = ktime_get_ns();\nb\nc\n"
        self.assertEqual(coccicheck_rule.rule_changes(before, after, ["x = ktime_to_ns(ktime_get());"]), [[2, 2]])

    def test_kernel_form_keeps_the_kernels_headers_and_drops_the_toolkits(self):
        rule = (REPO / "cocci/ktime-direct/ktime_get_ns.cocci").read_text()
        form = coccicheck_rule.kernel_form(rule)
        self.assertIn("// Comments: ktime_get_mono_fast_ns()", form)
        self.assertIn("//  different clocks and are not produced.", form)  # a continuation line of Comments:
        self.assertNotIn("Prefilter-regex", form)
        self.assertNotIn("3.17 ktime_get_ns", form)  # Introduced:
        self.assertEqual(form.split("\nvirtual patch\n", 1)[1], rule.split("\nvirtual patch\n", 1)[1])


if __name__ == "__main__":
    unittest.main()
