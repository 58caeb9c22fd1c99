# SPDX-License-Identifier: GPL-2.0-only
"""Report stage: one self-contained offline HTML page per series
(review.html: no script, no external resource) and a short Markdown summary
(REVIEW.md), both beside the series and both made from results.json, the
patches and y2038-hazards.txt only.
"""
import html
import re
from collections import Counter
from pathlib import Path
from typing import Dict

from . import covers, posting_rules
from .hazard_decisions import plural
from ..records import CompareSummary, SeriesResults

HTML_NAME, MARKDOWN_NAME = "review.html", "REVIEW.md"
C_KEYWORDS = ("auto break case char const continue default do double else enum extern float for goto if "
              "inline int long register return short signed sizeof static struct switch typedef union "
              "unsigned void volatile while bool u8 u16 u32 u64 s8 s16 s32 s64 ktime_t time64_t").split()
TOKEN = re.compile(r"(?P<cm>/\*.*?\*/|//.*$)|(?P<st>\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')"
                   r"|(?P<nu>\b(?:0x[0-9a-fA-F]+|\d+)[uUlL]*\b)|(?P<kw>\b(?:" + "|".join(C_KEYWORDS) + r")\b)")
CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #1b1b1b; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { font-size: 1.1em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ccc; padding: .2em .5em; }
th { background: #f0f0f0; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.figures td { font-size: 1.3em; text-align: center; } .figures th { text-align: center; }
.pass, .ok { color: #11681c; font-weight: 600; } .fail, .failed { color: #b00020; font-weight: 600; }
.not-built, .skip { color: #7a5d00; } .zero { color: #bbb; }
section.patch { border: 1px solid #ddd; border-radius: 6px; padding: .2em 1em 1em; margin: 1em 0; }
dl { display: grid; grid-template-columns: max-content auto; gap: .15em 1em; } dt { font-weight: 600; }
pre.diff { background: #fafafa; border: 1px solid #eee; padding: .6em; overflow-x: auto; font-size: 12.5px; }
.ln { display: block; min-height: 1.2em; white-space: pre; }
.add { background: #e6ffec; } .del { background: #ffebe9; } .hunk { color: #6639ba; } .file { font-weight: 700; }
.kw { color: #0550ae; } .cm { color: #6e7781; font-style: italic; } .st { color: #0a3069; } .nu { color: #953800; }
"""


def highlight_code(line: str) -> str:
    out, pos = [], 0
    for m in TOKEN.finditer(line):
        out.append(html.escape(line[pos:m.start()]))
        out.append(f'<span class="{m.lastgroup}">{html.escape(m.group(0))}</span>')
        pos = m.end()
    out.append(html.escape(line[pos:]))
    return "".join(out)


def highlight_diff(diff: str) -> str:
    """One block per line: file headers, hunks, added and removed lines told
    apart, C keywords, comments, strings and numbers coloured."""
    lines = []
    for line in diff.splitlines():
        if line.startswith(("diff --git", "--- ", "+++ ")):
            kind, body = "file", html.escape(line)
        elif line.startswith("@@"):
            kind, body = "hunk", html.escape(line)
        elif line.startswith(("+", "-")):
            kind, body = "add" if line[0] == "+" else "del", line[0] + highlight_code(line[1:])
        else:
            kind, body = "ctx", highlight_code(line)
        lines.append(f'<span class="ln {kind}">{body}</span>')
    return "".join(lines)


def patch_parts(path: Path):
    """(subject, diff) of a git format-patch file."""
    text = path.read_text(errors="replace")
    m = re.search(r"^Subject: (.*(?:\n .*)*)", text, re.M)
    subject = re.sub(r"\s+", " ", m.group(1)) if m else path.name
    subject = re.sub(r"^\[PATCH[^\]]*\]\s*", "", subject)
    start = text.find("\ndiff --git")
    diff = text[start + 1:].split("\n-- \n")[0] if start >= 0 else ""
    return subject, diff


def figures(series: Path, results: SeriesResults) -> dict:
    patches = results.patches
    build = results.build
    hazards = (series / "y2038-hazards.txt").read_text() if (series / "y2038-hazards.txt").exists() else ""
    compiled = [sum((p.lines_compiled or [0, 0])[i] for p in patches) for i in (0, 1)]
    return {"patches": len(patches), "postings": len(results.postings),
            "changes": sum(p.rewrites for p in patches),
            "files": len({f for p in patches for f in p.files}),
            "verified": len(build.verified) if build else None,
            "lines_compiled": compiled if build else None,
            "boot": {arch: b.verdict for arch, b in sorted((results.boot or {}).items())},
            "hazards": {kind: int(m.group(1)) if (m := re.search(rf"^{title}[^\n]*: (\d+)$", hazards, re.M)) else 0
                        for kind, title in (("y2038", "Signed 32-bit"), ("y2106", "Unsigned 32-bit"))}}


def matrix(results: SeriesResults):
    """(campaigns, [(subsystem, {campaign: changes})]) sorted by total changes."""
    cells: Dict[str, Counter] = {}
    for p in results.patches:
        cells.setdefault(p.subsystem, Counter())[p.campaign] += p.rewrites
    campaigns = sorted({p.campaign for p in results.patches})
    return campaigns, sorted(cells.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))


def badge(value) -> str:
    value = str(value)
    return f'<span class="{html.escape(value)}">{html.escape(value)}</span>'


def compared(c: CompareSummary) -> str:
    return (f"Compared with Linux {c.old['version']}: {c.totals['gone_upstream']} sites gone upstream, "
            f"{c.totals['kept']} kept, {c.totals['new']} new.")


def builds(p) -> str:
    return " ".join(f"{html.escape(a)} {badge(r)}" for a, r in sorted((p.build or {}).items()))


def render_html(series: Path, results: SeriesResults) -> str:
    title = f"y2038 series for Linux {results.version}"
    out = [f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} – review'
           f"</title><style>{CSS}</style></head><body>", f"<h1>{html.escape(title)}</h1>",
           f"<p>Baseline {html.escape(results.baseline[:12])} ({html.escape(results.source)}), "
           f"generated by the y2038 toolkit. Apply with <code>git am</code> in the order of "
           f"<code>series</code>.</p>"]
    out += html_figures(figures(series, results))
    if results.compare:
        out.append(f"<p>{html.escape(compared(results.compare))}</p>")
    out += html_unverified(results)
    out += html_fixes(series, results) + html_held(results) + html_matrix(results) + html_postings(results)
    parts = {p.name: patch_parts(series / p.name) for p in results.patches}
    out += html_patch_table(results, parts)
    for n, p in enumerate(results.patches, 1):
        out += html_patch_section(n, p, parts[p.name], results.boot or {})
    out.append("</body></html>\n")
    return "\n".join(out)


def html_figures(f: dict) -> list:
    lines = f["lines_compiled"]
    verified = "not run" if f["verified"] is None else f"{f['verified']} of {f['patches']}"
    return ['<table class="figures" id="figures"><tr><th>patches</th><th>postings</th><th>changes</th>'
            "<th>files</th><th>verified by the build</th><th>changed lines compiled</th>"
            + "".join(f"<th>boot {html.escape(a)}</th>" for a in f["boot"])
            + "<th>hazards y2038 / y2106</th></tr>",
            f"<tr><td>{f['patches']}</td><td>{f['postings']}</td><td>{f['changes']}</td><td>{f['files']}</td>"
            f"<td>{verified}</td>"
            f"<td>{'not run' if lines is None else f'{lines[0]} of {lines[1]}'}</td>"
            + "".join(f"<td>{badge(v)}</td>" for v in f["boot"].values())
            + f"<td>{f['hazards']['y2038']} / {f['hazards']['y2106']}</td></tr></table>"]


def html_unverified(results: SeriesResults) -> list:
    """The patches the build took out of the postings: the figures count posted patches only."""
    if not results.unverified:
        return []
    return (['<h2>Not verified: withdrawn to unverified/</h2><ul class="unverified" id="unverified">']
            + [f"<li>{html.escape(note)}</li>" for note in results.unverified] + ["</ul>"])


def html_matrix(results: SeriesResults) -> list:
    campaigns, rows = matrix(results)
    out = ["<h2>Sites: subsystems × campaigns</h2><table class=\"matrix\" id=\"matrix\"><tr><th>subsystem</th>"
           + "".join(f"<th>{html.escape(c)}</th>" for c in campaigns) + "<th>total</th></tr>"]
    for subsystem, counts in rows:
        out.append(f"<tr><td>{html.escape(subsystem)}</td>" + "".join(
            f'<td class="n{"" if counts[c] else " zero"}">{counts[c]}</td>' for c in campaigns)
            + f'<td class="n">{sum(counts.values())}</td></tr>')
    totals: Counter = Counter()
    for _, counts in rows:
        totals.update(counts)
    out.append("<tr><th>total</th>" + "".join(f'<th class="n">{totals[c]}</th>' for c in campaigns)
               + f'<th class="n">{sum(totals.values())}</th></tr></table>')
    return out


def html_postings(results: SeriesResults) -> list:
    out = ["<h2>Postings</h2><table class=\"postings\"><tr><th>folder</th><th>tree</th><th>patches</th>"
           "<th>To</th><th>Cc</th></tr>"]
    for posting in results.postings:
        out.append(f"<tr><td>{html.escape(posting.dir)}</td><td>{html.escape(posting.tree)}<br><small>"
                   + "<br>".join(html.escape(r) for r in posting.route) + "</small></td>"
                   f'<td class="n">{len(posting.patches)}</td>'
                   f"<td>{'<br>'.join(html.escape(a) for a in posting.to)}</td>"
                   f"<td>{'<br>'.join(html.escape(a) for a in posting.cc)}</td></tr>")
    out.append("</table>")
    return out


def html_patch_table(results: SeriesResults, parts: dict) -> list:
    out = ["<h2>Patches</h2><table class=\"patches\"><tr><th>#</th><th>subject</th><th>changes</th>"
           "<th>build</th><th>lines compiled</th><th>checkpatch</th><th>verified</th></tr>"]
    for n, p in enumerate(results.patches, 1):
        lc = p.lines_compiled
        cp = p.checkpatch
        out.append(f'<tr><td class="n"><a href="#p{n}">{n}</a></td><td>{html.escape(parts[p.name][0])}</td>'
                   f'<td class="n">{p.rewrites}</td><td>{builds(p) or "not run"}</td>'
                   f"<td>{f'{lc[0]} of {lc[1]}' if lc else 'not run'}</td>"
                   f"<td>{len(cp['errors'])} errors, {len(cp['warnings'])} warnings</td>"
                   f"<td>{badge('pass' if p.verified else 'fail') if p.verified is not None else 'not run'}</td></tr>")
    out.append("</table>")
    return out


def html_patch_section(n: int, p, part: tuple, boot: dict) -> list:
    subject, diff = part
    cp = p.checkpatch
    findings = [f"{w['type']}: {w['message']}" for w in cp["errors"] + cp["warnings"]]
    rows = [("file", html.escape(p.name)),
            ("rules", "<br>".join(html.escape(r) for r in p.rules)),
            ("changes", f"{p.rewrites} in {len(p.files)} files: " + ", ".join(html.escape(x) for x in p.files)),
            ("subsystem", html.escape(p.subsystem) + (f" ({html.escape(p.tree)})" if p.tree else "")),
            ("checkpatch", "<br>".join(html.escape(x) for x in findings) or "no errors, no warnings"),
            ("build", builds(p) or "not run"),
            ("lines compiled", f"{p.lines_compiled[0]} of {p.lines_compiled[1]}"
             + (" (not compiled: " + html.escape(", ".join(p.lines_not_compiled)) + ")"
                if p.lines_not_compiled else "") if p.lines_compiled else "not run"),
            ("verified", (badge("pass") if p.verified else badge("fail") + " "
                          + html.escape(p.reason or "")) if p.verified is not None else "not run"),
            ("boot (series)", " ".join(f"{html.escape(a)} {badge(b.verdict)}" for a, b in sorted(boot.items()))
             or "not run"),
            ("recipients", "<br>".join(html.escape(f"{r['address']} ({r['role']})" if r["role"] else r["address"])
                                       for r in p.recipients))]
    return ([f'<section class="patch" id="p{n}"><h3>{n}. {html.escape(subject)}</h3><dl>']
            + [f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows]
            + [f'</dl><details open><summary>diff</summary><pre class="diff">{highlight_diff(diff)}</pre>'
               "</details></section>"])


def fixes(series: Path, results: SeriesResults) -> list:
    """[(subject, proof, hazards)] of each fix patch: how its boot check went,
    and the hazard report's lines on its files (what led to it)."""
    report = series / "y2038-hazards.txt"
    hazard_lines = report.read_text().splitlines() if report.exists() else []
    out = []
    for p in results.fix_patches():
        proof = (results.fix_proofs or {}).get(p.name)
        said = "not run" if proof is None else proof.verdict + (
            f" ({proof.suite}: without the fix {proof.outcome('before')['verdict']}, with it "
            f"{proof.outcome('after')['verdict']})" if proof.check else "")
        hazards = [line.strip() for line in hazard_lines if any(line.strip().startswith(f + ":") for f in p.files)]
        out.append((patch_parts(series / p.name)[0], said, hazards))
    return out


def markdown_fixes(series: Path, results: SeriesResults) -> list:
    rows = fixes(series, results)
    if not rows:
        return []
    lines = ["## Fixes (sent first)", ""]
    for subject, proof, hazards in rows:
        lines += [f"- {subject}", f"  - proof: {proof}"] + [f"  - hazard: {h}" for h in hazards]
    return lines + [""]


def html_fixes(series: Path, results: SeriesResults) -> list:
    rows = fixes(series, results)
    if not rows:
        return []
    out = ["<h2>Fixes (sent first)</h2><table class=\"fixes\"><tr><th>fix</th><th>proof</th><th>hazard</th></tr>"]
    for subject, proof, hazards in rows:
        out.append(f"<tr><td>{html.escape(subject)}</td><td>{html.escape(proof)}</td>"
                   f"<td>{'<br>'.join(html.escape(h) for h in hazards) or 'none reported'}</td></tr>")
    return out + ["</table>"]


HELD_INTRO = ("Clean-ups whose trees take none, or made on a stable series' tree (fixes only); fixes for a "
              "stable series that mainline needs first, fixes mainline has made since, and fixes of 32-bit "
              "arithmetic in code no 32-bit machine runs.")


def held(results: SeriesResults) -> list:
    """[(why, [held clean-ups])]: the clean-ups not posted, per tree and the
    policy that holds them (document, section, quoted); those of a stable
    series' tree together, whatever their tree."""
    groups: Dict[tuple, list] = {}
    for h in results.held or []:
        stable = h.document == posting_rules.STABLE_TREE.document
        groups.setdefault(("" if stable else h.tree, h.document, h.section, h.says, h.fixed_by, h.machines),
                          []).append(h)
    rows = []
    for (tree, document, section, says, fixed_by, machines), items in groups.items():
        if machines:
            why = (f"A fix of 32-bit arithmetic in code that only 64-bit machines run ({machines}; {document}, "
                   f"{section}: \"{says}\", COMPILE_TEST aside): no machine it runs on has the bug, "
                   "so it is not posted as a fix.")
        elif fixed_by:
            why = (f"Mainline has fixed this since: {fixed_by}. Linux {results.version} still has the bug: "
                   f"ask the stable maintainers to backport that commit ({document}, \"{section}\": \"{says}\").")
        elif not tree and says == posting_rules.UPSTREAM_FIRST.says:
            why = (f"Linux {results.version} is a stable series' tree, and {document} says: \"{says}\" "
                   f"Linux {posting_rules.NEWEST_PACKAGED} still has these lines: the fix goes upstream from "
                   f"its series (make run KVER={posting_rules.NEWEST_PACKAGED}), with Cc: stable.")
        elif not tree:
            why = (f"Linux {results.version} is a stable series' tree, and {document} says: \"{says}\" "
                   f"Its clean-ups are made and posted from the newest packaged tree's series "
                   f"(make run KVER={posting_rules.NEWEST_PACKAGED}), on the code the maintainers have now.")
        else:
            why = f"{tree}: {document}, \"{section}\": \"{says}\""
        rows.append((why, items))
    return rows


def markdown_held(results: SeriesResults) -> list:
    rows = held(results)
    if not rows:
        return []
    lines = ["## Held: not posted", "",
             HELD_INTRO, ""]
    for why, items in rows:
        lines += [f"- {why}"]
        lines += [f"  - {h.prefix} ({h.campaign}): {h.sites} site{'s' if h.sites != 1 else ''} in "
                  f"{', '.join(h.files)}; rule {', '.join(h.rules)}" for h in items]
    return lines + [""]


def html_held(results: SeriesResults) -> list:
    rows = held(results)
    if not rows:
        return []
    out = [f"<h2>Held: not posted</h2><p>{HELD_INTRO}</p><table class=\"held\" id=\"held\"><tr><th>patch</th><th>sites</th>"
           "<th>files</th><th>rules</th><th>why held: the tree and its policy</th></tr>"]
    for why, items in rows:
        for h in items:
            out.append(f"<tr><td>{html.escape(h.prefix)} ({html.escape(h.campaign)})</td>"
                       f'<td class="n">{h.sites}</td><td>{"<br>".join(html.escape(f) for f in h.files)}</td>'
                       f"<td>{'<br>'.join(html.escape(r) for r in h.rules)}</td><td>{html.escape(why)}</td></tr>")
    return out + ["</table>"]


def render_markdown(series: Path, results: SeriesResults) -> str:
    f = figures(series, results)
    verified = ("not run" if f["verified"] is None
                else f"{f['verified']} of {f['patches']} patches verified")
    lines = [f"# y2038 series for Linux {results.version}", "",
             f"{f['patches']} patch{'es' * (f['patches'] != 1)} in {plural(f['postings'], 'posting')}, "
             f"{plural(f['changes'], 'changed line')} in {plural(f['files'], 'file')}.",
             f"Build: {verified}"
             + (f", {f['lines_compiled'][0]} of {f['lines_compiled'][1]} changed lines compiled." if f["lines_compiled"] else "."),
             "Boot: " + (", ".join(f"{a} {v.upper()}" for a, v in f["boot"].items()) or "not run") + ".",
             f"Hazards: {f['hazards']['y2038']} y2038, {f['hazards']['y2106']} y2106 (y2038-hazards.txt).",
             "", f"The whole review, with every diff: [{HTML_NAME}]({HTML_NAME}).", ""]
    if results.unverified:
        lines += ["Not verified, withdrawn to unverified/ (not counted above):", ""]
        lines += [f"- {note}" for note in results.unverified] + [""]
    if results.compare:
        lines += [compared(results.compare), "", "```", covers.compare_section(results.compare), "```", ""]
    lines += markdown_fixes(series, results) + markdown_held(results)
    campaigns, rows = matrix(results)
    lines += ["| subsystem | " + " | ".join(campaigns) + " |", "|---|" + "---:|" * len(campaigns)]
    lines += [f"| {s} | " + " | ".join(str(c[k]) for k in campaigns) + " |" for s, c in rows]
    lines += ["", "| # | patch | changes | build | lines compiled | checkpatch |", "|---:|---|---:|---|---|---|"]
    for n, p in enumerate(results.patches, 1):
        lc = p.lines_compiled
        build = ", ".join(f"{a} {r}" for a, r in sorted((p.build or {}).items())) or "not run"
        lines.append(f"| {n} | {patch_parts(series / p.name)[0].replace('|', '/')} | {p.rewrites} | {build} | "
                     f"{f'{lc[0]}/{lc[1]}' if lc else 'not run'} | "
                     f"{len(p.checkpatch['errors'])} errors, {len(p.checkpatch['warnings'])} warnings |")
    return "\n".join(lines) + "\n"


def report_stage(series: Path) -> tuple:
    results = SeriesResults.read(series)
    (series / HTML_NAME).write_text(render_html(series, results))
    (series / MARKDOWN_NAME).write_text(render_markdown(series, results))
    return series / HTML_NAME, series / MARKDOWN_NAME
