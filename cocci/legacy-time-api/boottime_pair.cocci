// SPDX-License-Identifier: GPL-2.0-only
/// Read the boot-based clock with get_monotonic_boottime() instead of a
/// monotonic reading moved by monotonic_to_bootbased().
///
/// Before get_monotonic_boottime() (2.6.39), code read CLOCK_BOOTTIME in
/// two steps: ktime_get_ts() or do_posix_clock_monotonic_gettime() (the
/// same function under its POSIX clock's name), then
/// monotonic_to_bootbased() to add the time spent in suspend.
/// monotonic_to_bootbased() was gone by Linux 3.18 and
/// do_posix_clock_monotonic_gettime() by 4.9; get_monotonic_boottime()
/// gives the same reading in one call, and timespec_locals.cocci (run
/// after this rule) makes a local filled so a struct timespec64 read with
/// ktime_get_boottime_ts64().
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only the two calls as consecutive statements on the same
//  argument, one without side effects (p++ advanced twice).  The two steps read the clock and the suspend offset
//  separately; the one call reads them together, so a suspend between
//  the two steps no longer skews the value.  A monotonic_to_bootbased()
//  on any other value (a stored reading, a sum) is reported, not changed.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/
// Introduced: 2.6.39 get_monotonic_boottime
// Removed: 3.18 monotonic_to_bootbased (gone by 3.18), 4.9 do_posix_clock_monotonic_gettime (gone by 4.9)
// Sites: independent
// Subject: read CLOCK_BOOTTIME with get_monotonic_boottime()
// Options: --no-includes --include-headers --max-width 100
// Keywords: monotonic_to_bootbased, get_monotonic_boottime, do_posix_clock_monotonic_gettime, y2038
// Prefilter: monotonic_to_bootbased

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

def read_once(expr):
    """No ++, --, assignment or call: evaluating it twice reads one value."""
    return not re.search(r"\+\+|--|[^=!<>]=(?!=)|\(", expr)

// Rewrite: ktime_get_ts(ts); monotonic_to_bootbased(ts); -> get_monotonic_boottime(ts);
//  The monotonic reading moved by the time spent in suspend is the
//  boot-based reading, which get_monotonic_boottime() returns in one call.
@pair depends on patch@
// one value read twice: no ++, --, assignment or call in it (the two steps evaluated it twice)
expression ts : script:python() { read_once(ts) };
position p;
@@
(
- ktime_get_ts(ts);
+ get_monotonic_boottime(ts);
|
- do_posix_clock_monotonic_gettime(ts);
+ get_monotonic_boottime(ts);
)
- monotonic_to_bootbased@p(ts);

@found depends on context || report || org@
expression ts;
position p;
@@
 monotonic_to_bootbased@p(ts)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: monotonic_to_bootbased() was gone by Linux 3.18: "
                                   "read the clock with ktime_get_boottime_ts64()")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "monotonic_to_bootbased() was gone by Linux 3.18")

@depends on context@
expression ts;
@@
* monotonic_to_bootbased(ts)
