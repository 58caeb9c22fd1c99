/* Must change: locals filled by the conversions and read field by field. */
static void board_irq_latency(struct board *b, ktime_t start)
{
	struct timeval lat = ktime_to_timeval(ktime_sub(ktime_get(), start));

	if (lat.tv_sec > 0 || lat.tv_usec > b->max_latency_us)
		b->slow_irqs++;
	b->last_ms = lat.tv_sec * 1000 + lat.tv_usec / 1000;
}

static u32 board_frame_stamp(struct board *b, u64 ns)
{
	struct timeval tv;
	struct timeval now;

	tv = ns_to_timeval(ns);
	do_gettimeofday(&now);
	now = ktime_to_timeval(b->frame_time);
	return tv.tv_sec * USEC_PER_SEC + tv.tv_usec + now.tv_usec;
}

static ktime_t board_timeout(struct board *b, struct timeval tv, struct timeval *limit)
{
	ktime_t a = timeval_to_ktime(tv);
	ktime_t c = timeval_to_ktime(*limit);

	b->deadline = ktime_add(timeval_to_ktime(b->timeout), a);
	return ktime_add(c, timeval_to_ktime(b->cfg->poll));
}

/* Must NOT change: the value escapes into an ABI structure or is printed. */
static int board_get_stamp(struct board *b, struct timeval __user *uptr)
{
	struct timeval tv = ktime_to_timeval(b->stamp);
	struct timeval printed;

	printed = ns_to_timeval(b->age_ns);
	pr_info("board: age %ld.%06ld\n", printed.tv_sec, printed.tv_usec);
	return copy_to_user(uptr, &tv, sizeof(tv)) ? -EFAULT : 0;
}

/* Must NOT change: an argument with side effects would be evaluated twice. */
static ktime_t board_next(struct board *b)
{
	return timeval_to_ktime(board_pop_interval(b));
}

/* Must change, with parentheses where the quotient meets a tighter operator. */
static u32 board_latency_scaled(struct board *b, ktime_t delta)
{
	struct timeval lat = ktime_to_timeval(delta);

	return b->scale * lat.tv_usec + (u16)lat.tv_usec;
}

/* Must NOT change: initialised from a value that stays a struct timeval. */
static long board_age(struct board *b)
{
	struct timeval tv = b->last_tv;

	tv = ktime_to_timeval(b->stamp);
	return tv.tv_sec;
}

/* Must change: a field read from the result on the spot. */
static void read_elapsed_secs(void *buf, struct tcp_estats *stats)
{
	ktime_t elapsed = ktime_sub(stats->current_ts, stats->start_ts);
	u32 secs, usecs;

	secs = ktime_to_timeval(elapsed).tv_sec;
	usecs = ns_to_timeval(stats->rtt_ns).tv_usec;
	stats->scaled = stats->scale * ktime_to_timeval(elapsed).tv_usec;
	memcpy(buf, &secs, 4);
	memcpy(buf + 4, &usecs, 4);
}

/* Must NOT change: printed through a format string. */
static void thermal_dump(ktime_t curr_time)
{
	pr_debug("now %ld.%06ld\n", ktime_to_timeval(curr_time).tv_sec,
		 ktime_to_timeval(curr_time).tv_usec);
}

/* Must change: locals declared in an inner block, read on that branch only. */
static int board_remaining_ms(struct board *b)
{
	if (hrtimer_active(&b->timer)) {
		ktime_t left = hrtimer_get_remaining(&b->timer);
		struct timeval r = ktime_to_timeval(left);

		return r.tv_sec * 1000 + r.tv_usec / 1000;
	}
	return 0;
}

static u32 board_age_us(struct board *b, int fresh)
{
	u32 us = 0;

	if (!fresh) {
		struct timeval age;

		age = ns_to_timeval(b->age_ns);
		us = age.tv_sec * USEC_PER_SEC + age.tv_usec;
	}
	return us;
}

/* Must NOT change: the value escapes to user space on one branch only. */
static int board_copy_stamp(struct board *b, struct timeval __user *uptr, int user)
{
	struct timeval tv = ktime_to_timeval(b->stamp);

	if (user)
		return copy_to_user(uptr, &tv, sizeof(tv)) ? -EFAULT : 0;
	return tv.tv_sec;
}
