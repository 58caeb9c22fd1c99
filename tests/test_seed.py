# SPDX-License-Identifier: GPL-2.0-only
"""The seed reproduced: the default convert (every campaign) on the parent
of Linux commit 24e4a8c3e886 (../shared/seed-24e4a8c3e886, reference data
kept out of the project) exits 0 and removes at least 97% of the lines the
commit removed, the comments about the non-scalar ktime_t and
KTIME_SEC_MAX's 32-bit branch among them, and writes 3 of the 7 lines it
added (the comment without "On 64-bit CPUs", KTIME_SEC_MAX's one
definition, the blank line left where ktime_get()'s dropped comment stood
between two statements); the rest are its move of KTIME_MAX with a new
comment and a blank line (a reorganisation, not a conversion), and
ktime_get()'s one-call ktime_set(), which is not provably the same on
32-bit machines and is left."""
import difflib
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Set

from helpers import REPO, run_cli

SEED = REPO.parent / "shared" / "seed-24e4a8c3e886"


def removed(before, after) -> set:
    lines: Set[int] = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag in ("delete", "replace"):
            lines.update(range(i1, i2))
    return lines


def added(before, after) -> list:
    return [line for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
            if tag in ("insert", "replace") for line in after[j1:j2]]


def common(wanted: list, found: list) -> int:
    """How many of wanted's lines found has (each line of found counted once)."""
    left = list(found)
    hits = 0
    for line in wanted:
        if line in left:
            left.remove(line)
            hits += 1
    return hits


@unittest.skipUnless(SEED.is_dir(), f"{SEED} is not here")
class Seed(unittest.TestCase):
    def test_the_campaign_reproduces_the_commit(self):
        tmp = Path(tempfile.mkdtemp(prefix="y2038-seed-"))
        self.addCleanup(shutil.rmtree, tmp)
        shutil.copytree(SEED / "parent", tmp / "parent")
        shutil.copytree(SEED / "parent", tmp / "patched")
        subprocess.run(["patch", "-p1", "-s", "-i", str(SEED / "commit.patch")], cwd=tmp / "patched", check=True)
        proc = run_cli("convert", str(tmp / "parent"), "--out", str(tmp / "out"))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        wanted = found = wanted_added = found_added = 0
        missed = []
        for path in sorted(p for p in (tmp / "parent").rglob("*") if p.is_file()):
            rel = path.relative_to(tmp / "parent")
            before = path.read_text().splitlines()
            patched = (tmp / "patched" / rel).read_text().splitlines()
            converted = (tmp / "out" / rel).read_text().splitlines()
            commit = removed(before, patched)
            ours = removed(before, converted)
            wanted += len(commit)
            found += len(commit & ours)
            missed += [f"{rel}:{n + 1}: {before[n]}" for n in sorted(commit - ours)]
            wanted_added += len(added(before, patched))
            found_added += common(added(before, patched), added(before, converted))
        print(f"\nseed: {found} of the commit's {wanted} removed lines ({100 * found / wanted:.1f}%), "
              f"{found_added} of its {wanted_added} added lines ({100 * found_added / wanted_added:.1f}%)")
        self.assertGreaterEqual(found / wanted, 0.97, "\n".join(missed))
        # 3 of 7 (the issue asks 40%): the commit's ktime_get() rewrite,
        # ktime_add_ns(ktime_set(secs, 0), nsecs) ->
        # ktime_set(secs, nsecs), is not made: nsecs is an s64 that ktime_set() truncates to an
        # unsigned long on 32-bit machines, so the two are not provably the same (3.17 made it by
        # hand, knowing nsecs stays below 2 s); the rest of its added lines are layout and comments
        self.assertGreaterEqual(found_added / wanted_added, 0.40)
        timekeeping = (tmp / "out" / "kernel/time/timekeeping.c").read_text()
        self.assertIn("} while (read_seqcount_retry(&timekeeper_seq, seq));\n\n"
                      "\treturn ktime_add_ns(ktime_set(secs, 0), nsecs);", timekeeping)
        ktime_h = (tmp / "out" / "include/linux/ktime.h").read_text()
        self.assertNotIn("CONFIG_KTIME_SCALAR", ktime_h)
        self.assertNotIn("On 32-bit CPUs", ktime_h)
        time_h = (tmp / "out" / "include/linux/time.h").read_text()
        self.assertNotIn("# define KTIME_SEC_MAX			LONG_MAX", time_h)
        self.assertIn("#define KTIME_SEC_MAX			(KTIME_MAX / NSEC_PER_SEC)", time_h)
        self.assertNotIn("ktime_t scalar 64bit nsec representation", (tmp / "out" / "kernel/time/Kconfig").read_text())
