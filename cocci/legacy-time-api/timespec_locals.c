/* Must change: locals whose every use has a timespec64 twin. */
static u64 uptime_ns(void)
{
	struct timespec ts;

	ktime_get_ts(&ts);
	return timespec_to_ns(&ts);
}

static u64 coarse_ms(void)
{
	struct timespec ts = get_monotonic_coarse();

	return ts.tv_sec * MSEC_PER_SEC + ts.tv_nsec / NSEC_PER_MSEC;
}

static bool coarse_passed(u64 deadline_sec)
{
	struct timespec now;

	now = get_monotonic_coarse();
	return now.tv_sec > deadline_sec;
}

static u64 uptime_posix_ns(void)
{
	struct timespec ts;

	do_posix_clock_monotonic_gettime(&ts);
	return timespec_to_ns(&ts);
}

static void sample(struct clk_stats *st)
{
	struct timespec now;
	struct timespec raw;

	getnstimeofday(&now);
	getrawmonotonic(&raw);
	st->wall_sec = now.tv_sec;
	st->raw_nsec = raw.tv_nsec;
}

static bool deadline_passed(struct wd *wd)
{
	struct timespec now;
	struct timespec deadline;

	now = current_kernel_time();
	set_normalized_timespec(&deadline, wd->start_sec + wd->timeout, 0);
	timespec_add_ns(&deadline, wd->slack_ns);
	return timespec_compare(&now, &deadline) > 0;
}

static s64 elapsed(struct wd *wd)
{
	struct timespec start;
	struct timespec end;
	struct timespec delta;

	start = ns_to_timespec(wd->start_ns);
	get_monotonic_boottime(&end);
	delta = timespec_sub(end, start);
	if (!timespec_valid(&delta))
		return -EINVAL;
	return ktime_to_ns(timespec_to_ktime(delta));
}

/* Must NOT change: values that escape, and everything combined with them. */
static long get_time(struct timespec __user *uts)
{
	struct timespec ts;

	getnstimeofday(&ts);
	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

static int compare_with_escaping(struct wd *wd)
{
	struct timespec now;
	struct timespec then;

	getnstimeofday(&now);
	wd_record(wd, &then);
	return timespec_equal(&now, &then);
}

/* Must change, though printed: the seconds' %ld becomes %lld. */
static void print_it(void)
{
	struct timespec ts;

	getnstimeofday(&ts);
	pr_info("time %ld.%09ld\n", ts.tv_sec, ts.tv_nsec);
}

static void fill_param(struct timespec *ts)
{
	getnstimeofday(ts);
}

static void fill_field(struct wd *wd)
{
	wd->last = current_kernel_time();
}

/* Must change: initialisers that suit timespec64 or have a 64-bit twin. */
static unsigned long long get_timer_value(void)
{
	unsigned long long total_us;
	struct timespec ts = (struct timespec){0, 0};

	getnstimeofday(&ts);
	total_us = ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	return total_us;
}

static void stamp_zeroed(struct clk_stats *st)
{
	struct timespec now = {0};
	struct timespec coarse = current_kernel_time();

	ktime_get_ts(&now);
	st->mono_sec = now.tv_sec;
	st->coarse_nsec = coarse.tv_nsec;
}

/* Must NOT change: initialised from a value that stays a struct timespec. */
static void stamp_from_field(struct clk_stats *st)
{
	struct timespec ts = st->last;

	getnstimeofday(&ts);
	st->wall_sec = ts.tv_sec;
}

/* Must change: a local declared in a nested block. */
static void board_probe_stamp(struct board_probe *bp)
{
	if (!bp->stamp) {
		struct timespec nested;

		get_monotonic_boottime(&nested);
		bp->stamp = (u64)nested.tv_sec * 1000000 + nested.tv_nsec / 1000;
	}
}

/*
 * Must change: an else that exists only under a configuration gives spatch
 * two control-flow views of the function (a walk through its body failed).
 */
static int board_timed_cmd(int cmd)
{
	struct timespec t1;

	if (cmd < 4) {
		switch (cmd) {
		case 1:
			{
				board_kick();
			}
			break;
		default:
			{
				return -EINVAL;
			}
			break;
		}
	}
#ifdef CONFIG_BOARD_ENCODER
	else
	{
		return -EINVAL;
	}
#endif
	getnstimeofday(&t1);
	return t1.tv_nsec;
}

/*
 * Must change: the lockless __current_kernel_time() read into a local whose
 * seconds go to time64_to_tm() and whose nanoseconds are printed as a long.
 */
static void log_wall_clock(struct tm *out)
{
	struct timespec now;

	now = __current_kernel_time();
	time64_to_tm(now.tv_sec, 0, out);
	pr_info("at %02d:%02d.%03lu\n", out->tm_min, out->tm_sec,
		(unsigned long)now.tv_nsec / 1000000);
}

/*
 * Must change: a driver's own logging macro prints the seconds with %lu,
 * which becomes %llu.
 */
static void frame_done(struct cam_dev *cam)
{
	struct timespec done;

	ktime_get_ts(&done);
	CAM_TRACE(cam, "frame at %lu.%09lu\n", done.tv_sec, done.tv_nsec);
}

/* Must not change: the printed value is a comparison of the seconds. */
static void frame_late(struct cam_dev *cam, long limit)
{
	struct timespec now;

	ktime_get_ts(&now);
	CAM_TRACE(cam, "late %ld\n", now.tv_sec > limit ? now.tv_sec - limit : 0L);
}

/* Must change: a helper given the local's own fields as its arguments. */
static void cam_next_frame(struct cam *c)
{
	struct timespec due;

	ktime_get_ts(&due);
	set_normalized_timespec(&due, due.tv_sec + 1, due.tv_nsec + c->frame_ns);
	c->due_ns = timespec_to_ns(&due);
}

/* Must NOT change: a field's address escapes, next to the same helper. */
static void cam_store_frame(struct cam *c)
{
	struct timespec due;

	ktime_get_ts(&due);
	set_normalized_timespec(&due, due.tv_sec, due.tv_nsec + c->frame_ns);
	cam_store_secs(c, &due.tv_sec);
}

/* Must change: fields read from a conversion's result on the spot. */
static void cam_stamp_fields(struct cam *c)
{
	c->sec = ktime_to_timespec(c->kt).tv_sec;
	c->nsec = ns_to_timespec(c->ns).tv_nsec;
	pr_debug("frame at +%ld ns\n", ktime_to_timespec(c->kt).tv_nsec);
}

/* Must NOT change: the seconds printed through a format. */
static void cam_print_stamp(struct cam *c)
{
	pr_info("frame at %ld s\n", ktime_to_timespec(c->kt).tv_sec);
	pr_info("%ld ms\n", ns_to_timespec(c->ns).tv_sec * 1000);
}
