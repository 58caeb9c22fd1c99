# SPDX-License-Identifier: GPL-2.0-only
"""Cover letters: the one place that writes 0000-cover-letter.patch.

A posting's cover letter is rendered whole from the series' results.json
(records.SeriesResults): what the campaigns are, the changes per patch and
checkpatch.pl's warnings (series stage), then one paragraph each for the
build, the boot and the comparison with an older series, as far as those
stages have run.  Every stage that adds to results.json has its cover
letters rendered again, so a cover letter always says what results.json
says.  git format-patch writes the frame (the mail header, the shortlog and
the diffstat); this module fills in the subject and the text between.
"""
import re
import textwrap
from pathlib import Path

from . import posting_rules
from ..common import COCCI_DIR, Y2038Error
from ..records import BOOT_RTC_BASE, FIX_CHECKS_DIR, CompareSummary, Posting, SeriesResults

COVER_NAME = "0000-cover-letter.patch"
SUBJECT_HERE, BLURB_HERE = "*** SUBJECT HERE ***", "*** BLURB HERE ***"  # git format-patch's placeholders
BUILD_PLACEHOLDER = "Build verification: not run yet (`tools/y2038 build` fills this in)."
BOOT_PLACEHOLDER = "Boot verification: not run yet (`tools/y2038 boot` fills this in)."

# Why a checkpatch warning may stay in a generated patch.
WARNING_REASONS = {
    "LONG_LINE": "the changed line keeps the layout of the original code",
    "LONG_LINE_STRING": "the string is unchanged from the original code",
    "CAMELCASE": "the identifier is unchanged from the original code",
    "COMMIT_LOG_LONG_LINE": "the semantic patch has a line Coccinelle reads whole (Python code, a regular expression)",
}

KINDS = {  # a campaign's Kind: -> what its cover letter says the change is
    "cleanup": "These are cleanups, not fixes: the code they touch is y2038-safe as it is.",
    "fix": "These are fixes: each patch says what goes wrong and on which machines.",
    "port": "These move code off time APIs that later kernels removed.",
}


BACKGROUNDS = "backgrounds"  # cocci/backgrounds/<name>: history several campaigns rest on, said once a letter


def campaign_info(campaign: str) -> dict:
    """A campaign's CAMPAIGN file: 'Subject:', 'Kind:' and 'Background:'
    lines, then its own text.  "text" is the whole story (its backgrounds,
    then its own text), for a patch alone; a cover letter of several
    campaigns says each background once ("backgrounds", "own")."""
    path = COCCI_DIR / campaign / "CAMPAIGN"
    if not path.exists():
        return {"subject": f"apply the {campaign} conversions", "kind": "", "text": "", "own": "",
                "backgrounds": []}
    lines = path.read_text().splitlines()
    headers: dict = {"Background": []}
    while lines and re.match(r"^(Subject|Kind|Background):", lines[0]):
        key, value = lines.pop(0).split(":", 1)
        if key == "Background":
            headers[key].append(value.strip())
        else:
            headers[key] = value.strip()
    if headers.get("Kind", "cleanup") not in KINDS:
        raise Y2038Error(f"{path}: Kind: must be one of {', '.join(KINDS)}")
    backgrounds = [background_text(path, name) for name in headers["Background"]]
    own = "\n".join(lines).strip()
    return {"subject": headers.get("Subject", f"apply the {campaign} conversions"),
            "kind": headers.get("Kind", ""), "text": "\n\n".join(backgrounds + [own]).strip(), "own": own,
            "backgrounds": backgrounds}


def background_text(campaign_file: Path, name: str) -> str:
    path = COCCI_DIR / BACKGROUNDS / name
    if not path.is_file():
        raise Y2038Error(f"{campaign_file}: Background: {name}: no file {path}")
    return path.read_text().strip()


def wrap(text: str) -> str:
    paras = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    return "\n\n".join(textwrap.fill(" ".join(p.split()), 72, break_long_words=False,
                                     break_on_hyphens=False) for p in paras)


def posting_campaigns(results: SeriesResults, patches) -> list:
    """campaign_info() of the posting's campaigns, in the catalogue's order."""
    names = sorted({p.campaign for p in patches}, key=results.campaigns.index)
    return [campaign_info(c) for c in names]


def subject(results: SeriesResults, posting: Posting, patches) -> str:
    infos = posting_campaigns(results, patches)
    prefix = cover_prefix([p.prefix for p in patches], posting.tree) or posting.prefix
    return posting_rules.subject(prefix, "; ".join(i["subject"] for i in infos), posting.tree)


def cover_prefix(prefixes: list, tree: str) -> str:
    """A cover letter's subject prefix: the patches' own if they share one;
    else the leading part all of them share ("drm" for drm/vmwgfx and
    drm/panel: edp, "drm/msm" for drm/msm and drm/msm/dpu); else the tree's
    name ("tip" for sched/debug and timers); "" without a tree."""
    if len(set(prefixes)) == 1:
        return prefixes[0]
    first, common = prefixes[0], ""
    for cut in [m.start() for m in re.finditer(r"[:/ ]", first)] + [len(first)]:
        part = first[:cut]
        if all(p == part or (p.startswith(part) and p[cut] in ":/ ") for p in prefixes):
            common = part.rstrip(": ")
    return common or tree_name(tree)


def tree_name(tree: str) -> str:
    """The repository's name of a tree's URL ("tip" for .../tip/tip.git);
    for a repository named only linux or kernel, its owner's
    (.../s390/linux.git: "s390")."""
    parts = [p for p in re.sub(r"\.git$", "", tree.rstrip("/")).split("/") if p]
    if not parts:
        return ""
    return parts[-2] if parts[-1] in ("linux", "kernel") and len(parts) > 1 else parts[-1]


def shown_prefix(prefix: str) -> str:
    """A patch's prefix in a list: without Input's " -" separator."""
    return prefix[:-len(" -")] if prefix.endswith(" -") else prefix


def intro(results: SeriesResults, posting: Posting, patches) -> list:
    """What the campaigns are, where the series is for, the changes per patch."""
    infos = posting_campaigns(results, patches)
    lines = []
    for kind in dict.fromkeys(i["kind"] for i in infos if i["kind"]):
        lines += [KINDS[kind], ""]
    for text in said_once(infos):
        lines += [wrap(text), ""]
    lines += [f"Made for Linux {results.version}.  Every patch was generated by a Coccinelle semantic patch",
              "of the y2038 toolkit and gives it between \"// <smpl>\" and \"// </smpl>\" lines.", "",
              f"Maintainer tree: {posting.tree or '(none listed in MAINTAINERS)'}"]
    if posting.of > 1:
        lines.append(f"Posting {posting.part} of {posting.of} for this tree (at most {posting_rules.MAX_POSTING} "
                     f"patches a posting)" + (": send it after the earlier ones are merged." if posting.part > 1
                                              else "."))
    lines += ["", "Changes per patch:"]
    for p in patches:
        lines.append(f"  {p.rewrites:3d}  {shown_prefix(p.prefix)}  ({p.campaign})")
    nfiles = len({f for p in patches for f in p.files})
    lines.append(f"  {sum(p.rewrites for p in patches):3d}  in {nfiles} file{'s' if nfiles != 1 else ''}")
    return lines + [""] + checkpatch_lines(patches)


REPEAT_WORDS = 8  # a run of this many words in two paragraphs of a letter: the same thing said twice


def said_once(infos) -> list:
    """The campaigns' paragraphs, each background once, then each
    campaign's own text; an error if two of them still say the same thing
    (REPEAT_WORDS words in a row): a CAMPAIGN restating another's history
    must name it as a Background: instead."""
    texts = list(dict.fromkeys(b for i in infos for b in i["backgrounds"])) + [i["own"] for i in infos if i["own"]]
    seen: dict = {}
    for n, text in enumerate(texts):
        words = re.findall(r"[\w.()]+", text.lower())
        for k in range(len(words) - REPEAT_WORDS + 1):
            run = " ".join(words[k:k + REPEAT_WORDS])
            if seen.setdefault(run, n) != n:
                raise Y2038Error(f"campaigns {', '.join(i['subject'] for i in infos)}: their texts both say "
                                 f"\"{run} ...\": put it in cocci/{BACKGROUNDS}/ and name it in Background:")
    return texts


def checkpatch_lines(patches) -> list:
    warnings = [(p.name, w) for p in patches for w in p.checkpatch["warnings"]]
    if not warnings:
        return ["checkpatch.pl: no errors, no warnings."]
    lines = ["checkpatch.pl warnings left, with the reason:"]
    for name, w in warnings:
        reason = WARNING_REASONS.get(w["type"], "left as generated; see the diff")
        lines.append(f"  {name}: {w['type']}: {w['message']} ({reason})")
    return lines


def build_section(results: SeriesResults, patches) -> str:
    if results.build is None or any(p.build is None for p in patches):
        return BUILD_PLACEHOLDER
    arches = sorted({a for p in patches for a in p.build})
    counts = ", ".join(f"{a} {sum(p.build.get(a) == 'ok' for p in patches)} built"
                       + (f" {n} failed" if (n := sum(p.build.get(a) == 'failed' for p in patches)) else "")
                       for a in arches)
    compiled = [sum(p.lines_compiled[i] for p in patches) for i in (0, 1)]
    return "\n".join([f"Build verification (allmodconfig, W=1, each patch in order): {counts};",
                      f"changed lines seen by the compiler: {compiled[0]} of {compiled[1]};",
                      f"new warnings: {sum(len(p.new_warnings) for p in patches) or 'none'}."])


def check_configs(boots) -> str:
    """The text " + <a fix check's config> on <arch>" for each check configured into a boot kernel."""
    found = sorted({(fragment, arch) for arch, boot in boots.items() for fragment in boot.config or []
                    if fragment.startswith(f"{FIX_CHECKS_DIR}/")})
    return "".join(f" + {fragment} on {arch}" for fragment, arch in found)


def boot_section(results: SeriesResults, patches) -> str:
    """The boots are of the whole series' kernel: the text says so, says
    which of this posting's files they ran, and stays one paragraph when
    they ran none (the suites they chose are then not this posting's)."""
    if results.boot is None:
        return BOOT_PLACEHOLDER
    whole = f"the whole {len(results.patches)}-patch series, this posting's among them"
    setup = (f"QEMU TCG, tinyconfig + boot-tests/configs{check_configs(results.boot)}, RTC at {BOOT_RTC_BASE} "
             "UTC, init crossing 2038-01-19 03:14:07")
    verdicts = ", ".join(f"{arch} {boot.verdict.upper()}" for arch, boot in sorted(results.boot.items()))
    coverage = boot_coverage(results.boot, sorted({f for p in patches for f in p.files}))
    if coverage[0].startswith("None of this posting's"):
        return wrap(f"Boot verification of {whole} ({setup}): {verdicts}.") + "\n" + "\n".join(coverage)
    lines = [wrap(f"Boot verification of {whole} ({setup}):")]
    for arch, boot in sorted(results.boot.items()):
        counts = boot.counts()
        pristine = (results.boot_pristine or {}).get(arch)
        lines.append(f"  {arch}: {boot.verdict.upper()}, {counts['pass']} passed, {counts['fail']} failed, "
                     f"{counts['skip']} skipped" + (f" (pristine kernel: {pristine.verdict.upper()})"
                                                     if pristine else ""))
        if boot.suites:
            lines.append(f"    {boot.suites['why']}")
        if boot.known_failures:
            lines.append(f"    failing on the pristine kernel too: {', '.join(boot.known_failures)}")
    return "\n".join(lines) + "\n\n" + "\n".join(coverage)


def boot_coverage(boots: dict, files: list) -> list:
    """What the boots say about these files: which of them each boot kernel
    had built in, from the boot stage's own build (BootResult.compiled), or
    that it had none of them."""
    if any(b.compiled is None for b in boots.values()):
        return [wrap("Which of this posting's files the boot kernels built was not recorded (a boot by an "
                     "older toolkit): the boots are of the whole series, not necessarily of these patches.")]
    by_kind: dict = {}  # (built_in or module, files) -> the architectures
    for arch, boot in sorted(boots.items()):
        for kind in ("built_in", "module"):
            mine = tuple(f for f in files if f in boot.compiled[kind])
            if mine:
                by_kind.setdefault((kind, mine), []).append(arch)
    nfiles = f"{len(files)} file{'s' if len(files) != 1 else ''}"
    if not any(kind == "built_in" for kind, _ in by_kind):
        return [wrap(f"None of this posting's {nfiles} is built into the boot kernels"
                     + (" (some are built as modules, never loaded)" if by_kind else "")
                     + ": these boots did not run its changes and say nothing about them.")]
    lines = []
    for (kind, mine), arches in by_kind.items():
        where = f"the {' and '.join(arches)} boot kernel{'s' if len(arches) > 1 else ''}"
        lines.append(wrap((f"Built into {where}: " if kind == "built_in"
                           else f"Built as modules for {where}, never loaded: ") + ", ".join(mine) + "."))
    built_in = {f for (kind, mine) in by_kind if kind == "built_in" for f in mine}
    if len(built_in) < len(files):
        rest = len(files) - len(built_in)
        lines.append(f"The other {rest} file{'s are' if rest > 1 else ' is'} built into no boot kernel.")
    return lines


def compare_summary_line(summary: CompareSummary) -> str:
    """One line of figures: sites gone upstream (by fate), moved, kept, new; patches per status."""
    t, counts = summary.totals, summary.patches
    fates = ", ".join(f"{n} {fate}" for fate, n in summary.fates.items())
    return (f"{t['gone_upstream']} sites gone upstream{f' ({fates})' if fates else ''}, {t['moved']} moved, "
            f"{t['kept']} kept, {t['new']} new; "
            f"patches: {counts.get('=', 0)} same, {counts.get('!', 0)} changed, {counts.get('<', 0)} only in "
            f"{summary.old['version']}, {counts.get('>', 0)} new")


def compare_section(summary: CompareSummary) -> str:
    lines = [f"Comparison with the series for Linux {summary.old['version']} (tools/y2038 compare):",
             f"  {compare_summary_line(summary)}"]
    for rule, c in summary.rules.items():
        lines.append(f"  {Path(rule).stem}: {c['gone_upstream']} gone upstream, {c['kept']} kept, {c['new']} new")
    return "\n".join(lines)


FIX_PROOF_PLACEHOLDER = "Fix proof: not run yet (`tools/y2038 boot` proves each fix across 2038)."


def fix_proof_section(results: SeriesResults, patches) -> str:
    """Each fix's boot check: failing without the fix, passing with it."""
    proofs = results.fix_proofs or {}
    if any(p.name not in proofs for p in patches):
        return FIX_PROOF_PLACEHOLDER
    lines = ["Fix proof (a KUnit check in a QEMU boot of the kernel without the fix and with it; the guest's "
             "clock crosses 2038-01-19 03:14:07 UTC):"]
    for p in patches:
        proof = proofs[p.name]
        if not proof.check:
            lines.append(f"  {p.prefix}: {proof.verdict}")
            continue
        failed = proof.failing("before")
        lines.append(f"  {p.prefix}: {proof.verdict.upper() if proof.verdict == 'proven' else proof.verdict}: "
                     f"KUnit suite {proof.suite} ({FIX_CHECKS_DIR}/{proof.check}, {proof.arch}): "
                     f"without the fix {proof.outcome('before')['verdict'].upper()}"
                     + (f" ({', '.join(failed)})" if failed else "")
                     + f", with it {proof.outcome('after')['verdict'].upper()}")
    return "\n".join(lines)


def base_section(results: SeriesResults, posting: Posting) -> str:
    """What base-commit: is: a commit of the maintainer's tree when the
    series was made on a git checkout; else a local commit of Debian's
    tarball (or of a directory), with the one command that makes the
    posting again on a checkout of the maintainer's tree."""
    tarball = re.fullmatch(r"(.+?)\.(tar(\.\w+)?|tgz)", results.source)  # a results.json without base
    base = results.base or ({"kind": "tarball", "package": tarball.group(1)} if tarball else {"kind": "dir"})
    if base["kind"] == "git":
        upstream = f", the head of {base['upstream']}" if base.get("upstream") else ""
        return wrap(f"Base: {base['describe']}{upstream} (the base-commit line below).")
    if base["kind"] == "tarball":
        release = results.version.split(".")
        made_from = (f"Debian's {base['package']} (Linux {results.version}"
                     + (f", stable point release {release[2]}" if len(release) > 2 else "") + ")")
    else:
        made_from = f"the directory {results.source} (Linux {results.version})"
    target, checkout = posting.tree or "linux-next", posting_rules.slug(posting.tree) if posting.tree else "linux-next"
    stable = re.search(r"\b(\d+\.\d+)\]?$", posting.mail_prefix or "")  # [PATCH 6.1]: a fix for a stable tree
    if stable:
        target, checkout = f"the stable tree's linux-{stable.group(1)}.y", f"linux-{stable.group(1)}.y"
    text = (wrap(f"Base: {made_from}, committed locally: the base-commit line below names that local commit, "
                 f"which no upstream tree has.  To post it, make this posting again on a git checkout of "
                 f"{target} (its HEAD is then the base):")
            + f"\n\n  make series KVER=/path/to/{checkout} SIGNOFF='Name <email>'")
    if posting.fix and not stable and base["kind"] == "tarball" and len(release) > 2:
        # stable-kernel-rules.rst: upstream first; a point release says nothing of mainline
        text += "\n\n" + wrap("The fix was found on a stable point release and was not checked against mainline: "
                               "remade on a mainline checkout it applies only where mainline still has the bug; "
                               "where mainline fixed it since, ask the stable maintainers for a backport of that "
                               "commit instead.")
    return text


def blurb(results: SeriesResults, posting: Posting) -> str:
    """The text of a posting's cover letter, between the header and git's shortlog."""
    patches = results.patches_of(posting)
    paragraphs = ["\n".join(intro(results, posting, patches)), base_section(results, posting),
                  build_section(results, patches), boot_section(results, patches)]
    if posting.fix:
        paragraphs.append(fix_proof_section(results, patches))
    # the comparison with an older series is the whole series' (REVIEW.md), not a posting's
    return "\n\n".join(paragraphs)


def frame(text: str, npatches: int, cover: Path) -> tuple:
    """(mail header, git's shortlog and diffstat) of a filled-in cover letter:
    the header ends at the first blank line, the shortlog starts at its
    "Author (N):" line."""
    head_end = text.find("\n\n") + 2
    shortlogs = list(re.finditer(rf"\n\n[^\n]+ \({npatches}\):\n", text[head_end:]))
    if head_end < 2 or not shortlogs:
        raise Y2038Error(f"{cover}: not a cover letter of git format-patch with {npatches} patches: "
                         "run `tools/y2038 series` again")
    return text[:head_end], text[head_end + shortlogs[-1].start():]


def render(text: str, results: SeriesResults, posting: Posting, cover: Path) -> str:
    """The cover letter text: git format-patch's (placeholders) or one rendered before, filled in anew."""
    if BLURB_HERE in text:
        text = text.replace(SUBJECT_HERE, subject(results, posting, results.patches_of(posting)))
        head, _, tail = text.partition(BLURB_HERE)
    else:
        head, tail = frame(text, len(posting.patches), cover)
    return head + blurb(results, posting) + tail


def write_posting(series_dir: Path, results: SeriesResults, posting: Posting) -> None:
    cover = series_dir / posting.dir / COVER_NAME
    cover.write_text(render(cover.read_text(), results, posting, cover))


def write_all(series_dir: Path, results: SeriesResults) -> None:
    """Every posting's cover letter, as results says."""
    for posting in results.postings:
        write_posting(series_dir, results, posting)
