/* Must change: zero seconds, and seconds plus nanoseconds in two steps. */
static void arm(struct my_dev *dev, unsigned long delay_ns)
{
	ktime_t t = ktime_set(0, delay_ns);

	hrtimer_start(&dev->timer, ktime_set(0, 100 * NSEC_PER_USEC), HRTIMER_MODE_REL);
	dev->timeout = ktime_add_ns(ktime_set(dev->secs, 0), dev->nsecs);
	if (ktime_compare(t, ktime_set(0, 0)) > 0)
		dev->armed = true;
	dev->scaled = 2 * ktime_set(0, dev->base + dev->extra);
	dev->neg = -ktime_set(0, dev->on ? dev->a : dev->b);
	dev->sum = ktime_set(0, dev->ns) + ktime_set(0, get_ns(dev));
	return;
}

static ktime_t from_ns(unsigned long ns, unsigned long extra)
{
	return ktime_set(0, ns + extra);
}

/*
 * Must NOT change: a 64-bit count that ktime_set()'s unsigned long
 * nanoseconds truncated on 32-bit machines (x alone would not).
 */
static void rearm(struct my_dev *dev, u64 delta_ns)
{
	hrtimer_forward_now(&dev->timer, ktime_set(0, delta_ns));
}

/* ms_to_ktime(): the unit stays visible, the product is 64-bit; no us_to_ktime() exists. */
static void arm_ms(struct my_dev *dev, unsigned int ms)
{
	hrtimer_start(&dev->timer, ktime_set(0, ms * NSEC_PER_MSEC), HRTIMER_MODE_REL);
	dev->t = ktime_set(0, NSEC_PER_USEC * dev->period_us);
}

/* Must NOT change: non-zero seconds, other helpers, the definitions. */
static ktime_t keep(struct my_dev *dev)
{
	dev->t = ktime_set(1, 0);
	dev->u = ktime_add_ns(ktime_set(dev->secs, 5), 10);
	return ktime_set(dev->secs, dev->nsecs);
}

static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	if (unlikely(secs >= KTIME_SEC_MAX))
		return KTIME_MAX;

	return secs * NSEC_PER_SEC + (s64)nsecs;
}
