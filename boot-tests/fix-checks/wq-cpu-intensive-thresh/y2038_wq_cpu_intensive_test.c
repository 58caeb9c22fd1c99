// SPDX-License-Identifier: GPL-2.0-only
/*
 * y2038 boot check: does a per-CPU work item that hogs the CPU for less
 * than workqueue.cpu_intensive_thresh_us keep its pool's other work items
 * waiting, on 32-bit machines?
 *
 * wq_worker_tick() marks a concurrency-managed worker CPU intensive once
 * its work item has run longer than wq_cpu_intensive_thresh_us *
 * NSEC_PER_USEC: an unsigned long times a long, on a 32-bit machine a
 * 32-bit unsigned long kept modulo 2^32 ns (4.29 s).  5000000 us is
 * 5000000000 ns, which comes out as 5000000000 - 2^32 = 705032704 ns: a
 * 5 s threshold acts as 0.705 s.
 *
 * A worker marked CPU intensive stops counting as running in its pool, and
 * the pool wakes another worker for the work items queued behind it; a
 * worker that is not keeps them waiting until its work item returns.  Each
 * case sets the threshold (the module parameter's variable, found among
 * the built-in parameters), queues a hog that spins, yielding with
 * cond_resched(), until its own task has had 1.5 s of CPU time (CPU time,
 * which is what the tick compares, not wall time: a slow emulated machine
 * spins longer), and a second work item on the same CPU that records
 * whether the hog was still running when it started.  The exit puts the
 * threshold back.
 *
 * Not a patch for the kernel: the boot stage adds it to the kernels it boots
 * to prove the fix (it fails without the fix and passes with it).
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#define THRESHOLD_PARAMETER "workqueue.cpu_intensive_thresh_us"
#define HOG_CPU_NS (1500 * NSEC_PER_MSEC)

struct hog {
	struct workqueue_struct *wq;
	unsigned long *threshold_us;	/* wq_cpu_intensive_thresh_us */
	unsigned long saved_threshold_us;
	struct work_struct hog_work, next_work;
	bool hog_done;
	bool next_started_during_hog;
};

static void hog_cpu(struct work_struct *work)
{
	struct hog *hog = container_of(work, struct hog, hog_work);
	u64 start = READ_ONCE(current->se.sum_exec_runtime);

	while (READ_ONCE(current->se.sum_exec_runtime) - start < HOG_CPU_NS)
		cond_resched();
	WRITE_ONCE(hog->hog_done, true);
}

static void note_start(struct work_struct *work)
{
	struct hog *hog = container_of(work, struct hog, next_work);

	hog->next_started_during_hog = !READ_ONCE(hog->hog_done);
}

static unsigned long *threshold_variable(void)
{
	const struct kernel_param *kp;

	for (kp = __start___param; kp < __stop___param; kp++)
		if (!strcmp(kp->name, THRESHOLD_PARAMETER))
			return kp->arg;
	return NULL;
}

static int hog_init(struct kunit *test)
{
	struct hog *hog = kunit_kzalloc(test, sizeof(*hog), GFP_KERNEL);

	if (!hog)
		return -ENOMEM;
	hog->threshold_us = threshold_variable();
	if (!hog->threshold_us)
		return -ENOENT;
	/* per-CPU, without WQ_CPU_INTENSIVE: its workers are concurrency managed */
	hog->wq = alloc_workqueue("y2038_wq_hog", 0, 0);
	if (!hog->wq)
		return -ENOMEM;
	hog->saved_threshold_us = READ_ONCE(*hog->threshold_us);
	INIT_WORK(&hog->hog_work, hog_cpu);
	INIT_WORK(&hog->next_work, note_start);
	test->priv = hog;
	return 0;
}

static void hog_exit(struct kunit *test)
{
	struct hog *hog = test->priv;

	if (!hog)
		return;
	destroy_workqueue(hog->wq);
	WRITE_ONCE(*hog->threshold_us, hog->saved_threshold_us);
}

/* With this threshold, a 1.5 s hog keeps the work item queued behind it waiting. */
static void expect_hog_not_cpu_intensive(struct kunit *test, unsigned long threshold_us)
{
	struct hog *hog = test->priv;
	int cpu = cpumask_first(cpu_online_mask);

	WRITE_ONCE(*hog->threshold_us, threshold_us);
	queue_work_on(cpu, hog->wq, &hog->hog_work);
	queue_work_on(cpu, hog->wq, &hog->next_work);
	flush_work(&hog->hog_work);
	flush_work(&hog->next_work);
	KUNIT_EXPECT_TRUE(test, hog->hog_done);
	KUNIT_EXPECT_FALSE(test, hog->next_started_during_hog);
}

/* Control: 3 s is 3 * 10^9 ns, under 2^32 (right on every machine). */
static void three_seconds(struct kunit *test)
{
	expect_hog_not_cpu_intensive(test, 3000000);
}

/* The fix: 5 s, not 705032704 ns. */
static void five_seconds(struct kunit *test)
{
	expect_hog_not_cpu_intensive(test, 5000000);
}

static struct kunit_case y2038_wq_cpu_intensive_cases[] = {
	KUNIT_CASE(three_seconds),
	KUNIT_CASE(five_seconds),
	{}
};

static struct kunit_suite y2038_wq_cpu_intensive_suite = {
	.name = "y2038_wq_cpu_intensive",
	.init = hog_init,
	.exit = hog_exit,
	.test_cases = y2038_wq_cpu_intensive_cases,
};
kunit_test_suite(y2038_wq_cpu_intensive_suite);

MODULE_DESCRIPTION("y2038 boot check: the workqueue CPU-intensive threshold on 32-bit machines");
MODULE_LICENSE("GPL");
