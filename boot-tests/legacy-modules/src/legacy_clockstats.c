// SPDX-License-Identifier: GPL-2.0-only
/*
 * legacy_clockstats: clock statistics the way 3.x-era board code kept
 * them, with struct timespec arithmetic of a timekeeping-core kind.
 *
 * Written against the Linux 3.x time API on purpose: `tools/y2038 convert`
 * turns it into code for current kernels (../y2038-convert.patch).
 */
#include <linux/module.h>
#include <linux/ktime.h>
#include <linux/time.h>

#include "legacy_selftest.h"

static struct legacy_selftest st = { .module = "clockstats" };

/* CLOCK_MONOTONIC in nanoseconds. */
static u64 clockstats_monotonic_ns(void)
{
	struct timespec ts;

	ktime_get_ts(&ts);
	return timespec_to_ns(&ts);
}

/* CLOCK_MONOTONIC_RAW in nanoseconds. */
static u64 clockstats_raw_ns(void)
{
	struct timespec raw;

	getrawmonotonic(&raw);
	return timespec_to_ns(&raw);
}

/* Wall-clock seconds, as the statistics record them. */
static s64 clockstats_wall_seconds(void)
{
	struct timespec now;

	getnstimeofday(&now);
	return now.tv_sec;
}

/* Has the wall clock passed start + timeout seconds (+ slack)? */
static bool clockstats_deadline_passed(unsigned long start, unsigned int timeout, u32 slack_ns)
{
	struct timespec now;
	struct timespec deadline;

	getnstimeofday(&now);
	set_normalized_timespec(&deadline, start + timeout, 0);
	timespec_add_ns(&deadline, slack_ns);
	return timespec_compare(&now, &deadline) > 0;
}

/* Wall-clock time spent in msleep(ms), in nanoseconds. */
static s64 clockstats_sleep_ns(unsigned int ms)
{
	struct timespec start;
	struct timespec end;
	struct timespec delta;

	getnstimeofday(&start);
	msleep(ms);
	getnstimeofday(&end);
	delta = timespec_sub(end, start);
	return timespec_to_ns(&delta);
}

/* The same interval, added back onto its start. */
static bool clockstats_interval_adds_up(void)
{
	struct timespec start;
	struct timespec step;
	struct timespec end;

	getnstimeofday(&start);
	set_normalized_timespec(&step, 1, 1500000000);
	end = timespec_add(start, step);
	return end.tv_sec - start.tv_sec == 2 || end.tv_sec - start.tv_sec == 3;
}

static int __init clockstats_init(void)
{
	s64 before = clockstats_wall_seconds();
	u64 mono_before = clockstats_monotonic_ns();
	u64 raw_before = clockstats_raw_ns();
	unsigned long start;
	s64 slept;

	legacy_check(&st, before <= S32_MAX, "starts_before_2038");
	legacy_check(&st, legacy_wait_for_2038(), "clock_crosses_2038");
	legacy_check(&st, clockstats_wall_seconds() > S32_MAX, "wall_seconds_past_2038");
	legacy_check(&st, mktime(2038, 1, 19, 3, 14, 8) == 0x80000000UL, "mktime_past_2038");
	legacy_check(&st, clockstats_monotonic_ns() > mono_before, "monotonic_advances");
	legacy_check(&st, clockstats_raw_ns() > raw_before, "raw_monotonic_advances");
	start = get_seconds();
	legacy_check(&st, !clockstats_deadline_passed(start, 2, 0), "deadline_not_yet_passed");
	msleep(3100);
	legacy_check(&st, clockstats_deadline_passed(start, 2, 0), "deadline_passed_after_2038");
	slept = clockstats_sleep_ns(50);
	legacy_check(&st, slept >= 50 * NSEC_PER_MSEC && slept < 5LL * NSEC_PER_SEC, "wall_interval_after_2038");
	legacy_check(&st, clockstats_interval_adds_up(), "timespec_add_after_2038");
	legacy_done(&st);
	return 0;
}

static void __exit clockstats_exit(void)
{
}

module_init(clockstats_init);
module_exit(clockstats_exit);
MODULE_DESCRIPTION("Clock statistics written against the Linux 3.x time API");
MODULE_LICENSE("GPL");
