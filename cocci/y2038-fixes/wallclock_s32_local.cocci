// SPDX-License-Identifier: GPL-2.0-only
/// Keep wall-clock seconds compared with a 64-bit time in a time64_t.
///
/// A local that holds ktime_get_real_seconds() in a signed 32-bit type
/// (int, s32, or long on 32-bit machines) is negative from 2038-01-19
/// 03:14:08 UTC on: compared with a time64_t (an expiry or a deadline kept
/// in 64 bits), it says a date in the past is still to come.  Declared
/// time64_t, the local holds the value ktime_get_real_seconds() returned
/// and the comparison is right on every architecture.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only a local that is assigned ktime_get_real_seconds() and
//  compared with an expression spatch knows to be a time64_t changes (a
//  field's type is read from the headers the file includes: Types:
//  included-headers); one that is also stored in a 32-bit field, printed
//  or passed on is left to the hazards report.  u32 is left too: it wraps
//  in 2106, not 2038.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/
// Introduced: 3.19 ktime_get_real_seconds, 3.17 time64_t
// Removed: -
// Sites: independent
// Subject: keep ktime_get_real_seconds() in a time64_t
// Types: included-headers
// Options: --no-includes --include-headers
// Prefilter-regex: ^[ \t]+(?:s32|__s32|int|long)[ \t]+(?:[^;{}()=]*?[ \t,*])?(?=(\w+)[ \t]*[;,=])(?=(?s:.*?)\b\1[ \t]*=[ \t]*ktime_get_real_seconds\(\))
// Keywords: y2038, time64_t, ktime_get_real_seconds, expiry

virtual patch
virtual context
virtual org
virtual report

@wall@
typedef s32, __s32;
identifier f, now;
type T = {int, s32, __s32, long};
@@
f(...) {
<+...
 T now;
...+>
}

// The uses this rule knows the meaning of: the wall clock read, and
// comparisons with a 64-bit time.
@known@
typedef time64_t;
identifier wall.f, wall.now;
type wall.T;
time64_t e;
position p;
@@
f(...) {
<+...
(
 T now@p = ktime_get_real_seconds();
|
 now@p = ktime_get_real_seconds()
|
 now@p < e
|
 now@p > e
|
 now@p <= e
|
 now@p >= e
|
 e < now@p
|
 e > now@p
|
 e <= now@p
|
 e >= now@p
)
...+>
}

@reads_clock@
identifier wall.f, wall.now;
@@
f(...) {
<+...
 now = ktime_get_real_seconds()
...+>
}

@compared@
identifier wall.f, wall.now;
time64_t e;
@@
f(...) {
<+...
\(now < e\|now > e\|now <= e\|now >= e\|e < now\|e > now\|e <= now\|e >= now\)
...+>
}

// Given another value, stored, printed or passed on: the 32 bits may be
// meant; the hazards report lists it.
@other_use@
identifier wall.f, wall.now;
type wall.T;
expression E;
position p != known.p;
@@
f(...) {
<+...
(
 T now@p = E;
|
 now@p
)
...+>
}

// Rewrite: a 32-bit local of wall-clock seconds -> time64_t
//  The local that holds ktime_get_real_seconds() and is compared with a
//  time64_t is declared time64_t instead of a signed 32-bit type.  From
//  2038-01-19 03:14:08 UTC the 32-bit value is negative and the comparison
//  says a date already past is still to come; a time64_t holds the value
//  the clock returned, and the comparison is right on every architecture.
@fix depends on patch && reads_clock && compared && !other_use@
identifier wall.f, wall.now;
type wall.T;
@@
f(...) {
<+...
- T
+ time64_t
  now;
...+>
}

@show depends on context && reads_clock && compared && !other_use@
identifier wall.f, wall.now;
type wall.T;
@@
f(...) {
<+...
(
* T now = ktime_get_real_seconds();
|
* T now;
)
...+>
}

@where depends on (org || report) && reads_clock && compared && !other_use@
identifier wall.f, wall.now;
type wall.T;
position p;
@@
f(...) {
<+...
(
 T now@p = ktime_get_real_seconds();
|
 T now@p;
)
...+>
}

@script:python depends on report@
p << where.p;
@@
coccilib.report.print_report(p[0], "y2038: wall-clock seconds in a 32-bit local compared with a time64_t: keep them in a time64_t")

@script:python depends on org@
p << where.p;
@@
coccilib.org.print_todo(p[0], "y2038: wall-clock seconds in a 32-bit local compared with a time64_t")
