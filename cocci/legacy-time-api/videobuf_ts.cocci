// SPDX-License-Identifier: GPL-2.0-only
/// Stamp a videobuf (v1) buffer with ktime_get_real_ns() instead of
/// do_gettimeofday(&vb->ts).
///
/// struct videobuf_buffer's ts was a struct timeval, filled by the driver
/// with do_gettimeofday(), until Linux 5.1 made it a u64 of nanoseconds
/// (converted to the user's struct timeval in videobuf_status() only);
/// do_gettimeofday() was removed in Linux 5.0.  From 5.1 on, the same
/// real-time clock reading is stored as ktime_get_real_ns().  Before 5.1
/// the field is still a struct timeval, so `convert` keeps the old line
/// for ranges that start earlier (the Introduced: `*` entry).
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only an expression spatch types as struct videobuf_buffer (a
//  local, a parameter, or a field declared so in the driver's own
//  structure) matches; a ts field of any other structure is not touched
//  (see do_gettimeofday.cocci).  The clock stays the real-time one the
//  driver chose, though videobuf reports monotonic time from 3.9 on in
//  its buffer flags: changing it is a separate fix.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/
// Introduced: 5.1 * (u64 nanoseconds in struct videobuf_buffer's ts: a struct timeval before 5.1), 3.17 ktime_get_real_ns
// Removed: 5.0 do_gettimeofday
// Sites: independent
// Subject: store videobuf timestamps as nanoseconds
// Options: --no-includes --include-headers --max-width 100
// Keywords: videobuf_buffer, do_gettimeofday, ktime_get_real_ns, y2038
// Prefilter: do_gettimeofday

virtual patch
virtual context
virtual org
virtual report

// Rewrite: do_gettimeofday(&vb->ts) -> vb->ts = ktime_get_real_ns()
//  struct videobuf_buffer's ts holds nanoseconds in a u64 from Linux 5.1
//  on; ktime_get_real_ns() reads the same real-time clock
//  do_gettimeofday() read, as nanoseconds, which is what videobuf turns
//  into the user's timestamp.
@vb_pointer depends on patch@
struct videobuf_buffer *vb;
@@
- do_gettimeofday(&vb->ts);
+ vb->ts = ktime_get_real_ns();

// Rewrite: do_gettimeofday(&vb->ts) -> vb->ts = ktime_get_real_ns()
//  The same for a struct videobuf_buffer reached as a structure
//  (buf->vb.ts, with vb a struct videobuf_buffer member of the driver's
//  own buffer).
@vb_struct depends on patch@
struct videobuf_buffer vb;
@@
- do_gettimeofday(&vb.ts);
+ vb.ts = ktime_get_real_ns();

@found depends on context || report || org@
struct videobuf_buffer *vp;
struct videobuf_buffer vs;
position p;
@@
(
* do_gettimeofday@p(&vp->ts)
|
* do_gettimeofday@p(&vs.ts)
)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: struct videobuf_buffer's ts is u64 nanoseconds from Linux 5.1: store ktime_get_real_ns()")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "struct videobuf_buffer's ts is u64 nanoseconds from Linux 5.1: store ktime_get_real_ns()")
