# SPDX-License-Identifier: GPL-2.0-only
"""A rule that reads headers runs files of many directories in one spatch
process (apply.TYPED_BATCH_FILES): each file must still read its own
directory's headers, never a header of the same name its process parsed
for a file of another directory.  Real spatch, a tree of three files."""
import os
import shutil
import tempfile
import unittest
from unittest import mock
from pathlib import Path
from types import SimpleNamespace

from helpers import REPO
from y2038lib.engine import apply, rules

RULE = rules.parse_rule(REPO / "cocci/y2038-fixes/ns_product_32.cocci")

# a product of a count read from user space: it changes where the count is
# 32 bits wide, and the field's width is in the directory's own header
USER = """#include <linux/module.h>
#include "period.h"

void set_period(void __user *arg)
{
	struct period p;
	u64 ns;

	if (copy_from_user(&p, arg, sizeof(p)))
		return;
	ns = p.seconds * NSEC_PER_SEC;
	use(ns);
}
"""
WIDE = "struct period { u64 seconds; };\n"
NARROW = "struct period { unsigned int seconds; };\n"


class TypedBatches(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="y2038-typed-"))
        self.addCleanup(shutil.rmtree, self.scratch)
        os.environ["Y2038_SPATCH_CACHE"] = str(self.scratch / "cache")
        self.addCleanup(os.environ.pop, "Y2038_SPATCH_CACHE")
        src = self.scratch / "src"
        # path order puts a 64-bit header's file before and after the 32-bit one
        for folder, header in (("drivers/a", WIDE), ("drivers/b", NARROW), ("drivers/c", WIDE)):
            (src / folder).mkdir(parents=True)
            (src / folder / "period.h").write_text(header)
            (src / folder / "timer.c").write_text(USER)
        self.tree = SimpleNamespace(src=src, baseline="0" * 40)

    def test_each_file_reads_its_own_directorys_header(self):
        files = ["drivers/a/timer.c", "drivers/b/timer.c", "drivers/c/timer.c"]
        with mock.patch.object(apply, "run_spatch_batch", wraps=apply.run_spatch_batch) as batches:
            results = apply.Applier(self.tree, jobs=1, timeout=60).run_rule(RULE, files)
        self.assertEqual(batches.call_count, 1, "one spatch process for the three directories")
        self.assertEqual({f: r["status"] for f, r in results.items()},
                         {"drivers/a/timer.c": "unchanged", "drivers/b/timer.c": "changed",
                          "drivers/c/timer.c": "unchanged"})
        self.assertIn(b"ns = (s64)p.seconds * NSEC_PER_SEC;", results["drivers/b/timer.c"]["output"])
        # the links let spatch read the tree, never write it
        self.assertEqual([p.name for p in self.tree.src.rglob("*") if p.suffix not in (".c", ".h")
                          and not p.is_dir()], [])


if __name__ == "__main__":
    unittest.main()
