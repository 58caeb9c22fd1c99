# SPDX-License-Identifier: GPL-2.0-only
"""The whole-driver pass (driver_types) on small drivers written here, one
shape each, seen in legacy drivers of the corpus's working half: a tv_sec
printed through a cast under a printk level, a file-scope array of timevals,
a timeval handed to the driver's own macros, and what must stay as it is."""
import unittest

from helpers import put_tools_on_path

put_tools_on_path()
from y2038lib.outoftree import driver_types  # noqa: E402

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


ARRAY = {"touch.c": """\
enum { T_INIT, T_PREV, T_CURR, T_MAX };
struct timeval stamps[T_MAX];
static struct timeval sent[4];

static int gap_us(int later, int earlier)
{
	return later - earlier;
}

static bool within ( struct timeval after, struct timeval before, int limit )
{
	if (after.tv_sec - before.tv_sec == 0)
		return gap_us(after.tv_usec, before.tv_usec) <= limit;
	return after.tv_usec + 1000000 - before.tv_usec <= limit;
}

#if 1
static int on_press(void)
{
#else
static int on_press(int unused)
{
#endif
	memcpy(&stamps[T_PREV], &stamps[T_CURR], sizeof(struct timeval));
	do_gettimeofday ( &stamps[T_CURR] );
	if (stamps[T_CURR].tv_sec - stamps[T_INIT].tv_sec >= 10)
		return 0;
	return within ( stamps[T_CURR], stamps[T_PREV], 50000 );
}

static int report(void __user *buf)
{
	do_gettimeofday(&sent[0]);
	return copy_to_user(buf, sent, sizeof(sent));
}
"""}


class FileScopeArray(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(ARRAY)

    def test_its_elements_convert_with_the_functions_they_are_passed_to(self):
        self.assertEqual(self.converted, ["global stamps, param after, param before"])
        touch = self.new["touch.c"]
        for line in ("struct timespec64 stamps[T_MAX];",
                     "static bool within ( struct timespec64 after, struct timespec64 before, int limit )",
                     "return gap_us(after.tv_nsec / NSEC_PER_USEC, before.tv_nsec / NSEC_PER_USEC) <= limit;",
                     "return after.tv_nsec / NSEC_PER_USEC + 1000000 - before.tv_nsec / NSEC_PER_USEC <= limit;",
                     "memcpy(&stamps[T_PREV], &stamps[T_CURR], sizeof(struct timespec64));",
                     "ktime_get_real_ts64 ( &stamps[T_CURR] );"):
            self.assertIn(line, touch)

    def test_an_array_copied_to_user_space_whole_stays(self):
        self.assertEqual([k["why"] for k in self.kept],
                         ["touch.c:34: passed to copy_to_user() [global sent: kept as struct timeval]"])
        self.assertIn("static struct timeval sent[4];", self.new["touch.c"])
        self.assertIn("do_gettimeofday(&sent[0]);", self.new["touch.c"])


if __name__ == "__main__":
    unittest.main()
