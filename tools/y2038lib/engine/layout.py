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


# "s32\t\t\tnow;": a declaration whose name is aligned with tabs after its type
TAB_ALIGNED = re.compile(rb"^([ \t]*)(\S[^\t\n]*?)(\t+)(\S[^\n]*\n?)\Z")


def width(text: bytes) -> int:
    """The columns text takes, tabs to the next multiple of 8."""
    col = 0
    for ch in text:
        col = (col // 8 + 1) * 8 if ch == 9 else col + 1
    return col


def keep_declarator_column(before: bytes, after: bytes) -> bytes:
    """spatch keeps the tabs after a type it replaced, so a longer type
    pushes the name out of the column the declarations around it share
    ("s32\\t\\t\\tnow;" -> "time64_t\\t\\t\\tnow;"): put the name back in its column."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for k in range(j2 - j1):
            mo, mn = TAB_ALIGNED.match(old[i1 + k]), TAB_ALIGNED.match(new[j1 + k])
            if not (mo and mn and mo.group(1) == mn.group(1) and mo.group(4) == mn.group(4)
                    and mo.group(2) != mn.group(2)):
                continue
            target, col, tabs = width(mo.group(1) + mo.group(2) + mo.group(3)), width(mn.group(1) + mn.group(2)), 0
            while col < target or tabs == 0:
                col, tabs = (col // 8 + 1) * 8, tabs + 1
            new[j1 + k] = mn.group(1) + mn.group(2) + b"\t" * tabs + mn.group(4)
    return b"".join(new)


def with_layout(rule, result: dict, data: bytes) -> dict:
    """A spatch result with its input, and the layout spatch lost restored."""
    if result["status"] != "changed" or rule.kind != "cocci":
        return dict(result, input=data)
    output = keep_declarator_column(data, keep_blank_after_declarations(data, result["output"]))
    return dict(result, input=data, output=output) if output != data else \
        {k: v for k, v in result.items() if k != "output"} | {"status": "unchanged", "input": data}
