/* Must change: board timer code written for the non-scalar ktime_t. */
static ktime_t board_tick_period = { .tv = { .sec = 1, .nsec = 500000000 } };
static ktime_t board_poll_period = { .tv.sec = 2, .tv.nsec = 0 };
static ktime_t board_short_delay = { .tv = { .sec = 0, .nsec = 250000 } };
static ktime_t board_long_delay = { .tv = { .sec = 30, .nsec = 0 } };

static int vibrator_get_time(struct timed_output_dev *dev)
{
	struct timed_vibrator_data *data = container_of(dev, struct timed_vibrator_data, dev);

	if (hrtimer_active(&data->timer)) {
		ktime_t r = hrtimer_get_remaining(&data->timer);
		return r.tv.sec * 1000 + r.tv.nsec / 1000000;
	} else
		return 0;
}

static void board_set_alarm(struct board_rtc *rtc, const struct rtc_time *tm, ktime_t *next)
{
	ktime_t kt;
	ktime_t slack = { .tv = { .sec = 0, .nsec = rtc->slack_ns } };
	static ktime_t first = { .tv = { .sec = 5, .nsec = 0 } };

	kt.tv.sec = rtc_tm_to_secs(tm);
	kt.tv.nsec = 0;
	next->tv.nsec = rtc->offset_ns;
	next->tv.sec = rtc->offset_s;
	rtc->alarm = (ktime_t) { .tv.sec = rtc->base_s, .tv.nsec = rtc->base_ns };
	rtc->alarm_ns = kt.tv.sec * NSEC_PER_SEC + kt.tv.nsec;
	rtc->next_ns = next->tv.sec * NSEC_PER_SEC + next->tv.nsec;
	if (slack.tv.sec < 0 || first.tv.nsec > rtc->limit_ns)
		rtc->slack_ns = 0;
}

/* Must NOT change: printed through a format (reported: the types change). */
static void board_dump(ktime_t kt, ktime_t *p)
{
	pr_info("board: %d.%09d\n", kt.tv.sec, kt.tv.nsec);
	seq_printf(m, "next %d.%09d\n", p->tv.sec, p->tv.nsec);
	/* not half of it either: the nanoseconds inside an expression */
	pr_info("board: %8d.%03d\n", kt.tv.sec, kt.tv.nsec / 1000000);
}

/* Must NOT change: a half written alone, or updated in place (reported). */
static ktime_t board_normalise(ktime_t res, struct board_rtc *rtc)
{
	rtc->alarm.tv.sec = 5;
	if (res.tv.nsec < 0)
		res.tv.nsec += NSEC_PER_SEC;
	return res;
}

/* Must NOT change: tv.sec of another type. */
struct board_stamp {
	struct {
		u32 sec, nsec;
	} tv;
};

static u64 board_stamp_ns(struct board_stamp *s, struct board_stamp local)
{
	local.tv.sec = s->tv.sec;
	local.tv.nsec = s->tv.nsec;
	return (u64)local.tv.sec * NSEC_PER_SEC + s->tv.nsec;
}

/* Not matched (Coccinelle cannot express it): reported by the driver. */
static ktime_t board_make(long s)
{
	return (ktime_t) { .tv = { .sec = s, .nsec = 0 } };
}
