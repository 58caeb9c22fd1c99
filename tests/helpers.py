# SPDX-License-Identifier: GPL-2.0-only
"""Shared by the tests: paths, running the CLI, a tiny fake kernel tree."""
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
Y2038 = REPO / "tools" / "y2038"
TOOLS = REPO / "tools"


def put_tools_on_path() -> None:
    """Makes y2038lib importable.  Importing helpers does it already; the
    tests that need nothing else from helpers call it, to say why they
    import helpers."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))


put_tools_on_path()


def run_cli(*args, env=None, check=False):
    full_env = dict(os.environ, **(env or {}))
    proc = subprocess.run([sys.executable, str(Y2038), *args], env=full_env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and proc.returncode != 0:
        raise AssertionError(f"y2038 {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


def make_mini_tree(root: Path, files: dict) -> Path:
    """The smallest directory the tree stage accepts as a kernel, plus files."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "Makefile").write_text("VERSION = 3\nPATCHLEVEL = 10\nSUBLEVEL = 0\nEXTRAVERSION =\n")
    (root / "kernel").mkdir(exist_ok=True)
    (root / "include" / "linux").mkdir(parents=True, exist_ok=True)
    (root / "scripts").mkdir(exist_ok=True)
    (root / "scripts" / "get_maintainer.pl").write_text("#!/usr/bin/perl\n")
    (root / "MAINTAINERS").write_text("")
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def planted_series(tree, out: Path, changes) -> list:
    """A series of planted changes in out/01-t/, each a patch on the baseline made
    by git format-patch, with the results.json a later stage reads.  changes:
    [(path, old, new)], the first `old` in the file replaced.  Returns the
    patch names, relative to out."""
    from y2038lib.engine.apply import commit_contents
    from y2038lib.common import git_env
    env = dict(git_env(), GIT_DIR=str(tree.git_dir))
    names, commits = [], []
    for n, (path, old, new) in enumerate(changes, 1):
        text = (tree.src / path).read_text()
        assert old in text, f"{old!r} not in {path} of this tree"
        commit = commit_contents(tree, {path: text.replace(old, new, 1).encode()}, tree.baseline,
                                 f"time: planted change {n}\n\nSigned-off-by: T <t@example.org>\n")
        name = subprocess.run(["git", "format-patch", "--start-number", str(n), "-o", str(out / "01-t"),
                               "-1", commit], env=env, check=True, text=True, stdout=subprocess.PIPE).stdout
        names.append(f"01-t/{Path(name.strip()).name}")
        commits.append(commit)
    # git format-patch's frame: the text between header and shortlog is for covers.py to fill
    cover = (f"Subject: [PATCH 0/{len(names)}] planted\n\n*** BLURB HERE ***\n\n"
             f"T ({len(names)}):\n  time: planted changes\n\n-- \n")
    (out / "01-t" / "0000-cover-letter.patch").write_text(cover)
    # what the series stage records (records.SeriesResults), so the build stage can write the posting again
    results = {"baseline": tree.baseline, "version": tree.version, "draft": True, "campaigns": ["planted"],
               "source": "planted",
               "patches": [{"name": name, "files": [c[0]], "commit": commit, "campaign": "planted",
                            "subsystem": "TIMEKEEPING", "tree": "", "rules": [], "sites": 1, "site_lines": {},
                            "prefix": "time", "rewrites": 1, "recipients": [],
                            "checkpatch": {"errors": [], "warnings": []}}
                           for name, c, commit in zip(names, changes, commits)],
               "postings": [{"dir": "01-t", "tree": "", "prefix": "time", "part": 1, "of": 1, "route": [],
                             "to": [], "cc": [], "patches": names}]}
    (out / "results.json").write_text(json.dumps(results))
    return names
