# SPDX-License-Identifier: GPL-2.0-only
"""posting/product_facts.py: what a nanosecond-product fix's message says
of each product it widens, read from its diff, the file and the headers it
includes (a planted tree: the shapes of the five 6.12.118 sites), and the
subject that names the value."""
import tempfile
import unittest
from pathlib import Path

import helpers
helpers.put_tools_on_path()
from y2038lib.posting import messages, product_facts  # noqa: E402

HEADER = """struct drv_getevents_arg {
\t__u64\tsigmask;
\t__u32\tmin_wait_usec;
};
"""
BEFORE = """#include <linux/kernel.h>
#include <uapi/linux/drv.h>

#define RETRY_SEC 60UL

static int poll_interval = 5;
module_param(poll_interval, int, 0644);

static unsigned long drv_thresh_us = ULONG_MAX;
module_param_named(thresh_us, drv_thresh_us, ulong, 0644);

static enum hrtimer_restart drv_timer_callback(struct hrtimer *timer)
{
\thrtimer_forward_now(timer, ns_to_ktime(poll_interval * NSEC_PER_MSEC));
\treturn HRTIMER_RESTART;
}

void drv_tick(struct task_struct *task, u64 ran)
{
\tif (ran <
\t    drv_thresh_us * NSEC_PER_USEC)
\t\treturn;
}

static int drv_get_ext_arg(const void __user *argp, struct ext_arg *ext_arg)
{
\tstruct drv_getevents_arg arg;

\tif (copy_from_user(&arg, argp, sizeof(arg)))
\t\treturn -EFAULT;
\text_arg->min_time = arg.min_wait_usec * NSEC_PER_USEC;
\treturn 0;
}

static ssize_t interval_ms_store(struct device *dev,
\t\t\t\t const char *buf, size_t count)
{
\tint timer, ret;

\tret = kstrtoint(buf, 0, &timer);
\tif (ret)
\t\treturn ret;
\tdev->interval = ns_to_ktime(NSEC_PER_MSEC * timer);
\treturn count;
}

static void get_ptptime(void __iomem *ptpaddr, u64 *ptp_time)
{
\tu64 ns;

\tns = readl(ptpaddr + PTP_ATNR);
\tns += readl(ptpaddr + PTP_ATSR) * NSEC_PER_SEC;
\t*ptp_time = ns;
}

static void retry(struct drv *d)
{
\td->delay_ns = RETRY_SEC * NSEC_PER_SEC;
}

static void unknown(struct drv *d, struct other *o)
{
\td->delay_ns = o->opaque * NSEC_PER_USEC;
}
"""
FIXED = {
    "poll_interval * NSEC_PER_MSEC": "(s64)poll_interval * NSEC_PER_MSEC",
    "drv_thresh_us * NSEC_PER_USEC": "(u64)drv_thresh_us * NSEC_PER_USEC",
    "arg.min_wait_usec * NSEC_PER_USEC": "(s64)arg.min_wait_usec * NSEC_PER_USEC",
    "NSEC_PER_MSEC * timer": "(s64)timer * NSEC_PER_MSEC",
    "readl(ptpaddr + PTP_ATSR) * NSEC_PER_SEC": "(s64)readl(ptpaddr + PTP_ATSR) * NSEC_PER_SEC",
    "RETRY_SEC * NSEC_PER_SEC": "(u64)RETRY_SEC * NSEC_PER_SEC",
    "o->opaque * NSEC_PER_USEC": "(s64)o->opaque * NSEC_PER_USEC",
}


def fixed(text):
    for old, new in FIXED.items():
        text = text.replace(old, new)
    return text


class ProductFacts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.src = Path(cls.tmp.name)
        (cls.src / "include" / "uapi" / "linux").mkdir(parents=True)
        (cls.src / "include" / "uapi" / "linux" / "drv.h").write_text(HEADER)
        (cls.src / "drv").mkdir()
        cls.products = product_facts.wrapped_products(cls.src, "drv/drv.c", BEFORE, fixed(BEFORE))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_each_product_with_what_its_count_is_and_where_it_comes_from(self):
        self.assertEqual([(p.function, p.expression, p.type, p.source, p.name) for p in self.products], [
            ("drv_timer_callback", "poll_interval * NSEC_PER_MSEC", "int", "the module parameter poll_interval",
             "poll_interval"),
            ("drv_tick", "drv_thresh_us * NSEC_PER_USEC", "unsigned long", "the module parameter thresh_us",
             "thresh_us"),
            ("drv_get_ext_arg", "arg.min_wait_usec * NSEC_PER_USEC", "__u32",
             "copied from user space by copy_from_user()", "min_wait_usec"),
            ("interval_ms_store", "NSEC_PER_MSEC * timer", "int", "parsed by kstrtoint() from what user space writes",
             "interval_ms_store()"),
            ("get_ptptime", "readl(ptpaddr + PTP_ATSR) * NSEC_PER_SEC", "u32",
             "the seconds a clock's register holds, read by readl()", "get_ptptime() seconds"),
            ("retry", "RETRY_SEC * NSEC_PER_SEC", "unsigned long", "the constant 60", "RETRY_SEC"),
            ("unknown", "o->opaque * NSEC_PER_USEC", "", "", "unknown()"),
        ])

    def test_the_wrap_comes_from_the_type(self):
        found = {p.name: p for p in self.products}
        # signed: int * long overflows past 2^31 - 1 ns; unsigned: kept modulo 2^32 ns
        self.assertEqual(found["poll_interval"].smallest(), 2148)
        self.assertEqual(found["thresh_us"].smallest(), 4294968)
        self.assertEqual(found["min_wait_usec"].smallest(), 4294968)
        self.assertEqual(found["get_ptptime() seconds"].smallest(), 5)
        self.assertEqual(found["interval_ms_store()"].wrapped(3000), 3000 * 10 ** 6 - 2 ** 32)
        self.assertEqual(found["min_wait_usec"].wrapped(5000000), 705032704)
        self.assertEqual(found["RETRY_SEC"].example(), 60)

    def test_the_sentence_of_a_value_from_user_space(self):
        self.assertEqual(
            product_facts.sentence(self.products[2]),
            "In drv_get_ext_arg(), arg.min_wait_usec is a __u32, copied from user space by copy_from_user().  On "
            "machines whose long is 32 bits wide, arg.min_wait_usec * NSEC_PER_USEC is computed in a 32-bit "
            "unsigned long, which keeps it modulo 2^32 ns (4.29 s): from 4294968 us on it is wrong: 5000000 us "
            "gives 705032704 ns (0.705 s) instead of 5000000000 ns (5 s).")

    def test_a_count_of_unknown_type_gets_no_figures(self):
        said = product_facts.sentence(self.products[-1])
        self.assertIn("is not in the file or the headers it includes", said)
        self.assertNotRegex(said.replace("32 bits", ""), r"\d")

    def test_the_subject_names_the_value(self):
        self.assertEqual(product_facts.summary(self.products[2:3]), "fix the min_wait_usec overflow on 32-bit")
        self.assertEqual(product_facts.summary(self.products[4:5]), "fix the get_ptptime() seconds overflow on 32-bit")
        self.assertEqual(product_facts.summary(self.products[:2]),
                         "fix the poll_interval and thresh_us overflows on 32-bit")
        self.assertIsNone(product_facts.summary([]))

    def test_the_remedy_names_the_counts_and_their_casts(self):
        self.assertIn("Cast arg.min_wait_usec to s64,", product_facts.remedy(self.products[2:3]))
        self.assertIsNone(product_facts.remedy([]))

    def test_the_commit_message_takes_the_summary_and_the_facts(self):
        rule = {"path": "cocci/y2038-fixes/ns_product_32.cocci", "subject": "multiply nanosecond products in 64 bits",
                "sites": 1, "fired": ["widen"]}
        facts = [product_facts.sentence(self.products[2])]
        group = {"files": ["io_uring/io_uring.c"], "campaign": "y2038-fixes", "sites": 1, "fix": True,
                 "rules": [rule], "summary": product_facts.summary(self.products[2:3]), "facts": facts}
        message = messages.commit_message(group, None)
        self.assertTrue(message.startswith("io_uring: fix the min_wait_usec overflow on 32-bit\n"), message)
        self.assertIn("5000000 us gives 705032704 ns (0.705 s)", " ".join(message.split()))
        self.assertIn("Multiply in 64 bits a count", message)  # without its remedy: the rule's own words
        fixed = messages.commit_message(dict(group, remedy=product_facts.remedy(self.products[2:3])), None)
        body = " ".join(fixed.split("// <smpl>")[0].split())
        self.assertIn("Cast arg.min_wait_usec to s64, so that the product is computed in 64 bits, as it already is "
                      "on 64-bit machines, where the result does not change.", body)
        # said of its own count: the rule's background and its sentences for every kind of count go
        self.assertNotIn("Multiply in 64 bits a count", body)
        self.assertNotIn("a signed one overflowed", body)
        self.assertLess(body.index("705032704 ns"), body.index("Cast arg.min_wait_usec"))
        tip = dict(group, files=["kernel/events/core.c"], tree="git://git.kernel.org/pub/scm/linux/kernel/git/tip/tip.git",
                   summary=product_facts.summary(self.products[3:4]))
        self.assertTrue(messages.commit_message(tip, None).startswith(
            "perf/core: Fix the interval_ms_store() overflow on 32-bit\n"))

    def test_a_line_the_fix_does_not_cast_is_no_product(self):
        self.assertEqual(product_facts.wrapped_products(self.src, "drv/drv.c", BEFORE, BEFORE), [])


if __name__ == "__main__":
    unittest.main()
