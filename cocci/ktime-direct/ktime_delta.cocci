// SPDX-License-Identifier: GPL-2.0-only
/// Use ktime_us_delta()/ktime_ms_delta() instead of converting a
/// ktime_sub() result.
///
/// ktime_us_delta(later, earlier) and ktime_ms_delta(later, earlier) are
/// defined as exactly ktime_to_us(ktime_sub(later, earlier)) and
/// ktime_to_ms(ktime_sub(later, earlier)); they name the intent (an
/// elapsed time) and keep the order of the operands visible.  Types and
/// results are identical (s64), so every site can change; the helpers'
/// own definitions are left alone.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: ktime_to_ns(ktime_sub(a, b)) has no _delta helper and is left
//  alone, as are subtractions written with '-' (their operand types are
//  not always known without the headers).
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

@delta depends on patch@
identifier fn != {ktime_us_delta, ktime_ms_delta};
expression later, earlier;
type T;
@@
fn(...) {
<+...
(
- (T)ktime_to_us(ktime_sub(later, earlier))
+ (T)ktime_us_delta(later, earlier)
|
- (T)ktime_to_ms(ktime_sub(later, earlier))
+ (T)ktime_ms_delta(later, earlier)
|
- ktime_to_us(ktime_sub(later, earlier))
+ ktime_us_delta(later, earlier)
|
- ktime_to_ms(ktime_sub(later, earlier))
+ ktime_ms_delta(later, earlier)
)
...+>
}

@depends on context@
identifier fn != {ktime_us_delta, ktime_ms_delta};
identifier to_unit = {ktime_to_us, ktime_to_ms};
expression later, earlier;
@@
fn(...) {
<+...
* to_unit(ktime_sub(later, earlier))
...+>
}

@found depends on report || org@
identifier to_unit = {ktime_to_us, ktime_to_ms};
expression later, earlier;
position p;
@@
 to_unit@p(ktime_sub(later, earlier))

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
