# SPDX-License-Identifier: GPL-2.0-only
"""What a nanosecond-product fix (ns_product_32) fixes, read from its diff
and the code around it.

Each product the fix casts to 64 bits, `count * NSEC_PER_<unit>`, was
computed in the 32-bit long of the constant on machines whose long is 32
bits wide.  Its message says, for each: the function; what the count is and
where it comes from (a module parameter, a value copied from user space or
parsed from what user space writes, a clock's seconds register, a
constant), read from the file and the headers it includes; the smallest
count that goes wrong, derived from the count's type (an unsigned 32-bit
product is kept modulo 2^32 ns, a signed one overflows past 2^31 - 1 ns);
and what a whole number of seconds becomes: the smallest that goes wrong,
or the constant's own value.  The subject names the value the fix is for.
"""
import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

from .fixes import enclosing_function, function_body

UNIT_NS = {"NSEC_PER_SEC": 10 ** 9, "NSEC_PER_MSEC": 10 ** 6, "NSEC_PER_USEC": 10 ** 3}
UNIT_NAME = {"NSEC_PER_SEC": "s", "NSEC_PER_MSEC": "ms", "NSEC_PER_USEC": "us"}
WRAP = 2 ** 32  # an unsigned 32-bit long keeps the product modulo 2^32
# a 32-bit count of these types makes the product an unsigned long; any
# other (int, long, and the narrower types int promotion makes signed) a long
UNSIGNED = {"unsigned", "unsigned int", "unsigned long", "u32", "__u32", "size_t", "uint", "ulong"}
TYPES = (r"unsigned\s+long|unsigned\s+int|unsigned\s+short|unsigned\s+char|unsigned|long|int|short|char|"
         r"u8|s8|u16|s16|u32|s32|__u8|__s8|__u16|__s16|__u32|__s32|size_t|ssize_t|uint|ulong")
REGISTER_READ = r"(?:readl|readl_relaxed|ioread32|__raw_readl)\((?:[^()]|\([^()]*\))*\)"
COUNT = rf"{REGISTER_READ}|[\w.\->\[\]]+"
# the product as the fix writes it: (s64)count * NSEC_PER_<unit>
CAST = re.compile(rf"\((?P<cast>s64|u64)\)\s*(?P<count>{COUNT})\s*\*\s*(?P<unit>NSEC_PER_(?:SEC|MSEC|USEC))\b")
LITERAL = re.compile(r"\(?\s*(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)\s*\)?")
USER_INPUT = re.compile(r"\b(copy_from_user|kstrto\w+|sscanf)\s*\(")


@dataclass
class Product:
    """One product a fix computes in 64 bits, and what its count is."""
    function: str
    expression: str  # as the code had it: "NSEC_PER_MSEC * timer"
    count: str
    unit: str
    type: str  # the count's C type, "" if not found
    source: str  # "the module parameter vpu_poll_interval", ...
    name: str  # what the subject names: the parameter, the field, the function
    value: Optional[int] = None  # a constant count's value
    cast: str = "s64"  # what the fix casts the count to

    @property
    def unsigned(self) -> bool:
        return " ".join(self.type.split()) in UNSIGNED

    @property
    def limit(self) -> int:
        """The product from which the 32-bit long goes wrong."""
        return WRAP if self.unsigned else WRAP // 2

    def smallest(self) -> int:
        """The smallest count whose product reaches the limit."""
        return -(-self.limit // UNIT_NS[self.unit])

    def example(self) -> int:
        """The count the message shows: the constant's value, else the
        smallest whole number of seconds that goes wrong, in the unit."""
        if self.value is not None:
            return self.value
        return -(-self.limit // 10 ** 9) * 10 ** 9 // UNIT_NS[self.unit]

    def wrapped(self, count: int) -> int:
        """count * unit as a 32-bit long (unsigned or signed) computes it."""
        low = count * UNIT_NS[self.unit] % WRAP
        return low if self.unsigned or low < WRAP // 2 else low - WRAP


def wrapped_products(src: Path, relpath: str, before: str, after: str) -> List[Product]:
    """The products a fix casts to 64 bits in one file, each once."""
    old, new = before.splitlines(), after.splitlines()
    found: List[Product] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "replace":
            continue
        for index, (line, fixed) in enumerate(zip(old[i1:i2], new[j1:j2]), i1):
            for m in CAST.finditer(fixed):
                product = described(src, relpath, before, enclosing_function(old, index), line, m)
                if product:
                    product.cast = m.group("cast")
                if product and product not in found:
                    found.append(product)
    return found


def described(src: Path, relpath: str, text: str, function: str, line: str, m) -> Optional[Product]:
    """The product m found in a fixed line, with what its count is."""
    count, unit = m.group("count"), m.group("unit")
    said = re.search(rf"{re.escape(count)}\s*\*\s*{unit}\b|\b{unit}\s*\*\s*{re.escape(count)}", line)
    if said is None:
        return None
    expression = said.group(0)
    if re.fullmatch(REGISTER_READ, count):
        return Product(function, expression, count, unit, "u32",
                       f"the seconds a clock's register holds, read by {count.split('(')[0]}()",
                       f"{function}() seconds")
    constant = constant_value(src, relpath, text, count)
    if constant is not None:
        value, letters = constant
        kind = {"": "int", "u": "unsigned int", "l": "long"}.get(letters, "unsigned long")
        name = count if re.fullmatch(r"[A-Z_][A-Z0-9_]*", count) else f"{function}()"
        return Product(function, expression, count, unit, kind, f"the constant {value}", name, value)
    body = function_body(text, function) or ""
    return Product(function, expression, count, unit, count_type(src, relpath, text, body, count),
                   *origin(text, body, count, function))


def macro_text(src: Path, relpath: str, text: str, name: str) -> Optional[str]:
    """What a macro is #defined to in the file, a header of its directory
    (the driver's own) or a header it includes; None if nowhere."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    headers = [p.read_text(errors="replace") for p in sorted((src / relpath).parent.glob("*.h"))]
    for code in [text, *headers, *included(src, relpath, text)]:
        m = re.search(rf"^#\s*define\s+{re.escape(name)}\s+(\S+)", code, re.M)
        if m:
            return m.group(1)
    return None


def constant_value(src: Path, relpath: str, text: str, count: str):
    """(value, integer suffix) of a literal or of a macro defined as one;
    None if count is neither."""
    literal = LITERAL.fullmatch(macro_text(src, relpath, text, count) or count)
    return (int(literal.group(1), 0), literal.group(2).lower()) if literal else None


def count_type(src: Path, relpath: str, text: str, body: str, count: str) -> str:
    """The C type of a name (a local, a parameter, a variable of the file)
    or of a field of a structure (declared in the file or a header it
    includes); "" where it is not found."""
    parts = re.split(r"\.|->", count)
    if len(parts) == 1:
        return declared_type(body, count) or declared_type(text, count)
    holder = re.search(rf"\bstruct\s+(\w+)\s*\*?\s*(?<!\w){re.escape(parts[-2])}\b", body)
    if holder is None:
        return ""
    for source in [text, *included(src, relpath, text)]:
        layout = re.search(rf"\bstruct\s+{holder.group(1)}\s*\{{(.*?)^\}}", source, re.M | re.S)
        found = declared_type(layout.group(1), parts[-1]) if layout else ""
        if found:
            return found
    return ""


def declared_type(code: str, name: str) -> str:
    """The type a declaration in code ("int timer, ret;", "static int x = 5;",
    a parameter "u32 x") gives name; "" if none does."""
    m = re.search(rf"(?:^|[;{{(,])\s*(?:static\s+|const\s+|volatile\s+)*({TYPES})\s+"
                  rf"(?:[*\s]*\w+\s*(?:=[^,;()]*)?,\s*)*{re.escape(name)}\s*[=;,)\[]", code, re.M)
    return " ".join(m.group(1).split()) if m else ""


def included(src: Path, relpath: str, text: str) -> List[str]:
    """The texts of the headers a file includes itself, found in its
    directory or the tree's include/ and include/uapi/."""
    texts = []
    for quote, header in re.findall(r'^#\s*include\s+([<"])([^>"]+)[>"]', text, re.M):
        places = [src / Path(relpath).parent / header] if quote == '"' else []
        places += [src / "include" / header, src / "include" / "uapi" / header]
        path = next((p for p in places if p.is_file()), None)
        if path:
            texts.append(path.read_text(errors="replace"))
    return texts


def origin(text: str, body: str, count: str, function: str):
    """(where the count comes from, what a subject calls it)."""
    base, field = re.split(r"\.|->", count)[0], re.split(r"\.|->", count)[-1]
    param = re.search(rf"\bmodule_param(?:_named\s*\(\s*(\w+)\s*,|\s*\()\s*{re.escape(count)}\s*,", text)
    if param:
        name = param.group(1) or count
        return f"the module parameter {name}", name
    for m in USER_INPUT.finditer(body):
        call, args = m.group(1), body[m.end():m.end() + 200].split(";")[0]
        if call == "copy_from_user" and re.match(rf"\s*&\s*{re.escape(base)}\s*,", args):
            return "copied from user space by copy_from_user()", field
        if call != "copy_from_user" and re.search(rf"&\s*{re.escape(count)}\s*[,)]", args):
            return f"parsed by {call}() from what user space writes", f"{function}()"
    return "", f"{function}()"


def sentence(product: Product) -> str:
    """The paragraph a fix's message gives one product."""
    unit, ns = UNIT_NAME[product.unit], UNIT_NS[product.unit]
    if not product.type:
        return (f"In {product.function}(), {product.expression} is computed in 32 bits on machines whose long "
                f"is 32 bits wide; the type of {product.count} is not in the file or the headers it includes, "
                f"so where it goes wrong is not said here.")
    what = f"{product.count} is {article(product.type)} {product.type}" + (f", {product.source}" if product.source else "")
    kind = "unsigned long" if product.unsigned else "long"
    how = ("keeps it modulo 2^32 ns (4.29 s)" if product.unsigned else
           "overflows past 2^31 - 1 ns (2.147 s) and turns it negative")
    count = product.example()
    start = "" if product.value is not None else f"from {product.smallest()} {unit} on it is wrong: "
    return (f"In {product.function}(), {what}.  On machines whose long is 32 bits wide, {product.expression} "
            f"is computed in a 32-bit {kind}, which {how}: {start}{count} {unit} gives "
            f"{product.wrapped(count)} ns ({seconds(product.wrapped(count))}) instead of "
            f"{count * ns} ns ({seconds(count * ns)}).")


def seconds(ns: int) -> str:
    """Nanoseconds in seconds: whole, or to the millisecond."""
    return f"{ns // 10 ** 9} s" if ns % 10 ** 9 == 0 else f"{ns / 1e9:.3f} s"


def article(word: str) -> str:
    """'an int', 'an unsigned long', 'a u32'."""
    return "an" if re.match(r"[aeio]|unsigned", word) else "a"


def remedy(products: List[Product]) -> Optional[str]:
    """What the fix does, said of its own counts (the rule's rationale says
    it of every kind of count)."""
    counts = list(dict.fromkeys(p.count for p in products))
    if not counts:
        return None
    casts = sorted({p.cast for p in products})
    what = " and ".join(counts) if len(counts) <= 2 else "each count"
    return (f"Cast {what} to {' or '.join(casts)}, so that the product is computed in 64 bits, as it already "
            "is on 64-bit machines, where the result does not change.")


def summary(products: List[Product]) -> Optional[str]:
    """The subject's summary: the value (or function) the fix is for."""
    names = list(dict.fromkeys(p.name for p in products))
    if not names:
        return None
    return f"fix the {' and '.join(names)} overflow{'s' if len(names) > 1 else ''} on 32-bit"
