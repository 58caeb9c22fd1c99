// SPDX-License-Identifier: GPL-2.0-only
/// Move the timekeeping core from struct timespec to struct timespec64, as
/// Linux 3.17 did, keeping the struct timespec interface the rest of the
/// kernel calls.
///
/// struct timespec keeps seconds in a long: on 32-bit machines the core's
/// own clock state overflows in January 2038.  In the core's files every
/// struct timespec field, file-scope static, local, and parameter or
/// return value of a static function becomes a struct timespec64.  A
/// function other files call keeps its signature: its body moves to a
/// static <name>64() working on struct timespec64, and the old name becomes
/// a thin wrapper converting with timespec_to_timespec64() and
/// timespec64_to_timespec().  core_uses.cocci then moves the helpers and
/// calls over to the 64-bit forms.
//
// Confidence: Moderate
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Wrapped: one struct timespec * out-parameter (void or a value
//  returned), one const struct timespec * in-parameter (a value returned),
//  or a struct timespec returned with no parameter.  A function with any
//  other signature, or whose <name>64 already exists, is left as it is
//  (and so is everything it is given).  A local whose address or value
//  goes to a function that keeps struct timespec (read_persistent_clock(),
//  say) stays, and core_uses.cocci converts where it meets converted
//  values.  Declarations of several variables at once cannot be rewritten
//  by spatch: they are listed as left to convert by hand (// Leftover-
//  regex).  Applies to the core's own files only, never to out-of-tree code.
// Scope: kernel/time/ kernel/timekeeping.c kernel/hrtimer.c kernel/time.c
// Out-of-tree: no
// Introduced: 3.17 timespec64, 3.17 timespec64_to_timespec, 3.17 timespec_to_timespec64
// Removed: 5.6 timespec
// Subject: move the timekeeping core to struct timespec64
// Options: --no-includes --include-headers --max-width 100
// Keywords: timespec, timespec64, timekeeping, y2038
// Prefilter: timespec
// Prefilter-regex: \bstruct\s+timespec\b(?!64)
// Leftover-regex: ^\s*(static\s+)?struct\s+timespec\s+\**\w+\s*,
// Lists: Functions that keep their struct timespec signature as thin wrappers of a static timespec64 twin: ^static [^(\n]*?\b(\w+)64\((?:(?:const )?struct timespec64 \*\w+|void)\)$

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
HELPERS = {"timespec_add_ns", "timespec_to_ns", "timespec_valid", "timespec_valid_strict",
           "set_normalized_timespec", "timespec_compare", "timespec_equal", "timespec_add",
           "timespec_sub", "timespec_to_ktime", "ktime_to_timespec", "ns_to_timespec"}
statics = set()
defined = set()
shapes = {}  # function -> the wrapper it gets
escaping = set()
uses = {}     # function -> positions of its struct timespec * parameter
writes = {}   # function -> positions where it is written before it is read
passes = {}   # function -> {position: the function it passes the parameter to}
reads_first = set()

def twin(fn):
    return fn + "64"

def weak(p):
    """A weak definition is a default an architecture replaces: no twin."""
    with open(p.file, errors="replace") as f:
        header = f.readlines()[int(p.line) - 1]
    return "weak" in header

def where(p):
    return (int(p.line), int(p.column))

def wrappable(fn, p):
    return fn not in statics and twin(fn) not in defined and not weak(p)

@defs@
identifier fn;
type T;
@@
T fn(...) { ... }

@script:python@
fn << defs.fn;
@@
defined.add(fn)

@stat@
identifier fn;
type T;
@@
static T fn(...) { ... }

@script:python@
fn << stat.fn;
@@
statics.add(fn)

// Does the body read the pointed-to value before it writes it?  Only then
// does a wrapper convert the caller's value in as well as out.
@param_use disable optional_qualifier@
identifier fn, ts;
type T;
position p;
@@
T fn(struct timespec *ts) { <... ts@p ...> }

@script:python@
fn << param_use.fn;
p << param_use.p;
@@
uses.setdefault(fn, set()).update(where(q) for q in p)

@param_write disable optional_qualifier@
identifier fn, ts;
type T;
expression E1, E2;
position p;
@@
T fn(struct timespec *ts) {
<...
(
 ts@p->tv_sec = E1
|
 ts@p->tv_nsec = E1
|
 *ts@p = E1
|
 set_normalized_timespec(ts@p, E1, E2)
)
...>
}

@script:python@
fn << param_write.fn;
p << param_write.p;
@@
writes.setdefault(fn, set()).update(where(q) for q in p)

@param_pass disable optional_qualifier@
identifier fn, ts, g;
type T;
position p;
@@
T fn(struct timespec *ts) { <... g(..., ts@p, ...) ...> }

@script:python@
fn << param_pass.fn;
g << param_pass.g;
p << param_pass.p;
@@
for q in p:
    passes.setdefault(fn, {})[where(q)] = g

@script:python@
@@
def written_first(fn, out_only):
    first = min(uses[fn])
    if len([u for u in uses[fn] if u[0] == first[0]]) > 1:
        return False  # the same line reads it too: *ts = f(*ts)
    return first in writes.get(fn, set()) or passes.get(fn, {}).get(first) in out_only

out_only = set()
grown = True
while grown:
    grown = False
    for fn in uses:
        if fn not in out_only and written_first(fn, out_only):
            out_only.add(fn)
            grown = True
reads_first.update(set(uses) - out_only)

// The shapes a thin wrapper keeps, found on the code as it is.  (Sets,
// not rejected matches: a rejected match would take other rules' with it.)
@void_ptr disable optional_qualifier@
identifier fn, ts;
position p;
@@
void fn@p(struct timespec *ts) { ... }

@script:python@
fn << void_ptr.fn;
p << void_ptr.p;
@@
if wrappable(fn, p[0]):
    shapes[fn] = "inout_void" if fn in reads_first else "out_void"

@value_ptr disable optional_qualifier@
identifier fn, ts;
type T;
position p;
@@
T fn@p(struct timespec *ts) { ... }

@script:python@
fn << value_ptr.fn;
T << value_ptr.T;
p << value_ptr.p;
@@
if T != "void" and wrappable(fn, p[0]):
    shapes[fn] = "inout_value" if fn in reads_first else "out_value"

@const_ptr@
identifier fn, ts;
type T;
position p;
@@
T fn@p(const struct timespec *ts) { ... }

@script:python@
fn << const_ptr.fn;
T << const_ptr.T;
p << const_ptr.p;
@@
if T != "void" and wrappable(fn, p[0]):
    shapes[fn] = "in_value"

@returns_value@
identifier fn;
position p;
@@
struct timespec fn@p(void) { ... }

@script:python@
fn << returns_value.fn;
p << returns_value.p;
@@
if wrappable(fn, p[0]):
    shapes[fn] = "returned"

// Locals that go to a function keeping struct timespec stay.
@passed@
identifier fn, x, g;
type T;
@@
T fn(...) {
  ... when any
  struct timespec x;
  ... when any
(
  g(..., &x, ...)
|
  g(..., x, ...)
)
  ... when any
}

@script:python@
fn << passed.fn;
x << passed.x;
g << passed.g;
@@
if g not in HELPERS and g not in shapes and g not in statics:
    escaping.add((fn, x))

@wrap_out_void depends on patch disable optional_qualifier@
identifier wfn : script:python() { shapes.get(wfn) == "out_void" };
identifier ts;
fresh identifier wfn64 = wfn ## "64";
@@
- void wfn(struct timespec *ts)
+ static void wfn64(struct timespec64 *ts)
  { ... }
+ void wfn(struct timespec *ts)
+ {
+	struct timespec64 ts64;
+
+	wfn64(&ts64);
+	*ts = timespec64_to_timespec(ts64);
+ }

@wrap_inout_void depends on patch disable optional_qualifier@
identifier wfn : script:python() { shapes.get(wfn) == "inout_void" };
identifier ts;
fresh identifier wfn64 = wfn ## "64";
@@
- void wfn(struct timespec *ts)
+ static void wfn64(struct timespec64 *ts)
  { ... }
+ void wfn(struct timespec *ts)
+ {
+	struct timespec64 ts64 = timespec_to_timespec64(*ts);
+
+	wfn64(&ts64);
+	*ts = timespec64_to_timespec(ts64);
+ }

@wrap_inout_value depends on patch disable optional_qualifier@
identifier wfn : script:python() { shapes.get(wfn) == "inout_value" };
identifier ts;
type T;
fresh identifier wfn64 = wfn ## "64";
@@
- T wfn(struct timespec *ts)
+ static T wfn64(struct timespec64 *ts)
  { ... }
+ T wfn(struct timespec *ts)
+ {
+	struct timespec64 ts64 = timespec_to_timespec64(*ts);
+	T ret = wfn64(&ts64);
+
+	*ts = timespec64_to_timespec(ts64);
+	return ret;
+ }

@wrap_out_value depends on patch disable optional_qualifier@
identifier wfn : script:python() { shapes.get(wfn) == "out_value" };
identifier ts;
type T;
fresh identifier wfn64 = wfn ## "64";
@@
- T wfn(struct timespec *ts)
+ static T wfn64(struct timespec64 *ts)
  { ... }
+ T wfn(struct timespec *ts)
+ {
+	struct timespec64 ts64;
+	T ret = wfn64(&ts64);
+
+	*ts = timespec64_to_timespec(ts64);
+	return ret;
+ }

@wrap_in_value depends on patch disable optional_qualifier@
identifier wfn : script:python() { shapes.get(wfn) == "in_value" };
identifier ts;
type T;
fresh identifier wfn64 = wfn ## "64";
@@
- T wfn(const struct timespec *ts)
+ static T wfn64(const struct timespec64 *ts)
  { ... }
+ T wfn(const struct timespec *ts)
+ {
+	struct timespec64 ts64 = timespec_to_timespec64(*ts);
+
+	return wfn64(&ts64);
+ }

@wrap_returned depends on patch disable optional_qualifier@
identifier wfn : script:python() { shapes.get(wfn) == "returned" };
fresh identifier wfn64 = wfn ## "64";
@@
- struct timespec wfn(void)
+ static struct timespec64 wfn64(void)
  { ... }
+ struct timespec wfn(void)
+ {
+	return timespec64_to_timespec(wfn64());
+ }

// Static functions: every caller is in this file.
@static_const_param depends on patch disable optional_qualifier@
identifier sfn : script:python() { sfn in statics };
identifier p;
@@
 sfn(...,
- const struct timespec *p
+ const struct timespec64 *p
 ,...) { ... }

@static_ptr_param depends on patch disable optional_qualifier@
identifier sfn : script:python() { sfn in statics };
identifier p;
@@
 sfn(...,
- struct timespec *p
+ struct timespec64 *p
 ,...) { ... }

@static_value_param depends on patch@
identifier sfn : script:python() { sfn in statics };
identifier p;
@@
 sfn(...,
- struct timespec p
+ struct timespec64 p
 ,...) { ... }

@static_return depends on patch@
identifier sfn : script:python() { sfn in statics };
@@
- struct timespec
+ struct timespec64
  sfn(...) { ... }

@file_statics depends on patch@
identifier x;
@@
- static struct timespec x;
+ static struct timespec64 x;

@fields depends on patch@
identifier S, f;
@@
 struct S { ...
- struct timespec f;
+ struct timespec64 f;
 ... };

@decl_local@
identifier fn, x;
type T;
@@
T fn(...) {
  ... when any
  struct timespec x;
  ... when any
}

@script:python@
fn << decl_local.fn;
x << decl_local.x;
@@
# a wrapped function's body is its twin's now
if (fn, x) in escaping or (fn.endswith("64") and (fn[:-2], x) in escaping):
    cocci.include_match(False)

@locals depends on patch@
identifier decl_local.fn, decl_local.x;
type T;
@@
T fn(...) {
  ... when any
- struct timespec x;
+ struct timespec64 x;
  ... when any
}



@unwrapped depends on report || org@
identifier fn, ts;
type T;
position p;
@@
T fn@p(..., struct timespec *ts, ...) { ... }

@script:python depends on report@
fn << unwrapped.fn;
p << unwrapped.p;
@@
if fn not in shapes and fn not in statics and twin(fn) not in defined:
    coccilib.report.print_report(p[0], "WARNING: %s() keeps struct timespec and has no timespec64 twin: give it one by hand" % fn)

@script:python depends on org@
fn << unwrapped.fn;
p << unwrapped.p;
@@
if fn not in shapes and fn not in statics and twin(fn) not in defined:
    coccilib.org.print_todo(p[0], "%s() keeps struct timespec and has no timespec64 twin" % fn)
