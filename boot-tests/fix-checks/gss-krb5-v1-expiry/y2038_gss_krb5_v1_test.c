// SPDX-License-Identifier: GPL-2.0-only
/*
 * y2038 boot check: does an RFC 1964 (v1) Kerberos GSS context expire
 * after 2038-01-19 03:14:07 UTC?
 *
 * gss_verify_mic_v1() compares the wall clock in seconds with the context's
 * 64-bit endtime.  Kept in an s32, the clock is negative from 2038-01-19
 * 03:14:08 UTC on and an expired context is never found expired.  Each case
 * imports a DES v1 context (the 85-byte downcall format), sets the wall
 * clock, signs a message with gss_get_mic() and verifies it with
 * gss_verify_mic(), which checks the checksum, then the expiry, then the
 * sequence number's direction.  A token signed by the same context has the
 * wrong direction for it, so a context that is not expired answers
 * GSS_S_BAD_SIG: the expiry check is the only one that can answer
 * GSS_S_CONTEXT_EXPIRED after the checksum passed.
 *
 * Not a patch for the kernel: the boot stage adds it to the kernels it boots
 * to prove the fix (it fails without the fix and passes with it).
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/sunrpc/gss_api.h>
#include <linux/sunrpc/gss_err.h>
#include <linux/sunrpc/gss_krb5.h>
#include <linux/sunrpc/xdr.h>

#define Y2038_LIMIT ((time64_t)S32_MAX)	/* 2038-01-19 03:14:07 UTC */

/* 1.2.840.113554.1.2.2, the Kerberos V5 GSS-API mechanism */
static const u8 krb5_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 des_key[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };

static u8 *put(u8 *p, const void *data, size_t len)
{
	memcpy(p, data, len);
	return p + len;
}

static u8 *put_u32(u8 *p, u32 value)
{
	return put(p, &value, sizeof(value));
}

static u8 *put_key(u8 *p)
{
	p = put_u32(p, ENCTYPE_DES_CBC_CRC);
	p = put_u32(p, sizeof(des_key));
	return put(p, des_key, sizeof(des_key));
}

/* gss_import_v1_context()'s input: 85 bytes, in the host's byte order */
static size_t v1_context(u8 *buf, u32 endtime)
{
	u8 *p = buf;

	p = put_u32(p, 1);		/* initiate */
	memset(p, 0, 20);		/* ignored by the kernel */
	p += 20;
	p = put_u32(p, SGN_ALG_DES_MAC_MD5);
	p = put_u32(p, SEAL_ALG_DES);
	p = put_u32(p, endtime);
	p = put_u32(p, 0);		/* seq_send */
	p = put_u32(p, sizeof(krb5_oid));
	p = put(p, krb5_oid, sizeof(krb5_oid));
	p = put_key(p);			/* enc */
	p = put_key(p);			/* seq */
	return p - buf;
}

/* gss_verify_mic()'s answer for a context ending at endtime, the clock at now */
static u32 verify_at(struct kunit *test, time64_t endtime, time64_t now)
{
	struct timespec64 saved, then = { .tv_sec = now };
	struct gss_api_mech *mech;
	struct gss_ctx *ctx = NULL;
	char text[] = "y2038";
	struct kvec iov = { .iov_base = text, .iov_len = sizeof(text) };
	struct xdr_netobj mic = { .len = 128 };
	struct xdr_buf message;
	u8 blob[96];
	size_t len = v1_context(blob, endtime);
	u32 maj;

	KUNIT_ASSERT_EQ(test, len, (size_t)85);
	mech = gss_mech_get_by_name("krb5");
	KUNIT_ASSERT_NOT_NULL(test, mech);
	KUNIT_ASSERT_EQ(test, gss_import_sec_context(blob, len, mech, &ctx, NULL, GFP_KERNEL), 0);
	mic.data = kunit_kzalloc(test, mic.len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mic.data);
	xdr_buf_from_iov(&iov, &message);

	ktime_get_real_ts64(&saved);
	do_settimeofday64(&then);
	gss_get_mic(ctx, &message, &mic);
	maj = gss_verify_mic(ctx, &message, &mic);
	saved.tv_sec += ktime_get_real_seconds() - now;
	do_settimeofday64(&saved);

	gss_delete_sec_context(&ctx);
	gss_mech_put(mech);
	return maj;
}

/* Control: the checksum verifies and the expiry is seen before 2038. */
static void expired_before_2038(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, verify_at(test, Y2038_LIMIT - 7200, Y2038_LIMIT - 3600),
			(u32)GSS_S_CONTEXT_EXPIRED);
}

/* The bug: 2 minutes after the limit, a context that ended 1 minute before it. */
static void expired_after_2038(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, verify_at(test, Y2038_LIMIT - 60, Y2038_LIMIT + 120),
			(u32)GSS_S_CONTEXT_EXPIRED);
}

/* A context that ends after the limit is still valid just after it. */
static void valid_after_2038(struct kunit *test)
{
	KUNIT_EXPECT_NE(test, verify_at(test, Y2038_LIMIT + 3600, Y2038_LIMIT + 120),
			(u32)GSS_S_CONTEXT_EXPIRED);
}

static struct kunit_case y2038_gss_krb5_v1_cases[] = {
	KUNIT_CASE(expired_before_2038),
	KUNIT_CASE(expired_after_2038),
	KUNIT_CASE(valid_after_2038),
	{}
};

static struct kunit_suite y2038_gss_krb5_v1_suite = {
	.name = "y2038_gss_krb5_v1",
	.test_cases = y2038_gss_krb5_v1_cases,
};
kunit_test_suite(y2038_gss_krb5_v1_suite);

MODULE_LICENSE("GPL");
