// SPDX-License-Identifier: GPL-2.0-only
/// Use ktime_get_real_seconds() instead of get_seconds().
///
/// get_seconds() returns the wall-clock seconds as unsigned long, which
/// wraps in 2106 on 32-bit machines and invites storing the value in a
/// 32-bit signed variable; it was removed in Linux 5.11.
/// ktime_get_real_seconds() returns the same clock as time64_t.  The
/// seconds of current_kernel_time(), CURRENT_TIME and CURRENT_TIME_SEC
/// (removed in 5.0 and 4.12) are the same value: they change too.
///
/// The call is replaced in place.  Where the result is stored in a 32-bit
/// variable the truncation stays what it was; the y2038-hazards campaign
/// reports such stores.  An argument of time_after() and its kin, which
/// typecheck() an unsigned long, is cast back to one.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: The definition of get_seconds() itself is left alone.  A
//  value passed to a call with a format string is cast to its old type.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.19 ktime_get_real_seconds
// Removed: 5.11 get_seconds, 5.0 current_kernel_time, 4.12 CURRENT_TIME, 4.12 CURRENT_TIME_SEC
// Sites: independent
// Subject: use ktime_get_real_seconds() instead of get_seconds()
// Options: --no-includes --include-headers --max-width 100
// Keywords: get_seconds, ktime_get_real_seconds
// Prefilter: get_seconds current_kernel_time CURRENT_TIME CURRENT_TIME_SEC

virtual patch
virtual context
virtual org
virtual report

// A cast already written says the type: it stays, with the new call
// (spelled out so that spatch keeps "(T)x" without a space after the cast).
@cast depends on patch@
type T;
@@
- (T)get_seconds()
+ (T)ktime_get_real_seconds()

// An argument of a call with a format string keeps its type, cast back to
// it wherever it stands in the argument (get_seconds() - start): time64_t
// would need another conversion specifier, and the value printed stays
// what it was (unsigned long for get_seconds(), the time_t tv_sec, a long,
// for the coarse clock's).
// One rule per form: a disjunction in an argument list stops at the first.
@printed0 depends on patch@
constant char[] fmt;
identifier f;
@@
 f(..., fmt, ...,
 <+...
- get_seconds()
+ (unsigned long)ktime_get_real_seconds()
 ...+>
 , ...)

@printed1 depends on patch@
constant char[] fmt;
identifier f;
@@
 f(..., fmt, ...,
 <+...
- current_kernel_time().tv_sec
+ (long)ktime_get_real_seconds()
 ...+>
 , ...)

@printed2 depends on patch@
constant char[] fmt;
identifier f;
@@
 f(..., fmt, ...,
 <+...
- CURRENT_TIME.tv_sec
+ (long)ktime_get_real_seconds()
 ...+>
 , ...)

@printed3 depends on patch@
constant char[] fmt;
identifier f;
@@
 f(..., fmt, ...,
 <+...
- CURRENT_TIME_SEC.tv_sec
+ (long)ktime_get_real_seconds()
 ...+>
 , ...)

// The jiffies-style comparisons typecheck() both sides as unsigned long:
// get_seconds()'s value keeps that type anywhere in their arguments (and its 2106 wrap, which
// they are written for).
@compared depends on patch@
identifier cmp = {time_after, time_before, time_after_eq, time_before_eq, time_in_range, time_in_range_open};
@@
 cmp(...,
 <+...
- get_seconds()
+ (unsigned long)ktime_get_real_seconds()
 ...+>
 ,...)

@seconds depends on patch@
identifier fn != get_seconds;
@@
fn(...) {
<+...
(
- get_seconds()
+ ktime_get_real_seconds()
|
- current_kernel_time().tv_sec
+ ktime_get_real_seconds()
|
- CURRENT_TIME.tv_sec
+ ktime_get_real_seconds()
|
- CURRENT_TIME_SEC.tv_sec
+ ktime_get_real_seconds()
)
...+>
}

@found depends on context || report || org@
identifier fn != get_seconds;
position p;
@@
fn(...) {
<+...
* get_seconds@p()
...+>
}

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: get_seconds() was removed in Linux 5.11: use ktime_get_real_seconds()")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "get_seconds() was removed in Linux 5.11: use ktime_get_real_seconds()")
