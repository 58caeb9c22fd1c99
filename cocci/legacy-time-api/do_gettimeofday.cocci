// SPDX-License-Identifier: GPL-2.0-only
/// Replace do_gettimeofday() and its struct timeval local with
/// ktime_get_real_ts64() and a struct timespec64.
///
/// struct timeval keeps seconds in a long, which overflows on 32-bit
/// machines in January 2038; do_gettimeofday() was removed in Linux 5.0.
/// A local struct timeval filled by do_gettimeofday() becomes a struct
/// timespec64 filled by ktime_get_real_ts64(); tv_sec keeps its meaning
/// and tv_usec reads become tv_nsec / NSEC_PER_USEC (tv_usec / 1000
/// becomes tv_nsec / NSEC_PER_MSEC).
///
/// Only locals whose every use is do_gettimeofday(&tv) or a read of
/// tv.tv_sec / tv.tv_usec change.  A value that escapes (its address or the
/// whole structure passed on, copied to user space or into a wire or disk
/// format, fields written or addressed, tv_sec printed with a printk
/// format) is reported instead, because its layout is an ABI.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Variable names are kept.  do_gettimeofday() on a structure
//  field or through a pointer is reported, not changed.  Declarations
//  initialised by an expression, or with several variables (struct timeval
//  a, b;), are left alone: spatch cannot change the type of one declarator
//  of several.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.17 timespec64, 3.17 ktime_get_real_ts64 (a macro of getnstimeofday64 until 4.18)
// Removed: 5.0 do_gettimeofday, 5.6 timeval
// Subject: use ktime_get_real_ts64() instead of do_gettimeofday()
// Options: --no-includes --include-headers --max-width 100
// Keywords: do_gettimeofday, timeval, y2038

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
escaping = set()
converted = set()

// Only files that call the API are worth parsing (and spatch's --use-gitgrep knows it).
@uses_api@
@@
 do_gettimeofday(...)

@script:python new_file depends on uses_api@
@@
escaping.clear()
converted.clear()

// <+... ...+>: a declaration in a nested block counts too ("... when any"
// reaches only the function's own block).
@tv_local depends on uses_api@
identifier fn, tv;
@@
fn(...) {
<+...
  struct timeval tv;
...+>
}

// "struct timeval tv;" above also matches a declaration with an
// initializer: a brace list suits timespec64, an expression does not.
@value_init@
identifier tv_local.fn;
identifier tv_local.tv;
expression E;
@@
fn(...) {
<+...
  struct timeval tv = E;
...+>
}

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
_e << value_init.E;
@@
escaping.add((fn, tv))

// The rules below match anywhere and check the function in Python: a walk
// through a function body fails ("reachable by inconsistent control-flow
// paths") where an else exists only under a configuration.
@reads@
identifier tv_local.tv;
position p;
@@
(
 do_gettimeofday(&tv@p)
|
 tv@p.tv_sec
|
 tv@p.tv_usec
)

@other_use@
identifier tv_local.tv;
position q != reads.p;
@@
 tv@q

@written@
identifier tv_local.tv;
// any call given a string constant besides tv_sec is taken as printing it
// (a driver's logging macro): the format's %ld would no longer fit
identifier logger;
constant char[] fmt;
identifier print =~ "^(printk|pr_[a-z]+|dev_[a-z]+|netdev_[a-z]+|seq_printf|snprintf|sprintf|scnprintf|trace_printk)$";
identifier member = {tv_sec, tv_usec};
expression E;
assignment operator aop;
position w;
@@
(
 tv@w.member aop E
|
 &tv@w.member
|
 tv@w.member++
|
 tv@w.member--
|
 ++tv@w.member
|
 --tv@w.member
|
 print(..., <+... tv@w.tv_sec ...+>, ...)
|
 logger(..., fmt, ..., <+... tv@w.tv_sec ...+>, ...)
)

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
q << other_use.q;
@@
if q[0].current_element == fn:
    escaping.add((fn, tv))

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
w << written.w;
@@
if w[0].current_element == fn:
    escaping.add((fn, tv))

@convert_decl depends on patch@
identifier tv_local.fn;
identifier tv_local.tv : script:python(fn) { (fn, tv) not in escaping };
position d;
@@
fn@d(...) {
<+...
- struct timeval
+ struct timespec64
  tv;
...+>
}

@script:python@
fn << tv_local.fn;
tv << tv_local.tv;
d << convert_decl.d;
@@
converted.add((fn, tv))

// Uses change only where the declaration did, in its own function.
@convert_uses depends on patch@
identifier tv_local.tv;
position u : script:python(tv) { (u[0].current_element, tv) in converted };
// where the quotient would bind to a tighter operator it is parenthesised
type T;
expression E2;
binary operator mul = {*, /, %};
@@
(
- do_gettimeofday(&tv@u)
+ ktime_get_real_ts64(&tv)
|
- tv@u.tv_usec / 1000
+ tv.tv_nsec / NSEC_PER_MSEC
|
- tv@u.tv_usec / USEC_PER_MSEC
+ tv.tv_nsec / NSEC_PER_MSEC
|
- (T)tv@u.tv_usec
+ (T)(tv.tv_nsec / NSEC_PER_USEC)
|
- E2 mul tv@u.tv_usec
+ E2 mul (tv.tv_nsec / NSEC_PER_USEC)
|
- !tv@u.tv_usec
+ !(tv.tv_nsec / NSEC_PER_USEC)
|
- ~tv@u.tv_usec
+ ~(tv.tv_nsec / NSEC_PER_USEC)
|
- tv@u.tv_usec
+ tv.tv_nsec / NSEC_PER_USEC
)

@depends on context@
expression E;
@@
* do_gettimeofday(E)

@found depends on report || org@
expression E;
position p;
@@
 do_gettimeofday@p(E)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: do_gettimeofday() was removed in Linux 5.0: use ktime_get_real_ts64() with a struct timespec64; convert at the boundary where the value is an ABI")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "do_gettimeofday() was removed in Linux 5.0: use ktime_get_real_ts64()")
