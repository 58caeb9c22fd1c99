/* Must change: a sum that starts at 0, in loops and branches, each helper. */
static ktime_t total(struct my_dev *dev, int n)
{
	ktime_t kt = 0;
	int i;

	for (i = 0; i < n; i++)
		kt = ktime_add_ns(kt, dev->step_ns[i]);
	if (dev->extra)
		kt = ktime_add(kt, dev->extra_kt);
	kt = ktime_sub_ns(kt, dev->skew_ns);
	kt = ktime_sub(kt, dev->offset);
	return kt;
}

static ktime_t from_ktime_set(struct my_dev *dev)
{
	ktime_t sum = ktime_set(0, 0);

	sum = ktime_add_ns(sum, dev->a + dev->b);
	return sum;
}

/* Must NOT change: other starts, other targets, other operands, values. */
static ktime_t keep(struct my_dev *dev, ktime_t start)
{
	ktime_t kt = ktime_get();
	ktime_t zero = 0;
	ktime_t other;

	kt = ktime_add_ns(kt, 5);
	other = ktime_add_ns(zero, 5);
	start = ktime_add_ns(start, 5);
	dev->t = ktime_add(dev->t, zero);
	return ktime_add_ns(zero, 7);
}
