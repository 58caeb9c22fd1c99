# SPDX-License-Identifier: GPL-2.0-only
"""The tree stage's baseline commit (tree.commit_every_file, through git
fast-import) is the very commit `git add -A -f` and `git commit` make of
the same files: executable bits, links to files and to folders, empty
files, names git must quote, and what a .gitignore of "/*" would hide."""
import os
import shutil
import tempfile
import unittest
from pathlib import Path

from helpers import put_tools_on_path

put_tools_on_path()
from y2038lib import tree as stage  # noqa: E402 - after tools/ is on the path

MESSAGE = "Linux 3.10.0\n\nPristine linux-source-3.10.tar.xz.\n"


class BaselineCommit(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="y2038-tree-"))
        self.addCleanup(shutil.rmtree, self.scratch)
        src = self.scratch / "src"
        (src / "scripts" / "dtc").mkdir(parents=True)
        (src / ".gitignore").write_text("/*\n")
        (src / "Makefile").write_text("VERSION = 3\n")
        (src / "scripts" / "checkpatch.pl").write_text("#!/usr/bin/perl\n")
        os.chmod(src / "scripts" / "checkpatch.pl", 0o755)
        (src / "scripts" / "dtc" / "empty.h").write_text("")
        (src / "scripts" / "a name with spaces and \"quotes\"").write_text("x\n")
        (src / "scripts" / "back\\slash").write_text("y\n")
        os.symlink("checkpatch.pl", src / "scripts" / "link-to-file")
        os.symlink("dtc", src / "scripts" / "link-to-folder")
        self.src = src

    def commit(self, how) -> str:
        git_dir = Path(tempfile.mkdtemp(prefix="git-", dir=self.scratch))
        tree = stage.Tree({"src": str(self.src), "git_dir": str(git_dir), "state": str(git_dir),
                           "version": "3.10.0", "baseline": None, "kind": "dir"})
        tree.git("init", "-q")
        how(tree)
        return tree.git("rev-parse", "HEAD").stdout.strip()

    def test_the_commit_git_add_and_git_commit_make(self):
        def by_git_add(tree):
            tree.git("add", "-A", "-f")
            tree.git("commit", "-q", "--no-verify", "-m", MESSAGE)
        expected = self.commit(by_git_add)
        self.assertEqual(self.commit(lambda tree: stage.commit_every_file(tree, MESSAGE)), expected)

    def test_git_grep_lists_the_files(self):
        def committed(tree):
            stage.commit_every_file(tree, MESSAGE)
            self.assertEqual(tree.files_with_tokens(["VERSION"], ["Makefile"]), {"VERSION": {"Makefile"}})
        self.commit(committed)

    def test_a_failing_git_is_a_clear_error(self):
        tree = stage.Tree({"src": str(self.src), "git_dir": str(self.scratch / "nowhere"), "state": "",
                           "version": "3.10.0", "baseline": None, "kind": "dir"})
        with self.assertRaises(stage.Y2038Error) as caught:
            stage.commit_every_file(tree, MESSAGE)
        self.assertIn("git", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
