// SPDX-License-Identifier: GPL-2.0-only
/// Accumulate a ktime_t that starts at 0 with += and -=: kt += x instead of
/// kt = ktime_add_ns(kt, x).
///
/// ktime_add_ns(kt, x), ktime_add(kt, x), ktime_sub_ns(kt, x) and
/// ktime_sub(kt, x) are the macros ((kt) + (x)) and ((kt) - (x)) since the
/// scalar ktime_t (Linux 3.17; 4.10 removed the union), so
/// kt = ktime_add_ns(kt, x) is kt += x, the same s64 sum.  A function that
/// starts the sum as the number it is (ktime_t kt = 0, as ktime_set(0, 0)
/// becomes) then adds to it with the helpers mixes two notations for one
/// value; the compound assignment is what such code is written with.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only a ktime_t local declared with the initializer 0 or
//  ktime_set(0, 0), and only statements that add to or subtract from that
//  same local, change; the helpers stay everywhere else (they remain the
//  kernel's API for ktime_t arithmetic).
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 * (ktime_t arithmetic as s64: ktime_t was a union on 32-bit machines until 3.17)
// Removed: -
// Sites: independent
// Subject: accumulate ktime_t sums with += and -=
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_add_ns, ktime_add, ktime_sub_ns, ktime_sub
// Prefilter-regex: \bktime_t\s+(\w+)\s*=\s*(0|ktime_set\s*\(\s*0\s*,\s*0\s*\))\s*;(?s:.*?)\b\1\s*=\s*ktime_(add|sub)(_ns)?\s*\(\s*\1\s*,

virtual patch
virtual context
virtual org
virtual report

@zeroed@
typedef ktime_t;
identifier fn, kt;
@@
fn(...) {
  ... when any
(
  ktime_t kt = 0;
|
  ktime_t kt = ktime_set(0, 0);
)
  ... when any
}

// Rewrite: kt = ktime_add_ns(kt, x) -> kt += x
//  ktime_add_ns() and ktime_add() are the macro ((kt) + (x)), ktime_sub_ns()
//  and ktime_sub() ((kt) - (x)): the compound assignment is the same sum.
@accumulate depends on patch@
identifier zeroed.fn, zeroed.kt;
expression x;
@@
fn(...) {
<+...
(
- kt = ktime_add_ns(kt, x);
+ kt += x;
|
- kt = ktime_add(kt, x);
+ kt += x;
|
- kt = ktime_sub_ns(kt, x);
+ kt -= x;
|
- kt = ktime_sub(kt, x);
+ kt -= x;
)
...+>
}

@found depends on context || report || org@
identifier zeroed.fn, zeroed.kt;
identifier helper = {ktime_add_ns, ktime_add, ktime_sub_ns, ktime_sub};
expression x;
position p;
@@
fn(...) {
<+...
* kt = helper@p(kt, x);
...+>
}

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: a ktime_t that starts at 0: accumulate it with += or -=")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "a ktime_t that starts at 0: accumulate it with += or -=")
