# SPDX-License-Identifier: GPL-2.0-only
"""Series stage: matches.json -> one commit per campaign x subsystem x
subject prefix (one driver a patch) -> git format-patch postings in
generated-patches/linux-<version>/.

The subsystem of a file is the first (most specific) MAINTAINERS section that
the tree's own scripts/get_maintainer.pl names for it; commits are ordered by
maintainer tree, campaign and subsystem, and split into postings of at most
MAX_POSTING patches per tree (posting_rules: how each tree wants them).
Each posting is made on its own branch from the baseline (no posting needs
another), so its base block has only base-commit.  Without a sign-off
identity the series is a draft: DRAFT in every subject, no Signed-off-by.
Everything is deterministic: two runs give byte-identical output.
"""
import difflib
import os
import re
import shutil
import subprocess
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import posting_rules
from .apply import commit_contents
from .hazards import hazards_text
from .rules import parse_rule
from .common import COCCI_DIR, DEFAULT_SIGNOFF, PATCHES_DIR, Y2038Error, git_env, progress, read_json, run, write_json

MAX_POSTING = posting_rules.MAX_POSTING
# Paragraphs of the cover letter that the build and boot stages fill in.
BUILD_PLACEHOLDER = "Build verification: not run yet (`tools/y2038 build` fills this in)."
BOOT_PLACEHOLDER = "Boot verification: not run yet (`tools/y2038 boot` fills this in)."

# Why a checkpatch warning may stay in a generated patch.
WARNING_REASONS = {
    "LONG_LINE": "the changed line keeps the layout of the original code",
    "LONG_LINE_STRING": "the string is unchanged from the original code",
    "CAMELCASE": "the identifier is unchanged from the original code",
}


class Maintainers:
    """Answers from the tree's own scripts/get_maintainer.pl, once per file."""

    def __init__(self, tree):
        self.tree = tree

    def _get(self, *args):
        # get_maintainer.pl orders equal-ranked names by Perl hash order: fix the seed
        env = dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")
        return run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback", "--no-keywords", *args],
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


KINDS = {  # a campaign's Kind: -> what its cover letter says the change is
    "cleanup": "These are cleanups, not fixes: the code they touch is y2038-safe as it is.",
    "fix": "These fix y2038 limits: values that overflow a 32-bit time_t in January 2038.",
    "port": "These move code off time APIs that later kernels removed.",
}


def campaign_info(campaign: str) -> dict:
    """A campaign's CAMPAIGN file: 'Subject:' and 'Kind:' lines, then text."""
    path = COCCI_DIR / campaign / "CAMPAIGN"
    if not path.exists():
        return {"subject": f"apply the {campaign} conversions", "kind": "", "text": ""}
    lines = path.read_text().splitlines()
    headers = {}
    while lines and re.match(r"^(Subject|Kind):", lines[0]):
        key, value = lines.pop(0).split(":", 1)
        headers[key] = value.strip()
    if headers.get("Kind", "cleanup") not in KINDS:
        raise Y2038Error(f"{path}: Kind: must be one of {', '.join(KINDS)}")
    return {"subject": headers.get("Subject", f"apply the {campaign} conversions"),
            "kind": headers.get("Kind", ""), "text": "\n".join(lines).strip()}


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
        by_subsystem = {}  # and by subject prefix: one driver a patch
        for relpath in campaign["files"]:
            key = (info[relpath]["subsystem"], posting_rules.subject_prefix(relpath))
            by_subsystem.setdefault(key, []).append(relpath)
        for (subsystem, prefix), files in by_subsystem.items():
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
            groups.append({"campaign": campaign["name"], "campaign_order": order, "prefix": prefix,
                           "campaign_commit": campaign["commit"], "subsystem": subsystem,
                           "tree": tree_url, "files": sorted(files), "rules": rules, "cc": cc,
                           "sites": sum(r["sites"] for r in rules)})
    # Per file, campaign order is kept: a file has one subsystem and so one tree.
    groups.sort(key=lambda g: (tree_slug(g["tree"]), g["tree"], g["campaign_order"], g["subsystem"], g["prefix"]))
    return groups


def commit_message(group: dict, signoff) -> str:
    """The commit message of a group; signoff None: a draft, no Signed-off-by."""
    prefix = group.get("prefix") or posting_rules.subject_prefix(group["files"][0])
    campaign = campaign_info(group["campaign"])
    body = []
    if len(group["rules"]) == 1:
        summary = group["rules"][0]["subject"]
    else:
        summary = campaign["subject"]
        if campaign["text"]:
            body.append(wrap(campaign["text"]))
    for rule in group["rules"]:
        parsed = parse_rule(COCCI_DIR.parent / rule["path"])
        body.append(wrap(parsed.rationale))
        if parsed.listing and rule.get("listed"):
            body.append(wrap(f"{parsed.listing[0]}: {', '.join(rule['listed'])}."))
    rewrites = group.get("rewrites", group["sites"])
    nfiles = len(group["files"])
    by = " and ".join(Path(r["path"]).stem for r in group["rules"])
    body.append(wrap(f"{rewrites} change{'s' if rewrites > 1 else ''} in {nfiles} file{'s' if nfiles > 1 else ''}, "
                     f"generated with Coccinelle ({by}); no functional change intended."))
    trailer = [f"Generated by: {r['path']}" for r in group["rules"]]
    trailer += [f"Cc: {c}" for c in group["cc"]]
    if signoff:
        trailer.append(f"Signed-off-by: {signoff}")
    return (posting_rules.subject(prefix, summary, group.get("tree", "")) + "\n\n" + "\n\n".join(body) +
            "\n\n" + "\n".join(trailer) + "\n")


def rewrites(before: bytes, after: bytes) -> int:
    """The changes a reviewer sees: runs of changed lines, not removed lines."""
    return sum(1 for op in difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(),
                                                   autojunk=False).get_opcodes() if op[0] != "equal")


def checkpatch(tree, patch: Path, draft: bool) -> dict:
    """checkpatch.pl's errors and warnings (a draft has no Signed-off-by: on purpose)."""
    ignore = ["--ignore", "MISSING_SIGN_OFF"] if draft else []
    proc = run(["perl", "scripts/checkpatch.pl", "--terse", "--show-types", "--no-summary", *ignore, str(patch)],
               cwd=tree.src, check=False)
    found = {"errors": [], "warnings": []}
    for line in proc.stdout.splitlines():
        m = re.match(r".*?:\d*:? ?(ERROR|WARNING|CHECK):(\w+): (.*)", line)
        if m and m.group(1) != "CHECK":
            found["errors" if m.group(1) == "ERROR" else "warnings"].append(
                {"type": m.group(2), "message": m.group(3)})
    return found


def cover_letter(version, posting, patches, matches) -> tuple:
    names = [x["name"] for x in matches["campaigns"]]
    campaigns = sorted({p["campaign"] for p in patches}, key=names.index)
    infos = [campaign_info(c) for c in campaigns]
    subject = posting_rules.subject(posting["prefix"], "; ".join(i["subject"] for i in infos), posting["tree"])
    lines = []
    for kind in dict.fromkeys(i["kind"] for i in infos if i["kind"]):
        lines += [KINDS[kind], ""]
    for info in infos:
        if info["text"]:
            lines += [wrap(info["text"]), ""]
    lines += [f"Made for Linux {version}.  Every patch was generated by a Coccinelle semantic patch",
              "of the y2038 toolkit and names it in a \"Generated by:\" line.", "",
              f"Maintainer tree: {posting['tree'] or '(none listed in MAINTAINERS)'}"]
    if posting["of"] > 1:
        lines.append(f"Posting {posting['part']} of {posting['of']} for this tree (at most {MAX_POSTING} patches "
                     f"a posting)" + (": send it after the earlier ones are merged." if posting["part"] > 1 else "."))
    lines += ["", "Changes per patch:"]
    for p in patches:
        lines.append(f"  {p['rewrites']:3d}  {p['prefix']}  ({p['campaign']})")
    nfiles = sum(len(p["files"]) for p in patches)
    lines.append(f"  {sum(p['rewrites'] for p in patches):3d}  in {nfiles} file{'s' if nfiles != 1 else ''}")
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


def posting_prefix(groups) -> str:
    """The subject prefix of a cover letter: the patches' own if they share
    one, else the first word most of them start with ("drm" for drm/vkms
    and drm/panel)."""
    prefixes = [g["prefix"] for g in groups]
    if len(set(prefixes)) == 1:
        return prefixes[0]
    firsts = [re.split(r"[:/ ]", p)[0] for p in prefixes]
    return max(sorted(set(firsts)), key=firsts.count)


def series_dir(tree, out=None) -> Path:
    return Path(out) if out else PATCHES_DIR / f"linux-{tree.version}"


def series_stage(tree, out=None, signoff=None, draft=False) -> Path:
    """signoff: the user's 'Name <email>' (author and Signed-off-by); without
    it only a draft is written, and only when asked for."""
    if signoff is None or signoff == DEFAULT_SIGNOFF:
        if not draft:
            raise Y2038Error("no identity for the series: give SIGNOFF='Name <email>' (you sign the Developer's "
                             "Certificate of Origin, nobody can for you) or --draft")
        signoff = None
    elif not re.fullmatch(r"[^<>]+ <[^<>@\s]+@[^<>\s]+>", signoff):
        raise Y2038Error(f"sign-off identity {signoff!r} is not of the form 'Name <email>'")
    matches = read_json(tree.state / "matches.json", "apply")
    if matches["baseline"] != tree.baseline:
        raise Y2038Error("matches.json was made for another baseline: run `tools/y2038 apply` again")
    out = series_dir(tree, out)
    groups = group_commits(matches, Maintainers(tree))
    if not groups:
        progress("no sites: nothing to put in a series")

    # postings: contiguous runs of one tree, at most MAX_POSTING each
    postings = []
    for group in groups:
        if not postings or postings[-1]["tree"] != group["tree"] or len(postings[-1]["groups"]) == MAX_POSTING:
            postings.append({"tree": group["tree"], "groups": []})
        postings[-1]["groups"].append(group)
    for posting in postings:
        same = [p for p in postings if p["tree"] == posting["tree"]]
        posting["part"], posting["of"] = same.index(posting) + 1, len(same)
        posting["prefix"] = posting_prefix(posting["groups"])

    # each posting on its own branch from the baseline: no file is in two
    # postings, so each applies alone and its base block is base-commit only
    env = git_env(identity=signoff or DEFAULT_SIGNOFF)
    for posting in postings:
        parent = tree.baseline
        for group in posting["groups"]:
            contents = {}
            for relpath in group["files"]:
                contents[relpath] = run_bytes(tree, ["git", "show", f"{group['campaign_commit']}:{relpath}"])
                group["rewrites"] = group.get("rewrites", 0) + rewrites(
                    run_bytes(tree, ["git", "show", f"{tree.baseline}:{relpath}"]), contents[relpath])
            parent = commit_contents(tree, contents, parent, commit_message(group, signoff), env=env)
            group["commit"] = parent

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    series_lines, results = [], {"version": tree.version, "baseline": tree.baseline, "draft": draft,
                                 "source": Path(tree.info["source"]).name, "patches": [], "postings": []}
    for n, posting in enumerate(postings, 1):
        slug = f"{n:02d}-{tree_slug(posting['tree'])}"
        end = posting["groups"][-1]["commit"]
        run(["git", "-c", "core.abbrev=12", "format-patch", "-q", "--cover-letter", "--no-signature",
             f"--base={tree.baseline}", "--subject-prefix", posting_rules.posting_subject_prefix(posting["tree"], draft),
             "-o", str(out / slug), f"{tree.baseline}..{end}"], cwd=tree.src, env=dict(env, GIT_DIR=str(tree.git_dir)))
        names = sorted(p.name for p in (out / slug).glob("*.patch") if not p.name.startswith("0000-"))
        patches = []
        for name, group in zip(names, posting["groups"]):
            record = {"name": f"{slug}/{name}", "campaign": group["campaign"], "subsystem": group["subsystem"],
                      "tree": group["tree"], "files": group["files"], "rules": [r["path"] for r in group["rules"]],
                      "sites": group["sites"], "rewrites": group["rewrites"], "prefix": group["prefix"],
                      "cc": group["cc"],
                      # per rule and file, the lines it changed: what `y2038 compare` matches
                      "site_lines": {r["path"]: r["removed"] for r in group["rules"]},
                      "checkpatch": checkpatch(tree, out / slug / name, draft)}
            patches.append(record)
            series_lines.append(record["name"])
        subject, blurb = cover_letter(tree.version, posting, patches, matches)
        cover = out / slug / "0000-cover-letter.patch"
        text = cover.read_text().replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
        cover.write_text(text)
        results["postings"].append({"dir": slug, "tree": posting["tree"], "prefix": posting["prefix"],
                                    "patches": [p["name"] for p in patches]})
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
             f"{sum(p['rewrites'] for p in results['patches'])} changes" + (" (a draft)" if draft else ""))
    if errors:
        raise Y2038Error("checkpatch.pl errors: " + "; ".join(f"{n}: {e['type']}: {e['message']}" for n, e in errors))
    return out


def run_bytes(tree, cmd) -> bytes:
    env = dict(git_env(), GIT_DIR=str(tree.git_dir))
    return subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE).stdout
