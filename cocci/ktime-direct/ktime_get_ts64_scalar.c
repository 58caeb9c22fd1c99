/* Must change: filled, then used once, right away, as ns or seconds. */
static u64 wall_ns(void)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	return timespec64_to_ns(&ts);
}

static void stamp(struct my_dev *dev)
{
	struct timespec64 now;
	int cpu = smp_processor_id();

	ktime_get_boottime_ts64(&now);
	dev->boot_ns[cpu] = timespec64_to_ns(&now);
}

static time64_t uptime_seconds(void)
{
	struct timespec64 uptime;

	ktime_get_ts64(&uptime);
	return uptime.tv_sec;
}

static void record(struct my_dev *dev)
{
	struct timespec64 ts;

	ktime_get_coarse_real_ts64(&ts);
	dev->last_seen = ts.tv_sec;
}

static int init_rtc(struct my_dev *dev, bool cfg)
{
	struct timespec64 tsp;
	u64 ns;

	if (!cfg) {
		ktime_get_real_ts64(&tsp);
		ns = timespec64_to_ns(&tsp);
		return settime(dev, ns);
	}
	return query(dev, &ns);
}

static u64 commented(void)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	/* wall clock, for the log */
	return timespec64_to_ns(&ts);
}

/* vidtv: the seconds passed whole to a function, the one use. */
static void event_time(struct tm *time)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	time64_to_tm(ts.tv_sec, 0, time);
}

static u64 wall_ms(struct my_dev *dev)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	dev->ms = div_u64(timespec64_to_ns(&ts), NSEC_PER_MSEC);
	return dev->ms;
}

static int report_boot(struct my_dev *dev)
{
	struct timespec64 now;

	ktime_get_boottime_ts64(&now);
	return send_seconds(dev, now.tv_sec);
}

/* ubifs-like: a coarse reading's seconds passed whole. */
static int report_coarse(struct my_dev *dev)
{
	struct timespec64 now;

	ktime_get_coarse_boottime_ts64(&now);
	return send_seconds(dev, now.tv_sec);
}

/* Must NOT change: other uses, code in between, no seconds accessor, helpers. */
static int other_branch(struct my_dev *dev, bool cfg)
{
	struct timespec64 tsp;
	u64 ns;

	if (!cfg) {
		ktime_get_real_ts64(&tsp);
		ns = timespec64_to_ns(&tsp);
		return settime(dev, ns);
	}
	tsp.tv_sec = 0;
	return query(dev, &tsp);
}

static s64 both(struct my_dev *dev)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	dev->sec = ts.tv_sec;
	return timespec64_to_ns(&ts);
}

static u64 later(struct my_dev *dev)
{
	struct timespec64 ts;

	ktime_get_ts64(&ts);
	spin_lock(&dev->lock);
	dev->ns = timespec64_to_ns(&ts);
	spin_unlock(&dev->lock);
	return dev->ns;
}

static time64_t raw_seconds(void)
{
	struct timespec64 ts;

	ktime_get_raw_ts64(&ts);
	return ts.tv_sec;
}

static void printed(void)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	pr_info("%lld\n", timespec64_to_ns(&ts));
}

static void macro_argument(struct my_dev *dev)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	dev->sec = max(ts.tv_sec, dev->sec);
}

static void upper_case_macro(struct my_dev *dev)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	STORE_SECONDS(dev, ts.tv_sec);
}

static void two_fields(struct my_dev *dev)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	send_time(dev, ts.tv_sec, ts.tv_nsec);
}

static void raw_argument(struct tm *time)
{
	struct timespec64 ts;

	ktime_get_raw_ts64(&ts);
	time64_to_tm(ts.tv_sec, 0, time);
}

static void not_next(struct my_dev *dev, struct tm *time)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	dev->count++;
	time64_to_tm(ts.tv_sec, 0, time);
}

/* a polling loop of gotos and branches that reads the clock often: the
 * local is named many times, so it stays; finding that must take a moment */
static int poll_transfer(struct my_dev *dev, int op, unsigned int size)
{
	struct timespec64 start, last, now;
	unsigned int i = 0, waited_ms = 0;

	ktime_get_real_ts64(&last);
	memcpy(&start, &last, sizeof(start));
	while (i < size && !dev->stop) {
		if (op == 1) {
			if (!(readl(dev->regs) & 8)) {
				writel(dev->data[i++], dev->regs + 4);
				ktime_get_real_ts64(&last);
			}
		} else if (op == 2) {
			if (!(readl(dev->regs) & 4)) {
				dev->data[i++] = readl(dev->regs + 4);
				ktime_get_real_ts64(&last);
			}
		}
		ktime_get_real_ts64(&now);
		waited_ms = (now.tv_sec - last.tv_sec) * 1000 +
			    (now.tv_nsec - last.tv_nsec) / 1000000;
		if (waited_ms > 100)
			goto error;
	}
	if (dev->stop)
		goto abort;
	while (readl(dev->regs) != 4 && !dev->stop) {
		ktime_get_real_ts64(&now);
		waited_ms = (now.tv_sec - last.tv_sec) * 1000 +
			    (now.tv_nsec - last.tv_nsec) / 1000000;
		if (waited_ms > 100)
			goto error;
	}
	if (dev->stop)
		goto abort;
	dev->took_us = (now.tv_sec - start.tv_sec) * 1000000 + (now.tv_nsec - start.tv_nsec) / 1000;
	return 0;
error:
	writel(1, dev->regs + 8);
	return -EIO;
abort:
	writel(2, dev->regs + 8);
	return -EINTR;
}
