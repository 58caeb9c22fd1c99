// SPDX-License-Identifier: GPL-2.0-only
/// Drop the .tv64 accessor of ktime_t: a ktime_t is the nanosecond count.
///
/// Linux 3.17 made ktime_t a scalar s64 on every architecture, leaving
/// union ktime with its single tv64 member only as an accessor; Linux 4.10
/// removed the union, and ktime_t became "typedef s64 ktime_t".  Legacy code that reads or writes
/// kt.tv64, kt_ptr->tv64, (ktime_t){ .tv64 = x } or initialises a ktime_t
/// with { .tv64 = x } uses the value itself instead.
///
/// Expressions whose type is known to be something else than ktime_t keep
/// their .tv64 (struct kvmppc_exit_timing in arch/powerpc/kvm has one).
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Linux commits 24e4a8c3e886 (3.17) and 2456e8553544 (4.10).
//  The driver gives spatch the tree's headers for the file's architecture
//  (// Types: headers) so that field types are known; an expression whose
//  type is still unknown is taken to be a ktime_t, since no other kernel
//  type but the powerpc one had a tv64 member.  Nested designators
//  (.stamp.tv64 = x) and a { .tv64 = x } initialiser of a structure field
//  are not changed: spatch matches no .tv64 there, so they are listed as
//  left to convert by hand (// Leftover-regex: a designator .tv64 =).
//  Only files with a .tv64 or ->tv64 member access reach spatch.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 4.10 * (the plain s64 ktime_t: a union with .tv64 until 4.10)
// Removed: 4.10 tv64
// Sites: independent
// Subject: use ktime_t values directly instead of .tv64
// Options: --include-headers --include-headers-for-types --max-width 100
// Types: headers
// Keywords: tv64, ktime_t, union ktime
// Prefilter: tv64
// Prefilter-regex: (\.|->)\s*tv64\b
// Leftover-regex: [{,]\s*(\.\s*\w+\s*)*\.\s*tv64\s*=(?!=)

virtual patch
virtual context
virtual org
virtual report

@other_type@
typedef ktime_t;
type T != ktime_t;
T e;
T *ep;
position p;
@@
(
 e.tv64@p
|
 ep->tv64@p
)

// Rewrite: ktime_t kt = { .tv64 = x } -> ktime_t kt = x
//  The initialiser of the union's only member is the nanosecond count the
//  scalar ktime_t holds (Linux 4.10).
@scalar_init depends on patch@
typedef ktime_t;
expression E;
identifier kt;
@@
 ktime_t kt =
- { .tv64 = E }
+ E
 ;

// Rewrite: kt.tv64 -> kt, kt_ptr->tv64 -> *kt_ptr
//  A ktime_t is the s64 nanosecond count itself since Linux 4.10 (a union
//  whose only member, tv64, held that count since 3.17): reading or writing
//  the member is reading or writing the value.
@scalar depends on patch@
typedef ktime_t;
expression e;
position p != other_type.p;
@@
(
- e.tv64@p
+ e
|
- e->tv64@p++
+ (*e)++
|
- e->tv64@p--
+ (*e)--
|
- e->tv64@p
+ *e
)

// Rewrite: (ktime_t){ .tv64 = x } -> x
//  A compound literal whose only member is the nanosecond count is that
//  count.  It runs after the member rewrite, so a literal built from
//  other values' .tv64 ((ktime_t){ .tv64 = a.tv64 - b.tv64 }) is rewritten
//  once, not twice in one pass (spatch refuses that).
@scalar_literal depends on patch@
typedef ktime_t;
expression E;
@@
- (ktime_t){ .tv64 = E }
+ E

@found depends on context || report || org@
identifier member = tv64;
position p;
@@
* member@p

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: .tv64 was removed with union ktime in Linux 4.10: a ktime_t is the s64 nanosecond count itself")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], ".tv64 was removed with union ktime in Linux 4.10")
