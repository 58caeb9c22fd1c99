// SPDX-License-Identifier: GPL-2.0-only
/*
 * y2038 boot check: does io_uring_enter() wait min_wait_usec on 32-bit
 * machines?
 *
 * io_get_ext_arg() sets the minimum wait to arg.min_wait_usec *
 * NSEC_PER_USEC, a __u32 times a long: on a 32-bit machine the product is
 * a 32-bit unsigned long, kept modulo 2^32 ns (4.29 s).  5000000 us is
 * 5000000000 ns, which comes out as 5000000000 - 2^32 = 705032704 ns.
 *
 * io_get_ext_arg() is static and its only caller is the system call, so
 * each case makes the system calls a program does, from the test's kernel
 * thread with a KUnit user mapping for their arguments: io_uring_setup(),
 * then io_uring_enter() waiting for one completion with a minimum wait and
 * no timeout.  Nothing is submitted, so nothing completes: with no timeout
 * the wait ends when the minimum wait's hrtimer fires, with -ETIME.  The
 * time the call took is the minimum wait (plus the time to wake up).
 *
 * Not a patch for the kernel: the boot stage adds it to the kernels it boots
 * to prove the fix (it fails without the fix and passes with it).
 */
#include <kunit/test.h>
#include <linux/fdtable.h>
#include <linux/io_uring.h>
#include <linux/ktime.h>
#include <linux/mman.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>

/* Waking up after the hrtimer fires, on a slow emulated machine. */
#define WAKE_UP_SLACK_NS (2 * NSEC_PER_SEC)

struct ring {
	int fd;
	void __user *user;	/* a page of user memory for the calls' arguments */
};

static int ring_init(struct kunit *test)
{
	struct ring *ring = kunit_kzalloc(test, sizeof(*ring), GFP_KERNEL);
	unsigned long user;

	if (!ring)
		return -ENOMEM;
	ring->fd = -1;
	test->priv = ring;
	user = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, user, 0, "could not create a user mm");
	KUNIT_ASSERT_LT_MSG(test, user, (unsigned long)TASK_SIZE, "could not map user memory");
	ring->user = (void __user *)user;
	/* an anonymous page is zeroed: struct io_uring_params with no flags */
	ring->fd = sys_io_uring_setup(4, ring->user);
	KUNIT_ASSERT_GE_MSG(test, ring->fd, 0, "io_uring_setup() failed");
	return 0;
}

static void ring_exit(struct kunit *test)
{
	struct ring *ring = test->priv;

	if (ring && ring->fd >= 0)
		close_fd(ring->fd);
}

/* How long io_uring_enter() waited for a completion that never comes, with this minimum wait. */
static s64 waited_ns(struct kunit *test, u32 min_wait_usec)
{
	struct ring *ring = test->priv;
	struct io_uring_getevents_arg arg = { .min_wait_usec = min_wait_usec };
	ktime_t start;
	long ret;

	KUNIT_ASSERT_EQ(test, copy_to_user(ring->user, &arg, sizeof(arg)), 0);
	start = ktime_get();
	ret = sys_io_uring_enter(ring->fd, 0, 1, IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
				 ring->user, sizeof(arg));
	KUNIT_EXPECT_EQ(test, ret, (long)-ETIME);
	return ktime_to_ns(ktime_sub(ktime_get(), start));
}

static void expect_wait(struct kunit *test, u32 min_wait_usec)
{
	s64 expected = (s64)min_wait_usec * NSEC_PER_USEC;
	s64 waited = waited_ns(test, min_wait_usec);

	KUNIT_EXPECT_GE(test, waited, expected);
	KUNIT_EXPECT_LT(test, waited, expected + WAKE_UP_SLACK_NS);
}

/* Control: 1 s is 10^9 ns, under 2^32 (right on every machine). */
static void one_second(struct kunit *test)
{
	expect_wait(test, 1000000);
}

/* The fix: 5 s, not 705032704 ns. */
static void five_seconds(struct kunit *test)
{
	expect_wait(test, 5000000);
}

static struct kunit_case y2038_io_uring_min_wait_cases[] = {
	KUNIT_CASE(one_second),
	KUNIT_CASE(five_seconds),
	{}
};

static struct kunit_suite y2038_io_uring_min_wait_suite = {
	.name = "y2038_io_uring_min_wait",
	.init = ring_init,
	.exit = ring_exit,
	.test_cases = y2038_io_uring_min_wait_cases,
};
kunit_test_suite(y2038_io_uring_min_wait_suite);

MODULE_DESCRIPTION("y2038 boot check: io_uring's minimum wait on 32-bit machines");
MODULE_LICENSE("GPL");
