#define LPFC_SEC_MIN		60UL

/* Must change: seconds that may reach 5 (2^32 ns is 4.29 s). */
static void rearm(struct my_dev *dev, int secs, unsigned int timeout)
{
	/* lpfc in 6.12: 60 s became 4.17 s on 32-bit machines */
	hrtimer_forward_now(&dev->timer, ktime_set(0, LPFC_SEC_MIN * NSEC_PER_SEC));
	hrtimer_start(&dev->timer, ktime_set(0, secs * NSEC_PER_SEC), HRTIMER_MODE_REL);
	dev->t = ktime_set(0, NSEC_PER_SEC * timeout);
	dev->u = ktime_set(0, 5 * NSEC_PER_SEC);
	dev->v = ktime_set(0, (dev->a + dev->b) * NSEC_PER_SEC);
}

/* Must NOT change: below 2^32 ns, other units, other shapes, seconds already apart. */
static void keep(struct my_dev *dev, u32 delta_ns)
{
	dev->t = ktime_set(0, 4 * NSEC_PER_SEC);
	dev->u = ktime_set(0, 2 * NSEC_PER_SEC);
	dev->v = ktime_set(0, NSEC_PER_SEC);
	dev->w = ktime_set(0, (NSEC_PER_SEC + 100 - delta_ns));
	dev->x = ktime_set(0, dev->ms * NSEC_PER_MSEC);
	dev->y = ktime_set(dev->secs, 0);
	dev->z = ktime_set(1, dev->secs * NSEC_PER_SEC);
}
