// SPDX-License-Identifier: GPL-2.0-only
/*
 * y2038 boot check: does writing perf_event_mux_interval_ms give each CPU's
 * multiplexing hrtimer that many milliseconds on 32-bit machines?
 *
 * perf_event_mux_interval_ms_store() sets each CPU's hrtimer_interval to
 * ns_to_ktime(NSEC_PER_MSEC * timer), timer an int: on a 32-bit machine the
 * product is a 32-bit long and wraps past 2^31 ns (2147 ms).  5000 ms is
 * 5000000000 ns, which comes out as 5000000000 - 2^32 = 705032704 ns.
 *
 * The store is static: each case registers a PMU with no events and no
 * hardware (perf_invalid_context), so it gets the event_source device and
 * its attributes, and calls the attribute's store as a write to its sysfs
 * file does.  With no event to rotate, the hrtimer the store starts stops
 * when it fires; the exit cancels it before the PMU goes.
 *
 * Not a patch for the kernel: the boot stage adds it to the kernels it boots
 * to prove the fix (it fails without the fix and passes with it).
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#define MUX_ATTRIBUTE "perf_event_mux_interval_ms"

static int no_event_init(struct perf_event *event)
{
	return -ENOENT;
}

static int no_add(struct perf_event *event, int flags)
{
	return 0;
}

static void no_op(struct perf_event *event, int flags)
{
}

static void no_read(struct perf_event *event)
{
}

static int mux_pmu_init(struct kunit *test)
{
	struct pmu *pmu = kunit_kzalloc(test, sizeof(*pmu), GFP_KERNEL);

	if (!pmu)
		return -ENOMEM;
	pmu->task_ctx_nr = perf_invalid_context;
	pmu->event_init = no_event_init;
	pmu->add = no_add;
	pmu->del = no_op;
	pmu->start = no_op;
	pmu->stop = no_op;
	pmu->read = no_read;
	if (perf_pmu_register(pmu, "y2038_mux", -1))
		return -ENODEV;
	test->priv = pmu;
	return 0;
}

static void mux_pmu_exit(struct kunit *test)
{
	struct pmu *pmu = test->priv;
	int cpu;

	if (!pmu)
		return;
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(pmu->cpu_pmu_context, cpu)->hrtimer);
	perf_pmu_unregister(pmu);
}

/* The PMU device's perf_event_mux_interval_ms attribute (of its bus, event_source). */
static struct device_attribute *mux_attribute(struct device *dev)
{
	const struct attribute_group **group;
	struct attribute **attr;

	for (group = dev->bus->dev_groups; group && *group; group++)
		for (attr = (*group)->attrs; *attr; attr++)
			if (!strcmp((*attr)->name, MUX_ATTRIBUTE))
				return container_of(*attr, struct device_attribute, attr);
	return NULL;
}

/* Writes ms to the attribute, then expects every online CPU's interval to be ms. */
static void expect_mux_interval(struct kunit *test, unsigned int ms)
{
	struct pmu *pmu = test->priv;
	struct device_attribute *attr;
	char text[16];
	int len = scnprintf(text, sizeof(text), "%u", ms);
	int cpu;

	KUNIT_ASSERT_NOT_NULL_MSG(test, pmu->dev, "the PMU has no device: perf's sysfs is not up");
	attr = mux_attribute(pmu->dev);
	KUNIT_ASSERT_NOT_NULL(test, attr);
	KUNIT_ASSERT_EQ(test, attr->store(pmu->dev, attr, text, len), (ssize_t)len);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		s64 interval_ns = ktime_to_ns(per_cpu_ptr(pmu->cpu_pmu_context, cpu)->hrtimer_interval);

		KUNIT_EXPECT_EQ(test, interval_ns, ktime_to_ns(ms_to_ktime(ms)));
	}
	cpus_read_unlock();
}

/* Control: 1000 ms is 10^9 ns, under 2^31 (right on every machine). */
static void one_second(struct kunit *test)
{
	expect_mux_interval(test, 1000);
}

/* The fix: 5000 ms, not 705032704 ns. */
static void five_seconds(struct kunit *test)
{
	expect_mux_interval(test, 5000);
}

static struct kunit_case y2038_perf_mux_cases[] = {
	KUNIT_CASE(one_second),
	KUNIT_CASE(five_seconds),
	{}
};

static struct kunit_suite y2038_perf_mux_suite = {
	.name = "y2038_perf_mux",
	.init = mux_pmu_init,
	.exit = mux_pmu_exit,
	.test_cases = y2038_perf_mux_cases,
};
kunit_test_suite(y2038_perf_mux_suite);

MODULE_DESCRIPTION("y2038 boot check: perf's multiplexing interval on 32-bit machines");
MODULE_LICENSE("GPL");
