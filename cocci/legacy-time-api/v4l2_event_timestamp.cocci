// SPDX-License-Identifier: GPL-2.0-only
/// Drop a driver's own clock reading into a struct v4l2_event's timestamp
/// right before v4l2_event_queue() or v4l2_event_queue_fh() queues it.
///
/// The V4L2 core stamps every event it queues and copies only the type,
/// id and payload of the caller's event: the timestamp the driver wrote
/// (ktime_get_ts(&ev.timestamp), as vendor camera drivers of the 3.x era
/// did) is never read, in every kernel since events came in (2.6.36).
/// The call is dead, and ktime_get_ts() and getnstimeofday() work on a
/// struct timespec and are gone from Linux 5.6, where the member is a
/// struct __kernel_timespec: removing it is the whole conversion.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Only a struct v4l2_event the driver queues itself matches,
//  with nothing between the clock reading and the queueing that takes the
//  event's address, copies it or reads its timestamp, and no read of the
//  timestamp after it either (a driver that prints or keeps the value
//  keeps the call, reported by timespec_locals.cocci).  An event pointer
//  must not be used at all in between.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/
// Introduced: -
// Removed: 5.6 ktime_get_ts, 5.6 getnstimeofday, 5.6 ktime_get_real_ts, 5.6 getrawmonotonic, 5.0 getnstimeofday64
// Sites: independent
// Subject: drop the clock reading the V4L2 core overwrites in queued events
// Options: --no-includes --include-headers --max-width 100
// Keywords: v4l2_event, v4l2_event_queue, ktime_get_ts, timestamp, y2038
// Prefilter-regex: \bv4l2_event_queue(?:_fh)?\s*\(

virtual patch
virtual context
virtual org
virtual report

// The clock reading's timestamp is read later on some path: the value is used.
@read_later exists@
identifier clock = {ktime_get_ts, ktime_get_ts64, getnstimeofday, getnstimeofday64,
                    ktime_get_real_ts, ktime_get_real_ts64, getrawmonotonic,
                    ktime_get_raw_ts64, do_posix_clock_monotonic_gettime};
expression E;
position p;
@@
(
clock@p(&E.timestamp);
...
E.timestamp
|
clock@p(&E->timestamp);
...
E->timestamp
)

// Rewrite: clock(&ev.timestamp); ... v4l2_event_queue(dev, &ev) -> v4l2_event_queue(dev, &ev)
//  The core overwrites the timestamp of the event it queues.
@dead_stamp depends on patch@
identifier clock = {ktime_get_ts, ktime_get_ts64, getnstimeofday, getnstimeofday64,
                    ktime_get_real_ts, ktime_get_real_ts64, getrawmonotonic,
                    ktime_get_raw_ts64, do_posix_clock_monotonic_gettime};
identifier f;
struct v4l2_event ev;
expression dev, X;
position p != read_later.p;
@@
- clock@p(&ev.timestamp);
  ... when != &ev
      when != X = ev
      when != f(..., ev, ...)
(
  v4l2_event_queue(dev, &ev);
|
  v4l2_event_queue_fh(dev, &ev);
)

// Rewrite: clock(&evp->timestamp); v4l2_event_queue(dev, evp) -> v4l2_event_queue(dev, evp)
//  The same through a pointer to the event, used nowhere in between.
@dead_stamp_pointer depends on patch@
identifier clock = {ktime_get_ts, ktime_get_ts64, getnstimeofday, getnstimeofday64,
                    ktime_get_real_ts, ktime_get_real_ts64, getrawmonotonic,
                    ktime_get_raw_ts64, do_posix_clock_monotonic_gettime};
struct v4l2_event *evp;
expression dev;
position p != read_later.p;
@@
- clock@p(&evp->timestamp);
  ... when != evp
(
  v4l2_event_queue(dev, evp);
|
  v4l2_event_queue_fh(dev, evp);
)

@found depends on context || report || org forall@
identifier clock = {ktime_get_ts, ktime_get_ts64, getnstimeofday, getnstimeofday64,
                    ktime_get_real_ts, ktime_get_real_ts64, getrawmonotonic,
                    ktime_get_raw_ts64, do_posix_clock_monotonic_gettime};
identifier f;
struct v4l2_event ev;
struct v4l2_event *evp;
expression dev, X;
position p != read_later.p;
@@
(
* clock@p(&ev.timestamp);
  ... when != &ev
      when != X = ev
      when != f(..., ev, ...)
(
  v4l2_event_queue(dev, &ev);
|
  v4l2_event_queue_fh(dev, &ev);
)
|
* clock@p(&evp->timestamp);
  ... when != evp
(
  v4l2_event_queue(dev, evp);
|
  v4l2_event_queue_fh(dev, evp);
)
)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "WARNING: v4l2_event_queue() stamps the event itself: this clock reading is never read")

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], "v4l2_event_queue() stamps the event itself: this clock reading is never read")
