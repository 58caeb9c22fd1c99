# SPDX-License-Identifier: GPL-2.0-only
"""tools/corpus: convert measured on real legacy code nobody here wrote.

The manifest (tests/corpus/manifest.tsv) names each module: where it comes
from (a git repository and commit, or a Debian DKMS package and version),
the path inside, the kind of source and its half (working: rules may be
written and tuned against it; held-out: only measured).  Third-party
source is never in the checkout: `gather` copies each module into
CORPUS_DIR (default /work/scratch/corpus) from a local git snapshot
(CORPUS_MIRROR/<owner>+<name>/repo, default /work/.mirror), a clone of
https://github.com/<repo> when none is there, or `apt-get download`.

`score` runs `tools/y2038 convert` on each module twice (the range read
from the code, then --min-kernel) and counts the old time-API uses
(old_time_api) before and after.  A convert that fails or prints a Python
traceback is counted, never the scorer's end.
"""
import csv
import json
import os
import random
import re
import shutil
import subprocess
import sys
import io
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

from .common import REPO
from .old_time_api import count_uses

MANIFEST = REPO / "tests" / "corpus" / "manifest.tsv"
FIELDS = ("name", "source", "origin", "version", "path", "half", "batch")
HALVES = ("working", "held-out")
Y2038 = REPO / "tools" / "y2038"


@dataclass
class Module:
    name: str  # unique, the folder under CORPUS_DIR/src
    source: str  # vendor-kernel, android, board, out-of-tree, dkms
    origin: str  # owner/name on GitHub, or the Debian package
    version: str  # commit, or the package version
    path: str  # inside the repository or the package's /usr/src/<dir>
    half: str  # working, held-out, or "" before the split
    batch: str = "1"  # the gathering round: each batch is split once, on its own

    @property
    def is_dkms(self) -> bool:
        return self.source == "dkms"


def corpus_dir() -> Path:
    return Path(os.environ.get("CORPUS_DIR", "/work/scratch/corpus"))


def read_manifest(path: Optional[Path] = None):
    """(header comment lines, [Module]) of path (default MANIFEST)."""
    path = path or MANIFEST
    comments, rows = [], []
    lines = path.read_text().splitlines()
    for line in lines:
        if line.startswith("#"):
            comments.append(line)
    body = [line for line in lines if line and not line.startswith("#")]
    for row in csv.DictReader(body, delimiter="\t"):
        values = {f: (row.get(f) or "").strip() for f in FIELDS}
        rows.append(Module(**dict(values, batch=values["batch"] or "1")))  # before batches: the first
    names = [m.name for m in rows]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: a module name is used twice")
    return comments, rows


def write_manifest(comments: List[str], modules: List[Module], path: Path = MANIFEST) -> None:
    out = io.StringIO()
    out.write("".join(f"{c}\n" for c in comments))
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(FIELDS)
    for m in modules:
        writer.writerow([getattr(m, f) for f in FIELDS])
    path.write_text(out.getvalue())


def split(seed: int, path: Path = MANIFEST, batch: Optional[str] = None) -> List[Module]:
    """The one split of a batch (every module when batch is None): half of
    its modules (rounded up) working, the rest held-out, chosen by
    random.Random(seed); refused once any of them has a half.  Other
    batches' halves are kept as they are."""
    comments, modules = read_manifest(path)
    mine = [m for m in modules if batch is None or m.batch == batch]
    if not mine:
        raise ValueError(f"{path}: no module in batch {batch}")
    if any(m.half for m in mine):
        raise ValueError(f"{path}: already split ({sum(1 for m in mine if m.half)} modules have a half); "
                         "a corpus is split once")
    order = sorted(mine, key=lambda m: m.name)
    random.Random(seed).shuffle(order)
    working = {m.name for m in order[:(len(order) + 1) // 2]}
    for m in mine:
        m.half = "working" if m.name in working else "held-out"
    which = "" if batch is None else f"batch {batch} "
    write_manifest(comments + [f"# {which}split once: random.Random({seed}).shuffle of the names sorted, "
                               f"first half (rounded up) working"], modules, path)
    return mine


# ---- gather -----------------------------------------------------------------

def git_dir(repo: str) -> Path:
    """A git directory holding repo's history: a snapshot, else a clone."""
    mirror = Path(os.environ.get("CORPUS_MIRROR", "/work/.mirror")) / repo.replace("/", "+") / "repo"
    if (mirror / ".git").is_dir():  # a snapshot holding a work tree
        return mirror / ".git"
    if mirror.is_dir():
        return mirror
    clone = corpus_dir() / "git" / repo.replace("/", "+")
    if not clone.is_dir():
        subprocess.run(["git", "clone", "--bare", "--filter=blob:none", f"https://github.com/{repo}", str(clone)],
                       check=True)
    return clone


def gather_git(m: Module, dest: Path) -> List[str]:
    """m's files into dest; the paths the snapshot lacks (left out)."""
    gd = str(git_dir(m.origin))
    kind = subprocess.run(["git", "--git-dir", gd, "cat-file", "-t", f"{m.version}:{m.path}"],
                          capture_output=True, text=True, check=True).stdout.strip()
    if kind == "blob":  # one file: the module is that file alone
        blob = subprocess.run(["git", "--git-dir", gd, "show", f"{m.version}:{m.path}"],
                              capture_output=True, check=True).stdout
        dest.mkdir(parents=True)
        (dest / Path(m.path).name).write_bytes(blob)
        return []
    archive = subprocess.run(["git", "--git-dir", gd, "archive", "--format=tar", f"{m.version}:{m.path}"],
                             capture_output=True)
    dest.mkdir(parents=True)
    if archive.returncode == 0:
        subprocess.run(["tar", "-x", "--no-same-owner", "-C", str(dest)], input=archive.stdout, check=True)
        return []
    return gather_blobs(gd, f"{m.version}:{m.path}", dest)


def gather_blobs(gd: str, tree: str, dest: Path) -> List[str]:
    """tree's files into dest one by one, for a snapshot that lacks some
    blobs (a snapshot leaves out its largest files): the paths it lacks."""
    listing = subprocess.run(["git", "--git-dir", gd, "ls-tree", "-r", "-z", tree],
                             capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape")
    lacking = []
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        if meta.split()[1] != "blob":
            continue  # a submodule: not in a snapshot either
        blob = subprocess.run(["git", "--git-dir", gd, "cat-file", "blob", meta.split()[2]], capture_output=True)
        if blob.returncode:
            lacking.append(path)
            continue
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
    return lacking


def gather_dkms(m: Module, dest: Path) -> None:
    debs = corpus_dir() / "debs" / m.origin
    debs.mkdir(parents=True, exist_ok=True)
    if not list(debs.glob("*.deb")):
        subprocess.run(["apt-get", "download", f"{m.origin}={m.version}"], cwd=debs, check=True)
    unpacked = debs / "x"
    if not unpacked.is_dir():
        subprocess.run(["dpkg-deb", "-x", str(next(debs.glob("*.deb"))), str(unpacked)], check=True)
    top = next((unpacked / "usr" / "src").iterdir())
    shutil.copytree(top / m.path, dest)


def gather(modules: List[Module]) -> List[str]:
    """Each module into CORPUS_DIR/src/<name> (kept if there); the failures."""
    failed = []
    for m in modules:
        dest = corpus_dir() / "src" / m.name
        if dest.is_dir():
            continue
        try:
            if m.is_dkms:
                gather_dkms(m, dest)
            else:
                lacking = gather_git(m, dest)
                if lacking:
                    print(f"corpus: {m.name}: gathered without {len(lacking)} file(s) the snapshot lacks: "
                          f"{', '.join(lacking[:3])}", file=sys.stderr)
        except (subprocess.CalledProcessError, OSError, StopIteration) as err:
            shutil.rmtree(dest, ignore_errors=True)
            failed.append(f"{m.name}: {err}")
    return failed


# ---- score ------------------------------------------------------------------

@dataclass
class Run:
    left: int
    status: int
    traceback: bool
    problems: int


def convert_once(src: Path, out: Path, min_kernel: Optional[str], jobs: int, log: Path) -> Run:
    if out.exists():
        shutil.rmtree(out)
    cmd = ["nice", sys.executable, str(Y2038), "convert", str(src), "--out", str(out), "--jobs", str(jobs)]
    cmd += ["--min-kernel", min_kernel] if min_kernel else []
    proc = subprocess.run(cmd, capture_output=True, text=True)
    log.write_text(f"$ {' '.join(cmd)}\nexit {proc.returncode}\n{proc.stdout}{proc.stderr}")
    report = out / "y2038-convert.json"
    problems = len(json.loads(report.read_text()).get("problems", [])) if report.is_file() else 0
    left = count_uses(out) if report.is_file() else count_uses(src)  # nothing written: nothing converted
    return Run(left, proc.returncode, "Traceback (most recent call last)" in proc.stderr, problems)


def score_module(m: Module, min_kernel: str, jobs: int, range_run: bool = True) -> dict:
    src = corpus_dir() / "src" / m.name
    runs = corpus_dir() / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    read = convert_once(src, runs / f"{m.name}.range", None, jobs, runs / f"{m.name}.range.log") \
        if range_run else None
    floor = convert_once(src, runs / f"{m.name}.min", min_kernel, jobs, runs / f"{m.name}.min.log")
    return result(m, read, floor)


def result(m: Module, read: Optional[Run], floor: Run) -> dict:
    """A module's figures; read is None when the range-read run was skipped."""
    runs = [r for r in (read, floor) if r]
    return {"name": m.name, "half": m.half, "before": count_uses(corpus_dir() / "src" / m.name),
            "left_range": read.left if read else None, "left_min": floor.left,
            "failed": [r.status for r in runs if r.status not in (0, 3)],
            "tracebacks": sum(r.traceback for r in runs), "problems": sum(r.problems for r in runs)}


def recorded_run(src: Path, out: Path, log: Path) -> Run:
    """A Run read back from a finished convert's output and log."""
    text = log.read_text(errors="replace")
    status = re.search(r"^exit (-?\d+)$", text, re.M)
    report = out / "y2038-convert.json"
    problems = len(json.loads(report.read_text()).get("problems", [])) if report.is_file() else 0
    return Run(count_uses(out) if report.is_file() else count_uses(src), int(status.group(1)) if status else -1,
               "Traceback (most recent call last)" in text, problems)


def recorded(modules: List[Module]) -> List[dict]:
    """The figures of the runs in CORPUS_DIR/runs (modules with a --min-kernel run)."""
    runs, found = corpus_dir() / "runs", []
    for m in modules:
        read_log, floor_log = (runs / f"{m.name}.{kind}.log" for kind in ("range", "min"))
        if floor_log.is_file():
            src = corpus_dir() / "src" / m.name
            read = recorded_run(src, read_log.with_suffix(""), read_log) if read_log.is_file() else None
            found.append(result(m, read, recorded_run(src, floor_log.with_suffix(""), floor_log)))
    return found


def percent(before: Optional[int], left: Optional[int]) -> str:
    return f"{100 * (before - left) / before:.0f}%" if before and left is not None else "-"


def total(rows: List[dict], key: str) -> Optional[int]:
    """The column's sum, None when a module has no figure there (a skipped run)."""
    values = [r[key] for r in rows]
    return None if None in values else sum(values)


def table(results: List[dict], min_kernel: str) -> str:
    lines = [f"| half | modules | before | left (range read from the code) | left (--min-kernel {min_kernel}) "
             f"| converted (range / {min_kernel}) | convert failed | tracebacks | problems listed |",
             "|---|---|---|---|---|---|---|---|---|"]
    for half in HALVES:
        rows = [r for r in results if r["half"] == half]
        if not rows:
            continue
        before, left_range, left_min = (total(rows, k) for k in ("before", "left_range", "left_min"))
        lines.append(f"| {half} | {len(rows)} | {before} | {'-' if left_range is None else left_range} | {left_min} | "
                     f"{percent(before, left_range)} / {percent(before, left_min)} | "
                     f"{sum(len(r['failed']) for r in rows)} | {sum(r['tracebacks'] for r in rows)} | "
                     f"{sum(r['problems'] for r in rows)} |")
    return "\n".join(lines)


def per_module(results: List[dict]) -> str:
    return "\n".join(f"  {r['half']:8} {r['name']:40} {r['before']:4} -> "
                     f"{'-' if r['left_range'] is None else r['left_range']:>4} (range), "
                     f"{r['left_min']:4} (min-kernel)" + (f", convert exit {r['failed']}" if r["failed"] else "")
                     + (f", {r['tracebacks']} tracebacks" if r["tracebacks"] else "") for r in results)


def score(modules: List[Module], min_kernel: str, jobs: int, label: str = "all", range_run: bool = True) -> List[dict]:
    """Each module scored; the figures also in CORPUS_DIR/scores-<label>.json."""
    results = []
    for m in modules:
        print(f"corpus: {m.name} ({m.half})", file=sys.stderr, flush=True)
        results.append(score_module(m, min_kernel, jobs, range_run))
    (corpus_dir() / f"scores-{label}.json").write_text(json.dumps(results, indent=1) + "\n")
    return results


def chosen(modules: List[Module], half: Optional[str], only: Optional[str],
           batch: Optional[str] = None) -> List[Module]:
    """The modules of that half and batch (a held-out module is never read
    when tuning on the working half) whose name matches only."""
    return [m for m in modules if (not half or m.half == half) and (not batch or m.batch == batch)
            and (not only or re.search(only, m.name))]


def main(argv: List[str]) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="tools/corpus", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("gather", help="copy every module of the manifest into CORPUS_DIR/src")
    sp = sub.add_parser("split", help="the one random split of the manifest into working and held-out")
    sp.add_argument("--seed", type=int, required=True)
    sp.add_argument("--batch", help="split this batch's modules only (the others keep their halves)")
    sc = sub.add_parser("score", help="gather, convert each module, print the table per half")
    tb = sub.add_parser("table", help="the table again from the last runs in CORPUS_DIR/runs (no convert)")
    tb.add_argument("--half", choices=HALVES)
    tb.add_argument("--batch", help="that batch's modules only")
    tb.add_argument("--min-kernel", default="4.19", help="the --min-kernel the runs used (the column's title)")
    sc.add_argument("--half", choices=HALVES)
    sc.add_argument("--min-kernel", default="4.19")
    sc.add_argument("--only", help="modules whose name matches this regex")
    sc.add_argument("--batch", help="that batch's modules only")
    sc.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    sc.add_argument("--min-kernel-only", action="store_true",
                    help="convert once per module, with --min-kernel (half the time; no range-read column)")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "split":
            modules = split(args.seed, batch=args.batch)
            print(f"{sum(m.half == 'working' for m in modules)} working, "
                  f"{sum(m.half == 'held-out' for m in modules)} held-out")
            return 0
        _, modules = read_manifest()
    except ValueError as err:
        print(f"corpus: {err}", file=sys.stderr)
        return 1
    if args.cmd == "table":
        results = recorded(chosen(modules, args.half, None, args.batch))
        print(per_module(results))
        print(table(results, args.min_kernel))
        return 0
    if args.cmd == "score":  # only the modules asked for are gathered, converted and counted
        modules = chosen(modules, args.half, args.only, args.batch)
    failed = gather(modules)
    for line in failed:
        print(f"corpus: not gathered: {line}", file=sys.stderr)
    if args.cmd == "gather":
        return 1 if failed else 0
    src = corpus_dir() / "src"
    gathered = {p.name for p in src.iterdir()} if src.is_dir() else set()
    label = (args.half or "all") + (f"-batch{args.batch}" if args.batch else "")
    results = score([m for m in modules if m.name in gathered], args.min_kernel, args.jobs, label,
                    not args.min_kernel_only)
    print(per_module(results))
    print(table(results, args.min_kernel))
    return 1 if failed else 0
