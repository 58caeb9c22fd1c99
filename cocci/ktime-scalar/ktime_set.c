/* Must change: unsigned values of at most 32 bits, unsigned long, small constants. */
static void arm(struct my_dev *dev, unsigned long delay_ns, u32 period_ns, u8 ms)
{
	ktime_t t = ktime_set(0, delay_ns);
	size_t len = 5;

	hrtimer_start(&dev->timer, ktime_set(0, 100 * NSEC_PER_USEC), HRTIMER_MODE_REL);
	hrtimer_forward_now(&dev->timer, ktime_set(0, period_ns));
	if (ktime_compare(t, ktime_set(0, 0)) > 0)
		dev->armed = true;
	dev->t = ktime_set(0, (NSEC_PER_SEC / 2 + 100));
	dev->u = ktime_set(0, 0x10);
	dev->w = ktime_set(0, len);
	dev->m = ktime_set(0, ms * NSEC_PER_MSEC);
	hrtimer_start(&dev->timer, ktime_set(0, NSEC_PER_MSEC * 4294), HRTIMER_MODE_REL);
}

static ktime_t from_ns(unsigned int ns)
{
	return ktime_set(0, ns);
}

/*
 * Must NOT change: values ktime_set()'s unsigned long changed on 32-bit
 * machines and x alone would not (negative, 64-bit, past 2^32 ns), and
 * values whose type spatch cannot see.
 */
static void rearm(struct my_dev *dev, u64 delta_ns, int signed_ns, s64 wide_ns)
{
	hrtimer_forward_now(&dev->timer, ktime_set(0, delta_ns));
	hrtimer_start(&dev->timer, ktime_set(0, signed_ns), HRTIMER_MODE_REL);
	dev->t = ktime_set(0, wide_ns);
	dev->u = ktime_set(0, dev->base + dev->extra);
	dev->v = ktime_set(0, get_ns(dev));
	/* lpfc: a macro whose value spatch cannot see (a header's), an int product */
	hrtimer_start(&dev->timer, ktime_set(0, LPFC_CMF_INTERVAL * 1000000), HRTIMER_MODE_REL);
	/* 2^31 ns and more: an int or 32-bit long product overflows */
	dev->w = ktime_set(0, 3 * NSEC_PER_SEC);
	dev->x = ktime_set(0, 2200 * 1000 * 1000);
	/* a negative step */
	dev->y = ktime_set(0, (100 - 200) * NSEC_PER_USEC);
}

/* Must NOT change: a whole value only; inside expressions x's type would count. */
static void grouped(struct my_dev *dev, u32 a, u32 b)
{
	dev->scaled = 2 * ktime_set(0, a);
	dev->neg = -ktime_set(0, b);
	dev->sum = ktime_add(dev->t, ktime_set(0, a));
	dev->most = max(dev->t, ktime_set(0, b));
}

/* ms_to_ktime() only where the 32-bit product could not wrap; no us_to_ktime() exists. */
static void arm_ms(struct my_dev *dev, unsigned int ms, u16 short_ms)
{
	hrtimer_start(&dev->timer, ktime_set(0, ms * NSEC_PER_MSEC), HRTIMER_MODE_REL);
	dev->t = ktime_set(0, short_ms * NSEC_PER_MSEC);
	dev->u = ktime_set(0, 4295 * NSEC_PER_MSEC);
	dev->v = ktime_set(0, NSEC_PER_USEC * dev->period_us);
}

/* Must NOT change: non-zero seconds, other helpers, the definitions. */
static ktime_t keep(struct my_dev *dev)
{
	dev->t = ktime_set(1, 0);
	dev->u = ktime_add_ns(ktime_set(dev->secs, 0), 10);
	return ktime_set(dev->secs, dev->nsecs);
}

static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	if (unlikely(secs >= KTIME_SEC_MAX))
		return KTIME_MAX;

	return secs * NSEC_PER_SEC + (s64)nsecs;
}

static inline ktime_t ms_to_ktime(u64 ms)
{
	return ktime_set(0, ms * NSEC_PER_MSEC);
}

/* a variadic callee: an int where %lld wants a long long would be wrong: left */
static void printed(void)
{
	pr_info("%lld\n", ktime_set(0, 5));
	trace_printk("%lld\n", ktime_set(0, 5));
}

/* The file's own macros: a constant in range, or a cast to 32 unsigned bits, changes. */
#define POLL_DELAY_NS (20 * NSEC_PER_MSEC)
#define RETRY_NS 2000000
#define US_TO_NS(x) ((u32)(((u32)(x)) * (u32)1000L))
/* Must NOT change: past 2^31 ns, negative, defined twice differently, no narrowing cast. */
#define SLOW_NS (3 * NSEC_PER_SEC)
#define EARLY_NS (-1000)
#ifdef CONFIG_FAST
#define STEP_NS 1000
#else
#define STEP_NS 5000000000ULL
#endif
#define MS_TO_NS(x) ((x) * NSEC_PER_MSEC)

static void macros(struct my_dev *dev, int period_us)
{
	hrtimer_start(&dev->timer, ktime_set(0, POLL_DELAY_NS), HRTIMER_MODE_REL);
	dev->t = ktime_set(0, RETRY_NS);
	dev->u = ktime_set(0, US_TO_NS(period_us));
	dev->v = ktime_set(0, SLOW_NS);
	dev->w = ktime_set(0, EARLY_NS);
	dev->x = ktime_set(0, STEP_NS);
	dev->y = ktime_set(0, MS_TO_NS(period_us));
}
