struct pvt_hwmon {
	ktime_t timeout;
	u64 raw;
};

static inline s64 ktime_to_ns(const ktime_t kt)
{
	return kt;
}

/* Must change: ktime_to_ns() of a ktime_t local, parameter or known field in a comparison. */
static int pvt_set_timeout(struct pvt_hwmon *pvt, long val)
{
	ktime_t kt, cache;

	cache = kt = ms_to_ktime(val);
	kt = ktime_sub_ns(kt, PVT_TOUT_MIN);
	if (ktime_to_ns(kt) < 0)
		kt = 0;
	if (ktime_to_ns(pvt->timeout) == ktime_to_ns(cache))
		return 0;
	return 0 >= ktime_to_ns(kt) ? -EINVAL : 0;
}

static bool expired(const ktime_t deadline, ktime_t now)
{
	return ktime_to_ns(deadline) <= ktime_to_ns(now) || ktime_to_ns(deadline) != -1;
}

/* Must NOT change: passed, printed, assigned, u64 or unknown types (and a ktime_t compared with
 * one), an operator in the argument. */
static void kept(struct pvt_hwmon *pvt, struct other *o, ktime_t a, ktime_t b, u64 ns)
{
	ktime_t cache = a;
	s64 delta;

	pr_info("timeout %lld ns\n", ktime_to_ns(pvt->timeout));
	set_delay(ktime_to_ns(a));
	delta = ktime_to_ns(a);
	if (ktime_to_ns(ns) < 0)
		pvt->raw = 0;
	if (ktime_to_ns(pvt->raw) > 0)
		pvt->raw = 0;
	if (ktime_to_ns(o->stamp) < 0)
		o->stamp = 0;
	if (ktime_to_ns(cache) > ktime_to_ns(o->stamp))
		o->stamp = 0;
	if (ktime_to_ns(a & b) == 0)
		o->stamp = 0;
	if (ktime_to_ns(ktime_get()) > delta)
		o->stamp = 0;
}
