# SPDX-License-Identifier: GPL-2.0-only
"""hazard_triage: the seven "overflows 2038" reports of the 6.1.192 series
the review named, in the shape of their code, told apart: one wall-clock
candidate first, the compat ABIs, formats and durations after."""
import unittest

import helpers
helpers.put_tools_on_path()
from y2038lib.posting import hazard_triage
from y2038lib.posting.hazards import hazards_text
from y2038lib.records import Hazard, Hazards

CASES = [  # (kind, path, code: the report is on the last line)
    ("abi", "drivers/char/ppdev.c",
     "\tcase PPGETTIME32:\n\t\tjiffies_to_timespec64(pp->pdev->timeout, &ts);\n\t\ttime32[0] = ts.tv_sec;"),
    ("abi", "sound/core/timer.c",
     "static int snd_timer_user_status32(struct file *file)\n{\n\tstruct snd_timer_status32 status;\n\n"
     "\tstatus.tstamp_sec = tu->tstamp.tv_sec;"),
    ("duration", "drivers/usb/misc/usbtest.c",
     "\tktime_get_ts64(&end);\n\tduration = timespec64_sub(end, start);\n\ttemp.duration_sec = duration.tv_sec;"),
    ("duration", "net/netfilter/xt_IDLETIMER.c",
     "\t\tktime_t expires_alarm = alarm_expires_remaining(&timer->alarm);\n"
     "\t\tktimespec = ktime_to_timespec64(expires_alarm);\n\t\ttime_diff = ktimespec.tv_sec;"),
    ("format", "fs/ext4/ext4.h",
     "static inline __le32 ext4_encode_extra_time(struct timespec64 *time)\n{\n"
     "\tu32 extra =((time->tv_sec - (s32)time->tv_sec) >> 32) & EXT4_EPOCH_MASK;"),
    ("wallclock", "net/sunrpc/auth_gss/gss_krb5_unseal.c",
     "\t/* it got through unscathed.  Make sure the context is unexpired */\n\n\tnow = ktime_get_real_seconds();"),
    ("register", "drivers/net/ethernet/mscc/ocelot_ptp.c",
     "\tocelot_write_rix(ocelot, lower_32_bits(ts->tv_sec), PTP_PIN_TOD_SEC_LSB, TOD_ACC_PIN);"),
    ("monotonic", "drivers/foo/bar.c", "\tktime_get_ts64(&ts);\n\tup = ts.tv_sec;"),
    ("unknown", "drivers/foo/bar.c", "\tx = ts->tv_sec;"),
]


class Triage(unittest.TestCase):
    def test_each_named_case(self):
        for kind, path, code in CASES:
            self.assertEqual(hazard_triage.triage(code, code.count("\n") + 1, path), kind, path)

    def test_real_candidates_come_first(self):
        report = Hazards(version="6.1", baseline="0" * 40, rules=[], seconds=0.0, hazards=[
            Hazard(file=path, line=1, cls="y2038", why="w", rule="r", kind=hazard_triage.triage(code, code.count("\n") + 1, path), code="")
            for _, path, code in CASES])
        text = hazards_text(report)
        self.assertLess(text.index("gss_krb5_unseal.c"), text.index("usbtest.c"))
        self.assertLess(text.index("usbtest.c"), text.index("ppdev.c"))
        self.assertIn("  abi: 2, a 32-bit compat or old ABI structure", text)


if __name__ == "__main__":
    unittest.main()
