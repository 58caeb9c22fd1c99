// SPDX-License-Identifier: GPL-2.0-only
/// Compare a ktime_t directly instead of through ktime_to_ns().
///
/// Since Linux 4.10 a ktime_t is a plain s64 count of nanoseconds on every
/// architecture, and ktime_to_ns() of it returns that s64 unchanged.  A
/// comparison of ktime_to_ns(t) compares t itself: same value, same type,
/// so the conversion only makes the reader look for a unit change that
/// does not happen.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only the operand of <, >, <=, >=, == or != changes, and only
//  where its argument is declared ktime_t in the file (a local, a
//  parameter, a field of a structure the file declares): ktime_to_ns() of a
//  u64 or another unsigned value converts it to s64, and a comparison of
//  the unsigned value itself would be unsigned.  The argument must be a
//  name, a field, an element or a call, so that no operator of it meets the
//  comparison's.  Values passed to functions or printed keep ktime_to_ns()
//  (an s64 there too, but not a comparison), as does ktime_to_ns()'s own
//  definition.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 4.10 * (a ktime_t is compared as a number: it was a union until 4.10)
// Removed: -
// Sites: independent
// Subject: compare the ktime_t directly instead of its ktime_to_ns()
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_to_ns
// Prefilter-regex: ktime_to_ns\s*\([^;]*\)\s*(?:[<>]=?|[!=]=)|(?:[<>]=?|[!=]=)\s*ktime_to_ns\s*\(

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

REPORT = "WARNING: ktime_to_ns() of a ktime_t in a comparison: compare the ktime_t itself"

def atom(text):
    """No operator outside brackets: it can stand as a comparison's operand."""
    depth, outside = 0, []
    for ch in text:
        depth += ch in "(["
        depth -= ch in ")]"
        if depth == 0 and ch not in ")]":
            outside.append(ch)
    rest = "".join(outside).replace("->", ".")
    return not re.search(r"[-+*/%<>&|^?!~=,]", rest)

// Comparisons of two ktime_to_ns() calls: both sides change or neither (an
// argument of unknown type keeps its side, and then the other keeps its own).
@paired@
expression E1, E2;
binary operator cmp = {<, >, <=, >=, ==, !=};
position p1, p2;
@@
 ktime_to_ns@p1(E1) cmp ktime_to_ns@p2(E2)

// Rewrite: ktime_to_ns(t) compared -> t compared
//  ktime_to_ns() returns its ktime_t argument as the s64 it is, so a
//  comparison of ktime_to_ns(t) is the same comparison of t: the same value
//  of the same type on either side.
@compare depends on patch@
identifier fn != ktime_to_ns;
ktime_t kt_arg : script:python() { atom(kt_arg) };
ktime_t kt_arg2 : script:python() { atom(kt_arg2) };
binary operator cmp = {<, >, <=, >=, ==, !=};
expression cmp_with;
position p != {paired.p1, paired.p2};
@@
fn(...) {
<+...
(
- ktime_to_ns(kt_arg) cmp ktime_to_ns(kt_arg2)
+ kt_arg cmp kt_arg2
|
- ktime_to_ns@p(kt_arg)
+ kt_arg
  cmp cmp_with
|
  cmp_with cmp
- ktime_to_ns@p(kt_arg)
+ kt_arg
)
...+>
}

@depends on context@
ktime_t kt_arg : script:python() { atom(kt_arg) };
ktime_t kt_arg2 : script:python() { atom(kt_arg2) };
binary operator cmp = {<, >, <=, >=, ==, !=};
expression cmp_with;
position p != {paired.p1, paired.p2};
@@
(
* ktime_to_ns(kt_arg) cmp ktime_to_ns(kt_arg2)
|
* ktime_to_ns@p(kt_arg) cmp cmp_with
|
  cmp_with cmp
* ktime_to_ns@p(kt_arg)
)

// The conversions in a comparison: both sides, left alone, right alone
// (three rules: a disjunction would find only the first of two).
@found_pair depends on report || org@
ktime_t kt_arg : script:python() { atom(kt_arg) };
ktime_t kt_arg2 : script:python() { atom(kt_arg2) };
binary operator cmp = {<, >, <=, >=, ==, !=};
position p1, p2;
@@
 ktime_to_ns@p1(kt_arg) cmp ktime_to_ns@p2(kt_arg2)

@found_left depends on report || org@
ktime_t kt_arg : script:python() { atom(kt_arg) };
binary operator cmp = {<, >, <=, >=, ==, !=};
expression cmp_with;
position p != {paired.p1, paired.p2};
@@
 ktime_to_ns@p(kt_arg) cmp cmp_with

@found_right depends on report || org@
ktime_t kt_arg : script:python() { atom(kt_arg) };
binary operator cmp = {<, >, <=, >=, ==, !=};
expression cmp_with;
position p != {paired.p1, paired.p2};
@@
  cmp_with cmp
  ktime_to_ns@p(kt_arg)

@script:python depends on report@
p1 << found_pair.p1;
p2 << found_pair.p2;
@@
coccilib.report.print_report(p1[0], REPORT)
coccilib.report.print_report(p2[0], REPORT)

@script:python depends on report@
p << found_left.p;
@@
coccilib.report.print_report(p[0], REPORT)

@script:python depends on report@
p << found_right.p;
@@
coccilib.report.print_report(p[0], REPORT)

@script:python depends on org@
p1 << found_pair.p1;
p2 << found_pair.p2;
@@
coccilib.org.print_todo(p1[0], REPORT)
coccilib.org.print_todo(p2[0], REPORT)

@script:python depends on org@
p << found_left.p;
@@
coccilib.org.print_todo(p[0], REPORT)

@script:python depends on org@
p << found_right.p;
@@
coccilib.org.print_todo(p[0], REPORT)
