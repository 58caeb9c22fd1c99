struct krb5_ctx {
	time64_t endtime;
	u32 stamp;
	int seconds;
};

/* The shape of 6.1's gss_verify_mic_v1(): converted. */
static u32 verify_mic(struct krb5_ctx *ctx, int len)
{
	int signalg;
	s32 now;
	int direction;

	signalg = len + 2;
	now = ktime_get_real_seconds();

	if (now > ctx->endtime)
		return GSS_S_CONTEXT_EXPIRED;
	return signalg + direction;
}

/* Initialised where declared, compared the other way round: converted. */
static bool deadline_passed(time64_t deadline)
{
	int now = ktime_get_real_seconds();

	return deadline <= now;
}

/* In a nested block: converted. */
static int nested(struct krb5_ctx *ctx, int x)
{
	if (x) {
		long now;

		now = ktime_get_real_seconds();
		if (ctx->endtime < now)
			return 1;
	}
	return 0;
}

/* u32 wraps in 2106, not 2038: the hazards report's. */
static bool unsigned_now(struct krb5_ctx *ctx)
{
	u32 now = ktime_get_real_seconds();

	return now > ctx->endtime;
}

/* Also stored in a 32-bit field: the width may be meant. Not touched. */
static bool stored(struct krb5_ctx *ctx)
{
	s32 now = ktime_get_real_seconds();

	ctx->stamp = now;
	return now > ctx->endtime;
}

/* Also printed: not touched. */
static bool printed(struct krb5_ctx *ctx)
{
	int now = ktime_get_real_seconds();

	pr_info("now %d\n", now);
	return now > ctx->endtime;
}

/* Compared only with another 32-bit value: not touched. */
static bool with_int(struct krb5_ctx *ctx)
{
	int now = ktime_get_real_seconds();

	return now > ctx->seconds;
}

/* Already 64-bit: not touched. */
static bool wide(struct krb5_ctx *ctx)
{
	time64_t now = ktime_get_real_seconds();

	return now > ctx->endtime;
}

/* Monotonic seconds are not a date: not touched. */
static bool monotonic(struct krb5_ctx *ctx)
{
	int now = ktime_get_seconds();

	return now > ctx->endtime;
}
