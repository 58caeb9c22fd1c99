/* Must change: plain locals read through tv_sec and tv_usec. */
static void stamp_event(struct my_event *ev)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	ev->sec = tv.tv_sec;
	ev->usec = tv.tv_usec;
}

static unsigned long elapsed_ms(unsigned long start_ms)
{
	struct timeval now;
	unsigned long ms;

	do_gettimeofday(&now);
	ms = now.tv_sec * 1000 + now.tv_usec / 1000;
	return ms - start_ms;
}

static int wait_ready(struct my_dev *dev)
{
	struct timeval start;
	struct timeval now;
	int ret = 0;

	do_gettimeofday(&start);
	while (!ready(dev)) {
		do_gettimeofday(&now);
		if (now.tv_sec - start.tv_sec > 2) {
			ret = -ETIMEDOUT;
			break;
		}
	}
#ifdef DEBUG
	if (now.tv_usec > start.tv_usec)
		dev->usecs = now.tv_usec - start.tv_usec;
#endif
	return ret;
}

/* Must NOT change: the value escapes, is written, printed, or not a plain local. */
static long ioctl_time(void __user *arg)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	if (copy_to_user(arg, &tv, sizeof(tv)))
		return -EFAULT;
	return 0;
}

static void fill_wire(struct wire_hdr *hdr)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	tv.tv_usec += 500;
	hdr->stamp = tv;
}

/*
 * Must change, though printed: the seconds' %ld becomes %lld (time64_t is a
 * long long); the microseconds stay a long.
 */
static void log_time(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	pr_info("now %ld.%06ld\n", tv.tv_sec, tv.tv_usec);
}

static void stamp_field(struct my_dev *dev)
{
	do_gettimeofday(&dev->last_irq);
}

static void from_pointer(struct timeval *out)
{
	do_gettimeofday(out);
}

static int two_in_one_declaration(void)
{
	struct timeval start, now;

	do_gettimeofday(&start);
	do_gettimeofday(&now);
	return now.tv_sec - start.tv_sec;
}

/* Must change, with parentheses where the quotient meets a tighter operator. */
static void board_stamp_fields(struct board_stamp *s, u32 scale)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	s->usec_byte = (u8)tv.tv_usec;
	s->scaled = scale * tv.tv_usec;
	s->per_usec = 1000000 / tv.tv_usec;
	s->usec_twice = tv.tv_usec * 2;
	s->total_us = tv.tv_sec * USEC_PER_SEC + tv.tv_usec;
}

/* Must change: a brace-list initializer suits timespec64. */
static u64 board_now_us(void)
{
	struct timeval tv = { 0 };

	do_gettimeofday(&tv);
	return (u64)tv.tv_sec * USEC_PER_SEC + tv.tv_usec;
}

/* Must NOT change: initialised from a value that stays a struct timeval. */
static long board_refresh(struct board_stamp *s)
{
	struct timeval tv = s->last;

	do_gettimeofday(&tv);
	return tv.tv_sec;
}

/*
 * Must change: an else that exists only under a configuration gives spatch
 * two control-flow views of the function (a walk through its body failed
 * with "reachable by inconsistent control-flow paths").
 */
static int board_timed_cmd(int cmd)
{
#ifdef CONFIG_BOARD_TIMING
	struct timeval t1;
#endif
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
#ifdef CONFIG_BOARD_TIMING
	do_gettimeofday(&t1);
	pr_info("done at %ld us\n", t1.tv_usec);
#endif
	return 0;
}

/* Must change: a local declared in a nested block. */
static void board_probe_stamp(struct board_probe *bp)
{
	if (!bp->stamp) {
		struct timeval nested;

		do_gettimeofday(&nested);
		bp->stamp = (u64)nested.tv_sec * 1000000 + nested.tv_usec;
	}
}

/*
 * Must change: a driver's own logging macro prints arithmetic on the
 * seconds with %ld, which becomes %lld.
 */
static void queue_stamp(struct rx_queue *q)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	RXQ_LOG(q, RXQ_DEBUG, "queued at %ld ms\n", tv.tv_sec * 1000 + tv.tv_usec / 1000);
}

/*
 * Must not change: a format in two pieces (the value's conversion is not
 * found in the first), and a value that is a comparison of the seconds.
 */
static void log_pieces(struct rx_queue *q)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	RXQ_WARN(q, "queue %d stalled at %d,", " retry %d\n", q->id, tv.tv_sec, q->retries);
}

static void log_late(long limit)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	pr_info("late: %ld\n", tv.tv_sec > limit ? tv.tv_sec - limit : 0L);
}

/* Must change: a cast fixes the printed type, so the format stays. */
static void log_short(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	pr_info("at %lu\n", (unsigned long)tv.tv_sec);
}

/* Must change: %d printed the long seconds; a long long needs %lld. */
static void log_int(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	pr_info("at %d\n", tv.tv_sec);
}

/* Must change: zeroing the local is no use of its layout. */
static long zeroed_first(void)
{
	struct timeval tv;

	memset(&tv, 0, sizeof(tv));
	do_gettimeofday(&tv);
	return tv.tv_sec;
}

/* Must change: the size zeroed follows the local's new type. */
static long zeroed_by_type(void)
{
	struct timeval tv;

	memset(&tv, 0, sizeof(struct timeval));
	do_gettimeofday(&tv);
	return tv.tv_sec;
}

/* Must NOT change: the local is copied out whole after it is zeroed. */
static void zeroed_then_copied(struct timeval *out)
{
	struct timeval tv;

	memset(&tv, 0, sizeof(tv));
	do_gettimeofday(&tv);
	memcpy(out, &tv, sizeof(tv));
}
