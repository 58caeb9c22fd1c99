// SPDX-License-Identifier: GPL-2.0-only
/*
 * y2038 boot check: does stmmac's get_ptptime() return the auxiliary
 * snapshot time in nanoseconds on 32-bit machines?
 *
 * get_ptptime() adds the snapshot's seconds register (PTP_ATSR) times
 * NSEC_PER_SEC to its nanoseconds register (PTP_ATNR).  readl() returns a
 * u32 and NSEC_PER_SEC is a long: on a 32-bit machine the product is an
 * unsigned long, kept modulo 2^32 ns, so every snapshot past 4.29 s of PTP
 * time comes out wrong.  A PTP clock runs on TAI: 1700000000 s (November
 * 2023) and 5 ns come out as 1700000000 * 10^9 mod 2^32 + 5 = 908722181 ns.
 *
 * get_ptptime() is static, so the check compiles stmmac_hwtstamp.c into
 * itself (the driver stays off: stmmac_ptp is defined here instead) and
 * points it at registers held in memory: readl() of RAM is a load.
 *
 * Not a patch for the kernel: the boot stage adds it to the kernels it boots
 * to prove the fix (it fails without the fix and passes with it).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include "ethernet/stmicro/stmmac/stmmac_hwtstamp.c"

/* The time get_ptptime() reads from the snapshot registers set to sec, nsec. */
static u64 snapshot_ns(struct kunit *test, u32 sec, u32 nsec)
{
	u32 *regs = kunit_kzalloc(test, PTP_ATSR + sizeof(u32), GFP_KERNEL);
	u64 ns = 0;

	KUNIT_ASSERT_NOT_NULL(test, regs);
	regs[PTP_ATNR / sizeof(u32)] = nsec;
	regs[PTP_ATSR / sizeof(u32)] = sec;
	get_ptptime((void __force __iomem *)regs, &ns);
	return ns;
}

/* Control: 1 s of PTP time fits in 32 bits of nanoseconds (right on every machine). */
static void one_second(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, snapshot_ns(test, 1, 5), (u64)NSEC_PER_SEC + 5);
}

/* The fix: a real PTP time, 1700000000 s, not 908722181 ns. */
static void seconds_of_a_real_ptp_time(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, snapshot_ns(test, 1700000000, 5), 1700000000ULL * NSEC_PER_SEC + 5);
}

static struct kunit_case y2038_stmmac_ptp_cases[] = {
	KUNIT_CASE(one_second),
	KUNIT_CASE(seconds_of_a_real_ptp_time),
	{}
};

static struct kunit_suite y2038_stmmac_ptp_suite = {
	.name = "y2038_stmmac_ptp",
	.test_cases = y2038_stmmac_ptp_cases,
};
kunit_test_suite(y2038_stmmac_ptp_suite);

MODULE_DESCRIPTION("y2038 boot check: stmmac's auxiliary snapshot time on 32-bit machines");
MODULE_LICENSE("GPL");
