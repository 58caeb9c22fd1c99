/* Must change: any later/earlier expressions, casts, nested in expressions. */
static void finish(struct ata_port *ap, struct my_dev *dev, ktime_t start)
{
	s64 us = ktime_to_us(ktime_sub(ktime_get(), start));
	unsigned int ms;

	dev->elapsed_us = ktime_to_us(ktime_sub(dev->end, dev->stamps[2]));
	ms = (unsigned int)ktime_to_ms(ktime_sub(ktime_get_boottime(), ap->last));
	pr_debug("took %lld us, %u ms\n", us, ms);
	if (ktime_to_ms(ktime_sub(ktime_get(), start)) > TIMEOUT_MS)
		dev_warn(dev->dev, "slow: %lld ms\n",
			 ktime_to_ms(ktime_sub(ktime_get(),
					       start)));
}

/* Must NOT change: other units, plain subtraction, the helpers themselves. */
static s64 untouched(ktime_t a, ktime_t b)
{
	s64 ns = ktime_to_ns(ktime_sub(a, b));

	return ns + ktime_to_us(a - b) + ktime_to_ms(ktime_add(a, b)) +
	       ktime_to_us(ktime_sub_ns(a, 5));
}

static inline s64 ktime_us_delta(const ktime_t later, const ktime_t earlier)
{
       return ktime_to_us(ktime_sub(later, earlier));
}

static inline s64 ktime_ms_delta(const ktime_t later, const ktime_t earlier)
{
	return ktime_to_ms(ktime_sub(later, earlier));
}
