// SPDX-License-Identifier: GPL-2.0-only
/// Remove a file's own prototypes of removed kernel time functions once
/// the file no longer calls them.
///
/// Old vendor drivers often declared the kernel's time functions
/// themselves (extern void do_gettimeofday(struct timeval *tv);) instead
/// of including <linux/time.h>.  After the calls are converted the
/// prototype is dead, names a function later kernels do not have and, for
/// the struct timeval/timespec ones, a type they do not have either.
///
/// A prototype stays while the file still calls the function (a call the
/// other rules left is reported by them).
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only prototypes (declarations ending in ';') are removed;
//  a definition of one of these names is a compat shim and is left alone.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: -
// Removed: 5.0 do_gettimeofday, 5.0 current_kernel_time, 5.6 getnstimeofday, 5.6 ktime_get_ts, 5.6 getrawmonotonic, 5.6 do_settimeofday, 5.6 getboottime, 5.6 get_monotonic_boottime, 5.11 get_seconds
// Sites: independent
// Subject: drop the file's own prototypes of removed time functions
// Options: --no-includes --max-width 100
// Keywords: prototype, do_gettimeofday, getnstimeofday, get_seconds
// Prefilter: do_gettimeofday getnstimeofday get_seconds current_kernel_time ktime_get_ts getrawmonotonic do_settimeofday getboottime get_monotonic_boottime

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
TIME_API = {"do_gettimeofday", "getnstimeofday", "get_seconds", "current_kernel_time",
            "ktime_get_ts", "getrawmonotonic", "do_settimeofday", "getboottime",
            "get_monotonic_boottime"}
called = set()

@declared@
identifier fn = {do_gettimeofday, getnstimeofday, get_seconds, current_kernel_time,
                 ktime_get_ts, getrawmonotonic, do_settimeofday, getboottime,
                 get_monotonic_boottime};
type T;
@@
 T fn(...);

// Runs once for each file that declares one (state must not leak between
// the files of one spatch process).
@script:python new_file depends on declared@
@@
called.clear()

@call depends on declared@
identifier fn = {do_gettimeofday, getnstimeofday, get_seconds, current_kernel_time,
                 ktime_get_ts, getrawmonotonic, do_settimeofday, getboottime,
                 get_monotonic_boottime};
@@
 fn(...)

@script:python@
fn << call.fn;
@@
called.add(fn)

@stale depends on patch@
identifier fn : script:python () { fn in TIME_API and fn not in called };
type T;
@@
- T fn(...);

// (spatch cannot hand a prototype's name to a script: the messages do not
// name the function; the line does.)
@found depends on report || org || context@
identifier fn : script:python () { fn in TIME_API and fn not in called };
type T;
position p;
@@
 T fn@p(...);

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: prototype of a removed time function this file no longer calls: remove it")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "stale prototype of a removed time function")
