// SPDX-License-Identifier: GPL-2.0-only
/*
 * y2038 boot check: does wave5's polling hrtimer come back every
 * vpu_poll_interval milliseconds on 32-bit machines?
 *
 * Without an interrupt the wave5 driver polls: wave5_vpu_timer_callback()
 * queues the polling work and forwards its hrtimer by
 * ns_to_ktime(vpu_poll_interval * NSEC_PER_MSEC), an int module parameter
 * times a long: on a 32-bit machine a 32-bit long, which overflows past
 * 2^31 - 1 ns (2147 ms).  The kernel builds with -fno-strict-overflow, so
 * the product wraps modulo 2^32: 5000 ms comes out as 5 * 10^9 - 2^32 =
 * 705032704 ns, and 3000 ms as 3 * 10^9 - 2^32 = -1294967296 ns, which
 * hrtimer_forward() raises to the timer's resolution.
 *
 * The callback is static and the driver's probe needs the hardware, so the
 * check compiles wave5-vpu.c into itself, with the driver off (its
 * platform driver is not registered here, so of wave5-vpu.c only the
 * callback and wave5_vpu_wait_interrupt() are emitted).  Each case sets
 * vpu_poll_interval (this copy's), gives a zeroed struct vpu_device a
 * kthread worker with a work item that does nothing and an hrtimer whose
 * expiry is the time just read, and calls the callback as the timer's
 * expiry would: the timer is then due exactly one interval after that
 * time (hrtimer_forward() adds the interval once while less than one
 * interval has passed).
 *
 * Not a patch for the kernel: the boot stage adds it to the kernels it boots
 * to prove the fix (it fails without the fix and passes with it).
 */
#include <kunit/test.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/platform_device.h>

/* The driver stays off: wave5-vpu.c's platform driver is not registered from here. */
#undef module_platform_driver
#define module_platform_driver(driver) \
	static struct platform_driver *const y2038_unregistered __maybe_unused = &(driver)

#include "chips-media/wave5/wave5-vpu.c"

static void no_work(struct kthread_work *work)
{
}

static int vpu_init(struct kunit *test)
{
	struct vpu_device *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return -ENOMEM;
	dev->worker = kthread_create_worker(0, "y2038_wave5_poll");
	if (IS_ERR(dev->worker))
		return PTR_ERR(dev->worker);
	kthread_init_work(&dev->work, no_work);
	hrtimer_init(&dev->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	dev->hrtimer.function = wave5_vpu_timer_callback;
	test->priv = dev;
	return 0;
}

static void vpu_exit(struct kunit *test)
{
	struct vpu_device *dev = test->priv;

	if (!dev)
		return;
	kthread_flush_worker(dev->worker);
	kthread_destroy_worker(dev->worker);
}

/* With vpu_poll_interval at ms, the callback forwards the timer by ms. */
static void expect_poll_interval(struct kunit *test, int ms)
{
	struct vpu_device *dev = test->priv;
	ktime_t due = ktime_get();

	vpu_poll_interval = ms;
	hrtimer_set_expires(&dev->hrtimer, due);
	KUNIT_EXPECT_EQ(test, wave5_vpu_timer_callback(&dev->hrtimer), HRTIMER_RESTART);
	KUNIT_EXPECT_EQ(test, ktime_to_ns(ktime_sub(hrtimer_get_expires(&dev->hrtimer), due)),
			(s64)ms * NSEC_PER_MSEC);
}

/* Control: 1000 ms is 10^9 ns, under 2^31 (right on every machine). */
static void one_second(struct kunit *test)
{
	expect_poll_interval(test, 1000);
}

/* The fix: 3000 ms, not -1294967296 ns (the timer's resolution). */
static void three_seconds(struct kunit *test)
{
	expect_poll_interval(test, 3000);
}

/* The fix: 5000 ms, not 705032704 ns. */
static void five_seconds(struct kunit *test)
{
	expect_poll_interval(test, 5000);
}

static struct kunit_case y2038_wave5_poll_cases[] = {
	KUNIT_CASE(one_second),
	KUNIT_CASE(three_seconds),
	KUNIT_CASE(five_seconds),
	{}
};

static struct kunit_suite y2038_wave5_poll_suite = {
	.name = "y2038_wave5_poll",
	.init = vpu_init,
	.exit = vpu_exit,
	.test_cases = y2038_wave5_poll_cases,
};
kunit_test_suite(y2038_wave5_poll_suite);
