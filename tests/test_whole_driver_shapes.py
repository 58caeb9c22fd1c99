# SPDX-License-Identifier: GPL-2.0-only
"""The whole-driver pass (driver_types) on small drivers written here, one
shape each, seen in legacy drivers of the corpus's working half: a tv_sec
printed through a cast under a printk level, a file-scope array of timevals,
a timeval handed to the driver's own macros, and what must stay as it is."""
import unittest

import helpers  # noqa: F401  (puts tools/ on sys.path)
from y2038lib.outoftree import driver_types

CAST_PRINT = {"rate.c": """\
struct result {
	struct timespec ts;
};

static void show(struct result *r, struct timespec *t1, struct timespec *t2)
{
	struct timespec ts;

	ts = timespec_sub(*t2, *t1);
	r->ts = ts;
	printk(KERN_INFO "%s: took %lu.%09lu seconds\\n", "x",
	       (unsigned long)ts.tv_sec, (unsigned long)ts.tv_nsec);
}

static void measure(struct result *r)
{
	struct timespec t1, t2;

	getnstimeofday(&t1);
	getnstimeofday(&t2);
	show(r, &t1, &t2);
}
"""}

UNCAST_PRINT = {"rate.c": CAST_PRINT["rate.c"].replace("(unsigned long)ts.tv_sec", "ts.tv_sec")}


class CastPrint(unittest.TestCase):
    def test_a_cast_tv_sec_under_a_printk_level_converts_and_keeps_its_format(self):
        new, converted, kept = driver_types.convert(CAST_PRINT)
        self.assertEqual(kept, [])
        self.assertEqual(converted, ["field ts, local t1, local t2, local ts, param t1, param t2"])
        rate = new["rate.c"]
        for line in ("\tstruct timespec64 ts;\n};", "ts = timespec64_sub(*t2, *t1);",
                     'printk(KERN_INFO "%s: took %lu.%09lu seconds\\n", "x",\n'
                     "\t       (unsigned long)ts.tv_sec, (unsigned long)ts.tv_nsec);",
                     "ktime_get_real_ts64(&t1);"):
            self.assertIn(line, rate)

    def test_an_uncast_tv_sec_under_a_printk_level_takes_lld(self):
        new, converted, kept = driver_types.convert(UNCAST_PRINT)
        self.assertEqual(kept, [])
        self.assertIn('printk(KERN_INFO "%s: took %lld.%09lu seconds\\n", "x",', new["rate.c"])


if __name__ == "__main__":
    unittest.main()
