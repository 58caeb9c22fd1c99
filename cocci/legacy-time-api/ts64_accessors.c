/* Must change: every renamed accessor, through pointers and fields. */
static void read_clocks(struct clk_sample *s, struct timespec64 *out)
{
	struct timespec64 ts;

	getnstimeofday64(&ts);
	getrawmonotonic64(&s->raw);
	get_monotonic_boottime64(out);
	timekeeping_clocktai64(&s->tai);
	ts = current_kernel_time64();
	s->coarse = get_monotonic_coarse64();
	*out = current_kernel_time64();
	s->wall = ts;
}

/* Must NOT change: values used in expressions, current names, look-alikes. */
static struct timespec64 coarse_now(void)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	my_getnstimeofday64_wrapper(&ts);
	return current_kernel_time64();
}
