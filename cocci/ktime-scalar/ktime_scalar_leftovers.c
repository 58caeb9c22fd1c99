/*
 * my_clock:
 *
 * On 64-bit CPUs a single 64-bit variable holds the count.
 *
 * On 32-bit CPUs an optimized representation of the timespec structure
 * keeps seconds and nanoseconds apart.
 *
 * Builds without CONFIG_KTIME_SCALAR pay for the split.
 */
struct my_clock { long long ns; };

/*
 * values of the 64-bit scalar representation:
 */

/* a scalar comment that only says scalar: it stays */
static long long my_scale(long long ns)
{
	/*
	 * Build the value with ktime_set on 32-bit architectures
	 * without CONFIG_KTIME_SCALAR.
	 */
	return ns * 2;
}

/* a comment between two statements leaves a blank line */
static long long my_add(long long ns)
{
	ns += 1;
	/*
	 * Add on 32-bit architectures without CONFIG_KTIME_SCALAR.
	 */
	return ns * 2;
}

#define MY_MAX			((long long)~((unsigned long long)1 << 63))
#if (BITS_PER_LONG == 64)
# define KTIME_SEC_MAX			(MY_MAX / 1000000000L)
#else
# define KTIME_SEC_MAX			LONG_MAX
#endif

/* must stay: another macro behind the same test */
#if (BITS_PER_LONG == 64)
# define MY_WORD_BITS 64
#else
# define MY_WORD_BITS 32
#endif

/*
 * my_watch: a module written for the 3.x ktime_t, with .tv.sec on
 * 32-bit architectures without CONFIG_KTIME_SCALAR (its subject: stays).
 *
 * Another paragraph.
 */
