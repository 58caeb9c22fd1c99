// SPDX-License-Identifier: GPL-2.0-only
/// Use ktime_us_delta()/ktime_ms_delta() instead of converting a
/// ktime_sub() result.
///
/// ktime_us_delta() and ktime_ms_delta() are defined as exactly
/// ktime_to_us() and ktime_to_ms() of the ktime_sub() of their operands;
/// they name the intent (an elapsed time) and keep the order of the
/// operands visible.  Types and results are identical (s64), so every site
/// can change.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: ktime_to_ns(ktime_sub(a, b)) has no _delta helper and is left
//  alone, as are subtractions written with '-' (their operand types are
//  not always known without the headers) and the helpers' own definitions.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 2.6.31 ktime_us_delta, 3.19 ktime_ms_delta
// Removed: -
// Sites: independent
// Subject: use ktime_us_delta()/ktime_ms_delta()
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_us_delta, ktime_ms_delta, ktime_sub
// Prefilter-regex: ktime_to_(us|ms)\s*\(\s*\(*\s*ktime_sub\s*\(

virtual patch
virtual context
virtual org
virtual report

// Rewrite: ktime_to_us(ktime_sub(t1, t0)) -> ktime_us_delta(t1, t0)
//  ktime_us_delta(later, earlier) is defined as
//  ktime_to_us(ktime_sub(later, earlier)): the same s64 microseconds, under a
//  name that says it is an elapsed time and keeps the later time first.
@us_delta depends on patch@
identifier fn != {ktime_us_delta, ktime_ms_delta};
expression t1, t0;
type T;
@@
fn(...) {
<+...
(
- (T)ktime_to_us(ktime_sub(t1, t0))
+ (T)ktime_us_delta(t1, t0)
|
- ktime_to_us(ktime_sub(t1, t0))
+ ktime_us_delta(t1, t0)
)
...+>
}

// Rewrite: ktime_to_ms(ktime_sub(t1, t0)) -> ktime_ms_delta(t1, t0)
//  ktime_ms_delta(later, earlier) is defined as
//  ktime_to_ms(ktime_sub(later, earlier)): the same s64 milliseconds, under a
//  name that says it is an elapsed time and keeps the later time first.
@ms_delta depends on patch@
identifier fn != {ktime_us_delta, ktime_ms_delta};
expression t1, t0;
type T;
@@
fn(...) {
<+...
(
- (T)ktime_to_ms(ktime_sub(t1, t0))
+ (T)ktime_ms_delta(t1, t0)
|
- ktime_to_ms(ktime_sub(t1, t0))
+ ktime_ms_delta(t1, t0)
)
...+>
}

@depends on context@
identifier fn != {ktime_us_delta, ktime_ms_delta};
identifier to_unit = {ktime_to_us, ktime_to_ms};
expression t1, t0;
@@
fn(...) {
<+...
* to_unit(ktime_sub(t1, t0))
...+>
}

@found depends on report || org@
identifier to_unit = {ktime_to_us, ktime_to_ms};
expression t1, t0;
position p;
@@
 to_unit@p(ktime_sub(t1, t0))

@script:python depends on report@
p << found.p;
to_unit << found.to_unit;
@@
if p[0].current_element not in ("ktime_us_delta", "ktime_ms_delta"):
    coccilib.report.print_report(p[0], "WARNING: use ktime_%s_delta() instead of %s(ktime_sub(...))" % (to_unit[-2:], to_unit))

@script:python depends on org@
p << found.p;
to_unit << found.to_unit;
@@
if p[0].current_element not in ("ktime_us_delta", "ktime_ms_delta"):
    coccilib.org.print_todo(p[0], "use ktime_%s_delta() instead of %s(ktime_sub(...))" % (to_unit[-2:], to_unit))
