// SPDX-License-Identifier: GPL-2.0-only
/// Build scalar ktime_t values directly: ktime_set(0, X) is X where the
/// nanoseconds X provably mean the same on 32-bit and 64-bit machines.
///
/// With the scalar s64 nanosecond ktime_t universal (Linux 3.17) and the
/// union around it gone (4.10), ktime_set(0, X) is X converted to the
/// unsigned long nanoseconds ktime_set() takes; Linux 4.10 replaced it by
/// X in 56 files.  That conversion keeps the value of an unsigned type of
/// at most 32 bits, of an unsigned long and of a constant from 0 to
/// 2^31 - 1 (2.147 s), so those sites change; a negative value, a 64-bit
/// one and one past 2^32 ns (4.29 s) are changed by it on 32-bit machines
/// and stay.
/// ktime_set(0, ms * NSEC_PER_MSEC) is ms_to_ktime(ms), which keeps the
/// unit in view; it multiplies in 64 bits, so it changes only where the
/// 32-bit product of the old form could not wrap: a u8 ms (at most 255 ms)
/// or a constant of at most 4294 ms.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Linux 4.10 commit 8b0e195314fa did the same by hand.
//  ktime_set(const s64 secs, const unsigned long nsecs) returns
//  secs * NSEC_PER_SEC + (s64)nsecs.  Only x as a whole value changes: the
//  right of an assignment, an initializer, a return value or a function
//  argument, where the destination's type converts x as it converted the
//  s64 ktime_set() returned.  Inside other expressions x's own type would
//  take part in the arithmetic (2 * x in 32 bits, -x of an unsigned x), so
//  those sites stay, as do arguments of min()/max()/clamp(), which check
//  their operands' types, and of ktime_add()/ktime_sub()/ktime_add_ns()/
//  ktime_sub_ns(), which are plain + and -.  A constant is evaluated (literals,
//  NSEC_PER_*, USEC_PER_*, MSEC_PER_SEC, + - * /, and the file's own
//  object-like macros of those, defined once) and changes when every step of
//  it lies from 0 to 2^31 - 1, so no int or 32-bit long overflows.  A call of
//  the file's own function-like macro whose whole body is a cast to an
//  unsigned type of at most 32 bits is such an unsigned value.
//  A signed variable, a field or macro whose type or value spatch cannot
//  see, and a 64-bit x stay; report mode lists each with the reason.
//  ms_to_ktime(ms) takes a u64: the kernel builds with -fno-strict-overflow,
//  so on 32-bit machines ms * NSEC_PER_MSEC wrapped modulo 2^32 and matches
//  the 64-bit product while ms * 10^6 < 2^32, up to 4294 ms; a u8 ms is at
//  most 255 ms.  There is no us_to_ktime(): a microsecond product stays a
//  product.  ktime_set(0, N * NSEC_PER_SEC) that wraps today is a y2038-fixes
//  rule's (ktime_set_seconds).  The definitions of ktime_set() and
//  ms_to_ktime() themselves are left alone.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 4.10 * (ktime_set(0, x) -> x is scalar ktime_t arithmetic: ktime_t was a union until 4.10)
// Removed: -
// Sites: independent
// Subject: build scalar ktime_t values without ktime_set(0, x)
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_set, ms_to_ktime
// Prefilter-regex: ktime_set\s*\(\s*\(*\s*0\s*\)*\s*,

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

UNITS = {"NSEC_PER_USEC": 1000, "NSEC_PER_MSEC": 1000000, "NSEC_PER_SEC": 1000000000,
         "USEC_PER_MSEC": 1000, "USEC_PER_SEC": 1000000, "MSEC_PER_SEC": 1000}
TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\b|([A-Za-z_]\w*)|([-+*/()]))")
LIMIT = 2 ** 31
NSEC_PER_MSEC = 1000000
# where 2^32 ns lie: the 32-bit unsigned long ktime_set() took
WRAP = 2 ** 32
exact = set()
ms_exact = set()
wide = set()
# the file's own #defines: {name: body}, None for a name defined differently twice
object_macros = {}
function_macros = {}
# one spatch process runs a batch of files: the macros are those of the
# file whose ktime_set() calls are being matched, never another file's
macros_of = [None]
NARROW_CAST = re.compile(r"\(\s*(?:u8|u16|u32|__u8|__u16|__u32|uint8_t|uint16_t|uint32_t|unsigned\s+char|"
                         r"unsigned\s+short|unsigned\s+int|unsigned)\s*\)\s*")


def start_file(name):
    if macros_of[0] != name:
        macros_of[0] = name
        object_macros.clear()
        function_macros.clear()


def defined(macros, name, body):
    macros[name] = body if macros.get(name, body) == body else None


def strip_brackets(text):
    """text without the brackets that enclose all of it."""
    text = text.strip()
    while text.startswith("(") and closing(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    return text


def closing(text, at):
    """Where the bracket opened at text[at] closes, or -1."""
    depth = 0
    for i in range(at, len(text)):
        depth += text[i] == "("
        depth -= text[i] == ")"
        if depth == 0:
            return i
    return -1


def narrow_macro_call(text):
    """NAME(...) of the file's function-like macro whose whole body is a
    cast to an unsigned type of at most 32 bits: a value from 0 to 2^32 - 1."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*\(.*\)\s*", text, re.S)
    body = function_macros.get(m.group(1)) if m else None
    if not body:
        return False
    cast = NARROW_CAST.match(strip_brackets(body))
    rest = strip_brackets(body)[cast.end():] if cast else ""
    return bool(rest) and (re.fullmatch(r"[A-Za-z_]\w*|[0-9]+[uUlL]*", rest) is not None
                           or rest.startswith("(") and closing(rest, 0) == len(rest) - 1)


def tokens(text, depth=0):
    found, at = [], 0
    while at < len(text.rstrip()):
        m = TOKEN.match(text, at)
        if not m:
            return None
        number, name, op = m.groups()
        if number:
            found.append(int(number, 0) if not re.fullmatch(r"0[0-7]+", number) else int(number, 8))
        elif name in UNITS:
            found.append(UNITS[name])
        elif name:
            body = object_macros.get(name)
            inner = tokens(body, depth + 1) if body and depth < 8 else None
            if inner is None:
                return None
            found += ["("] + inner + [")"]
        else:
            found.append(op)
        at = m.end()
    return found


def checked(value):
    if not 0 <= value < LIMIT:
        raise ValueError(value)
    return value


def parse_sum(toks):
    value = parse_product(toks)
    while toks and toks[0] in ("+", "-"):
        op = toks.pop(0)
        right = parse_product(toks)
        value = checked(value + right if op == "+" else value - right)
    return value


def parse_product(toks):
    value = parse_atom(toks)
    while toks and toks[0] in ("*", "/"):
        op = toks.pop(0)
        right = parse_atom(toks)
        value = checked(value * right if op == "*" else divmod(value, right)[0])
    return value


def parse_atom(toks):
    tok = toks.pop(0)
    if tok == "(":
        value = parse_sum(toks)
        if toks.pop(0) != ")":
            raise ValueError(tok)
        return value
    if isinstance(tok, int):
        return checked(tok)
    raise ValueError(tok)


def const_value(text):
    """The value of a constant expression whose every step lies in
    [0, 2^31), or None."""
    toks = tokens(text)
    if not toks:
        return None
    try:
        value = parse_sum(toks)
    except (ValueError, IndexError, ZeroDivisionError):
        return None
    return None if toks else value


def ms_fits(text):
    value = const_value(text)
    return value is not None and value * NSEC_PER_MSEC < WRAP


def atom(text):
    """x without an operator outside its brackets: its type is the one
    spatch infers (for a + b or a * MACRO it guesses from the operands)."""
    depth, outside = 0, []
    for ch in text:
        depth += ch in "(["
        depth -= ch in ")]"
        if depth == 0 and ch not in ")]":
            outside.append(ch)
    rest = "".join(outside).replace("->", ".")
    return not re.search(r"[-+*/%<>&|^?!~=]", rest)


def key(p):
    return (p[0].file, p[0].line, p[0].column)


def verdict(p, ns):
    here = key(p)
    if here in ms_exact:
        return "ktime_t is scalar: ms_to_ktime() builds the value directly"
    if here in wide:
        return ("left: a 64-bit x, which ktime_set()'s unsigned long nanoseconds "
                "truncated on 32-bit machines and x alone would not")
    if here not in exact:
        return ("left: %s may be negative, 64-bit or past 2^32 ns (a signed type, or a type "
                "or macro value spatch cannot see): ktime_set() changed such a value on "
                "32-bit machines, x alone would not" % ns)
    if here + ("whole",) not in exact:
        return ("left: x inside a larger expression or a type-checking or arithmetic macro "
                "would bring its own type into the arithmetic")
    return "ktime_t is scalar: build the value directly"

// Every file this rule changes calls ktime_set() (its Prefilter-regex): the
// first match tells which file's macros the rules below collect.
@this_file@
position p;
@@
 ktime_set@p(...)

@script:python@
p << this_file.p;
@@
start_file(p[0].file)

// The file's own macros, for the values of the constants below.
@object_macro@
identifier macro_name;
expression macro_body;
@@
#define macro_name macro_body

@script:python@
macro_name << object_macro.macro_name;
macro_body << object_macro.macro_body;
@@
defined(object_macros, macro_name, macro_body)

@function_macro@
identifier macro_name;
expression macro_body;
@@
#define macro_name(...) macro_body

@script:python@
macro_name << function_macro.macro_name;
macro_body << function_macro.macro_body;
@@
defined(function_macros, macro_name, macro_body)

// Rewrite: ktime_set(0, ms * NSEC_PER_MSEC) -> ms_to_ktime(ms)
//  ms_to_ktime(ms) returns ms * NSEC_PER_MSEC as a ktime_t, as
//  ktime_set(0, ms * NSEC_PER_MSEC) did: each millisecond count changed here
//  is a u8 or a constant whose product stays below 2^32 ns, so the 32-bit
//  product ktime_set() took never wrapped.
@units depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
typedef u8, __u8, uint8_t;
{u8, __u8, uint8_t, unsigned char} b : script:python() { atom(b) };
expression c : script:python() { ms_fits(c) };
@@
fn(...) {
<+...
(
- ktime_set(0, b * NSEC_PER_MSEC)
+ ms_to_ktime(b)
|
- ktime_set(0, NSEC_PER_MSEC * b)
+ ms_to_ktime(b)
|
- ktime_set(0, c * NSEC_PER_MSEC)
+ ms_to_ktime(c)
|
- ktime_set(0, NSEC_PER_MSEC * c)
+ ms_to_ktime(c)
)
...+>
}

// Rewrite: ktime_set(0, x) -> x
//  ktime_set(0, X) of an X whose type is unsigned and at most 32 bits wide,
//  or unsigned long, is X: ktime_set() converted it to unsigned long and back
//  to s64 without changing it, and here it stands as a whole value (an
//  argument of a function that is not variadic, the right of an assignment,
//  an initializer, a return value) that the destination's type converts as
//  it converted the s64 before.
@alone depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
identifier f !~ "^(min|max|min3|max3|min_not_zero|clamp|ktime_add|ktime_sub|ktime_add_ns|ktime_sub_ns|printk|[A-Za-z0-9_]*printf|pr_[A-Za-z0-9_]+|dev_[A-Za-z0-9_]+|netdev_[A-Za-z0-9_]+|trace_[A-Za-z0-9_]+|seq_[A-Za-z0-9_]+|[A-Za-z0-9_]+_(dbg|debug|info|notice|warn|err|log))$";
expression E;
typedef u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t;
{u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t, unsigned char,
 unsigned short, unsigned int, unsigned long, size_t} x : script:python() { atom(x) };
@@
fn(...) {
<+...
(
 f(...,
- ktime_set(0, x)
+ x
 ,...)
|
 E =
- ktime_set(0, x)
+ x
)
...+>
}

// Rewrite: ktime_set(0, c) -> c
//  ktime_set(0, C) of a constant C from 0 to 2^31 - 1 is C: ktime_set()
//  converted it to unsigned long and back to s64 without changing it, and
//  here it stands as a whole value (an argument of a function that is not
//  variadic, the right of an assignment, an initializer, a return value)
//  that the destination's type converts as it converted the s64 before.
@alone_const depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
identifier f !~ "^(min|max|min3|max3|min_not_zero|clamp|ktime_add|ktime_sub|ktime_add_ns|ktime_sub_ns|printk|[A-Za-z0-9_]*printf|pr_[A-Za-z0-9_]+|dev_[A-Za-z0-9_]+|netdev_[A-Za-z0-9_]+|trace_[A-Za-z0-9_]+|seq_[A-Za-z0-9_]+|[A-Za-z0-9_]+_(dbg|debug|info|notice|warn|err|log))$";
expression E;
expression c : script:python() { const_value(c) is not None or narrow_macro_call(c) };
@@
fn(...) {
<+...
(
 f(...,
- ktime_set(0, c)
+ c
 ,...)
|
 E =
- ktime_set(0, c)
+ c
)
...+>
}

// Rewrite: ktime_set(0, x) -> x
//  ktime_set(0, X) of an X whose type is unsigned and at most 32 bits wide,
//  or unsigned long, is X: ktime_set() converted it to unsigned long and back
//  to s64 without changing it, and here it stands as a whole value (an
//  argument of a function that is not variadic, the right of an assignment,
//  an initializer, a return value) that the destination's type converts as
//  it converted the s64 before.
@alone_init depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
type T;
identifier v;
typedef u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t;
{u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t, unsigned char,
 unsigned short, unsigned int, unsigned long, size_t} x : script:python() { atom(x) };
@@
fn(...) {
<+...
 T v =
- ktime_set(0, x)
+ x
 ;
...+>
}

// Rewrite: ktime_set(0, c) -> c
//  ktime_set(0, C) of a constant C from 0 to 2^31 - 1 is C: ktime_set()
//  converted it to unsigned long and back to s64 without changing it, and
//  here it stands as a whole value (an argument of a function that is not
//  variadic, the right of an assignment, an initializer, a return value)
//  that the destination's type converts as it converted the s64 before.
@alone_init_const depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
type T;
identifier v;
expression c : script:python() { const_value(c) is not None or narrow_macro_call(c) };
@@
fn(...) {
<+...
 T v =
- ktime_set(0, c)
+ c
 ;
...+>
}

// Rewrite: ktime_set(0, x) -> x
//  ktime_set(0, X) of an X whose type is unsigned and at most 32 bits wide,
//  or unsigned long, is X: ktime_set() converted it to unsigned long and back
//  to s64 without changing it, and here it stands as a whole value (an
//  argument of a function that is not variadic, the right of an assignment,
//  an initializer, a return value) that the destination's type converts as
//  it converted the s64 before.
@alone_return depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
typedef u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t;
{u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t, unsigned char,
 unsigned short, unsigned int, unsigned long, size_t} x : script:python() { atom(x) };
@@
fn(...) {
<+...
 return
- ktime_set(0, x)
+ x
 ;
...+>
}

// Rewrite: ktime_set(0, c) -> c
//  ktime_set(0, C) of a constant C from 0 to 2^31 - 1 is C: ktime_set()
//  converted it to unsigned long and back to s64 without changing it, and
//  here it stands as a whole value (an argument of a function that is not
//  variadic, the right of an assignment, an initializer, a return value)
//  that the destination's type converts as it converted the s64 before.
@alone_return_const depends on patch@
identifier fn != {ktime_set, ms_to_ktime};
expression c : script:python() { const_value(c) is not None or narrow_macro_call(c) };
@@
fn(...) {
<+...
 return
- ktime_set(0, c)
+ c
 ;
...+>
}

// The report: each site, and why one is left.
@wide_x depends on context || report || org@
typedef u64, s64, __u64, __s64, ktime_t, time64_t;
{u64, s64, __u64, __s64, long long, unsigned long long, ktime_t, time64_t} w;
position p;
@@
 ktime_set@p(0, w)

@script:python@
p << wide_x.p;
@@
wide.add(key(p))

@exact_x depends on context || report || org@
typedef u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t;
{u8, u16, u32, __u8, __u16, __u32, uint8_t, uint16_t, uint32_t, unsigned char,
 unsigned short, unsigned int, unsigned long, size_t} x : script:python() { atom(x) };
expression c : script:python() { const_value(c) is not None or narrow_macro_call(c) };
position p;
@@
(
 ktime_set@p(0, x)
|
 ktime_set@p(0, c)
)

@script:python@
p << exact_x.p;
@@
exact.add(key(p))

@ms_x depends on context || report || org@
typedef u8, __u8, uint8_t;
{u8, __u8, uint8_t, unsigned char} b : script:python() { atom(b) };
expression c : script:python() { ms_fits(c) };
position p;
@@
(
 ktime_set@p(0, b * NSEC_PER_MSEC)
|
 ktime_set@p(0, NSEC_PER_MSEC * b)
|
 ktime_set@p(0, c * NSEC_PER_MSEC)
|
 ktime_set@p(0, NSEC_PER_MSEC * c)
)

@script:python@
p << ms_x.p;
@@
ms_exact.add(key(p))

@whole depends on context || report || org@
identifier f !~ "^(min|max|min3|max3|min_not_zero|clamp|ktime_add|ktime_sub|ktime_add_ns|ktime_sub_ns|printk|[A-Za-z0-9_]*printf|pr_[A-Za-z0-9_]+|dev_[A-Za-z0-9_]+|netdev_[A-Za-z0-9_]+|trace_[A-Za-z0-9_]+|seq_[A-Za-z0-9_]+|[A-Za-z0-9_]+_(dbg|debug|info|notice|warn|err|log))$";
expression E, ns_arg;
position p;
@@
(
 f(..., ktime_set@p(0, ns_arg), ...)
|
 E = ktime_set@p(0, ns_arg)
)

@script:python@
p << whole.p;
@@
exact.add(key(p) + ("whole",))

@whole_init depends on context || report || org@
type T;
identifier v;
expression ns_arg;
position p;
@@
 T v = ktime_set@p(0, ns_arg);

@script:python@
p << whole_init.p;
@@
exact.add(key(p) + ("whole",))

@whole_return depends on context || report || org@
expression ns_arg;
position p;
@@
 return ktime_set@p(0, ns_arg);

@script:python@
p << whole_return.p;
@@
exact.add(key(p) + ("whole",))

@found depends on context || report || org@
identifier fn != {ktime_set, ms_to_ktime};
expression ns_arg;
position p;
@@
fn(...) {
<+...
* ktime_set@p(0, ns_arg)
...+>
}

@script:python depends on report@
p << found.p;
ns_arg << found.ns_arg;
@@
coccilib.report.print_report(p[0], "WARNING: " + verdict(p, ns_arg))

@script:python depends on org@
p << found.p;
ns_arg << found.ns_arg;
@@
coccilib.org.print_todo(p[0], verdict(p, ns_arg))
