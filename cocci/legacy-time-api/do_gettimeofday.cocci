// SPDX-License-Identifier: GPL-2.0-only
/// Replace do_gettimeofday() and its struct timeval local with
/// ktime_get_real_ts64() and a struct timespec64.
///
/// struct timeval keeps seconds in a long, which overflows on 32-bit
/// machines in January 2038; do_gettimeofday() was removed in Linux 5.0.
/// A local struct timeval filled by do_gettimeofday() becomes a struct
/// timespec64 filled by ktime_get_real_ts64(); tv_sec keeps its meaning
/// and tv_usec reads become tv_nsec / NSEC_PER_USEC (tv_usec / 1000
/// becomes tv_nsec / NSEC_PER_MSEC).
///
/// Only locals whose every use is do_gettimeofday(&tv), a read of
/// tv.tv_sec / tv.tv_usec or memset(&tv, 0, sizeof(...)) change.  A value that escapes (its address or the
/// whole structure passed on, copied to user space or into a wire or disk
/// format, fields written or addressed) is reported instead, because its
/// layout is an ABI.  Seconds printed through a string constant format
/// (printk, a driver's logging macro) get %lld for %ld or %d (likewise
/// %llu, %llx); printed with another conversion, or as a value that is not
/// plain arithmetic on tv_sec, they keep the local.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Variable names are kept.  do_gettimeofday() on a structure
//  field or through a pointer is reported, not changed.  Declarations
//  initialised by an expression, or with several variables (struct timeval
//  a, b;), are left alone: spatch cannot change the type of one declarator
//  of several.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 timespec64, 3.17 ktime_get_real_ts64 (a macro of getnstimeofday64 until 4.18)
// Removed: 5.0 do_gettimeofday, 5.6 timeval
// Subject: use ktime_get_real_ts64() instead of do_gettimeofday()
// Options: --no-includes --include-headers --max-width 100
// Keywords: do_gettimeofday, timeval, y2038

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
escaping = set()
converted = set()
zeroing = set()  # (file, line, column) of the local's mentions in memset(&tv, 0, sizeof(...))
# (function, format text) -> the format with tv_sec's conversion widened, and
# the local it prints; a format also used in a call printing no local keeps it
formats = {}
constants = {}  # (function, string constant) -> where it occurs
printing_calls = set()  # (file, line, column) of a call whose format is handled by a string constant

CONVERSION = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|z|t|j)?([a-zA-Z%])")

def widened(fmt, index):
    """fmt with its index-th argument's conversion made long long (%ld and
    %d -> %lld, %lu and %u -> %llu, ...), or None."""
    arg = 0
    for m in CONVERSION.finditer(fmt):
        if m.group(4) == "%":
            continue
        arg += (m.group(1) == "*") + (m.group(2) == "*")
        if arg == index:
            if m.group(3) not in (None, "l") or m.group(4) not in "diuxX":
                return None
            at = m.start(4)
            return fmt[:at] + ("l" if m.group(3) else "ll") + fmt[at:]
        arg += 1
    return None

def printed_type(expr, var):
    """How var.tv_sec's new type reaches the printed value: "cast" (every
    use of it is cast, so the value keeps its type), "widened" (only
    arithmetic on it: the value becomes 64-bit), or None (anything else)."""
    seconds = r"%s\s*\.\s*tv_sec\b" % re.escape(var)
    uses = len(re.findall(seconds, expr))
    casts = len(re.findall(r"\(\s*[A-Za-z_][\w\s]*\)\s*" + seconds, expr))
    if casts == uses:
        return "cast"
    if casts or re.search(r"[?!=<>,]|&&|\|\||\bsizeof\b|\w\s*\(", re.sub(r"<<|>>", "+", expr)):
        return None
    return "widened"

def place(p):
    return (p[0].file, p[0].line, p[0].column)

// Only files that call the API are worth parsing (and spatch's --use-gitgrep knows it).
@uses_api@
@@
 do_gettimeofday(...)

@script:python new_file depends on uses_api@
@@
escaping.clear()
converted.clear()

// <+... ...+>: a declaration in a nested block counts too ("... when any"
// reaches only the function's own block).
@tv_local depends on uses_api@
identifier fn, tv;
@@
fn(...) {
<+...
  struct timeval tv;
...+>
}

// "struct timeval tv;" above also matches a declaration with an
// initializer: a brace list suits timespec64, an expression does not.
@value_init@
identifier tv_local.fn;
identifier tv_local.tv;
expression E;
@@
fn(...) {
<+...
  struct timeval tv = E;
...+>
}

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
_e << value_init.E;
@@
escaping.add((fn, tv))

// The rules below match anywhere and check the function in Python: a walk
// through a function body fails ("reachable by inconsistent control-flow
// paths") where an else exists only under a configuration.
@reads@
identifier tv_local.tv;
position p;
@@
(
 do_gettimeofday(&tv@p)
|
 tv@p.tv_sec
|
 tv@p.tv_usec
)

// memset(&tv, 0, sizeof(tv)) zeroes the local whatever its type: no use
// of its layout (sizeof(struct timeval) takes the new type below).
@zeroed@
identifier tv_local.tv;
position z1, z2;
@@
 memset(&tv@z1, 0, sizeof(tv@z2))

@script:python@
z1 << zeroed.z1;
z2 << zeroed.z2;
@@
zeroing.update((place(z1), place(z2)))

@zeroed_type@
identifier tv_local.tv;
position z1;
@@
 memset(&tv@z1, 0, sizeof(struct timeval))

@script:python@
z1 << zeroed_type.z1;
@@
zeroing.add(place(z1))

@other_use@
identifier tv_local.tv;
position q != reads.p;
@@
 tv@q

@written@
identifier tv_local.tv;
identifier member = {tv_sec, tv_usec};
expression E;
assignment operator aop;
position w;
@@
(
 tv@w.member aop E
|
 &tv@w.member
|
 tv@w.member++
|
 tv@w.member--
|
 ++tv@w.member
|
 --tv@w.member
)

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
q << other_use.q;
@@
if q[0].current_element == fn and place(q) not in zeroing:
    escaping.add((fn, tv))

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
w << written.w;
@@
if w[0].current_element == fn:
    escaping.add((fn, tv))

// A call given a string constant and a value computed from tv_sec prints it
// (printk, a driver's own logging macro): the value becomes 64-bit, so its
// %ld/%lu/%lx (or %d/%u/%x) conversion becomes %lld/%llu/%llx.  Any other
// conversion, a value that is not plain arithmetic on tv_sec, two values in
// one call or a format in pieces keep the local.
@printed@
identifier logger;
constant char[] fmt;
expression list before;
expression list[m] mid;
expression E;
position pf, pc;
@@
 logger@pc(before, fmt@pf, mid, E, ...)

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
fmt << printed.fmt;
m << printed.m;
before << printed.before;
mid << printed.mid;
E << printed.E;
pf << printed.pf;
pc << printed.pc;
@@
if pf[0].current_element == fn and "%" in fmt and \
        re.search(r"\b%s\s*\.\s*tv_sec\b" % re.escape(tv), E):
    printing_calls.add(place(pc))
    # another string constant before the value: a format in pieces
    pieces = '"' in str(before) + str(mid)
    kind = None if pieces else printed_type(E, tv)
    new = widened(fmt, int(m)) if kind == "widened" else None
    if kind is None or (kind == "widened" and (new is None or place(pf) in formats.get((fn, fmt), ('', '', ()))[2])):
        escaping.add((fn, tv))
    elif new:
        formats.setdefault((fn, fmt), (new, (fn, tv), set()))[2].add(place(pf))

@string_constant depends on uses_api@
constant char[] c;
position p;
@@
 c@p

@script:python@
c << string_constant.c;
p << string_constant.p;
@@
constants.setdefault((p[0].current_element, c), set()).add(place(p))

// A print function whose format is not a string constant here.
@printed_other@
identifier tv_local.tv;
identifier print =~ "^(printk|pr_[a-z]+|dev_[a-z]+|netdev_[a-z]+|seq_printf|snprintf|sprintf|scnprintf|trace_printk)$";
position pc;
@@
 print@pc(..., <+... tv.tv_sec ...+>, ...)

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
pc << printed_other.pc;
@@
if pc[0].current_element == fn and place(pc) not in printing_calls:
    escaping.add((fn, tv))

@convert_decl depends on patch@
identifier tv_local.fn;
identifier tv_local.tv : script:python(fn) { (fn, tv) not in escaping };
position d;
@@
fn@d(...) {
<+...
- struct timeval
+ struct timespec64
  tv;
...+>
}

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
d << convert_decl.d;
@@
converted.add((fn, tv))

// Uses change only where the declaration did, in its own function.
@convert_uses depends on patch@
identifier tv_local.tv;
position u : script:python(tv) { (u[0].current_element, tv) in converted };
// where the quotient would bind to a tighter operator it is parenthesised
type T;
expression E2;
binary operator mul = {*, /, %};
@@
(
- do_gettimeofday(&tv@u)
+ ktime_get_real_ts64(&tv)
|
- tv@u.tv_usec / 1000
+ tv.tv_nsec / NSEC_PER_MSEC
|
- tv@u.tv_usec / USEC_PER_MSEC
+ tv.tv_nsec / NSEC_PER_MSEC
|
- (T)tv@u.tv_usec
+ (T)(tv.tv_nsec / NSEC_PER_USEC)
|
- E2 mul tv@u.tv_usec
+ E2 mul (tv.tv_nsec / NSEC_PER_USEC)
|
- !tv@u.tv_usec
+ !(tv.tv_nsec / NSEC_PER_USEC)
|
- ~tv@u.tv_usec
+ ~(tv.tv_nsec / NSEC_PER_USEC)
|
- tv@u.tv_usec
+ tv.tv_nsec / NSEC_PER_USEC
)

// Rewrite: memset(&tv, 0, sizeof(struct timeval)) -> memset(&tv, 0, sizeof(tv))
//  The local is a struct timespec64 now, so the size zeroed is taken from
//  the variable itself: the whole of it is zeroed, as before.
@convert_zeroing depends on patch@
identifier tv_local.tv;
position u : script:python(tv) { (u[0].current_element, tv) in converted };
@@
 memset(&tv@u, 0,
- sizeof(struct timeval)
+ sizeof(tv)
 )

// The formats of the printed seconds of the converted locals.
@format_use depends on patch && uses_api@
constant char[] fmt;
position pf;
@@
 fmt@pf

@script:python widen@
fmt << format_use.fmt;
pf << format_use.pf;
wide;
@@
key = (pf[0].current_element, fmt)
new, local, places = formats.get(key, (None, None, None))
if local in converted and places == constants[key]:
    coccinelle.wide = cocci.make_ident(new)
else:
    cocci.include_match(False)

// Rewrite: "%ld", tv.tv_sec -> "%lld", tv.tv_sec
//  The printed seconds are a 64-bit time64_t now, so the conversion that
//  printed them as a long prints them as a long long (the value printed is
//  the same, and no longer wraps in 2038 on 32-bit machines).
@widen_format depends on patch@
constant char[] format_use.fmt;
position format_use.pf;
identifier widen.wide;
@@
- fmt@pf
+ wide

@depends on context@
expression E;
@@
* do_gettimeofday(E)

@found depends on report || org@
expression E;
position p;
@@
 do_gettimeofday@p(E)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: do_gettimeofday() was removed in Linux 5.0: use ktime_get_real_ts64() with a struct timespec64; convert at the boundary where the value is an ABI")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "do_gettimeofday() was removed in Linux 5.0: use ktime_get_real_ts64()")
