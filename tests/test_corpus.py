# SPDX-License-Identifier: GPL-2.0-only
"""tools/corpus: the manifest, its one split, the old time-API count and a
scorer that counts a failing or crashing convert instead of stopping
(planted manifests and a planted convert; no spatch, no third-party code)."""
import contextlib
import io
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import helpers

helpers.put_tools_on_path()
from y2038lib import corpus, old_time_api  # noqa: E402

ROWS = "\n".join(["# a comment kept", "\t".join(corpus.FIELDS)] +
                 [f"m{i}\tout-of-tree\towner/repo{i}\tabc\tdrv\t" for i in range(7)]) + "\n"


class Manifest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = Path(self.tmp.name) / "manifest.tsv"
        self.path.write_text(ROWS)

    def tearDown(self):
        self.tmp.cleanup()

    def test_split_once_seeded(self):
        modules = corpus.split(7, self.path)
        self.assertEqual(sum(m.half == "working" for m in modules), 4)
        self.assertEqual(sum(m.half == "held-out" for m in modules), 3)
        comments, again = corpus.read_manifest(self.path)
        self.assertEqual([m.half for m in again], [m.half for m in modules])
        self.assertIn("# a comment kept", comments)
        self.assertTrue(any("random.Random(7)" in c for c in comments))
        with self.assertRaisesRegex(ValueError, "split once"):
            corpus.split(8, self.path)  # never re-split
        other = Path(self.tmp.name) / "other.tsv"
        other.write_text(ROWS)
        self.assertEqual([m.half for m in corpus.split(7, other)], [m.half for m in modules])  # seeded

    def test_a_second_batch_split_alone(self):
        """A batch added after the first split is split on its own: the
        first batch's halves stay as they were."""
        first = corpus.split(7, self.path)
        batch2 = "".join(f"n{i}\tdkms\tpkg{i}\t1.0\tdrv\t\t2\n" for i in range(5))
        self.path.write_text(self.path.read_text() + batch2)
        second = corpus.split(9, self.path, batch="2")
        self.assertEqual(sorted(m.name for m in second), [f"n{i}" for i in range(5)])
        self.assertEqual(sum(m.half == "working" for m in second), 3)
        comments, modules = corpus.read_manifest(self.path)
        self.assertEqual([(m.name, m.half, m.batch) for m in modules[:7]],
                         [(m.name, m.half, "1") for m in first])  # no batch column before: the first
        self.assertTrue(any("batch 2 split once: random.Random(9)" in c for c in comments))
        with self.assertRaisesRegex(ValueError, "split once"):
            corpus.split(9, self.path, batch="2")
        with self.assertRaisesRegex(ValueError, "no module in batch 3"):
            corpus.split(9, self.path, batch="3")
        self.assertEqual([m.name for m in corpus.chosen(modules, "working", None, "2")],
                         [m.name for m in second if m.half == "working"])

    def test_the_committed_manifest(self):
        _, modules = corpus.read_manifest()
        self.assertGreaterEqual(len(modules), 60)
        self.assertGreaterEqual(len({m.origin for m in modules}), 10)
        self.assertEqual({m.half for m in modules}, set(corpus.HALVES))
        for m in modules:
            self.assertTrue(m.is_dkms or len(m.version) == 40, m)


class OldApiCount(unittest.TestCase):
    def test_code_only(self):
        text = ("/* do_gettimeofday(&tv) */ struct timeval tv; // get_seconds()\n"
                'printk("getnstimeofday(");\ndo_gettimeofday(&tv); x = kt.tv64; t = get_seconds();\n'
                "struct timespec64 ok; ktime_get_real_ts64(&ok); struct timespec old;\n")
        self.assertEqual(old_time_api.uses_in_text(text),
                         {"struct timeval": 1, "do_gettimeofday": 1, "ktime .tv64": 1, "get_seconds": 1,
                          "struct timespec": 1})


class Gather(unittest.TestCase):
    def test_a_snapshot_lacking_a_blob(self):
        """A snapshot leaves out its largest files: the module is gathered
        without them, named on stderr, never a failed module."""
        with tempfile.TemporaryDirectory() as tmp:
            repo = Path(tmp) / "mirror" / "o+r" / "repo"
            (repo / "drv" / "regs").mkdir(parents=True)
            (repo / "drv" / "x.c").write_text("struct timeval tv;\n")
            (repo / "drv" / "regs" / "big.h").write_text("#define REG_A 0x10\n")
            git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
            subprocess.run(git[:3] + ["init", "-q"], check=True)
            subprocess.run(git + ["add", "."], check=True)
            subprocess.run(git + ["commit", "-q", "-m", "m"], check=True)
            head = subprocess.run(git[:3] + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
            big = subprocess.run(git[:3] + ["rev-parse", "HEAD:drv/regs/big.h"], capture_output=True,
                                 text=True).stdout.strip()
            (repo / ".git" / "objects" / big[:2] / big[2:]).unlink()
            module = corpus.Module("m", "vendor-kernel", "o/r", head, "drv", "working", "7")
            err = io.StringIO()
            with mock.patch.dict(os.environ, {"CORPUS_DIR": tmp, "CORPUS_MIRROR": str(Path(tmp) / "mirror")}), \
                    contextlib.redirect_stderr(err):
                self.assertEqual(corpus.gather([module]), [])
            self.assertEqual((Path(tmp) / "src" / "m" / "x.c").read_text(), "struct timeval tv;\n")
            self.assertFalse((Path(tmp) / "src" / "m" / "regs" / "big.h").exists())
            self.assertIn("m: gathered without 1 file(s) the snapshot lacks: regs/big.h", err.getvalue())


FAKE_CONVERT = """#!/bin/sh
# a planted convert: args: convert SRC --out OUT ...
src=$2; out=$4
case "$src" in
  *crash*) echo 'Traceback (most recent call last):' >&2; exit 1;;
esac
mkdir -p "$out"; cp -r "$src"/. "$out"/
sed -i 's/do_gettimeofday(&tv);//' "$out"/*.c
echo '{"problems": ["x.c: a problem"]}' > "$out"/y2038-convert.json
exit 3
"""


def planted_corpus(root: Path, names) -> Path:
    """The fake convert and one module source per name under root; the fake's path."""
    fake = root / "y2038"
    fake.write_text(FAKE_CONVERT)
    fake.chmod(0o755)
    for name in names:
        (root / "src" / name).mkdir(parents=True)
        (root / "src" / name / "x.c").write_text("struct timeval tv;\ndo_gettimeofday(&tv);\n")
    return fake


class Score(unittest.TestCase):
    def test_failures_counted_never_fatal(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            fake = planted_corpus(root, ("good", "crash"))
            modules = [corpus.Module("good", "out-of-tree", "o/g", "c", "", "working"),
                       corpus.Module("crash", "out-of-tree", "o/c", "c", "", "working")]
            with mock.patch.dict(os.environ, {"CORPUS_DIR": tmp}), mock.patch.object(corpus, "Y2038", fake), \
                    mock.patch.object(corpus.sys, "executable", "/bin/sh"):
                results = corpus.score(modules, "4.19", 1)
                self.assertEqual(corpus.recorded(modules), results)  # `table`: the same from the runs
            good, crash = results
            self.assertEqual((good["before"], good["left_range"], good["left_min"]), (2, 1, 1))
            self.assertEqual((good["failed"], good["problems"]), ([], 2))
            self.assertEqual((crash["left_min"], crash["failed"], crash["tracebacks"]), (2, [1, 1], 2))
            table = corpus.table(results, "4.19")
            self.assertIn("| working | 2 | 4 | 3 | 3 | 25% / 25% | 2 | 2 | 2 |", table)
            self.assertEqual(json.loads((root / "scores-all.json").read_text()), results)

    def test_min_kernel_only_converts_once(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            fake = planted_corpus(root, ("good",))
            modules = [corpus.Module("good", "out-of-tree", "o/g", "c", "", "working")]
            with mock.patch.dict(os.environ, {"CORPUS_DIR": tmp}), mock.patch.object(corpus, "Y2038", fake), \
                    mock.patch.object(corpus.sys, "executable", "/bin/sh"):
                results = corpus.score(modules, "4.19", 1, range_run=False)
                self.assertEqual(corpus.recorded(modules), results)
            self.assertEqual(sorted(p.name for p in (root / "runs").iterdir()), ["good.min", "good.min.log"])
            self.assertEqual((results[0]["left_range"], results[0]["left_min"], results[0]["problems"]), (None, 1, 1))
            self.assertIn("| working | 1 | 2 | - | 1 | - / 50% | 0 | 0 | 1 |", corpus.table(results, "4.19"))


RECORDING_CONVERT = """#!/bin/sh
# a planted convert that records each source it is given: args: convert SRC --out OUT ...
echo "$2" >> "$(dirname "$0")/converted"
mkdir -p "$4"; cp -r "$2"/. "$4"/; echo '{"problems": []}' > "$4"/y2038-convert.json
"""


class OneHalf(unittest.TestCase):
    def test_score_working_never_reads_held_out(self):
        """score --half working gathers, converts and counts the working
        half only: the held-out module's source is a repository that is not
        there, so gathering it would be listed as a failure."""
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            repo = root / "work"
            subprocess.run(["git", "init", "-q", str(repo)], check=True)
            (repo / "drv").mkdir()
            (repo / "drv" / "x.c").write_text("struct timeval tv;\n")
            git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
            subprocess.run(git + ["add", "."], check=True)
            subprocess.run(git + ["commit", "-q", "-m", "x"], check=True)
            head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
            subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(root / "mirror" / "owner+work" / "repo")],
                           check=True)  # a snapshot as CORPUS_MIRROR holds them
            (root / "mirror" / "owner+held" / "repo").mkdir(parents=True)  # no history: gathering fails
            manifest = root / "manifest.tsv"
            manifest.write_text("\t".join(corpus.FIELDS) + "\n" +
                                f"w\tout-of-tree\towner/work\t{head}\tdrv\tworking\n"
                                f"h\tout-of-tree\towner/held\t{head}\tdrv\theld-out\n")
            fake = root / "y2038"
            fake.write_text(RECORDING_CONVERT)
            fake.chmod(0o755)
            env = {"CORPUS_DIR": str(root / "corpus"), "CORPUS_MIRROR": str(root / "mirror")}
            stderr = io.StringIO()
            with mock.patch.dict(os.environ, env), mock.patch.object(corpus, "MANIFEST", manifest), \
                    mock.patch.object(corpus, "Y2038", fake), mock.patch.object(corpus.sys, "executable", "/bin/sh"), \
                    contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(stderr):
                status = corpus.main(["score", "--half", "working", "--jobs", "1"])
            self.assertEqual(status, 0, stderr.getvalue())
            self.assertNotIn("not gathered", stderr.getvalue())
            self.assertEqual(sorted(p.name for p in (root / "corpus" / "src").iterdir()), ["w"])
            converted = (root / "converted").read_text().split()
            self.assertEqual(converted, [str(root / "corpus" / "src" / "w")] * 2)
            scores = json.loads((root / "corpus" / "scores-working.json").read_text())
            self.assertEqual([(r["name"], r["before"]) for r in scores], [("w", 1)])


if __name__ == "__main__":
    unittest.main()
