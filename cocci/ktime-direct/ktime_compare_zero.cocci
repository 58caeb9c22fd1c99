// SPDX-License-Identifier: GPL-2.0-only
/// Compare a ktime_t with 0 directly: kt < 0 instead of ktime_to_ns(kt) < 0.
///
/// ktime_to_ns() returns its s64 argument unchanged since the scalar ktime_t
/// (Linux 3.17; 4.10 removed the union), so ktime_to_ns(kt) < 0 is kt < 0:
/// the same s64 compared with the same 0.  The kernel's own code compares
/// ktime_t values with 0 this way (hrtimer_forward(): "if (delta < 0)"), and
/// a function that already builds kt as a number (kt = 0) reads it as one.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only an expression spatch knows to be a ktime_t (a local, a
//  parameter, a field of a structure declared in the file) changes, compared
//  with the constant 0 by <, >, <=, >=, == or !=.  ktime_to_us() and
//  ktime_to_ms() divide and stay; comparisons with other values stay.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 * (a ktime_t compared as the s64 it is: ktime_t was a union on 32-bit machines until 3.17)
// Removed: -
// Sites: independent
// Subject: compare ktime_t values with 0 directly
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_to_ns, ktime_t
// Prefilter-regex: ktime_to_ns\s*\([^()]*\)\s*(<|>|<=|>=|==|!=)\s*0\b|\b0\s*(<|>|<=|>=|==|!=)\s*ktime_to_ns\s*\(

virtual patch
virtual context
virtual org
virtual report

// Rewrite: ktime_to_ns(kt) < 0 -> kt < 0
//  ktime_to_ns() returns the ktime_t it is given, an s64 nanosecond count, so
//  the comparison with 0 sees the same value.
@zero depends on patch@
typedef ktime_t;
ktime_t kt;
binary operator op = {<, >, <=, >=, ==, !=};
@@
(
- ktime_to_ns(kt)
+ kt
  op 0
|
  0 op
- ktime_to_ns(kt)
+ kt
)

@found depends on context || report || org@
typedef ktime_t;
ktime_t kt;
binary operator op = {<, >, <=, >=, ==, !=};
position p;
@@
(
* ktime_to_ns@p(kt) op 0
|
* 0 op ktime_to_ns@p(kt)
)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: ktime_t is an s64: compare it with 0 directly")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "ktime_t is an s64: compare it with 0 directly")
