# SPDX-License-Identifier: GPL-2.0-only
"""What a human decided about each hazard report, and what that says of
the rules: their precision (real bugs / reports) and their recall against
history (docs/hazard-recall.md, written by tools/hazard_recall.py).

A decision (cocci/y2038-hazards/decisions.tsv) names its report by file and
by text of the reported line, not by line number: one table serves every
version of the tree.  A report no line of the table matches is undecided.
"""
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from . import hazard_triage
from ..common import COCCI_DIR, REPO, Y2038Error

DECISIONS_FILE = COCCI_DIR / "y2038-hazards" / "decisions.tsv"
RECALL_FILE = REPO / "docs" / "hazard-recall.md"
VERDICTS = ("bug", "format", "abi", "register", "duration", "not-a-date")
COLUMNS = ("file", "match", "kind", "decision", "reason")
RECALL_HEADER = re.compile(r"^Computed on (?P<old>\S+) and (?P<new>\S+)\b")
RECALL_ROW = re.compile(r"^\| (?P<file>[^|\s]+) \| (?P<function>[^|]+?) \| (?P<old_line>\d+) "
                        r"\| (?P<start>\d+)-(?P<end>\d+) \| (?P<new_line>\d+|-) \| (?P<flagged>yes|no) \|")


@dataclass(frozen=True)
class Decision:
    file: str
    match: str
    kind: str
    decision: str
    reason: str

    def matches(self, hazard: dict) -> bool:
        return hazard["file"] == self.file and self.match in squeeze(hazard.get("code", ""))


def squeeze(text: str) -> str:
    """Code with its runs of blanks as one space: tabs and alignment vary across versions."""
    return " ".join(text.split())


def parse_decisions(text: str, source: str = "decisions.tsv") -> list:
    """The decisions of a table's text; a malformed line is an error naming it."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        where = f"{source}:{number}"
        if len(cells) != len(COLUMNS) or not all(c.strip() for c in cells):
            raise Y2038Error(f"{where}: expected {len(COLUMNS)} non-empty tab-separated columns "
                             f"({', '.join(COLUMNS)}), found {len(cells)}: {line!r}")
        decision = Decision(cells[0], squeeze(cells[1]), *cells[2:])
        if decision.kind not in hazard_triage.ORDER:
            raise Y2038Error(f"{where}: kind {decision.kind!r} is not one of {', '.join(hazard_triage.ORDER)}")
        if decision.decision not in VERDICTS:
            raise Y2038Error(f"{where}: decision {decision.decision!r} is not one of {', '.join(VERDICTS)}")
        found.append(decision)
    return found


def load_decisions(path: Path = DECISIONS_FILE) -> list:
    return parse_decisions(path.read_text(), str(path)) if path.exists() else []


def decide(hazards: list, decisions: list) -> list:
    """[(hazard, its Decision or None)] in the hazards' order; the first matching line wins."""
    return [(h, next((d for d in decisions if d.matches(h)), None)) for h in hazards]


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "n/a"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def precision_line(decided: list) -> str:
    """Real bugs among the wall-clock reports (the real candidates), among the
    signed ones, among all."""
    def bugs(pairs):
        return sum(1 for _, d in pairs if d and d.decision == "bug")
    wallclock = [p for p in decided if p[0].get("kind") == "wallclock"]
    signed = [p for p in decided if p[0]["class"] == "y2038"]
    return (f"precision: {plural(bugs(wallclock), 'real bug')} in {plural(len(wallclock), 'wall-clock report')} "
            f"({percent(bugs(wallclock), len(wallclock))}); {bugs(signed)} in {plural(len(signed), 'signed report')} "
            f"({percent(bugs(signed), len(signed))}); {bugs(decided)} in {plural(len(decided), 'report')} "
            f"({percent(bugs(decided), len(decided))})")


def decisions_text(hazards: list, decisions: list) -> list:
    """The report's decision lines: each decided report with its decision and
    reason, the undecided wall-clock and unknown ones each, the other
    undecided ones counted by kind (listed above), and the precision."""
    decided = decide(hazards, decisions)
    done = sorted(((h, d) for h, d in decided if d), key=lambda pair: (pair[0]["file"], pair[0]["line"]))
    out = [f"Decisions (cocci/y2038-hazards/decisions.tsv): {len(done)} decided, {len(decided) - len(done)} not"]
    for verdict in VERDICTS:
        these = [(h, d) for h, d in done if d.decision == verdict]
        if these:
            out.append(f"  {verdict}: {len(these)}")
            out += [f"    {h['file']}:{h['line']}: {d.reason}" for h, d in these]
    open_ = [h for h, d in decided if not d]
    to_read = [h for h in open_ if h.get("kind", "unknown") in ("wallclock", "unknown")]
    out.append(f"  not decided: {len(open_)}")
    out += [f"    {h['file']}:{h['line']}: not decided ({h.get('kind', 'unknown')}: read it)" for h in to_read]
    rest = {k: sum(1 for h in open_ if h.get("kind", "unknown") == k) for k in hazard_triage.ORDER}
    if any(rest[k] for k in rest if k not in ("wallclock", "unknown")):
        out.append("    the others, listed above, kind as triaged: " +
                   ", ".join(f"{k} {n}" for k, n in rest.items() if n and k not in ("wallclock", "unknown")))
    return out + ["", precision_line(decided)]


def read_recall(path: Path = RECALL_FILE):
    """(old version, new version, [row dict]) of the committed recall list, or None."""
    if not path.exists():
        return None
    text = path.read_text()
    header = next((m for m in map(RECALL_HEADER.match, text.splitlines()) if m), None)
    if header is None:
        raise Y2038Error(f"{path}: no 'Computed on <old> and <new>' line")
    rows = [m.groupdict() for m in map(RECALL_ROW.match, text.splitlines()) if m]
    return header["old"], header["new"], rows


def flagged(row: dict, hazards: list) -> bool:
    """A place of the recall list is flagged when a report (any class) falls in its function."""
    return any(h["file"] == row["file"] and int(row["start"]) <= h["line"] <= int(row["end"]) for h in hazards)


def recall_line(report: dict, recall) -> str:
    """Computed from the report when it is of the list's older tree; the
    committed figure, said so, otherwise."""
    if recall is None:
        return "recall against history: not measured (no docs/hazard-recall.md)"
    old, new, rows = recall
    if report["version"] == old:
        hits = sum(1 for row in rows if flagged(row, report["hazards"]))
        return f"recall against {old} -> {new} history: {hits} of {len(rows)} ({percent(hits, len(rows))})"
    committed = sum(1 for row in rows if row["flagged"] == "yes")
    return (f"recall against {old} -> {new} history: {committed} of {len(rows)} ({percent(committed, len(rows))}),"
            f" measured on the {old} report (docs/hazard-recall.md: make hazard-recall)")


REPORT_TITLE = re.compile(r"^y2038 hazards in Linux (?P<version>\S+):")
REPORT_CLASS = {"Signed 32-bit": "y2038", "Unsigned 32-bit": "y2106"}
REPORT_KIND = re.compile(r"^  (?P<kind>\w+): \d+, ")
REPORT_LINE = re.compile(r"^    (?P<file>[^:\s]+):(?P<line>\d+): (?P<why>.*)$")


def parse_report_text(text: str, tree: Optional[Path] = None) -> dict:
    """The report (version, hazards) back from a y2038-hazards.txt; with the
    tree it was made from, each hazard's code too (what decisions match)."""
    hazards: List[dict] = []
    report: Dict[str, Any] = {"version": "", "hazards": hazards}
    cls, kind = None, None
    for line in text.splitlines():
        if m := REPORT_TITLE.match(line):
            report["version"] = m["version"]
        elif line.startswith("Decisions "):
            break  # what follows is this module's, not the rule's
        elif title := next((t for t in REPORT_CLASS if line.startswith(t + ":")), None):
            cls = REPORT_CLASS[title]
        elif m := REPORT_KIND.match(line):
            kind = m["kind"]
        elif (m := REPORT_LINE.match(line)) and cls:
            hazards.append({"file": m["file"], "line": int(m["line"]), "class": cls,
                                      "why": m["why"], "kind": kind})
    if tree is not None:
        for hazard in hazards:
            lines = (tree / hazard["file"]).read_text(errors="replace").splitlines()
            hazard["code"] = squeeze(lines[hazard["line"] - 1])
    return report


def report_inputs() -> list:
    """What hazards_text reads besides the report: a series' fingerprint includes them."""
    return [f"{path.name}\0".encode() + path.read_bytes() for path in (DECISIONS_FILE, RECALL_FILE) if path.exists()]
