// SPDX-License-Identifier: GPL-2.0-only
/* legacy_sensor: the sample ring, stamped with the wall clock. */
#include "legacy_sensor.h"

void legacy_sensor_start(struct legacy_sensor *s)
{
	getnstimeofday(&s->started);
	s->last = s->started;
	s->head = 0;
}

void legacy_sensor_record(struct legacy_sensor *s, int value)
{
	struct legacy_sensor_sample *smp = &s->ring[s->head % LEGACY_SENSOR_RING];

	getnstimeofday(&smp->stamp);
	smp->value = value;
	s->last = smp->stamp;
	s->head++;
}

/* Nanoseconds since the last sample; *now gets the current time. */
s64 legacy_sensor_age_ns(struct legacy_sensor *s, struct timespec *now)
{
	struct timespec age;

	getnstimeofday(now);
	age = timespec_sub(*now, s->last);
	return timespec_to_ns(&age);
}
