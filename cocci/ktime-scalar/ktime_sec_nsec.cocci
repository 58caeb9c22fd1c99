// SPDX-License-Identifier: GPL-2.0-only
/// Replace the non-scalar ktime_t accessors .tv.sec and .tv.nsec by
/// scalar code with the same results.
///
/// On 32-bit architectures without CONFIG_KTIME_SCALAR, union ktime held
/// the time as two s32 halves, kt.tv.sec and kt.tv.nsec (the nanoseconds
/// normalised to 0..999999999).  Linux 3.17 removed them; code still using
/// them gets:
///   kt.tv.sec, kt.tv.nsec        -> ktime_to_timespec64(kt).tv_sec, .tv_nsec
///                                   (normalised the same way, also below 0)
///   kt.tv.sec * NSEC_PER_SEC + kt.tv.nsec -> ktime_to_ns(kt)
///   kt.tv.sec = S; kt.tv.nsec = N; -> kt = ktime_set(S, N);
///   (ktime_t) { .tv = { .sec = S, .nsec = N } } -> ktime_set(S, N)
///   ktime_t kt = { .tv = { .sec = S, .nsec = N } } in a function
///                                -> ktime_t kt = ktime_set(S, N)
///   the same initialiser of a static or global (a constant expression
///   is needed there) -> (s64)S * NSEC_PER_SEC + N
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Linux commit 24e4a8c3e886 (3.17).  Run after
//  ktime_scalar_ifdefs.unifdef, which removes the non-scalar branches of
//  CONFIG_KTIME_SCALAR conditionals where most of these accessors lived,
//  and before ktime_set.cocci, which simplifies the ktime_set(0, x) it
//  may leave.  (ktime_t) { .tv = { .sec = S, .nsec = N } } compound
//  literals cannot be written in SmPL: they are left and reported, with
//  every other .tv.sec/.tv.nsec the rule leaves (// Leftover-regex).
//  Not converted, reported instead: a value printed through a format
//  string (the new types are time64_t and long: the format needs a human),
//  a single half written alone, compound assignments, increments and the
//  address of a half.  kt.tv.sec * 1000 + kt.tv.nsec / 1000000 becomes the
//  timespec64 form, not ktime_to_ms(kt), which rounds negative values
//  differently.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 * (the scalar ktime_t on every architecture)
// Removed: 3.17 tv (the union ktime's .tv.sec and .tv.nsec)
// Subject: replace the non-scalar ktime_t .tv.sec/.tv.nsec accessors
// Options: --include-headers --include-headers-for-types --max-width 100
// Types: headers
// Keywords: tv.sec, tv.nsec, union ktime
// Prefilter: tv
// Prefilter-regex: \.tv\s*(\.\s*n?sec\b|=\s*\{\s*\.n?sec\b)
// Leftover-regex: \.tv\s*(\.\s*n?sec\b|=\s*\{\s*\.n?sec\b)

virtual patch
virtual context
virtual org
virtual report

@other_type@
typedef ktime_t;
type T != ktime_t;
T e;
T *ep;
position p;
@@
(
 e.tv@p
|
 ep->tv@p
)

@local_inits depends on patch@
typedef ktime_t;
identifier fn, x;
expression S, N;
@@
fn(...) {
 ... when any
(
 static ktime_t x = { ... };
|
 ktime_t x =
- { .tv = { .sec = 0, .nsec = N } }
+ N
 ;
|
 ktime_t x =
- { .tv.sec = 0, .tv.nsec = N }
+ N
 ;
|
 ktime_t x =
- { .tv = { .sec = S, .nsec = N } }
+ ktime_set(S, N)
 ;
|
 ktime_t x =
- { .tv.sec = S, .tv.nsec = N }
+ ktime_set(S, N)
 ;
)
 ... when any
}

// Statics and globals need a constant expression.  One rule per form:
// SmPL takes no disjunction of initialisers.
@const_init0 depends on patch@
typedef ktime_t;
identifier x;
expression N;
@@
 ktime_t x =
- { .tv = { .sec = 0, .nsec = N } }
+ N
 ;

@const_init1 depends on patch@
typedef ktime_t;
identifier x;
expression N;
@@
 ktime_t x =
- { .tv.sec = 0, .tv.nsec = N }
+ N
 ;

@const_init2 depends on patch@
typedef ktime_t, s64;
identifier x;
expression S;
@@
 ktime_t x =
- { .tv = { .sec = S, .nsec = 0 } }
+ (s64)S * NSEC_PER_SEC
 ;

@const_init3 depends on patch@
typedef ktime_t, s64;
identifier x;
expression S;
@@
 ktime_t x =
- { .tv.sec = S, .tv.nsec = 0 }
+ (s64)S * NSEC_PER_SEC
 ;

@const_init4 depends on patch@
typedef ktime_t, s64;
identifier x;
expression S, N;
@@
 ktime_t x =
- { .tv = { .sec = S, .nsec = N } }
+ (s64)S * NSEC_PER_SEC + N
 ;

@const_init5 depends on patch@
typedef ktime_t, s64;
identifier x;
expression S, N;
@@
 ktime_t x =
- { .tv.sec = S, .tv.nsec = N }
+ (s64)S * NSEC_PER_SEC + N
 ;

@pairs depends on patch@
expression e, S, N;
position p1 != other_type.p, p2 != other_type.p;
@@
(
- e.tv@p1.sec = 0;
- e.tv@p2.nsec = N;
+ e = N;
|
- e.tv@p1.nsec = N;
- e.tv@p2.sec = 0;
+ e = N;
|
- e->tv@p1.sec = 0;
- e->tv@p2.nsec = N;
+ *e = N;
|
- e->tv@p1.nsec = N;
- e->tv@p2.sec = 0;
+ *e = N;
|
- e.tv@p1.sec = S;
- e.tv@p2.nsec = N;
+ e = ktime_set(S, N);
|
- e.tv@p1.nsec = N;
- e.tv@p2.sec = S;
+ e = ktime_set(S, N);
|
- e->tv@p1.sec = S;
- e->tv@p2.nsec = N;
+ *e = ktime_set(S, N);
|
- e->tv@p1.nsec = N;
- e->tv@p2.sec = S;
+ *e = ktime_set(S, N);
)

// Values printed through a format string keep their accessors (reported),
// also inside an argument (t.tv.nsec / 1000000).
// One rule per accessor: a disjunction would stop at the first one in a call.
@printed0@
expression e;
constant char[] fmt;
identifier f;
position p;
@@
 f(..., fmt, ..., <+... e.tv@p.sec ...+>, ...)

@printed1@
expression e;
constant char[] fmt;
identifier f;
position p;
@@
 f(..., fmt, ..., <+... e.tv@p.nsec ...+>, ...)

@printed2@
expression e;
constant char[] fmt;
identifier f;
position p;
@@
 f(..., fmt, ..., <+... e->tv@p.sec ...+>, ...)

@printed3@
expression e;
constant char[] fmt;
identifier f;
position p;
@@
 f(..., fmt, ..., <+... e->tv@p.nsec ...+>, ...)

// Writes that are not a pair: every access to that ktime_t in the function
// is left alone (a half-converted function helps nobody) and reported.
@lone_write@
expression e, E;
identifier fn;
@@
fn(...) {
<+...
(
 e.tv.sec = E
|
 e.tv.nsec = E
|
 e->tv.sec = E
|
 e->tv.nsec = E
|
 e.tv.sec += E
|
 e.tv.nsec += E
|
 e.tv.sec -= E
|
 e.tv.nsec -= E
|
 e.tv.sec++
|
 e.tv.nsec++
|
 &e.tv.sec
|
 &e.tv.nsec
|
 &e->tv.sec
|
 &e->tv.nsec
)
...+>
}

@kept@
expression lone_write.e;
identifier lone_write.fn;
position p;
@@
fn(...) {
<+...
(
 e.tv@p.sec
|
 e.tv@p.nsec
|
 e->tv@p.sec
|
 e->tv@p.nsec
)
...+>
}

@reads depends on patch@
expression e;
position p != {other_type.p, printed0.p, printed1.p, printed2.p, printed3.p, kept.p};
@@
(
- e.tv@p.sec * NSEC_PER_SEC + e.tv.nsec
+ ktime_to_ns(e)
|
- (s64)e.tv@p.sec * NSEC_PER_SEC + e.tv.nsec
+ ktime_to_ns(e)
|
- e->tv@p.sec * NSEC_PER_SEC + e->tv.nsec
+ ktime_to_ns(*e)
|
- e.tv@p.sec
+ ktime_to_timespec64(e).tv_sec
|
- e.tv@p.nsec
+ ktime_to_timespec64(e).tv_nsec
|
- e->tv@p.sec
+ ktime_to_timespec64(*e).tv_sec
|
- e->tv@p.nsec
+ ktime_to_timespec64(*e).tv_nsec
)

@literals depends on patch@
expression S, N;
@@
(
- (ktime_t) { .tv.sec = S, .tv.nsec = N }
+ ktime_set(S, N)
)

@found depends on context || report || org@
expression e;
position p != other_type.p;
@@
(
* e.tv@p.sec
|
* e.tv@p.nsec
|
* e->tv@p.sec
|
* e->tv@p.nsec
)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: .tv.sec/.tv.nsec were removed with the non-scalar ktime_t in Linux 3.17: use ktime_to_timespec64() or ktime_set()")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], ".tv.sec/.tv.nsec were removed with the non-scalar ktime_t in Linux 3.17")
