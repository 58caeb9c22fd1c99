// SPDX-License-Identifier: GPL-2.0-only
/// Report seconds stored in, or cast to, 32 bits.
///
/// ktime_get_real_seconds() and the tv_sec of a struct timespec64 hold
/// seconds in 64 bits: since 1970 for the wall clock.  Stored into a signed
/// 32-bit variable or field (int, s32, and long or time_t on 32-bit
/// machines) a date overflows on 2038-01-19 03:14:08 UTC: a y2038 bug (a
/// tv_sec of a monotonic time or a duration does not; the hazards stage
/// tells them apart, tools/y2038lib/posting/hazard_triage.py).  Stored into an unsigned 32-bit
/// one (u32, unsigned int, __le32, __be32, lower_32_bits(), and unsigned
/// long on 32-bit machines) they wrap in 2106: usually an intentional
/// on-disk or wire format, reported apart so that the real bugs stand out.
//
// Confidence: Moderate
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Report and org modes only: the right fix (a wider type, an
//  epoch, a documented y2106 limit) needs a human.  Types are those spatch
//  knows from the file; fields declared in headers need the headers.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 3.19 ktime_get_real_seconds, 3.17 timespec64
// Removed: -
// Sites: independent
// Subject: report 32-bit wall-clock seconds
// Options: --no-includes --include-headers
// Keywords: y2038, y2106, time64_t, ktime_get_real_seconds

virtual report
virtual org

// An assignment pattern also matches a declaration with an initializer.
@signed_store@
typedef s32, __s32, time_t;
{int, s32, __s32, long, time_t} x;
struct timespec64 ts;
struct timespec64 *tsp;
position p;
@@
 x@p = \(ktime_get_real_seconds()\|ts.tv_sec\|tsp->tv_sec\)

@signed_cast@
typedef s32, __s32, time_t;
type T = {int, s32, __s32, long, time_t};
struct timespec64 ts;
struct timespec64 *tsp;
position p;
@@
 (T)@p \(ktime_get_real_seconds()\|ts.tv_sec\|tsp->tv_sec\)

@unsigned_32@
typedef u32, __u32, __le32, __be32;
{u32, __u32, unsigned int, __le32, __be32} x;
type T = {u32, __u32, unsigned int};
identifier conv = {lower_32_bits, cpu_to_le32, cpu_to_be32, htonl};
struct timespec64 ts;
struct timespec64 *tsp;
position p;
@@
(
 x@p = \(ktime_get_real_seconds()\|ts.tv_sec\|tsp->tv_sec\)
|
 (T)@p \(ktime_get_real_seconds()\|ts.tv_sec\|tsp->tv_sec\)
|
 conv@p(\(ktime_get_real_seconds()\|ts.tv_sec\|tsp->tv_sec\))
)

@unsigned_long@
struct timespec64 ts;
struct timespec64 *tsp;
unsigned long x;
position p;
@@
(
 x@p = \(ktime_get_real_seconds()\|ts.tv_sec\|tsp->tv_sec\)
|
 (unsigned long)@p \(ktime_get_real_seconds()\|ts.tv_sec\|tsp->tv_sec\)
)

@script:python depends on report@
p << signed_store.p;
@@
coccilib.report.print_report(p[0], "y2038: seconds stored in a signed 32-bit (or 32-bit long) variable: overflows 2038-01-19 if they are a date")

@script:python depends on report@
p << signed_cast.p;
@@
coccilib.report.print_report(p[0], "y2038: seconds cast to a signed 32-bit (or 32-bit long) type: overflows 2038-01-19 if they are a date")

@script:python depends on report@
p << unsigned_32.p;
@@
coccilib.report.print_report(p[0], "y2106: seconds truncated to unsigned 32 bits: wraps in 2106 (intentional in an on-disk or wire format?)")

@script:python depends on report@
p << unsigned_long.p;
@@
coccilib.report.print_report(p[0], "y2106: seconds stored in unsigned long: 32 bits on 32-bit machines, wraps in 2106")

@script:python depends on org@
p << unsigned_long.p;
@@
coccilib.org.print_todo(p[0], "y2106: seconds stored in unsigned long (32 bits on 32-bit machines)")

@script:python depends on org@
p << signed_store.p;
@@
coccilib.org.print_todo(p[0], "y2038: seconds stored in signed 32 bits")

@script:python depends on org@
p << signed_cast.p;
@@
coccilib.org.print_todo(p[0], "y2038: seconds cast to signed 32 bits")

@script:python depends on org@
p << unsigned_32.p;
@@
coccilib.org.print_todo(p[0], "y2106: seconds truncated to unsigned 32 bits")
