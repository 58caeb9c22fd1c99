// SPDX-License-Identifier: GPL-2.0-only
/// Fill a timespec64 from the clock directly: ktime_get*_ts64() instead of
/// ktime_to_timespec64(ktime_get*()).
///
/// Every clock has a ktime_get*_ts64() accessor that fills a struct
/// timespec64; reading the clock as ktime_t and splitting it again with
/// ktime_to_timespec64() costs a 64-bit division that the accessor avoids
/// (for CLOCK_REALTIME and CLOCK_MONOTONIC it reads seconds and nanoseconds
/// from the timekeeper as they are).
///
/// The same holds for ns_to_timespec64() of the clock read in nanoseconds,
/// ktime_get*_ns() or ktime_to_ns(ktime_get*()): ktime_to_timespec64() is
/// ns_to_timespec64() of the ktime_t.
///
/// Only whole assignment statements change; a conversion used as a value
/// (in an initializer, an argument or a return) is left alone.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: The accessors' own definitions in include/linux/timekeeping.h
//  are left alone.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 ktime_get_ts64, 3.17 ktime_get_real_ts64 (a macro of getnstimeofday64 until 4.18), 4.18 ktime_get_raw_ts64, 4.18 ktime_get_boottime_ts64, 4.18 ktime_get_clocktai_ts64, 4.18 ktime_get_coarse_ts64, 4.18 ktime_get_coarse_real_ts64, 4.18 ktime_get_coarse_boottime_ts64, 4.18 ktime_get_coarse_clocktai_ts64
// Removed: -
// Sites: independent
// Subject: use ktime_get*_ts64() instead of ktime_to_timespec64(ktime_get*())
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_get_ts64, ktime_to_timespec64, ns_to_timespec64

virtual patch
virtual context
virtual org
virtual report

// (the fresh identifiers below are named by Python)
@initialize:python@
@@

// Rewrite: ts = ktime_to_timespec64(ktime_get*()) -> ktime_get*_ts64(&ts)
//  The clock's _ts64() accessor fills the timespec64 with the same reading,
//  split into seconds and nanoseconds as ktime_to_timespec64() split it.
@fill depends on patch@
identifier fn != {ktime_get_boottime_ts64, ktime_get_coarse_boottime_ts64,
                  ktime_get_clocktai_ts64, ktime_get_coarse_clocktai_ts64,
                  ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                  ktime_get_coarse_ts64, ktime_get_coarse_real_ts64};
identifier clock_fn = {ktime_get, ktime_get_real, ktime_get_boottime,
                       ktime_get_clocktai, ktime_get_raw, ktime_get_coarse,
                       ktime_get_coarse_real, ktime_get_coarse_boottime,
                       ktime_get_coarse_clocktai};
fresh identifier ts64_fn = clock_fn ## "_ts64";
expression ts;
@@
fn(...) {
<+...
(
- *ts = ktime_to_timespec64(clock_fn());
+ ts64_fn(ts);
|
- ts = ktime_to_timespec64(clock_fn());
+ ts64_fn(&ts);
)
...+>
}

// Rewrite: ts = ns_to_timespec64(ktime_get*_ns()) -> ktime_get*_ts64(&ts)
//  ktime_to_timespec64() is ns_to_timespec64() of the ktime_t, so the
//  clock's _ts64() accessor fills the timespec64 with the same reading.
@from_ns depends on patch@
identifier fn != {ktime_get_boottime_ts64, ktime_get_coarse_boottime_ts64,
                  ktime_get_clocktai_ts64, ktime_get_coarse_clocktai_ts64,
                  ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                  ktime_get_coarse_ts64, ktime_get_coarse_real_ts64};
identifier ns_fn = {ktime_get_ns, ktime_get_real_ns, ktime_get_boottime_ns,
                    ktime_get_clocktai_ns, ktime_get_raw_ns, ktime_get_coarse_ns,
                    ktime_get_coarse_real_ns, ktime_get_coarse_boottime_ns,
                    ktime_get_coarse_clocktai_ns};
fresh identifier ts64_fn = script:python(ns_fn) { ns_fn.replace("_ns", "_ts64") };
expression ts;
@@
fn(...) {
<+...
(
- *ts = ns_to_timespec64(ns_fn());
+ ts64_fn(ts);
|
- ts = ns_to_timespec64(ns_fn());
+ ts64_fn(&ts);
)
...+>
}

// Rewrite: ts = ns_to_timespec64(ktime_get*_ns()) -> ktime_get*_ts64(&ts)
//  ktime_to_timespec64() is ns_to_timespec64() of the ktime_t, so the
//  clock's _ts64() accessor fills the timespec64 with the same reading.
@from_ktime_ns depends on patch@
identifier fn != {ktime_get_boottime_ts64, ktime_get_coarse_boottime_ts64,
                  ktime_get_clocktai_ts64, ktime_get_coarse_clocktai_ts64,
                  ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                  ktime_get_coarse_ts64, ktime_get_coarse_real_ts64};
identifier clock_fn = {ktime_get, ktime_get_real, ktime_get_boottime,
                       ktime_get_clocktai, ktime_get_raw, ktime_get_coarse,
                       ktime_get_coarse_real, ktime_get_coarse_boottime,
                       ktime_get_coarse_clocktai};
fresh identifier ts64_fn = clock_fn ## "_ts64";
expression ts;
@@
fn(...) {
<+...
(
- *ts = ns_to_timespec64(ktime_to_ns(clock_fn()));
+ ts64_fn(ts);
|
- ts = ns_to_timespec64(ktime_to_ns(clock_fn()));
+ ts64_fn(&ts);
)
...+>
}

@depends on context@
identifier fn != {ktime_get_boottime_ts64, ktime_get_coarse_boottime_ts64,
                  ktime_get_clocktai_ts64, ktime_get_coarse_clocktai_ts64,
                  ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                  ktime_get_coarse_ts64, ktime_get_coarse_real_ts64};
identifier clock_fn = {ktime_get, ktime_get_real, ktime_get_boottime,
                       ktime_get_clocktai, ktime_get_raw, ktime_get_coarse,
                       ktime_get_coarse_real, ktime_get_coarse_boottime,
                       ktime_get_coarse_clocktai};
expression ts;
@@
fn(...) {
<+...
(
* ts = ktime_to_timespec64(clock_fn());
|
* ts = ns_to_timespec64(ktime_to_ns(clock_fn()));
)
...+>
}

@found depends on report || org@
identifier clock_fn = {ktime_get, ktime_get_real, ktime_get_boottime,
                       ktime_get_clocktai, ktime_get_raw, ktime_get_coarse,
                       ktime_get_coarse_real, ktime_get_coarse_boottime,
                       ktime_get_coarse_clocktai};
expression ts;
position p;
@@
(
 ts = ktime_to_timespec64@p(clock_fn());
|
 ts = ns_to_timespec64@p(ktime_to_ns(clock_fn()));
)

@script:python depends on report@
p << found.p;
clock << found.clock_fn;
@@
if p[0].current_element != clock + "_ts64":
    coccilib.report.print_report(p[0], "WARNING: use %s_ts64() instead of ktime_to_timespec64(%s())" % (clock, clock))

@script:python depends on org@
p << found.p;
clock << found.clock_fn;
@@
if p[0].current_element != clock + "_ts64":
    coccilib.org.print_todo(p[0], "use %s_ts64() instead of ktime_to_timespec64(%s())" % (clock, clock))
