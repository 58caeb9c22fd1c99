# SPDX-License-Identifier: GPL-2.0-only
"""Tree stage: the kernel source as a git baseline.

A tarball (Debian's linux-source-X.Y) is unpacked once and committed, as
it is, in a separate git dir: a local baseline no upstream tree has.  A
git checkout (a maintainer's tree, linux-next) is used in its own history:
its HEAD is the baseline, a commit anyone can fetch, checked out in the
work dir by a git dir that borrows the checkout's objects (alternates), so
the user's branch, index and work tree are never written.
Writes <work>/<key>/tree.json, which every later stage reads.
"""
import os
import re
import shutil
import stat
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Dict, List, Set

from .common import (Y2038Error, digest_stream, file_digest, git_env, progress,
                     read_json, run, work_dir, write_json)

TARBALL_SUFFIXES = (".tar.xz", ".tar.gz", ".tgz", ".tar.bz2", ".tar")


class Tree:
    """A kernel tree and the separate git directory holding its baseline commit."""

    def __init__(self, info: dict):
        self.info = info
        self.src = Path(info["src"])
        self.git_dir = Path(info["git_dir"])
        self.state = Path(info["state"])
        self.version = info["version"]
        self.baseline = info["baseline"]
        # what the baseline is, for the cover letters: {"kind", ...}; a tree.json
        # written before it was recorded is a tarball's or a directory's
        self.base = info.get("base") or (
            {"kind": "tarball", "package": tarball_name(Path(info["source"]))} if info.get("kind") == "tarball"
            else {"kind": "dir"})

    def files_with_tokens(self, tokens, globs) -> dict:
        """{token: set of files holding it as a word}, by one git grep."""
        found: Dict[str, Set[str]] = {t: set() for t in tokens}
        if not tokens:
            return found
        proc = self.git("grep", "-o", "-w", "-I", "-E", "(" + "|".join(map(re.escape, tokens)) + ")",
                        "--", *globs, check=False)
        if proc.returncode not in (0, 1):
            raise Y2038Error(f"git grep failed: {proc.stderr.strip()}")
        for line in proc.stdout.splitlines():
            path, _, token = line.rpartition(":")
            if token in found:
                found[token].add(path)
        return found

    def git(self, *args, env=None, check=True, input=None, binary=False):
        """git on this tree's baseline repository: the one way to reach it.
        env: git_env() by default (the fixed identity and date)."""
        env = dict(env or git_env())
        env.update(GIT_DIR=str(self.git_dir), GIT_WORK_TREE=str(self.src))
        return run(["git", *args], cwd=self.src, env=env, check=check, input=input, binary=binary)


def resolve(kver: str):
    """Map KVER (6.1, a tarball or a directory) to (key, kind, path)."""
    if re.fullmatch(r"\d+\.\d+", kver):
        path = Path(f"/usr/src/linux-source-{kver}.tar.xz")
        if not path.exists():
            raise Y2038Error(f"{path} not found: install it with `apt-get install linux-source-{kver}`")
        return f"linux-source-{kver}", "tarball", path
    path = Path(kver).resolve()
    if path.is_dir():
        kind = "git" if checkout_head(path) else "dir"
        return f"{kind}-{path.name}-{digest_stream([str(path).encode()])[:8]}", kind, path
    if path.is_file() and path.name.endswith(TARBALL_SUFFIXES):
        return tarball_name(path), "tarball", path
    if not path.exists():
        raise Y2038Error(f"{kver}: no such kernel version, tarball or directory")
    raise Y2038Error(f"{kver}: not a kernel version (like 6.1), a .tar.xz tarball or a directory")


def kernel_version(src: Path) -> str:
    """VERSION.PATCHLEVEL.SUBLEVEL from the top-level Makefile; checks it is a kernel tree."""
    makefile = src / "Makefile"
    fields = {}
    if makefile.is_file():
        for line in makefile.read_text(errors="replace").splitlines()[:20]:
            m = re.match(r"(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(\S*)", line)
            if m:
                fields[m.group(1)] = m.group(2)
    if not {"VERSION", "PATCHLEVEL"} <= fields.keys():
        raise Y2038Error(f"{src} is not a kernel tree: no top-level Makefile with VERSION and PATCHLEVEL")
    for needed in ("kernel", "include/linux", "scripts/get_maintainer.pl", "MAINTAINERS"):
        if not (src / needed).exists():
            raise Y2038Error(f"{src} is not a kernel tree: {needed} is missing")
    version = f"{fields['VERSION']}.{fields['PATCHLEVEL']}"
    if fields.get("SUBLEVEL", "0") not in ("", "0"):
        version += f".{fields['SUBLEVEL']}"
    return version + fields.get("EXTRAVERSION", "")


def user_git(checkout: Path, *args, check=True):
    """git in the user's own checkout, read only; none of the caller's GIT_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    return run(["git", "-C", str(checkout), *args], env=env, check=check)


def checkout_head(path: Path) -> str:
    """The HEAD commit of path when path is the top of a git work tree with a commit, else ''."""
    top = user_git(path, "rev-parse", "--show-toplevel", check=False)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != path:
        return ""
    head = user_git(path, "rev-parse", "--verify", "-q", "HEAD^{commit}", check=False)
    return head.stdout.strip() if head.returncode == 0 else ""


def fingerprint(kind: str, path: Path) -> str:
    """The source's identity: a tarball's content; a git checkout's HEAD
    (the baseline is the commit, not the files as they are); a directory's
    file names, sizes and modification times (reading a whole tree would
    take longer than the stage it saves)."""
    if kind == "tarball":
        return file_digest(path)
    if kind == "git":
        return checkout_head(path)
    return digest_stream(f"{root}/{name} {st.st_size} {st.st_mtime_ns}\n".encode()
                         for root, name, st in directory_entries(path))


def directory_entries(path: Path):
    """(folder, name, lstat) of every file under path in a fixed order, .git aside."""
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files):
            yield root, name, os.lstat(os.path.join(root, name))


def unpack(tarball: Path, dest: Path) -> Path:
    """Unpack into dest/ and return the kernel tree inside it."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    progress(f"unpacking {tarball}")
    proc = run(["tar", "-xf", str(tarball), "-C", str(dest)], check=False)
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.strip().splitlines() if l]
        shutil.rmtree(dest)
        raise Y2038Error(f"corrupt tarball {tarball}: {lines[0] if lines else 'tar failed'}")
    entries = [p for p in dest.iterdir()]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else dest


def prepare(kver: str) -> Tree:
    """Unpack (or reuse) the tree and make its baseline commit; a git
    checkout's baseline is its HEAD."""
    key, kind, path = resolve(kver)
    state = work_dir() / key
    state.mkdir(parents=True, exist_ok=True)
    info_path = state / "tree.json"
    fp = fingerprint(kind, path)
    if info_path.exists():
        info = read_json(info_path, "tree")
        if info.get("fingerprint") == fp and Path(info["git_dir"]).is_dir() and Path(info["src"]).is_dir():
            progress(f"reusing {info['src']} (Linux {info['version']}, {kind} {path} unchanged)")
            return Tree(info)
    info = borrow_checkout(path, state, fp) if kind == "git" else commit_baseline(kind, path, state, fp)
    write_json(info_path, info)
    return Tree(info)


def commit_baseline(kind: str, path: Path, state: Path, fp: str) -> dict:
    """A tarball (unpacked) or a directory committed as it is in a separate git dir: the tree's info."""
    src = unpack(path, state / "unpacked") if kind == "tarball" else path
    version = kernel_version(src)
    git_dir = state / "git"
    if git_dir.exists():
        shutil.rmtree(git_dir)
    base = {"kind": kind, "package": tarball_name(path)} if kind == "tarball" else {"kind": kind}
    info = {"source": str(path), "kind": kind, "fingerprint": fp, "src": str(src),
            "git_dir": str(git_dir), "state": str(state), "version": version, "baseline": None, "base": base}
    tree = Tree(info)
    progress(f"recording the pristine Linux {version} as the baseline commit (about a minute)")
    tree.git("init", "-q")
    commit_every_file(tree, f"Linux {version}\n\nPristine {path.name}.\n")
    info["baseline"] = tree.git("rev-parse", "HEAD").stdout.strip()
    return info


def fast_import_path(relpath: str) -> bytes:
    """A path as git fast-import reads it: quoted C-style when it would
    otherwise be misread."""
    raw = os.fsencode(relpath)
    if b"\n" not in raw and b"\\" not in raw and not raw.startswith(b'"'):
        return raw
    return b'"' + raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n") + b'"'


def commit_every_file(tree, message: str) -> None:
    """One commit of every file of the tree on the branch HEAD names, the
    commit `git add -A -f` and `git commit` made (the same identity, date
    and so the same hash), streamed to `git fast-import`: git hashes and
    compresses on one core while this process reads the files on the
    other, and writes one pack instead of ~75,000 loose objects (creating
    them was a third of git add's time).  Debian's tarball ships a
    .gitignore whose first rule is "/*": every file is taken, as -f did."""
    env = dict(git_env(), GIT_DIR=str(tree.git_dir), GIT_WORK_TREE=str(tree.src))
    proc = subprocess.Popen(["git", "-c", "pack.compression=1", "fast-import", "--quiet", "--done", "--depth=0"],
                            cwd=tree.src, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None
    changes: List[bytes] = []
    try:
        for root, dirs, files in os.walk(tree.src):
            dirs[:] = sorted(d for d in dirs if d != ".git")
            # a link to a folder is a file to git
            for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(root, d))]):
                path = os.path.join(root, name)
                mode = os.lstat(path).st_mode
                if stat.S_ISLNK(mode):
                    data, kind = os.fsencode(os.readlink(path)), b"120000"
                elif stat.S_ISREG(mode):
                    data, kind = Path(path).read_bytes(), b"100755" if mode & stat.S_IXUSR else b"100644"
                else:
                    continue
                mark = len(changes) + 1
                proc.stdin.write(b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(data), data))
                changes.append(b"M %s :%d %s\n" % (kind, mark, fast_import_path(os.path.relpath(path, tree.src))))
        when = int(datetime.fromisoformat(env["GIT_COMMITTER_DATE"]).timestamp())
        ident = b"%s <%s> %d +0000" % (env["GIT_COMMITTER_NAME"].encode(), env["GIT_COMMITTER_EMAIL"].encode(), when)
        branch = tree.git("symbolic-ref", "HEAD").stdout.strip().encode()
        proc.stdin.write(b"commit %s\nauthor %s\ncommitter %s\ndata %d\n%s\n" % (
            branch, ident, ident, len(message.encode()), message.encode()))
        proc.stdin.writelines(changes)
        proc.stdin.write(b"done\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass  # git stopped reading: its own message says why
    error = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
    if proc.wait() != 0:
        raise Y2038Error(f"git fast-import could not record the tree: {error.splitlines()[-1] if error else proc.returncode}")
    tree.git("read-tree", "HEAD")  # the index git grep lists the tree's files by


def tarball_name(path: Path) -> str:
    """linux-source-6.1 of /usr/src/linux-source-6.1.tar.xz."""
    name = path.name
    for suffix in TARBALL_SUFFIXES:
        name = name.removesuffix(suffix)
    return name


def borrow_checkout(checkout: Path, state: Path, head: str) -> dict:
    """The checkout's HEAD, checked out in <state>/checkout by the git dir
    <state>/git, which reads the checkout's objects through alternates and
    writes its own: the user's repository is only read.  The tree's info."""
    src, git_dir = state / "checkout", state / "git"
    info = {"source": str(checkout), "kind": "git", "fingerprint": head, "src": str(src),
            "git_dir": str(git_dir), "state": str(state), "version": "", "baseline": head,
            "base": {"kind": "git", **checkout_names(checkout)}}
    tree = Tree(info)
    src.mkdir(parents=True, exist_ok=True)
    if not (git_dir / "objects").is_dir():
        tree.git("init", "-q")
    objects, shallow = (Path(user_git(checkout, "rev-parse", "--path-format=absolute", "--git-path", name)
                             .stdout.strip()) for name in ("objects", "shallow"))
    (git_dir / "objects" / "info" / "alternates").write_text(f"{objects}\n")
    if shallow.exists():  # a shallow clone: its history ends where the user's does
        shutil.copyfile(shallow, git_dir / "shallow")
    progress(f"checking out HEAD {head[:12]} of {checkout} as the baseline, in {src}")
    tree.git("checkout", "-q", "-f", "--detach", head)
    tree.git("clean", "-q", "-f", "-d", "-x")
    info["version"] = kernel_version(src)
    return info


def checkout_names(checkout: Path) -> dict:
    """What a reader can fetch the baseline by: `git describe` of HEAD (a
    tag such as next-20261204 or v6.13-rc1-42-g<commit>) and, when the
    branch tracks one, the upstream repository and branch."""
    names = {"describe": user_git(checkout, "describe", "--tags", "--always", "--abbrev=12", "HEAD").stdout.strip()}
    upstream = user_git(checkout, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}", check=False)
    remote, _, branch = upstream.stdout.strip().partition("/")
    if upstream.returncode == 0 and branch:
        url = user_git(checkout, "remote", "get-url", remote, check=False)
        if url.returncode == 0:
            names["upstream"] = f"{url.stdout.strip()} {branch}"
    return names


def load(kver: str) -> Tree:
    key, _, _ = resolve(kver)
    return Tree(read_json(work_dir() / key / "tree.json", f"tree {kver}"))
