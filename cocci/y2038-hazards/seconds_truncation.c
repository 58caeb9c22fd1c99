struct rec {
	int when;
	u32 stamp;
	__le32 disk_time;
	time64_t ok;
};

static void hazards(struct rec *r, struct timespec64 *out)
{
	struct timespec64 ts;
	int secs;
	long lsecs;
	u64 fine = ktime_get_real_seconds();
	s32 start = ktime_get_real_seconds();
	u32 wire = ktime_get_real_seconds();

	ktime_get_real_ts64(&ts);
	secs = ts.tv_sec;
	lsecs = out->tv_sec;
	r->when = ktime_get_real_seconds();
	r->stamp = ktime_get_real_seconds();
	r->disk_time = cpu_to_le32(ts.tv_sec);
	r->ok = ktime_get_real_seconds();
	use((int)ktime_get_real_seconds(), lower_32_bits(ktime_get_real_seconds()), (u32)ts.tv_sec);
	use(fine, start, secs, lsecs, wire);
}

/* unsigned long: 32 bits on 32-bit machines; u64 and time64_t are fine. */
static unsigned long board_stamp(struct rec *r)
{
	unsigned long now = ktime_get_real_seconds();
	u64 wide = ktime_get_real_seconds();
	time64_t t = ktime_get_real_seconds();

	use(wide, t);
	return now + (unsigned long)ktime_get_real_seconds();
}
