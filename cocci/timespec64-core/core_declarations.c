/* A 3.x-era timekeeping core, written for this test: the shapes of
 * kernel/time/timekeeping.c before Linux 3.17. */

struct tk_offsets {
	struct timespec wall_to_monotonic;
	struct timespec total_sleep_time;
	int clock_was_set_seq;
};

static struct tk_offsets offsets;
static struct timespec raw_time;
static struct timespec boot_clock_offset;
static struct timespec persistent_offset;

static void tk_set_xtime(struct timekeeper *tk, const struct timespec *ts)
{
	tk->xtime_sec = ts->tv_sec;
	tk->xtime_nsec = (u64)ts->tv_nsec << tk->shift;
}

static void tk_set_wall_to_mono(struct timekeeper *tk, struct timespec wtm)
{
	struct timespec tmp;

	set_normalized_timespec(&tmp, -offsets.wall_to_monotonic.tv_sec,
				-offsets.wall_to_monotonic.tv_nsec);
	WARN_ON_ONCE(tk->offs_real != timespec_to_ktime(tmp));
	offsets.wall_to_monotonic = wtm;
	set_normalized_timespec(&tmp, -wtm.tv_sec, -wtm.tv_nsec);
	tk->offs_real = timespec_to_ktime(tmp);
}

static struct timespec tk_xtime(struct timekeeper *tk)
{
	struct timespec ts;

	ts.tv_sec = tk->xtime_sec;
	ts.tv_nsec = (long)(tk->xtime_nsec >> tk->shift);
	return ts;
}

static void timekeeping_forward_now(struct timekeeper *tk, s64 nsec)
{
	timespec_add_ns(&raw_time, nsec);
}

/* exported, one out-parameter, a value returned */
int __getnstimeofday(struct timespec *ts)
{
	struct timekeeper *tk = &timekeeper;
	s64 nsecs;

	ts->tv_sec = tk->xtime_sec;
	nsecs = timekeeping_get_ns(tk);
	ts->tv_nsec = 0;
	timespec_add_ns(ts, nsecs);
	if (unlikely(timekeeping_suspended))
		return -EAGAIN;
	return 0;
}
EXPORT_SYMBOL(__getnstimeofday);

/* exported, one out-parameter, calls the one above */
void getnstimeofday(struct timespec *ts)
{
	WARN_ON(__getnstimeofday(ts));
}
EXPORT_SYMBOL(getnstimeofday);

void ktime_get_ts(struct timespec *ts)
{
	struct timekeeper *tk = &timekeeper;
	struct timespec tomono;
	s64 nsec;

	ts->tv_sec = tk->xtime_sec;
	nsec = timekeeping_get_ns(tk);
	tomono = offsets.wall_to_monotonic;
	ts->tv_sec += tomono.tv_sec;
	ts->tv_nsec = 0;
	timespec_add_ns(ts, nsec + tomono.tv_nsec);
}
EXPORT_SYMBOL_GPL(ktime_get_ts);

/* exported, read-only parameter */
int do_settimeofday(const struct timespec *tv)
{
	struct timekeeper *tk = &timekeeper;
	struct timespec ts_delta;
	struct timespec xt;

	if (!timespec_valid_strict(tv))
		return -EINVAL;
	xt = tk_xtime(tk);
	ts_delta.tv_sec = tv->tv_sec - xt.tv_sec;
	ts_delta.tv_nsec = tv->tv_nsec - xt.tv_nsec;
	tk_set_wall_to_mono(tk, timespec_sub(offsets.wall_to_monotonic, ts_delta));
	tk_set_xtime(tk, tv);
	return 0;
}
EXPORT_SYMBOL(do_settimeofday);

/* exported, returns the structure */
struct timespec current_kernel_time(void)
{
	struct timekeeper *tk = &timekeeper;
	struct timespec now;

	now = tk_xtime(tk);
	return now;
}
EXPORT_SYMBOL(current_kernel_time);

/* a local filled by the exported function above keeps working */
ktime_t ktime_get_real_coarse(void)
{
	struct timespec now;

	getnstimeofday(&now);
	return timespec_to_ktime(now);
}

/* exported, reads the caller's value first: converted in and out */
void monotonic_to_bootbased(struct timespec *ts)
{
	*ts = timespec_add(*ts, offsets.total_sleep_time);
}
EXPORT_SYMBOL_GPL(monotonic_to_bootbased);

/* exported, written first by set_normalized_timespec() */
void getboottime(struct timespec *ts)
{
	struct timespec boottime = {
		.tv_sec = offsets.wall_to_monotonic.tv_sec,
		.tv_nsec = offsets.wall_to_monotonic.tv_nsec,
	};

	set_normalized_timespec(ts, -boottime.tv_sec, -boottime.tv_nsec);
}
EXPORT_SYMBOL_GPL(getboottime);

/* left alone: a weak default an architecture replaces */
void __weak read_persistent_clock(struct timespec *ts)
{
	ts->tv_sec = 0;
	ts->tv_nsec = 0;
}

/* left alone: a twin already exists */
void getrawmonotonic(struct timespec *ts)
{
	*ts = raw_time;
}

void getrawmonotonic64(struct timespec64 *ts)
{
	ts->tv_sec = raw_time.tv_sec;
	ts->tv_nsec = raw_time.tv_nsec;
}

/* left alone and reported: two structures to convert */
void getnstime_raw_and_real(struct timespec *ts_raw, struct timespec *ts_real)
{
	*ts_raw = raw_time;
	getnstimeofday(ts_real);
}

/* wrapped, but its locals are declared together: listed, and converted
 * where they meet the new types */
struct timespec get_monotonic_coarse(void)
{
	struct timespec now, mono;

	now = tk_xtime(&timekeeper);
	mono = offsets.wall_to_monotonic;
	set_normalized_timespec(&now, now.tv_sec + mono.tv_sec, now.tv_nsec + mono.tv_nsec);
	return now;
}

/* left alone and listed: spatch cannot rewrite one of several declarators */
int timekeeping_suspend_delta(void)
{
	struct timespec before, after;

	getnstimeofday(&before);
	getnstimeofday(&after);
	return timespec_compare(&before, &after);
}

/* left alone: the local goes to a function that keeps struct timespec */
void __init timekeeping_init(void)
{
	struct timespec now;
	struct timespec boot;

	read_persistent_clock(&now);
	read_boot_clock(&boot);
	persistent_offset = now;
	boot_clock_offset = boot;
}
