// SPDX-License-Identifier: GPL-2.0-only
/// Use the ktime_get_*_ts64() accessors instead of the removed timespec64
/// names.
///
/// Linux 4.18 renamed the struct timespec64 accessors to the ktime_get_
/// family and Linux 5.0 removed the old names: getnstimeofday64(),
/// getrawmonotonic64(), get_monotonic_boottime64(),
/// timekeeping_clocktai64() and get_monotonic_coarse64() become
/// ktime_get_real_ts64(), ktime_get_raw_ts64(), ktime_get_boottime_ts64(),
/// ktime_get_clocktai_ts64() and ktime_get_coarse_ts64(); an assignment
/// from current_kernel_time64() or get_monotonic_coarse64() becomes a
/// call that fills the timespec64.  The types are unchanged.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: current_kernel_time64() used as a value (returned or passed
//  on) is reported, not changed.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 ktime_get_real_ts64 (a macro of getnstimeofday64 until 4.18), 4.18 ktime_get_raw_ts64, 4.18 ktime_get_boottime_ts64, 4.18 ktime_get_clocktai_ts64, 4.18 ktime_get_coarse_ts64, 4.18 ktime_get_coarse_real_ts64
// Removed: 5.0 getnstimeofday64, 5.0 getrawmonotonic64, 5.0 get_monotonic_boottime64, 5.0 timekeeping_clocktai64, 5.0 get_monotonic_coarse64, 5.0 current_kernel_time64
// Sites: independent
// Subject: use the ktime_get_*_ts64() accessors
// Options: --no-includes --include-headers --max-width 100
// Keywords: getnstimeofday64, current_kernel_time64, ktime_get_real_ts64

virtual patch
virtual context
virtual org
virtual report

@renamed depends on patch@
expression ts;
@@
(
- getnstimeofday64(ts)
+ ktime_get_real_ts64(ts)
|
- getrawmonotonic64(ts)
+ ktime_get_raw_ts64(ts)
|
- get_monotonic_boottime64(ts)
+ ktime_get_boottime_ts64(ts)
|
- timekeeping_clocktai64(ts)
+ ktime_get_clocktai_ts64(ts)
)

@filled depends on patch@
expression ts;
@@
(
- *ts = current_kernel_time64();
+ ktime_get_coarse_real_ts64(ts);
|
- ts = current_kernel_time64();
+ ktime_get_coarse_real_ts64(&ts);
|
- *ts = get_monotonic_coarse64();
+ ktime_get_coarse_ts64(ts);
|
- ts = get_monotonic_coarse64();
+ ktime_get_coarse_ts64(&ts);
)

@found depends on context || report || org@
identifier old = {getnstimeofday64, getrawmonotonic64, get_monotonic_boottime64,
                  timekeeping_clocktai64, current_kernel_time64, get_monotonic_coarse64};
position p;
@@
* old@p(...)

@script:python depends on report@
p << found.p;
old << found.old;
@@
coccilib.report.print_report(p[0], "WARNING: %s() was removed in Linux 5.0: use the ktime_get_*_ts64() accessor" % old)

@script:python depends on org@
p << found.p;
old << found.old;
@@
coccilib.org.print_todo(p[0], "%s() was removed in Linux 5.0" % old)
