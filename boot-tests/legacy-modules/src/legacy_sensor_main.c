// SPDX-License-Identifier: GPL-2.0-only
/*
 * legacy_sensor: the device (/dev/legacy_sensor), its board data and its
 * load-time self-check.  LEGACY_SENSOR_GET records a sample and returns
 * the wall clock and the number of samples.
 */
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "legacy_selftest.h"
#include "legacy_sensor.h"

static struct legacy_selftest st = { .module = "sensor" };
static struct legacy_sensor sensor;

/* Board data, set the way 3.x board files set ktime_t members. */
static struct legacy_sensor_board {
	ktime_t poll;
	ktime_t debounce;
	ktime_t hold;
} board = {
	.poll.tv64 = 20 * NSEC_PER_MSEC,
#if BITS_PER_LONG != 64 && !defined(CONFIG_KTIME_SCALAR)
	.debounce.tv.nsec = 5 * NSEC_PER_MSEC,
	.hold.tv.sec = 1,
	.hold.tv.nsec = 500 * NSEC_PER_MSEC,
#else
	.debounce.tv64 = 5 * NSEC_PER_MSEC,
	.hold.tv64 = 1500 * NSEC_PER_MSEC,
#endif
};

static long sensor_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct legacy_sensor_ioc ioc;

	if (cmd != LEGACY_SENSOR_GET)
		return -ENOTTY;
	legacy_sensor_record(&sensor, 1);
	do_gettimeofday(&ioc.when);
	ioc.count = sensor.head;
	if (copy_to_user((void __user *)arg, &ioc, sizeof(ioc)))
		return -EFAULT;
	return 0;
}

static const struct file_operations sensor_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = sensor_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice sensor_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "legacy_sensor",
	.fops = &sensor_fops,
};

static int __init sensor_init(void)
{
	struct timespec now;
	s64 age;

	legacy_sensor_start(&sensor);
	legacy_check(&st, sensor.started.tv_sec <= S32_MAX, "starts_before_2038");
	legacy_check(&st, legacy_wait_for_2038(), "clock_crosses_2038");
	legacy_sensor_record(&sensor, 42);
	legacy_check(&st, sensor.last.tv_sec > S32_MAX, "sample_stamped_past_2038");
	legacy_check(&st, timespec_compare(&sensor.last, &sensor.started) > 0, "sample_after_start");
	age = legacy_sensor_age_ns(&sensor, &now);
	legacy_check(&st, age >= 0 && age < 5LL * NSEC_PER_SEC, "age_across_2038");
	legacy_check(&st, now.tv_sec > S32_MAX, "now_past_2038");
	legacy_check(&st, ktime_to_ns(board.poll) == 20 * NSEC_PER_MSEC &&
			  ktime_to_ns(board.debounce) == 5 * NSEC_PER_MSEC &&
			  ktime_to_ns(board.hold) == 1500 * NSEC_PER_MSEC, "board_ktime_values");
	legacy_check(&st, misc_register(&sensor_misc) == 0, "device_registered");
	legacy_done(&st);
	return 0;
}

static void __exit sensor_exit(void)
{
	misc_deregister(&sensor_misc);
}

module_init(sensor_init);
module_exit(sensor_exit);
MODULE_DESCRIPTION("A sensor hub driver written against the Linux 3.x time API");
MODULE_LICENSE("GPL");
