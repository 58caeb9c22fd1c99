# SPDX-License-Identifier: GPL-2.0-only
"""The tree's MAINTAINERS, as a posting needs it: the subsystem of a
changed file, the maintainer tree it goes through, and who gets the mail.

Everything comes from the tree's own scripts/get_maintainer.pl (no git
history, no K: keyword matches: only the people and lists of the changed
files) and its MAINTAINERS file; posting_rules.route() decides the tree.
"""
import os
import re
from collections import Counter
from typing import Dict, List

from . import posting_rules
from ..common import run


def tree_url_of(line: str) -> str:
    """'T:\tgit git://host/owner/repo.git branch' -> the URL."""
    words = line.split()[1:]
    return words[1] if len(words) > 1 and words[0] in ("git", "hg", "quilt") else words[0]


def parse_section(text: str) -> dict:
    """A MAINTAINERS section -> {"name", "M", "L", "T"}; T: keeps the kind
    ("git URL", "quilt URL") so a route can prefer git."""
    lines = text.strip().splitlines()
    entries: Dict[str, List[str]] = {"M": [], "L": [], "T": []}
    for line in lines[1:]:
        m = re.match(r"^([MLT]):\s*(.*)", line)
        if not m:
            continue
        value = m.group(2).strip()
        if m.group(1) == "T":
            kind = value.split()[0] if value.split()[0] in ("git", "hg", "quilt") else "git"
            entries["T"].append(f"{kind} {tree_url_of(line)}")
        elif m.group(1) == "L":
            entries["L"].append(value.split()[0])
        else:
            entries["M"].append(value)
    return {"name": lines[0].strip() if lines else "", **entries}


def recipient(line: str) -> dict:
    """'Name <a@b> (maintainer:SECTION)' -> {"address", "role"}: maintainers
    (of any status: get_maintainer.pl says "odd fixer:" for an Odd Fixes
    section's M:) and supporters are who a patch is addressed to, the rest
    is copied."""
    m = re.match(r"^(.*?)\s+\((.*)\)$", line.strip())
    address, role = (m.group(1), m.group(2)) if m else (line.strip(), "")
    return {"address": address, "role": role, "to": role.startswith(("maintainer:", "supporter:", "odd fixer:", "unknown:"))}


class Maintainers:
    """Answers from get_maintainer.pl: the route of every changed file, the
    recipients of those with a posted patch."""

    def __init__(self, tree):
        self.tree = tree
        self._person_trees = None

    def _get(self, *args):
        # get_maintainer.pl orders equal-ranked names by Perl hash order: fix the seed
        env = dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")
        return run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback", "--no-keywords", *args],
                   cwd=self.tree.src, env=env).stdout

    def person_trees(self) -> dict:
        """{maintainer line: Counter of the git trees of their sections}."""
        if self._person_trees is None:
            self._person_trees = {}
            text = (self.tree.src / "MAINTAINERS").read_text(errors="replace")
            for chunk in re.split(r"\n\s*\n", text):
                section = parse_section(chunk)
                for person in section["M"]:
                    self._person_trees.setdefault(person, Counter()).update(
                        " ".join((t.split()[0], posting_rules.canonical(t.split()[1]))) for t in section["T"])
        return self._person_trees

    def section(self, name: str):
        """A MAINTAINERS section by its name (parse_section), or None."""
        text = (self.tree.src / "MAINTAINERS").read_text(errors="replace")
        return next((parse_section(c) for c in re.split(r"\n\s*\n", text) if c.strip().startswith(name + "\n")), None)

    def route(self, relpath: str) -> dict:
        """The subsystem of a file and the tree its patches go through."""
        sections = [parse_section(s) for s in self._get("--sections", "-f", relpath).split("\n\n") if s.strip()]
        tree_url, why, subsystem = posting_rules.route(relpath, sections, self.person_trees())
        return {"subsystem": subsystem, "tree": tree_url, "route": why}

    def recipients(self, relpath: str, route: dict) -> list:
        """Who gets a patch of the file (route: route()'s answer for it); asked
        only for patches that are posted, a second get_maintainer.pl run."""
        people = [recipient(l) for l in self._get("-f", relpath).splitlines() if l.strip()]
        if route["route"].endswith(posting_rules.LAST_RESORT_WHY):  # he merges it, so he is addressed
            people.insert(0, {"address": posting_rules.LAST_RESORT_PERSON,
                              "role": f"maintainer:{posting_rules.LAST_RESORT_WHY}", "to": True})
        return people

    def lookup(self, relpath: str) -> dict:
        found = self.route(relpath)
        return dict(found, recipients=self.recipients(relpath, found))
