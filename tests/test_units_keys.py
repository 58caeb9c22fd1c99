# SPDX-License-Identifier: GPL-2.0-only
"""common.dependency_key: a cached result's key changes with what it depends
on (its inputs, and the code of the modules named and those they import)
and with nothing else."""
import shutil
import tempfile
import unittest
from pathlib import Path

from helpers import REPO
from y2038lib import common

TOOLKIT = REPO / "tools" / "y2038lib"

PACKAGE = {
    "__init__.py": "",
    "stage.py": "from . import helper\n\ndef later():\n    from .sub import lazy\n",
    "helper.py": "from .sub.deep import thing\n",
    "sub/__init__.py": "",
    "sub/deep.py": "thing = 1\n",
    "sub/lazy.py": "x = 1\n",
    "unrelated.py": "from .helper import *\n",
}


class DependencyKey(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="y2038-keys-"))
        self.addCleanup(shutil.rmtree, self.root)
        for relpath, text in PACKAGE.items():
            (self.root / "pkg" / relpath).parent.mkdir(parents=True, exist_ok=True)
            (self.root / "pkg" / relpath).write_text(text)

    def key(self, *inputs):
        return common.dependency_key(*inputs, code=[self.root / "pkg" / "stage.py"])

    def edit(self, relpath):
        with open(self.root / "pkg" / relpath, "a") as f:
            f.write("# edited\n")

    def test_the_code_is_the_module_and_all_it_imports(self):
        files = common.code_files([(self.root / "pkg" / "stage.py").resolve()])
        self.assertEqual(sorted(str(f.relative_to(self.root.resolve() / "pkg")) for f in files),
                         ["__init__.py", "helper.py", "stage.py", "sub/__init__.py", "sub/deep.py", "sub/lazy.py"])

    def test_a_changed_dependency_changes_the_key(self):
        for relpath in ("stage.py", "sub/deep.py", "sub/lazy.py"):
            before = self.key("input")
            self.edit(relpath)
            self.assertNotEqual(self.key("input"), before, relpath)

    def test_an_unrelated_module_keeps_the_key(self):
        before = self.key("input")
        self.edit("unrelated.py")
        self.assertEqual(self.key("input"), before)

    def test_a_changed_input_changes_the_key(self):
        data = self.root / "data.txt"
        data.write_text("one")
        before = self.key("input", data)
        self.assertNotEqual(self.key("input2", data), before)
        data.write_text("two")
        self.assertNotEqual(self.key("input", data), before)

    def test_the_key_is_the_same_in_another_checkout(self):
        # keys name a module by its place in the package, not on the disk
        before = self.key("input")
        moved = self.root / "elsewhere"
        shutil.copytree(self.root / "pkg", moved / "pkg")
        self.assertEqual(common.dependency_key("input", code=[moved / "pkg" / "stage.py"]), before)


class ToolkitDependencies(unittest.TestCase):
    """What the real caches depend on."""

    def names(self, module: str):
        return {common.relative_name(f) for f in common.code_files([TOOLKIT / module])}

    def test_spatch_results_depend_on_the_runner_and_the_editors_not_on_the_campaign_logic(self):
        names = self.names("engine/spatch.py")
        self.assertLessEqual({"y2038lib/engine/spatch.py", "y2038lib/engine/kconfig.py",
                              "y2038lib/engine/text_rules.py", "y2038lib/common.py"}, names)
        self.assertNotIn("y2038lib/engine/apply.py", names)
        self.assertNotIn("y2038lib/posting/report.py", names)

    def test_a_boot_depends_on_the_modules_it_once_listed_by_hand(self):
        self.assertLessEqual({"y2038lib/verification/boot.py", "y2038lib/verification/legacy.py",
                              "y2038lib/verification/boot_suites.py"}, self.names("verification/boot.py"))


class Digests(unittest.TestCase):
    def test_digest_ends_each_part(self):
        self.assertNotEqual(common.digest("ab", "c"), common.digest("a", "bc"))
        self.assertEqual(common.digest("a", b"b"), common.digest_stream([b"a\0", b"b\0"]))

    def test_file_digest_is_of_the_content(self):
        with tempfile.NamedTemporaryFile() as f:
            f.write(b"x" * 3_000_000)
            f.flush()
            self.assertEqual(common.file_digest(Path(f.name)), common.digest_stream([b"x" * 3_000_000]))


if __name__ == "__main__":
    unittest.main()
