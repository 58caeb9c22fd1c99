/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Load-time self-check helpers shared by the legacy modules: TAP lines on
 * the console, read by the boot stage ("y2038-legacy: <module>: ok N name").
 *
 * The guest's /init sets the wall clock a few seconds before 2038-01-19
 * 03:14:07 UTC before loading each module, so every self-check sees the
 * 32-bit time_t limit go by.
 */
#ifndef LEGACY_SELFTEST_H
#define LEGACY_SELFTEST_H

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/time.h>

struct legacy_selftest {
	const char *module;
	int checks;
	int failures;
};

static inline void legacy_check(struct legacy_selftest *st, bool ok, const char *name)
{
	st->checks++;
	if (!ok)
		st->failures++;
	pr_info("y2038-legacy: %s: %sok %d %s\n", st->module, ok ? "" : "not ", st->checks, name);
}

static inline void legacy_done(struct legacy_selftest *st)
{
	pr_info("y2038-legacy: %s: done %d checks, %d failed\n", st->module, st->checks, st->failures);
}

/* Wait (at most 10 s) until the wall clock is past 2038-01-19 03:14:07 UTC. */
static inline bool legacy_wait_for_2038(void)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (get_seconds() > 0x7fffffffUL)
			return true;
		msleep(100);
	}
	return false;
}

#endif /* LEGACY_SELFTEST_H */
