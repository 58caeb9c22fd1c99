struct io_getevents_arg {
	__u64	sigmask;
	__u32	min_wait_usec;
	__u32	pad;
};

struct io_napi {
	__u32	busy_poll_to;
	__u8	prefer_busy_poll;
};

struct wait_arg {
	ktime_t min_time;
	ktime_t poll_dt;
};

struct psi_trigger {
	u64 threshold;
	u64 window;
};

#define WINDOW_MAX_US 10000000	/* 10 s */
#define DELAY_MAX_US 1000000	/* 1 s */
#define RETRY_SEC 60UL
#define POLL_MS 10

struct my_dev {
	ktime_t interval;
	u64 sample_delay_ns;
	unsigned long period_ns;
};

static unsigned long thresh_us = 10000;
module_param(thresh_us, ulong, 0644);

static int slack_us = 50;
module_param(slack_us, int, 0644);

/* Must change: values that reach the wrap. */

/* perf's mux interval: milliseconds from sysfs, bounded from below only */
static ssize_t interval_store(struct my_dev *dev, const char *buf, size_t count)
{
	int timer, ret;

	ret = kstrtoint(buf, 0, &timer);
	if (ret)
		return ret;
	if (timer < 1)
		return -EINVAL;
	dev->interval = ns_to_ktime(NSEC_PER_MSEC * timer);
	return count;
}

/* io_uring's min_wait_usec: microseconds from user space, unchecked */
static int get_ext_arg(struct wait_arg *ext_arg, const void __user *argp)
{
	struct io_getevents_arg arg;

	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	ext_arg->min_time = arg.min_wait_usec * NSEC_PER_USEC;
	return 0;
}

/* psi: bounded, but by 10 s, past the wrap; the threshold by the window */
static int trigger_create(struct psi_trigger *t, char *buf)
{
	u32 threshold_us, window_us;

	if (sscanf(buf, "some %u %u", &threshold_us, &window_us) != 2)
		return -EINVAL;
	if (window_us == 0 || window_us > WINDOW_MAX_US)
		return -EINVAL;
	if (threshold_us == 0 || threshold_us > window_us)
		return -EINVAL;
	t->threshold = threshold_us * NSEC_PER_USEC;
	t->window = window_us * NSEC_PER_USEC;
	return 0;
}

/* a module parameter nothing bounds */
static bool too_long(u64 start, u64 now)
{
	return now - start > thresh_us * NSEC_PER_USEC;
}

/* a PTP clock's seconds register */
static void get_ptptime(void __iomem *ptpaddr, u64 *ptp_time)
{
	u64 ns;

	ns = readl(ptpaddr + 0x48);
	ns += readl(ptpaddr + 0x4c) * NSEC_PER_SEC;
	*ptp_time = ns;
}

/* constants past 2^31 - 1 ns (signed) or 2^32 ns (unsigned) */
static void constants(struct my_dev *dev, ktime_t now)
{
	dev->interval = ktime_add_ns(now, 3 * NSEC_PER_SEC);
	dev->sample_delay_ns = 5U * NSEC_PER_SEC;
	dev->sample_delay_ns = RETRY_SEC * NSEC_PER_SEC;
}

/* Must NOT change. */

/* constants that fit: 2 s signed, 4 s unsigned, or already 64-bit */
static void small_constants(struct my_dev *dev, ktime_t now)
{
	dev->interval = ktime_add_ns(now, 2 * NSEC_PER_SEC);
	dev->sample_delay_ns = 4U * NSEC_PER_SEC;
	dev->sample_delay_ns = 10ULL * NSEC_PER_SEC;
	dev->interval = ns_to_ktime(2147 * NSEC_PER_MSEC);
	dev->interval = ns_to_ktime(POLL_MS * NSEC_PER_MSEC);
}

/* 64-bit operands, and a product kept in 32 bits anyway */
static void wide_operands(struct my_dev *dev, u64 secs, u32 us)
{
	dev->sample_delay_ns = secs * NSEC_PER_SEC;
	dev->sample_delay_ns = (u64)us * NSEC_PER_USEC;
	dev->period_ns = us * NSEC_PER_USEC;
}

/* input bounded from above before the product */
static ssize_t bounded_store(struct my_dev *dev, const char *buf, size_t count)
{
	unsigned int ms;

	if (kstrtouint(buf, 0, &ms))
		return -EINVAL;
	if (ms > 1000)
		return -EINVAL;
	dev->sample_delay_ns = ms * NSEC_PER_MSEC;
	return count;
}

/* bounded by a macro below the wrap */
static ssize_t delay_store(struct my_dev *dev, const char *buf, size_t count)
{
	unsigned int us;

	if (kstrtouint(buf, 0, &us) || us > DELAY_MAX_US)
		return -EINVAL;
	dev->sample_delay_ns = us * NSEC_PER_USEC;
	return count;
}

/* io_uring's NAPI busy-poll time: capped at 10 ms */
static int register_napi(struct wait_arg *ctx, void __user *arg)
{
	struct io_napi napi;

	if (copy_from_user(&napi, arg, sizeof(napi)))
		return -EFAULT;
	napi.busy_poll_to = min(10000, napi.busy_poll_to);
	ctx->poll_dt = napi.busy_poll_to * NSEC_PER_USEC;
	return 0;
}

/* a module parameter bounded where it is used */
static void slack(struct my_dev *dev, ktime_t now)
{
	if (slack_us > 1000)
		slack_us = 1000;
	dev->interval = ktime_add_ns(now, slack_us * NSEC_PER_USEC);
}

/* a parameter whose range this function does not show: reported only */
static void update_sample_delay(struct my_dev *dev, unsigned int delay_us)
{
	dev->sample_delay_ns = delay_us * NSEC_PER_USEC;
}

/* ipmi's kipmid_max_busy_us: a module parameter array read into a
 * parameter: reported only */
static void busy_until(ktime_t *until, unsigned int max_busy_us)
{
	*until = ktime_get() + max_busy_us * NSEC_PER_USEC;
}

/* milliseconds of a register: not a clock's seconds count */
static void get_ms(void __iomem *base, u64 *t)
{
	*t = readl(base + 4) * NSEC_PER_MSEC;
}
