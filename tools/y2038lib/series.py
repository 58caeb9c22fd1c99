# SPDX-License-Identifier: GPL-2.0-only
"""Series stage: matches.json -> one commit per campaign x subsystem ->
git format-patch postings in generated-patches/linux-<version>/.

The subsystem of a file is the first (most specific) MAINTAINERS section that
the tree's own scripts/get_maintainer.pl names for it; commits are ordered by
maintainer tree, campaign and subsystem, and split into postings of at most
MAX_POSTING patches per tree (Documentation/process/submitting-patches.rst).
Everything is deterministic: two runs give byte-identical output.
"""
import os
import re
import shutil
import subprocess
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .apply import commit_contents
from .hazards import hazards_text
from .rules import parse_rule
from .common import COCCI_DIR, DEFAULT_SIGNOFF, PATCHES_DIR, Y2038Error, git_env, progress, read_json, run, write_json

MAX_POSTING = 15
# Paragraphs of the cover letter that the build and boot stages fill in.
BUILD_PLACEHOLDER = "Build verification: not run yet (`tools/y2038 build` fills this in)."
BOOT_PLACEHOLDER = "Boot verification: not run yet (`tools/y2038 boot` fills this in)."

# Subject prefixes by path; {1} is the first directory below the prefix, {2} the second.
PREFIXES = [
    ("drivers/gpu/drm/", "drm/{1}"),
    ("drivers/net/ethernet/", "net: {2}"),
    ("drivers/net/wireless/", "wifi: {2}"),
    ("drivers/net/", "net: {1}"),
    ("drivers/scsi/", "scsi: {1}"),
    ("drivers/", "{1}: {2}"),
    ("sound/", "ALSA: {1}"),
    ("net/", "net: {1}"),
    ("kernel/trace/", "tracing"),
    ("kernel/", "{1}"),
    ("fs/", "{1}"),
    ("arch/", "{1}: {2}"),
    ("include/net/", "net"),
    ("block/", "block"),
    ("mm/", "mm"),
    ("lib/", "lib"),
]

# Why a checkpatch warning may stay in a generated patch.
WARNING_REASONS = {
    "LONG_LINE": "the changed line keeps the layout of the original code",
    "LONG_LINE_STRING": "the string is unchanged from the original code",
    "CAMELCASE": "the identifier is unchanged from the original code",
}


def subject_prefix(files) -> str:
    dirs = [str(Path(f).parent) + "/" for f in files]
    common = dirs[0]
    for d in dirs[1:]:
        while not d.startswith(common):
            common = common.rstrip("/").rsplit("/", 1)[0] + "/" if "/" in common.rstrip("/") else ""
    for prefix, template in PREFIXES:
        if common.startswith(prefix):
            below = common[len(prefix):].strip("/").split("/") if common != prefix else []
            out = template
            for n in (1, 2):
                value = below[n - 1] if len(below) >= n else ""
                out = out.replace(f"{{{n}}}", value)
            return re.sub(r"(: )+$|/$", "", out.replace(": : ", ": ")).strip(": ") or "treewide"
    return common.strip("/").split("/")[0] if common else "treewide"


class Maintainers:
    """Answers from the tree's own scripts/get_maintainer.pl, once per file."""

    def __init__(self, tree):
        self.tree = tree

    def _get(self, *args):
        # get_maintainer.pl orders equal-ranked names by Perl hash order: fix the seed
        env = dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")
        return run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback", *args],
                   cwd=self.tree.src, env=env).stdout

    def lookup(self, relpath: str) -> dict:
        sections = self._get("--sections", "-f", relpath).split("\n\n")
        subsystem, tree_url = "THE REST", ""
        for n, section in enumerate(s for s in sections if s.strip()):
            lines = section.strip().splitlines()
            if n == 0:
                subsystem = lines[0].strip()
            trees = [tree_url_of(l) for l in lines if l.startswith("T:")]
            if trees and not tree_url:
                tree_url = trees[-1]
        cc = [l.strip() for l in self._get("--no-rolestats", "-f", relpath).splitlines() if l.strip()]
        return {"subsystem": subsystem, "tree": tree_url, "cc": cc}


def tree_url_of(line: str) -> str:
    """'T:\tgit git://host/owner/repo.git branch' -> the URL."""
    words = line.split()[1:]
    return words[1] if len(words) > 1 and words[0] in ("git", "hg", "quilt") else words[0]


def tree_slug(url: str) -> str:
    """owner-repo for git.kernel.org-style URLs, else the repository name."""
    if not url:
        return "no-tree"
    parts = url.rstrip("/").removesuffix(".git").split("/")
    name = "-".join(parts[-2:]) if len(parts) >= 2 and "git" in parts[:-2] else parts[-1]
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name)


def campaign_info(campaign: str) -> dict:
    path = COCCI_DIR / campaign / "CAMPAIGN"
    if not path.exists():
        return {"subject": f"apply the {campaign} conversions", "text": ""}
    lines = path.read_text().splitlines()
    subject = lines[0].removeprefix("Subject:").strip()
    return {"subject": subject, "text": "\n".join(lines[1:]).strip()}


def wrap(text: str) -> str:
    paras = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    return "\n\n".join(textwrap.fill(" ".join(p.split()), 72, break_long_words=False,
                                     break_on_hyphens=False) for p in paras)


def group_commits(matches: dict, maint: Maintainers):
    """[(sort key, group dict)] one per campaign x subsystem."""
    all_files = sorted({f for c in matches["campaigns"] for f in c["files"]})
    progress(f"asking get_maintainer.pl about {len(all_files)} files")
    with ThreadPoolExecutor(max_workers=4) as pool:
        info = dict(zip(all_files, pool.map(maint.lookup, all_files)))
    groups = []
    for order, campaign in enumerate(matches["campaigns"]):
        by_subsystem = {}
        for relpath in campaign["files"]:
            by_subsystem.setdefault(info[relpath]["subsystem"], []).append(relpath)
        for subsystem, files in by_subsystem.items():
            rules = []
            for rule in campaign["rules"]:
                sites = {f: rule["files"][f] for f in files if f in rule["files"]}
                if sites:
                    rules.append({"name": rule["name"], "path": rule["path"], "subject": rule["subject"],
                                  "sites": sum(sites.values()),
                                  "removed": {f: rule["removed"][f] for f in sorted(sites)},
                                  "listed": sorted({n for f in sites for n in rule.get("listed", {}).get(f, [])})})
            cc = []
            for f in files:
                cc += [c for c in info[f]["cc"] if c not in cc]
            tree_url = next((info[f]["tree"] for f in files if info[f]["tree"]), "")
            groups.append({"campaign": campaign["name"], "campaign_order": order,
                           "campaign_commit": campaign["commit"], "subsystem": subsystem,
                           "tree": tree_url, "files": sorted(files), "rules": rules, "cc": cc,
                           "sites": sum(r["sites"] for r in rules)})
    # Per file, campaign order is kept: a file has one subsystem and so one tree.
    groups.sort(key=lambda g: (tree_slug(g["tree"]), g["tree"], g["campaign_order"], g["subsystem"]))
    return groups


def commit_message(group: dict, signoff: str) -> str:
    prefix = subject_prefix(group["files"])
    campaign = campaign_info(group["campaign"])
    body = []
    if len(group["rules"]) == 1:
        subject = group["rules"][0]["subject"]
    else:
        subject = campaign["subject"]
        if campaign["text"]:
            body.append(wrap(campaign["text"]))
    for rule in group["rules"]:
        parsed = parse_rule(COCCI_DIR.parent / rule["path"])
        body.append(wrap(parsed.rationale))
        if parsed.listing and rule.get("listed"):
            body.append(wrap(f"{parsed.listing[0]}: {', '.join(rule['listed'])}."))
    counts = ", ".join(f"{r['sites']} by {Path(r['path']).stem}" for r in group["rules"])
    nfiles = len(group["files"])
    sites = f"{group['sites']} site{'s' if group['sites'] > 1 else ''}"
    body.append(wrap(f"{sites} in {nfiles} file{'s' if nfiles > 1 else ''} ({counts}). "
                     f"Generated with Coccinelle; no functional change intended."))
    trailer = [f"Generated by: {r['path']}" for r in group["rules"]]
    trailer += [f"Cc: {c}" for c in group["cc"]]
    trailer.append(f"Signed-off-by: {signoff}")
    return f"{prefix}: {subject}\n\n" + "\n\n".join(body) + "\n\n" + "\n".join(trailer) + "\n"


def checkpatch(tree, patch: Path) -> dict:
    proc = run(["perl", "scripts/checkpatch.pl", "--terse", "--show-types", "--no-summary", str(patch)],
               cwd=tree.src, check=False)
    found = {"errors": [], "warnings": []}
    for line in proc.stdout.splitlines():
        m = re.match(r".*?:\d*:? ?(ERROR|WARNING|CHECK):(\w+): (.*)", line)
        if m and m.group(1) != "CHECK":
            found["errors" if m.group(1) == "ERROR" else "warnings"].append(
                {"type": m.group(2), "message": m.group(3)})
    return found


def cover_letter(version, posting, patches, matches) -> tuple:
    campaigns = sorted({p["campaign"] for p in patches}, key=lambda c: [x["name"] for x in matches["campaigns"]].index(c))
    subject = f"{tree_slug(posting['tree'])}: y2038 and direct-time conversions ({', '.join(campaigns)})"
    lines = [f"This series converts time code in Linux {version} to the scalar, y2038-safe",
             "forms introduced since Linux 3.17 (ktime_t as plain s64 nanoseconds).",
             "Every patch was generated by a Coccinelle semantic patch from the y2038",
             "toolkit; each names its rule in a \"Generated by:\" line.", "",
             f"Maintainer tree: {posting['tree'] or '(none listed in MAINTAINERS)'}"]
    if posting["of"] > 1:
        lines.append(f"Posting {posting['part']} of {posting['of']} for this tree "
                     f"(at most {MAX_POSTING} patches per posting).")
    lines += ["", "Sites per patch:"]
    for p in patches:
        lines.append(f"  {p['sites']:3d}  {p['campaign']}  {p['subsystem']}")
    lines.append(f"  {sum(p['sites'] for p in patches):3d}  total in {sum(len(p['files']) for p in patches)} files")
    warnings = [(p["name"], w) for p in patches for w in p["checkpatch"]["warnings"]]
    lines.append("")
    if warnings:
        lines.append("checkpatch.pl warnings left, with the reason:")
        for name, w in warnings:
            reason = WARNING_REASONS.get(w["type"], "left as generated; see the diff")
            lines.append(f"  {name}: {w['type']}: {w['message']} ({reason})")
    else:
        lines.append("checkpatch.pl: no errors, no warnings.")
    lines += ["", BUILD_PLACEHOLDER, "", BOOT_PLACEHOLDER]
    return subject, "\n".join(lines)


def series_dir(tree, out=None) -> Path:
    return Path(out) if out else PATCHES_DIR / f"linux-{tree.version}"


def series_stage(tree, out=None, signoff=DEFAULT_SIGNOFF) -> Path:
    if not re.fullmatch(r"[^<>]+ <[^<>@\s]+@[^<>\s]+>", signoff):
        raise Y2038Error(f"sign-off identity {signoff!r} is not of the form 'Name <email>'")
    matches = read_json(tree.state / "matches.json", "apply")
    if matches["baseline"] != tree.baseline:
        raise Y2038Error("matches.json was made for another baseline: run `tools/y2038 apply` again")
    out = series_dir(tree, out)
    groups = group_commits(matches, Maintainers(tree))
    if not groups:
        progress("no sites: nothing to put in a series")

    env = git_env(identity=signoff)
    parent = tree.baseline
    for n, group in enumerate(groups):
        contents = {}
        for relpath in group["files"]:
            contents[relpath] = run_bytes(tree, ["git", "show", f"{group['campaign_commit']}:{relpath}"])
        parent = commit_contents(tree, contents, parent, commit_message(group, signoff), env=env)
        group["commit"] = parent

    # postings: contiguous runs of one tree, at most MAX_POSTING each
    postings = []
    for group in groups:
        if not postings or postings[-1]["tree"] != group["tree"] or len(postings[-1]["groups"]) == MAX_POSTING:
            postings.append({"tree": group["tree"], "groups": []})
        postings[-1]["groups"].append(group)
    for posting in postings:
        same = [p for p in postings if p["tree"] == posting["tree"]]
        posting["part"], posting["of"] = same.index(posting) + 1, len(same)

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    series_lines, results = [], {"version": tree.version, "baseline": tree.baseline,
                                 "source": Path(tree.info["source"]).name, "patches": [], "postings": []}
    start = tree.baseline
    for n, posting in enumerate(postings, 1):
        slug = f"{n:02d}-{tree_slug(posting['tree'])}"
        end = posting["groups"][-1]["commit"]
        run(["git", "-c", "core.abbrev=12", "format-patch", "-q", "--cover-letter", "--no-signature", f"--base={tree.baseline}",
             "-o", str(out / slug), f"{start}..{end}"], cwd=tree.src, env=dict(env, GIT_DIR=str(tree.git_dir)))
        start = end
        names = sorted(p.name for p in (out / slug).glob("*.patch") if not p.name.startswith("0000-"))
        patches = []
        for name, group in zip(names, posting["groups"]):
            record = {"name": f"{slug}/{name}", "campaign": group["campaign"], "subsystem": group["subsystem"],
                      "tree": group["tree"], "files": group["files"], "rules": [r["path"] for r in group["rules"]],
                      "sites": group["sites"], "cc": group["cc"],
                      # per rule and file, the lines it changed: what `y2038 compare` matches
                      "site_lines": {r["path"]: r["removed"] for r in group["rules"]},
                      "checkpatch": checkpatch(tree, out / slug / name)}
            patches.append(record)
            series_lines.append(record["name"])
        subject, blurb = cover_letter(tree.version, posting, patches, matches)
        cover = out / slug / "0000-cover-letter.patch"
        text = cover.read_text().replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
        cover.write_text(text)
        results["postings"].append({"dir": slug, "tree": posting["tree"], "patches": [p["name"] for p in patches]})
        results["patches"] += patches
    (out / "series").write_text("".join(f"{line}\n" for line in series_lines))
    hazards_json = tree.state / "hazards.json"
    if hazards_json.exists():
        report = read_json(hazards_json, "hazards")
        if report["baseline"] == tree.baseline:
            (out / "y2038-hazards.txt").write_text(hazards_text(report))
    write_json(out / "results.json", results)
    errors = [(p["name"], e) for p in results["patches"] for e in p["checkpatch"]["errors"]]
    progress(f"{len(results['patches'])} patches in {len(postings)} postings, "
             f"{sum(p['sites'] for p in results['patches'])} sites")
    if errors:
        raise Y2038Error("checkpatch.pl errors: " + "; ".join(f"{n}: {e['type']}: {e['message']}" for n, e in errors))
    return out


def run_bytes(tree, cmd) -> bytes:
    env = dict(git_env(), GIT_DIR=str(tree.git_dir))
    return subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE).stdout
