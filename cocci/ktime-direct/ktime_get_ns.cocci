// SPDX-License-Identifier: GPL-2.0-only
/// Read the clock in nanoseconds directly: ktime_get*_ns() instead of
/// ktime_to_ns(ktime_get*()).
///
/// Since Linux 3.17 ktime_t is an s64 nanosecond count on every
/// architecture (4.10 removed the union around it) and every clock has an
/// accessor that returns nanoseconds directly.  The accessors are what the
/// code means and save readers a conversion that is a no-op.
///
/// ktime_get*_ns() return u64 where ktime_to_ns() returns s64; the two give
/// the same result except as operands of comparisons, /, %, >>, /=, %=,
/// >>= and of min()/max()/clamp()/abs()/DIV_ROUND_CLOSEST()/DIV_ROUND_UP(),
/// whose meaning or type check depends on signedness: those stay.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: ktime_get_mono_fast_ns() and the other NMI-safe accessors are
//  different clocks and are not produced.  The accessors' own definitions,
//  which would otherwise call themselves, are left alone.  Values are never negative
//  (nanoseconds since boot or since 1970), so the u64 result is safe in
//  assignments, initializers, returns, arguments and +/- arithmetic.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 ktime_get_ns, 3.17 ktime_get_real_ns, 3.17 ktime_get_raw_ns, 3.17 ktime_get_boot_ns, 5.3 ktime_get_boottime_ns (ktime_get_boot_ns before), 5.3 ktime_get_clocktai_ns (ktime_get_tai_ns before), 5.3 ktime_get_coarse_ns, 5.3 ktime_get_coarse_real_ns, 5.3 ktime_get_coarse_boottime_ns, 5.3 ktime_get_coarse_clocktai_ns
// Removed: -
// Sites: independent
// Subject: use ktime_get*_ns() instead of ktime_to_ns(ktime_get*())
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_get_ns, ktime_to_ns
// Prefilter-regex: ktime_to_ns\s*\(\s*\(*\s*ktime_get\w*\s*\(\s*\)

virtual patch
virtual context
virtual org
virtual report

@signedness_matters@
position p;
expression E;
binary operator cmp_op = {<, >, <=, >=, /, %, >>};
assignment operator div_op = {/=, %=, >>=};
identifier typed_macro = {min, max, min3, max3, min_not_zero, clamp, abs,
                          DIV_ROUND_CLOSEST, DIV_ROUND_UP};
@@
(
 (<+... ktime_to_ns@p(...) ...+>) cmp_op E
|
 E cmp_op (<+... ktime_to_ns@p(...) ...+>)
|
 E div_op (<+... ktime_to_ns@p(...) ...+>)
|
 typed_macro(..., <+... ktime_to_ns@p(...) ...+>, ...)
)

// Rewrite: ktime_to_ns(ktime_get*()) -> ktime_get*_ns()
//  A clock's nanosecond accessor returns the reading ktime_to_ns() made of
//  its ktime_t, as u64 where ktime_to_ns() returns s64.  Nanoseconds since
//  boot or since 1970 are never negative, and no value changed here is
//  compared, divided, taken modulo or shifted, so both types give the same
//  result.
@direct depends on patch@
identifier fn != {ktime_get_ns, ktime_get_real_ns, ktime_get_boottime_ns,
                  ktime_get_clocktai_ns, ktime_get_raw_ns, ktime_get_coarse_ns,
                  ktime_get_coarse_real_ns, ktime_get_coarse_boottime_ns,
                  ktime_get_coarse_clocktai_ns};
identifier clock_fn = {ktime_get, ktime_get_real, ktime_get_boottime,
                       ktime_get_clocktai, ktime_get_raw, ktime_get_coarse,
                       ktime_get_coarse_real, ktime_get_coarse_boottime,
                       ktime_get_coarse_clocktai};
fresh identifier ns_fn = clock_fn ## "_ns";
type T;
position p != signedness_matters.p;
@@
fn(...) {
<+...
(
// spelled out so that spatch keeps "(T)x" without a space after the cast
- (T)ktime_to_ns@p(clock_fn())
+ (T)ns_fn()
|
- ktime_to_ns@p(clock_fn())
+ ns_fn()
)
...+>
}

@depends on context@
identifier fn != {ktime_get_ns, ktime_get_real_ns, ktime_get_boottime_ns,
                  ktime_get_clocktai_ns, ktime_get_raw_ns, ktime_get_coarse_ns,
                  ktime_get_coarse_real_ns, ktime_get_coarse_boottime_ns,
                  ktime_get_coarse_clocktai_ns};
identifier clock_fn = {ktime_get, ktime_get_real, ktime_get_boottime,
                       ktime_get_clocktai, ktime_get_raw, ktime_get_coarse,
                       ktime_get_coarse_real, ktime_get_coarse_boottime,
                       ktime_get_coarse_clocktai};
position p != signedness_matters.p;
@@
fn(...) {
<+...
* ktime_to_ns@p(clock_fn())
...+>
}

@found depends on report || org@
identifier clock_fn = {ktime_get, ktime_get_real, ktime_get_boottime,
                       ktime_get_clocktai, ktime_get_raw, ktime_get_coarse,
                       ktime_get_coarse_real, ktime_get_coarse_boottime,
                       ktime_get_coarse_clocktai};
position p != signedness_matters.p;
@@
 ktime_to_ns@p(clock_fn())

@script:python depends on report@
p << found.p;
clock << found.clock_fn;
@@
if p[0].current_element != clock + "_ns":
    coccilib.report.print_report(p[0], "WARNING: use %s_ns() instead of ktime_to_ns(%s())" % (clock, clock))

@script:python depends on org@
p << found.p;
clock << found.clock_fn;
@@
if p[0].current_element != clock + "_ns":
    coccilib.org.print_todo(p[0], "use %s_ns() instead of ktime_to_ns(%s())" % (clock, clock))
