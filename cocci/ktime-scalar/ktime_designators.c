/* Must change: ktime_t members of platform data set through the union. */
static struct gpio_event_input_info board_keys = {
	.info.func = gpio_event_input_func,
	.debounce_time.tv64 = 5 * NSEC_PER_MSEC,
	.type = EV_KEY,
};

static struct gpio_event_matrix_info board_matrix = {
	.settle_time.tv.nsec = 40 * NSEC_PER_USEC,
	.poll_time.tv.nsec = 20 * NSEC_PER_MSEC,
	.flags = 0
};

static struct board_timing board_slow = {
	.poll.tv.sec = 1,
	.mode = 3,
	.poll.tv.nsec = 500 * NSEC_PER_MSEC,
	.hold.tv.sec = 2
};

static struct board_stamps board_pair = { .t.tv.sec = 2, .t.tv.nsec = 0 };
static struct board_stamps board_expr = { .t.tv.sec = SLOW ? 1 : 2, .t.tv.nsec = BASE + 1, .u = 1 };
static struct board_stamps board_nested = { .ev.when.tv64 = 0, .arr[1].t.tv64 = 7 };
static struct board_stamps board_braced = { .t = { .tv64 = KTIME_MAX } };

/* Must NOT change: member accesses, comments and strings. */
static s64 board_read(struct board_stamps *s)
{
	/* .debounce_time.tv64 = 5 stays in a comment */
	pr_info("{ .t.tv.sec = %d }\n", 1);
	if (s->t.tv64 == 0)
		return s->ev.when.tv64;
	return s->arr[0].t.tv.sec;
}

/* Must change: designators on both sides of an #if. */
static struct board_timing board_split = {
	.mode = 1,
#if BITS_PER_LONG != 64 && !defined(CONFIG_KTIME_SCALAR)
	.poll.tv.nsec = 5 * NSEC_PER_MSEC,
#else
	.poll.tv64 = 5 * NSEC_PER_MSEC,
#endif
};
