/* Must change: every call outside get_seconds() itself. */
static void touch(struct my_entry *e)
{
	unsigned long now = get_seconds();

	e->mtime = get_seconds();
	if (time_after((unsigned long)get_seconds(), e->expires))
		expire(e);
	pr_debug("now %lu\n", now);
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
