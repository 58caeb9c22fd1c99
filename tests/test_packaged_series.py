# SPDX-License-Identifier: GPL-2.0-only
"""The committed series for the packaged 6.1 and 6.12 trees are what the tools generate.

Runs the real pipeline on /usr/src/linux-source-<version>.tar.xz (tree,
apply, hazards, series), then checks: the output equals
generated-patches/linux-<version>/ byte for byte (what the build, boot,
report and compare stages added taken out), a second run is identical, a
re-run of the apply stage calls spatch zero times, checkpatch found no error,
and the series applies with `git am` onto the pristine baseline; each
committed posting, as b4 takes it from a mailbox, applies alone on its
base-commit.
"""
import contextlib
import email.utils
import filecmp
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import TYPE_CHECKING

from helpers import REPO, run_cli
from y2038lib import tree as tree_stage
from y2038lib.common import read_json, write_json
from y2038lib.posting import coccicheck_rule, covers, fixes, posting_rules
from y2038lib.posting.report import HTML_NAME, MARKDOWN_NAME
from y2038lib.posting.series import withdraw_unverified
from y2038lib.records import BUILD_PATCH_KEYS, Matches, SeriesResults


AM_ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
              GIT_COMMITTER_EMAIL="t@t")


def tarball(kver: str) -> Path:
    return Path(f"/usr/src/linux-source-{kver}.tar.xz")


def without_verification(series: Path, dest: Path) -> Path:
    """A copy of a series as the series stage wrote it: what the build, boot
    and compare stages added to results.json taken out again, and the cover
    letters rendered from what is left (each committed one must render
    from the committed results.json as it is, or the copy would hide a
    hand edit)."""
    shutil.copytree(series, dest, ignore=shutil.ignore_patterns(HTML_NAME, MARKDOWN_NAME))
    results = SeriesResults.read(dest)
    for posting in results.postings:
        cover = dest / posting.dir / covers.COVER_NAME
        if covers.render(cover.read_text(), results, posting, cover) != cover.read_text():
            raise AssertionError(f"{series / posting.dir / covers.COVER_NAME} is not what its results.json says")
    results.build = results.boot = results.boot_pristine = results.compare = results.fix_proofs = None
    for patch in results.patches:
        for key in BUILD_PATCH_KEYS:
            setattr(patch, key, None)
    results.write(dest)
    covers.write_all(dest, results)
    rule_posting = dest / coccicheck_rule.FOLDER  # make coccicheck's verification taken out too
    if (rule_posting / coccicheck_rule.RECORD).exists():
        record = read_json(rule_posting / coccicheck_rule.RECORD, "series")
        record["check"] = None  # as the series stage writes it, before make coccicheck
        write_json(rule_posting / coccicheck_rule.RECORD, record)
        coccicheck_rule.write_cover(rule_posting, record, results)
    return dest


def as_mbox(posting: Path) -> str:
    """A posting as it arrives: one mailbox, the patches in reply to the
    cover letter.  Headers are unfolded (RFC 5322 2.2.3): b4 0.12 on Python
    3.11 refuses folded ones."""
    dirname = posting.name
    out = []
    for n, path in enumerate(sorted(posting.glob("*.patch"))):
        head, body = path.read_text().split("\n\n", 1)
        head = re.sub(r"\n[ \t]+", " ", head) + f"\nMessage-ID: <{dirname}-{n}@y2038.example.org>"
        if n:
            head += f"\nIn-Reply-To: <{dirname}-0@y2038.example.org>\nReferences: <{dirname}-0@y2038.example.org>"
        out.append(head + "\n\n" + body)
    return "".join(m if m.endswith("\n") else m + "\n" for m in out)


def tree_diff(a: Path, b: Path):
    """Relative paths that differ between two directories (missing on either side included)."""
    cmp = filecmp.dircmp(a, b)
    out = [f"only in {a}: {n}" for n in cmp.left_only] + [f"only in {b}: {n}" for n in cmp.right_only]
    out += [n for n in cmp.diff_files]
    for sub in cmp.common_dirs:
        out += [f"{sub}/{d}" for d in tree_diff(a / sub, b / sub)]
    return out


# mypy reads the mixin as the TestCase it is mixed into; unittest must not run it alone
if TYPE_CHECKING:
    MixinBase = unittest.TestCase
else:
    MixinBase = object


class PackagedSeries(MixinBase):
    KVER: str  # each subclass sets its kernel version
    tmp: Path  # these three: set by setUpClass
    tree: tree_stage.Tree
    first: Path

    @classmethod
    def setUpClass(cls):
        if not tarball(cls.KVER).exists():
            raise unittest.SkipTest(f"{tarball(cls.KVER)} is not installed (make test installs it)")
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-series-"))
        run_cli("tree", "--kver", cls.KVER, check=True)
        cls.tree = tree_stage.load(cls.KVER)
        run_cli("apply", "--kver", cls.KVER, check=True)
        run_cli("hazards", "--kver", cls.KVER, check=True)
        cls.first = cls.tmp / "first"
        run_cli("series", "--kver", cls.KVER, "--draft", "--out", str(cls.first), check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def committed(self) -> Path:
        committed = REPO / "generated-patches" / f"linux-{self.tree.version}"
        if not committed.exists():
            others = sorted(p.name for p in (REPO / "generated-patches").glob("linux-*"))
            self.skipTest(f"installed linux-source-{self.KVER} is {self.tree.version} but the committed series is "
                          f"{', '.join(others) or 'none'}: regenerate with `make run KVER={self.KVER}` and commit it")
        return committed

    def test_matches_committed_series(self):
        committed = self.committed()
        stripped = without_verification(committed, self.tmp / "committed")
        # the build stage took out what it could not verify: take the same out of this one
        posted = self.tmp / "posted"
        shutil.copytree(self.first, posted)
        not_verified = SeriesResults.read(committed).build.not_verified
        results = SeriesResults.read(posted)
        if not_verified:
            withdraw_unverified(self.tree, posted, results, not_verified)
        results.write(posted)
        record = Path(coccicheck_rule.FOLDER) / coccicheck_rule.RECORD
        if (stripped / record).exists():  # the rule posting's record, compared as data
            self.assertEqual(read_json(stripped / record, "series"), read_json(posted / record, "series"))
            (stripped / record).unlink()
            (posted / record).unlink()
        self.assertEqual(tree_diff(stripped, posted), [],
                         "generated series differs from the committed one; regenerate with `make run`")

    def test_recipients_are_get_maintainers_answer_for_the_patches(self):
        """Each patch mail is addressed to what get_maintainer.pl says for
        that patch file (no keyword matches, no git history): nobody more,
        nobody less; the cover letter to the posting's union, each person
        once (MAINTAINERS may give one person an address per section)."""
        committed = self.committed()
        results = json.loads((committed / "results.json").read_text())

        def addresses(values) -> set:
            return {addr.lower() for _, addr in email.utils.getaddresses(values)}

        def people(values) -> list:
            return [" ".join(name.lower().split()) or addr.lower() for name, addr in email.utils.getaddresses(values)]

        def headers(path: Path) -> list:
            msg = email.message_from_string(path.read_text())
            return msg.get_all("To", []) + msg.get_all("Cc", [])
        # the two additions the posting rules make: an older tree's fix goes to the stable maintainers
        # (MAINTAINERS' STABLE BRANCH), and a patch routed to the maintainer of last resort to him
        added_roles = (f"maintainer:{fixes.STABLE_SECTION}", f"open list:{fixes.STABLE_SECTION}",
                       f"maintainer:{posting_rules.LAST_RESORT_WHY}")
        patches = {p["name"]: p for p in results["patches"]}
        for posting in results["postings"][:10]:
            union = []
            for name in posting["patches"]:
                proc = subprocess.run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
                                       "--no-keywords", "--no-rolestats", str(committed / name)],
                                      cwd=self.tree.src, text=True, stdout=subprocess.PIPE, check=True)
                found = [l for l in proc.stdout.splitlines() if l.strip()]
                found += [r["address"] for r in patches[name]["recipients"] if r["role"] in added_roles]
                self.assertEqual(addresses(headers(committed / name)), addresses(found), name)
                union += found
            for named in (posting["to"] + posting["cc"], headers(committed / posting["dir"] / "0000-cover-letter.patch")):
                self.assertEqual(set(people(named)), set(people(union)), posting["dir"])
                self.assertEqual(len(people(named)), len(set(people(named))), posting["dir"])

    def test_each_posting_applies_alone_with_b4(self):
        committed = self.committed()
        results = json.loads((committed / "results.json").read_text())
        self.assertGreater(len(results["postings"]), 0)
        with self.baseline_worktree("b4") as work:
            for posting in results["postings"]:
                with self.subTest(posting=posting["dir"]):
                    mbox, out = self.tmp / f"{posting['dir']}.mbox", self.tmp / f"{posting['dir']}.b4"
                    mbox.write_text(as_mbox(committed / posting["dir"]))
                    out.mkdir()
                    proc = subprocess.run(["b4", "am", "-m", str(mbox), "-o", str(out),
                                           f"<{posting['dir']}-0@y2038.example.org>"], cwd=work, env=AM_ENV,
                                          text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                    self.assertEqual(proc.returncode, 0, proc.stdout)
                    self.assertIn(f"Base: using specified base-commit {self.tree.baseline}", proc.stdout)
                    self.assertNotIn("prerequisite", proc.stdout.lower())
                    self.assertIn(f"Total patches: {len(posting['patches'])}", proc.stdout)
                    files = sorted({f for p in results["patches"] if p["name"] in posting["patches"]
                                    for f in p["files"]})
                    (mbx,) = out.glob("*.mbx")
                    self.assertEqual(self.am_on_baseline(work, [mbx], files), len(posting["patches"]))

    def test_second_run_is_byte_identical(self):
        second = self.tmp / "second"
        run_cli("series", "--kver", self.KVER, "--draft", "--out", str(second), check=True)
        self.assertEqual(tree_diff(self.first, second), [])

    def test_postings_stand_alone_and_say_draft(self):
        for cover in sorted(self.first.glob("*/0000-cover-letter.patch")):
            text = cover.read_text()
            self.assertNotIn("prerequisite-patch-id", text, cover)
            self.assertIn(f"base-commit: {self.tree.baseline}", text)
        for patch in sorted(self.first.glob("*/0*.patch")):
            text = patch.read_text()
            self.assertRegex(text, r"(?m)^Subject: \[DRAFT PATCH", patch)
            self.assertNotIn("Signed-off-by:", text, patch)
        postings = json.loads((self.first / "results.json").read_text())["postings"]
        netdev = [p for p in postings if "/netdev/net-next" in p["tree"] and not p.get("fix")]
        for posting in (p for p in postings if "/netdev/" in p["tree"] and p.get("fix")):
            for name in posting["patches"]:  # maintainer-netdev.rst: fixes go to net
                self.assertRegex((self.first / name).read_text(), r"(?m)^Subject: \[DRAFT PATCH net \d")
        for posting in netdev:
            self.assertLessEqual(len(posting["patches"]), 15)
            for name in posting["patches"]:
                self.assertRegex((self.first / name).read_text(), r"(?m)^Subject: \[DRAFT PATCH net-next")

    def test_no_series_without_an_identity(self):
        proc = run_cli("series", "--kver", self.KVER, "--out", str(self.tmp / "nobody"), env={"SIGNOFF": ""})
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("no identity for the series", proc.stderr)
        self.assertFalse((self.tmp / "nobody").exists())

    def test_rerun_of_apply_keeps_its_record(self):
        kept = Matches.read(self.tree.state)
        proc = run_cli("apply", "--kver", self.KVER, check=True)
        self.assertIn("apply stage unchanged", proc.stderr)
        matches = Matches.read(self.tree.state)
        self.assertEqual((matches.spatch_runs, matches.cache_hits), (0, 0), proc.stdout)
        self.assertEqual((matches.campaigns, matches.final), (kept.campaigns, kept.final))
        self.assertTrue(matches.idempotent)

    def test_checkpatch_has_no_errors(self):
        results = json.loads((self.first / "results.json").read_text())
        self.assertGreater(len(results["patches"]), 0)
        for patch in results["patches"]:
            self.assertEqual(patch["checkpatch"]["errors"], [], patch["name"])

    def test_series_applies_with_git_am(self):
        series = (self.first / "series").read_text().split()
        files = sorted({f for p in json.loads((self.first / "results.json").read_text())["patches"]
                        for f in p["files"]})
        with self.baseline_worktree("am") as work:
            self.assertEqual(self.am_on_baseline(work, [self.first / p for p in series], files), len(series))

    @contextlib.contextmanager
    def baseline_worktree(self, name: str):
        """A worktree of the baseline with nothing checked out yet."""
        work = self.tmp / name
        git = ["git", "--git-dir", str(self.tree.git_dir)]
        subprocess.run(git + ["worktree", "add", "-q", "--no-checkout", "--detach", str(work), self.tree.baseline],
                       check=True, env=AM_ENV)
        try:
            yield work
        finally:
            subprocess.run(git + ["worktree", "remove", "--force", str(work)], check=False)

    def am_on_baseline(self, work: Path, patches, files) -> int:
        """git am of patches onto the baseline, only their files checked out
        (git am needs nothing else): the number of commits it made."""
        subprocess.run(["git", "sparse-checkout", "set", "--no-cone", *files], cwd=work, check=True)
        subprocess.run(["git", "checkout", "-q", "--detach", self.tree.baseline], cwd=work, check=True)
        proc = subprocess.run(["git", "am", "-q", *map(str, patches)], cwd=work, env=AM_ENV, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode:
            subprocess.run(["git", "am", "--abort"], cwd=work, check=False)
        self.assertEqual(proc.returncode, 0, proc.stdout)
        return int(subprocess.run(["git", "rev-list", "--count", f"{self.tree.baseline}..HEAD"], cwd=work,
                                  text=True, stdout=subprocess.PIPE, check=True).stdout.strip())


class PackagedSeries61(PackagedSeries, unittest.TestCase):
    KVER = "6.1"


class PackagedSeries612(PackagedSeries, unittest.TestCase):
    KVER = "6.12"
