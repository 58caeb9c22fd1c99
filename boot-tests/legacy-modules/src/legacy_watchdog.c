// SPDX-License-Identifier: GPL-2.0-only
/*
 * legacy_watchdog: a software watchdog on two hrtimers (a periodic tick and
 * an expiry at an absolute wall-clock time), written for the non-scalar
 * ktime_t of Linux 3.x: union ktime with .tv64, and .tv.sec/.tv.nsec on
 * 32-bit architectures without CONFIG_KTIME_SCALAR.
 *
 * Written against the Linux 3.x time API on purpose: `tools/y2038 convert`
 * turns it into code for current kernels (../y2038-convert.patch).
 */
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>

#include "legacy_selftest.h"

struct legacy_wd {
	struct hrtimer tick;
	struct hrtimer expiry;
	ktime_t period;
	ktime_t timeout;
	ktime_t fired_at;
	unsigned int ticks;
	struct completion expired;
};

static struct legacy_wd wd;
static struct legacy_selftest st = { .module = "watchdog" };
static ktime_t wd_no_time = { .tv64 = 0 };

/* Microseconds in a ktime_t, for either representation. */
static u64 wd_ktime_to_us(ktime_t kt)
{
#if BITS_PER_LONG != 64 && !defined(CONFIG_KTIME_SCALAR)
	return (u64)kt.tv.sec * USEC_PER_SEC + kt.tv.nsec / NSEC_PER_USEC;
#else
	return div_u64(kt.tv64, NSEC_PER_USEC);
#endif
}

static void wd_set_period(struct legacy_wd *w, unsigned long period_ns)
{
#if BITS_PER_LONG != 64 && !defined(CONFIG_KTIME_SCALAR)
	w->period.tv.sec = 0;
	w->period.tv.nsec = period_ns;
#else
	w->period.tv64 = period_ns;
#endif
}

static void wd_set_timeout(struct legacy_wd *w, unsigned int secs)
{
	w->timeout.tv.sec = secs;
	w->timeout.tv.nsec = 0;
}

/* Milliseconds left before the expiry (the timed_output idiom). */
static int wd_ms_left(struct legacy_wd *w)
{
	if (hrtimer_active(&w->expiry)) {
		ktime_t r = hrtimer_get_remaining(&w->expiry);

		return r.tv.sec * 1000 + r.tv.nsec / 1000000;
	}
	return 0;
}

static enum hrtimer_restart wd_tick(struct hrtimer *timer)
{
	struct legacy_wd *w = container_of(timer, struct legacy_wd, tick);

	w->ticks++;
	hrtimer_forward_now(timer, w->period);
	return HRTIMER_RESTART;
}

static enum hrtimer_restart wd_expire(struct hrtimer *timer)
{
	struct legacy_wd *w = container_of(timer, struct legacy_wd, expiry);

	w->fired_at = ktime_get_real();
	complete(&w->expired);
	return HRTIMER_NORESTART;
}

/* Arm the expiry at an absolute wall-clock time: whole seconds plus ns. */
static void wd_arm_at(struct legacy_wd *w, unsigned long sec, unsigned long nsec)
{
	ktime_t when = ktime_add_ns(ktime_set(sec, 0), nsec);

	hrtimer_start(&w->expiry, when, HRTIMER_MODE_ABS);
}

static bool wd_fired_past_2038(struct legacy_wd *w)
{
	struct timespec ts;

	ts = ktime_to_timespec(w->fired_at);
	return ts.tv_sec > S32_MAX;
}

static int __init wd_init(void)
{
	unsigned long now;
	int left;

	hrtimer_init(&wd.tick, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	wd.tick.function = wd_tick;
	hrtimer_init(&wd.expiry, CLOCK_REALTIME, HRTIMER_MODE_ABS);
	wd.expiry.function = wd_expire;
	init_completion(&wd.expired);
	wd.fired_at = wd_no_time;

	legacy_check(&st, get_seconds() <= 0x7fffffffUL, "starts_before_2038");
	wd_set_period(&wd, 10 * NSEC_PER_MSEC);
	hrtimer_start(&wd.tick, ktime_set(0, 10 * NSEC_PER_MSEC), HRTIMER_MODE_REL);
	legacy_check(&st, legacy_wait_for_2038(), "clock_crosses_2038");
	hrtimer_cancel(&wd.tick);
	legacy_check(&st, wd.ticks >= 10, "periodic_tick_across_2038");

	now = get_seconds();
	wd_arm_at(&wd, now + 1, 500000000);
	left = wd_ms_left(&wd);
	legacy_check(&st, left > 0 && left <= 2500, "ms_left_counts_down");
	legacy_check(&st, wait_for_completion_timeout(&wd.expired, 10 * HZ) > 0, "abs_realtime_expiry_fires");
	legacy_check(&st, wd.fired_at.tv64 > wd_no_time.tv64 && wd_fired_past_2038(&wd), "expiry_fired_past_2038");
	legacy_check(&st, wd_ms_left(&wd) == 0, "nothing_left_after_expiry");

	wd_set_timeout(&wd, 3);
	legacy_check(&st, wd_ktime_to_us(wd.timeout) == 3 * USEC_PER_SEC, "timeout_in_us");
	legacy_done(&st);
	return 0;
}

static void __exit wd_exit(void)
{
	hrtimer_cancel(&wd.tick);
	hrtimer_cancel(&wd.expiry);
}

module_init(wd_init);
module_exit(wd_exit);
MODULE_DESCRIPTION("A software watchdog written for the non-scalar ktime_t of Linux 3.x");
MODULE_LICENSE("GPL");
