// SPDX-License-Identifier: GPL-2.0-only
/// Use 0 for a zero ktime_t instead of a local that only holds it.
///
/// A ktime_t is a plain s64 count of nanoseconds (since Linux 4.10 on every
/// architecture), so a local initialised to 0 (or assigned 0 once) that is
/// never assigned again and whose address is never taken only names the
/// value 0: assigning it assigns 0, and comparing a ktime_t with it compares
/// that value with 0.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: ktime_compare(a, b) returns -1, 0 or 1: it is 0 exactly when
//  a == b, so !ktime_compare(a, zero) and ktime_compare(a, zero) == 0 are
//  !a, and the condition of an if that is ktime_compare(a, zero) or
//  ktime_compare(a, zero) != 0 is a (its arguments in either order).  An
//  ordering test (ktime_compare(a, zero) < 0, > 0, <= 0, >= 0) is a compared
//  with 0 only where a is a local or parameter declared ktime_t in the
//  function: ktime_compare() converts its arguments to s64, and without the
//  headers the type of anything else is not known, so a < 0 could differ
//  from it for an unsigned value; such a test keeps the local.  A local
//  declared without a value is taken when it is assigned 0 once before any
//  other use.  Every other use of the local (another statement, its
//  address, a second assignment to it, a same-named variable elsewhere in
//  the function) keeps it and all its uses.  It runs after ktime_set, which
//  writes ktime_set(0, 0) as 0.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 4.10 * (a ktime_t is tested and assigned as a number: it was a union until 4.10)
// Removed: -
// Subject: use 0 for a zero ktime_t instead of a local holding it
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_compare
// Prefilter-regex: \bktime_t\s+(?:\w+\s*,\s*)*(\w+)\s*(?:=\s*0\s*[;,]|;[\s\S]*?\b\1\s*=\s*0\s*;)[\s\S]*?(?:=\s*\1\s*;|ktime_compare\s*\([^;]*\b\1\b)

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# the place of a zero local's declaration -> the places it is named after it
named = {}
# ... -> the places of those uses that are the value 0 or an equality test
zero_uses = {}
# the place of a declaration without a value -> the places 0 is assigned to it
assignments = {}


def place(p):
    return (p[0].file, p[0].line, p[0].column)


def only_zero(pd):
    """Every use of the local declared at pd is one of the shapes below."""
    key = place(pd)
    return (key in named and named[key] == zero_uses.get(key, set())
            and len(assignments.get(key, ())) <= 1)


def atom(text):
    """No operator outside brackets: '!' can go in front without them."""
    depth, outside = 0, []
    for ch in text:
        depth += ch in "(["
        depth -= ch in ")]"
        if depth == 0 and ch not in ")]":
            outside.append(ch)
    rest = "".join(outside).replace("->", ".")
    return not re.search(r"[-+*/%<>&|^?!~=,]", rest)

// The ktime_t locals initialised to 0 or assigned 0 before any other use.
@zero_local@
identifier fn, zero_var;
position pd;
@@
fn(...) {
  ... when any
(
  ktime_t zero_var@pd = 0;
|
  const ktime_t zero_var@pd = 0;
|
  ktime_t zero_var@pd;
  ... when != zero_var
  zero_var = 0;
)
  ... when any
}

// The assignment that gives such a local its 0: a use of the value 0 (on
// two paths, it is two assignments, and the local stays).
@assigned_zero@
identifier zero_local.fn, zero_local.zero_var;
position zero_local.pd, pa;
@@
fn(...) {
  ... when any
  ktime_t zero_var@pd;
  ... when != zero_var
  zero_var@pa = 0;
  ... when any
}

@script:python@
pd << zero_local.pd;
pa << assigned_zero.pa;
@@
assignments.setdefault(place(pd), set()).update((q.file, q.line, q.column) for q in pa)
zero_uses.setdefault(place(pd), set()).update((q.file, q.line, q.column) for q in pa)

@uses@
identifier zero_local.fn, zero_local.zero_var;
position p;
@@
fn(...) {
<+...
 zero_var@p
...+>
}

@script:python@
pd << zero_local.pd;
p << uses.p;
@@
named.setdefault(place(pd), set()).update((q.file, q.line, q.column) for q in p)

@value_uses@
identifier zero_local.fn, zero_local.zero_var;
expression E;
position p;
@@
fn(...) {
<+...
(
 E = zero_var@p
|
 !ktime_compare(E, zero_var@p)
|
 !ktime_compare(zero_var@p, E)
|
 ktime_compare(E, zero_var@p) == 0
|
 ktime_compare(zero_var@p, E) == 0
)
...+>
}

@script:python@
pd << zero_local.pd;
p << value_uses.p;
@@
zero_uses.setdefault(place(pd), set()).update((q.file, q.line, q.column) for q in p)

@condition_uses@
identifier zero_local.fn, zero_local.zero_var;
expression E;
statement S1, S2;
position p;
@@
fn(...) {
<+...
(
 if (ktime_compare(E, zero_var@p)) S1 else S2
|
 if (ktime_compare(zero_var@p, E)) S1 else S2
|
 if (ktime_compare(E, zero_var@p) != 0) S1 else S2
|
 if (ktime_compare(zero_var@p, E) != 0) S1 else S2
|
 if (ktime_compare(E, zero_var@p)) S1
|
 if (ktime_compare(zero_var@p, E)) S1
|
 if (ktime_compare(E, zero_var@p) != 0) S1
|
 if (ktime_compare(zero_var@p, E) != 0) S1
)
...+>
}

@script:python@
pd << zero_local.pd;
p << condition_uses.p;
@@
zero_uses.setdefault(place(pd), set()).update((q.file, q.line, q.column) for q in p)

@ordering_uses@
identifier zero_local.fn, zero_local.zero_var;
idexpression ktime_t E;
binary operator order = {<, >, <=, >=};
position p;
@@
fn(...) {
<+...
(
 ktime_compare(E, zero_var@p) order 0
|
 ktime_compare(zero_var@p, E) order 0
)
...+>
}

@script:python@
pd << zero_local.pd;
p << ordering_uses.p;
@@
zero_uses.setdefault(place(pd), set()).update((q.file, q.line, q.column) for q in p)

// The locals to replace, by name: a transformation re-parses the function
// it changed, so positions do not carry over to the rules after it.
@script:python replaced@
fn << zero_local.fn;
zero_var << zero_local.zero_var;
pd << zero_local.pd;
zero_fn;
zero_name;
@@
if only_zero(pd):
    coccinelle.zero_fn = fn
    coccinelle.zero_name = zero_var
else:
    cocci.include_match(False)

// Rewrite: ktime_t zero = 0; ... x = zero -> x = 0
//  A ktime_t local set to 0, never assigned again and whose address is never
//  taken, only holds the value 0.  The local goes, and 0 is assigned where
//  it was.
@assign_zero depends on patch@
identifier replaced.zero_fn, replaced.zero_name;
expression E;
@@
zero_fn(...) {
<+...
 E =
- zero_name
+ 0
...+>
}

// Rewrite: ktime_compare(x, zero) tested for equality -> x, !x
//  ktime_compare() returns 0 exactly when its two values are equal, so
//  comparing a ktime_t with such a zero local and testing the result for 0
//  (or for not 0) tests the ktime_t itself for 0.
@test_zero depends on patch@
identifier replaced.zero_fn, replaced.zero_name;
expression simple : script:python() { atom(simple) };
expression E;
statement S1, S2;
@@
zero_fn(...) {
<+...
(
 if (
(
- ktime_compare(E, zero_name)
|
- ktime_compare(zero_name, E)
|
- ktime_compare(E, zero_name) != 0
|
- ktime_compare(zero_name, E) != 0
)
+ E
 ) S1 else S2
|
 if (
(
- ktime_compare(E, zero_name)
|
- ktime_compare(zero_name, E)
|
- ktime_compare(E, zero_name) != 0
|
- ktime_compare(zero_name, E) != 0
)
+ E
 ) S1
|
- !ktime_compare(simple, zero_name)
+ !simple
|
- !ktime_compare(zero_name, simple)
+ !simple
|
- ktime_compare(simple, zero_name) == 0
+ !simple
|
- ktime_compare(zero_name, simple) == 0
+ !simple
|
- !ktime_compare(E, zero_name)
+ !(E)
|
- !ktime_compare(zero_name, E)
+ !(E)
|
- ktime_compare(E, zero_name) == 0
+ !(E)
|
- ktime_compare(zero_name, E) == 0
+ !(E)
)
...+>
}

// Rewrite: ktime_compare(zero, x) ordered against 0 -> x compared with 0
//  ktime_compare(a, b) is below, equal to or above 0 as a is below, equal
//  to or above b.  With one of them the zero local and the other a ktime_t,
//  testing its sign compares that ktime_t with 0 directly:
//  ktime_compare(zero, t) >= 0 is t <= 0, ktime_compare(t, zero) > 0 is
//  t > 0.
@order_zero depends on patch@
identifier replaced.zero_fn, replaced.zero_name;
idexpression ktime_t E;
@@
zero_fn(...) {
<+...
(
- ktime_compare(E, zero_name) < 0
+ E < 0
|
- ktime_compare(E, zero_name) > 0
+ E > 0
|
- ktime_compare(E, zero_name) <= 0
+ E <= 0
|
- ktime_compare(E, zero_name) >= 0
+ E >= 0
|
- ktime_compare(zero_name, E) < 0
+ E > 0
|
- ktime_compare(zero_name, E) > 0
+ E < 0
|
- ktime_compare(zero_name, E) <= 0
+ E >= 0
|
- ktime_compare(zero_name, E) >= 0
+ E <= 0
)
...+>
}

// Rewrite: ktime_t zero = 0; ... x = zero -> x = 0
//  A ktime_t local set to 0, never assigned again and whose address is never
//  taken, only holds the value 0.  The local goes, and 0 is assigned where
//  it was.
@drop_local depends on patch@
identifier replaced.zero_fn, replaced.zero_name;
@@
zero_fn(...) {
  ... when any
(
- ktime_t zero_name = 0;
|
- const ktime_t zero_name = 0;
|
- ktime_t zero_name;
  ... when != zero_name
- zero_name = 0;
)
  ... when any
}

@found depends on context || report || org@
identifier zero_local.zero_var;
position pd : script:python() { only_zero(pd) };
@@
(
* ktime_t zero_var@pd = 0;
|
* const ktime_t zero_var@pd = 0;
|
* ktime_t zero_var@pd;
)

@script:python depends on report@
pd << found.pd;
zero_var << zero_local.zero_var;
@@
coccilib.report.print_report(pd[0], "WARNING: %s only holds 0: use 0" % zero_var)

@script:python depends on org@
pd << found.pd;
zero_var << zero_local.zero_var;
@@
coccilib.org.print_todo(pd[0], "%s only holds 0: use 0" % zero_var)
