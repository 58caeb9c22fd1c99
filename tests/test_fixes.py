# SPDX-License-Identifier: GPL-2.0-only
"""posting/fixes.py: what a fix's message says, from its own diff and the
newest packaged kernel's code (no kernel tree, no spatch), and the Fixes:
line a git checkout's history gives (a planted repository)."""
import os
import subprocess
import tempfile
import unittest
import unittest.mock
from pathlib import Path

import helpers
helpers.put_tools_on_path()
from y2038lib.posting import fixes  # noqa: E402
from y2038lib.tree import Tree  # noqa: E402

# The shape of 6.1.192's gss_verify_mic_v1(), before and after the fix
BEFORE = """static u32
gss_verify_mic_v1(struct krb5_ctx *ctx,
\t\tstruct xdr_buf *message_buffer, struct xdr_netobj *read_token)
{
\tint\t\t\tsignalg;
\ts32\t\t\tnow;
\tint\t\t\tdirection;

\tnow = ktime_get_real_seconds();
\tif (now > ctx->endtime)
\t\treturn GSS_S_CONTEXT_EXPIRED;
\treturn GSS_S_COMPLETE;
}
"""
AFTER = BEFORE.replace("\ts32\t\t\tnow;", "\ttime64_t\t\tnow;")


class FixMessage(unittest.TestCase):
    def test_the_widened_declaration_and_its_function_come_from_the_diff(self):
        self.assertEqual(fixes.widened(BEFORE, AFTER),
                         [fixes.Widened("gss_verify_mic_v1", "now", "s32", "time64_t")])
        self.assertEqual(fixes.widened(BEFORE, BEFORE), [])

    def test_what_upstream_has(self):
        change = fixes.widened(BEFORE, AFTER)[0]
        relpath = "net/sunrpc/auth_gss/gss_krb5_unseal.c"
        gone = fixes.upstream_status(change, relpath, "u32\ngss_krb5_verify_mic_v2(void)\n{\n}\n", "6.12.118")
        self.assertIn("no longer has gss_verify_mic_v1(): upstream removed the code", gone)
        self.assertIn("backport of that change", fixes.upstream_status(change, relpath, AFTER, "6.12.118"))
        self.assertIn("fix is needed upstream too", fixes.upstream_status(change, relpath, BEFORE, "6.12.118"))
        self.assertIn(f"has no {relpath}", fixes.upstream_status(change, relpath, None, "6.12.118"))

    def test_stable_form_on_an_older_tree_only(self):
        self.assertEqual(fixes.trailers("6.1.192"), ["Cc: stable@vger.kernel.org"])
        # the newest packaged tree is a stable point release too: its stable series has the bug
        self.assertEqual(fixes.trailers("6.12.118"), ["Cc: stable@vger.kernel.org"])
        self.assertEqual(fixes.trailers("6.19.0"), [])  # a maintainer's checkout
        self.assertEqual(fixes.posting_subject_prefix("6.1.192", "", False), "PATCH 6.1")
        self.assertEqual(fixes.posting_subject_prefix("6.1.192", "netdev", True), "DRAFT PATCH 6.1")
        self.assertEqual(fixes.posting_subject_prefix("6.12.118", "netdev", False), "PATCH net")
        self.assertEqual(fixes.posting_subject_prefix("6.12.118", "", False), "PATCH")

    def test_a_wrapped_interval_is_said_with_its_value(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp)
            (src / "drv").mkdir()
            (src / "drv" / "drv.h").write_text("#define DRV_SEC_MIN\t\t60UL\n#define DRV_SMALL 4\n")
            before = ("static void\nstart(struct drv *d)\n{\n\tarm(ktime_set(0, DRV_SEC_MIN * NSEC_PER_SEC));\n"
                      "\tarm(ktime_set(0, DRV_SMALL * NSEC_PER_SEC));\n}\n")
            after = before.replace("ktime_set(0, DRV_SEC_MIN * NSEC_PER_SEC)", "ktime_set(DRV_SEC_MIN, 0)")
            self.assertEqual(fixes.wrapped_seconds(src, "drv/drv.c", before, after),
                             ["DRV_SEC_MIN is 60, so on 32-bit machines ktime_set(0, DRV_SEC_MIN * NSEC_PER_SEC) in "
                              "start() is 60000000000 mod 2^32 = 4165425152 ns (4.17 s) instead of 60 s."])
            self.assertEqual(fixes.wrapped_seconds(src, "drv/drv.c", before, before), [])

    def test_an_older_trees_fix_goes_to_the_stable_maintainers(self):
        class Maint:
            def section(self, name):
                return {"name": name, "M": ["Greg <g@example.org>", "Sasha <s@example.org>"],
                        "L": ["stable@vger.kernel.org"], "T": []} if name == "STABLE BRANCH" else None
        subsystem = [{"address": "Chuck <c@example.org>", "role": "maintainer:NFSD", "to": True},
                     {"address": "linux-nfs@vger.kernel.org", "role": "open list:NFSD", "to": False}]
        found = fixes.stable_recipients(Maint(), subsystem)
        self.assertEqual([(r["address"], r["to"]) for r in found],
                         [("Greg <g@example.org>", True), ("Sasha <s@example.org>", True),
                          ("stable@vger.kernel.org", False), ("Chuck <c@example.org>", False),
                          ("linux-nfs@vger.kernel.org", False)])


# lpfc_cmf_start()'s shape in 6.12, before and after the fix; the history
# planted below introduces the removed line in its second commit
LPFC_OLD = "\thrtimer_start(&phba->cmf_stats_timer,\n\t\t      ktime_set(0, LPFC_SEC_MIN * NSEC_PER_SEC),\n"
LPFC_NEW = LPFC_OLD.replace("ktime_set(0, LPFC_SEC_MIN * NSEC_PER_SEC)", "ktime_set(LPFC_SEC_MIN, 0)")
LPFC_FILE = "drivers/scsi/lpfc/lpfc_init.c"
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.org", GIT_COMMITTER_NAME="A",
               GIT_COMMITTER_EMAIL="a@example.org", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")


class FixesLine(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="y2038-fixes-")
        self.addCleanup(tmp.cleanup)
        self.checkout = Path(tmp.name)
        self.commits = [self.commit(LPFC_FILE, "/* lpfc */\n", "scsi: lpfc: Add the driver"),
                        self.commit(LPFC_FILE, "/* lpfc */\n" + LPFC_OLD, "scsi: lpfc: Add CMF statistics timer"),
                        self.commit("MAINTAINERS", "", "MAINTAINERS: unrelated")]

    def git(self, *args) -> str:
        return subprocess.run(["git", "-C", str(self.checkout), *args], env=GIT_ENV, check=True, text=True,
                              stdout=subprocess.PIPE).stdout.strip()

    def commit(self, relpath, text, subject) -> str:
        if not (self.checkout / ".git").exists():
            self.git("init", "-q")
        (self.checkout / relpath).parent.mkdir(parents=True, exist_ok=True)
        (self.checkout / relpath).write_text(text)
        self.git("add", relpath)
        self.git("commit", "-q", "-m", subject)
        return self.git("rev-parse", "HEAD")

    def tree(self, kind) -> Tree:
        return Tree({"kind": kind, "src": str(self.checkout), "git_dir": str(self.checkout / ".git"),
                     "state": str(self.checkout), "version": "6.12.0", "baseline": self.commits[-1],
                     "source": str(self.checkout)})

    def diffs(self):
        before = ("/* lpfc */\n" + LPFC_OLD).encode()
        return {LPFC_FILE: (before, ("/* lpfc */\n" + LPFC_NEW).encode())}

    def test_the_commit_that_introduced_the_removed_line(self):
        self.assertEqual(fixes.faulty_parts(LPFC_OLD, LPFC_NEW), ["0, LPFC_SEC_MIN * NSEC_PER_SEC"])
        cited = f'{self.commits[1][:12]} ("scsi: lpfc: Add CMF statistics timer")'
        self.assertEqual(fixes.fixes_tags(self.tree("git"), self.diffs()), [f"Fixes: {cited}"])

    def test_the_commit_that_introduced_the_faulty_expression_though_its_line_changed_since(self):
        """perf's mux interval: the product came with the sysfs entry, the
        line around it was rewritten later (cpuctx became cpc)."""
        old_line = "\tcpuctx->iv = ns_to_ktime(NSEC_PER_MSEC * timer);\n"
        introduced = self.commit("kernel/events/core.c", old_line, "perf: Add the mux interval")
        self.commit("kernel/events/core.c", old_line.replace("cpuctx", "cpc"), "perf: Rework the contexts")
        self.commits.append(self.commit("MAINTAINERS", "x\n", "MAINTAINERS: unrelated too"))
        before = old_line.replace("cpuctx", "cpc")
        diffs = {"kernel/events/core.c": (before.encode(), before.replace("NSEC_PER_MSEC * timer",
                                                                          "ms_to_ktime(timer)").encode())}
        self.assertEqual(fixes.fixes_tags(self.tree("git"), diffs),
                         [f'Fixes: {introduced[:12]} ("perf: Add the mux interval")'])

    def test_no_fixes_line_from_a_tarball(self):
        self.assertEqual(fixes.fixes_tags(self.tree("tarball"), self.diffs()), [])

    def test_no_fixes_line_where_the_history_is_cut_short(self):
        """A shallow clone whose oldest commit already has the line: that
        commit did not introduce it."""
        (self.checkout / ".git" / "shallow").write_text(self.commits[1] + "\n")
        self.assertEqual(fixes.fixes_tags(self.tree("git"), self.diffs()), [])



class NewerFiles(unittest.TestCase):
    """fixes.newer_files(): the newest packaged kernel's files, read from its
    tarball in one pass and kept in the work dir."""

    def test_one_pass_for_every_missing_file_then_none(self):
        with tempfile.TemporaryDirectory(prefix="y2038-newer-") as tmp:
            top = Path(tmp) / "linux-source-9.9"
            (top / "net").mkdir(parents=True)
            (top / "Makefile").write_text("VERSION = 9\n")
            (top / "net" / "a.c").write_text("int a;\n")
            tarball = Path(tmp) / "linux-source-9.9.tar.xz"
            subprocess.run(["tar", "-cJf", str(tarball), "-C", tmp, "linux-source-9.9"], check=True)
            passes = []

            def counted(cmd, **how):
                passes.append(cmd)
                return real_run(cmd, **how)
            real_run = fixes.run
            with unittest.mock.patch.multiple(fixes, TARBALL=str(Path(tmp) / "linux-source-{series}.tar.xz"),
                                              NEWEST_SERIES="9.9", run=counted), \
                    unittest.mock.patch.dict(os.environ, {"Y2038_WORK": str(Path(tmp) / "work")}):
                found = fixes.newer_files(["Makefile", "net/a.c", "net/gone.c"])
                self.assertEqual(found, {"Makefile": "VERSION = 9\n", "net/a.c": "int a;\n", "net/gone.c": None})
                self.assertEqual(len(passes), 1)
                self.assertIn("--occurrence=1", passes[0])
                self.assertEqual(fixes.newer_file("net/a.c"), "int a;\n")  # kept: no second pass
                self.assertIsNone(fixes.newer_file("net/gone.c"))
                self.assertEqual(len(passes), 1)


if __name__ == "__main__":
    unittest.main()
