/* Must change: the monotonic reading moved to the boot-based clock, both spellings. */
static long board_uptime_ms(void)
{
	struct timespec ts;

	do_posix_clock_monotonic_gettime(&ts);
	monotonic_to_bootbased(&ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void board_stamp(struct board_dev *dev, struct timespec *out)
{
	ktime_get_ts(out);
	monotonic_to_bootbased(out);
	dev->stamped = 1;
}

/* Must NOT change: a stored reading moved later (not one boot-based read). */
static void board_resume_stamp(struct board_dev *dev)
{
	ktime_get_ts(&dev->last);
	dev->resumed++;
	monotonic_to_bootbased(&dev->last);
}

/* Must NOT change: an argument with side effects (advanced by each step). */
static void board_fill(struct timespec *p, int n)
{
	while (n--) {
		ktime_get_ts(p++);
		monotonic_to_bootbased(p++);
	}
}

/* Must NOT change: the two steps on different values. */
static void board_two(struct timespec *a, struct timespec *b)
{
	ktime_get_ts(a);
	monotonic_to_bootbased(b);
}

/* Must NOT change: a monotonic reading left monotonic. */
static void board_mono(struct timespec *a)
{
	do_posix_clock_monotonic_gettime(a);
}
