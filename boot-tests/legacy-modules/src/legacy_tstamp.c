// SPDX-License-Identifier: GPL-2.0-only
/*
 * legacy_tstamp: a timestamping misc device.  Every write to
 * /dev/legacy_tstamp records the wall-clock time of the event, precise and
 * coarse; a read returns "<microseconds> <writes> <coarse seconds>\n".
 *
 * Written against the Linux 3.x time API on purpose: `tools/y2038 convert`
 * turns it into code for current kernels (../y2038-convert.patch).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/time.h>
#include <linux/uaccess.h>

#include "legacy_selftest.h"

static struct legacy_selftest st = { .module = "tstamp" };

static struct {
	u64 last_us;		/* wall clock of the last write, in microseconds */
	s64 last_coarse_sec;	/* the same, coarse (tick) resolution */
	unsigned long last_sec;
	unsigned int writes;
} tstamp;

static u64 tstamp_now_us(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	return (u64)tv.tv_sec * USEC_PER_SEC + tv.tv_usec;
}

/* getnstimeofday() and the coarse current_kernel_time() agree to a second. */
static bool tstamp_clocks_agree(void)
{
	struct timespec fine;
	struct timespec coarse;

	coarse = current_kernel_time();
	getnstimeofday(&fine);
	return fine.tv_sec >= coarse.tv_sec && fine.tv_sec - coarse.tv_sec <= 1;
}

static ssize_t tstamp_write(struct file *file, const char __user *buf, size_t len, loff_t *ppos)
{
	struct timespec now = CURRENT_TIME;

	tstamp.last_us = tstamp_now_us();
	tstamp.last_coarse_sec = now.tv_sec;
	tstamp.last_sec = get_seconds();
	tstamp.writes++;
	return len;
}

static ssize_t tstamp_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	char line[64];
	int n = scnprintf(line, sizeof(line), "%llu %u %lld\n", tstamp.last_us, tstamp.writes,
			  tstamp.last_coarse_sec);

	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static const struct file_operations tstamp_fops = {
	.owner = THIS_MODULE,
	.read = tstamp_read,
	.write = tstamp_write,
	.llseek = noop_llseek,
};

static struct miscdevice tstamp_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "legacy_tstamp",
	.fops = &tstamp_fops,
};

static int __init tstamp_init(void)
{
	u64 before = tstamp_now_us();

	legacy_check(&st, div_u64(before, USEC_PER_SEC) <= S32_MAX, "starts_before_2038");
	legacy_check(&st, legacy_wait_for_2038(), "clock_crosses_2038");
	legacy_check(&st, div_u64(tstamp_now_us(), USEC_PER_SEC) > S32_MAX, "gettimeofday_past_2038");
	legacy_check(&st, tstamp_now_us() > before, "gettimeofday_advances");
	legacy_check(&st, tstamp_clocks_agree(), "coarse_and_fine_agree_past_2038");
	legacy_check(&st, get_seconds() > 0x7fffffffUL, "get_seconds_past_2038");
	legacy_check(&st, misc_register(&tstamp_misc) == 0, "device_registered");
	legacy_done(&st);
	return 0;
}

static void __exit tstamp_exit(void)
{
	misc_deregister(&tstamp_misc);
}

module_init(tstamp_init);
module_exit(tstamp_exit);
MODULE_DESCRIPTION("A timestamping misc device written against the Linux 3.x time API");
MODULE_LICENSE("GPL");
