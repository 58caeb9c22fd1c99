# SPDX-License-Identifier: GPL-2.0-only
"""One rule on files: spatch (one file, or a batch in one process),
unifdef, or the Kconfig and text editors, each in a scratch directory so
the tree is never written; and the cache of their results.  A cached result
is keyed by what it depends on: spatch's version, the rule, its options,
the file's path and content, and this module's code (the parsing of
spatch's output here) with what it imports (kconfig, text_rules, smpl: the
probes that tell which sub-rules fired, appended to the rule as it runs),
and the modules a cache's owner names (the apply stage: layout.py, whose
restored layout is part of what it keeps).
A changed file's result has "fired": the probed sub-rules that matched in
it (smpl.py), when the rule has probes."""
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import List, Optional, Tuple

from . import kconfig, smpl, text_rules
from ..common import TimeoutExpired, Y2038Error, code_key, dependency_key, digest, run, work_dir, write_atomic

# A rule with python scripts makes spatch look for the interpreter of its
# library: it asks the first python3 on PATH, which on a machine with pyenv's
# shims there starts a dozen processes (1.4 s of CPU per spatch run, half of
# it the kernel's).  Debian's spatch is built against Debian's python.
SYSTEM_PYTHON = Path("/usr/bin/python3")


def spatch_command(*args) -> list:
    return ["spatch", *(["--python", str(SYSTEM_PYTHON)] if SYSTEM_PYTHON.exists() else []), *args]


def spatch_version() -> str:
    out = run(["spatch", "--version"]).stdout
    return out.splitlines()[0].strip()


def cache_root() -> Path:
    return Path(os.environ.get("Y2038_SPATCH_CACHE") or work_dir() / "cache" / "spatch")


def parse_cocci(path: Path, *args: str, merge_output: bool = False) -> Tuple[int, str, str]:
    """(returncode, stdout, stderr) of `spatch --parse-cocci path args`, run
    once per spatch binary, rule text and arguments, then read from the
    cache's parse-cocci/ folder: a convert run asks it twice per rule (the
    parse check, the grep query), about 30 s of a one-file module's minute."""
    binary = shutil.which("spatch") or "spatch"
    stat = os.stat(binary) if os.path.exists(binary) else None
    key = digest(binary, stat and (stat.st_size, stat.st_mtime_ns), path.read_bytes(), path, *args, merge_output)
    kept = cache_root() / "parse-cocci" / f"{key}.json"
    try:
        returncode, stdout, stderr = json.loads(kept.read_text())
        return returncode, stdout, stderr
    except (OSError, ValueError):
        pass
    proc = run(spatch_command("--parse-cocci", str(path), *args), check=False, merge_output=merge_output)
    result = (proc.returncode, proc.stdout, proc.stderr or "")
    kept.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(kept, json.dumps(result).encode())
    return result


class SpatchCache:
    """Results by (spatch version, rule, options, path, content)."""

    def __init__(self, root: Path, version: str, code_files=()):
        """code_files: more modules the results kept here depend on (the
        layout restored on spatch's output before a result is kept)."""
        self.root = root
        self.version = version
        self.code = code_key([__file__, *code_files])  # once: a key is asked for every (rule, file)

    def key(self, rule, relpath: str, content: bytes, context: str = "", code: Optional[str] = None) -> str:
        """context: what else the result depends on (the tree, for rules that
        read headers); code: code_key() of the modules that make the result,
        when not this module's (hazards and convert keep their reports here)."""
        return dependency_key(self.version, rule.digest, " ".join(rule.options), relpath, context, content,
                              code or self.code)

    def get(self, key: str):
        meta = self.root / key[:2] / f"{key}.json"
        if not meta.exists():
            return None
        result = json.loads(meta.read_text())
        if result["status"] == "changed":
            result["output"] = (self.root / key[:2] / f"{key}.out").read_bytes()
        return result

    def put(self, key: str, result: dict) -> None:
        """Each file written whole and renamed into place, the .json last:
        runs on several machines can share one cache directory."""
        folder = self.root / key[:2]
        folder.mkdir(parents=True, exist_ok=True)
        meta = {k: v for k, v in result.items() if k != "output"}
        if result["status"] == "changed":
            write_atomic(folder / f"{key}.out", result["output"])
        write_atomic(folder / f"{key}.json", json.dumps(meta, sort_keys=True).encode())


def type_options(src: Path, relpath: str, recursive: bool = True, own_directory: bool = False):
    """Include paths so that spatch knows the types of fields declared in the
    tree's headers, for the architecture the file belongs to; recursive:
    the headers those include too, else only the file's own includes.
    A file's #include "x.h" and "../x.h" spatch finds beside the file (its
    copy runs among links to the tree's directories: inputs()), so the
    paths are the same for every file of an architecture and one process
    can take files of many directories; own_directory: the file's
    directory first as well, for code whose Makefile lets it name its own
    headers <x.h> (out-of-tree modules, run without the links)."""
    parts = relpath.split("/")
    arch = parts[1] if parts[0] == "arch" and len(parts) > 2 else "x86"
    dirs = [f"arch/{arch}/include", f"arch/{arch}/include/uapi", f"arch/{arch}/include/generated", "include",
            "include/uapi"]
    if own_directory:
        dirs.insert(0, str(Path(relpath).parent))
    options = ["--recursive-includes" if recursive else "--all-includes", "--relax-include-path"]
    for d in dirs:
        options += ["-I", str(src / d)]
    return options


def inputs(root: Path, contents: dict, tree: Optional[Path] = None) -> None:
    """The files to run on, written under root (so the tree is never
    written); tree: beside them, links to the rest of the tree's
    directories on their paths, so that spatch reads a file's own headers
    where make does (#include "x.h", "../x.h") and writes only under root."""
    for relpath, content in contents.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_bytes(content)
    if tree is None:
        return
    folders = {parent for relpath in contents for parent in Path(relpath).parents}
    for folder in folders:
        for entry in os.scandir(tree / folder):
            link = root / folder / entry.name
            if not os.path.lexists(link):
                os.symlink(entry.path, link)


def run_spatch(rule, relpath: str, content: bytes, timeout: int, extra=(), tree: Optional[Path] = None) -> dict:
    """One rule on one file, in a scratch directory (inputs())."""
    with tempfile.TemporaryDirectory(prefix="y2038-spatch-") as scratch:
        inputs(Path(scratch) / "in", {relpath: content}, tree)
        out = Path(scratch) / "out"
        cmd = spatch_command("--sp-file", sp_file(rule, Path(scratch)), "-D", "patch", "--parse-error-msg",
                             "--timeout", str(timeout), *rule.options, *extra, relpath, "-o", str(out))
        try:
            proc = run(cmd, cwd=Path(scratch) / "in", check=False, binary=True, merge_output=True,
                       timeout=timeout + 60)
        except TimeoutExpired:
            return {"status": "timeout", "detail": f"spatch killed after {timeout + 60} s"}
        log = proc.stdout.decode(errors="replace")
        if proc.returncode != 0 and f"Skipping: {relpath}" in log:
            return {"status": "unchanged", "unparsed_lines": 0}  # spatch's own token check
        if proc.returncode != 0:
            # spatch says "exn while in timeout_function" of any failure
            if "Common.Timeout" in log or "timeout (we abort)" in log:
                return {"status": "timeout", "detail": f"spatch --timeout {timeout} expired"}
            lines = [l for l in log.splitlines() if l.strip() and not l.startswith(("init_defs", "HANDLING"))]
            return {"status": "failed", "detail": " | ".join(lines[-3:])}
        unparsed = sum(int(n) for n in re.findall(r"^badcount: (\d+)", log, re.M))
        output = out.read_bytes() if out.exists() else content
        return changed_result(rule, content, output, unparsed, log)


def sp_file(rule, scratch: Path) -> str:
    """The semantic patch spatch runs: the rule itself, or a copy in scratch
    with the probes of its annotated sub-rules appended."""
    if not rule.probed:
        return str(rule.path)
    probed = scratch / rule.path.name
    probed.write_text(rule.text + smpl.probes(rule.probed))
    return str(probed)


def changed_result(rule, content: bytes, output: bytes, unparsed: int, log: str) -> dict:
    """A finished spatch run's result for one file; log: that file's part of
    spatch's output, where the probes printed the sub-rules that fired."""
    if output == content:
        return {"status": "unchanged", "unparsed_lines": unparsed}
    result = {"status": "changed", "unparsed_lines": unparsed, "output": output}
    if rule.probed:
        result["fired"] = smpl.fired_in(log)
    return result


def unifdef_arguments(rule):
    """A .unifdef rule's body: unifdef's -DSYM[=value], -USYM and -B
    (compress the blank lines around a removed section), nothing else."""
    args = [a for line in rule.body for a in line.split()]
    bad = [a for a in args if not re.fullmatch(r"-B|-[DU][A-Za-z_]\w*(=\w+)?", a)]
    if bad or not any(a != "-B" for a in args):
        raise Y2038Error(f"{rule.relpath}: a .unifdef rule holds -DSYM[=value], -USYM and -B only"
                         + (f", not {' '.join(bad)}" if bad else ""))
    return args


def run_text_rule(rule, relpath: str, content: bytes) -> dict:
    """A .unifdef, .kconfig or .text rule on one file: same result shape as spatch's,
    plus 'left': [(line, why)] for what the rule saw but could not convert."""
    if rule.kind == "unifdef":
        proc = run(["unifdef", *unifdef_arguments(rule), "-"], input=content, check=False, binary=True)
        if proc.returncode not in (0, 1):  # 1: output differs from input
            return {"status": "failed", "detail": proc.stderr.decode(errors="replace").strip()}
        left: List[Tuple[int, str]] = []
        output = proc.stdout
    elif rule.kind == "text":
        output = text_rules.edit(content.decode(errors="surrogateescape"),
                                 text_rules.parse_commands(rule.body, rule.relpath)).encode(errors="surrogateescape")
        left = []
    else:
        text, left = kconfig.edit(content.decode(), kconfig.parse_commands(rule.body, rule.relpath))
        output = text.encode()
    result = {"status": "changed" if output != content else "unchanged", "unparsed_lines": 0,
              "left": [list(item) for item in left]}
    if output != content:
        result["output"] = output
    return result


def run_spatch_batch(rule, contents: dict, timeout: int, extra=(), tree: Optional[Path] = None) -> dict:
    """One rule on many files in one spatch process (--file-groups: each file
    its own group, so a timeout or parse error stays with its file).  Files
    the process did not get to are run one by one.  extra: more options,
    the same for every file (type_options of files of one architecture);
    tree: the tree the files' headers are read from (inputs())."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="y2038-spatch-") as scratch:
        root = Path(scratch) / "in"
        inputs(root, contents, tree)
        groups = Path(scratch) / "groups"
        groups.write_text("\n\n".join(contents) + "\n")
        cmd = spatch_command("--sp-file", sp_file(rule, Path(scratch)), "-D", "patch", "--parse-error-msg",
                             "--timeout", str(timeout), *rule.options, *extra, "--file-groups", str(groups),
                             "--out-place")
        try:
            log = run(cmd, cwd=root, check=False, binary=True, merge_output=True,
                      timeout=timeout * len(contents) + 60).stdout.decode(errors="replace")
        except TimeoutExpired:
            log = ""
        for chunk in re.split(r"^(?=HANDLING: |Skipping: )", log, flags=re.M):
            m = re.match(r"(HANDLING|Skipping): (\S+)\n", chunk)
            if not m or m.group(2) not in contents:
                continue
            relpath = m.group(2)
            if (exn := re.search(r"^EXN: (.*) in ", chunk, re.M)):
                status = "timeout" if "Timeout" in exn.group(1) else "failed"
                detail = f"spatch --timeout {timeout} expired" if status == "timeout" else exn.group(1)
                results[relpath] = {"status": status, "detail": detail}
                continue
            unparsed = sum(int(n) for n in re.findall(r"^badcount: (\d+)", chunk, re.M))
            out = root / f"{relpath}.cocci_res"
            output = out.read_bytes() if out.exists() else contents[relpath]
            results[relpath] = changed_result(rule, contents[relpath], output, unparsed, chunk)
    for relpath in contents.keys() - results.keys():
        results[relpath] = run_spatch(rule, relpath, contents[relpath], timeout, extra, tree)
    return results
