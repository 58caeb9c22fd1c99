# SPDX-License-Identifier: GPL-2.0-only
"""The whole-driver pass (driver_types) on small drivers written here, one
shape each, seen in legacy drivers of the corpus's working half: a tv_sec
printed through a cast under a printk level, a file-scope array of timevals,
a timeval handed to the driver's own macros, a value the driver's own
function returns, and what must stay as it is."""
import time
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


MACROS = {"perf.c": """\
static struct timeval g_now;
static long total_us;

#define LOG(fmt, ...) printk(KERN_INFO "perf: " fmt, ##__VA_ARGS__)
#ifdef PERF
#define PERF_BEGIN(t) \\
	do_gettimeofday(&g_now); \\
	(t) = g_now;
#define PERF_END(t) \\
	do_gettimeofday(&g_now); \\
	total_us += (g_now.tv_sec - t.tv_sec) * 1000000 + g_now.tv_usec - t.tv_usec; \\
	LOG("took %ld s\\n", g_now.tv_sec - t.tv_sec);
#else
#define PERF_BEGIN(t)
#define PERF_END(t)
#endif
#define SHOW(t) pr_info("at %ld\\n", (long)(t).tv_sec)

static void transfer(struct device *dev)
{
	struct timeval begin;
	struct timeval seen;

	PERF_BEGIN(begin);
	PERF_END(begin);
	do_gettimeofday(&seen);
	SHOW(seen);
	SHOW(dev->stamp);
}

static void log_wait(struct timespec *out)
{
	struct timespec start, stop;

	getnstimeofday(&start);
#if 0
	printk("%ld\\n", timespec_to_ns(&start));
#endif
	if (out != NULL) {
		getnstimeofday(&stop);
		*out = timespec_sub(stop, start);
		set_normalized_timespec(out, out->tv_sec, out->tv_nsec - 5);
	}
}
"""}


class DriverMacros(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(
            MACROS, lambda relpath, line, text: line != 37)  # the range refuses the #if 0 line

    def test_a_timeval_handed_to_the_drivers_macros_converts_with_their_bodies(self):
        self.assertIn("global g_now, local begin, macro t", self.converted)
        perf = self.new["perf.c"]
        for line in ("static struct timespec64 g_now;", "struct timespec64 begin;",
                     "\tktime_get_real_ts64(&g_now); \\\n\t(t) = g_now;",
                     "total_us += (g_now.tv_sec - t.tv_sec) * 1000000 + g_now.tv_nsec / NSEC_PER_USEC - "
                     "t.tv_nsec / NSEC_PER_USEC; \\",
                     'LOG("took %lld s\\n", g_now.tv_sec - t.tv_sec);'):
            self.assertIn(line, perf)

    def test_a_macro_also_given_another_structures_timeval_stays(self):
        self.assertIn("perf.c:28: SHOW() is also given dev->stamp [local seen, macro t: kept as struct timeval]",
                      [k["why"] for k in self.kept])
        self.assertIn("\tstruct timeval seen;", self.new["perf.c"])
        self.assertIn('#define SHOW(t) pr_info("at %ld\\n", (long)(t).tv_sec)', self.new["perf.c"])

    def test_a_pointer_tested_against_null_and_if_0_lines_do_not_keep_a_group(self):
        self.assertIn("local start, local stop, param out", self.converted)
        perf = self.new["perf.c"]
        for line in ("static void log_wait(struct timespec64 *out)", 'printk("%ld\\n", timespec64_to_ns(&start));',
                     "*out = timespec64_sub(stop, start);",
                     "set_normalized_timespec64(out, out->tv_sec, out->tv_nsec - 5);"):
            self.assertIn(line, perf)


DEBUG_PRINT = {"dbg.h": """\
#define DBG_PRINT(dev, level, string, args...) \\
	do { \\
		if (level) \\
			pr_info("%s:" string, __func__, ##args); \\
	} while (0)
""", "io.c": """\
static struct timeval t_on, t_off;

static int timed_io(struct dev *dev)
{
	struct timeval tv0, tv1, limit;

	memset(&tv0, 0, sizeof(struct timeval));
	do_gettimeofday(&tv0);
	do_gettimeofday(&limit);
	limit.tv_sec += 2;
	do_gettimeofday(&tv1);
	DBG_PRINT(dev, 1, "took %ld ms\\n", (tv1.tv_sec - tv0.tv_sec) * 1000 + (tv1.tv_usec - tv0.tv_usec) / 1000);
	do_gettimeofday(&t_on);
	t_off = t_on;
	return timeval_compare(&tv1, &limit) >= 0;
}
"""}


class DebugPrint(unittest.TestCase):
    def test_a_difference_printed_through_the_drivers_print_macro_takes_lld(self):
        new, converted, kept = driver_types.convert(DEBUG_PRINT)
        self.assertEqual(kept, [])
        self.assertEqual(sorted(converted), ["global t_off, global t_on", "local limit, local tv0, local tv1"])
        io = new["io.c"]
        for line in ("static struct timespec64 t_on, t_off;", "memset(&tv0, 0, sizeof(struct timespec64));",
                     'DBG_PRINT(dev, 1, "took %lld ms\\n", (tv1.tv_sec - tv0.tv_sec) * 1000 + '
                     "(tv1.tv_nsec / NSEC_PER_USEC - tv0.tv_nsec / NSEC_PER_USEC) / 1000);",
                     "return timespec64_compare(&tv1, &limit) >= 0;"):
            self.assertIn(line, io)


POINTER_LOCAL = {"log.h": """\
struct log_entry {
	struct timeval timer;
	int len;
};
""", "log.c": """\
static void stamp(struct log_entry *e)
{
	struct timeval *p_timer = NULL;

	p_timer = &e->timer;
	do_gettimeofday(p_timer);
	pr_info("%d.%06d\\n", (int)p_timer->tv_sec, (int)p_timer->tv_usec);
}

static void stamp_kernel(struct sk_buff *skb)
{
	struct timeval *tv = NULL;

	tv = kmalloc(sizeof(*tv), GFP_KERNEL);
	do_gettimeofday(tv);
	skb_stamp(skb, tv);
}
"""}


class PointerLocal(unittest.TestCase):
    def test_a_pointer_local_to_the_drivers_field_converts_with_it(self):
        new, converted, kept = driver_types.convert(POINTER_LOCAL)
        self.assertEqual(converted, ["field timer, local p_timer"])
        self.assertIn("\tstruct timespec64 timer;", new["log.h"])
        for line in ("struct timespec64 *p_timer = NULL;", "ktime_get_real_ts64(p_timer);",
                     'pr_info("%d.%06d\\n", (int)p_timer->tv_sec, (int)(p_timer->tv_nsec / NSEC_PER_USEC));',
                     "struct timeval *tv = NULL;", "do_gettimeofday(tv);"):
            self.assertIn(line, new["log.c"])
        # a pointer local given its own memory is this pass's (no per-file rule reads the allocation): kept
        # for the kernel function it is handed to, and listed
        self.assertEqual(kept, [{"why": "log.c:16: passed to skb_stamp() [local tv: kept as struct timeval]",
                                 "names": [("log.c", "tv")]}])

    def test_a_function_pointers_parameter_declared_in_a_body_is_no_local(self):
        texts = {"cb.c": "static int run(struct ops *o)\n{\n\tint (*cb)(struct timespec *ts);\n\n"
                         "\tcb = o->get;\n\treturn cb(o->ts);\n}\n"}
        self.assertEqual(driver_types.Analysis(texts).candidates, [])


RETURNED = {"usb.c": """\
struct timespec connect_stamp = { 0, 0 };

void set_connect_stamp(void)
{
	connect_stamp = CURRENT_TIME;
}

struct timespec get_connect_stamp(void)
{
	return connect_stamp;
}
""", "link.c": """\
extern struct timespec get_connect_stamp(void);

static int reconnect_due(void)
{
	static struct timespec last = { 0, 0 };
	struct timespec stamp = get_connect_stamp();

	return timespec_compare(&last, &stamp) > 0;
}
"""}


class Returned(unittest.TestCase):
    def test_a_value_the_drivers_own_function_returns_converts_with_its_callers(self):
        new, converted, kept = driver_types.convert(RETURNED)
        self.assertEqual(kept, [])
        self.assertEqual(converted, ["global connect_stamp, local last, local stamp, result get_connect_stamp"])
        for line in ("struct timespec64 connect_stamp = { 0, 0 };", "ktime_get_coarse_real_ts64(&connect_stamp);",
                     "struct timespec64 get_connect_stamp(void)\n{\n\treturn connect_stamp;"):
            self.assertIn(line, new["usb.c"])
        for line in ("extern struct timespec64 get_connect_stamp(void);", "static struct timespec64 last = { 0, 0 };",
                     "struct timespec64 stamp = get_connect_stamp();", "timespec64_compare(&last, &stamp)"):
            self.assertIn(line, new["link.c"])

    def test_a_returned_value_used_in_an_expression_stays(self):
        texts = dict(RETURNED, **{"link.c": RETURNED["link.c"].replace(
            "struct timespec stamp = get_connect_stamp();\n", "").replace("&stamp", "&get_connect_stamp()")})
        new, converted, kept = driver_types.convert(texts)
        self.assertEqual(converted, [])
        self.assertEqual([k["why"] for k in kept], [
            "link.c:7: the value of get_connect_stamp() is not stored in a variable "
            "[global connect_stamp, result get_connect_stamp: kept as struct timespec]",
            "link.c:7: get_connect_stamp( in a helper is not the driver's own timespec "
            "[local last: kept as struct timespec]"])
        self.assertEqual(new, {})

    def test_an_exported_function_not_called_here_keeps_its_type(self):
        texts = {"usb.c": RETURNED["usb.c"] + "EXPORT_SYMBOL(get_connect_stamp);\n"}
        new, converted, kept = driver_types.convert(texts)
        self.assertEqual(converted, [])
        self.assertEqual([k["why"] for k in kept], [
            "usb.c:12: get_connect_stamp() is exported and not called here: its type is other modules' interface "
            "[global connect_stamp, result get_connect_stamp: kept as struct timespec]"])
        self.assertEqual(new, {})

    def test_a_function_named_after_an_old_api_is_no_candidate(self):
        texts = {"compat.c": "struct timespec current_kernel_time(void)\n{\n\treturn stamp;\n}\n"}
        self.assertEqual(driver_types.Analysis(texts).candidates, [])

    def test_a_function_returning_something_else_keeps_its_type(self):
        texts = {"usb.c": RETURNED["usb.c"].replace("return connect_stamp;", "return ns_to_timespec(0);")}
        new, converted, kept = driver_types.convert(texts)
        self.assertEqual([k["why"] for k in kept],
                         ["usb.c:10: get_connect_stamp() returns ns_to_timespec(0) [result get_connect_stamp: "
                          "kept as struct timespec]"])
        self.assertIn("global connect_stamp", converted)


LOCAL_COPY = {"zone.c": """\
static void log_sync(void)
{
	struct timeval tv = {0};
	struct timeval local = {0};

	do_gettimeofday(&tv);
	local = tv;
	local.tv_sec -= sys_tz.tz_minuteswest * 60;
	pr_info("%u %u\\n", (unsigned int)tv.tv_usec, (unsigned int)local.tv_usec);
}

static long alone(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	return tv.tv_sec;
}
"""}


class LocalCopy(unittest.TestCase):
    def test_a_local_copied_whole_into_another_converts_with_it_here(self):
        """The per-file rules convert a local alone: two linked by y = x;
        are this pass's; a lone one stays theirs."""
        new, converted, kept = driver_types.convert(LOCAL_COPY)
        self.assertEqual((converted, kept), (["local local, local tv"], []))
        zone = new["zone.c"]
        for line in ("\tstruct timespec64 tv = {0};\n\tstruct timespec64 local = {0};", "ktime_get_real_ts64(&tv);\n\tlocal = tv;",
                     "(unsigned int)(tv.tv_nsec / NSEC_PER_USEC), (unsigned int)(local.tv_nsec / NSEC_PER_USEC));",
                     "\tstruct timeval tv;\n\n\tdo_gettimeofday(&tv);\n\treturn tv.tv_sec;"):
            self.assertIn(line, zone)


LAYOUTS = {"dev.h": """\
struct dev_event {
	struct timespec at;
	u32 code;
};
#define DEV_EVENT _IOR('v', 1, struct dev_event)

struct dev_file_info {
	struct timespec mtime;
};
#define DEV_INFO _IOR('v', 2, struct dev_file_info)

struct dev_regs {
	struct timeval latched;
	u32 status;
} __packed;
""", "dev.c": """\
static long dev_ioctl(struct dev *d, unsigned int cmd, unsigned long arg)
{
	struct dev_event ev;
	struct dev_file_info fi;

	if (cmd == DEV_EVENT) {
		ktime_get_ts(&ev.at);
		return copy_to_user((void __user *)arg, &ev, sizeof(ev));
	}
	fi.mtime = d->inode->i_mtime;
	return copy_to_user((void __user *)arg, &fi, sizeof(fi));
}

static void dev_latch(struct dev *d)
{
	struct dev_regs regs;

	do_gettimeofday(&regs.latched);
	memcpy_toio(d->base, &regs, sizeof(regs));
}
"""}


class Layouts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(LAYOUTS)

    def test_a_filled_timespec_of_an_ioctl_structure_keeps_its_layout(self):
        self.assertIn("field at (an ABI: kept at its size, filled from a timespec64)", self.converted)
        self.assertIn("\tstruct __kernel_old_timespec at;\n\tu32 code;", self.new["dev.h"])
        self.assertIn("\t\tstruct timespec64 now64;\n\n\t\tktime_get_ts64(&now64);\n\t\tev.at.tv_sec = now64.tv_sec;\n\t\tev.at.tv_nsec = now64.tv_nsec;\n",
                      self.new["dev.c"])

    def test_a_packed_structure_keeps_its_layout(self):
        self.assertIn("field latched (an ABI: kept at its size, filled from a timespec64)", self.converted)
        self.assertIn("\tstruct __kernel_old_timeval latched;\n\tu32 status;\n} __packed;", self.new["dev.h"])
        self.assertIn("\tregs.latched.tv_usec = now64.tv_nsec / NSEC_PER_USEC;\n\tmemcpy_toio(", self.new["dev.c"])

    def test_a_monotonic_fill_under_its_posix_clock_name_fills_the_kept_layout(self):
        code = LAYOUTS["dev.c"].replace("ktime_get_ts(&ev.at);", "do_posix_clock_monotonic_gettime(&ev.at);")
        new, converted, _ = driver_types.convert(dict(LAYOUTS, **{"dev.c": code}))
        self.assertIn("field at (an ABI: kept at its size, filled from a timespec64)", converted)
        self.assertIn("\t\tktime_get_ts64(&now64);\n\t\tev.at.tv_sec = now64.tv_sec;\n", new["dev.c"])

    def test_an_ioctl_timespec_copied_from_a_kernel_structure_stays(self):
        self.assertEqual([k["why"] for k in self.kept],
                         ["dev.h:10: struct dev_file_info reaches user space (field mtime); dev.c:10: a use other than "
                          "a fill or its members [field mtime: kept as struct timespec]"])
        self.assertIn("\tstruct timespec mtime;", self.new["dev.h"])
        self.assertIn("fi.mtime = d->inode->i_mtime;", self.new["dev.c"])


if __name__ == "__main__":
    unittest.main()


SECONDS_WRITTEN = {"stamp.c": """\
struct wire_event {
	struct timeval at;
} __packed;

static void local_stamp(char *buf, unsigned int len)
{
	struct timeval tv;
	struct rtc_time tm;

	memset(&tv, 0, sizeof(struct timeval));
	do_gettimeofday(&tv);
	tv.tv_sec -= sys_tz.tz_minuteswest * 60;
	rtc_time64_to_tm(tv.tv_sec, &tm);
	snprintf(buf, len, "%02d:%02d", tm.tm_hour, tm.tm_min);
}

static void wire_stamp(struct wire_event *e)
{
	do_gettimeofday(&e->at);
	e->at.tv_sec += 1;
}

static long alone(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	return tv.tv_sec;
}
"""}


class SecondsWritten(unittest.TestCase):
    """A local whose tv_sec is written in place (shifted to local time):
    the per-file rules refuse a written field, this pass converts it."""

    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(SECONDS_WRITTEN)

    def test_a_local_shifted_in_place_converts_with_its_memset(self):
        self.assertEqual(self.converted[1:], ["local tv"])
        stamp = self.new["stamp.c"]
        for line in ("\tstruct timespec64 tv;\n\tstruct rtc_time tm;", "memset(&tv, 0, sizeof(struct timespec64));",
                     "ktime_get_real_ts64(&tv);\n\ttv.tv_sec -= sys_tz.tz_minuteswest * 60;"):
            self.assertIn(line, stamp)

    def test_a_packed_field_written_the_same_way_keeps_its_layout(self):
        self.assertEqual((self.converted[0], self.kept),
                         ("field at (an ABI: kept at its size, filled from a timespec64)", []))
        self.assertIn("\tstruct __kernel_old_timeval at;\n} __packed;", self.new["stamp.c"])
        self.assertIn("\te->at.tv_usec = now64.tv_nsec / NSEC_PER_USEC;\n\te->at.tv_sec += 1;", self.new["stamp.c"])

    def test_a_lone_local_only_read_stays_the_per_file_rules(self):
        self.assertIn("\tstruct timeval tv;\n\n\tdo_gettimeofday(&tv);\n\treturn tv.tv_sec;", self.new["stamp.c"])


ZEROED_ARRAYS = {"glove.c": """\
static struct timespec now[4] = {{0, 0}};
static struct timespec before[4] = { { 0 } };
static struct timeval limits[2] = {{1, 500000}, {2, 0}};
static struct timespec sent[2] = {{0, 0}};

static int gap_ms(int n)
{
	ktime_get_ts(&now[n]);
	if ((now[n].tv_sec - before[n].tv_sec) * 1000 + (now[n].tv_nsec - before[n].tv_nsec) / 1000000 > 50)
		ktime_get_ts(&before[n]);
	return limits[0].tv_sec;
}

static int report(void __user *buf)
{
	ktime_get_ts(&sent[0]);
	return copy_to_user(buf, sent, sizeof(sent));
}
"""}


class ZeroedArrays(unittest.TestCase):
    """A file-scope array initialised to zeros means the same as a
    timespec64 one; one with other values (a timeval's {s, us} would be
    read as {s, ns}) or copied to user space stays."""

    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(ZEROED_ARRAYS)

    def test_zero_initialised_arrays_convert_with_their_fills(self):
        self.assertEqual(self.converted, ["global now", "global before"])
        glove = self.new["glove.c"]
        for line in ("static struct timespec64 now[4] = {{0, 0}};", "static struct timespec64 before[4] = { { 0 } };",
                     "ktime_get_ts64(&now[n]);", "ktime_get_ts64(&before[n]);"):
            self.assertIn(line, glove)

    def test_an_array_with_values_and_one_copied_to_user_space_stay(self):
        glove = self.new["glove.c"]
        self.assertIn("static struct timeval limits[2] = {{1, 500000}, {2, 0}};", glove)
        self.assertIn("static struct timespec sent[2] = {{0, 0}};", glove)
        self.assertIn("ktime_get_ts(&sent[0]);", glove)
        self.assertEqual([k["why"] for k in self.kept],
                         ["glove.c:17: passed to copy_to_user() [global sent: kept as struct timespec]"])


OTHER_CONFIGURATION = {"tick.c": """\
struct ticker {
	struct timespec start;
	struct timespec wire;
};

#ifdef CONFIG_TICK_HRTIMER
static void tick(struct ticker *t)
{
	hrtimer_forward_now(&t->timer, t->period);
}
#else
static unsigned long since_ms(struct timespec *t0, struct timespec *t1)
{
	return (t1->tv_sec - t0->tv_sec) * 1000 + (t1->tv_nsec - t0->tv_nsec) / 1000000;
}

static void tick(struct ticker *t)
{
	struct timespec now;

	ktime_get_ts(&now);
	if (since_ms(&t->start, &now) > 1000)
		t->start = now;
	ktime_get_ts(&t->wire);
	send_stamp(&t->wire);
}
#endif
"""}


class OtherConfiguration(unittest.TestCase):
    """Functions in the #else branch of a configuration test (braces
    balanced in the branch) are the driver's own: a value handed to them
    converts with their parameters."""

    def test_a_helper_in_an_else_branch_converts_with_its_callers(self):
        new, converted, kept = driver_types.convert(OTHER_CONFIGURATION)
        self.assertEqual(converted, ["field start, local now, param t0, param t1"])
        tick = new["tick.c"]
        for line in ("\tstruct timespec64 start;\n\tstruct timespec wire;",
                     "static unsigned long since_ms(struct timespec64 *t0, struct timespec64 *t1)",
                     "\tstruct timespec64 now;\n\n\tktime_get_ts64(&now);"):
            self.assertIn(line, tick)

    def test_a_value_handed_to_a_function_defined_elsewhere_stays(self):
        new, converted, kept = driver_types.convert(OTHER_CONFIGURATION)
        self.assertEqual([k["why"] for k in kept],
                         ["tick.c:25: passed to send_stamp() [field wire: kept as struct timespec]"])
        self.assertIn("ktime_get_ts(&t->wire);", new["tick.c"])


FIELD_ARRAYS = {"keys.h": """\
#define PRINT(level, fmt, ...) printk(KERN_ ## level "keys: " fmt, ## __VA_ARGS__)
#define KEY_DBG(port, fmt, ...) PRINT(DEBUG, "%d: " fmt, (port), ## __VA_ARGS__)

struct keypad {
	struct quirks {
		int slow;
	} quirks;
	struct timeval pressed[8];
	struct timeval sent[2];
};
#define KEYPAD_EVENT _IOR('k', 1, struct keypad)
""", "keys.c": """\
static long usec_since(const struct timeval *now, const struct timeval *then)
{
	return (now->tv_sec - then->tv_sec) * 1000000 + now->tv_usec - then->tv_usec;
}

static void key_down(struct keypad *k, int port)
{
	struct timeval now;

	do_gettimeofday(&now);
	if (k->pressed[port].tv_sec != 0)
		KEY_DBG(port, "[%lu.%06lu] after %ld us\\n", now.tv_sec, now.tv_usec,
			usec_since(&now, &k->pressed[port]));
	k->pressed[port] = now;
	do_gettimeofday(&k->sent[0]);
}
"""}


class FieldArrays(unittest.TestCase):
    """An array of timevals in the driver's own structure (after a nested
    struct) converts element by element with the locals stored into it;
    seconds printed through a macro that prints through another macro
    take %lld."""

    def test_a_field_array_converts_with_its_values_and_their_print(self):
        kernel_only = {"keys.h": FIELD_ARRAYS["keys.h"].replace("#define KEYPAD_EVENT _IOR('k', 1, struct keypad)\n", ""),
                       "keys.c": FIELD_ARRAYS["keys.c"]}
        new, converted, kept = driver_types.convert(kernel_only)
        self.assertEqual(converted, ["field sent", "field pressed, local now, param now, param then"])
        self.assertIn("\tstruct timespec64 pressed[8];", new["keys.h"])
        for line in ('KEY_DBG(port, "[%lld.%06lu] after %ld us\\n", now.tv_sec, now.tv_nsec / NSEC_PER_USEC,',
                     "ktime_get_real_ts64(&now);\n\tif (k->pressed[port].tv_sec != 0)",
                     "\tk->pressed[port] = now;"):
            self.assertIn(line, new["keys.c"])

    def test_a_field_array_of_a_structure_that_reaches_user_space_stays(self):
        """Its parameter given &k->pressed[port] stays with it; an element
        only filled keeps its layout, filled from a timespec64."""
        new, converted, kept = driver_types.convert(FIELD_ARRAYS)
        self.assertEqual(converted, ["field sent (an ABI: kept at its size, filled from a timespec64)"])
        self.assertEqual([k["why"] for k in kept], ["keys.h:11: struct keypad reaches user space (field pressed) "
                                                    "[field pressed, local now, param now, param then: kept as struct timeval]"])
        self.assertIn("\tstruct timeval pressed[8];\n\tstruct __kernel_old_timeval sent[2];", new["keys.h"])
        for line in ("static long usec_since(const struct timeval *now, const struct timeval *then)",
                     "do_gettimeofday(&now);", "ktime_get_real_ts64(&now64);\n\tk->sent[0].tv_sec = now64.tv_sec;"):
            self.assertIn(line, new["keys.c"])


LOCAL_ARRAY = {"ini.h": """\
#ifdef __KERNEL__
#define TRACE(fmt, arg...) do { printk(KERN_DEBUG "ini: " fmt "\\n", ##arg); } while (0)
#else
#define TRACE(fmt, arg...) do { user_log("ini: " fmt "\\n", ##arg); } while (0)
#endif
""", "ini.c": """\
#ifdef __cplusplus
#if __cplusplus
extern "C" {
#endif
#endif

int ini_lookup(const char *key)
{
	struct timeval tv[2];
	int found;

	do_gettimeofday(&tv[0]);
	found = ini_scan(key);
	do_gettimeofday(&tv[1]);
	TRACE("took %ld ms", (tv[1].tv_sec - tv[0].tv_sec) * 1000 + (tv[1].tv_usec - tv[0].tv_usec) / 1000);
	return found;
}

int ini_reload(struct ini_dev *dev)
{
	struct timeval tv[2];

	do_gettimeofday(&tv[0]);
	ini_scan(NULL);
	do_gettimeofday(&tv[1]);
	vendor_log(dev, "took %ld s", tv[1].tv_sec - tv[0].tv_sec);
	return 0;
}

#ifdef __cplusplus
#if __cplusplus
}
#endif
#endif
"""}


class LocalArray(unittest.TestCase):
    """A local array of timevals in a file wrapped in extern "C" { }
    (never compiled as C++ in the kernel), printed through a macro defined
    once per configuration: it converts, its %ld takes %lld; printed
    through a function whose format this pass does not read, the argument
    (a long before) is cast to long (ForeignFormat)."""

    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(LOCAL_ARRAY)

    def test_a_local_array_printed_through_a_print_macro_converts(self):
        self.assertEqual(self.converted, ["local tv", "local tv"])
        ini = self.new["ini.c"]
        for line in ("\tstruct timespec64 tv[2];\n\tint found;", "ktime_get_real_ts64(&tv[0]);",
                     'TRACE("took %lld ms", (tv[1].tv_sec - tv[0].tv_sec) * 1000 + '
                     "(tv[1].tv_nsec / NSEC_PER_USEC - tv[0].tv_nsec / NSEC_PER_USEC) / 1000);"):
            self.assertIn(line, ini)

    def test_seconds_printed_through_an_unknown_format_keep_their_type(self):
        self.assertEqual(self.kept, [])
        self.assertIn('vendor_log(dev, "took %ld s", (long)(tv[1].tv_sec - tv[0].tv_sec));', self.new["ini.c"])


TWO_DEFINITIONS = {"since.c": """\
#ifdef CONFIG_FAST
static long since(struct timespec *t)
{
	return t->tv_sec;
}
#else
static long since(struct timespec *t)
{
	return fast_since(t);
}
#endif

static long poll(void)
{
	struct timespec now;

	ktime_get_ts(&now);
	return since(&now);
}
"""}


class TwoDefinitions(unittest.TestCase):
    def test_a_function_defined_once_per_configuration_changes_in_both_or_neither(self):
        new, converted, kept = driver_types.convert(TWO_DEFINITIONS)
        self.assertEqual((converted, [k["why"] for k in kept]),
                         ([], ["since.c:9: passed to fast_since() [local now, param t: kept as struct timespec]"]))
        self.assertEqual(new, {})


BUFFER_PRINT = {"bench.c": """\
#define bench_print(file, fmt, args...) \\
({	int _rc_ = sprintf((file)->head, fmt, args); \\
	(file)->head += _rc_; \\
	_rc_; })
#define bench_vprint(file, test, fmt, args...) bench_print(file, "%s: " fmt, test, args)

static void bench_run(struct bench_file *file, const char *name)
{
	struct timespec start, stop, delta;

	getnstimeofday(&start);
	bench_loop();
	getnstimeofday(&stop);
	delta = timespec_sub(stop, start);
	bench_vprint(file, name, "%-22s %2ld.%09ld\\n", "loop", delta.tv_sec, delta.tv_nsec);
	bench_vprint(file, BENCH_NAME, "start=%ld.%09lds, stop=%ld.%09lds\\n",
		     start.tv_sec, start.tv_nsec, stop.tv_sec, stop.tv_nsec);
}
"""}


class BufferPrint(unittest.TestCase):
    def test_a_macro_printing_into_a_buffer_with_sprintf_is_a_print(self):
        """bench_vprint -> bench_print -> sprintf: %2ld of tv_sec takes %2lld."""
        new, converted, kept = driver_types.convert(BUFFER_PRINT)
        self.assertEqual((converted, kept), (["local delta, local start, local stop"], []))
        self.assertIn('bench_vprint(file, name, "%-22s %2lld.%09ld\\n", "loop", delta.tv_sec, delta.tv_nsec);',
                      new["bench.c"])

    def test_a_comma_inside_the_format_separates_no_arguments(self):
        new, converted, kept = driver_types.convert(BUFFER_PRINT)
        self.assertIn('"start=%lld.%09lds, stop=%lld.%09lds\\n",', new["bench.c"])


# A timeval filled by a ktime or nanosecond conversion and printed with its
# seconds: the per-file rule keeps it (it cannot widen a format), the pass
# converts it, a local in an inner block and a pointer-filled one alike.
PRINTED_VALUE = {"stamp.c": """\
static void show_point(struct seq_file *s, struct point *pt)
{
	if (pt->status) {
		struct timeval tv = ktime_to_timeval(pt->timestamp);
		seq_printf(s, "@%ld.%06ld", tv.tv_sec, tv.tv_usec);
	}
}

static void show_age(struct point *pt)
{
	struct timeval age;

	age = ns_to_timeval(pt->age_ns);
	pr_info("age %lu.%06lu\\n", age.tv_sec, age.tv_usec);
}

static long quiet_age(struct point *pt)
{
	struct timeval q = ns_to_timeval(pt->age_ns);

	return q.tv_sec;
}

static int copy_stamp(struct point *pt, struct timeval __user *u)
{
	struct timeval out = ktime_to_timeval(pt->timestamp);

	pr_info("stamp %ld\\n", out.tv_sec);
	return copy_to_user(u, &out, sizeof(out));
}
"""}


class PrintedValue(unittest.TestCase):
    def setUp(self):
        self.new, self.converted, self.kept = driver_types.convert(PRINTED_VALUE)
        self.stamp = self.new["stamp.c"]

    def test_a_printed_timeval_value_converts_with_lld(self):
        for line in ("struct timespec64 tv = ktime_to_timespec64(pt->timestamp);",
                     'seq_printf(s, "@%lld.%06ld", tv.tv_sec, tv.tv_nsec / NSEC_PER_USEC);',
                     "age = ns_to_timespec64(pt->age_ns);",
                     'pr_info("age %lld.%06lu\\n", age.tv_sec, age.tv_nsec / NSEC_PER_USEC);'):
            self.assertIn(line, self.stamp)

    def test_an_unprinted_one_is_left_to_the_per_file_rule(self):
        self.assertIn("struct timeval q = ns_to_timeval(pt->age_ns);", self.stamp)

    def test_one_copied_to_user_space_stays(self):
        self.assertIn("struct timeval out = ktime_to_timeval(pt->timestamp);", self.stamp)
        self.assertIn('pr_info("stamp %ld\\n", out.tv_sec);', self.stamp)
        self.assertEqual(self.kept, [])  # left to the per-file rule, which reports it


# struct timespec/timeval named as an ioctl number's type: the number is
# built from the type's size, which struct __kernel_old_timespec/timeval
# keeps on every architecture (two longs).
IOCTL_NUMBERS = {"dev_ioctl.h": """\
#define DEV_IOW(c, size)	_IOW('d', (c), size)
#define DEV_IOW_TYPED(c, t, size) \\
	DEV_IOW((c) | ((t) << 4), size)
#define DEV_SET_TIME		_IOW('d', 1, struct timespec)
#define DEV_GET_STAMP		_IOR('d', 2, struct timeval)
#define DEV_XCHG		_IOWR('d', 3, \\
				      struct timespec)
#define DEV_SET(t)		DEV_IOW_TYPED(4, t, struct timespec)
#define DEV_WAIT		DEV_IOW(5, struct timeval)
#define DEV_PTR			_IOW('d', 6, struct timespec *)
#define DEV_PAIR		_IOW('d', 7, struct timespec_pair)
#define DEV_SIZE(t)		(sizeof(t) + 4)
#define DEV_RAW			DEV_SIZE(struct timespec)
""", "uapi/dev_user.h": """\
#define DEV_USER_SET		_IOW('d', 8, struct timespec)
"""}


class IoctlNumbers(unittest.TestCase):
    def setUp(self):
        self.new, self.converted, self.kept = driver_types.convert(IOCTL_NUMBERS)
        self.header = self.new["dev_ioctl.h"]

    def test_the_type_of_an_ioctl_number_keeps_its_size(self):
        for line in ("_IOW('d', 1, struct __kernel_old_timespec)", "_IOR('d', 2, struct __kernel_old_timeval)",
                     "_IOWR('d', 3, \\\n\t\t\t\t      struct __kernel_old_timespec)",
                     "DEV_IOW_TYPED(4, t, struct __kernel_old_timespec)",
                     "DEV_IOW(5, struct __kernel_old_timeval)"):
            self.assertIn(line, self.header)
        self.assertEqual(len(self.converted), 5)

    def test_a_pointer_another_structure_a_size_and_a_uapi_header_stay(self):
        for line in ("_IOW('d', 6, struct timespec *)", "_IOW('d', 7, struct timespec_pair)",
                     "DEV_SIZE(struct timespec)"):
            self.assertIn(line, self.header)
        self.assertNotIn("uapi/dev_user.h", self.new)

    def test_a_kernel_range_without_the_name_keeps_the_number(self):
        new, converted, _ = driver_types.convert(IOCTL_NUMBERS, lambda relpath, line, text: False)
        self.assertEqual((new, converted), ({}, []))


# A lone do_gettimeofday() local whose seconds are printed in an expression
# through the driver's print macro, after an argument with string constants:
# the per-file rule cannot tell the format from the other strings, the pass
# reads the format argument and widens the conversion.
PRINTED_EXPRESSION = {"sync.c": """\
#define BUS_DBG(bus, fmt, ...) printk(KERN_DEBUG "%s: " fmt, (bus)->name, ## __VA_ARGS__)

static void send_drift(struct bus *bus, int drift)
{
	struct timeval now;

	do_gettimeofday(&now);
	BUS_DBG(bus, "%sDRIFT (%d) (last update %ld seconds ago)\\n",
		(bus->fake) ? "Fake " : "", drift, now.tv_sec - bus->updated_at);
	bus->updated_at = now.tv_sec;
}

static void stamp(struct bus *bus)
{
	struct timeval t;

	do_gettimeofday(&t);
	bus->usec = t.tv_usec;
}
"""}


class PrintedExpression(unittest.TestCase):
    def test_a_lone_local_printed_in_an_expression_converts_with_lld(self):
        new, converted, kept = driver_types.convert(PRINTED_EXPRESSION)
        self.assertEqual((converted, kept), (["local now"], []))
        sync = new["sync.c"]
        for line in ("\tstruct timespec64 now;", "ktime_get_real_ts64(&now);",
                     'BUS_DBG(bus, "%sDRIFT (%d) (last update %lld seconds ago)\\n",'):
            self.assertIn(line, sync)

    def test_an_unprinted_lone_local_is_the_per_file_rules(self):
        new, _, _ = driver_types.convert(PRINTED_EXPRESSION)
        self.assertIn("\tstruct timeval t;\n\n\tdo_gettimeofday(&t);", new["sync.c"])


# A function whose header is one of the driver's macros: spatch does not
# parse it, so its lone locals are the pass's.
MACRO_HEADER = {"sysfs.c": """\
#define ATTR_READER(name, dev, buf) \\
	ssize_t name(struct device *dev, struct device_attribute *attr, char *buf)

static ATTR_READER(timing_show, dev, buf)
{
	struct bus *bus = to_bus(dev);
	struct timeval now;

	do_gettimeofday(&now);
	return snprintf(buf, PAGE_SIZE, "%ld sec ago, %ld us\\\\n",
			bus->updated ? now.tv_sec - bus->updated : 0, now.tv_usec);
}

static ssize_t plain_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct timeval now;

	do_gettimeofday(&now);
	return snprintf(buf, PAGE_SIZE, "%06ld\\\\n", now.tv_usec);
}
"""}


class MacroHeader(unittest.TestCase):
    def test_a_local_of_a_function_defined_through_a_macro_converts(self):
        new, converted, kept = driver_types.convert(MACRO_HEADER)
        self.assertEqual((converted, kept), (["local now"], []))
        for line in ("\tstruct timespec64 now;\n\n\tktime_get_real_ts64(&now);",
                     'snprintf(buf, PAGE_SIZE, "%lld sec ago, %ld us\\\\n",',
                     "bus->updated ? now.tv_sec - bus->updated : 0, now.tv_nsec / NSEC_PER_USEC);"):
            self.assertIn(line, new["sysfs.c"])

    def test_a_lone_local_of_a_plain_function_stays_the_per_file_rules(self):
        new, _, _ = driver_types.convert(MACRO_HEADER)
        self.assertIn('\tstruct timeval now;\n\n\tdo_gettimeofday(&now);\n\treturn snprintf(buf, PAGE_SIZE, "%06ld',
                      new["sysfs.c"])


# A format whose text starts with a capitalised word is one string; a
# macro before the conversion printed may hold conversions of its own (this
# pass cannot count them), one after it or a string macro of the driver's
# shifts nothing.
CAPITALISED_FORMAT = {"drift.c": """\
struct bus {
	struct timeval seen;
	struct timeval told;
};

static void show(struct bus *bus)
{
	do_gettimeofday(&bus->seen);
	pr_info("DRIFT %ld sec\\\\n", bus->seen.tv_sec);
}

static void tell(struct bus *bus)
{
	do_gettimeofday(&bus->told);
	pr_info(UNIT_NAME " told %ld\\\\n", bus->told.tv_sec);
}
"""}


class CapitalisedFormat(unittest.TestCase):
    def test_a_capitalised_word_in_the_format_is_no_macro(self):
        new, converted, kept = driver_types.convert(CAPITALISED_FORMAT)
        self.assertEqual(converted, ["field seen"])
        self.assertIn('pr_info("DRIFT %lld sec\\\\n", bus->seen.tv_sec);', new["drift.c"])
        self.assertEqual([k["names"] for k in kept], [[("drift.c", "told")]])
        self.assertIn("format built from macros", kept[0]["why"])

    def test_a_macro_after_the_conversion_or_a_string_macro_before_it_shifts_nothing(self):
        for code in (CAPITALISED_FORMAT["drift.c"].replace('UNIT_NAME " told %ld\\\\n"', '" told %ld " UNIT_NAME "\\\\n"'),
                     '#define UNIT_NAME "drift: "\n' + CAPITALISED_FORMAT["drift.c"]):
            new, converted, kept = driver_types.convert({"drift.c": code})
            self.assertEqual((converted, kept), (["field seen", "field told"], []))
            self.assertIn(" told %lld", new["drift.c"])


# BSD's tvsub(): tv_usec written inside a condition that tests its sign.
TVSUB = {"rate.c": """\
struct rec {
	struct timeval stamp;
};

static void tvsub(struct timeval *out, struct timeval *in)
{
	if ((out->tv_usec -= in->tv_usec) < 0) {
		out->tv_sec--;
		out->tv_usec += 1000000;
	}
	out->tv_sec -= in->tv_sec;
}

static u32 elapsed_ms(struct rec *r)
{
	struct timeval now;

	do_gettimeofday(&now);
	tvsub(&now, &r->stamp);
	return now.tv_sec * 1000 + now.tv_usec / 1000;
}
"""}


class SignTestedWrite(unittest.TestCase):
    def test_a_write_whose_sign_is_tested_converts(self):
        new, converted, kept = driver_types.convert(TVSUB)
        self.assertEqual(kept, [])
        self.assertEqual(sorted(converted), ["field stamp, param in", "local now, param out"])
        for line in ("if ((out->tv_nsec -= in->tv_nsec / NSEC_PER_USEC * NSEC_PER_USEC) < 0) {",
                     "out->tv_nsec += 1000000 * NSEC_PER_USEC;",
                     "static void tvsub(struct timespec64 *out, struct timespec64 *in)"):
            self.assertIn(line, new["rate.c"])

    def test_a_write_compared_with_anything_else_stays(self):
        other = {"rate.c": TVSUB["rate.c"].replace(") < 0) {", ") < 500) {")}
        new, converted, kept = driver_types.convert(other)
        self.assertEqual(converted, ["field stamp, param in"])  # read only: it converts alone
        self.assertEqual([k["names"] for k in kept], [[("rate.c", "now"), ("rate.c", "out")]])
        self.assertIn("tv_usec written inside an expression", kept[0]["why"])
        self.assertIn("if ((out->tv_usec -= in->tv_nsec / NSEC_PER_USEC) < 500) {", new["rate.c"])


# A duration built in a timeval or timespec and turned into jiffies.
JIFFIES = {"rate.c": """\
static unsigned long rate_j(unsigned int minutes)
{
	struct timeval tv = { .tv_sec = minutes * 60, .tv_usec = 0 };

	return timeval_to_jiffies(&tv);
}

static unsigned long poll_j(unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	return timeval_to_jiffies(&tv);
}

static unsigned long wait_j(unsigned int s)
{
	struct timespec ts = { .tv_sec = s, .tv_nsec = 0 };

	return timespec_to_jiffies(&ts);
}

static unsigned long legacy_j(void)
{
	struct timeval tv = { 2, 500 };

	return timeval_to_jiffies(&tv);
}
"""}


class Jiffies(unittest.TestCase):
    def setUp(self):
        self.new, self.converted, self.kept = driver_types.convert(JIFFIES)
        self.rate = self.new["rate.c"]

    def test_a_duration_turned_into_jiffies_converts(self):
        for line in ("struct timespec64 tv = { .tv_sec = minutes * 60, .tv_nsec = 0 };",
                     "struct timespec64 tv = { .tv_sec = ms / 1000, .tv_nsec = ((ms % 1000) * 1000) * NSEC_PER_USEC };",
                     "struct timespec64 ts = { .tv_sec = s, .tv_nsec = 0 };",
                     "return timespec64_to_jiffies(&ts);"):
            self.assertIn(line, self.rate)
        self.assertEqual(self.rate.count("return timespec64_to_jiffies(&tv);"), 2)

    def test_a_positional_seconds_and_microseconds_initialiser_stays(self):
        self.assertIn("struct timeval tv = { 2, 500 };\n\n\treturn timeval_to_jiffies(&tv);", self.rate)
        self.assertEqual([k["why"] for k in self.kept],
                         ["rate.c:24: initialised as {seconds, microseconds} [local tv: kept as struct timeval]"])


ALLOCATED = {"touch.h": """\
struct touch_dev {
	int fingers;
	struct timespec *down_at;
	struct timeval *samples;
	struct timespec *hw_stamp;
	void __iomem *regs;
};

struct touch_report {
	int finger;
	struct timespec *stamps;
};
""", "touch.c": """\
#include "touch.h"

static int touch_alloc(struct touch_dev *t, int n)
{
	t->down_at = kzalloc(sizeof(struct timespec) * n, GFP_KERNEL);
	if (!t->down_at)
		return -ENOMEM;
	t->samples = kcalloc(n, sizeof(struct timeval), GFP_KERNEL);
	if (t->samples == NULL) {
		kfree(t->down_at);
		return -ENOMEM;
	}
	t->hw_stamp = t->regs + 0x40;
	return 0;
}

static void touch_free(struct touch_dev *t)
{
	kfree(t->down_at);
	t->down_at = NULL;
	kfree(t->samples);
}

static void touch_down(struct touch_dev *t, int i)
{
	ktime_get_ts(&t->down_at[i]);
	do_gettimeofday(&t->samples[i]);
	pr_info("finger %d at %ld.%09ld\\n", i, t->down_at[i].tv_sec, t->down_at[i].tv_nsec);
}

static long touch_held_ms(struct touch_dev *t, int i)
{
	struct timespec now, d;

	ktime_get_ts(&now);
	d = timespec_sub(now, t->down_at[i]);
	return d.tv_sec * 1000 + d.tv_nsec / 1000000;
}

static long touch_sample_us(struct touch_dev *t, int i)
{
	return t->samples[i].tv_usec;
}

static long touch_hw_sec(struct touch_dev *t)
{
	return t->hw_stamp[0].tv_sec;
}

static int touch_read(struct touch_report *r, void __user *arg)
{
	r->stamps = kmalloc(sizeof(struct timespec) * 4, GFP_KERNEL);
	getnstimeofday(&r->stamps[0]);
	return copy_to_user(arg, r->stamps, sizeof(struct timespec) * 4);
}
"""}


class AllocatedFieldArrays(unittest.TestCase):
    """A pointer field of the driver's own structure, allocated as an array
    (`kzalloc(sizeof(struct timespec) * n)`, `kcalloc(n, sizeof(struct
    timeval))`) and filled element by element, converts like a field array:
    the allocation's size takes the new type; freeing it, NULL tests and a
    NULL store need nothing.  A pointer into a register block and an array
    copied to user space stay."""

    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(ALLOCATED)

    def test_an_allocated_array_converts_with_its_allocation(self):
        self.assertIn("field down_at, local d, local now", self.converted)
        self.assertIn("field samples", self.converted)
        self.assertIn("\tstruct timespec64 *down_at;\n\tstruct timespec64 *samples;", self.new["touch.h"])
        for line in ("t->down_at = kzalloc(sizeof(struct timespec64) * n, GFP_KERNEL);",
                     "t->samples = kcalloc(n, sizeof(struct timespec64), GFP_KERNEL);",
                     "ktime_get_ts64(&t->down_at[i]);", "ktime_get_real_ts64(&t->samples[i]);",
                     'pr_info("finger %d at %lld.%09ld\\n", i, t->down_at[i].tv_sec, t->down_at[i].tv_nsec);',
                     "d = timespec64_sub(now, t->down_at[i]);",
                     "return t->samples[i].tv_nsec / NSEC_PER_USEC;",
                     "kfree(t->down_at);\n\tt->down_at = NULL;\n\tkfree(t->samples);"):
            self.assertIn(line, self.new["touch.c"])

    def test_an_array_kvfree_frees_converts_too(self):
        kv = {name: text.replace("kcalloc(n, sizeof(struct timeval)", "kvcalloc(n, sizeof(struct timeval)")
              .replace("kfree(t->samples)", "kvfree(t->samples)") for name, text in ALLOCATED.items()}
        new, converted, _ = driver_types.convert(kv)
        self.assertIn("field samples", converted)
        self.assertIn("t->samples = kvcalloc(n, sizeof(struct timespec64), GFP_KERNEL);", new["touch.c"])

    def test_a_pointer_into_registers_and_an_array_copied_to_user_space_stay(self):
        self.assertIn("\tstruct timespec *hw_stamp;", self.new["touch.h"])
        self.assertIn("\tstruct timespec *stamps;", self.new["touch.h"])
        self.assertIn("r->stamps = kmalloc(sizeof(struct timespec) * 4, GFP_KERNEL);\n\tgetnstimeofday(&r->stamps[0]);",
                      self.new["touch.c"])
        whys = sorted(k["why"].split(" [")[0] for k in self.kept)
        self.assertEqual(whys, ["touch.c:13: its value comes from t->regs + 0x40",
                                "touch.c:54: passed to copy_to_user()"])


IOCTL_DEFINES = {"tp.c": """\
#define TP_IOC_CFG _IOW('t', 1, struct tp_cfg)

struct tp_cfg {
	struct timeval stamp;
};

#define TP_IOC_RDIM _IOW('t', 2, int)

struct tp_dev {
	struct timespec last;
};

static void tp_event(struct tp_dev *d, struct tp_cfg *c)
{
	ktime_get_ts(&d->last);
	do_gettimeofday(&c->stamp);
}
"""}


class IoctlDefines(unittest.TestCase):
    """An ioctl number whose type is no structure (`_IOW('t', 2, int)`)
    says nothing of the structure declared after it: only the structure
    an _IO*() names inside its own parentheses reaches user space."""

    def test_the_next_structure_after_an_ioctl_number_is_no_abi(self):
        new, converted, kept = driver_types.convert(IOCTL_DEFINES)
        self.assertIn("field last", converted)
        self.assertIn("\tstruct timespec64 last;", new["tp.c"])
        self.assertIn("ktime_get_ts64(&d->last);", new["tp.c"])

    def test_the_structure_an_ioctl_number_names_keeps_its_layout(self):
        new, converted, kept = driver_types.convert(IOCTL_DEFINES)
        self.assertIn("\tstruct __kernel_old_timeval stamp;", new["tp.c"])
        self.assertIn("ktime_get_real_ts64(&now64);\n\tc->stamp.tv_sec = now64.tv_sec;", new["tp.c"])


SIZE_OF_VALUE = {"fps.c": """\
static struct timeval fps_now, fps_last;
static struct timeval wire_stamp;
static unsigned char wire[64];

static void fps_tick(int *frames)
{
	do_gettimeofday(&fps_now);
	if (fps_now.tv_sec - fps_last.tv_sec > 1) {
		*frames = 0;
		memcpy(&fps_last, &fps_now, sizeof(fps_now));
	}
}

static void wire_fill(void)
{
	do_gettimeofday(&wire_stamp);
	memcpy(wire, &wire_stamp, sizeof(wire_stamp));
}
"""}


class SizeOfValue(unittest.TestCase):
    """memcpy(&b, &a, sizeof(a)) between two of the driver's timevals: the
    size follows the variable's type, so both convert together; a value
    copied into a byte buffer (a wire or register image) stays."""

    def test_a_copy_sized_by_its_value_converts_with_both(self):
        new, converted, kept = driver_types.convert(SIZE_OF_VALUE)
        self.assertEqual(converted, ["global fps_last, global fps_now"])
        self.assertIn("static struct timespec64 fps_now, fps_last;", new["fps.c"])
        self.assertIn("memcpy(&fps_last, &fps_now, sizeof(fps_now));", new["fps.c"])

    def test_a_value_copied_into_a_byte_buffer_stays(self):
        new, converted, kept = driver_types.convert(SIZE_OF_VALUE)
        self.assertIn("static struct timeval wire_stamp;", new["fps.c"])
        self.assertEqual([k["why"].split(" [")[0] for k in kept],
                         ["fps.c:17: copied to or from wire, not one of the driver's own timevals"])

    def test_a_value_copied_into_a_byte_buffer_by_its_type_size_stays(self):
        """Before, `wire` passed for a scalar and the image took 16 bytes."""
        typed = {"fps.c": SIZE_OF_VALUE["fps.c"].replace("sizeof(wire_stamp)", "sizeof(struct timeval)")}
        new, converted, kept = driver_types.convert(typed)
        self.assertIn("memcpy(wire, &wire_stamp, sizeof(struct timeval));", new["fps.c"])
        self.assertNotIn("global wire_stamp", converted)


PARENTHESISED = {"lens.c": """\
struct lens {
	struct timespec moved_at;
	struct timespec user_stamp;
	struct timespec fw_stamp;
};
static struct lens lens_dev;

int lens_send_stamp(struct timespec stamp);

static void lens_move(void)
{
	getnstimeofday(&(lens_dev.moved_at));
}

static int lens_settled(void)
{
	struct timespec now;
	const struct timespec settle = {
		.tv_sec = 0,
		.tv_nsec = 20000000,
	};

	ktime_get_ts(&now);
	now = timespec_sub(now, (lens_dev.moved_at));
	return timespec_compare(&now, &settle) > 0;
}

static long lens_ioctl(void __user *arg)
{
	getnstimeofday(&(lens_dev.user_stamp));
	getnstimeofday(&lens_dev.fw_stamp);
	lens_send_stamp((lens_dev.fw_stamp));
	return copy_to_user(arg, &(lens_dev.user_stamp), sizeof(lens_dev.user_stamp));
}
"""}


class ParenthesisedValues(unittest.TestCase):
    """`(x)` is the value x: a field in its own parentheses as a helper's
    argument (`timespec_sub(now, (dev.stamp))`) or behind `&` links like the
    bare field; in parentheses handed to a kernel function or to user space
    it still keeps its group."""

    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(PARENTHESISED)

    def test_a_parenthesised_helper_argument_converts_with_its_locals(self):
        self.assertEqual(self.converted, ["field moved_at, local now, local settle"])
        lens = self.new["lens.c"]
        for line in ("\tstruct timespec64 moved_at;", "ktime_get_real_ts64(&(lens_dev.moved_at));",
                     "now = timespec64_sub(now, (lens_dev.moved_at));", "struct timespec64 now;",
                     "const struct timespec64 settle = {", "ktime_get_ts64(&now);",
                     "return timespec64_compare(&now, &settle) > 0;"):
            self.assertIn(line, lens)

    def test_parenthesised_values_handed_to_user_space_or_a_kernel_function_stay(self):
        lens = self.new["lens.c"]
        for line in ("\tstruct timespec user_stamp;", "\tstruct timespec fw_stamp;",
                     "getnstimeofday(&(lens_dev.user_stamp));", "lens_send_stamp((lens_dev.fw_stamp));"):
            self.assertIn(line, lens)
        self.assertEqual(sorted(k["why"].split(" [")[0] for k in self.kept),
                         ["lens.c:32: passed to lens_send_stamp()", "lens.c:33: passed to copy_to_user() (a size, a user "
                          "pointer or a use of its result this pass does not read)"])


INPUT_EVENTS = {"accel.c": """\
struct accel_dev {
	int head;
	struct input_event events[8];
};

struct wire_record;

static void stamp_now(struct timeval *tv)
{
	struct timespec ts;

	ktime_get_ts(&ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
}

static void fill_event(struct input_event *ev, int type, int value)
{
	struct timeval tv;

	stamp_now(&tv);
	ev->type = type;
	ev->value = value;
	ev->time = tv;
}

static void fill_event_at(struct input_event *ev, int type, struct timeval *when)
{
	ev->type = type;
	ev->time = *when;
}

static void report_pair(struct accel_dev *d)
{
	struct timeval tv;

	stamp_now(&tv);
	fill_event_at(&d->events[0], 1, &tv);
	fill_event_at(&d->events[1], 0, &tv);
}

static void log_record(struct wire_record *out, struct timeval *now)
{
	do_gettimeofday(now);
	out->time = *now;
}
"""}


class InputEventTime(unittest.TestCase):
    """A driver that fills struct input_event itself (`ev->time = tv;`):
    Linux 4.16 gave it input_event_sec/input_event_usec in place of the
    timeval in-kernel code may no longer name; the converted value fills
    them.  A `time` member of any other structure keeps its group."""

    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(INPUT_EVENTS)

    def test_a_timeval_stored_into_an_input_event_converts_with_the_two_fields(self):
        self.assertEqual(self.converted, ["local tv, param tv, param when"])
        accel = self.new["accel.c"]
        for line in ("static void stamp_now(struct timespec64 *tv)",
                     "\tev->input_event_sec = tv.tv_sec;\n\tev->input_event_usec = tv.tv_nsec / NSEC_PER_USEC;\n}",
                     "\tev->input_event_sec = when->tv_sec;\n\tev->input_event_usec = when->tv_nsec / NSEC_PER_USEC;\n}",
                     "static void fill_event_at(struct input_event *ev, int type, struct timespec64 *when)"):
            self.assertIn(line, accel)
        self.assertNotIn("->time =", accel.split("log_record")[0])

    def test_another_structures_time_member_keeps_its_group(self):
        self.assertEqual([k["why"].split(" [")[0] for k in self.kept],
                         ["accel.c:45: its value goes to out->time"])
        self.assertIn("struct timeval *now)\n{\n\tdo_gettimeofday(now);\n\tout->time = *now;", self.new["accel.c"])

    def test_older_kernels_get_the_two_names_from_the_compat_header(self):
        from y2038lib.outoftree import compat_fallbacks, kernel_versions as kv
        span = kv.KernelRange(kv.parse("4.4"), kv.parse("6.12"), "test")
        names = compat_fallbacks.needed(self.new["accel.c"], span, compat_fallbacks.usable(span, {"timeval"}))
        self.assertIn("input_event_sec", names)
        header = compat_fallbacks.header_text(names)
        self.assertIn("#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 16, 0)\n#define input_event_sec time.tv_sec", header)


USER_BOUNDARY = {"clk.c": """\
#define CLK_SET		_IOW('k', 2, struct timespec)
#define CLK_WALL	_IOW('k', 3, struct timespec)
#define CLK_GET		_IOR('k', 4, struct timespec)

static void clk_arm(struct timespec *ts)
{
	pr_info("arm at %ld.%09ld\\n", ts->tv_sec, ts->tv_nsec);
	start_timer(timespec_to_ktime(*ts));
}

static int clk_read(int type, struct timespec *ts)
{
	if (type)
		getnstimeofday(ts);
	else
		ktime_get_ts(ts);
	return 0;
}

static long clk_dispatch(unsigned int cmd, struct timespec *ts)
{
	switch (cmd) {
	case CLK_SET:
		clk_arm(ts);
		return 0;
	case CLK_WALL:
		return do_settimeofday(ts);
	case CLK_GET:
		return clk_read(0, ts);
	}
	return -EINVAL;
}

static long clk_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct timespec ts;
	long rv;

	if (cmd != CLK_GET) {
		if (copy_from_user(&ts, (void __user *)arg, sizeof(ts)))
			return -EFAULT;
	}
	rv = clk_dispatch(cmd, &ts);
	if (rv)
		return rv;
	if (cmd == CLK_GET) {
		if (copy_to_user((void __user *)arg, &ts, sizeof(ts)))
			return -EFAULT;
	}
	return 0;
}

static long clk_compat_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct timespec ts;
	long rv;

	if (cmd != CLK_GET) {
		if (compat_get_timespec(&ts, compat_ptr(arg)))
			return -EFAULT;
	}
	rv = clk_dispatch(cmd, &ts);
	if (!rv && cmd == CLK_GET) {
		if (compat_put_timespec(&ts, compat_ptr(arg)))
			return -EFAULT;
	}
	return rv;
}

static long clk_uptime(void __user *buf)
{
	struct timespec up;

	ktime_get_ts(&up);
	if (copy_to_user(buf, &up, sizeof(up)))
		return -EFAULT;
	return 0;
}

static long clk_settle(void)
{
	struct timeval begin = {NULL}, now = {0, 0};

	do_gettimeofday(&begin);
	do_gettimeofday(&now);
	return now.tv_usec - begin.tv_usec;
}

static long stamp_read(void __user *buf)
{
	struct timespec last;

	getnstimeofday(&last);
	last.tv_sec -= 1;
	return copy_to_user(buf, &last, sizeof(last));
}

static long raw_read(void __user *buf)
{
	struct timespec raw;

	getrawmonotonic(&raw);
	raw.tv_sec -= 1;
	if (copy_to_user(buf, &raw, 8))
		return -EFAULT;
	return 0;
}
"""}


class UserBoundary(unittest.TestCase):
    """A character device that copies a whole struct timespec to or from
    user space (`if (copy_from_user(&ts, arg, sizeof(ts)))`) and hands it
    to its own functions: the values become timespec64, only the copies
    keep the old layout (each field through get_user()/put_user() as a
    `struct __kernel_old_timespec`: long seconds on every architecture, the
    ioctl numbers' size unchanged), the compat ioctl's copies take their
    timespec64 forms and do_settimeofday() its 64-bit one.  A copy whose
    result is returned, or of another size, keeps its value as it was."""

    @classmethod
    def setUpClass(cls):
        cls.new, cls.converted, cls.kept = driver_types.convert(USER_BOUNDARY)

    def test_the_values_convert_and_the_copies_keep_the_old_layout(self):
        self.assertEqual(self.converted[0], "local ts, param ts")
        clk = self.new["clk.c"]
        for line in ("if ((get_user(ts.tv_sec, &((struct __kernel_old_timespec __user *)(void __user *)arg)->tv_sec) ||\n"
                     "\t\t\tget_user(ts.tv_nsec, &((struct __kernel_old_timespec __user *)(void __user *)arg)->tv_nsec)))",
                     "if ((put_user(ts.tv_sec, &((struct __kernel_old_timespec __user *)(void __user *)arg)->tv_sec) ||",
                     "if (get_old_timespec32(&ts, compat_ptr(arg)))", "if (put_old_timespec32(&ts, compat_ptr(arg)))",
                     "return do_settimeofday64(ts);", 'pr_info("arm at %lld.%09ld\\n", ts->tv_sec, ts->tv_nsec);',
                     "start_timer(timespec64_to_ktime(*ts));", "ktime_get_real_ts64(ts);",
                     "#define CLK_GET\t\t_IOR('k', 4, struct __kernel_old_timespec)"):
            self.assertIn(line, clk)
        self.assertNotIn("copy_from_user", clk)

    def test_a_returned_copy_and_one_of_another_size_stay(self):
        clk = self.new["clk.c"]
        for line in ("struct timespec last;", "return copy_to_user(buf, &last, sizeof(last));",
                     "struct timespec raw;", "if (copy_to_user(buf, &raw, 8))"):
            self.assertIn(line, clk)
        self.assertEqual([k["why"].split(" (")[0] for k in self.kept],
                         ["clk.c:95: passed to copy_to_user()", "clk.c:104: passed to copy_to_user()"])

    def test_a_lone_local_copied_to_user_space_is_this_passs(self):
        """No per-file rule reads the copy: the pass takes the local."""
        self.assertIn("local up", self.converted)
        self.assertIn("\tstruct timespec64 up;\n\n\tktime_get_ts64(&up);\n\tif ((put_user(up.tv_sec, "
                      "&((struct __kernel_old_timespec __user *)buf)->tv_sec) ||", self.new["clk.c"])

    def test_zero_and_null_positional_initialisers_convert(self):
        self.assertIn("local begin, local now", self.converted)
        self.assertIn("struct timespec64 begin = {NULL}, now = {0, 0};", self.new["clk.c"])


COARSE_NOW = {"gauge.c": """\
struct gauge {
	struct timespec suspended_at;
	struct timespec calibrated_at;
};

struct timespec read_rtc_stamp(void);

struct gauge_info {
	struct timespec screen_off_at;
	struct notifier_block nb;
};

static void gauge_suspend(struct gauge *g)
{
	g->suspended_at = current_kernel_time();
}

static int gauge_screen_off(struct notifier_block *nb)
{
	struct gauge_info *info = container_of(nb, struct gauge_info, nb);

	info->screen_off_at = current_kernel_time();
	return 0;
}

static long gauge_resume(struct gauge *g)
{
	struct timespec slept = timespec_sub(current_kernel_time(), g->suspended_at);

	return slept.tv_sec;
}

static long gauge_age(struct gauge *g)
{
	struct timespec age;

	age = timespec_sub(read_rtc_stamp(), g->calibrated_at);
	return age.tv_sec;
}
"""}


class CoarseNowInHelper(unittest.TestCase):
    """current_kernel_time() read on the spot as a helper's argument
    (`timespec_sub(current_kernel_time(), g->suspended_at)`) is the
    timespec64 value ktime_to_timespec64(ktime_get_coarse_real()) (Linux
    4.18); any other call there (a function of another module) keeps
    the group."""

    def test_the_coarse_clock_in_a_helper_converts_with_its_group(self):
        new, converted, kept = driver_types.convert(COARSE_NOW)
        self.assertEqual(sorted(converted), ["field screen_off_at", "field suspended_at, local slept"])
        gauge = new["gauge.c"]
        for line in ("\tstruct timespec64 suspended_at;", "ktime_get_coarse_real_ts64(&g->suspended_at);",
                     "struct timespec64 slept = timespec64_sub(ktime_to_timespec64(ktime_get_coarse_real()), "
                     "g->suspended_at);"):
            self.assertIn(line, gauge)

    def test_a_field_of_a_variable_named_as_its_types_suffix_is_seen(self):
        """`struct gauge_info *info = container_of(nb, struct gauge_info, nb);`:
        `struct gauge_info,` declares no `info`; before, the field's
        declaration converted and this use was not seen."""
        new, converted, kept = driver_types.convert(COARSE_NOW)
        self.assertIn("\tktime_get_coarse_real_ts64(&info->screen_off_at);\n\treturn 0;", new["gauge.c"])

    def test_another_call_in_a_helper_stays(self):
        new, converted, kept = driver_types.convert(COARSE_NOW)
        self.assertEqual([k["why"].split(" [")[0] for k in kept],
                         ["gauge.c:37: read_rtc_stamp( in a helper is not the driver's own timespec"])
        self.assertIn("age = timespec_sub(read_rtc_stamp(), g->calibrated_at);", new["gauge.c"])


FOREIGN_FORMAT = {"ddc.c": """\
static int ddc_wait(void)
{
	struct timeval t0, t1;

	do_gettimeofday(&t0);
	poll_bus();
	do_gettimeofday(&t1);
	HW_DBG("took %ld us", (t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_usec - t0.tv_usec));
	return 0;
}

static int ddc_stamp(void)
{
	struct timeval t2, t3;

	do_gettimeofday(&t2);
	do_gettimeofday(&t3);
	HW_DBG("at %llu ms", t3.tv_sec * 1000ULL + t2.tv_sec);
	return 0;
}
"""}


class ForeignFormat(unittest.TestCase):
    """Seconds printed through a macro defined outside the directory (its
    format unread): an argument made only of time fields, integer
    constants and + - * / was a long and is cast to one, so the format
    stays right; anything else there (an unsigned long long constant)
    keeps the group."""

    def test_a_long_argument_is_cast_and_converts(self):
        new, converted, kept = driver_types.convert(FOREIGN_FORMAT)
        self.assertEqual(converted, ["local t0, local t1"])
        self.assertIn('HW_DBG("took %ld us", (long)((t1.tv_sec - t0.tv_sec) * 1000000 + '
                      '(t1.tv_nsec / NSEC_PER_USEC - t0.tv_nsec / NSEC_PER_USEC)));', new["ddc.c"])

    def test_another_operand_keeps_the_group(self):
        new, converted, kept = driver_types.convert(FOREIGN_FORMAT)
        self.assertEqual([k["why"].split(" [")[0] for k in kept],
                         ["ddc.c:18: tv_sec printed through HW_DBG(), whose format this pass does not read"])
        self.assertIn('HW_DBG("at %llu ms", t3.tv_sec * 1000ULL + t2.tv_sec);', new["ddc.c"])


# A local filled once and read in both arms of a word-size conditional: the
# per-file rule follows one configuration and leaves it; this pass reads both.
# A local copied to user space in such an arm keeps the old layout at the
# copy; one stored into an ioctl structure there stays with it (an ABI); a
# local with no conditional around its uses stays the per-file rules'.
ARMS = {"lat.c": """\
struct req {
	u64 start;
};

static u64 now_us(void)
{
	struct timespec ts;

	ktime_get_ts(&ts);
#if (BITS_PER_LONG > 32)
	return timespec_to_ns(&ts) / 1000;
#else
	return timespec_to_ns(&ts) >> 10;
#endif
}

static int report(void __user *arg)
{
	struct timespec now;

	getnstimeofday(&now);
#ifdef CONFIG_COMPAT
	if (copy_to_user(arg, &now, sizeof(now)))
		return -EFAULT;
#endif
	return 0;
}

struct stamp_arg {
	struct timespec when;
};
#define STAMP_GET _IOR('s', 1, struct stamp_arg)

static int stamp(void __user *arg)
{
	struct stamp_arg out;
	struct timespec when;

	ktime_get_ts(&when);
#if (BITS_PER_LONG > 32)
	out.when = when;
#else
	out.when.tv_sec = when.tv_sec;
	out.when.tv_nsec = when.tv_nsec;
#endif
	return copy_to_user(arg, &out, sizeof(out)) ? -EFAULT : 0;
}

static u64 plain_us(void)
{
	struct timespec t;

	ktime_get_ts(&t);
	return timespec_to_ns(&t) / 1000;
}

static void mark(struct req *r)
{
	r->start = now_us() + plain_us();
}
"""}


class ConditionalArms(unittest.TestCase):
    def test_a_local_read_in_both_arms_of_a_conditional_converts_in_both(self):
        new, converted, _ = driver_types.convert(ARMS)
        self.assertIn("local ts", converted)
        lat = new["lat.c"]
        for line in ("\tstruct timespec64 ts;\n\n\tktime_get_ts64(&ts);",
                     "\treturn timespec64_to_ns(&ts) / 1000;\n#else\n\treturn timespec64_to_ns(&ts) >> 10;"):
            self.assertIn(line, lat)

    def test_a_local_copied_to_user_space_in_an_arm_keeps_the_old_layout_at_the_copy(self):
        new, converted, _ = driver_types.convert(ARMS)
        self.assertIn("local now", converted)
        self.assertIn("put_user(now.tv_sec, &((struct __kernel_old_timespec __user *)arg)->tv_sec)", new["lat.c"])

    def test_a_local_stored_into_an_ioctl_structure_in_an_arm_stays(self):
        new, converted, kept = driver_types.convert(ARMS)
        self.assertFalse([c for c in converted if "when" in c])
        self.assertIn("\tstruct timespec when;\n\n\tktime_get_ts(&when);", new["lat.c"])
        self.assertIn("\tstruct timespec when;\n};", new["lat.c"])
        self.assertTrue([k for k in kept if ("lat.c", "when") in k["names"]])

    def test_a_local_with_no_conditional_stays_the_per_file_rules(self):
        new, converted, _ = driver_types.convert(ARMS)
        self.assertNotIn("local t", converted)
        self.assertIn("\tstruct timespec t;\n\n\tktime_get_ts(&t);", new["lat.c"])

    def test_the_arms_are_found_inside_the_function_only(self):
        code = "#if A\nint x;\n#endif\nvoid f(void)\n{\n#ifdef B\n\ty();\n#else\n\tz();\n#endif\n}\n"
        body = code.index("{")
        spans = driver_types.conditional_arms(code, body, len(code))
        self.assertEqual([code[s:e] for s, e in spans], ["#ifdef B\n\ty();\n#else\n\tz();\n#endif"])


# A value in grouping parentheses (`b->stamp = (q->ts);`) is the field it
# names; a cast is not a grouping.
GROUPED_VALUE = {"cam.c": """\
struct frame {
	struct timespec ts;
};

struct buf {
	struct timespec stamp;
};

struct hw_regs {
	struct timespec latch;
};

static void fill(struct frame *q, struct buf *b)
{
	ktime_get_ts(&(q->ts));
	b->stamp = (q->ts);
	pr_debug("at %ld\\\\n", (long)b->stamp.tv_nsec);
}

static void latch(struct hw_regs *r, void *raw)
{
	r->latch = (*(struct timespec *)raw);
}
"""}


class GroupedValue(unittest.TestCase):
    def test_a_parenthesised_field_links_with_the_field_it_names(self):
        new, converted, _ = driver_types.convert(GROUPED_VALUE)
        self.assertIn("field stamp, field ts", converted)
        self.assertIn("\tb->stamp = (q->ts);", new["cam.c"])
        self.assertIn("ktime_get_ts64(&(q->ts));", new["cam.c"])
        self.assertEqual(new["cam.c"].count("struct timespec64"), 2)

    def test_a_parenthesised_cast_from_another_type_stays(self):
        new, converted, kept = driver_types.convert(GROUPED_VALUE)
        self.assertNotIn("field latch", converted)
        self.assertIn("\tstruct timespec latch;", new["cam.c"])
        self.assertTrue([k for k in kept if ("cam.c", "latch") in k["names"]])


# An optional out-pointer: `if (ts)` tests it, then a clock fills it; the
# field handed in converts with it.  The same test before a copy to user
# space keeps the group (an ABI).
OPTIONAL_OUT = {"sync.c": """\
struct waiter {
	struct timespec seen;
};

struct req {
	struct timespec when;
};

static int wait_done(int id, struct timespec *ts)
{
	if (id < 0)
		return -EINVAL;
	if (ts)
		ktime_get_ts(ts);
	return 0;
}

static void done(struct waiter *w, int id)
{
	wait_done(id, &w->seen);
}

static int tell(struct timespec *out, void __user *arg)
{
	if (out)
		return copy_to_user(arg, out, sizeof(*out)) ? -EFAULT : 0;
	return 0;
}

static int report(struct req *r, void __user *arg)
{
	return tell(&r->when, arg);
}
"""}


class OptionalOut(unittest.TestCase):
    def test_a_pointer_tested_by_if_then_filled_converts_with_its_callers_field(self):
        new, converted, _ = driver_types.convert(OPTIONAL_OUT)
        self.assertIn("field seen, param ts", converted)
        sync = new["sync.c"]
        for line in ("\tstruct timespec64 seen;", "static int wait_done(int id, struct timespec64 *ts)",
                     "\tif (ts)\n\t\tktime_get_ts64(ts);"):
            self.assertIn(line, sync)

    def test_a_tested_pointer_copied_to_user_space_stays(self):
        new, converted, kept = driver_types.convert(OPTIONAL_OUT)
        self.assertFalse([c for c in converted if "when" in c or "out" in c])
        self.assertIn("static int tell(struct timespec *out, void __user *arg)", new["sync.c"])
        self.assertIn("\tstruct timespec when;", new["sync.c"])
        self.assertTrue([k for k in kept if ("sync.c", "when") in k["names"]])


# A function header written once per configuration (the old ioctl prototype
# in #ifndef, the unlocked one in #else), its body's brace after #endif: its
# locals are seen.  One handed to a kernel function this pass does not know
# stays.
SPLIT_HEADER = {"otp.c": """\
#ifndef UNLOCKED
static int otp_ioctl(struct inode *inode, struct file *file, unsigned int cmd, unsigned long arg)
#else
static long otp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
#endif
{
	struct timeval t1, t2;
	unsigned long us;

	do_gettimeofday(&t1);
	otp_write(cmd);
	do_gettimeofday(&t2);
	us = (t2.tv_sec - t1.tv_sec) * 1000000 + t2.tv_usec - t1.tv_usec;
	return us > 100;
}

#ifdef OLD_API
static void otp_mark(struct inode *inode)
#else
static void otp_mark(struct otp *otp)
#endif
{
	struct timeval a, b;

	do_gettimeofday(&a);
	b = a;
	board_stamp(&b);
}
"""}


class SplitHeader(unittest.TestCase):
    def test_the_locals_of_a_function_with_a_header_per_configuration_convert(self):
        new, converted, _ = driver_types.convert(SPLIT_HEADER)
        self.assertIn("local t1, local t2", converted)
        otp = new["otp.c"]
        for line in ("\tstruct timespec64 t1, t2;", "\tktime_get_real_ts64(&t1);",
                     "us = (t2.tv_sec - t1.tv_sec) * 1000000 + t2.tv_nsec / NSEC_PER_USEC - t1.tv_nsec / NSEC_PER_USEC;"):
            self.assertIn(line, otp)

    def test_a_local_handed_to_an_unknown_kernel_function_stays(self):
        new, converted, kept = driver_types.convert(SPLIT_HEADER)
        self.assertFalse([c for c in converted if "local a" in c])
        self.assertIn("\tstruct timeval a, b;", new["otp.c"])
        self.assertTrue([k for k in kept if ("otp.c", "b") in k["names"]])

    def test_a_header_in_the_first_branch_alone_is_no_definition(self):
        code = SPLIT_HEADER["otp.c"]
        names = [f[0] for f in driver_types.functions(code)]
        self.assertEqual(names, ["otp_ioctl", "otp_mark"])


# A demodulator's lock time printed through the vendor's logging macro, a
# macro defined in an SDK header outside the module: each seconds value is
# cast to the vendor's integer typedef before the format sees it, so the
# format prints the cast's type whatever tv_sec's is.
VENDOR_CAST = {"demod.c": """\
static int demod_lock(struct demod *d)
{
	struct timeval begin, end;

	do_gettimeofday(&begin);
	demod_write(d, 0x10, 1);
	do_gettimeofday(&end);
	VENDOR_INFO("lock took %d ms\\n", (UINT32)(end.tv_sec * 1000 + end.tv_usec / 1000) -
		    (UINT32)(begin.tv_sec * 1000 + begin.tv_usec / 1000));
	VENDOR_INFO("at %u s\\n", (HI_U32)end.tv_sec);
	return 0;
}
"""}


class VendorCast(unittest.TestCase):
    def test_seconds_cast_to_a_vendor_integer_type_before_a_foreign_macro_convert(self):
        new, converted, kept = driver_types.convert(VENDOR_CAST)
        self.assertEqual((converted, kept), (["local begin, local end"], []))
        demod = new["demod.c"]
        for line in ("\tstruct timespec64 begin, end;", "\tktime_get_real_ts64(&end);",
                     'VENDOR_INFO("lock took %d ms\\n", (UINT32)(end.tv_sec * 1000 + end.tv_nsec / NSEC_PER_MSEC) -',
                     "(UINT32)(begin.tv_sec * 1000 + begin.tv_nsec / NSEC_PER_MSEC));",
                     'VENDOR_INFO("at %u s\\n", (HI_U32)end.tv_sec);'):
            self.assertIn(line, demod)

    def test_a_cast_to_a_type_that_is_no_integer_stays(self):
        code = VENDOR_CAST["demod.c"].replace("(HI_U32)end.tv_sec", "(TIME_T)end.tv_sec")
        new, converted, kept = driver_types.convert({"demod.c": code})
        self.assertEqual((new, converted), ({}, []))
        self.assertIn("VENDOR_INFO(), whose format this pass does not read", kept[0]["why"])

    def test_a_value_the_macro_hands_on_whole_stays(self):
        code = VENDOR_CAST["demod.c"].replace("\treturn 0;", "\tVENDOR_STAMP(&end);\n\treturn 0;")
        new, converted, kept = driver_types.convert({"demod.c": code})
        self.assertEqual((new, converted), ({}, []))
        self.assertIn("passed to VENDOR_STAMP()", kept[0]["why"])


# A module-wide timeval kept by value: a static variable, a function that
# returns the time by value and one that takes two by value, declared in
# the module's header.  The header's prototype `f(struct timeval a, struct
# timeval b);` declares no variable (its first parameter ends in ','), so
# the group converts with the prototypes.
MODULE_STATE = {"timer.c": """\
#include "timer.h"

static struct timeval pretick;

struct timeval hd_now(void)
{
	struct timeval tv;

	do_gettimeofday(&tv);
	return tv;
}

unsigned int hd_diff(struct timeval before, struct timeval after)
{
	return 1000000 * (after.tv_sec - before.tv_sec) + after.tv_usec - before.tv_usec;
}

unsigned int hd_elapsed(void)
{
	struct timeval now;

	now = hd_now();
	return hd_diff(pretick, now) / 1000;
}

void hd_start(void)
{
	pretick = hd_now();
}
""", "timer.h": """\
unsigned int hd_diff(struct timeval before, struct timeval after);
struct timeval hd_now(void);
struct hd_ops {
	void (*stamp)(struct timeval when, int id);
};
"""}


class ModuleState(unittest.TestCase):
    def test_module_wide_state_kept_by_value_converts_with_its_prototypes(self):
        new, converted, kept = driver_types.convert(MODULE_STATE)
        self.assertEqual((converted, kept), (["global pretick, local now, local tv, param after, param before, "
                                              "result hd_now"], []))
        self.assertIn("static struct timespec64 pretick;", new["timer.c"])
        self.assertIn("+ after.tv_nsec / NSEC_PER_USEC - before.tv_nsec / NSEC_PER_USEC;", new["timer.c"])
        self.assertIn("unsigned int hd_diff(struct timespec64 before, struct timespec64 after);\n"
                      "struct timespec64 hd_now(void);\n", new["timer.h"])
        self.assertIn("void (*stamp)(struct timeval when, int id);", new["timer.h"])  # a callback's type: not ours

    def test_state_copied_to_user_space_stays(self):
        code = MODULE_STATE["timer.c"] + """
long hd_ioctl(void __user *arg)
{
	return copy_to_user(arg, &pretick, sizeof(pretick));
}
"""
        new, converted, kept = driver_types.convert({**MODULE_STATE, "timer.c": code})
        self.assertEqual((new, converted), ({}, []))
        self.assertIn("passed to copy_to_user()", kept[0]["why"])

    def test_an_exported_function_nobody_here_calls_keeps_its_type(self):
        code = MODULE_STATE["timer.c"] + "\nEXPORT_SYMBOL(hd_diff);\n"
        code = code.replace("return hd_diff(pretick, now) / 1000;", "return now.tv_sec - pretick.tv_sec;")
        new, converted, kept = driver_types.convert({**MODULE_STATE, "timer.c": code})
        self.assertIn("unsigned int hd_diff(struct timeval before, struct timeval after)", new.get("timer.c", code))
        self.assertTrue([k for k in kept if "exported and not called here" in k["why"]])


# A frame queue: a buffer's time field compared with the last buffer's in an
# else block that declares `temp`, a name a loop block of the same function
# declares again for a list_entry() pointer.  A local's scope is its block:
# the loop's `temp` is no use of the timespec.
BLOCK_SCOPE = {"queue.c": """\
struct frame {
	struct timespec time;
	struct list_head node;
};

static bool frame_due(struct queue *q, struct frame *f, long interval)
{
	struct list_head *pos, *next;
	bool due = false;

	ktime_get_ts(&f->time);
	list_for_each_safe(pos, next, &q->free) {
		struct frame *temp = list_entry(pos, struct frame, node);

		list_del(&temp->node);
		kfree(temp);
	}
	if (q->last) {
		struct timespec diff = timespec_sub(f->time, q->last->time);
		struct timespec temp = ns_to_timespec(interval);

		due = timespec_compare(&diff, &temp) >= 0;
	}
	return due;
}
"""}


class BlockScope(unittest.TestCase):
    def test_a_name_declared_again_in_another_block_is_no_use(self):
        new, converted, kept = driver_types.convert(BLOCK_SCOPE)
        self.assertEqual((converted, kept), (["field time, local diff, local temp"], []))
        queue = new["queue.c"]
        for line in ("\tstruct timespec64 time;", "ktime_get_ts64(&f->time);",
                     "\t\tstruct frame *temp = list_entry(pos, struct frame, node);",
                     "struct timespec64 diff = timespec64_sub(f->time, q->last->time);",
                     "struct timespec64 temp = ns_to_timespec64(interval);"):
            self.assertIn(line, queue)

    def test_a_frame_an_ioctl_number_names_stays(self):
        code = "#define Q_FRAME _IOW('q', 1, struct frame)\n" + BLOCK_SCOPE["queue.c"]
        new, converted, kept = driver_types.convert({"queue.c": code})
        self.assertEqual((new, converted), ({}, []))
        self.assertIn("struct frame reaches user space", kept[0]["why"])


# The driver's own time macros, handed the address of its values: a clock
# read (`#define PERF_NOW(ts) do_gettimeofday(ts)`) and a difference in
# microseconds read through the pointers.  The parameter is a pointer to
# what the calls hand it, and the bodies convert with the values.
TIME_MACROS = {"perf.c": """\
#define PERF_NOW(ts) do_gettimeofday(ts)
#define PERF_US(a, b) (((b)->tv_sec - (a)->tv_sec) * 1000000 + (b)->tv_usec - (a)->tv_usec)
#define PERF_MARK(ts) board_mark(ts)

struct perf {
	struct timeval start;
};

static long perf_run(struct perf *p)
{
	struct timeval end;

	PERF_NOW(&p->start);
	work();
	PERF_NOW(&end);
	return PERF_US(&p->start, &end);
}
"""}
# a value one of the same macros fills is also handed to one that gives it to a board function
MARKED = {"perf.c": TIME_MACROS["perf.c"].replace("start;\n", "start;\n\tstruct timeval marked;\n") + """
static void perf_mark(struct perf *p)
{
	PERF_NOW(&p->marked);
	PERF_MARK(&p->marked);
}
"""}


class TimeMacros(unittest.TestCase):
    def test_values_handed_by_address_to_the_drivers_time_macros_convert_with_their_bodies(self):
        new, converted, kept = driver_types.convert(TIME_MACROS)
        self.assertEqual((converted, kept), (["field start, local end, macro a, macro b, macro ts"], []))
        perf = new["perf.c"]
        for line in ("#define PERF_NOW(ts) ktime_get_real_ts64(ts)\n",
                     "#define PERF_US(a, b) (((b)->tv_sec - (a)->tv_sec) * 1000000 + (b)->tv_nsec / NSEC_PER_USEC - "
                     "(a)->tv_nsec / NSEC_PER_USEC)\n", "\tstruct timespec64 start;\n};",
                     "\tstruct timespec64 end;"):
            self.assertIn(line, perf)

    def test_a_macro_that_hands_the_value_outside_the_module_keeps_every_value_of_the_shared_macros(self):
        new, converted, kept = driver_types.convert(MARKED)
        self.assertEqual((new, converted), ({}, []))
        self.assertEqual([k["why"] for k in kept], ["perf.c:3: passed to board_mark() [field marked, field start, "
                                                    "local end, macro a, macro b, macro ts: kept as struct timeval]"])

    def test_a_macro_given_a_value_and_an_address_stays(self):
        code = TIME_MACROS["perf.c"].replace("\tPERF_NOW(&end);", "\tPERF_NOW(&end);\n\tPERF_US(end, end);")
        new, converted, kept = driver_types.convert({"perf.c": code})
        self.assertEqual((new, converted), ({}, []))
        self.assertIn("PERF_US() is given timespecs and timevals, or values and addresses", kept[0]["why"])


# A 2D engine's performance counters: struct g2d_perf's timeval `start`,
# and a `start` of another structure, an image's address reached through
# the member `addr` (`img->addr.start`), written to a register and printed.
# The driver declares every member `addr` with another type, so those are
# no uses of the timeval.
MEMBER_CHAIN = {"g2d.h": """\
struct g2d_addr {
	unsigned long start;
	unsigned long size;
};

struct g2d_image {
	struct g2d_addr addr;
	struct g2d_addr plane2;
};

struct g2d_cmd {
	unsigned long addr;
};

struct g2d_perf {
	struct timeval start;
	struct timeval end;
};

#define G2D_ADDR(v) ((v) << 0)
""", "g2d.c": """\
static void g2d_set_src(struct g2d_dev *dev, struct g2d_image *img)
{
	writel(G2D_ADDR(img->addr.start), dev->regs + 0x10);
	g2d_debug("src %lx\\n", img->addr.start);
}

static long g2d_elapsed(struct g2d_perf *perf)
{
	do_gettimeofday(&perf->start);
	g2d_run();
	do_gettimeofday(&perf->end);
	return (perf->end.tv_sec - perf->start.tv_sec) * 1000000 + perf->end.tv_usec - perf->start.tv_usec;
}
"""}


class MemberChain(unittest.TestCase):
    def test_a_field_of_the_same_name_in_a_member_of_another_type_is_no_use(self):
        new, converted, kept = driver_types.convert(MEMBER_CHAIN)
        self.assertEqual((converted, kept), (["field start", "field end"], []))
        self.assertIn("\tstruct timespec64 start;\n\tstruct timespec64 end;", new["g2d.h"])
        self.assertIn("#define G2D_ADDR(v) ((v) << 0)\n", new["g2d.h"])
        for line in ("\twritel(G2D_ADDR(img->addr.start), dev->regs + 0x10);", "\tktime_get_real_ts64(&perf->start);",
                     "+ perf->end.tv_nsec / NSEC_PER_USEC - perf->start.tv_nsec / NSEC_PER_USEC;"):
            self.assertIn(line, new["g2d.c"])

    def test_a_member_whose_type_the_driver_does_not_say_stays_a_use(self):
        header = MEMBER_CHAIN["g2d.h"].replace("struct g2d_addr addr;", "g2d_addr_t addr;")
        new, converted, kept = driver_types.convert({**MEMBER_CHAIN, "g2d.h": header})
        self.assertEqual(converted, ["field end"])
        self.assertIn("\tstruct timeval start;", new["g2d.h"])
        self.assertTrue([k for k in kept if ("g2d.h", "start") in k["names"]])


# A helper of the driver's that reads a timeval through its parameter,
# called with one of the driver's values and, in the second file, with a
# field of a structure the driver does not define (a kernel header's).
FOREIGN_ARGUMENT = {"age.c": """\
struct slot {
	struct timeval seen;
};

long slot_age(struct timeval *a)
{
	struct timeval now;

	do_gettimeofday(&now);
	return now.tv_sec - a->tv_sec;
}

long slot_poll(struct slot *s)
{
	do_gettimeofday(&s->seen);
	return slot_age(&s->seen);
}
""", "kdev.c": """\
long kdev_age(struct kdev *k)
{
	return slot_age(&k->stamp);
}
"""}


class ForeignArgument(unittest.TestCase):
    def test_a_parameter_converts_with_the_values_its_callers_hand_it(self):
        new, converted, kept = driver_types.convert({"age.c": FOREIGN_ARGUMENT["age.c"]})
        self.assertEqual((converted, kept), (["field seen, param a"], []))
        self.assertIn("long slot_age(struct timespec64 *a)", new["age.c"])

    def test_a_definition_after_a_header_written_per_configuration_is_no_call(self):
        code = """\
#ifdef NEW_API
static int slot_probe(struct slot *s) {
#else
static int slot_probe(struct slot *s, int id) {
#endif
	return 0;
}

""" + FOREIGN_ARGUMENT["age.c"].replace("long slot_age(struct timeval *a)", "long\nslot_age(struct timeval *a)")
        new, converted, kept = driver_types.convert({"age.c": code})
        self.assertEqual((converted, kept), (["field seen, param a"], []))
        self.assertIn("slot_age(struct timespec64 *a)", new["age.c"])

    def test_a_parameter_also_given_another_structures_field_stays(self):
        new, converted, kept = driver_types.convert(FOREIGN_ARGUMENT)
        self.assertEqual((new, converted), ({}, []))
        self.assertEqual(kept[0]["why"], "kdev.c:3: slot_age() is given &k->stamp, not one of the driver's values "
                                         "[field seen, param a: kept as struct timeval]")


# A host adapter's portable timing layer: the type is the driver's own name
# (`#define HBA_TIME_T struct timeval`), read through macros (one a comma
# expression that zeroes the value before filling it) and subtracted by a
# function called through an alias (`#define HBA_TIME_SUB hba_usec_sub`).
# The define changes for every value it declares; the alias is a name of
# the function, no callback.
TYPE_ALIAS = {"osdep.h": """\
#define HBA_TIME_T      struct timeval
#define HBA_NOW(ptr)    (ptr)->tv_sec = 0, (ptr)->tv_usec = 0, do_gettimeofday(ptr)
#define HBA_USEC(x)     ((uint64_t) ((((uint64_t)(x)->tv_sec) * 1000000 + (x)->tv_usec)))
#define HBA_TIME_SUB    hba_usec_sub

static inline uint64_t hba_usec_sub(struct timeval *, struct timeval *);

static inline uint64_t hba_usec_sub(struct timeval *b, struct timeval *a)
{
	struct timeval x = *b;

	x.tv_sec -= a->tv_sec;
	x.tv_usec -= a->tv_usec;
	if (x.tv_usec < 0) {
		x.tv_sec--;
		x.tv_usec += 1000000;
	}
	return HBA_USEC(&x);
}
""", "hba.c": """\
struct hba {
	HBA_TIME_T init_time;
	int state;
};

static void hba_init(struct hba *h)
{
	HBA_NOW(&h->init_time);
}

static int hba_wait(struct hba *h, int usdelay)
{
	while (usdelay > 0) {
		HBA_TIME_T before, after;

		HBA_NOW(&before);
		hba_poll(h);
		HBA_NOW(&after);
		usdelay -= HBA_TIME_SUB(&after, &before);
		hba_log(h, "0x%lx", (long) HBA_USEC(&after));
	}
	return sizeof(HBA_TIME_T);
}
"""}


class TypeAlias(unittest.TestCase):
    def test_values_declared_with_the_drivers_name_of_the_type_convert_with_its_define(self):
        new, converted, kept = driver_types.convert(TYPE_ALIAS)
        self.assertEqual((converted, kept), (["field init_time, local after, local before, local x, macro ptr, "
                                              "macro x, param a, param b"], []))
        osdep = new["osdep.h"]
        for line in ("#define HBA_TIME_T      struct timespec64\n",
                     "#define HBA_NOW(ptr)    (ptr)->tv_sec = 0, (ptr)->tv_nsec = 0, ktime_get_real_ts64(ptr)\n",
                     "(x)->tv_nsec / NSEC_PER_USEC)))\n",
                     "#define HBA_TIME_SUB    hba_usec_sub\n",
                     "static inline uint64_t hba_usec_sub(struct timespec64 *, struct timespec64 *);",
                     "\tx.tv_nsec -= a->tv_nsec / NSEC_PER_USEC * NSEC_PER_USEC;",
                     "\t\tx.tv_nsec += 1000000 * NSEC_PER_USEC;"):
            self.assertIn(line, osdep)
        self.assertNotIn("hba.c", new)  # its declarations say HBA_TIME_T still

    def test_a_name_of_the_type_used_in_a_cast_keeps_every_value_it_declares(self):
        code = TYPE_ALIAS["hba.c"].replace("hba_poll(h);", "hba_poll(h, (HBA_TIME_T *)h->regs);")
        new, converted, kept = driver_types.convert({**TYPE_ALIAS, "hba.c": code})
        self.assertEqual((new, converted), ({}, []))
        self.assertIn("hba.c:17: HBA_TIME_T (struct timeval) used other than to declare one of the driver's values",
                      kept[0]["why"])

    def test_a_function_named_as_a_kernel_api_by_a_define_stays_a_compat_shim(self):
        shim = """\
struct timeval portable_ns_to_timeval(const s64 nsec)
{
	struct timeval tv;

	tv.tv_sec = nsec / NSEC_PER_SEC;
	tv.tv_usec = (nsec % NSEC_PER_SEC) / 1000;
	return tv;
}
#define ns_to_timeval portable_ns_to_timeval

static long flow_ms(s64 ns)
{
	struct timeval tv = ns_to_timeval(ns);

	return tv.tv_sec * 1000 + tv.tv_usec / 1000;
}
"""
        new, converted, kept = driver_types.convert({"compat.h": shim})
        self.assertIn("struct timeval portable_ns_to_timeval(const s64 nsec)", new.get("compat.h", shim))
        self.assertTrue([k for k in kept if "portable_ns_to_timeval() is used as a callback" in k["why"]])

    def test_a_write_inside_a_call_is_no_comma_operand(self):
        code = TYPE_ALIAS["osdep.h"].replace("(ptr)->tv_sec = 0, (ptr)->tv_usec = 0, do_gettimeofday(ptr)",
                                             "hba_zero((ptr)->tv_usec = 0, ptr)")
        new, converted, kept = driver_types.convert({**TYPE_ALIAS, "osdep.h": code})
        self.assertEqual((new, converted), ({}, []))
        self.assertIn("tv_usec written inside an expression", kept[0]["why"])


# A camera's time fields reached through a callback's void * argument (a
# local pointer given it, a cast of it), container_of() and list_entry():
# the base's declared type is the driver's own structure, so each is a use
# of the field.  A value copied in from behind a void * (the caller's type
# is not known here) keeps its group.
THROUGH_POINTERS = {"cam.c": """\
struct cam_buf {
	struct timespec ts;
	struct list_head node;
};

struct cam_dev {
	struct timeval last_irq;
	struct list_head bufs;
	struct work_struct work;
};

static void cam_irq_cb(void *data)
{
	struct cam_dev *dev = data;

	do_gettimeofday(&dev->last_irq);
}

static void cam_stamp(void *priv)
{
	ktime_get_ts(&((struct cam_buf *)priv)->ts);
}

static void cam_work(struct work_struct *work)
{
	struct cam_dev *dev = container_of(work, struct cam_dev, work);
	struct list_head *pos;
	struct timespec now;

	ktime_get_ts(&now);
	list_for_each(pos, &dev->bufs) {
		struct cam_buf *b = list_entry(pos, struct cam_buf, node);

		if (timespec_compare(&b->ts, &now) < 0)
			pr_info("old %ld\\n", b->ts.tv_sec);
	}
	pr_info("irq at %ld.%06ld\\n", dev->last_irq.tv_sec, dev->last_irq.tv_usec);
}
"""}


class ThroughPointers(unittest.TestCase):
    def test_fields_reached_through_void_pointers_container_of_and_list_entry_convert(self):
        new, converted, kept = driver_types.convert(THROUGH_POINTERS)
        self.assertEqual((converted, kept), (["field last_irq", "field ts, local now"], []))
        cam = new["cam.c"]
        for line in ("\tktime_get_real_ts64(&dev->last_irq);", "\tktime_get_ts64(&((struct cam_buf *)priv)->ts);",
                     "if (timespec64_compare(&b->ts, &now) < 0)", 'pr_info("old %lld\\n", b->ts.tv_sec);',
                     'pr_info("irq at %lld.%06ld\\n", dev->last_irq.tv_sec, dev->last_irq.tv_nsec / NSEC_PER_USEC);'):
            self.assertIn(line, cam)

    def test_a_value_copied_from_behind_a_void_pointer_stays(self):
        code = THROUGH_POINTERS["cam.c"].replace("\tktime_get_ts(&((struct cam_buf *)priv)->ts);",
                                                 "\t((struct cam_buf *)priv)->ts = *((struct timespec *)stamp);")
        code = code.replace("cam_stamp(void *priv)", "cam_stamp(void *priv, void *stamp)")
        new, converted, kept = driver_types.convert({"cam.c": code})
        self.assertEqual(converted, ["field last_irq"])
        self.assertIn("a cast from another type", kept[0]["why"])
        self.assertIn("\tstruct timespec ts;", new["cam.c"])


class BlockInConditional(unittest.TestCase):
    """A local's scope is its block, but a block inside a conditional
    opened in its function is still read by spatch in one configuration:
    the local stays this pass's (ConditionalArms)."""

    def test_a_local_of_a_block_inside_a_conditional_of_its_function_is_the_passs(self):
        code = """\
static int idle_can_enter(void)
{
#if defined(CONFIG_BOARD_A)
	if (count != -1) {
		struct timespec uptime;

		get_monotonic_boottime(&uptime);
		if ((unsigned long)uptime.tv_sec <= 20)
			return 0;
	}
#endif
	return 1;
}
"""
        new, converted, kept = driver_types.convert({"idle.c": code})
        self.assertEqual((converted, kept), (["local uptime"], []))
        self.assertIn("\t\tktime_get_boottime_ts64(&uptime);", new["idle.c"])


class ShadowedInADeclaratorList(unittest.TestCase):
    """A function's own locals of the globals' names, declared in one list
    (`struct timeval start, end;`): the second name's declaration is no use
    of the global of that name."""

    CODE = """\
struct timeval tpstart, tpend;
long timeuse;

void start_time(void)
{
	do_gettimeofday(&tpstart);
}

void end_time(void)
{
	do_gettimeofday(&tpend);
	timeuse = (tpend.tv_sec - tpstart.tv_sec) * 1000000 + (tpend.tv_usec - tpstart.tv_usec);
}

int request(int rw)
{
	struct timeval tpstart, tpend;
	long timeuse;

	do_gettimeofday(&tpstart);
	rw++;
	do_gettimeofday(&tpend);
	timeuse = (tpend.tv_sec - tpstart.tv_sec) * 1000000 + (tpend.tv_usec - tpstart.tv_usec);
	return rw;
}
"""

    def test_the_globals_convert_beside_the_locals_that_shadow_them(self):
        new, converted, kept = driver_types.convert({"blk.c": self.CODE})
        self.assertEqual((converted, kept), (["global tpend, global tpstart", "local tpend, local tpstart"], []))
        self.assertIn("struct timespec64 tpstart, tpend;\nlong timeuse;", new["blk.c"])

    def test_a_global_its_function_does_not_declare_again_is_still_used_there(self):
        code = self.CODE.replace("\tstruct timeval tpstart, tpend;\n", "\tstruct timeval tpstart;\n")
        new, converted, kept = driver_types.convert({"blk.c": code})
        self.assertEqual((converted, kept), (["global tpend, global tpstart"], []))
        # the local alone is the local rules' (do_gettimeofday.cocci), the global this pass's
        self.assertIn("\tstruct timeval tpstart;\n\tlong timeuse;\n\n\tdo_gettimeofday(&tpstart);\n\trw++;\n"
                      "\tktime_get_real_ts64(&tpend);", new["blk.c"])

    def test_another_files_global_of_the_name_is_its_own(self):
        """One SoC's copy of the driver beside another's: each file defines
        the globals, and each file's uses are its own globals'; the copies
        convert together (their users may share a header's extern)."""
        new, converted, kept = driver_types.convert({"a/blk.c": self.CODE, "b/blk.c": self.CODE})
        self.assertEqual(kept, [])
        self.assertEqual(converted.count("global tpend, global tpstart"), 1)
        for path in ("a/blk.c", "b/blk.c"):
            self.assertIn("struct timespec64 tpstart, tpend;\nlong timeuse;", new[path])

    def test_a_global_another_file_declares_extern_converts_with_its_declaration(self):
        user = "#include <linux/time.h>\nextern struct timeval tpstart;\n\nlong show(void)\n{\n\treturn tpstart.tv_sec;\n}\n"
        new, converted, kept = driver_types.convert({"blk.c": self.CODE, "show.c": user})
        self.assertEqual(kept, [])
        self.assertIn("global tpend, global tpstart", converted)
        self.assertIn("extern struct timespec64 tpstart;\n", new["show.c"])

    def test_a_global_another_file_declares_extern_is_used_there(self):
        user = "extern struct timeval tpstart;\n\nvoid show(void)\n{\n\tvendor_log(tpstart);\n}\n"
        _, converted, kept = driver_types.convert({"blk.c": self.CODE, "show.c": user})
        self.assertIn("passed to vendor_log()", kept[0]["why"])
        self.assertNotIn("global tpend, global tpstart", converted)


POINTER_DECLARATOR = {"boost.c": """\
struct boost_inst {
	int timeout;
	struct timeval tv_ref_time;
};
static struct boost_inst boost_inst[4];

static int update_time(int id)
{
	do_gettimeofday(&boost_inst[id].tv_ref_time);
	pr_debug("id:%d, ref<%d,%d>\\n", id, (int)boost_inst[id].tv_ref_time.tv_sec, (int)boost_inst[id].tv_ref_time.tv_usec);
	return 1;
}

static bool check_timeout(int id)
{
	struct timeval tv, *ref;
	int diff_sec;

	ref = &boost_inst[id].tv_ref_time;
	do_gettimeofday(&tv);
	diff_sec = tv.tv_sec - ref->tv_sec;
	if (diff_sec >= boost_inst[id].timeout) {
		pr_debug("id<%d>, cur<%d,%d>, ref<%d,%d>\\n", id, (int)tv.tv_sec, (int)tv.tv_usec, (int)ref->tv_sec, (int)ref->tv_usec);
		return true;
	}
	return false;
}
"""}


class PointerDeclarator(unittest.TestCase):
    """A local pointer declared in one list with a value (`struct timeval
    tv, *ref;`) is a pointer candidate as it is declared alone: the field
    it points at, the value and the pointer convert together."""

    def test_the_value_the_pointer_and_the_field_it_points_at_convert(self):
        new, converted, kept = driver_types.convert(POINTER_DECLARATOR)
        self.assertEqual((converted, kept), (["field tv_ref_time, local ref, local tv"], []))
        boost = new["boost.c"]
        for line in ("\tstruct timespec64 tv, *ref;\n", "\tref = &boost_inst[id].tv_ref_time;\n\tktime_get_real_ts64(&tv);",
                     "(int)ref->tv_sec, (int)(ref->tv_nsec / NSEC_PER_USEC));"):
            self.assertIn(line, boost)

    def test_a_pointer_handed_to_a_foreign_function_keeps_the_declaration(self):
        code = POINTER_DECLARATOR["boost.c"].replace("\t\treturn true;", "\t\tvendor_log(ref);\n\t\treturn true;")
        new, converted, kept = driver_types.convert({"boost.c": code})
        self.assertEqual(converted, [])
        self.assertIn("passed to vendor_log()", kept[0]["why"])
        self.assertEqual(new, {})


SAME_NAME_ARMS = {"tag.c": """\
struct frame {
	unsigned long long stamp;
};

int ischain_tag(struct frame *frame)
{
	int ret = 0;
#ifdef ENABLE_SENSOR_DRIVER
	struct timeval curtime;

	do_gettimeofday(&curtime);
	frame->stamp = (u64)curtime.tv_sec * 1000000 + curtime.tv_usec;
#else
	struct timespec curtime;

	do_posix_clock_monotonic_gettime(&curtime);
	frame->stamp = timespec_to_ns(&curtime);
#endif
	return ret;
}
"""}


class OneNameInEachArm(unittest.TestCase):
    """A conditional whose arms each declare a local of one name (#ifdef X
    struct timeval t; ... #else struct timespec t; ... #endif), the name used
    nowhere else: two variables, each converted with its own arm's uses."""

    def test_each_arms_local_converts_with_its_own_fill(self):
        new, converted, kept = driver_types.convert(SAME_NAME_ARMS)
        self.assertEqual((converted, kept), (["local curtime", "local curtime"], []))
        tag = new["tag.c"]
        for line in ("\tstruct timespec64 curtime;\n\n\tktime_get_real_ts64(&curtime);\n"
                     "\tframe->stamp = (u64)curtime.tv_sec * 1000000 + curtime.tv_nsec / NSEC_PER_USEC;\n#else",
                     "#else\n\tstruct timespec64 curtime;\n\n\tktime_get_ts64(&curtime);\n"
                     "\tframe->stamp = timespec64_to_ns(&curtime);\n#endif"):
            self.assertIn(line, tag)

    def test_an_arms_local_is_not_the_global_another_arm_reads(self):
        code = ("struct timeval t;\n\nlong f(void)\n{\n\tlong r = 0;\n#ifdef A\n\tstruct timeval t;\n\n"
                "\tdo_gettimeofday(&t);\n\tr = t.tv_sec;\n#else\n\tvendor_log(t);\n#endif\n\treturn r;\n}\n")
        new, converted, kept = driver_types.convert({"f.c": code})
        self.assertEqual(converted, ["local t"])
        self.assertIn("f.c:12: passed to vendor_log() [global t", kept[0]["why"])
        self.assertIn("struct timeval t;\n\nlong f(void)", new["f.c"])
        self.assertIn("#ifdef A\n\tstruct timespec64 t;\n\n\tktime_get_real_ts64(&t);", new["f.c"])

    def test_a_use_after_the_conditional_makes_one_variable_of_them(self):
        code = SAME_NAME_ARMS["tag.c"].replace("\treturn ret;", "\tpr_info(\"%ld\\n\", curtime.tv_sec);\n\treturn ret;")
        _, converted, kept = driver_types.convert({"tag.c": code})
        self.assertEqual(converted, [])
        self.assertEqual(len(kept), 1)


class IncludedSource(unittest.TestCase):
    """A board file that includes the driver's common code (`#include
    "algo.c"`) is one translation unit with it: the common file's static
    global is filled and reset there, and converts with those uses; a
    non-static global of the same name elsewhere (another board's build)
    is another variable."""

    ALGO = ("static struct timeval vcap_time;\n\nlong frame_age(void)\n{\n\tstruct timeval now;\n\n"
            "\tdo_gettimeofday(&now);\n\treturn now.tv_sec - vcap_time.tv_sec;\n}\n")
    BOARD = ('#include "algo.c"\n\nstatic void vin_isr(void)\n{\n\tdo_gettimeofday(&vcap_time);\n}\n\n'
             "static void reset(void)\n{\n\tvcap_time.tv_usec = 0;\n\tvcap_time.tv_sec = 0;\n}\n")
    OTHER = ("struct timeval vcap_time;\n\nlong get_time(void __user *arg)\n{\n"
             "\treturn copy_to_user(arg, &vcap_time, sizeof(vcap_time));\n}\n")

    def test_the_static_global_converts_with_the_including_files_uses(self):
        new, converted, kept = driver_types.convert({"ipc/algo.c": self.ALGO, "ipc/board.c": self.BOARD,
                                                     "drv/drv.c": self.OTHER})
        self.assertEqual(converted, ["global vcap_time"])
        self.assertEqual(len(kept), 1)
        self.assertIn("drv/drv.c", kept[0]["why"])
        self.assertIn("static struct timespec64 vcap_time;", new["ipc/algo.c"])
        for line in ("\tktime_get_real_ts64(&vcap_time);", "\tvcap_time.tv_nsec = 0;"):
            self.assertIn(line, new["ipc/board.c"])
        self.assertNotIn("drv/drv.c", new)


CONFIGURATIONS = {"stats.h": """\
#ifdef FRAME_TIME
void measure(struct frame_stats *stats, struct timeval *queued, struct timeval *done);
#endif
#ifdef CMD_TIME
void measure(struct cmd_stats *stats, u32 instance, struct timeval *start, struct timeval *end);
#endif
""", "stats.c": """\
#include "stats.h"

#ifdef FRAME_TIME
void measure(struct frame_stats *stats, struct timeval *queued, struct timeval *done)
{
	stats->total += (done->tv_sec - queued->tv_sec) * 1000000 + (done->tv_usec - queued->tv_usec);
}
#endif

#ifdef CMD_TIME
void measure(struct cmd_stats *stats, u32 instance, struct timeval *start, struct timeval *end)
{
	stats->last = (end->tv_sec - start->tv_sec) * 1000000 + (end->tv_usec - start->tv_usec);
	stats->instance = instance;
}
#endif
""", "frame.c": """\
#include "stats.h"

struct frame {
	struct timeval queued;
	struct timeval done;
};

void frame_done(struct frame_stats *stats, struct frame *f)
{
#ifdef FRAME_TIME
	do_gettimeofday(&f->done);
	measure(stats, &f->queued, &f->done);
#endif
}

void frame_queue(struct frame *f)
{
	do_gettimeofday(&f->queued);
}
""", "cmd.c": """\
#include "stats.h"

void cmd_run(struct cmd_stats *stats, struct msg *msg)
{
	struct timeval start, end;

	do_gettimeofday(&start);
	send(msg);
#ifdef CMD_TIME
	do_gettimeofday(&end);
	measure(stats, msg->instance, &start, &end);
#endif
}
"""}


class OneFunctionPerConfiguration(unittest.TestCase):
    """A function defined once per configuration (#ifdef FRAME_TIME ...
    #endif, #ifdef CMD_TIME ... #endif) with other parameters in each, each
    called under its own #ifdef: a call hands its arguments to the
    definition its conditionals select, a prototype declares that one."""

    def test_each_configurations_function_converts_with_its_own_calls(self):
        new, converted, kept = driver_types.convert(CONFIGURATIONS)
        self.assertEqual(kept, [])
        self.assertEqual(sorted(converted), ["field done, param done", "field queued, param queued",
                                             "local end, local start, param end, param start"])
        self.assertIn("void measure(struct frame_stats *stats, struct timespec64 *queued, struct timespec64 *done);",
                      new["stats.h"])
        self.assertIn("void measure(struct cmd_stats *stats, u32 instance, struct timespec64 *start, "
                      "struct timespec64 *end);", new["stats.h"])

    def test_a_foreign_argument_keeps_its_own_configurations_function_only(self):
        code = CONFIGURATIONS["cmd.c"].replace("&start, &end);", "&msg->sent, &end);")
        new, converted, kept = driver_types.convert(dict(CONFIGURATIONS, **{"cmd.c": code}))
        self.assertIn("field done, param done", converted)  # the other configuration's call had taken it
        self.assertEqual([k["why"][:50] for k in kept], ["cmd.c:11: measure() is given &msg->sent, not one o"])
        self.assertIn("u32 instance, struct timeval *start, struct timespec64 *end);", new["stats.h"])
        self.assertIn("struct timespec64 *queued, struct timespec64 *done);", new["stats.h"])

    def test_a_static_helper_of_each_file_takes_its_own_files_calls(self):
        helper = ("static long age(struct timeval *t)\n{\n\treturn t->tv_sec;\n}\n\n"
                  "long now_age(void)\n{\n\tstruct timeval now;\n\n\tdo_gettimeofday(&now);\n\treturn age(&now);\n}\n")
        foreign = helper.replace("return age(&now);", "return age(&now) + age(&kernel_stamp);")
        _, converted, kept = driver_types.convert({"a.c": helper, "b.c": foreign})
        self.assertEqual(converted, ["local now, param t"])
        self.assertIn("b.c", kept[0]["why"])


PARENTHESISED_ADDRESS = {"voice.c": """\
struct voice_stats {
	unsigned long max_delta;
	struct timeval delta;
	struct timeval last_ts;
};

struct voice_dev {
	struct voice_stats stats;
};

static void voice_stats(unsigned long *p_max, struct timeval *p_result, struct timeval *p_last)
{
	struct timeval now;

	do_gettimeofday(&now);
	p_result->tv_sec = now.tv_sec - p_last->tv_sec;
	p_result->tv_usec = now.tv_usec - p_last->tv_usec;
	if (p_result->tv_usec > *p_max)
		*p_max = p_result->tv_usec;
	*p_last = now;
}

void voice_tx_done(struct voice_dev *p_dev)
{
	voice_stats(&(p_dev->stats.max_delta), &(p_dev->stats.delta), &(p_dev->stats.last_ts));
}
"""}


class ParenthesisedAddress(unittest.TestCase):
    """`&(p->stats.ts)` handed to the driver's function is the field's
    address as `&p->stats.ts` is: the field converts with the parameter."""

    def test_a_field_passed_as_its_parenthesised_address_converts_with_the_parameter(self):
        new, converted, kept = driver_types.convert(PARENTHESISED_ADDRESS)
        self.assertEqual(kept, [])
        self.assertEqual(converted, ["field delta, param p_result", "field last_ts, local now, param p_last"])
        self.assertIn("\tstruct timespec64 delta;\n\tstruct timespec64 last_ts;", new["voice.c"])
        self.assertIn("voice_stats(&(p_dev->stats.max_delta), &(p_dev->stats.delta), &(p_dev->stats.last_ts));",
                      new["voice.c"])

    def test_a_parenthesised_foreign_address_keeps_the_group(self):
        code = PARENTHESISED_ADDRESS["voice.c"].replace("&(p_dev->stats.last_ts));", "&(kernel_stamp));")
        _, converted, kept = driver_types.convert({"voice.c": code})
        self.assertNotIn("param p_last", " ".join(converted))
        self.assertEqual(len(kept), 1)
        self.assertIn("voice_stats() is given &(kernel_stamp)", kept[0]["why"])

    def test_a_structure_named_like_the_function_is_no_use_of_it(self):
        code = PARENTHESISED_ADDRESS["voice.c"].replace("voice_stats {", "voice_dev_stats {").replace(
            "struct voice_stats stats;", "struct voice_dev_stats stats;")
        self.assertEqual(driver_types.convert({"voice.c": code})[1:],
                         driver_types.convert(PARENTHESISED_ADDRESS)[1:])


class TimevalToNs(unittest.TestCase):
    """timeval_to_ns(&x) of a timeval that converts is timespec64_to_ns(&x)
    (the same instant, in nanoseconds); a local of one declaration with it
    is this pass's: no per-file rule reads timeval_to_ns()."""

    CODE = ("struct timeval last_enabled;\n\nstatic void wait_after(struct timeval since, u32 delay_us)\n{\n"
            "\tstruct timeval now;\n\ts64 elapsed;\n\n\tdo_gettimeofday(&now);\n"
            "\telapsed = timeval_to_ns(&now) - timeval_to_ns(&since);\n\tif (elapsed < delay_us * 1000)\n"
            "\t\tudelay(delay_us - elapsed / 1000);\n}\n\nvoid enable(void)\n{\n\twait_after(last_enabled, 100);\n"
            "\tdo_gettimeofday(&last_enabled);\n}\n")

    def test_the_global_the_parameter_and_the_local_convert(self):
        new, converted, kept = driver_types.convert({"reg.c": self.CODE})
        self.assertEqual(kept, [])
        self.assertEqual(sorted(converted), ["global last_enabled, param since", "local now"])
        self.assertIn("\tktime_get_real_ts64(&now);\n\telapsed = timespec64_to_ns(&now) - timespec64_to_ns(&since);",
                      new["reg.c"])

    def test_a_lone_local_with_it_is_this_passs(self):
        code = self.CODE.replace("timeval_to_ns(&since)", "0")
        new, converted, _ = driver_types.convert({"reg.c": code})
        self.assertIn("local now", converted)
        self.assertIn("elapsed = timespec64_to_ns(&now) - 0;", new["reg.c"])


TIMEOUT_POINTER = {"wait.c": """\
static struct timespec add_safe(const struct timespec lhs, const struct timespec rhs)
{
	struct timespec res;

	set_normalized_timespec(&res, lhs.tv_sec + rhs.tv_sec, lhs.tv_nsec + rhs.tv_nsec);
	return res;
}

static int set_timeout(struct timespec *to, long sec)
{
	struct timespec ts = {.tv_sec = sec, .tv_nsec = 0};

	ktime_get_ts(to);
	*to = add_safe(*to, ts);
	return 0;
}

static long left_ms(struct timespec *end)
{
	struct timespec now;

	if (!end)
		return -1;
	ktime_get_ts(&now);
	now = timespec_sub(*end, now);
	return now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

long do_wait(long sec)
{
	struct timespec end_time, *to = NULL;

	if (sec) {
		to = &end_time;
		set_timeout(to, sec);
	}
	return to ? left_ms(to) : 0;
}
"""}


class TimeoutPointer(unittest.TestCase):
    """select()'s timeout in a vendor's copy: `struct timespec end_time, *to
    = NULL;`, the pointer set to NULL or to the value's address, tested for
    NULL, and `*to = add_safe(*to, ts);` storing a function's value through
    it: the value, the pointer and the functions convert together."""

    def test_the_value_the_pointer_and_the_helpers_convert(self):
        new, converted, kept = driver_types.convert(TIMEOUT_POINTER)
        self.assertEqual(kept, [])
        self.assertEqual(converted, ["local ts, param rhs", "local end_time, local now, local res, local to, param end, "
                                                          "param lhs, param to, result add_safe"])
        for line in ("static struct timespec64 add_safe(const struct timespec64 lhs, const struct timespec64 rhs)",
                     "\tstruct timespec64 end_time, *to = NULL;", "\t*to = add_safe(*to, ts);",
                     "\tnow = timespec64_sub(*end, now);"):
            self.assertIn(line, new["wait.c"])

    def test_a_pointer_set_to_null_after_its_declaration_converts_too(self):
        code = TIMEOUT_POINTER["wait.c"].replace("*to = NULL;\n", "*to;\n\n\tto = NULL;\n")
        new, converted, kept = driver_types.convert({"wait.c": code})
        self.assertEqual((len(converted), kept), (2, []))
        self.assertIn("\tstruct timespec64 end_time, *to;\n\n\tto = NULL;", new["wait.c"])

    def test_a_pointer_set_to_a_foreign_address_keeps_them(self):
        code = TIMEOUT_POINTER["wait.c"].replace("to = &end_time;", "to = &kernel_timeout;")
        _, converted, kept = driver_types.convert({"wait.c": code})
        self.assertNotIn("local to", " ".join(converted))
        self.assertIn("assigned from &kernel_timeout", kept[0]["why"])

    def test_a_pointer_used_otherwise_than_tested_keeps_them(self):
        code = TIMEOUT_POINTER["wait.c"].replace("return to ? left_ms(to) : 0;", "return vendor_wait(to);")
        _, converted, kept = driver_types.convert({"wait.c": code})
        self.assertNotIn("local to", " ".join(converted))
        self.assertIn("passed to vendor_wait()", kept[0]["why"])


class ReviewedEdgesOfTheTwelfthRound(unittest.TestCase):
    """What a cold review of the twelfth round's changes found: each input
    converted wrongly (a prototype or an extern left with two types, a cast
    read as a test, another file's macro trusted); each now keeps them."""

    def assert_kept(self, files, names):
        new, converted, kept = driver_types.convert(files)
        self.assertEqual(converted, [])
        self.assertEqual(sorted(n for k in kept for _, n in k["names"]), sorted(names))

    def test_one_header_prototype_of_two_files_static_functions_links_them(self):
        self.assert_kept({"a.c": '#include "h.h"\nstatic void stamp(struct timeval *tv)\n{\n\tdo_gettimeofday(tv);\n}\nvoid a_fn(void)\n{\n\tstruct timeval t;\n\tstamp(&t);\n\tpr_info("%ld\\n", t.tv_sec);\n}\n',
         "b.c": '#include "h.h"\nstatic void stamp(struct timeval *tv)\n{\n\tdo_gettimeofday(tv);\n}\nstruct timeval b_t;\nvoid b_fn(void)\n{\n\tstamp(&b_t);\n\tcopy_to_user(NULL, &b_t, sizeof(b_t));\n}\n',
         "h.h": 'static void stamp(struct timeval *tv);\n'}, ["b_t", "t", "tv", "tv"])

    def test_one_prototype_of_two_configurations_definitions_links_them(self):
        self.assert_kept({"s.c": '#include "s.h"\n#ifdef FAST\nvoid measure(struct timeval *fast_t)\n{\n\tdo_gettimeofday(fast_t);\n}\n#else\nvoid measure(struct timeval *slow_t)\n{\n\tdo_gettimeofday(slow_t);\n}\n#endif\n',
         "s.h": 'void measure(struct timeval *t);\n',
         "u.c": '#include "s.h"\nvoid run(void)\n{\n#ifdef FAST\n\tmeasure(&kernel_stamp);\n#else\n\tstruct timeval now;\n\tmeasure(&now);\n\tpr_info("%ld\\n", now.tv_sec);\n#endif\n}\n'}, ["fast_t", "now", "slow_t"])

    ARM_LOCAL = {"a.c": "static struct timeval g;\n\nvoid f(void)\n{\n#ifdef A\n\tstruct timeval g;\n"
                        "\tcopy_to_user(NULL, &g, sizeof(g));\n#endif\n\tdo_gettimeofday(&g);\n}\n\n"
                        "void h(void)\n{\n\tdo_gettimeofday(&g);\n\tpr_info(\"%ld\\n\", g.tv_sec);\n}\n"}

    def test_a_local_of_an_arm_used_after_it_is_the_global_in_the_other_configuration(self):
        self.assert_kept(self.ARM_LOCAL, ["g"])  # one name, both variables:
        self.assertIn("[global g, local g: kept", driver_types.convert(self.ARM_LOCAL)[2][0]["why"])

    def test_a_cast_of_the_pointer_is_no_truth_test(self):
        self.assert_kept({"a.c": 'static long put_stamp(void __user *ubuf, struct timespec *to)\n{\n\tktime_get_ts(to);\n\treturn copy_to_user(ubuf, (void *)(to), sizeof(*to));\n}\n\nlong stamp_ioctl(void __user *ubuf)\n{\n\tstruct timespec now;\n\n\treturn put_stamp(ubuf, &now);\n}\n'}, ["now", "to"])

    def test_a_call_through_a_function_pointer_is_no_truth_test(self):
        self.assert_kept({"a.c": 'static void (*wait_cb)(struct timespec *ts);\n\nstatic void fire(struct timespec *to)\n{\n\tktime_get_ts(to);\n\t(*wait_cb)(to);\n}\n\nvoid run(void)\n{\n\tstruct timespec now;\n\n\tfire(&now);\n}\n'}, ["now", "to"])

    def test_a_string_macro_of_another_file_is_not_this_ones(self):
        new, converted, kept = driver_types.convert({"a.c": '#define TAG "cam: "\nvoid a_fn(void)\n{\n\tstruct timeval tv;\n\tdo_gettimeofday(&tv);\n\tpr_info(TAG "a=%ld\\n", tv.tv_sec);\n}\n',
         "b.c": '#include <vendor/log.h>\nstatic struct timeval last;\nvoid b_fn(const char *name, int x, int y)\n{\n\tdo_gettimeofday(&last);\n\tpr_info(TAG "a=%ld b=%d c=%d\\n", name, last.tv_sec, x, y);\n}\n'})
        self.assertEqual(converted, ["local tv"])
        self.assertIn("format built from macros", kept[0]["why"])
        self.assertIn('pr_info(TAG "a=%ld b=%d c=%d', new.get("b.c", "") or 'pr_info(TAG "a=%ld b=%d c=%d')

    LOGGING_HEADER = {"log.h": ("#define log_time(fmt, ...) { \\\n\tstruct timeval tv; \\\n\tdo_gettimeofday(&tv); \\\n"
                                "\tprintk(KERN_ERR \"[\" LOG_TAG \"] (%ld.%06ld) \" fmt \"\\n\", tv.tv_sec, tv.tv_usec, "
                                "##__VA_ARGS__); \\\n}\n"),
                      "a.c": '#define LOG_TAG "cam_a"\n#include "log.h"\nvoid a(void)\n{\n\tlog_time("a");\n}\n',
                      "b.c": '#define LOG_TAG "cam_b"\n#include "log.h"\nvoid b(void)\n{\n\tlog_time("b");\n}\n'}

    def test_a_headers_format_takes_the_string_macro_every_including_file_defines(self):
        new, converted, kept = driver_types.convert(self.LOGGING_HEADER)
        self.assertEqual((converted, kept), (["local tv"], []))
        self.assertIn('LOG_TAG "] (%lld.%06ld) " fmt', new["log.h"])
        files = dict(self.LOGGING_HEADER, **{"b.c": self.LOGGING_HEADER["b.c"].replace('#define LOG_TAG "cam_b"\n', "")})
        _, converted, kept = driver_types.convert(files)
        self.assertEqual(converted, [])
        self.assertIn("format built from macros", kept[0]["why"])

    def test_an_elif_chains_arms_are_told_apart(self):
        _, converted, _ = driver_types.convert({"stats.c": '#if defined(A)\nvoid measure(struct timeval *a_t)\n{\n\tdo_gettimeofday(a_t);\n}\n#elif defined(B)\nvoid measure(struct timeval *b_t)\n{\n\tdo_gettimeofday(b_t);\n}\n#else\nvoid measure(struct timeval *c_t)\n{\n\tdo_gettimeofday(c_t);\n}\n#endif\n',
         "u.c": 'void run(void)\n{\n#if defined(A)\n\tstruct timeval now;\n\tmeasure(&now);\n\tpr_info("%ld\\n", now.tv_sec);\n#endif\n}\nvoid poll(void)\n{\n#if defined(HIGHRES)\n\thr_poll();\n#elif defined(B)\n\tb_poll();\n#else\n\tmeasure(&kernel_stamp);\n#endif\n}\n'})
        self.assertEqual(converted, [])

    def test_a_value_stored_through_a_pointer_member_is_not_a_value_fields(self):
        self.assert_kept({"a.c": 'struct rec {\n\tstruct timespec stamp;\n};\n\nstruct ring {\n\tstruct timespec *stamp, *spare;\n};\n\nstatic struct timespec now_ts(void)\n{\n\tstruct timespec ts;\n\n\tktime_get_ts(&ts);\n\treturn ts;\n}\n\nvoid rec_fill(struct rec *r)\n{\n\tr->stamp = now_ts();\n}\n\nvoid ring_fill(struct ring *g)\n{\n\t*g->stamp = now_ts();\n}\n'}, ["now_ts", "stamp", "ts"])

    def test_definitions_in_several_files_are_all_reached_whatever_their_conditionals(self):
        _, converted, _ = driver_types.convert({"soc1.c": '#ifdef CONFIG_SOC1_STATS\nvoid measure(struct timeval *t1)\n{\n\tdo_gettimeofday(t1);\n}\n#endif\n',
         "soc2.c": 'void measure(struct timeval *t2)\n{\n\tdo_gettimeofday(t2);\n}\n',
         "u.c": 'void poll(void)\n{\n\tmeasure(&kernel_stamp);\n}\n'})
        self.assertEqual(converted, [])


class ReviewedEdges(unittest.TestCase):
    """Edges a review of the declaration, arm and same-name rules found."""

    def test_a_copy_kept_keeps_every_copy_of_the_global(self):
        core1 = "struct timeval stamp;\nlong age(void)\n{\n\treturn stamp.tv_sec;\n}\n"
        core2 = "struct timeval stamp;\nlong age(void)\n{\n\tvendor_log(stamp);\n\treturn 0;\n}\n"
        touch = "extern struct timeval stamp;\nvoid touch(void)\n{\n\tdo_gettimeofday(&stamp);\n}\n"
        new, converted, kept = driver_types.convert({"soc1/core.c": core1, "soc2/core.c": core2,
                                                     "soc1/touch.c": touch, "soc2/touch.c": touch})
        self.assertEqual(converted, [])
        self.assertIn("passed to vendor_log()", kept[0]["why"])
        self.assertEqual(new, {})

    def test_a_later_declarator_used_outside_the_arm_keeps_the_list_on_its_block(self):
        code = ("int f(void)\n{\n\tlong r = 0;\n#ifdef A\n\tstruct timeval t, tv;\n\n\tdo_gettimeofday(&t);\n"
                "\tr = t.tv_sec;\n#endif\n\tr++;\n#ifdef A\n\tdo_gettimeofday(&tv);\n\tr += tv.tv_usec;\n#endif\n"
                "\treturn r;\n}\n")
        new, converted, kept = driver_types.convert({"f.c": code})
        self.assertEqual((converted, kept), (["local t, local tv"], []))
        self.assertIn("\tktime_get_real_ts64(&tv);\n\tr += tv.tv_nsec / NSEC_PER_USEC;", new["f.c"])

    def test_a_long_declaration_list_is_read_in_linear_time(self):
        names = ", ".join(f"reg{i}" for i in range(40))
        code = ("struct timeval stamp;\n\nvoid dump(void)\n{\n\tunsigned int " + names.replace(", ", ",\n\t\t     ")
                + ";\n\n\tdo_gettimeofday(&stamp);\n\tpr_info(\"%ld\\n\", stamp.tv_sec);\n}\n")
        started = time.monotonic()
        _, converted, _ = driver_types.convert({"dump.c": code})
        self.assertLess(time.monotonic() - started, 10)  # the ambiguous pattern took minutes at 10 names
        self.assertEqual(converted, ["global stamp"])

    def test_a_local_of_a_nested_block_shadows_the_global_in_that_block_only(self):
        code = ("struct timeval tpend;\n\nvoid f(int x)\n{\n\tdo_gettimeofday(&tpend);\n\tif (x) {\n"
                "\t\tstruct timeval t0, tpend;\n\n\t\tdo_gettimeofday(&t0);\n\t\ttpend = t0;\n\t}\n"
                "\tx = tpend.tv_usec;\n}\n")
        new, converted, kept = driver_types.convert({"f.c": code})
        self.assertTrue(any("global tpend" in group for group in converted))
        self.assertEqual(kept, [])
        for line in ("struct timespec64 tpend;", "\tktime_get_real_ts64(&tpend);\n\tif (x) {",
                     "\tx = tpend.tv_nsec / NSEC_PER_USEC;"):
            self.assertIn(line, new["f.c"])

    def test_a_block_scope_extern_names_the_global_and_converts_with_it(self):
        glob = "struct timeval stamp;\n\nlong age(void)\n{\n\treturn stamp.tv_sec;\n}\n"
        user = "void touch(void)\n{\n\textern struct timeval stamp;\n\n\tdo_gettimeofday(&stamp);\n}\n"
        new, converted, kept = driver_types.convert({"a.c": glob, "b.c": user})
        self.assertEqual((converted, kept), (["global stamp"], []))
        self.assertIn("\textern struct timespec64 stamp;\n\n\tktime_get_real_ts64(&stamp);", new["b.c"])
        _, converted, kept = driver_types.convert({"a.c": glob, "b.c": user.replace("do_gettimeofday(&stamp)",
                                                                                     "vendor_log(stamp)")})
        self.assertEqual(converted, [])
        self.assertIn("b.c:5: passed to vendor_log()", kept[0]["why"])

    def test_a_static_global_on_a_files_first_line_is_that_files_alone(self):
        mine = "static struct timeval stamp;\nlong age(void)\n{\n\tdo_gettimeofday(&stamp);\n\treturn stamp.tv_sec;\n}\n"
        other = "struct timeval stamp;\nvoid log_it(void)\n{\n\tvendor_log(stamp);\n}\n"
        new, converted, kept = driver_types.convert({"a.c": mine, "b.c": other})
        self.assertEqual(converted, ["global stamp"])
        self.assertIn("b.c", kept[0]["why"])
        self.assertIn("static struct timespec64 stamp;", new["a.c"])


INODE_TIMES = {"blocks.c": """\
void refresh_entry(struct block *b, struct dentry *parent)
{
	struct timespec now = current_kernel_time();
	struct timespec atime = now;
	struct timespec mtime = now;

	if (b->entry) {
		atime = b->entry->d_inode->i_atime;
		debugfs_remove(b->entry);
	}
	b->entry = debugfs_create_file(b->name, 0444, parent, b, &block_fops);
	b->entry->d_inode->i_atime = atime;
	b->entry->d_inode->i_mtime = mtime;
}

static int changed_since(struct inode *inode, struct timespec *seen)
{
	return !timespec_equal(&inode->i_mtime, seen);
}

int check(struct inode *inode)
{
	struct timespec seen;

	seen = inode->i_mtime;
	return changed_since(inode, &seen);
}
"""}


class InodeTimes(unittest.TestCase):
    """struct inode's and struct iattr's time members are struct timespec64
    from Linux 4.18: a driver's timespec saved from or restored into one, or
    compared with one, converts with it; the edit names the member, so the
    kernel range refuses it below 4.18."""

    def test_locals_copied_to_and_from_inode_times_convert(self):
        new, converted, kept = driver_types.convert(INODE_TIMES)
        self.assertEqual(kept, [])
        self.assertEqual(sorted(converted), ["local atime, local mtime, local now",
                                             "local seen, param seen"])
        code = new["blocks.c"]
        for line in ("\tstruct timespec64 now = ktime_to_timespec64(ktime_get_coarse_real());\n"
                     "\tstruct timespec64 atime = now;",
                     "\t\tatime = b->entry->d_inode->i_atime;", "\tb->entry->d_inode->i_mtime = mtime;",
                     "\treturn !timespec64_equal(&inode->i_mtime, seen);",
                     "static int changed_since(struct inode *inode, struct timespec64 *seen)",
                     "\tstruct timespec64 seen;\n\n\tseen = inode->i_mtime;"):
            self.assertIn(line, code)

    def test_the_range_check_reads_the_member(self):
        asked = []

        def before_4_18(relpath, line, new):
            asked.append(new)
            return "i_mtime" not in new and "i_atime" not in new

        _, converted, kept = driver_types.convert(INODE_TIMES, before_4_18)
        self.assertEqual(converted, [])
        self.assertIn("i_mtime", asked)
        self.assertTrue(all("the kernel range does not allow this change" in k["why"] for k in kept))

    def test_a_lone_local_restored_into_an_inode_is_this_passs(self):
        code = ("void touch(struct inode *inode)\n{\n\tstruct timespec now;\n\n\tgetnstimeofday(&now);\n"
                "\tinode->i_ctime = now;\n}\n")
        new, converted, kept = driver_types.convert({"t.c": code})
        self.assertEqual((converted, kept), (["local now"], []))
        self.assertIn("\tstruct timespec64 now;\n\n\tktime_get_real_ts64(&now);\n\tinode->i_ctime = now;", new["t.c"])

    def test_a_member_the_driver_declares_as_a_structure_of_its_own_keeps_the_local(self):
        header = "struct shared_inode {\n\tOLD_TIMESPEC i_mtime;\n};\n"
        new, converted, kept = driver_types.convert({"t.h": header, "t.c": INODE_TIMES["blocks.c"]})
        self.assertIn("local seen, param seen", [k["why"].split("[")[1].split(":")[0] for k in kept])
        self.assertNotIn("local seen, param seen", converted)

    def test_an_on_disk_member_of_the_name_does_not_stop_it(self):
        header = "struct disk_inode {\n\t__le32 i_mtime;\n\tu32 i_atime;\n};\n"
        _, converted, kept = driver_types.convert({"d.h": header, "t.c": INODE_TIMES["blocks.c"]})
        self.assertEqual(kept, [])
        self.assertEqual(len(converted), 2)

    def test_a_timeval_and_other_members_are_no_partner(self):
        code = ("void f(struct inode *inode, struct other *o)\n{\n\tstruct timespec a, b;\n\n"
                "\tgetnstimeofday(&a);\n\to->stamp = a;\n\tb = inode->i_mtime;\n\tinode->i_atime = b;\n}\n")
        _, converted, kept = driver_types.convert({"f.c": code})
        self.assertEqual(converted, [])
        self.assertIn("its value goes to o->stamp", kept[0]["why"])
        tv = ("void g(struct inode *inode)\n{\n\tstruct timeval t, u;\n\n\tdo_gettimeofday(&t);\n\tu = t;\n"
              "\tinode->i_mtime = t;\n}\n")
        _, converted, kept = driver_types.convert({"g.c": tv})
        self.assertEqual(converted, [])
        self.assertIn("its value goes to inode->i_mtime", kept[0]["why"])


class TimevalToUser(unittest.TestCase):
    """An ioctl that hands user space the time as a struct timeval (`if
    (copy_to_user((struct timeval *)arg, &tv, sizeof(struct timeval)) !=
    0)`): the value becomes a timespec64, the copy writes the old layout
    field by field (`struct __kernel_old_timeval`, microseconds from the
    nanoseconds); a timeval read from user space stays (its microseconds
    would need scaling after the read)."""

    CODE = ("static int get_kernel_time(unsigned long arg)\n{\n\tstruct timeval tv;\n\n"
            "\ttv = ktime_to_timeval(ktime_get_real());\n"
            "\tif(copy_to_user((struct timeval*)arg,&tv,sizeof(struct timeval)) != 0)\n\t\treturn -EPERM;\n"
            "\treturn 0;\n}\n")

    def test_the_value_converts_and_the_copy_writes_the_old_layout(self):
        new, converted, kept = driver_types.convert({"t.c": self.CODE})
        self.assertEqual((converted, kept), (["local tv"], []))
        self.assertIn("\tstruct timespec64 tv;\n\n\ttv = ktime_to_timespec64(ktime_get_real());\n"
                      "\tif((put_user(tv.tv_sec, &((struct __kernel_old_timeval __user *)arg)->tv_sec) ||\n"
                      "\t\tput_user(tv.tv_nsec / NSEC_PER_USEC, &((struct __kernel_old_timeval __user *)arg)->tv_usec)) != 0)\n",
                      new["t.c"])
        self.assertNotIn("struct timeval", new["t.c"])  # the user pointer's cast to the old type goes too

    def test_a_timeval_read_from_user_space_stays(self):
        code = ("static int set_alarm(unsigned long arg)\n{\n\tstruct timeval tv;\n\n"
                "\tif (copy_from_user(&tv, (void __user *)arg, sizeof(tv)))\n\t\treturn -EFAULT;\n"
                "\treturn tv.tv_sec > 0;\n}\n")
        new, converted, kept = driver_types.convert({"t.c": code})
        self.assertEqual(converted, [])
        self.assertEqual(new, {})

    def test_a_result_compared_with_anything_but_zero_stays(self):
        code = self.CODE.replace(") != 0)", ") != 8)")
        _, converted, _ = driver_types.convert({"t.c": code})
        self.assertEqual(converted, [])


class ForeignStructMember(unittest.TestCase):
    """A member the driver's structure shares its name with, read through a
    member of a structure a kernel or user-space header defines
    (`group.capture_param.timestamp`, `struct sprd_img_capture_param
    capture_param;` declared by the driver, the structure not): another
    structure's, no use of the driver's field.  A member whose type the
    driver neither defines nor declares with `struct` stays a use."""

    CODE = ("struct flash_task {\n\tstruct timeval timestamp;\n};\n\n"
            "struct isp_group {\n\tstruct sprd_img_capture_param capture_param;\n};\n\n"
            "static struct isp_group group;\n\n"
            "void stamp(struct flash_task *t)\n{\n\tdo_gettimeofday(&t->timestamp);\n"
            "\tpr_debug(\"%lld\\n\", group.capture_param.timestamp);\n}\n")

    def test_the_foreign_structures_member_is_no_use(self):
        new, converted, kept = driver_types.convert({"f.c": self.CODE})
        self.assertEqual((converted, kept), (["field timestamp"], []))
        self.assertIn("\tktime_get_real_ts64(&t->timestamp);\n\tpr_debug(\"%lld\\n\", group.capture_param.timestamp);",
                      new["f.c"])

    def test_a_member_of_an_unknown_type_name_stays_a_use(self):
        code = self.CODE.replace("struct sprd_img_capture_param capture_param;", "capture_param_t capture_param;")
        _, converted, kept = driver_types.convert({"f.c": code})
        self.assertEqual(converted, [])
        self.assertIn("passed to pr_debug()", kept[0]["why"])


class PointerMemory(unittest.TestCase):
    """A pointer candidate handed to memcpy()/memset() as it is (`memcpy(dst,
    &last, sizeof(struct timeval))`) links with the other end as an address
    does; a pointer local given its own memory (`kmalloc(sizeof(*ts), ...)`,
    `kzalloc(sizeof(struct timespec), ...)`) and freed converts, the
    spelt-out size taking the new type.  Memory sized for something else, or
    a copy into a byte buffer, keeps the group."""

    CODE = ("static struct timeval last;\n\nvoid copy_last(struct timeval *dst)\n{\n"
            "\tmemcpy(dst, &last, sizeof(struct timeval));\n}\n\n"
            "void stamp(void)\n{\n\tdo_gettimeofday(&last);\n}\n\n"
            "int sample(void)\n{\n\tstruct timespec *ts = kmalloc(sizeof(*ts), GFP_KERNEL);\n"
            "\tstruct timespec *more;\n\tint ok;\n\n\tif (!ts)\n\t\treturn -ENOMEM;\n"
            "\tmore = kzalloc(sizeof(struct timespec), GFP_KERNEL);\n\tif (!more) {\n\t\tkfree(ts);\n"
            "\t\treturn -ENOMEM;\n\t}\n\tgetnstimeofday(ts);\n\tok = timespec_compare(ts, more) > 0;\n"
            "\tkfree(more);\n\tkfree(ts);\n\treturn ok;\n}\n")

    def test_the_copy_and_the_allocations_convert(self):
        new, converted, kept = driver_types.convert({"m.c": self.CODE})
        self.assertEqual(kept, [])
        self.assertEqual(sorted(converted), ["global last, param dst", "local more, local ts"])
        for line in ("void copy_last(struct timespec64 *dst)", "\tmemcpy(dst, &last, sizeof(struct timespec64));",
                     "\tstruct timespec64 *ts = kmalloc(sizeof(*ts), GFP_KERNEL);",
                     "\tmore = kzalloc(sizeof(struct timespec64), GFP_KERNEL);", "\tktime_get_real_ts64(ts);",
                     "\tok = timespec64_compare(ts, more) > 0;\n\tkfree(more);\n\tkfree(ts);"):
            self.assertIn(line, new["m.c"])

    def test_memory_sized_for_something_else_keeps_the_pointer(self):
        for size in ("sizeof(struct sample_rec)", "sizeof(*ts) + sizeof(struct sample_hdr)"):
            code = self.CODE.replace("kmalloc(sizeof(*ts), GFP_KERNEL)", f"kmalloc({size}, GFP_KERNEL)")
            _, converted, kept = driver_types.convert({"m.c": code})
            self.assertNotIn("local more, local ts", converted)
            self.assertIn(f"assigned from kmalloc({size}"[:48], "\n".join(k["why"] for k in kept))

    def test_a_copy_into_a_byte_buffer_keeps_the_pointer(self):
        code = self.CODE.replace("memcpy(dst, &last, sizeof(struct timeval));",
                                 "memcpy(dst, &last, sizeof(struct timeval));\n\tmemcpy(wire_buf, dst, 8);")
        _, converted, kept = driver_types.convert({"m.c": code})
        self.assertNotIn("global last, param dst", converted)


class ReviewedEdgesOfTheThirteenthRound(unittest.TestCase):
    """Inputs a cold review of this round's changes converted wrongly, each
    a test that failed before its fix."""

    def test_a_cast_on_the_allocation_names_the_new_type_or_keeps_the_pointer(self):
        code = ("int sample(void)\n{\n\tstruct timeval *tv;\n\n\ttv = (struct timeval *)kmalloc(sizeof(*tv), GFP_KERNEL);\n"
                "\tif (!tv)\n\t\treturn -ENOMEM;\n\tdo_gettimeofday(tv);\n\tkfree(tv);\n\treturn 0;\n}\n")
        new, converted, _ = driver_types.convert({"s.c": code})
        self.assertEqual(converted, ["local tv"])
        self.assertIn("\ttv = (struct timespec64 *)kmalloc(sizeof(*tv), GFP_KERNEL);", new["s.c"])
        _, converted, _ = driver_types.convert({"s.c": code.replace("(struct timeval *)kmalloc", "(u8 *)kmalloc")})
        self.assertEqual(converted, [])

    def test_a_current_time_the_driver_defines_is_its_own(self):
        code = ("#define CURRENT_TIME current_time(inode)\n\nstatic void touch(struct inode *inode)\n{\n"
                "\tstruct timespec now = CURRENT_TIME;\n\tstruct timespec then;\n\n\tthen = CURRENT_TIME;\n"
                "\tinode->i_mtime = now;\n\tinode->i_atime = then;\n}\n")
        new, converted, _ = driver_types.convert({"t.c": code})
        self.assertEqual(converted, [])
        self.assertNotIn("ktime_get_coarse_real", "".join(new.values()))

    def test_an_array_copied_to_user_space_is_no_field_copy(self):
        code = ("static long get_pair(unsigned long arg)\n{\n\tstruct timeval tv[2];\n\n\tdo_gettimeofday(&tv[0]);\n"
                "\tdo_gettimeofday(&tv[1]);\n\tif (copy_to_user((void __user *)arg, &tv, sizeof(tv)))\n"
                "\t\treturn -EFAULT;\n\treturn 0;\n}\n")
        new, converted, _ = driver_types.convert({"p.c": code})
        self.assertEqual(converted, [])
        self.assertNotIn("put_user(tv.tv_sec", "".join(new.values()))

    def test_a_later_declarator_of_the_drivers_own_is_no_kernel_member(self):
        code = ("struct disk_stat {\n\tstruct timespec i_atime, i_mtime;\n} __packed;\n\n"
                "void fill(struct disk_stat *st)\n{\n\tstruct timespec now;\n\n\tgetnstimeofday(&now);\n"
                "\tst->i_mtime = now;\n\tcopy_to_user(ubuf, st, sizeof(*st));\n}\n")
        new, converted, _ = driver_types.convert({"d.c": code})
        self.assertNotIn("local now", " ".join(converted))

    def test_a_copy_sized_in_bytes_keeps_the_group(self):
        code = ("static struct timeval last;\n\nvoid copy_last(struct timeval *dst)\n{\n"
                "\tmemcpy(dst, &last, 8);\n}\n\nvoid stamp(void)\n{\n\tdo_gettimeofday(&last);\n}\n")
        _, converted, kept = driver_types.convert({"m.c": code})
        self.assertEqual(converted, [])
        self.assertIn("memcpy() of 8 bytes, not the size of the type", kept[0]["why"])
        new, converted, _ = driver_types.convert({"m.c": code.replace("8);", "sizeof(*dst));")})
        self.assertEqual(converted, ["global last, param dst"])


PERSISTENT_CLOCK = {"board-rtc.c": """\
static void __iomem *rtc_base;

void read_persistent_clock(struct timespec *ts)
{
	ts->tv_sec = readl(rtc_base);
	ts->tv_nsec = 0;
}

int update_persistent_clock(struct timespec now)
{
	writel(now.tv_sec, rtc_base);
	return 0;
}

static void board_rtc_sync(void)
{
	struct timespec now;

	getnstimeofday(&now);
	update_persistent_clock(now);
}
"""}


class KernelHooks(unittest.TestCase):
    """A board file's definition of a hook the kernel calls (its weak
    read_persistent_clock() declared with struct timespec) cannot change its
    parameter's type under the old name: it becomes the timespec64 hook,
    callers in the directory with it; where the range lacks the hook (before
    4.9) it stays as it is."""

    def test_the_hooks_take_their_timespec64_names(self):
        new, converted, kept = driver_types.convert(PERSISTENT_CLOCK)
        self.assertEqual(kept, [])
        board = new["board-rtc.c"]
        self.assertIn("void read_persistent_clock64(struct timespec64 *ts)\n", board)
        self.assertIn("int update_persistent_clock64(struct timespec64 now)\n", board)
        self.assertIn("\tupdate_persistent_clock64(now);\n", board)
        self.assertNotIn("persistent_clock(", board)

    def test_a_call_through_a_member_of_that_name_is_not_the_hook(self):
        through_ops = {"board-rtc.c": PERSISTENT_CLOCK["board-rtc.c"].replace(
            "\tts->tv_sec = readl(rtc_base);", "\tif (ops->read_persistent_clock) {\n"
            "\t\tops->read_persistent_clock(ts);\n\t\treturn;\n\t}\n\tts->tv_sec = readl(rtc_base);")}
        new, converted, kept = driver_types.convert(through_ops)
        self.assertNotIn("read_persistent_clock64", new.get("board-rtc.c", ""))
        self.assertTrue(any("through a structure member" in k["why"] and "param ts" in k["why"] for k in kept), kept)

    def test_a_member_call_split_after_its_arrow_is_not_the_hook_either(self):
        split = {"board-rtc.c": PERSISTENT_CLOCK["board-rtc.c"].replace(
            "\tts->tv_sec = readl(rtc_base);", "\tif (board->rtc_ops) {\n\t\tstruct timespec alt;\n\n"
            "\t\tboard->rtc_ops->\n\t\t\tread_persistent_clock(&alt);\n\t\tts->tv_sec = alt.tv_sec;\n"
            "\t\treturn;\n\t}\n\tts->tv_sec = readl(rtc_base);")}
        new, converted, kept = driver_types.convert(split)
        # the hook converts (its own parameter never reaches the member); the member's call keeps its name
        self.assertIn("void read_persistent_clock64(struct timespec64 *ts)\n", new["board-rtc.c"])
        self.assertIn("\t\t\tread_persistent_clock(&alt);\n", new["board-rtc.c"])

    def test_a_range_without_the_hooks_keeps_them(self):
        new, converted, kept = driver_types.convert(
            PERSISTENT_CLOCK, lambda relpath, line, text: "persistent_clock64" not in text)
        self.assertNotIn("board-rtc.c", new)  # unchanged
        self.assertTrue(any("param ts" in k["why"] for k in kept), kept)
