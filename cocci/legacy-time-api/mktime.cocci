// SPDX-License-Identifier: GPL-2.0-only
/// Use mktime64() instead of mktime().
///
/// The kernel's mktime(year, mon, day, hour, min, sec) returned the
/// seconds since 1970 as unsigned long, which is 32 bits wide on 32-bit
/// machines; Linux 3.19 added mktime64(), which returns time64_t, and
/// Linux 5.6 removed mktime().  The arguments are the same.
///
/// The call is replaced in place.  Where the result is still stored in a
/// 32-bit variable the truncation stays what it was; the y2038-hazards
/// campaign reports such stores.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only the six-argument kernel mktime() changes: the C library's
//  mktime(struct tm *) of user-space code has one argument.  The
//  definition of mktime() itself is left alone.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.19 mktime64
// Removed: 5.6 mktime
// Sites: independent
// Subject: use mktime64() instead of mktime()
// Options: --no-includes --include-headers --max-width 100
// Keywords: mktime, mktime64, y2038

virtual patch
virtual context
virtual org
virtual report

@convert depends on patch@
identifier fn != {mktime, mktime64};
expression y, mon, d, h, min, s;
@@
fn(...) {
<+...
- mktime
+ mktime64
  (y, mon, d, h, min, s)
...+>
}

@found depends on context || report || org@
expression y, mon, d, h, min, s;
position p;
@@
* mktime@p(y, mon, d, h, min, s)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: mktime() was removed in Linux 5.6: use mktime64(), which returns time64_t")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "mktime() was removed in Linux 5.6: use mktime64()")
