/* The timekeeping core as core_declarations.cocci leaves it: declarations
 * are struct timespec64 (or kept, where they reach an interface), helpers
 * and calls not yet. */

struct tk_state {
	struct timespec64 wall_to_monotonic;
};

static struct tk_state state;
static struct timespec64 raw_time;

static int __getnstimeofday64(struct timespec64 *ts)
{
	ts->tv_sec = 1;
	ts->tv_nsec = 0;
	timespec_add_ns(ts, 5);
	return 0;
}

int __getnstimeofday(struct timespec *ts)
{
	struct timespec64 ts64;
	int ret = __getnstimeofday64(&ts64);

	*ts = timespec64_to_timespec(ts64);
	return ret;
}

static struct timespec64 tk_xtime64(void)
{
	return raw_time;
}

struct timespec tk_xtime(void)
{
	return timespec64_to_timespec(tk_xtime64());
}

/* helpers on converted values, a twin called with a timespec64 */
static s64 wall_ns(void)
{
	struct timespec64 now;
	struct timespec64 wtm;

	__getnstimeofday(&now);
	wtm = timespec_add(now, state.wall_to_monotonic);
	if (!timespec_valid_strict(&wtm))
		return -1;
	set_normalized_timespec(&wtm, wtm.tv_sec, wtm.tv_nsec);
	return timespec_to_ns(&wtm);
}

/* a value kept as struct timespec meets converted ones */
static struct timespec64 persistent(void)
{
	struct timespec64 then;
	struct timespec now;

	read_persistent_clock(&now);
	then = now;
	now = raw_time;
	then = tk_xtime();
	return now;
}

/* left alone: helpers on values that stay struct timespec */
int compare_kept(struct timespec *a, struct timespec *b)
{
	__getnstimeofday(a);
	return timespec_compare(a, b);
}

/* left alone: foo64 exists, but foo does not wrap it */
static void foo64(struct timespec64 *ts)
{
	ts->tv_sec = 0;
}

void foo(struct timespec64 *ts)
{
	ts->tv_nsec = 0;
}

void use_foo(void)
{
	struct timespec64 ts;

	foo(&ts);
}
