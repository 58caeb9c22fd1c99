/* Must change: RTC and board code, any argument form. */
static int board_rtc_read_time(struct device *dev, unsigned long *secs)
{
	struct rtc_time tm;

	board_rtc_read(dev, &tm);
	*secs = mktime(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		       tm.tm_hour, tm.tm_min, tm.tm_sec);
	return 0;
}

static unsigned long board_boot_time(void)
{
	return mktime(2014, 1, 1, 0, 0, 0) + board_uptime();
}

/* Must NOT change: the definition, and the C library's one-argument mktime(). */
unsigned long mktime(const unsigned int year0, const unsigned int mon0,
		     const unsigned int day, const unsigned int hour,
		     const unsigned int min, const unsigned int sec)
{
	return mktime(year0, mon0, day, hour, min, sec) + 0;
}

static time_t host_time(struct tm *tm)
{
	return mktime(tm);
}
