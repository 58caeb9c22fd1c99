// SPDX-License-Identifier: GPL-2.0-only
/// Replace ktime_to_timeval(), ns_to_timeval() and timeval_to_ktime() with
/// their struct timespec64 / scalar forms.
///
/// struct timeval keeps seconds in a long, which overflows on 32-bit
/// machines in January 2038; Linux 5.6 removed these helpers.  A local
/// struct timeval filled by ktime_to_timeval() or ns_to_timeval() (as an
/// initializer or by assignment) becomes a struct timespec64 filled by
/// ktime_to_timespec64() or ns_to_timespec64(); tv_sec keeps its meaning
/// and tv_usec reads become tv_nsec / NSEC_PER_USEC (tv_usec / 1000
/// becomes tv_nsec / NSEC_PER_MSEC).  do_gettimeofday() filling the same
/// local becomes ktime_get_real_ts64().  A field read straight from the
/// result, ktime_to_timeval(kt).tv_sec, becomes
/// ktime_to_timespec64(kt).tv_sec (tv_usec likewise), except as an
/// argument of a call with a format string.  timeval_to_ktime(tv) becomes
/// ktime_set(tv.tv_sec, tv.tv_usec * NSEC_PER_USEC), which is how it was
/// defined.
///
/// A value that escapes (its address or the whole structure passed on,
/// copied to user space or into a wire or disk format, fields written or
/// addressed, tv_sec printed with a printk format) is reported instead,
/// because its layout is an ABI; so is timeval_to_ktime() of an expression
/// with side effects, which the expansion would evaluate twice.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Variable names are kept.  The replacement for an escaping
//  value is ns_to_kernel_old_timeval() into a struct __kernel_old_timeval
//  (5.6), a decision about the ABI that needs a human.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 timespec64, 3.17 ktime_to_timespec64, 3.17 ns_to_timespec64
// Removed: 5.6 ktime_to_timeval, 5.6 ns_to_timeval, 5.6 timeval_to_ktime, 5.6 timeval
// Subject: use timespec64 instead of the struct timeval conversions
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_to_timeval, ns_to_timeval, timeval_to_ktime, timeval, y2038
// Prefilter: ktime_to_timeval ns_to_timeval timeval_to_ktime

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
escaping = set()
value_inits = set()  # (fn, tv, line): initialised by something else than a conversion

@uses_api@
@@
(
 ktime_to_timeval(...)
|
 ns_to_timeval(...)
)

@script:python new_file depends on uses_api@
@@
escaping.clear()
value_inits.clear()

@tv_local depends on uses_api exists@
identifier fn, tv;
expression E;
@@
fn(...) {
  ... when any
(
  struct timeval tv;
  ... when any
  tv = \(ktime_to_timeval\|ns_to_timeval\)(E);
|
  struct timeval tv = \(ktime_to_timeval\|ns_to_timeval\)(E);
)
  ... when any
}

// An expression initializer other than the two conversions keeps the local.
@value_init exists@
identifier tv_local.fn;
identifier tv_local.tv;
expression E;
position p;
@@
fn(...) {
  ... when any
  struct timeval tv@p = E;
  ... when any
}

@twin_init exists@
identifier tv_local.fn;
identifier tv_local.tv;
expression E;
position value_init.p;
@@
fn(...) {
  ... when any
  struct timeval tv@p = \(ktime_to_timeval\|ns_to_timeval\)(E);
  ... when any
}

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
p << value_init.p;
@@
value_inits.add((fn, tv, p[0].line))

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
p << value_init.p;
_e << twin_init.E;
@@
value_inits.discard((fn, tv, p[0].line))

@reads exists@
identifier tv_local.fn;
identifier tv_local.tv;
expression E;
position p;
@@
fn(...) {
<+...
(
 tv@p = ktime_to_timeval(E)
|
 tv@p = ns_to_timeval(E)
|
 do_gettimeofday(&tv@p)
|
 tv@p.tv_sec
|
 tv@p.tv_usec
)
...+>
}

@other_use exists@
identifier tv_local.fn;
identifier tv_local.tv;
position q != reads.p;
@@
fn(...) {
<+...
 tv@q
...+>
}

@written exists@
identifier tv_local.fn;
identifier tv_local.tv;
identifier print =~ "^(printk|pr_[a-z]+|dev_[a-z]+|netdev_[a-z]+|seq_printf|snprintf|sprintf|scnprintf|trace_printk)$";
identifier member = {tv_sec, tv_usec};
expression E;
assignment operator aop;
position w;
@@
fn(...) {
<+...
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
|
 print(..., <+... tv@w.tv_sec ...+>, ...)
)
...+>
}

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
q << other_use.q;
@@
escaping.add((fn, tv))

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
w << written.w;
@@
escaping.add((fn, tv))

// Rewrite: struct timeval tv = ktime_to_timeval(E) -> struct timespec64 tv = ktime_to_timespec64(E)
//  The local holds the same instant with nanoseconds in place of microseconds and
//  64-bit seconds; its reads divide tv_nsec back, so every value read is the same.
//  A local declared in an inner block (an if branch) converts as one at the top.
@convert_decl depends on patch exists@
identifier tv_local.fn;
identifier tv_local.tv : script:python(fn) { (fn, tv) not in escaping and not any(v[:2] == (fn, tv) for v in value_inits) };
expression E;
@@
fn(...) {
  ...
(
- struct timeval tv = ktime_to_timeval(E);
+ struct timespec64 tv = ktime_to_timespec64(E);
|
- struct timeval tv = ns_to_timeval(E);
+ struct timespec64 tv = ns_to_timespec64(E);
|
- struct timeval
+ struct timespec64
  tv;
)
  ...
}

// Uses change only where the declaration did.
// Rewrite: tv.tv_usec -> tv.tv_nsec / NSEC_PER_USEC
//  A read of the microseconds divides the nanoseconds back, so it is the same value.
@convert_uses depends on patch exists@
identifier tv_local.fn;
identifier tv_local.tv : script:python(fn) { (fn, tv) not in escaping and not any(v[:2] == (fn, tv) for v in value_inits) };
expression E, init;
// where the quotient would bind to a tighter operator it is parenthesised
type T;
expression E2;
binary operator mul = {*, /, %};
@@
fn(...) {
  ... when any
(
  struct timespec64 tv;
|
  struct timespec64 tv = init;
)
  <...
(
- tv = ktime_to_timeval(E)
+ tv = ktime_to_timespec64(E)
|
- tv = ns_to_timeval(E)
+ tv = ns_to_timespec64(E)
|
- do_gettimeofday(&tv)
+ ktime_get_real_ts64(&tv)
|
- tv.tv_usec / 1000
+ tv.tv_nsec / NSEC_PER_MSEC
|
- tv.tv_usec / USEC_PER_MSEC
+ tv.tv_nsec / NSEC_PER_MSEC
|
- (T)tv.tv_usec
+ (T)(tv.tv_nsec / NSEC_PER_USEC)
|
- E2 mul tv.tv_usec
+ E2 mul (tv.tv_nsec / NSEC_PER_USEC)
|
- !tv.tv_usec
+ !(tv.tv_nsec / NSEC_PER_USEC)
|
- ~tv.tv_usec
+ ~(tv.tv_nsec / NSEC_PER_USEC)
|
- tv.tv_usec
+ tv.tv_nsec / NSEC_PER_USEC
)
  ...>
}

// A field of the conversion's result, read on the spot; not in a call
// that has a format string (the type becomes time64_t / long).
@printed_member@
expression E;
constant char[] fmt;
identifier f, member = {tv_sec, tv_usec};
position p;
@@
 f(..., fmt, ..., \(ktime_to_timeval@p(E).member\|ns_to_timeval@p(E).member\), ...)

// Rewrite: ktime_to_timeval(E).tv_usec -> ktime_to_timespec64(E).tv_nsec / NSEC_PER_USEC
//  A field read straight from the conversion's result is the same value from the
//  timespec64 conversion (the microseconds divided back from its nanoseconds).
@member depends on patch@
expression E, E2;
type T;
binary operator mul = {*, /, %};
position p != printed_member.p;
@@
(
- (T)ktime_to_timeval@p(E).tv_usec
+ (T)(ktime_to_timespec64(E).tv_nsec / NSEC_PER_USEC)
|
- E2 mul ktime_to_timeval@p(E).tv_usec
+ E2 mul (ktime_to_timespec64(E).tv_nsec / NSEC_PER_USEC)
|
- (T)ns_to_timeval@p(E).tv_usec
+ (T)(ns_to_timespec64(E).tv_nsec / NSEC_PER_USEC)
|
- E2 mul ns_to_timeval@p(E).tv_usec
+ E2 mul (ns_to_timespec64(E).tv_nsec / NSEC_PER_USEC)
|
- ktime_to_timeval@p(E).tv_usec
+ ktime_to_timespec64(E).tv_nsec / NSEC_PER_USEC
|
- ktime_to_timeval@p(E).tv_sec
+ ktime_to_timespec64(E).tv_sec
|
- ns_to_timeval@p(E).tv_usec
+ ns_to_timespec64(E).tv_nsec / NSEC_PER_USEC
|
- ns_to_timeval@p(E).tv_sec
+ ns_to_timespec64(E).tv_sec
)

// Rewrite: timeval_to_ktime(tv) -> ktime_set(tv.tv_sec, tv.tv_usec * NSEC_PER_USEC)
//  This is how timeval_to_ktime() was defined; the argument is not one with side
//  effects, so evaluating its fields twice is the same.
@to_ktime depends on patch@
idexpression struct timeval tv;
idexpression struct timeval *tvp;
expression e;
identifier f;
@@
(
- timeval_to_ktime(tv)
+ ktime_set(tv.tv_sec, tv.tv_usec * NSEC_PER_USEC)
|
- timeval_to_ktime(*tvp)
+ ktime_set(tvp->tv_sec, tvp->tv_usec * NSEC_PER_USEC)
|
- timeval_to_ktime(e->f)
+ ktime_set(e->f.tv_sec, e->f.tv_usec * NSEC_PER_USEC)
|
- timeval_to_ktime(e.f)
+ ktime_set(e.f.tv_sec, e.f.tv_usec * NSEC_PER_USEC)
)

@found depends on context || report || org@
identifier api = {ktime_to_timeval, ns_to_timeval, timeval_to_ktime};
position p;
@@
* api@p(...)

@script:python depends on report@
p << found.p;
api << found.api;
@@
coccilib.report.print_report(p[0], "WARNING: %s() was removed in Linux 5.6: use struct timespec64 (ktime_to_timespec64, ns_to_timespec64, ktime_set) or, at an ABI boundary, ns_to_kernel_old_timeval()" % api)

@script:python depends on org@
p << found.p;
api << found.api;
@@
coccilib.org.print_todo(p[0], "%s() was removed in Linux 5.6" % api)
