# SPDX-License-Identifier: GPL-2.0-only
"""What spatch's pretty printer loses that the kernel's coding style wants
back, restored on a rule's output by comparing it with its input."""
import difflib
import re

# A local declaration: "type name;", "struct x *name = v;", "u8 buf[4];"
# (statements such as "return x;" or "goto out;" are not).
DECLARATION = re.compile(
    rb"^\s*(?!(?:return|goto|break|continue|case|else|do)\b)(?:(?:const|static|volatile|unsigned|signed"
    rb"|struct|union|enum)\s+)*[A-Za-z_]\w*(?:\s+|\s*\*+\s*)\**[A-Za-z_]\w*(?:\[[^\]]*\])?"
    rb"(?:\s*=[^;]*)?;\s*$")


def keep_blank_after_declarations(before: bytes, after: bytes) -> bytes:
    """spatch removes a deleted declaration together with the blank line
    after it; where declarations remain above, put the blank line back
    (coding-style.rst, checkpatch's LINE_SPACING)."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    inserts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal" or j1 == 0:
            continue
        lost_blank = any(not old[k].strip() and DECLARATION.match(old[k - 1]) for k in range(max(i1, 1), i2))
        kept_blank = any(not line.strip() for line in new[j1:j2])
        following = new[j2] if j2 < len(new) else b""
        first = new[j1] if j2 > j1 else following
        if lost_blank and not kept_blank and DECLARATION.match(new[j1 - 1]) and first.strip() \
                and not DECLARATION.match(first):
            inserts.append(j1)
    for j in reversed(inserts):
        new.insert(j, b"\n")
    return b"".join(new)
