/* Must change: locals, fields, pointers, every clock. */
static void stamp(struct my_event *ev, struct timespec64 *out, struct timespec64 *arr)
{
	struct timespec64 ts;

	ts = ktime_to_timespec64(ktime_get_real());
	ev->stamp = ktime_to_timespec64(ktime_get());
	*out = ktime_to_timespec64(ktime_get_boottime());
	arr[1] = ktime_to_timespec64(ktime_get_raw());
	arr[2] = ktime_to_timespec64(ktime_get_coarse_real());
	if (ev->flags & EV_TAI)
		ev->tai = ktime_to_timespec64(ktime_get_clocktai());
	pr_info("%lld.%09ld\n", (s64)ts.tv_sec, ts.tv_nsec);
}

/* Must change: the clock read in nanoseconds, then split (macb's gem_ptp_init_tsu() in 6.1). */
static void gem_ptp_init_tsu(struct macb *bp, struct timespec64 *out)
{
	struct timespec64 ts;

	/* 1. get current system time */
	ts = ns_to_timespec64(ktime_to_ns(ktime_get_real()));
	*out = ns_to_timespec64(ktime_get_boottime_ns());
	bp->ts = ns_to_timespec64(ktime_get_coarse_clocktai_ns());
	gem_tsu_set_time(&bp->ptp_clock_info, &ts);
}

/* Must NOT change: values in expressions, other ktime_t values, the accessors. */
static struct timespec64 value_uses(ktime_t t, struct timespec64 *out)
{
	struct timespec64 a = ktime_to_timespec64(ktime_get_real());

	*out = ktime_to_timespec64(t);
	out[1] = ktime_to_timespec64(ktime_add(ktime_get(), t));
	use_ts(ktime_to_timespec64(ktime_get()));
	*out = ns_to_timespec64(ktime_get_mono_fast_ns());
	out[2] = ns_to_timespec64(ktime_to_ns(t));
	use_ts(ns_to_timespec64(ktime_get_real_ns()));
	return ktime_to_timespec64(ktime_get_boottime());
}

static inline void ktime_get_boottime_ts64(struct timespec64 *ts)
{
	*ts = ktime_to_timespec64(ktime_get_boottime());
}

static inline void ktime_get_coarse_clocktai_ts64(struct timespec64 *ts)
{
	*ts = ktime_to_timespec64(ktime_get_coarse_clocktai());
}
