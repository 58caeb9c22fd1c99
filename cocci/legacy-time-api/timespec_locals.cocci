// SPDX-License-Identifier: GPL-2.0-only
/// Convert struct timespec locals and the APIs that fill and use them to
/// struct timespec64 and the 64-bit APIs.
///
/// struct timespec keeps seconds in a long, which overflows on 32-bit
/// machines in January 2038; the kernel's struct timespec and its APIs
/// were removed by Linux 5.6.  A local struct timespec becomes a struct
/// timespec64 when every use of it has a 64-bit twin: getnstimeofday(),
/// ktime_get_ts() (do_posix_clock_monotonic_gettime() in 3.x),
/// ktime_get_real_ts(), getrawmonotonic(), get_monotonic_boottime(),
/// timekeeping_clocktai() and getboottime()
/// become the *_ts64() accessors; get_monotonic_coarse() becomes
/// ktime_get_coarse_ts64(); current_kernel_time(),
/// __current_kernel_time() and CURRENT_TIME become
/// ktime_get_coarse_real_ts64(); ktime_to_timespec(),
/// ns_to_timespec(), timespec_to_ktime(), timespec_to_ns(),
/// timespec_valid(), set_normalized_timespec(), timespec_add_ns(),
/// timespec_compare(), timespec_equal(), timespec_add() and timespec_sub()
/// become their timespec64 forms; tv_sec and tv_nsec keep their names.
/// A field read from ktime_to_timespec() or ns_to_timespec() on the spot
/// (ktime_to_timespec(kt).tv_sec) reads it from the timespec64 form,
/// except where a format prints those seconds.
///
/// A local whose value escapes (its address or the whole structure passed
/// to anything else, tv_sec addressed) is left alone together with every
/// local it is combined with, and reported.  Seconds printed through a
/// string constant format (printk, a driver's logging macro) get %lld for
/// %ld or %d (likewise %llu, %llx); printed with another conversion, or as
/// a value that is not plain arithmetic on tv_sec, they keep the local.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: A local initialised by a brace list, a compound literal,
//  current_kernel_time(), __current_kernel_time(), CURRENT_TIME, get_monotonic_coarse(), ktime_to_timespec() or
//  ns_to_timespec() converts (the latter four to their 64-bit forms);
//  one initialised by any other expression, or declared with several
//  variables, is left alone.  Function parameters, fields and globals are reported, not
//  changed: their type is an interface.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 timespec64, 3.17 ktime_get_ts64, 3.17 ktime_get_real_ts64 (a macro of getnstimeofday64 until 4.18), 4.18 ktime_get_raw_ts64, 4.18 ktime_get_coarse_real_ts64, 4.18 ktime_get_coarse_real, 4.18 ktime_get_coarse_ts64, 4.18 ktime_get_coarse, 4.18 ktime_get_boottime_ts64, 3.17 timespec64_add, 3.17 timespec64_sub, 3.17 timespec64_compare, 3.17 timespec64_equal, 3.17 timespec64_to_ns, 3.17 ns_to_timespec64, 3.17 set_normalized_timespec64, 3.17 timespec64_add_ns, 3.17 ktime_to_timespec64, 3.17 timespec64_to_ktime, 3.17 timespec64_valid
// Removed: 5.6 timespec, 5.6 getnstimeofday, 5.6 ktime_get_ts, 4.9 do_posix_clock_monotonic_gettime (gone by 4.9), 5.6 getrawmonotonic, 5.0 current_kernel_time, 4.19 __current_kernel_time (gone by 4.19), 5.6 get_monotonic_coarse, 4.12 CURRENT_TIME, 5.6 timespec_add, 5.6 timespec_sub, 5.6 timespec_compare, 5.6 timespec_equal, 5.6 timespec_to_ns, 5.6 set_normalized_timespec, 5.6 ktime_to_timespec, 5.6 ns_to_timespec, 5.6 timespec_add_ns, 5.6 timespec_to_ktime, 5.6 get_monotonic_boottime, 5.6 ktime_get_real_ts
// Subject: convert struct timespec locals to timespec64
// Options: --no-includes --include-headers --max-width 100
// Keywords: timespec, timespec64, getnstimeofday, y2038

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
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

escaping = set()
converted = set()  # (function, local) whose declaration changed
value_inits = set()  # locals initialised by an expression with no 64-bit twin
links = {}

def link(fn, a, b):
    links.setdefault((fn, a), set()).add(b)
    links.setdefault((fn, b), set()).add(a)

def convertible(fn, ts):
    """No local it is combined with, directly or not, escapes."""
    seen, todo = set(), [ts]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if (fn, name) in escaping or (fn, name) in value_inits:
            return False
        seen.add(name)
        todo.extend(links.get((fn, name), ()))
    return True

// Only files that use the API are worth parsing (and spatch's --use-gitgrep knows it).
@uses_api@
@@
(
 getnstimeofday(...)
|
 ktime_get_ts(...)
|
 do_posix_clock_monotonic_gettime(...)
|
 ktime_get_real_ts(...)
|
 getrawmonotonic(...)
|
 get_monotonic_boottime(...)
|
 timekeeping_clocktai(...)
|
 getboottime(...)
|
 current_kernel_time(...)
|
 __current_kernel_time(...)
|
 get_monotonic_coarse(...)
|
 CURRENT_TIME
|
 ktime_to_timespec(...)
|
 ns_to_timespec(...)
|
 timespec_to_ktime(...)
|
 timespec_to_ns(...)
|
 timespec_valid(...)
|
 set_normalized_timespec(...)
|
 timespec_add_ns(...)
|
 timespec_compare(...)
|
 timespec_equal(...)
|
 timespec_add(...)
|
 timespec_sub(...)
)

@script:python new_file depends on uses_api@
@@
escaping.clear()
converted.clear()
value_inits.clear()
links.clear()

// <+... ...+>: a declaration in a nested block counts too ("... when any"
// reaches only the function's own block).
@ts_local depends on uses_api@
identifier fn, ts;
@@
fn(...) {
<+...
  struct timespec ts;
...+>
}

// "struct timespec ts;" above also matches a declaration with an
// initializer.  A brace list suits timespec64 as it is; an expression
// initializer does only when it has a 64-bit twin (below): any other
// keeps the local as it is.
@value_init@
identifier ts_local.fn;
identifier ts_local.ts;
expression E;
@@
fn(...) {
<+...
  struct timespec ts = E;
...+>
}

@twin_init@
identifier ts_local.fn;
identifier ts_local.ts;
expression A;
position p;
@@
fn(...) {
<+...
(
  struct timespec ts@p = current_kernel_time();
|
  struct timespec ts@p = __current_kernel_time();
|
  struct timespec ts@p = get_monotonic_coarse();
|
  struct timespec ts@p = CURRENT_TIME;
|
  struct timespec ts@p = ktime_to_timespec(A);
|
  struct timespec ts@p = ns_to_timespec(A);
|
  struct timespec ts@p = (struct timespec){...};
)
...+>
}

@script:python@
fn << ts_local.fn;
ts << ts_local.ts;
_e << value_init.E;
@@
value_inits.add((fn, ts))

@script:python@
fn << ts_local.fn;
ts << ts_local.ts;
_p << twin_init.p;
@@
value_inits.discard((fn, ts))

// uses, other_use, risky and combined match anywhere and check the
// function in Python: a walk through a function body fails ("reachable by
// inconsistent control-flow paths") where an else exists only under a
// configuration.
@uses@
identifier ts_local.ts;
identifier fill = {getnstimeofday, ktime_get_ts, do_posix_clock_monotonic_gettime, ktime_get_real_ts, getrawmonotonic,
                   get_monotonic_boottime, timekeeping_clocktai, getboottime,
                   timespec_to_ns, timespec_valid, set_normalized_timespec,
                   timespec_add_ns};
identifier value = {ktime_to_timespec, ns_to_timespec};
identifier pair = {timespec_compare, timespec_equal};
identifier arith = {timespec_add, timespec_sub};
identifier a, b;
expression list args;
expression E;
position p;
@@
(
 fill(&ts@p, args)
|
 fill(&ts@p)
|
 ts@p = current_kernel_time()
|
 ts@p = __current_kernel_time()
|
 ts@p = get_monotonic_coarse()
|
 ts@p = CURRENT_TIME
|
 ts@p = value(E)
|
 timespec_to_ktime(ts@p)
|
 pair(&ts@p, &a)
|
 pair(&a, &ts@p)
|
 ts@p = arith(a, b)
|
 a = arith(ts@p, b)
|
 a = arith(b, ts@p)
|
 ts@p.tv_sec
|
 ts@p.tv_nsec
)

// A field read inside the arguments of a use above (set_normalized_timespec(&ts,
// ts.tv_sec + 1, ts.tv_nsec)): a matched call's arguments are not matched again.
@member_reads@
identifier ts_local.ts;
identifier member = {tv_sec, tv_nsec};
position p;
@@
 ts@p.member

@other_use@
identifier ts_local.ts;
position q != {uses.p, member_reads.p};
@@
 ts@q

@script:python@
fn << ts_local.fn;
ts << ts_local.ts;
q << other_use.q;
@@
if q[0].current_element == fn:
    escaping.add((fn, ts))

@risky@
identifier ts_local.ts;
position w;
@@
 &ts@w.tv_sec

@script:python@
fn << ts_local.fn;
ts << ts_local.ts;
w << risky.w;
@@
if w[0].current_element == fn:
    escaping.add((fn, ts))

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
fn << ts_local.fn;
ts << ts_local.ts;
fmt << printed.fmt;
m << printed.m;
before << printed.before;
mid << printed.mid;
E << printed.E;
pf << printed.pf;
pc << printed.pc;
@@
if pf[0].current_element == fn and "%" in fmt and \
        re.search(r"\b%s\s*\.\s*tv_sec\b" % re.escape(ts), E):
    printing_calls.add(place(pc))
    # another string constant before the value: a format in pieces
    pieces = '"' in str(before) + str(mid)
    kind = None if pieces else printed_type(E, ts)
    new = widened(fmt, int(m)) if kind == "widened" else None
    if kind is None or (kind == "widened" and (new is None or place(pf) in formats.get((fn, fmt), ('', '', ()))[2])):
        escaping.add((fn, ts))
    elif new:
        formats.setdefault((fn, fmt), (new, (fn, ts), set()))[2].add(place(pf))

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
identifier ts_local.ts;
identifier print =~ "^(printk|pr_[a-z]+|dev_[a-z]+|netdev_[a-z]+|seq_printf|snprintf|sprintf|scnprintf|trace_printk)$";
position pc;
@@
 print@pc(..., <+... ts.tv_sec ...+>, ...)

@script:python@
fn << ts_local.fn;
ts << ts_local.ts;
pc << printed_other.pc;
@@
if pc[0].current_element == fn and place(pc) not in printing_calls:
    escaping.add((fn, ts))

@combined depends on uses_api@
identifier a, b, c;
identifier pair = {timespec_compare, timespec_equal};
identifier arith = {timespec_add, timespec_sub};
position p;
@@
(
 pair@p(&a, &b)
|
 c = arith@p(a, b)
)

@script:python@
a << combined.a;
b << combined.b;
c << combined.c = "";
p << combined.p;
@@
link(p[0].current_element, a, b)
if c:
    link(p[0].current_element, a, c)

@convert_decl depends on patch@
identifier ts_local.fn;
identifier ts_local.ts : script:python(fn) { convertible(fn, ts) };
expression A;
position d;
@@
fn@d(...) {
<+...
(
- struct timespec ts = current_kernel_time();
+ struct timespec64 ts = ktime_to_timespec64(ktime_get_coarse_real());
|
- struct timespec ts = __current_kernel_time();
+ struct timespec64 ts = ktime_to_timespec64(ktime_get_coarse_real());
|
- struct timespec ts = get_monotonic_coarse();
+ struct timespec64 ts = ktime_to_timespec64(ktime_get_coarse());
|
- struct timespec ts = CURRENT_TIME;
+ struct timespec64 ts = ktime_to_timespec64(ktime_get_coarse_real());
|
- struct timespec ts = ktime_to_timespec(A);
+ struct timespec64 ts = ktime_to_timespec64(A);
|
- struct timespec ts = ns_to_timespec(A);
+ struct timespec64 ts = ns_to_timespec64(A);
|
  struct
- timespec
+ timespec64
  ts = (struct
- timespec
+ timespec64
  ){...};
|
- struct timespec
+ struct timespec64
  ts;
)
...+>
}

@script:python@
fn << ts_local.fn;
ts << ts_local.ts;
d << convert_decl.d;
@@
converted.add((fn, ts))

// Uses change only where the declaration did.
// Uses change only where the declaration did, in its own function
// (matched anywhere and checked by name: see ts_local).
@convert_uses depends on patch@
identifier ts_local.ts;
position u : script:python(ts) { (u[0].current_element, ts) in converted };
expression list args;
expression E, E2;
identifier a;
@@
(
- getnstimeofday(&ts@u)
+ ktime_get_real_ts64(&ts)
|
- ktime_get_ts(&ts@u)
+ ktime_get_ts64(&ts)
|
- do_posix_clock_monotonic_gettime(&ts@u)
+ ktime_get_ts64(&ts)
|
- ktime_get_real_ts(&ts@u)
+ ktime_get_real_ts64(&ts)
|
- getrawmonotonic(&ts@u)
+ ktime_get_raw_ts64(&ts)
|
- get_monotonic_boottime(&ts@u)
+ ktime_get_boottime_ts64(&ts)
|
- timekeeping_clocktai(&ts@u)
+ ktime_get_clocktai_ts64(&ts)
|
- getboottime(&ts@u)
+ getboottime64(&ts)
|
- ts@u = current_kernel_time()
+ ktime_get_coarse_real_ts64(&ts)
|
- ts@u = __current_kernel_time()
+ ktime_get_coarse_real_ts64(&ts)
|
- ts@u = get_monotonic_coarse()
+ ktime_get_coarse_ts64(&ts)
|
- ts@u = CURRENT_TIME
+ ktime_get_coarse_real_ts64(&ts)
|
- ts@u = ktime_to_timespec(E)
+ ts = ktime_to_timespec64(E)
|
- ts@u = ns_to_timespec(E)
+ ts = ns_to_timespec64(E)
|
- timespec_to_ktime(ts@u)
+ timespec64_to_ktime(ts)
|
- timespec_to_ns(&ts@u)
+ timespec64_to_ns(&ts)
|
- timespec_valid(&ts@u)
+ timespec64_valid(&ts)
|
- set_normalized_timespec(&ts@u, args)
+ set_normalized_timespec64(&ts, args)
|
- timespec_add_ns(&ts@u, args)
+ timespec64_add_ns(&ts, args)
|
- timespec_compare(&ts@u, &a)
+ timespec64_compare(&ts, &a)
|
- timespec_equal(&ts@u, &a)
+ timespec64_equal(&ts, &a)
|
- ts@u = timespec_add(E, E2)
+ ts = timespec64_add(E, E2)
|
- ts@u = timespec_sub(E, E2)
+ ts = timespec64_sub(E, E2)
)

// A field of a conversion's result, read on the spot (no local): not where
// a call with a format string prints the seconds (time64_t there).
@printed_result@
expression E;
constant char[] fmt;
identifier f, conv = {ktime_to_timespec, ns_to_timespec};
position p;
@@
 f(..., fmt, ..., <+... conv@p(E).tv_sec ...+>, ...)

// Rewrite: ktime_to_timespec(E).tv_sec -> ktime_to_timespec64(E).tv_sec
//  A field read straight from the conversion's result: the timespec64
//  conversion of the same value has the same seconds and nanoseconds, the
//  seconds in a 64-bit time64_t.
@result_member depends on patch@
expression E;
identifier member = {tv_sec, tv_nsec};
position p != printed_result.p;
@@
(
- ktime_to_timespec@p(E).member
+ ktime_to_timespec64(E).member
|
- ns_to_timespec@p(E).member
+ ns_to_timespec64(E).member
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

// Rewrite: "%ld", ts.tv_sec -> "%lld", ts.tv_sec
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

@found depends on report || org@
identifier old = {getnstimeofday, ktime_get_ts, do_posix_clock_monotonic_gettime, ktime_get_real_ts, getrawmonotonic,
                  get_monotonic_boottime, timekeeping_clocktai, getboottime,
                  current_kernel_time, __current_kernel_time, get_monotonic_coarse, ktime_to_timespec, ns_to_timespec,
                  timespec_to_ktime, timespec_to_ns, timespec_valid,
                  set_normalized_timespec, timespec_add_ns, timespec_compare,
                  timespec_equal, timespec_add, timespec_sub};
position p;
@@
 old@p(...)

@script:python depends on report@
p << found.p;
old << found.old;
@@
coccilib.report.print_report(p[0], "WARNING: %s() works on struct timespec, removed in Linux 5.6: use the timespec64 API" % old)

@script:python depends on org@
p << found.p;
old << found.old;
@@
coccilib.org.print_todo(p[0], "%s() works on struct timespec, removed in Linux 5.6" % old)

@depends on context@
identifier old = {getnstimeofday, ktime_get_ts, do_posix_clock_monotonic_gettime, ktime_get_real_ts, getrawmonotonic,
                  get_monotonic_boottime, timekeeping_clocktai, getboottime,
                  current_kernel_time, __current_kernel_time, get_monotonic_coarse};
@@
* old(...)
