#include <linux/time.h>

/* Must go: the file no longer calls them. */
extern void do_gettimeofday(struct timeval *tv);
void getnstimeofday(struct timespec *ts);

/* Must stay: still called below. */
extern unsigned long get_seconds(void);

/* Must stay: not a time function. */
extern int board_read(int reg);

/* Must stay: a definition (a compat shim), not a prototype. */
static inline void getrawmonotonic(struct timespec *ts)
{
	ktime_get_raw_ts64((struct timespec64 *)ts);
}

static int board_stamp(void)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	return get_seconds() + board_read(ts.tv_nsec);
}
