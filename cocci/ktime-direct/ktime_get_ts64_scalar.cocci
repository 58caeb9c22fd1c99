// SPDX-License-Identifier: GPL-2.0-only
/// Read nanoseconds or seconds directly instead of filling a timespec64
/// only to convert it.
///
/// A struct timespec64 local that is filled by a ktime_get*_ts64()
/// accessor and whose only use, in the very next statement, is
/// timespec64_to_ns(&ts) or ts.tv_sec can go: ktime_get*_ns() and
/// ktime_get*_seconds() return the value directly.
///
/// Only a return or an assignment of the value changes, where u64 (the
/// _ns() accessors) and s64 (timespec64_to_ns()) give the same bits.
//
// Confidence: Moderate
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: ktime_get*_seconds() read the coarse second counter, which
//  can lag the tv_sec of a fresh ktime_get*_ts64() by up to one tick just
//  after a second boundary; that is why the confidence is moderate.
//  CLOCK_MONOTONIC_RAW has no _seconds() accessor, so its tv_sec stays.
//  The fill and the conversion may sit in a branch; any other use of the
//  local, on any path, keeps it.  Only files where a fill is followed,
//  comments and closing braces aside, by a return or an assignment of the
//  conversion, and the statement after that does not name the local,
//  reach spatch (// Prefilter-regex): 8 of the 339 files holding the
//  names in Linux 6.1.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 ktime_get_ns, 3.17 ktime_get_real_ns, 3.17 ktime_get_raw_ns, 3.19 ktime_get_seconds, 3.19 ktime_get_real_seconds, 4.18 ktime_get_boottime_seconds, 4.18 ktime_get_clocktai_seconds, 5.3 ktime_get_boottime_ns, 5.3 ktime_get_clocktai_ns, 5.3 ktime_get_coarse_ns, 5.3 ktime_get_coarse_real_ns, 5.3 ktime_get_coarse_boottime_ns, 5.3 ktime_get_coarse_clocktai_ns
// Removed: -
// Subject: read the clock directly instead of through a timespec64
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_get_real_ts64, timespec64_to_ns, ktime_get_ns
// Prefilter-regex: ktime_get\w*_ts64\(\s*&\s*(\w+)\s*\)\s*;(\s|\}|/\*([^*]|\*(?!/))*\*/|//[^\n]*)*(return\b|[^;{}]*?=)[\s(]*(timespec64_to_ns\(\s*&\s*\1\s*\)|\b\1\s*\.\s*tv_sec\b)(?!\s*;[^;{}]*\b\1\b)

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
busy = set()
SECONDS = {
    "ktime_get_real_ts64": "ktime_get_real_seconds",
    "ktime_get_coarse_real_ts64": "ktime_get_real_seconds",
    "ktime_get_ts64": "ktime_get_seconds",
    "ktime_get_coarse_ts64": "ktime_get_seconds",
    "ktime_get_boottime_ts64": "ktime_get_boottime_seconds",
    "ktime_get_coarse_boottime_ts64": "ktime_get_boottime_seconds",
    "ktime_get_clocktai_ts64": "ktime_get_clocktai_seconds",
    "ktime_get_coarse_clocktai_ts64": "ktime_get_clocktai_seconds",
}

// Locals of which some use is neither the fill nor the one conversion.
@other_use exists@
identifier fn != {ktime_get_ns, ktime_get_real_ns, ktime_get_boottime_ns,
                  ktime_get_clocktai_ns, ktime_get_raw_ns, ktime_get_coarse_ns,
                  ktime_get_coarse_real_ns, ktime_get_coarse_boottime_ns,
                  ktime_get_coarse_clocktai_ns, ktime_get_seconds,
                  ktime_get_real_seconds, ktime_get_boottime_seconds,
                  ktime_get_clocktai_seconds};
identifier ts;
identifier clock = {ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                    ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                    ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                    ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
position p1;
@@
fn(...) {
  ... when any
  struct timespec64 ts;
  ... when any
  clock(&ts@p1);
  ... when any
}

@counted@
identifier other_use.fn, other_use.ts;
position p;
@@
fn(...) {
<+...
 ts@p
...+>
}

@script:python@
fn << other_use.fn;
ts << other_use.ts;
p << counted.p;
@@
# one fill and one conversion: two uses; anything more keeps the timespec64
if len(p) > 2:
    busy.add((fn, ts))

@to_ns depends on patch exists@
identifier other_use.fn;
identifier other_use.ts : script:python(fn) { (fn, ts) not in busy };
identifier clock = {ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                    ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                    ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                    ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
fresh identifier clock_ns = script:python(clock) { clock.replace("_ts64", "_ns") };
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- clock(&ts);
(
- return timespec64_to_ns(&ts);
+ return clock_ns();
|
- E = timespec64_to_ns(&ts);
+ E = clock_ns();
)
  ... when != ts
}

@to_seconds depends on patch exists@
identifier other_use.fn;
identifier other_use.ts : script:python(fn) { (fn, ts) not in busy };
identifier clock = {ktime_get_ts64, ktime_get_real_ts64,
                    ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                    ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                    ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
fresh identifier clock_seconds = script:python(clock) { SECONDS[clock] };
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- clock(&ts);
(
- return ts.tv_sec;
+ return clock_seconds();
|
- E = ts.tv_sec;
+ E = clock_seconds();
)
  ... when != ts
}

@found depends on context || report || org@
identifier ts;
identifier clock = {ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                    ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                    ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                    ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
position p;
@@
* clock@p(&ts);
(
* return timespec64_to_ns(&ts);
|
* return ts.tv_sec;
)

@script:python depends on report@
p << found.p;
clock << found.clock;
@@
coccilib.report.print_report(p[0], "WARNING: %s() only to convert the result: read nanoseconds or seconds directly" % clock)

@script:python depends on org@
p << found.p;
clock << found.clock;
@@
coccilib.org.print_todo(p[0], "%s() only to convert the result" % clock)
