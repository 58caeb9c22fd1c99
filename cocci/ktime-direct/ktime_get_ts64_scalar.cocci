// SPDX-License-Identifier: GPL-2.0-only
/// Read the clock with ktime_get*_ns()/ktime_get*_seconds() instead of
/// through a timespec64.
///
/// A struct timespec64 local that is filled by a ktime_get*_ts64()
/// accessor and whose only use, in the very next statement, is its
/// conversion to nanoseconds (timespec64_to_ns()) or its tv_sec can go:
/// the clock's _ns() and _seconds() accessors return the value directly.
//
// Confidence: Moderate
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: ktime_get*_seconds() read the coarse second counter, which
//  can lag the tv_sec of a fresh ktime_get*_ts64() by up to one tick just
//  after a second boundary; that is why the confidence is moderate.  From
//  a ktime_get_coarse*_ts64() they give the same second: both read the
//  timekeeper state of the last tick.
//  CLOCK_MONOTONIC_RAW has no _seconds() accessor, so its tv_sec stays.
//  The value changes where it is returned, assigned or passed whole to a
//  function; not as an argument of min()/max()/clamp() and the other
//  type-checking macros, of an upper-case macro (which may evaluate it more
//  than once) or of a printing function (variadic: the u64 of the _ns()
//  accessors would meet a format written for s64).
//  The fill and the conversion may sit in a branch; any other use of the
//  local, on any path, keeps it.  Only files where a fill is followed,
//  comments and closing braces aside, by a statement that returns,
//  assigns or passes the conversion, and does not name the local in the
//  statement after a returned or assigned one, reach spatch
//  (// Prefilter-regex).
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 ktime_get_ns, 3.17 ktime_get_real_ns, 3.17 ktime_get_raw_ns, 3.19 ktime_get_seconds, 3.19 ktime_get_real_seconds, 4.18 ktime_get_boottime_seconds, 4.18 ktime_get_clocktai_seconds, 5.3 ktime_get_boottime_ns, 5.3 ktime_get_clocktai_ns, 5.3 ktime_get_coarse_ns, 5.3 ktime_get_coarse_real_ns, 5.3 ktime_get_coarse_boottime_ns, 5.3 ktime_get_coarse_clocktai_ns
// Removed: -
// Subject: read the clock directly instead of through a timespec64
// Options: --no-includes --include-headers --max-width 100
// Keywords: ktime_get_real_ts64, timespec64_to_ns, ktime_get_ns
// Prefilter-regex: ktime_get\w*_ts64\(\s*&\s*(\w+)\s*\)\s*;(\s|\}|/\*([^*]|\*(?!/))*\*/|//[^\n]*)*(return\b|[^;{}]*?=|[^;{}]*?\w\s*\(([^;{}]*?,)?)[\s(]*(timespec64_to_ns\(\s*&\s*\1\s*\)|\b\1\s*\.\s*tv_sec\b)(?!\s*;[^;{}]*\b\1\b)

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
# (file, function, local) -> the places the local is named: its fill and its uses
named = {}
# the place of a fill's local -> its (file, function, local)
fills = {}


def place(p):
    return (p[0].file, p[0].line, p[0].column)


def alone(q):
    """The local filled at q is named twice: the fill and one conversion."""
    return len(named.get(fills.get(place(q)), ())) <= 2
SECONDS = {
    "ktime_get_real_ts64": "ktime_get_real_seconds",
    "ktime_get_coarse_real_ts64": "ktime_get_real_seconds",
    "ktime_get_ts64": "ktime_get_seconds",
    "ktime_get_coarse_ts64": "ktime_get_seconds",
    "ktime_get_boottime_ts64": "ktime_get_boottime_seconds",
    "ktime_get_coarse_boottime_ts64": "ktime_get_boottime_seconds",
    "ktime_get_clocktai_ts64": "ktime_get_clocktai_seconds",
    "ktime_get_coarse_clocktai_ts64": "ktime_get_clocktai_seconds",
}

// Every timespec64 local a clock accessor fills, and (below) the places it is named.
@other_use exists@
identifier fn != {ktime_get_ns, ktime_get_real_ns, ktime_get_boottime_ns,
                  ktime_get_clocktai_ns, ktime_get_raw_ns, ktime_get_coarse_ns,
                  ktime_get_coarse_real_ns, ktime_get_coarse_boottime_ns,
                  ktime_get_coarse_clocktai_ns, ktime_get_seconds,
                  ktime_get_real_seconds, ktime_get_boottime_seconds,
                  ktime_get_clocktai_seconds};
identifier ts;
identifier ts64_fn = {ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                     ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                     ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                     ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
position p1;
@@
fn(...) {
  ... when any
  struct timespec64 ts;
  ... when any
  ts64_fn(&ts@p1);
  ... when any
}

// Every place a name of such a local is used, in any function: the script
// keeps those of the fill's function (a position's current_element).  Read
// as fn(...) { <+... ts@p ...+> } this took minutes on a 300-line function
// of loops and gotos (its paths), past spatch's --timeout.
@counted@
identifier other_use.ts;
position p;
@@
ts@p

@script:python@
fn << other_use.fn;
ts << other_use.ts;
p1 << other_use.p1;
p << counted.p;
@@
# called once per match, each with some of the places: gathered here
fills[place(p1)] = (p1[0].file, fn, ts)  # each file of a batch: its own names
named.setdefault(fills[place(p1)], set()).update((q.file, q.line, q.column) for q in p if q.current_element == fn and q.file == p1[0].file)

// Rewrite: timespec64_to_ns() of a fresh ktime_get*_ts64() -> ktime_get*_ns()
//  The clock's _ns() accessor returns the reading the _ts64() accessor gave,
//  in nanoseconds as timespec64_to_ns() computed them; its u64 and the s64
//  of timespec64_to_ns() hold the same bits, and where the value is used
//  whole, as here, both convert alike.
@to_ns depends on patch exists@
identifier other_use.fn;
identifier other_use.ts;
position q : script:python() { alone(q) };
identifier ts64_fn = {ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                     ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                     ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                     ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
fresh identifier ns_fn = script:python(ts64_fn) { ts64_fn.replace("_ts64", "_ns") };
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- ts64_fn(&ts@q);
(
- return timespec64_to_ns(&ts);
+ return ns_fn();
|
- E = timespec64_to_ns(&ts);
+ E = ns_fn();
)
  ... when != ts
}

// Rewrite: timespec64_to_ns() of a fresh ktime_get*_ts64() -> ktime_get*_ns()
//  The clock's _ns() accessor returns the reading the _ts64() accessor gave,
//  in nanoseconds as timespec64_to_ns() computed them; its u64 and the s64
//  of timespec64_to_ns() hold the same bits, and where the value is used
//  whole, as here, both convert alike.
@to_ns_arg depends on patch exists@
identifier other_use.fn;
identifier other_use.ts;
position q : script:python() { alone(q) };
identifier ts64_fn = {ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                     ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                     ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                     ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
fresh identifier ns_fn = script:python(ts64_fn) { ts64_fn.replace("_ts64", "_ns") };
identifier f !~ "^(min|max|min3|max3|min_not_zero|clamp|clamp_t|clamp_val|min_t|max_t|abs|DIV_ROUND_CLOSEST|DIV_ROUND_UP|[A-Z][A-Z0-9_]*|printk|[A-Za-z0-9_]*printf|pr_[A-Za-z0-9_]+|dev_[A-Za-z0-9_]+|netdev_[A-Za-z0-9_]+|trace_[A-Za-z0-9_]+|seq_[A-Za-z0-9_]+|[A-Za-z0-9_]+_(dbg|debug|info|notice|warn|err|log))$";
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- ts64_fn(&ts@q);
(
 f(...,
- timespec64_to_ns(&ts)
+ ns_fn()
  ,...);
|
 E = f(...,
- timespec64_to_ns(&ts)
+ ns_fn()
  ,...);
|
 return f(...,
- timespec64_to_ns(&ts)
+ ns_fn()
  ,...);
)
  ... when != ts
}

// Rewrite: tv_sec of a fresh ktime_get*_ts64() -> ktime_get*_seconds()
//  The clock's _seconds() accessor returns its whole seconds as a time64_t,
//  the type of tv_sec.  It reads the second the timekeeper updates at each
//  tick, so just after a second boundary it can trail the tv_sec of a fresh
//  _ts64() reading by one, for less than a tick.
@to_seconds depends on patch exists@
identifier other_use.fn;
identifier other_use.ts;
position q : script:python() { alone(q) };
identifier ts64_fn = {ktime_get_ts64, ktime_get_real_ts64,
                     ktime_get_boottime_ts64, ktime_get_clocktai_ts64};
fresh identifier seconds_fn = script:python(ts64_fn) { SECONDS[ts64_fn] };
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- ts64_fn(&ts@q);
(
- return ts.tv_sec;
+ return seconds_fn();
|
- E = ts.tv_sec;
+ E = seconds_fn();
)
  ... when != ts
}

// Rewrite: tv_sec of a ktime_get_coarse*_ts64() -> ktime_get*_seconds()
//  The clock's _seconds() accessor returns its whole seconds as a time64_t,
//  the type of tv_sec.  It reads the timekeeper state of the last tick, as
//  the coarse _ts64() accessor does: the same second.
@to_coarse_seconds depends on patch exists@
identifier other_use.fn;
identifier other_use.ts;
position q : script:python() { alone(q) };
identifier ts64_fn = {ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                     ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
fresh identifier seconds_fn = script:python(ts64_fn) { SECONDS[ts64_fn] };
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- ts64_fn(&ts@q);
(
- return ts.tv_sec;
+ return seconds_fn();
|
- E = ts.tv_sec;
+ E = seconds_fn();
)
  ... when != ts
}

// Rewrite: tv_sec of a fresh ktime_get*_ts64() -> ktime_get*_seconds()
//  The clock's _seconds() accessor returns its whole seconds as a time64_t,
//  the type of tv_sec.  It reads the second the timekeeper updates at each
//  tick, so just after a second boundary it can trail the tv_sec of a fresh
//  _ts64() reading by one, for less than a tick.
@to_seconds_arg depends on patch exists@
identifier other_use.fn;
identifier other_use.ts;
position q : script:python() { alone(q) };
identifier ts64_fn = {ktime_get_ts64, ktime_get_real_ts64,
                     ktime_get_boottime_ts64, ktime_get_clocktai_ts64};
fresh identifier seconds_fn = script:python(ts64_fn) { SECONDS[ts64_fn] };
identifier f !~ "^(min|max|min3|max3|min_not_zero|clamp|clamp_t|clamp_val|min_t|max_t|abs|DIV_ROUND_CLOSEST|DIV_ROUND_UP|[A-Z][A-Z0-9_]*|printk|[A-Za-z0-9_]*printf|pr_[A-Za-z0-9_]+|dev_[A-Za-z0-9_]+|netdev_[A-Za-z0-9_]+|trace_[A-Za-z0-9_]+|seq_[A-Za-z0-9_]+|[A-Za-z0-9_]+_(dbg|debug|info|notice|warn|err|log))$";
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- ts64_fn(&ts@q);
(
 f(...,
- ts.tv_sec
+ seconds_fn()
  ,...);
|
 E = f(...,
- ts.tv_sec
+ seconds_fn()
  ,...);
|
 return f(...,
- ts.tv_sec
+ seconds_fn()
  ,...);
)
  ... when != ts
}

// Rewrite: tv_sec of a ktime_get_coarse*_ts64() -> ktime_get*_seconds()
//  The clock's _seconds() accessor returns its whole seconds as a time64_t,
//  the type of tv_sec.  It reads the timekeeper state of the last tick, as
//  the coarse _ts64() accessor does: the same second.
@to_coarse_seconds_arg depends on patch exists@
identifier other_use.fn;
identifier other_use.ts;
position q : script:python() { alone(q) };
identifier ts64_fn = {ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                     ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
fresh identifier seconds_fn = script:python(ts64_fn) { SECONDS[ts64_fn] };
identifier f !~ "^(min|max|min3|max3|min_not_zero|clamp|clamp_t|clamp_val|min_t|max_t|abs|DIV_ROUND_CLOSEST|DIV_ROUND_UP|[A-Z][A-Z0-9_]*|printk|[A-Za-z0-9_]*printf|pr_[A-Za-z0-9_]+|dev_[A-Za-z0-9_]+|netdev_[A-Za-z0-9_]+|trace_[A-Za-z0-9_]+|seq_[A-Za-z0-9_]+|[A-Za-z0-9_]+_(dbg|debug|info|notice|warn|err|log))$";
expression E;
@@
fn(...) {
  ... when any
- struct timespec64 ts;
  ... when != ts
- ts64_fn(&ts@q);
(
 f(...,
- ts.tv_sec
+ seconds_fn()
  ,...);
|
 E = f(...,
- ts.tv_sec
+ seconds_fn()
  ,...);
|
 return f(...,
- ts.tv_sec
+ seconds_fn()
  ,...);
)
  ... when != ts
}

@found depends on context || report || org@
identifier ts;
identifier ts64_fn = {ktime_get_ts64, ktime_get_real_ts64, ktime_get_raw_ts64,
                     ktime_get_boottime_ts64, ktime_get_clocktai_ts64,
                     ktime_get_coarse_ts64, ktime_get_coarse_real_ts64,
                     ktime_get_coarse_boottime_ts64, ktime_get_coarse_clocktai_ts64};
position p;
@@
* ts64_fn@p(&ts);
(
* return timespec64_to_ns(&ts);
|
* return ts.tv_sec;
)

@script:python depends on report@
p << found.p;
ts64_fn << found.ts64_fn;
@@
coccilib.report.print_report(p[0], "WARNING: %s() only to convert the result: read nanoseconds or seconds directly" % ts64_fn)

@script:python depends on org@
p << found.p;
ts64_fn << found.ts64_fn;
@@
coccilib.org.print_todo(p[0], "%s() only to convert the result" % ts64_fn)
