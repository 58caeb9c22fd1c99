/* include/linux/ktime.h, Linux 3.16 (abridged) */
union ktime {
	s64	tv64;
#if BITS_PER_LONG != 64 && !defined(CONFIG_KTIME_SCALAR)
	struct {
# ifdef __BIG_ENDIAN
	s32	sec, nsec;
# else
	s32	nsec, sec;
# endif
	} tv;
#endif
};

typedef union ktime ktime_t;		/* Kill this */

#if (BITS_PER_LONG == 64) || defined(CONFIG_KTIME_SCALAR)

static inline ktime_t ktime_set(const long secs, const unsigned long nsecs)
{
#if (BITS_PER_LONG == 64)
	if (unlikely(secs >= KTIME_SEC_MAX))
		return (ktime_t){ .tv64 = KTIME_MAX };
#endif
	return (ktime_t) { .tv64 = (s64)secs * NSEC_PER_SEC + (s64)nsecs };
}

#define ktime_sub(lhs, rhs) \
		({ (ktime_t){ .tv64 = (lhs).tv64 - (rhs).tv64 }; })

#else	/* !((BITS_PER_LONG == 64) || defined(CONFIG_KTIME_SCALAR)) */

static inline ktime_t ktime_set(const long secs, const unsigned long nsecs)
{
	return (ktime_t) { .tv = { .sec = secs, .nsec = nsecs } };
}

static inline ktime_t ktime_sub(const ktime_t lhs, const ktime_t rhs)
{
	ktime_t res;

	res.tv64 = lhs.tv64 - rhs.tv64;
	if (res.tv.nsec < 0)
		res.tv.nsec += NSEC_PER_SEC;

	return res;
}

#endif	/* !((BITS_PER_LONG == 64) || defined(CONFIG_KTIME_SCALAR)) */

/* kernel/hrtimer.c, Linux 3.16 */
#if BITS_PER_LONG < 64
# ifndef CONFIG_KTIME_SCALAR
ktime_t ktime_add_ns(const ktime_t kt, u64 nsec)
{
	ktime_t tmp;

	if (likely(nsec < NSEC_PER_SEC)) {
		tmp.tv64 = nsec;
	} else {
		unsigned long rem = do_div(nsec, NSEC_PER_SEC);

		/* Make sure nsec fits into long */
		if (unlikely(nsec > KTIME_SEC_MAX))
			return (ktime_t){ .tv64 = KTIME_MAX };

		tmp = ktime_set((long)nsec, rem);
	}

	return ktime_add(kt, tmp);
}

EXPORT_SYMBOL_GPL(ktime_add_ns);
# endif /* !CONFIG_KTIME_SCALAR */

/*
 * Divide a ktime value by a nanosecond value
 */
u64 ktime_divns(const ktime_t kt, s64 div)
{
	return div_u64(kt.tv64, div);
}
#endif /* BITS_PER_LONG >= 64 */

/* a board file's timer */
static unsigned long board_timer_ticks(ktime_t delta)
{
#if BITS_PER_LONG != 64 && !defined(CONFIG_KTIME_SCALAR)
	return delta.tv.sec * BOARD_HZ + delta.tv.nsec / BOARD_NS_PER_TICK;
#else
	return div_u64(delta.tv64, BOARD_NS_PER_TICK);
#endif
}

#ifdef CONFIG_KTIME_SCALAR
#define BOARD_KTIME_FAST 1
#endif

#if defined(CONFIG_BOARD_DEBUG) && !defined(CONFIG_KTIME_SCALAR)
static void board_dump_ktime(ktime_t kt)
{
	pr_debug("%d.%09d\n", kt.tv.sec, kt.tv.nsec);
}
#endif

/* must stay: other symbols only */
#if BITS_PER_LONG != 64
#define BOARD_SPLIT_COUNTER 1
#endif

#ifdef CONFIG_KTIME_SCALAR_STATS
static unsigned long board_ktime_stats;
#endif
