# SPDX-License-Identifier: GPL-2.0-only
"""Series stage: matches.json -> one commit per campaign x subsystem x
subject prefix (one driver a patch) -> git format-patch postings in
generated-patches/linux-<version>/.

The subsystem and maintainer tree of a file come from the tree's own
MAINTAINERS (maintainers.py, posting_rules.route); commits are ordered by
maintainer tree, driver family, campaign and subsystem, one posting per tree
(split between driver families past MAX_POSTING patches), addressed To its
maintainers and Cc its reviewers and lists.  A posting's folder is named
for its tree, so a regenerated series changes only what changed.
Each posting is made on its own branch from the baseline (no posting needs
another), so its base block has only base-commit.  Without a sign-off
identity the series is a draft: DRAFT in every subject, no Signed-off-by.
Everything is deterministic: two runs give byte-identical output.
"""
import email.utils
import json
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Tuple, Type

from . import coccicheck_rule, covers, fixes, mainline_fixes, posting_rules, product_facts
from .covers import campaign_info
from .messages import commit_message, rewrites
from ..engine.apply import commit_contents
from .maintainers import Maintainers
from .hazard_decisions import report_inputs as hazard_report_inputs
from .hazards import hazards_text
from ..engine.rules import RULE_KINDS, parse_rule
from .. import platforms
from ..common import (COCCI_DIR, DEFAULT_SIGNOFF, PATCHES_DIR, Y2038Error, dependency_key, digest, git_env, path_key,
                      progress, run)
from ..records import HeldCleanup, Hazards, Matches, Patch, Posting, SeriesResults, StageFile

MAX_POSTING = posting_rules.MAX_POSTING


def group_commits(matches: Matches, maint: Maintainers):
    """[(sort key, group dict)] one per campaign x subsystem."""
    all_files = matches.changed_files()
    progress(f"asking get_maintainer.pl about {len(all_files)} files")
    maint.person_trees()  # read once, before the threads
    with ThreadPoolExecutor(max_workers=4) as pool:
        info = dict(zip(all_files, pool.map(maint.route, all_files)))
    groups = []
    previous = matches.baseline  # each campaign's commit is on the one before it
    for order, campaign in enumerate(matches.campaigns):
        by_subsystem: Dict[Tuple[str, str], List[str]] = {}  # and by subject prefix: one driver a patch
        for relpath in campaign.files:
            key = (info[relpath]["subsystem"], posting_rules.subject_prefix(relpath))
            by_subsystem.setdefault(key, []).append(relpath)
        for (subsystem, prefix), files in by_subsystem.items():
            rules: List[dict] = []
            for rule in campaign.rules:
                sites = {f: rule.files[f] for f in files if f in rule.files}
                if sites:
                    rules.append({"name": rule.name, "path": rule.path, "subject": rule.subject,
                                  "sites": sum(sites.values()),
                                  "removed": {f: rule.removed[f] for f in sorted(sites)},
                                  "listed": sorted({n for f in sites for n in (rule.listed or {}).get(f, [])}),
                                  "fired": fired_in(rule, sites)})
            groups.append({"campaign": campaign.name, "campaign_order": order, "prefix": prefix,
                           "fix": campaign_info(campaign.name)["kind"] == "fix",
                           "campaign_commit": campaign.commit, "previous_commit": previous,
                           "subsystem": subsystem,
                           "tree": info[files[0]]["tree"], "route": info[files[0]]["route"],
                           "routes": {f: info[f] for f in files},
                           "files": sorted(files), "rules": rules,
                           "sites": sum(r["sites"] for r in rules)})
        previous = campaign.commit or previous
    # Fixes first, posted apart; per file, campaign order is kept: a file
    # has one subsystem and so one tree.
    groups.sort(key=lambda g: (not g["fix"], posting_rules.slug(g["tree"]), g["tree"], posting_rules.family(g["files"][0]),
                               g["campaign_order"], g["subsystem"], g["prefix"]))
    return groups


def address(groups, maint: Maintainers) -> None:
    """Each posted group's recipients: its files' people, each address once;
    a fix for a stable series' tree goes to the stable team first."""
    routes = {f: g["routes"][f] for g in groups for f in g["files"]}
    with ThreadPoolExecutor(max_workers=4) as pool:
        people = dict(zip(routes, pool.map(lambda f: maint.recipients(f, routes[f]), routes)))
    for group in groups:
        recipients: List[dict] = []
        for f in group["files"]:
            recipients += [r for r in people[f] if r["address"] not in {x["address"] for x in recipients}]
        if group["fix"] and not posting_rules.is_newest(maint.tree.version):
            recipients = fixes.stable_recipients(maint, recipients)
        group["recipients"] = recipients


def fired_in(rule, files):
    """The sub-rules of rule that fired in files (messages.py tells them),
    None where matches.json does not say for each of them."""
    if rule.fired is None or any(f not in rule.fired for f in files):
        return None
    return sorted({name for f in files for name in rule.fired[f]})


def split_postings(groups) -> list:
    """Postings of at most MAX_POSTING patches, one tree each; a tree with
    more is split between driver families (maintainer-netdev.rst), never
    inside one unless the family alone is larger."""
    postings = []
    for fix, tree in dict.fromkeys((g["fix"], g["tree"]) for g in groups):
        families: Dict[str, List[dict]] = {}
        for group in (g for g in groups if g["tree"] == tree and g["fix"] == fix):
            families.setdefault(posting_rules.family(group["files"][0]), []).append(group)
        parts: List[List[dict]] = [[]]
        for members in families.values():
            if parts[-1] and len(parts[-1]) + len(members) > MAX_POSTING:
                parts.append([])
            for group in members:
                if len(parts[-1]) == MAX_POSTING:
                    parts.append([])
                parts[-1].append(group)
        for n, part in enumerate(parts, 1):
            postings.append({"tree": tree, "groups": part, "part": n, "of": len(parts), "fix": fix,
                             "prefix": posting_prefix(part),
                             "dir": ("fixes-" if fix else "") + posting_rules.slug(tree) + (f"-part{n}" if n > 1 else "")})
    return postings


def addressees(groups) -> tuple:
    """(To, Cc) of a posting: maintainers and supporters, then the rest."""
    return split_recipients(r for g in groups for r in g["recipients"])


def split_recipients(recipients) -> tuple:
    """(To, Cc) of recipients, each person once: by name (MAINTAINERS may
    give one person two addresses, one per section), a list by address; a
    person To in any role is To, at the first address so addressed."""
    recipients = list(recipients)
    to_people = {person(r) for r in recipients if r["to"]}
    chosen: Dict[str, str] = {}
    for r in recipients:
        if r["to"] or person(r) not in to_people:
            chosen.setdefault(person(r), r["address"])
    to = [a for key, a in chosen.items() if key in to_people]
    cc = [a for key, a in chosen.items() if key not in to_people]
    return to, cc


def person(recipient: dict) -> str:
    """Who a recipient is: the name of 'Name <address>', else the address."""
    name, address = email.utils.parseaddr(recipient["address"])
    return " ".join(name.lower().split()) or (address or recipient["address"]).lower()


def hold_cleanups(groups, version: str, in_mainline=lambda group: False, fixed_since=lambda group: None,
                  sixty_four_bit_only=lambda group: None) -> tuple:
    """(groups posted, HeldCleanup records): clean-ups for a tree that takes
    no standalone clean-ups (posting_rules.CLEANUP_POLICIES), or made on a
    stable series' tree (posting_rules.STABLE_TREE), are held; so is a fix
    of a 32-bit bug in code no 32-bit machine runs (sixty_four_bit_only(group):
    a platforms.SixtyFourBitOnly), a fix mainline has made since
    (fixed_since(group): a MainlineFix; a stable backport request names it),
    and a fix made on a stable series' tree for a bug mainline still has
    (in_mainline(group); posting_rules.UPSTREAM_FIRST)."""
    posted, held = [], []
    for g in groups:
        kind = campaign_info(g["campaign"])["kind"] or "cleanup"
        only64 = sixty_four_bit_only(g) if kind == "fix" else None
        if only64:
            held.append(HeldCleanup(prefix=g["prefix"], campaign=g["campaign"], subsystem=g["subsystem"],
                                    tree=g["tree"], files=g["files"], rules=[r["path"] for r in g["rules"]],
                                    sites=g["sites"], document=only64.kconfig, section=f"config {only64.symbol}",
                                    says=f"depends on {only64.depends}", machines=", ".join(only64.arches)))
            continue
        upstream = fixed_since(g) if kind == "fix" else None
        if upstream:
            policy = mainline_fixes.BACKPORT
        elif kind == "fix" and not posting_rules.is_newest(version) and in_mainline(g):
            policy = posting_rules.UPSTREAM_FIRST
        elif posting_rules.posted(kind, g["tree"], version):
            posted.append(g)
            continue
        else:
            policy = posting_rules.cleanup_policy(g["tree"], version)
        held.append(HeldCleanup(prefix=g["prefix"], campaign=g["campaign"], subsystem=g["subsystem"],
                                tree=g["tree"], files=g["files"], rules=[r["path"] for r in g["rules"]],
                                sites=g["sites"], document=policy.document, section=policy.section,
                                says=policy.says, fixed_by=upstream and mainline_fixes.cited(upstream)))
    return posted, held


def sixty_four_bit_only(tree, group: dict):
    """Why no 32-bit machine runs a fix's files, when every rule of the fix
    is for a 32-bit bug ('// Machines: 32-bit') and no file runs on one."""
    if not all(parse_rule(COCCI_DIR.parent / r["path"]).fixes_32bit_only for r in group["rules"]):
        return None
    reasons = [platforms.sixty_four_bit_only(tree.src, f) for f in group["files"]]
    return reasons[0] if all(reasons) else None


def baseline_diffs(tree, group: dict) -> Dict[str, Tuple[bytes, bytes]]:
    """{file: (baseline, the group's content)} of a group."""
    return {f: (run_bytes(tree, ["git", "show", f"{tree.baseline}:{f}"]), group_content(tree, group, f))
            for f in group["files"]}


def mainline_has(tree, group: dict) -> bool:
    """Whether the newest packaged tree still has the bug a fix group
    removes, in every file of it (fixes.mainline_has)."""
    return all(fixes.mainline_has(f, before.decode(errors="replace"), after.decode(errors="replace"))
               for f, (before, after) in baseline_diffs(tree, group).items())


def group_content(tree, group: dict, relpath: str) -> bytes:
    """A file as the group's patch leaves it.  A clean-up's posting chains
    its campaigns' commits; a fix's starts from the baseline alone, so it
    gets only its own campaign's changes (from the commit before it to its
    own, merged onto the baseline), never a clean-up's in the same file."""
    def show(commit):
        return run_bytes(tree, ["git", "show", f"{commit}:{relpath}"])
    if not group["fix"] or group["previous_commit"] == tree.baseline:
        return show(group["campaign_commit"])
    with tempfile.TemporaryDirectory(prefix="y2038-fix-") as scratch:
        paths = []
        for name, commit in (("baseline", tree.baseline), ("previous", group["previous_commit"]),
                             ("fix", group["campaign_commit"])):
            (Path(scratch) / name).write_bytes(show(commit))
            paths.append(str(Path(scratch) / name))
        proc = run(["git", "merge-file", "-p", *paths], check=False, binary=True)
    if proc.returncode != 0:
        raise Y2038Error(f"{relpath}: the fix's own changes do not merge onto the baseline apart from the "
                         f"clean-ups before it (git merge-file: {proc.returncode} conflicts)")
    return proc.stdout


def checkpatch(tree, patch: Path, draft: bool) -> dict:
    """checkpatch.pl's errors and warnings (a draft has no Signed-off-by: on purpose)."""
    ignore = ["--ignore", "MISSING_SIGN_OFF"] if draft else []
    proc = run(["perl", "scripts/checkpatch.pl", "--terse", "--show-types", "--no-summary", *ignore, str(patch)],
               cwd=tree.src, check=False)
    found: Dict[str, List[Dict[str, str]]] = {"errors": [], "warnings": []}
    for line in proc.stdout.splitlines():
        m = re.match(r".*?:\d*:? ?(ERROR|WARNING|CHECK):(\w+): (.*)", line)
        if m and m.group(1) != "CHECK":
            found["errors" if m.group(1) == "ERROR" else "warnings"].append(
                {"type": m.group(2), "message": m.group(3)})
    return found


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


def checked_identity(signoff, draft: bool):
    """The sign-off identity, or None for a draft."""
    if signoff is None or signoff == DEFAULT_SIGNOFF:
        if not draft:
            raise Y2038Error("no identity for the series: give SIGNOFF='Name <email>' (you sign the Developer's "
                             "Certificate of Origin, nobody can for you) or --draft")
        return None
    if not re.fullmatch(r"[^<>]+ <[^<>@\s]+@[^<>\s]+>", signoff):
        raise Y2038Error(f"sign-off identity {signoff!r} is not of the form 'Name <email>'")
    return signoff


def series_stage(tree, out=None, signoff=None, draft=False) -> Path:
    """signoff: the user's 'Name <email>' (author and Signed-off-by); without
    it only a draft is written, and only when asked for."""
    signoff = checked_identity(signoff, draft)
    matches = Matches.read(tree.state)
    if matches.baseline != tree.baseline:
        raise Y2038Error("matches.json was made for another baseline: run `tools/y2038 apply` again")
    out = series_dir(tree, out)
    fingerprint, stamp = inputs_fingerprint(tree, signoff, draft), stamp_path(tree, out)
    if stamp.exists() and stamp.read_text() == f"{fingerprint}\n{content_digest(out)}":
        progress(f"series unchanged (same matches, hazards, rules, toolkit code and identity; its patches "
                 f"as written): {out} kept")
        return out
    stamp.unlink(missing_ok=True)
    maint = Maintainers(tree)
    groups = group_commits(matches, maint)
    if not posting_rules.is_newest(tree.version):  # what every fix's message and hold read there, in one pass
        fixes.newer_files(["Makefile", *sorted({f for g in groups if g["fix"] for f in g["files"]})])
    groups, held = hold_cleanups(groups, tree.version,
                                 lambda group: mainline_has(tree, group),
                                 lambda group: mainline_fixes.fixed_in_mainline(baseline_diffs(tree, group)),
                                 lambda group: sixty_four_bit_only(tree, group))
    address(groups, maint)
    if not groups:
        progress("no sites to post: nothing to put in a series")
    postings = split_postings(groups)
    commit_postings(tree, postings, signoff)
    results = write_postings(tree, out, postings, [c.name for c in matches.campaigns], signoff, draft)
    results.held = held or None
    coccicheck_rule.emit(tree, out, results, signoff, draft)  # the rules themselves, for scripts/coccinelle
    if (tree.state / Hazards.NAME).exists():
        report = Hazards.read(tree.state)
        if report.baseline == tree.baseline:
            (out / "y2038-hazards.txt").write_text(hazards_text(report))
    results.write(out)
    errors = [(p.name, e) for p in results.patches for e in p.checkpatch["errors"]]
    progress(f"{len(results.patches)} patches in {len(postings)} postings, "
             f"{sum(p.rewrites for p in results.patches)} changes" + (" (a draft)" if draft else "")
             + (f"; {len(held)} clean-up patches held (REVIEW.md says why)" if held else ""))
    if errors:
        raise Y2038Error("checkpatch.pl errors: " + "; ".join(f"{n}: {e['type']}: {e['message']}" for n, e in errors))
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(f"{fingerprint}\n{content_digest(out)}")
    return out


def commit_postings(tree, postings, signoff) -> None:
    """One commit per group, each posting on its own branch from the
    baseline: no file is in two postings, so each applies alone and its
    base block is base-commit only.  Sets each group's commit and rewrites."""
    env = git_env(identity=signoff or DEFAULT_SIGNOFF)
    for posting in postings:
        parent = tree.baseline
        for group in posting["groups"]:
            contents, products = {}, []
            for relpath in group["files"]:
                contents[relpath] = group_content(tree, group, relpath)
                # against the patch before it in the posting: its message counts only its own changes
                before = run_bytes(tree, ["git", "show", f"{parent}:{relpath}"])
                group.setdefault("diffs", {})[relpath] = (before, contents[relpath])  # for its message
                group["rewrites"] = group.get("rewrites", 0) + rewrites(before, contents[relpath])
                if group["fix"]:
                    sides = (before.decode(errors="replace"), contents[relpath].decode(errors="replace"))
                    found = product_facts.wrapped_products(tree.src, relpath, *sides)
                    group.setdefault("facts", []).extend(fixes.message_facts(tree.version, tree.src, relpath, *sides)
                                                         + [product_facts.sentence(p) for p in found])
                    products += found
            if group["fix"]:
                group["summary"] = product_facts.summary(products)  # the value a product fix is for
                if len(group["rules"]) == 1:  # what the fix does to them: its rule's only change
                    group["remedy"] = product_facts.remedy(products)
                group["trailers"] = fixes.fixes_tags(tree, group["diffs"]) + fixes.trailers(tree.version)
            parent = commit_contents(tree, contents, parent, commit_message(group, signoff), env=env)
            group["commit"] = parent


def write_postings(tree, out: Path, postings, campaigns, signoff, draft: bool) -> SeriesResults:
    """git format-patch of every posting into out, each patch addressed to
    its own recipients, and the cover letters: the series' results."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    results = SeriesResults(version=tree.version, baseline=tree.baseline, draft=draft,
                            source=Path(tree.info["source"]).name, campaigns=campaigns, postings=[], patches=[],
                            base=tree.base)
    for posting in postings:
        slug = posting["dir"]
        to, cc = addressees(posting["groups"])
        prefix = (fixes.posting_subject_prefix(tree.version, posting_rules.tree_kind(posting["tree"]), draft)
                  if posting["fix"] else posting_rules.posting_subject_prefix(posting["tree"], draft))
        names = format_posting(tree, out / slug, posting["groups"][-1]["commit"], prefix, to, cc,
                               signoff or DEFAULT_SIGNOFF)
        patches = []
        for name, group in zip(names, posting["groups"]):
            set_recipients(out / slug / name, *addressees([group]))
            patches.append(patch_record(f"{slug}/{name}", group, checkpatch(tree, out / slug / name, draft)))
        record = Posting(dir=slug, tree=posting["tree"], prefix=posting["prefix"], part=posting["part"],
                         of=posting["of"], route=sorted({g["route"] for g in posting["groups"]}), to=to, cc=cc,
                         patches=[p.name for p in patches])
        if posting["fix"]:
            record.fix, record.mail_prefix = True, prefix
        results.patches += patches
        results.postings.append(record)
        covers.write_posting(out, results, record)
    (out / "series").write_text("".join(f"{p.name}\n" for p in results.patches))
    return results


def patch_record(name: str, group: dict, found: dict) -> Patch:
    return Patch(name=name, campaign=group["campaign"], subsystem=group["subsystem"], tree=group["tree"],
                 files=group["files"], rules=[r["path"] for r in group["rules"]], sites=group["sites"],
                 rewrites=group["rewrites"], prefix=group["prefix"], recipients=group["recipients"],
                 commit=group["commit"],
                 # per rule and file, the lines it changed: what `y2038 compare` matches
                 site_lines={r["path"]: r["removed"] for r in group["rules"]}, checkpatch=found)


def content_digest(out: Path) -> str:
    """The patches of a series directory as written (cover letters aside:
    the later stages fill them in), so a series changed by hand, or
    restored from git, is written again."""
    if not (out / "series").exists():
        return ""
    patches = sorted(p for p in out.rglob("*.patch") if p.name != "0000-cover-letter.patch")
    return digest(*(f"{p.relative_to(out)}\0".encode() + p.read_bytes() for p in patches),
                  (out / "series").read_bytes())


RUN_FIGURES = {"seconds", "cache_hits", "spatch_runs"}  # of a stage's run, not of what it found


def without_run_figures(data):
    if isinstance(data, dict):
        return {k: without_run_figures(v) for k, v in data.items() if k not in RUN_FIGURES}
    return [without_run_figures(v) for v in data] if isinstance(data, list) else data


def inputs_fingerprint(tree, signoff, draft: bool) -> str:
    """What a series depends on: the matches and hazards, the rules and
    campaign texts, this stage's code, the identity.  (The MAINTAINERS and
    checkpatch.pl it asks are the baseline's.)"""
    # what the earlier stages found, not how long it took
    earlier: List[Type[StageFile]] = [Matches, Hazards]
    found = [without_run_figures(record.read(tree.state).to_json()) if (tree.state / record.NAME).exists() else {}
             for record in earlier]
    # every kind of rule: their headers make the subjects and messages
    rules = sorted(p for p in COCCI_DIR.rglob("*")
                   if p.suffix[1:] in RULE_KINDS or p.name == "CAMPAIGN" or p.parent.name == covers.BACKGROUNDS)
    return dependency_key(*(json.dumps(f, sort_keys=True) for f in found),
                          *(f"{path.relative_to(COCCI_DIR)}\0".encode() + path.read_bytes() for path in rules),
                          *hazard_report_inputs(),
                          tree.baseline, signoff, draft, code=[__file__])


def stamp_path(tree, out: Path) -> Path:
    """Where the fingerprint of the series written to out is kept: in the
    work dir, not beside the committed series."""
    return tree.state / "series" / f"{path_key(out)}.fingerprint"


def format_posting(tree, folder: Path, end: str, subject_prefix: str, to, cc, identity: str) -> list:
    """git format-patch of baseline..end into folder, from identity: the patches' names."""
    tree.git("-c", "core.abbrev=12", "format-patch", "-q", "--cover-letter", "--no-signature",
             f"--base={tree.baseline}", "--subject-prefix", subject_prefix,
             *[f"--to={a}" for a in to], *[f"--cc={a}" for a in cc], "-o", str(folder), f"{tree.baseline}..{end}",
             env=git_env(identity=identity))
    return sorted(p.name for p in folder.glob("*.patch") if not p.name.startswith("0000-"))


def set_recipients(patch: Path, to, cc) -> None:
    """Address one patch to its own files' maintainers and lists
    (format-patch gave every mail of the posting the posting's, which the
    cover letter keeps)."""
    text = patch.read_text()
    head, _, body = text.partition("\n\n")
    head = re.sub(r"(?m)^(To|Cc): .*(\n[ \t]+.*)*\n?", "", head.rstrip("\n") + "\n").rstrip("\n")
    for field, who in (("To", to), ("Cc", cc)):
        if who:
            head += f"\n{field}: " + ",\n    ".join(who)
    patch.write_text(head + "\n\n" + body)


def withdraw_unverified(tree, series_dir: Path, results: SeriesResults, reasons: dict) -> dict:
    """Takes the patches the build stage could not verify out of the
    postings, into unverified/ with the reason, and writes the postings they
    were in again without them (renumbered, cover letter recounted).
    Updates results in place; returns {old name: new name} of those kept."""
    held = series_dir / "unverified"
    if held.exists():
        shutil.rmtree(held)
    renamed, kept_postings, notes, dropped = {}, [], [], []
    for posting in results.postings:
        patches = results.patches_of(posting)
        if not any(p.name in reasons for p in patches):
            kept_postings.append(posting)
            renamed.update({p.name: p.name for p in patches})
            continue
        for p in (p for p in patches if p.name in reasons):
            target = held / p.name.replace("/", "-")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(series_dir / p.name, target)
            dropped.append(p)
            notes.append(f"{target.name}: {reasons[p.name]} (was in {posting.dir}, tree {posting.tree})")
        keep = [p for p in patches if p.name not in reasons]
        shutil.rmtree(series_dir / posting.dir)
        if keep:
            renamed.update(repost(tree, series_dir, results, posting, keep))
            kept_postings.append(posting)
    results.postings = kept_postings
    results.patches = [p for p in results.patches if not any(p is d for d in dropped)]
    results.unverified = notes
    (series_dir / "series").write_text("".join(f"{p.name}\n" for p in results.patches))
    stamp = stamp_path(tree, series_dir)
    if stamp.exists():  # the series as posted is this stage's output now
        stamp.write_text(stamp.read_text().splitlines()[0] + "\n" + content_digest(series_dir))
    if notes:
        (held / "README").write_text(
            "Patches the build stage could not verify: not posted.  Each was generated like the others;\n"
            "build it where it compiles (the reason says what was missing here) before sending it.\n\n"
            + "".join(f"{n}\n" for n in notes))
    return renamed


def repost(tree, series_dir: Path, results: SeriesResults, posting: Posting, keep) -> dict:
    """A posting written again with only the patches in keep: their commits
    made again on the baseline, format-patch, recipients, cover letter.
    Returns {old name: new name}."""
    parent, renamed = tree.baseline, {}
    for p in keep:  # files are disjoint between patches: each one's files as its commit left them
        message = run_bytes(tree, ["git", "log", "-1", "--format=%B", p.commit]).decode()
        author = run_bytes(tree, ["git", "log", "-1", "--format=%an <%ae>", p.commit]).decode().strip()
        contents = {f: run_bytes(tree, ["git", "show", f"{p.commit}:{f}"]) for f in p.files}
        parent = p.commit = commit_contents(tree, contents, parent, message.rstrip("\n") + "\n",
                                            env=git_env(identity=author))
    posting.to, posting.cc = split_recipients(r for p in keep for r in p.recipients)
    prefix = posting.mail_prefix or posting_rules.posting_subject_prefix(posting.tree, results.draft)
    names = format_posting(tree, series_dir / posting.dir, parent, prefix, posting.to, posting.cc, author)
    for p, name in zip(keep, names):
        set_recipients(series_dir / posting.dir / name, *split_recipients(p.recipients))
        renamed[p.name] = p.name = f"{posting.dir}/{name}"
    posting.patches = [p.name for p in keep]
    covers.write_posting(series_dir, results, posting)
    return renamed


def run_bytes(tree, cmd) -> bytes:
    """The output of a git command (["git", ...]) on the tree, as bytes."""
    return tree.git(*cmd[1:], binary=True).stdout
