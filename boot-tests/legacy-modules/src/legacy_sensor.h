/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * legacy_sensor: a sensor hub driver of the Linux 3.x era, split over two
 * files the way vendor drivers are: its private state keeps struct
 * timespec fields declared here and filled in both .c files, its board
 * data sets ktime_t members with nested designators, and an ioctl hands a
 * struct timeval to user space.
 *
 * Written against the Linux 3.x time API on purpose: `tools/y2038 convert`
 * turns it into code for current kernels (../y2038-convert.patch).
 */
#ifndef LEGACY_SENSOR_H
#define LEGACY_SENSOR_H

#include <linux/ioctl.h>
#include <linux/time.h>
#include <linux/types.h>

#define LEGACY_SENSOR_RING 8

/* What user space reads: its layout is an ABI. */
struct legacy_sensor_ioc {
	struct timeval when;
	__u32 count;
};
#define LEGACY_SENSOR_GET _IOR('y', 1, struct legacy_sensor_ioc)

/* The driver's own state: it never leaves the kernel. */
struct legacy_sensor_sample {
	struct timespec stamp;
	int value;
};

struct legacy_sensor {
	struct timespec started;
	struct timespec last;
	struct legacy_sensor_sample ring[LEGACY_SENSOR_RING];
	unsigned int head;
};

void legacy_sensor_start(struct legacy_sensor *s);
void legacy_sensor_record(struct legacy_sensor *s, int value);
s64 legacy_sensor_age_ns(struct legacy_sensor *s, struct timespec *now);

#endif /* LEGACY_SENSOR_H */
