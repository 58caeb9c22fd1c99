# SPDX-License-Identifier: GPL-2.0-only
"""posting_rules: the subject prefix of every case the review of the 6.1
series named, and how a tree's postings are marked."""
import unittest

import helpers
helpers.put_tools_on_path()
from y2038lib.engine import layout
from y2038lib.posting import maintainers, posting_rules as pr
from y2038lib.posting import series
NET_NEXT = "git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git"
TIP = "git://git.kernel.org/pub/scm/linux/kernel/git/tip/tip.git"


class SubjectPrefixes(unittest.TestCase):
    CASES = {
        "drivers/input/keyboard/adp5588-keys.c": "Input: adp5588-keys -",
        "drivers/input/input.c": "Input",
        "drivers/md/dm-stats.c": "dm stats",
        "drivers/dma/dmatest.c": "dmaengine: dmatest",
        "drivers/gpu/drm/msm/disp/dpu1/dpu_crtc.c": "drm/msm/dpu",
        "drivers/media/pci/bt8xx/bttv-driver.c": "media: bttv",
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
        "kernel/trace/blktrace.c": "blktrace",
        "drivers/net/ethernet/broadcom/tg3.c": "tg3",
        "drivers/net/ethernet/broadcom/bnxt/bnxt_ptp.c": "bnxt_en",
        "drivers/net/ethernet/marvell/octeontx2/af/ptp.c": "octeontx2-af",
        "drivers/net/ethernet/ti/am65-cpts.c": "net: ethernet: ti: am65-cpts",
        "drivers/net/wireless/broadcom/brcm80211/brcmfmac/cfg80211.c": "wifi: brcmfmac",
        "net/sched/sch_cake.c": "net/sched: sch_cake",
        "net/rxrpc/rtt.c": "rxrpc",
        "net/sunrpc/auth_gss/gss_krb5_unseal.c": "SUNRPC",
        "net/core/pktgen.c": "pktgen",
        "drivers/net/ethernet/cadence/macb_ptp.c": "net: macb",
        "drivers/net/ethernet/mellanox/mlx5/core/lib/clock.c": "net/mlx5",
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
        "sound/soc/sof/sof-client-ipc-flood-test.c": "ASoC: SOF",  # not "ALSA: soc"
        "sound/soc/codecs/wm8994.c": "ASoC: wm8994",
    }

    def test_every_named_case(self):
        for path, prefix in self.CASES.items():
            self.assertEqual(pr.subject_prefix(path), prefix, path)

    def test_subject_forms(self):
        self.assertEqual(pr.subject("Input: adp5588-keys -", "use x", ""), "Input: adp5588-keys - use x")
        self.assertEqual(pr.subject("hwmon: (bt1-pvt)", "use x", ""), "hwmon: (bt1-pvt) Use x")
        self.assertEqual(pr.subject("timers", "use x", TIP), "timers: Use x")  # tip: upper-case first word
        self.assertEqual(pr.subject("KVM: x86", "use x", ""), "KVM: x86: Use x")  # so is KVM's
        self.assertEqual(pr.subject("scsi: lpfc", "use x", ""), "scsi: lpfc: Use x")  # as SCSI's log has it
        self.assertEqual(pr.subject("workqueue", "fix x", ""), "workqueue: Fix x")  # as Tejun's log has it
        self.assertEqual(pr.subject("ASoC: SOF", "use x", ""), "ASoC: SOF: Use x")
        self.assertEqual(pr.subject("net: stmmac", "use x", ""), "net: stmmac: use x")
        self.assertEqual(pr.subject("net: tg3", "use x", NET_NEXT), "net: tg3: use x")


class Postings(unittest.TestCase):
    def test_netdev_postings_name_their_tree(self):
        self.assertEqual(pr.posting_subject_prefix(NET_NEXT, False), "PATCH net-next")
        self.assertEqual(pr.posting_subject_prefix(NET_NEXT, True), "DRAFT PATCH net-next")
        self.assertEqual(pr.posting_subject_prefix(TIP, False), "PATCH")
        self.assertEqual(pr.MAX_POSTING, 15)



def section(text: str) -> dict:
    return maintainers.parse_section(text)


KORG = "git://git.kernel.org/pub/scm/linux/kernel/git/"
THE_REST = section("THE REST\nM:\tLinus Torvalds <torvalds@linux-foundation.org>\nL:\tlinux-kernel@vger.kernel.org\n"
                   "T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git")
NETWORKING = section("NETWORKING DRIVERS\nM:\tJakub Kicinski <kuba@kernel.org>\nL:\tnetdev@vger.kernel.org\n"
                     f"T:\tgit {KORG}netdev/net.git\nT:\tgit {KORG}netdev/net-next.git")


class Routing(unittest.TestCase):
    """Every misrouted posting the review of the 6.1 series named, with the
    sections get_maintainer.pl --sections gives for the file in 6.1."""

    def route(self, path, *sections, people=None):
        return pr.route(path, list(sections) + [THE_REST], people or {})[0]

    def test_block_has_one_tree(self):  # BLKIO names Jens Axboe's tree by his own server's name
        blkio = section("CONTROL GROUP - BLOCK IO CONTROLLER (BLKIO)\nM:\tTejun Heo <tj@kernel.org>\n"
                        "L:\tlinux-block@vger.kernel.org\nT:\tgit git://git.kernel.dk/linux-block")
        block = section(f"BLOCK LAYER\nM:\tJens Axboe <axboe@kernel.dk>\nT:\tgit {KORG}axboe/linux-block.git")
        self.assertEqual(self.route("block/blk-cgroup.c", blkio, block), KORG + "axboe/linux-block.git")
        self.assertEqual(self.route("block/blk-wbt.c", block), KORG + "axboe/linux-block.git")

    def test_perf_kernel_side_goes_through_tip(self):  # the perf tools' trees take tools/ only
        perf = section(f"PERFORMANCE EVENTS SUBSYSTEM\nM:\tPeter Zijlstra <peterz@infradead.org>\n"
                       f"T:\tgit {KORG}tip/tip.git perf/core\nT:\tgit {KORG}perf/perf-tools.git perf-tools\n"
                       f"T:\tgit {KORG}perf/perf-tools-next.git perf-tools-next")
        self.assertEqual(self.route("kernel/events/core.c", perf), KORG + "tip/tip.git")
        self.assertEqual(self.route("tools/perf/builtin-top.c", perf), KORG + "perf/perf-tools-next.git")
        self.assertEqual(pr.subject_prefix("kernel/events/core.c"), "perf/core")

    def test_usb_has_one_tree(self):  # Felipe Balbi's tree no longer takes patches
        dwc2 = section(f"DESIGNWARE USB2 DRD IP DRIVER\nM:\tMinas Harutyunyan <hminas@synopsys.com>\n"
                       f"T:\tgit {KORG}balbi/usb.git")
        usb = section(f"USB SUBSYSTEM\nM:\tGreg Kroah-Hartman <gregkh@linuxfoundation.org>\nT:\tgit {KORG}gregkh/usb.git")
        self.assertEqual(self.route("drivers/usb/dwc2/core.c", dwc2, usb), KORG + "gregkh/usb.git")

    def test_no_tree_goes_to_the_last_resort_not_to_linus(self):
        ocfs2 = section("ORACLE CLUSTER FILESYSTEM 2 (OCFS2)\nM:\tMark Fasheh <mark@fasheh.com>\n"
                        "L:\tocfs2-devel@oss.oracle.com (moderated for non-subscribers)")
        self.assertEqual(self.route("fs/ocfs2/cluster/netdebug.c", ocfs2), KORG + "akpm/mm.git")
        self.assertEqual(self.route("init/main.c"), KORG + "akpm/mm.git")

    def test_ptp_goes_through_net_next(self):
        ptp = section("PTP HARDWARE CLOCK SUPPORT\nM:\tRichard Cochran <richardcochran@gmail.com>\n"
                      "L:\tnetdev@vger.kernel.org")
        self.assertEqual(self.route("drivers/ptp/ptp_idt82p33.c", ptp), KORG + "netdev/net-next.git")

    def test_kernel_power_goes_with_its_maintainers_tree(self):
        rafael = '"Rafael J. Wysocki" <rafael@kernel.org>'
        suspend = section(f"SUSPEND TO RAM\nM:\t{rafael}\nL:\tlinux-pm@vger.kernel.org")
        people = {rafael: {f"git {KORG}rafael/linux-pm.git": 5, f"git {KORG}lenb/linux.git": 1}}
        self.assertEqual(self.route("kernel/power/suspend_test.c", suspend, people=people), KORG + "rafael/linux-pm.git")

    def test_a_net_driver_is_not_sent_to_its_arm_platform_tree(self):
        gemini = section("ARM/CORTINA SYSTEMS GEMINI ARM ARCHITECTURE\nM:\tHans Ulli Kroll <ulli.kroll@googlemail.com>\n"
                         "T:\tgit git://github.com/ulli-kroll/linux.git")
        self.assertEqual(self.route("drivers/net/ethernet/cortina/gemini.c", gemini, NETWORKING),
                         KORG + "netdev/net-next.git")
        self.assertEqual(self.route("arch/arm/mach-gemini/board.c", gemini), "git://github.com/ulli-kroll/linux.git")

    def test_git_before_quilt_and_next_before_fixes(self):
        dm = section(f"DEVICE-MAPPER  (LVM)\nM:\tAlasdair Kergon <agk@redhat.com>\n"
                     f"T:\tgit {KORG}device-mapper/linux-dm.git\nT:\tquilt http://people.redhat.com/agk/patches/linux/editing/")
        self.assertEqual(self.route("drivers/md/dm-stats.c", dm), KORG + "device-mapper/linux-dm.git")
        intel = section(f"INTEL ETHERNET DRIVERS\nM:\tTony Nguyen <anthony.l.nguyen@intel.com>\n"
                        f"T:\tgit {KORG}tnguy/net-queue.git\nT:\tgit {KORG}tnguy/next-queue.git")
        self.assertEqual(self.route("drivers/net/ethernet/intel/igc/igc_main.c", intel, NETWORKING),
                         KORG + "tnguy/next-queue.git")

    def test_scsi_goes_to_the_queue(self):
        scsi = section(f"SCSI SUBSYSTEM\nM:\t\"James E.J. Bottomley\" <jejb@linux.ibm.com>\n"
                       f"T:\tgit {KORG}jejb/scsi.git\nT:\tgit {KORG}mkp/scsi.git")
        self.assertEqual(self.route("drivers/scsi/lpfc/lpfc_init.c", scsi), KORG + "mkp/scsi.git")

    def test_a_drm_driver_without_a_tree_goes_to_drm_misc(self):
        tilcdc = section("DRM DRIVERS FOR TI LCDC\nM:\tJyri Sarha <jyri.sarha@iki.fi>\nL:\tdri-devel@lists.freedesktop.org")
        drm = section("DRM DRIVERS\nM:\tDavid Airlie <airlied@gmail.com>\nT:\tgit git://anongit.freedesktop.org/drm/drm")
        self.assertEqual(self.route("drivers/gpu/drm/tilcdc/tilcdc_crtc.c", tilcdc, drm),
                         "git://anongit.freedesktop.org/drm/drm-misc")

    def test_one_spelling_per_tree(self):
        self.assertEqual(pr.canonical("https://git.kernel.org/pub/scm/linux/kernel/git/rafael/linux-pm"),
                         KORG + "rafael/linux-pm.git")

    def test_folder_names_are_the_trees_and_distinct(self):
        urls = {KORG + "abelloni/linux.git": "abelloni-linux", "git://github.com/ulli-kroll/linux.git": "ulli-kroll-linux",
                "https://gitlab.freedesktop.org/agd5f/linux.git": "agd5f-linux",
                "https://gitlab.freedesktop.org/drm/i915/kernel.git": "drm-i915-kernel",
                "https://gitlab.freedesktop.org/drm/misc/kernel.git": "drm-misc-kernel",
                "git://git.kernel.org/pub/scm/virt/kvm/kvm.git": "virt-kvm-kvm",
                "git://anongit.freedesktop.org/drm-intel": "drm-intel"}
        for url, name in urls.items():
            self.assertEqual(pr.slug(url), name, url)


def group(path: str, tree: str = KORG + "netdev/net-next.git", fix: bool = False) -> dict:
    return {"tree": tree, "files": [path], "prefix": pr.subject_prefix(path), "recipients": [], "fix": fix}


class Splitting(unittest.TestCase):
    def test_a_large_tree_is_split_between_driver_families(self):
        paths = [f"drivers/net/ethernet/amd/xgbe/f{n}.c" for n in range(6)] + \
                [f"drivers/net/ethernet/mellanox/mlx5/f{n}.c" for n in range(7)] + \
                [f"drivers/net/ethernet/ti/f{n}.c" for n in range(4)]
        postings = series.split_postings([group(p) for p in paths])
        self.assertEqual([len(p["groups"]) for p in postings], [13, 4])
        self.assertEqual([p["dir"] for p in postings], ["netdev-net-next", "netdev-net-next-part2"])
        self.assertEqual([(p["part"], p["of"]) for p in postings], [(1, 2), (2, 2)])

    def test_fixes_are_a_posting_of_their_own_before_the_cleanups(self):
        nfs = KORG + "trondmy/linux-nfs.git"
        groups = [group("net/sunrpc/auth_gss/gss_krb5_unseal.c", nfs, fix=True), group("fs/nfs/inode.c", nfs)]
        postings = series.split_postings(groups)
        self.assertEqual([(p["dir"], p["fix"], len(p["groups"])) for p in postings],
                         [("fixes-trondmy-linux-nfs", True, 1), ("trondmy-linux-nfs", False, 1)])

    def test_a_family_larger_than_a_posting_is_cut(self):
        postings = series.split_postings([group(f"drivers/net/ethernet/amd/f{n}.c") for n in range(17)])
        self.assertEqual([len(p["groups"]) for p in postings], [15, 2])

    def test_to_and_cc_from_the_roles(self):
        g = group("drivers/rtc/rtc-x.c")
        g["recipients"] = [maintainers.recipient(l) for l in (
            "Alessandro Zummo <a.zummo@towertech.it> (maintainer:REAL TIME CLOCK (RTC) SUBSYSTEM)",
            "Jane Doe <jane@example.org> (reviewer:RTC)",
            "linux-rtc@vger.kernel.org (open list:REAL TIME CLOCK (RTC) SUBSYSTEM)",
            "Alex Deucher <alexander.deucher@amd.com> (supporter:RADEON and AMDGPU DRM DRIVERS)")]
        self.assertEqual(series.addressees([g]), (
            ["Alessandro Zummo <a.zummo@towertech.it>", "Alex Deucher <alexander.deucher@amd.com>"],
            ["Jane Doe <jane@example.org>", "linux-rtc@vger.kernel.org"]))


class Addressing(unittest.TestCase):
    """series.address(): recipients are asked for (a get_maintainer.pl run a
    file) only for the groups it is given, the posted ones."""

    class Asked:
        tree = type("Tree", (), {"version": "6.12.1"})()

        def __init__(self):
            self.files = []

        def recipients(self, relpath, route):
            self.files.append(relpath)
            return [maintainers.recipient(f"M <m@{relpath}> (maintainer:{route['subsystem']})"),
                    maintainers.recipient("list@example.org (open list:SHARED)")]

    def test_only_the_given_groups_files_are_asked_for_and_each_address_once(self):
        posted = dict(group("drivers/rtc/a.c"), files=["drivers/rtc/a.c", "drivers/rtc/b.c"],
                      routes={f: {"subsystem": "RTC", "tree": "t", "route": "r"}
                              for f in ("drivers/rtc/a.c", "drivers/rtc/b.c")})
        asked = self.Asked()
        series.address([posted], asked)
        self.assertEqual(sorted(asked.files), ["drivers/rtc/a.c", "drivers/rtc/b.c"])
        self.assertEqual([r["address"] for r in posted["recipients"]],
                         ["M <m@drivers/rtc/a.c>", "list@example.org", "M <m@drivers/rtc/b.c>"])


class Layout(unittest.TestCase):
    # drivers/rtc/rtc-meson-vrtc.c in 6.1, as the ktime-direct campaign changes it
    BEFORE = (b"\t\tunsigned long local_time;\n\t\tlong alarm_secs;\n\t\tstruct timespec64 time;\n\n"
              b"\t\tktime_get_real_ts64(&time);\n\t\tlocal_time = time.tv_sec;\n\n\t\tdev_dbg(dev, \"x\");\n")
    SPATCH = (b"\t\tunsigned long local_time;\n\t\tlong alarm_secs;\n"
              b"\t\tlocal_time = ktime_get_real_seconds();\n\n\t\tdev_dbg(dev, \"x\");\n")

    def test_blank_line_after_declarations_is_kept(self):
        self.assertEqual(layout.keep_blank_after_declarations(self.BEFORE, self.SPATCH),
                         b"\t\tunsigned long local_time;\n\t\tlong alarm_secs;\n\n"
                         b"\t\tlocal_time = ktime_get_real_seconds();\n\n\t\tdev_dbg(dev, \"x\");\n")

    def test_no_blank_line_where_no_declaration_is_left(self):
        before = b"{\n\tstruct timespec64 ts;\n\n\tktime_get_ts64(&ts);\n\treturn ts.tv_sec;\n}\n"
        after = b"{\n\treturn ktime_get_seconds();\n}\n"
        self.assertEqual(layout.keep_blank_after_declarations(before, after), after)

    def test_statements_are_not_declarations(self):
        for line in (b"\treturn ret;\n", b"\tgoto out;\n", b"\tx = y;\n", b"\tfoo(bar);\n"):
            self.assertIsNone(layout.DECLARATION.match(line), line)
        for line in (b"\tstruct timespec64 ts;\n", b"\tu8 buf[4];\n", b"\tconst char *name = \"x\";\n"):
            self.assertIsNotNone(layout.DECLARATION.match(line), line)


class Addressees(unittest.TestCase):
    def test_every_maintainer_is_addressed_whatever_the_sections_status(self):
        """An Odd Fixes section's M: is its maintainer (bttv): To, not Cc."""
        for role in ("maintainer", "supporter", "odd fixer", "unknown"):
            line = f"Mauro Carvalho Chehab <mchehab@kernel.org> ({role}:BTTV VIDEO4LINUX DRIVER)"
            self.assertTrue(maintainers.recipient(line)["to"], role)
        for role in ("reviewer", "open list", "moderated list"):
            self.assertFalse(maintainers.recipient(f"A <a@b.c> ({role}:X)")["to"], role)



if __name__ == "__main__":
    unittest.main()
