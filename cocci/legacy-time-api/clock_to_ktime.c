/* Must change: the clock read only to be turned into a ktime_t. */
static void stamp_rx(struct sk_buff *skb)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	skb->tstamp = timeval_to_ktime(tv);
}

static ktime_t stamp_now(void)
{
	struct timespec ts;

	getnstimeofday(&ts);
	return timespec_to_ktime(ts);
}

static void stamp_mono(struct my_dev *dev)
{
	struct timespec ts;
	int n = dev->count;

	ktime_get_ts(&ts);
	dev->count = n + 1;
	dev->last = timespec_to_ktime(ts);
}

/* Must NOT change: the timeval is used for something else too. */
static ktime_t stamp_printed(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	pr_info("at %ld\n", tv.tv_sec);
	return timeval_to_ktime(tv);
}

static void stamp_kept(struct sk_buff *skb, struct timeval *out)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	skb->tstamp = timeval_to_ktime(tv);
	*out = tv;
}
