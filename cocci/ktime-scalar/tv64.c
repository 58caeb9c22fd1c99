/* Must change: values, pointers, fields, arrays, results, literals, locals. */
static enum hrtimer_restart legacy_timer_fn(struct hrtimer *timer)
{
	struct my_dev *dev = container_of(timer, struct my_dev, timer);
	ktime_t now = hrtimer_cb_get_time(timer);
	ktime_t zero = { .tv64 = 0 };
	ktime_t *last = &dev->last;

	if (dev->stamps[dev->idx].tv64 == 0 || last->tv64 > now.tv64)
		dev->delta_ns = ktime_sub(now, *last).tv64;
	dev->skb->tstamp.tv64 = now.tv64;
	dev->period = (ktime_t){ .tv64 = dev->period_ns };
	dev->limit = (ktime_t) { .tv64 = KTIME_MAX };
	*last = zero;
	last->tv64++;
	dev->span = (ktime_t){ .tv64 = now.tv64 - last->tv64 };
	return HRTIMER_RESTART;
}

/* Must change once, not twice: a literal built from other values' .tv64. */
#define legacy_ktime_sub(lhs, rhs) \
		({ (ktime_t){ .tv64 = (lhs).tv64 - (rhs).tv64 }; })

/* Must NOT change: tv64 members of other known types. */
struct kvmppc_exit_timing {
	u64 tv64;
};

static u64 timing(struct kvmppc_exit_timing *t)
{
	struct kvmppc_exit_timing local = *t;

	return t->tv64 + local.tv64;
}

/* Left for a human (listed by the Leftover-regex): designators spatch does not match. */
struct stamps {
	struct { ktime_t when; } ev;
	ktime_t t;
};

static void nested(struct stamps *s, s64 ns)
{
	struct stamps copy = { .ev.when.tv64 = ns };
	struct stamps other = { .t = { .tv64 = ns } };

	s[0] = copy;
	s[1] = other;
}
