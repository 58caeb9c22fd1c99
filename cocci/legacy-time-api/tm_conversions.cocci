// SPDX-License-Identifier: GPL-2.0-only
/// Use the time64_t broken-down-time helpers: time64_to_tm(),
/// rtc_time64_to_tm() and rtc_tm_to_time64().
///
/// time_to_tm(), rtc_time_to_tm() and rtc_tm_to_time() take or give the
/// seconds since 1970 as time_t or unsigned long, 32 bits wide on 32-bit
/// machines.  Linux 3.19 added rtc_time64_to_tm() and rtc_tm_to_time64(),
/// Linux 4.8 time64_to_tm(); time_to_tm() was removed in 4.20 and the RTC
/// ones are gone from today's kernels.  time_to_tm(t, off, tm) and
/// rtc_time_to_tm(t, tm) keep their arguments.  rtc_tm_to_time(tm, p)
/// stored rtc_tm_to_time64(tm) through p and returned 0: the statement
/// rtc_tm_to_time(tm, &t); becomes t = rtc_tm_to_time64(tm);, with p a
/// pointer *p = rtc_tm_to_time64(tm);, and ret = rtc_tm_to_time(tm, &t);
/// becomes the store and ret = 0;.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Vendor and board code pairs these with getnstimeofday() and
//  rtc_read_time().  The variable that receives rtc_tm_to_time64() keeps
//  its type: an unsigned long stays a y2106 limit on 32-bit machines
//  (seconds_truncation.cocci reports stores of wall-clock seconds).
//  rtc_tm_to_time(tm, (unsigned long *)&t) of a narrower integer t wrote
//  an unsigned long over it on 64-bit machines: it becomes t = ...; (the
//  value converted to t's type) where spatch knows t's type; a cast from a
//  buffer's byte or a structure is reported.  rtc_tm_to_time() whose result is tested or
//  initialises a declaration is reported, not changed.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.19 rtc_time64_to_tm, 3.19 rtc_tm_to_time64, 4.8 time64_to_tm
// Removed: 4.20 time_to_tm, 6.1 rtc_time_to_tm (absent from 6.1; removed earlier), 6.1 rtc_tm_to_time (likewise)
// Sites: independent
// Subject: use the time64_t broken-down-time helpers
// Options: --no-includes --include-headers --max-width 100
// Keywords: time_to_tm, rtc_time_to_tm, rtc_tm_to_time, time64_to_tm, y2038

virtual patch
virtual context
virtual org
virtual report

@convert depends on patch@
expression t, off, tm;
@@
(
- time_to_tm
+ time64_to_tm
  (t, off, tm)
|
- rtc_time_to_tm
+ rtc_time64_to_tm
  (t, tm)
)

// A statement: its result (always 0) is not used, or stored.
// Through a cast, only into an integer spatch knows the type of (not a
// byte of a buffer or a structure the cast hid).
@convert_stmt depends on patch@
expression tm, E, R;
typedef u32, s32, __u32, __s32, u64, s64, __u64, __s64, time64_t;
{u32, s32, __u32, __s32, u64, s64, __u64, __s64, time64_t, int, unsigned int, long, unsigned long} S;
type T;
@@
(
- rtc_tm_to_time(tm, &E);
+ E = rtc_tm_to_time64(tm);
|
- rtc_tm_to_time(tm, (T *)&S);
+ S = rtc_tm_to_time64(tm);
|
- R = rtc_tm_to_time(tm, &E);
+ E = rtc_tm_to_time64(tm);
+ R = 0;
|
- R = rtc_tm_to_time(tm, (T *)&S);
+ S = rtc_tm_to_time64(tm);
+ R = 0;
)

// Through a pointer, as rtc_tm_to_time() stored it.
@convert_ptr depends on patch@
expression tm, R;
identifier p;
@@
(
- rtc_tm_to_time(tm, p);
+ *p = rtc_tm_to_time64(tm);
|
- R = rtc_tm_to_time(tm, p);
+ *p = rtc_tm_to_time64(tm);
+ R = 0;
)

@found depends on context || report || org@
identifier api = {time_to_tm, rtc_time_to_tm, rtc_tm_to_time};
position p;
@@
* api@p(...)

@script:python depends on report@
p << found.p;
api << found.api;
@@
coccilib.report.print_report(p[0], "WARNING: %s() keeps seconds in 32 bits on 32-bit machines and is gone from current kernels: use its time64_t form" % api)

@script:python depends on org@
p << found.p;
api << found.api;
@@
coccilib.org.print_todo(p[0], "%s(): use its time64_t form" % api)
