// SPDX-License-Identifier: GPL-2.0-only
/// Read the clock as a ktime_t instead of through a timeval or timespec.
///
/// Code of the 3.x era often filled a struct timeval or timespec only to
/// turn it into a ktime_t: do_gettimeofday(&tv) and then
/// timeval_to_ktime(tv), or getnstimeofday(&ts) and timespec_to_ktime(ts).
/// The ktime accessor of the same clock gives the value directly:
/// ktime_get_real() for the wall clock, ktime_get() for the monotonic one,
/// ktime_get_raw() for the raw one.  The local goes with its last use.
///
/// The value gains the nanoseconds a timeval dropped (timeval_to_ktime()
/// had microseconds only); it is read at the same place.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only a local used for nothing else between its fill and the
//  conversion, and not after it.  Runs before do_gettimeofday and
//  timespec_locals, which would otherwise turn the pair into a timespec64
//  and ktime_set().
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/
// Introduced: 2.6.16 ktime_get_real, 2.6.16 ktime_get, 3.17 ktime_get_raw
// Removed: 5.0 do_gettimeofday, 5.6 timeval, 5.6 timeval_to_ktime, 5.6 timespec, 5.6 getnstimeofday, 5.6 ktime_get_ts, 5.6 getrawmonotonic, 5.6 timespec_to_ktime
// Sites: independent
// Subject: read the clock as a ktime_t instead of through a timeval or timespec
// Options: --no-includes --include-headers --max-width 100
// Keywords: timeval_to_ktime, timespec_to_ktime, ktime_get_real, do_gettimeofday
// Prefilter: timeval_to_ktime timespec_to_ktime

virtual patch
virtual context
virtual org
virtual report

@assigned depends on patch@
identifier t;
expression E;
@@
(
- struct timeval t;
  ... when != t
- do_gettimeofday(&t);
  ... when != t
  E =
- timeval_to_ktime(t)
+ ktime_get_real()
  ;
  ... when != t
|
- struct timespec t;
  ... when != t
- getnstimeofday(&t);
  ... when != t
  E =
- timespec_to_ktime(t)
+ ktime_get_real()
  ;
  ... when != t
|
- struct timespec t;
  ... when != t
- ktime_get_ts(&t);
  ... when != t
  E =
- timespec_to_ktime(t)
+ ktime_get()
  ;
  ... when != t
|
- struct timespec t;
  ... when != t
- getrawmonotonic(&t);
  ... when != t
  E =
- timespec_to_ktime(t)
+ ktime_get_raw()
  ;
  ... when != t
)

@returned depends on patch@
identifier t;
@@
(
- struct timeval t;
  ... when != t
- do_gettimeofday(&t);
  ... when != t
  return
- timeval_to_ktime(t)
+ ktime_get_real()
  ;
|
- struct timespec t;
  ... when != t
- getnstimeofday(&t);
  ... when != t
  return
- timespec_to_ktime(t)
+ ktime_get_real()
  ;
|
- struct timespec t;
  ... when != t
- ktime_get_ts(&t);
  ... when != t
  return
- timespec_to_ktime(t)
+ ktime_get()
  ;
)

@pair depends on report || org || context@
identifier t;
position p;
@@
(
 do_gettimeofday(&t);
 ... when != t
 timeval_to_ktime@p(t)
|
 getnstimeofday(&t);
 ... when != t
 timespec_to_ktime@p(t)
)

@script:python depends on report@
p << pair.p;
@@
coccilib.report.print_report(p[0], "the clock read only to be turned into a ktime_t: use ktime_get_real()")

@script:python depends on org@
p << pair.p;
@@
coccilib.org.print_todo(p[0], "the clock read only to be turned into a ktime_t")
