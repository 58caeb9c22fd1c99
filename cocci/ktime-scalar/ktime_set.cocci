// SPDX-License-Identifier: GPL-2.0-only
/// Build scalar ktime_t values directly: ktime_set(0, x) is x and
/// ktime_add_ns(ktime_set(s, 0), ns) is ktime_set(s, ns).
///
/// With the scalar s64 nanosecond ktime_t universal (Linux 3.17) and the
/// union around it gone (4.10), ktime_set(0, x) is just x; Linux 4.10
/// replaced it in 56 files.
/// ktime_set(0, x * NSEC_PER_MSEC) is ms_to_ktime(x), which keeps the
/// unit in view; it multiplies in 64 bits, so on 32-bit machines a product
/// past 2^32 ns (4.29 s; 2.14 s for a signed x), which ktime_set() got
/// truncated, is now exact.
/// Splitting a time into a ktime_set() of the seconds and a ktime_add_ns()
/// of the nanoseconds, as the non-scalar code had to, is one ktime_set()
/// call, as Linux 3.17 did in ktime_get().
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Linux 4.10 commit 8b0e195314fa did the same by hand.
//  ktime_set(0, 0) becomes 0.  The definitions of ktime_set()
//  and ktime_add_ns() themselves are left alone.  ktime_set() takes its
//  nanoseconds as unsigned long: a 64-bit x (u64, s64, ktime_t, long long)
//  was truncated to 32 bits on 32-bit machines, and x alone is not, so
//  such a site would change behaviour there: it is left and reported.
//  An x whose type spatch cannot see (a field of a structure declared in
//  a header it did not read) is converted.  ms_to_ktime() multiplies in
//  64 bits: identical on 64-bit machines, and on 32-bit ones for every x
//  whose product fitted the unsigned long ktime_set() took (x *
//  NSEC_PER_MSEC alone would have gone negative past 2147 ms there).  There
//  is no us_to_ktime(): a microsecond product stays a product.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 4.10 * (ktime_set(0, x) -> x is scalar ktime_t arithmetic: ktime_t was a union until 4.10)
// Removed: -
// Sites: independent
// Subject: build scalar ktime_t values without ktime_set(0, x)
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_set, ktime_add_ns
// Prefilter-regex: ktime_set\s*\(\s*\(*\s*0\s*\)*\s*,|ktime_add_ns\s*\(\s*ktime_set\s*\(

virtual patch
virtual context
virtual org
virtual report

// A 64-bit nanosecond count: ktime_set() truncated it on 32-bit machines.
@wide@
typedef u64, s64, __u64, __s64, ktime_t, time64_t;
{u64, s64, __u64, __s64, long long, unsigned long long, ktime_t, time64_t} w;
position p;
@@
 ktime_set@p(0, w)

@split depends on patch@
identifier fn != {ktime_set, ktime_add_ns};
expression s, ns;
@@
fn(...) {
<+...
- ktime_add_ns(ktime_set(s, 0), ns)
+ ktime_set(s, ns)
...+>
}

// A product with NSEC_PER_MSEC: the helper of that unit.
@units depends on patch@
identifier fn != {ktime_set, ktime_add_ns};
expression E;
position q != wide.p;
@@
fn(...) {
<+...
(
- ktime_set@q(0, E * NSEC_PER_MSEC)
+ ms_to_ktime(E)
|
- ktime_set@q(0, NSEC_PER_MSEC * E)
+ ms_to_ktime(E)
)
...+>
}

// Where the value stands alone (an argument, the right of an assignment,
// an initializer, a return value) it needs no parentheses.
@alone depends on patch@
identifier fn != {ktime_set, ktime_add_ns};
identifier f;
expression E, ns;
position q != wide.p;
@@
fn(...) {
<+...
(
 f(...,
- ktime_set@q(0, ns)
+ ns
 ,...)
|
 E =
- ktime_set@q(0, ns)
+ ns
)
...+>
}

@alone_init depends on patch@
identifier fn != {ktime_set, ktime_add_ns};
type T;
identifier x;
expression ns;
position q != wide.p;
@@
fn(...) {
<+...
 T x =
- ktime_set@q(0, ns)
+ ns
 ;
...+>
}

@alone_return depends on patch@
identifier fn != {ktime_set, ktime_add_ns};
expression ns;
position q != wide.p;
@@
fn(...) {
<+...
 return
- ktime_set@q(0, ns)
+ ns
 ;
...+>
}

// Anywhere else a compound value keeps its grouping.
@grouped depends on patch@
identifier fn != {ktime_set, ktime_add_ns};
expression ns, e;
constant c;
idexpression id;
identifier m, f;
expression list args;
position q != wide.p;
@@
fn(...) {
<+...
(
- ktime_set@q(0, c)
+ c
|
- ktime_set@q(0, id)
+ id
|
- ktime_set@q(0, e->m)
+ e->m
|
- ktime_set@q(0, e.m)
+ e.m
|
- ktime_set@q(0, f(args))
+ f(args)
|
- ktime_set@q(0, ns)
+ (ns)
)
...+>
}

@found depends on context || report || org@
expression s, ns;
position p != wide.p;
@@
(
* ktime_add_ns@p(ktime_set(s, 0), ns)
|
* ktime_set@p(0, ns)
)

@script:python depends on report@
p << found.p;
@@
if p[0].current_element not in ("ktime_set", "ktime_add_ns"):
    coccilib.report.print_report(p[0], "WARNING: ktime_t is scalar: build the value directly")

@script:python depends on org@
p << found.p;
@@
if p[0].current_element not in ("ktime_set", "ktime_add_ns"):
    coccilib.org.print_todo(p[0], "ktime_t is scalar: build the value directly")

@script:python depends on report@
p << wide.p;
@@
coccilib.report.print_report(p[0], "WARNING: ktime_set(0, x) with a 64-bit x: ktime_set() took unsigned long nanoseconds, so 32-bit machines truncated x and x alone would not: decide by hand")
