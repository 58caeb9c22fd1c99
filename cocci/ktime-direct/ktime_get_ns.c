/* Must change: every clock, in assignments, initializers, returns, arguments. */
struct blk_trace_rec { u64 time; s64 boottime_ns; };

static struct wmi_scan_info info = { 0 };

void record(struct blk_trace_rec *t, u64 *arr, int i)
{
	u64 now = ktime_to_ns(ktime_get());

	t->time = ktime_to_ns(ktime_get_real());
	arr[i] = ktime_to_ns(ktime_get_boottime());
	arr[i + 1] = ktime_to_ns(ktime_get_clocktai()) + 5;
	timecounter_init(&tc, &cc, ktime_to_ns(ktime_get_real()));
	tg3_refclk_write(tp, ktime_to_ns(ktime_get_real()) + tp->ptp_adjust);
	dmar_latency_update(iommu, DMAR_LATENCY_INV_IOTLB,
			    ktime_to_ns(ktime_get()) - iotlb_start_ktime);
	info = (struct wmi_scan_info){
		.boottime_ns = ktime_to_ns(ktime_get_boottime()),
	};
}

static u64 raw_stamp(void)
{
	return ktime_to_ns(ktime_get_raw());
}

static u64 coarse_stamps(u64 *out)
{
	out[0] = ktime_to_ns(ktime_get_coarse());
	out[1] = ktime_to_ns(ktime_get_coarse_real());
	out[2] = ktime_to_ns(ktime_get_coarse_boottime());
	return ktime_to_ns(ktime_get_coarse_clocktai());
}

#ifdef CONFIG_DEBUG_FS
static void debug_stamp(struct seq_file *m)
{
	seq_printf(m, "now at %Ld nsecs\n", (unsigned long long)ktime_to_ns(ktime_get()));
}
#endif

/* Must NOT change: signedness matters, other values, other clocks, the helpers. */
static bool expired(s64 count_resume, s64 deadline, ktime_t start)
{
	if (count_resume < 0 || count_resume > ktime_to_ns(ktime_get()))
		return false;
	if ((ktime_to_ns(ktime_get_real()) - deadline) / 1000 > 3)
		return true;
	if (ktime_to_ns(ktime_get_boottime()) % 7)
		return true;
	/* conservative: any >> operand is left alone, even behind a cast */
	if (((unsigned int)ktime_to_ns(ktime_get()) >> 14) & 1)
		return true;
	return min(deadline, ktime_to_ns(ktime_get())) != 0 ||
	       ktime_to_ns(ktime_sub(ktime_get(), start)) > 0 ||
	       ktime_to_ns(ktime_get() - start) > 0 ||
	       ktime_to_ns(start) != 0;
}

static s64 other(void)
{
	s64 a = ktime_to_ns(ktime_get_mono_fast());
	s64 b = ktime_to_ns(ktime_get_with_offset(TK_OFFS_REAL));

	return a + b + ktime_get_mono_fast_ns();
}

static inline u64 ktime_get_ns(void)
{
	return ktime_to_ns(ktime_get());
}

static inline u64 ktime_get_real_ns(void)
{
	return ktime_to_ns(ktime_get_real());
}

static inline u64 ktime_get_coarse_clocktai_ns(void)
{
	return ktime_to_ns(ktime_get_coarse_clocktai());
}

/* signed arithmetic hidden in an operator or a macro: left */
static s64 signed_uses(s64 t, s64 x)
{
	x /= ktime_to_ns(ktime_get());
	t = abs(ktime_to_ns(ktime_get()) - t);
	return DIV_ROUND_CLOSEST(ktime_to_ns(ktime_get()) - t, 1000) + x;
}
