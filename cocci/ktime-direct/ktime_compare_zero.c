struct pvt_hwmon { ktime_t timeout; long ns; };

/* Must change: bt1-pvt's pvt_write_timeout() in 6.1, fields, parameters, either side. */
static int pvt_write_timeout(struct pvt_hwmon *pvt, long val, ktime_t limit)
{
	unsigned long rate;
	ktime_t kt;

	kt = ktime_set(0, val * NSEC_PER_MSEC);
	kt = ktime_sub_ns(kt, PVT_TOUT_MIN);
	if (ktime_to_ns(kt) < 0)
		kt = 0;
	if (ktime_to_ns(pvt->timeout) == 0 || 0 >= ktime_to_ns(limit))
		return -EINVAL;
	return ktime_to_ns(limit) != 0;
}

/* Must NOT change: other values, other units, not a ktime_t, the definition. */
static bool keep(struct pvt_hwmon *pvt, ktime_t kt, s64 ns)
{
	if (ktime_to_ns(kt) < 10 || ktime_to_us(kt) < 0)
		return false;
	if (ktime_to_ns(pvt->ns) < 0 || ktime_to_ns(ns) > 0)
		return false;
	return ktime_to_ns(ktime_get()) > 0;
}

static inline s64 ktime_to_ns(const ktime_t kt)
{
	return kt;
}
