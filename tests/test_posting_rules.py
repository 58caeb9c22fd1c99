# SPDX-License-Identifier: GPL-2.0-only
"""posting_rules: the subject prefix of every case the review of the 6.1
series named, and how a tree's postings are marked."""
import unittest

import helpers  # noqa: F401  (puts tools/ on sys.path)
from y2038lib import posting_rules as pr

NET_NEXT = "git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git"
TIP = "git://git.kernel.org/pub/scm/linux/kernel/git/tip/tip.git"


class SubjectPrefixes(unittest.TestCase):
    CASES = {
        "drivers/input/keyboard/adp5588-keys.c": "Input: adp5588-keys -",
        "drivers/input/input.c": "Input",
        "drivers/md/dm-stats.c": "dm stats",
        "drivers/iommu/intel/dmar.c": "iommu/vt-d",
        "arch/mips/kvm/emulate.c": "KVM: MIPS",
        "arch/riscv/kvm/vcpu_timer.c": "RISC-V: KVM",
        "arch/x86/kvm/x86.c": "KVM: x86",
        "drivers/net/can/usb/peak_usb/pcan_usb_core.c": "can: peak_usb",
        "drivers/ufs/core/ufshcd.c": "scsi: ufs: core",
        "drivers/scsi/lpfc/lpfc_init.c": "scsi: lpfc",
        "net/mac80211/status.c": "wifi: mac80211",
        "drivers/net/wireless/mediatek/mt76/mac80211.c": "wifi: mt76",
        "drivers/misc/habanalabs/common/state_dump.c": "habanalabs",
        "drivers/net/ethernet/intel/igc/igc_main.c": "igc",
        "drivers/net/ethernet/intel/e1000e/netdev.c": "e1000e",
        "kernel/power/main.c": "PM: sleep",
        "block/blk-wbt.c": "block",
        "kernel/trace/blktrace.c": "tracing",
        "drivers/net/ethernet/broadcom/tg3.c": "net: tg3",
        "drivers/net/ethernet/cadence/macb_ptp.c": "net: macb",
        "drivers/net/ethernet/mellanox/mlx5/core/lib/clock.c": "net: mlx5",
        "drivers/net/ethernet/cavium/common/cavium_ptp.c": "net: cavium",
        "drivers/gpu/drm/i915/display/intel_dp_hdcp.c": "drm/i915",
        "drivers/gpu/drm/amd/amdgpu/amdgpu_vkms.c": "drm/amdgpu",
        "drivers/iio/light/vcnl4000.c": "iio: light: vcnl4000",
        "drivers/iio/industrialio-core.c": "iio: core",
        "drivers/media/pci/cx88/cx88-input.c": "media: cx88",
        "drivers/media/spi/cxd2880-spi.c": "media: cxd2880",
        "drivers/hwmon/bt1-pvt.c": "hwmon: (bt1-pvt)",
        "drivers/rtc/rtc-meson-vrtc.c": "rtc: meson-vrtc",
        "drivers/ptp/ptp_idt82p33.c": "ptp: idt82p33",
        "kernel/time/timer_list.c": "timers",
        "kernel/sched/debug.c": "sched/debug",
        "fs/ocfs2/cluster/netdebug.c": "ocfs2",
    }

    def test_every_named_case(self):
        for path, prefix in self.CASES.items():
            self.assertEqual(pr.subject_prefix(path), prefix, path)

    def test_subject_forms(self):
        self.assertEqual(pr.subject("Input: adp5588-keys -", "use x", ""), "Input: adp5588-keys - use x")
        self.assertEqual(pr.subject("hwmon: (bt1-pvt)", "use x", ""), "hwmon: (bt1-pvt) use x")
        self.assertEqual(pr.subject("timers", "use x", TIP), "timers: Use x")  # tip: upper-case first word
        self.assertEqual(pr.subject("net: tg3", "use x", NET_NEXT), "net: tg3: use x")


class Postings(unittest.TestCase):
    def test_netdev_postings_name_their_tree(self):
        self.assertEqual(pr.posting_subject_prefix(NET_NEXT, False), "PATCH net-next")
        self.assertEqual(pr.posting_subject_prefix(NET_NEXT, True), "DRAFT PATCH net-next")
        self.assertEqual(pr.posting_subject_prefix(TIP, False), "PATCH")
        self.assertEqual(pr.MAX_POSTING, 15)


if __name__ == "__main__":
    unittest.main()
