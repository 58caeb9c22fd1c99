// SPDX-License-Identifier: GPL-2.0-only
/// Let the timekeeping core's helpers and calls follow the types
/// core_declarations.cocci gave its values.
///
/// Once the core's fields, statics and locals are struct timespec64, the
/// helpers applied to them move to their 64-bit forms (timespec_add_ns(),
/// timespec_to_ns(), timespec_valid(), timespec_valid_strict(),
/// set_normalized_timespec(), timespec_compare(), timespec_equal(),
/// timespec_add(), timespec_sub(), timespec_to_ktime(),
/// ktime_to_timespec(), ns_to_timespec()), a wrapped function called with
/// a struct timespec64 calls its static twin instead, and where a value
/// that keeps struct timespec is assigned to or from one that changed,
/// timespec_to_timespec64() or timespec64_to_timespec() converts it.
//
// Confidence: Moderate
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: A separate rule file so that spatch types the code as
//  core_declarations.cocci left it (a rule's later parts see a field's or
//  a function's old type).  timespec64_to_timespec() truncates seconds on
//  32-bit: it only appears where a struct timespec interface is kept.
//  A helper given one value of each type is left for the build to flag.
//  Only files calling a helper or holding a struct timespec reach spatch.
// Scope: kernel/time/ kernel/timekeeping.c kernel/hrtimer.c kernel/time.c
// Out-of-tree: no
// Introduced: 3.17 timespec64 (and its helpers)
// Removed: 5.6 timespec (and its helpers)
// Subject: use the timespec64 helpers in the timekeeping core
// Options: --no-includes --include-headers --max-width 100
// Types: headers
// Processes: one per file
// Keywords: timespec64, timespec_add_ns, timespec_to_timespec64, y2038
// Prefilter: timespec_add_ns timespec_to_ns timespec_valid timespec_valid_strict set_normalized_timespec timespec_compare timespec_equal timespec_add timespec_sub timespec_to_ktime ktime_to_timespec ns_to_timespec timespec64_to_timespec timespec_to_timespec64
// Prefilter-regex: \b(timespec_add_ns|timespec_to_ns|timespec_valid|timespec_valid_strict|set_normalized_timespec|timespec_compare|timespec_equal|timespec_add|timespec_sub|timespec_to_ktime|ktime_to_timespec|ns_to_timespec|timespec64_to_timespec|timespec_to_timespec64)\s*\(|\bstruct\s+timespec\b(?!64)

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
wrapped = set()

// The helpers follow their arguments' new type.
@helpers depends on patch@
struct timespec64 *p;
struct timespec64 *q;
struct timespec64 a, b;
expression E1, E2;
@@
(
- timespec_add_ns(p, E1)
+ timespec64_add_ns(p, E1)
|
- timespec_to_ns(p)
+ timespec64_to_ns(p)
|
- timespec_valid_strict(p)
+ timespec64_valid_strict(p)
|
- timespec_valid(p)
+ timespec64_valid(p)
|
- set_normalized_timespec(p, E1, E2)
+ set_normalized_timespec64(p, E1, E2)
|
- timespec_compare(p, q)
+ timespec64_compare(p, q)
|
- timespec_equal(p, q)
+ timespec64_equal(p, q)
|
- timespec_add(a, b)
+ timespec64_add(a, b)
|
- timespec_sub(a, b)
+ timespec64_sub(a, b)
|
- timespec_to_ktime(a)
+ timespec64_to_ktime(a)
|
- a = ktime_to_timespec(E1)
+ a = ktime_to_timespec64(E1)
|
- a = ns_to_timespec(E1)
+ a = ns_to_timespec64(E1)
)

// A function that wraps a static twin (core_declarations made it), called
// with a timespec64, calls the twin.
@wrapper@
identifier fn, fn64, ts;
type T;
@@
(
  T fn(struct timespec *ts) { ... fn64(...) ... }
|
  T fn(const struct timespec *ts) { ... fn64(...) ... }
|
  struct timespec fn(void) { ... fn64(...) ... }
)

@script:python@
fn << wrapper.fn;
fn64 << wrapper.fn64;
@@
if fn64 == fn + "64":
    wrapped.add(fn)

@twin_calls depends on patch@
identifier wfn : script:python() { wfn in wrapped };
fresh identifier wfn64 = wfn ## "64";
struct timespec64 *p;
@@
- wfn(p)
+ wfn64(p)

@twin_returns depends on patch@
identifier wfn : script:python() { wfn in wrapped };
fresh identifier wfn64 = wfn ## "64";
struct timespec64 a;
@@
  a =
- wfn()
+ wfn64()

// What stays struct timespec meets what changed: convert at the boundary.
@boundary depends on patch@
struct timespec64 a64;
struct timespec a;
@@
(
  a64 =
- a
+ timespec_to_timespec64(a)
|
  a =
- a64
+ timespec64_to_timespec(a64)
)

@boundary_return depends on patch@
identifier fn;
struct timespec a;
@@
struct timespec64 fn(...) {
<...
- return a;
+ return timespec_to_timespec64(a);
...>
}
