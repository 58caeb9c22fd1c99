# SPDX-License-Identifier: GPL-2.0-only
"""Hazards stage: the report-only rules (campaign y2038-hazards) over the tree.

Writes <state>/hazards.json: one entry per report line (file, line, class,
why), y2038 bugs apart from y2106 formats.  Results are cached per (rule,
file content) like the apply stage's.
"""
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List

from . import hazard_triage
from .hazard_decisions import decisions_text, load_decisions, read_recall, recall_line, squeeze
from ..engine.apply import Applier, check_rule_parses
from ..engine.spatch import spatch_command
from ..common import code_key, progress, run
from ..records import Hazard, HazardRule, Hazards

LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>[\d-]+): (?P<cls>y2038|y2106): (?P<why>.*)$")


def report_batch(rule, src: Path, files, timeout: int) -> dict:
    """{file: [report line, ...]} from one spatch -D report over files."""
    with tempfile.NamedTemporaryFile("w", suffix=".groups") as groups:
        groups.write("\n\n".join(files) + "\n")
        groups.flush()
        proc = run(spatch_command("--sp-file", str(rule.path), "-D", "report", "--very-quiet",
                                  "--timeout", str(timeout), *rule.options, "--file-groups", groups.name),
                   cwd=src, check=False, timeout=timeout * len(files) + 60)
    found: Dict[str, List[str]] = {f: [] for f in files}
    for line in proc.stdout.splitlines():
        m = LINE.match(line)
        if m and m.group("file") in found:
            found[m.group("file")].append(line)
    return found


def hazard_entry(m, source: str, rule: str) -> Hazard:
    """One report: where, what the rule saw, what the value is (hazard_triage)
    and the reported line's code (what a decision names it by)."""
    number, lines = int(m.group("line")), source.splitlines()
    code = squeeze(lines[number - 1]) if 0 < number <= len(lines) else ""
    return Hazard(file=m.group("file"), line=number, cls=m.group("cls"), why=m.group("why"), rule=rule,
                  kind=hazard_triage.triage(source, number, m.group("file")), code=code)


def hazards_stage(tree, campaign_rules, jobs: int, timeout: int) -> Hazards:
    rules = [r for _, rs in campaign_rules for r in rs if not r.patch_mode]
    for rule in rules:
        check_rule_parses(rule)
    applier = Applier(tree, jobs, timeout)
    applier.index_tokens(rules)
    started = time.monotonic()
    entries, per_rule = [], []
    code = code_key([__file__])  # the report lines are this module's reading of spatch's
    for rule in rules:
        files = applier.candidates(rule)
        todo, lines = [], {}
        for relpath in files:
            key = applier.cache.key(rule, relpath, applier.content(relpath), "report", code)
            cached = applier.cache.get(key)
            if cached is None:
                todo.append((relpath, key))
            else:
                lines[relpath] = cached["lines"]
        if todo:
            batches = [todo[n::jobs] for n in range(jobs) if todo[n::jobs]]
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                for batch, found in zip(batches, pool.map(
                        lambda b: report_batch(rule, tree.src, [f for f, _ in b], timeout), batches)):
                    for relpath, key in batch:
                        lines[relpath] = found[relpath]
                        applier.cache.put(key, {"status": "unchanged", "lines": found[relpath]})
        progress(f"{rule.relpath}: {len(files)} candidate files, {len(todo)} through spatch")
        count = 0
        for relpath in sorted(lines):
            source = applier.content(relpath).decode(errors="replace")
            for line in sorted(set(lines[relpath]), key=lambda l: [int(x) if x.isdigit() else x
                                                                    for x in re.split(r"(\d+)", l)]):
                m = LINE.match(line)
                assert m, line  # report_batch kept only the lines LINE matches
                entry = hazard_entry(m, source, rule.relpath)
                if entry not in entries:  # two columns of one line are one report
                    entries.append(entry)
                    count += 1
        per_rule.append(HazardRule(rule=rule.relpath, candidates=len(files), reports=count))
    report = Hazards(version=tree.version, baseline=tree.baseline, rules=per_rule, hazards=entries,
                     seconds=round(time.monotonic() - started, 1))
    report.write(tree.state)
    return report


def hazards_text(report: Hazards) -> str:
    """The committed, reviewable form: y2038 bugs first, then y2106 formats;
    in each, what the value is (hazard_triage), the real candidates first;
    then what was decided of each (hazard_decisions), the rules' precision
    and their recall against history."""
    out = [f"y2038 hazards in Linux {report.version}: seconds kept in 32 bits",
           "(report-only rules of cocci/y2038-hazards; file:line: what the rule saw)", ""]
    for cls, title in (("y2038", "Signed 32-bit: overflows 2038-01-19"),
                       ("y2106", "Unsigned 32-bit: wraps in 2106")):
        found = [h for h in report.hazards if h.cls == cls]
        out.append(f"{title}: {len(found)}")
        for kind in hazard_triage.ORDER:
            these = [h for h in found if h.kind == kind]
            if these:
                out.append(f"  {kind}: {len(these)}, {hazard_triage.DESCRIPTIONS[kind]}")
                out += [f"    {h.file}:{h.line}: {h.why}" for h in these]
        out.append("")
    # the decisions read the report in its file form (as from a committed y2038-hazards.txt)
    as_written = report.to_json()
    out += decisions_text(as_written["hazards"], load_decisions())
    out += [recall_line(as_written, read_recall()), ""]
    return "\n".join(out)
