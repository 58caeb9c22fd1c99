/* Must change: vendor code printing the wall clock, RTC drivers. */
static void print_pm_status(int level)
{
	struct timespec ts;
	struct tm tm;

	getnstimeofday(&ts);
	time_to_tm((ts.tv_sec - (sys_tz.tz_minuteswest * 60)), 0, &tm);
	pr_info("PM %02d:%02d:%02d\n", tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static int board_rtc_set_alarm(struct device *dev, struct rtc_wkalrm *alrm)
{
	unsigned long now, when;
	struct rtc_time tm;

	board_rtc_read(dev, &tm);
	rtc_tm_to_time(&tm, &now);
	rtc_tm_to_time(&alrm->time, &when);
	if (when <= now)
		return -EINVAL;
	rtc_time_to_tm(when, &alrm->time);
	return board_rtc_write_alarm(dev, when - now);
}

/* A vendor RTC driver's forms: the seconds narrower than the pointer's type, the result stored. */
static int vendor_rtc_set_alarm(struct device *dev, struct rtc_wkalrm *alarm)
{
	u32 from;
	unsigned long secs;
	int ret;

	rtc_tm_to_time(&(alarm->time), (unsigned long *)&from);
	ret = rtc_tm_to_time(&alarm->time, &secs);
	if (ret)
		return ret;
	return vendor_rtc_program(dev, from, secs);
}

static void vendor_rtc_seconds(struct rtc_time *tm, unsigned long *secs)
{
	rtc_tm_to_time(tm, secs);
}

/* Must NOT change: the result tested or initialising a declaration; other functions with similar names. */
static int board_rtc_check(struct rtc_time *tm, unsigned long *secs)
{
	int ret = rtc_tm_to_time(tm, secs);

	board_time_to_tm(*secs, tm);
	return ret ? ret : rtc_time64_to_tm_checked(*secs, tm);
}

static int vendor_rtc_valid(struct rtc_time *tm, unsigned long *secs)
{
	if (rtc_tm_to_time(tm, secs))
		return -EINVAL;
	return 0;
}

static void vendor_rtc_image(struct rtc_time *tm, struct hw_regs *out)
{
	u8 buf[8];
	struct hw_regs regs;

	rtc_tm_to_time(tm, (unsigned long *)&buf[0]);
	rtc_tm_to_time(tm, (unsigned long *)&regs);
	vendor_rtc_write(buf, &regs, out);
}
