// SPDX-License-Identifier: GPL-2.0-only
/*
 * y2038 boot check: does lpfc_cmf_start() arm the one-minute CMF
 * statistics timer for a minute on 32-bit machines?
 *
 * lpfc_cmf_start() starts cmf_stats_timer with
 * ktime_set(0, LPFC_SEC_MIN * NSEC_PER_SEC).  ktime_set() takes its
 * nanoseconds as an unsigned long, so on a 32-bit machine 60 s of
 * nanoseconds wraps modulo 2^32 ns and the timer fires after 4.17 s.
 *
 * Each case starts CMF on a zeroed struct lpfc_hba holding only what
 * lpfc_cmf_start() and the helpers it calls read (CMF supported, monitor
 * mode so no work request is posted to the adapter, no congestion buffer,
 * no port, the link down), with both hrtimers armed with a callback of
 * this test: the driver's callbacks touch the adapter.  A timer's expiry
 * minus the time read just before the call is its interval, give or take
 * the time the call took.
 *
 * Not a patch for the kernel: the boot stage adds it to the kernels it boots
 * to prove the fix (it fails without the fix and passes with it).
 */
#include <kunit/test.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/interrupt.h>
#include <linux/dma-direction.h>
#include <scsi/scsi_transport_fc.h>
#include "lpfc_hw4.h"
#include "lpfc_hw.h"
#include "lpfc_sli.h"
#include "lpfc_sli4.h"
#include "lpfc_nl.h"
#include "lpfc_disc.h"
#include "lpfc.h"
#include "lpfc_crtn.h"

struct cmf_start {
	struct lpfc_hba *phba;
	ktime_t before;		/* CLOCK_MONOTONIC just before lpfc_cmf_start() */
	ktime_t took;		/* how long lpfc_cmf_start() ran */
};

static enum hrtimer_restart timer_noop(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

/*
 * Starts CMF; test->priv is set once the timers are armable, so exit
 * cancels and frees only what init made.
 */
static int cmf_start_init(struct kunit *test)
{
	struct cmf_start *start = kunit_kzalloc(test, sizeof(*start), GFP_KERNEL);
	struct lpfc_hba *phba = kunit_kzalloc(test, sizeof(*phba), GFP_KERNEL);

	if (!start || !phba)
		return -ENOMEM;
	phba->cmf_stat = alloc_percpu(struct lpfc_cgn_stat);
	if (!phba->cmf_stat)
		return -ENOMEM;
	spin_lock_init(&phba->hbalock);
	phba->sli4_hba.pc_sli4_params.cmf = 1;
	phba->cmf_active_mode = LPFC_CFG_MONITOR;
	hrtimer_init(&phba->cmf_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	phba->cmf_timer.function = timer_noop;
	hrtimer_init(&phba->cmf_stats_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	phba->cmf_stats_timer.function = timer_noop;
	start->phba = phba;
	test->priv = start;

	start->before = ktime_get();
	lpfc_cmf_start(phba);
	start->took = ktime_sub(ktime_get(), start->before);
	return 0;
}

static void cmf_start_exit(struct kunit *test)
{
	struct cmf_start *start = test->priv;

	if (!start)
		return;
	hrtimer_cancel(&start->phba->cmf_timer);
	hrtimer_cancel(&start->phba->cmf_stats_timer);
	free_percpu(start->phba->cmf_stat);
}

/* The interval a timer was started with, give or take the time the start took. */
static s64 started_interval_ns(struct cmf_start *start, struct hrtimer *timer)
{
	return ktime_to_ns(ktime_sub(hrtimer_get_expires(timer), start->before));
}

static void expect_interval(struct kunit *test, struct hrtimer *timer, s64 interval_ns)
{
	struct cmf_start *start = test->priv;
	s64 started = started_interval_ns(start, timer);

	KUNIT_EXPECT_GE(test, started, interval_ns);
	KUNIT_EXPECT_LE(test, started, interval_ns + ktime_to_ns(start->took));
}

/* Control: CMF started with its 90 ms timer armed for 90 ms (right on every machine). */
static void cmf_timer_is_90ms(struct kunit *test)
{
	struct cmf_start *start = test->priv;

	KUNIT_EXPECT_EQ(test, start->phba->cmf_interval_rate, (u32)LPFC_CMF_INTERVAL);
	expect_interval(test, &start->phba->cmf_timer, LPFC_CMF_INTERVAL * NSEC_PER_MSEC);
}

/* The fix: the statistics timer armed for a minute, not 4.17 s. */
static void cmf_stats_timer_is_one_minute(struct kunit *test)
{
	struct cmf_start *start = test->priv;

	/* an unstarted timer's expiry is 0, before start->before */
	KUNIT_ASSERT_GE_MSG(test, started_interval_ns(start, &start->phba->cmf_timer),
			    (s64)LPFC_CMF_INTERVAL * NSEC_PER_MSEC,
			    "lpfc_cmf_start() returned before starting CMF");
	expect_interval(test, &start->phba->cmf_stats_timer, (s64)LPFC_SEC_MIN * NSEC_PER_SEC);
}

static struct kunit_case y2038_lpfc_cmf_cases[] = {
	KUNIT_CASE(cmf_timer_is_90ms),
	KUNIT_CASE(cmf_stats_timer_is_one_minute),
	{}
};

static struct kunit_suite y2038_lpfc_cmf_suite = {
	.name = "y2038_lpfc_cmf",
	.init = cmf_start_init,
	.exit = cmf_start_exit,
	.test_cases = y2038_lpfc_cmf_cases,
};
kunit_test_suite(y2038_lpfc_cmf_suite);

MODULE_DESCRIPTION("y2038 boot check: lpfc's CMF statistics timer interval on 32-bit machines");
MODULE_LICENSE("GPL");
