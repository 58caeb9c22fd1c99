/* Must change: every call outside get_seconds() itself. */
static void touch(struct my_entry *e)
{
	unsigned long now = get_seconds();

	e->mtime = get_seconds();
	if (time_after((unsigned long)get_seconds(), e->expires))
		expire(e);
	pr_debug("now %lu\n", now);
}

/* Must change: an argument of the jiffies-style comparisons stays an unsigned long. */
static int session_expired(struct my_entry *e)
{
	return time_after(get_seconds(), e->expires) ||
	       time_in_range(e->created, get_seconds(), e->expires);
}

/* Must NOT change: the definition, other functions, look-alikes. */
unsigned long get_seconds(void)
{
	struct timekeeper *tk = &tk_core.timekeeper;

	return tk->xtime_sec;
}

static unsigned long other(struct my_entry *e)
{
	return e->get_seconds + my_get_seconds() + ktime_get_real_seconds();
}

/* Must change: the seconds of the coarse wall clock, spelled otherwise. */
static u32 stamp_now(struct my_entry *e)
{
	e->ctime = current_kernel_time().tv_sec;
	e->atime = CURRENT_TIME_SEC.tv_sec;
	return CURRENT_TIME.tv_sec;
}

/* Must change: printed through a format string, in the type it had. */
static void show(struct seq_file *m)
{
	seq_printf(m, "now %lu\n", get_seconds());
}

static void show_coarse(struct seq_file *m)
{
	seq_printf(m, "%ld %ld\n", CURRENT_TIME.tv_sec, current_kernel_time().tv_sec);
}

static void show_age(struct seq_file *m, struct my_entry *e)
{
	seq_printf(m, "up %lu\n", get_seconds() - e->created);
	if (time_before(get_seconds() - e->created, 60UL))
		seq_puts(m, "young\n");
}
