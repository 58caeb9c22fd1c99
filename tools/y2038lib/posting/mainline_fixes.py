# SPDX-License-Identifier: GPL-2.0-only
"""Fixes mainline made after the newest packaged tree was cut, for bugs the
fix rules still find there.  Such a fix is not posted upstream (mainline has
it: a maintainer answers "already fixed") but held, and the review page
names the commit a stable backport request cites (stable-kernel-rules.rst,
option 3).  A mainline checkout would tell this by itself; none is at hand
where the series is made, so each entry cites where its merge is recorded.
"""
import difflib
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from .fixes import enclosing_function
from .posting_rules import CleanupPolicy


@dataclass(frozen=True)
class MainlineFix:
    path: str
    function: str
    commit: str
    subject: str
    release: str  # the first mainline release with it
    seen: str  # where the merge is recorded


KNOWN = (
    MainlineFix("drivers/net/ethernet/stmicro/stmmac/stmmac_hwtstamp.c", "get_ptptime", "7b7491372f8e",
                "net: stmmac: fix multiplication overflow when reading timestamp", "6.15",
                "netdev's patchwork bot (https://git.kernel.org/netdev/net/c/7b7491372f8e, net, 6.15-rc4) "
                "and the 6.14-stable review of it"),
)

# what a backport request to the stable maintainers says
BACKPORT = CleanupPolicy((), False, "Documentation/process/stable-kernel-rules.rst", "Option 3",
                         "Send the patch [...] to stable@vger.kernel.org and mention the kernel versions you wish "
                         "it to be applied to. When doing so, you must note the upstream commit ID in the "
                         "changelog of your submission")


def cited(fix: MainlineFix) -> str:
    return f'{fix.commit} ("{fix.subject}"), Linux {fix.release}; seen in {fix.seen}'


def changed_functions(diffs: Dict[str, Tuple[bytes, bytes]]) -> set:
    """(file, function) of every line a fix changes."""
    found = set()
    for relpath, (before, after) in diffs.items():
        old = before.decode(errors="replace").splitlines()
        new = after.decode(errors="replace").splitlines()
        for tag, i1, _, _, _ in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if tag != "equal":
                found.add((relpath, enclosing_function(old, i1)))
    return found


def fixed_in_mainline(diffs: Dict[str, Tuple[bytes, bytes]]) -> Optional[MainlineFix]:
    """The mainline commit that fixed every function a fix changes, or None."""
    changed = changed_functions(diffs)
    known = {(f.path, f.function): f for f in KNOWN}
    fixes = {known.get(where) for where in changed}
    return fixes.pop() if changed and len(fixes) == 1 and None not in fixes else None
