# SPDX-License-Identifier: GPL-2.0-only
"""What a posting may say and to whom: the subsystem policy on standalone
clean-ups (held for netdev, with the document that says so; fixes still
posted), each campaign background said once a cover letter, each person
once in To/Cc, and the boot claim of a cover letter limited to the files
the boot kernels had built in."""
import itertools
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import helpers
helpers.put_tools_on_path()
from y2038lib.common import Y2038Error, work_dir
from y2038lib.engine.rules import CAMPAIGN_ORDER
from y2038lib.posting import covers, mainline_fixes, maintainers, posting_rules as pr, report, series
from y2038lib.records import BootResult, HeldCleanup, Patch, Posting, SeriesResults
from y2038lib.verification import boot

KORG = pr.KERNEL_ORG
NET_NEXT = KORG + "netdev/net-next.git"
SRC_612 = work_dir() / "linux-source-6.12" / "unpacked" / "linux-source-6.12"


def group(path: str, campaign: str, tree: str = NET_NEXT) -> dict:
    return {"tree": tree, "files": [path], "prefix": pr.subject_prefix(path), "campaign": campaign,
            "subsystem": "NETWORKING DRIVERS", "fix": campaign == "y2038-fixes", "sites": 1, "recipients": [],
            "rules": [{"path": f"cocci/{campaign}/some_rule.cocci", "sites": 1}]}


def flat(text: str) -> str:
    return " ".join(text.split())


class CleanupPolicy(unittest.TestCase):
    def test_a_netdev_cleanup_is_held_and_a_netdev_fix_posted(self):
        groups = [group("drivers/net/ethernet/cadence/macb_ptp.c", "ktime-direct"),
                  group("net/sunrpc/auth_gss/gss_krb5_unseal.c", "y2038-fixes", KORG + "netdev/net.git"),
                  group("drivers/net/wireless/ath/wil6210/wmi.c", "ktime-direct",
                        KORG + "wireless/wireless-next.git"),
                  group("drivers/rtc/rtc-meson-vrtc.c", "ktime-direct", KORG + "abelloni/linux.git")]
        posted, held = series.hold_cleanups(groups, "6.12.118")
        self.assertEqual([g["files"][0] for g in posted], ["net/sunrpc/auth_gss/gss_krb5_unseal.c",
                                                          "drivers/rtc/rtc-meson-vrtc.c"])
        # wireless has no profile of its own: NETWORKING DRIVERS' (netdev's) covers its files
        self.assertEqual([(h.prefix, h.files, h.rules, h.document, h.section) for h in held],
                         [("net: macb", ["drivers/net/ethernet/cadence/macb_ptp.c"],
                           ["cocci/ktime-direct/some_rule.cocci"], "Documentation/process/maintainer-netdev.rst",
                           "Clean-up patches"),
                          ("wifi: wil6210", ["drivers/net/wireless/ath/wil6210/wmi.c"],
                           ["cocci/ktime-direct/some_rule.cocci"], "Documentation/process/maintainer-netdev.rst",
                           "Clean-up patches")])
        self.assertIn("Netdev discourages patches which perform simple clean-ups", held[0].says)

    def test_a_stable_trees_cleanups_are_held_and_its_fixes_posted(self):
        """An older tree than the newest packaged one is a stable series':
        stable takes fixes only, so every clean-up is held, whatever its tree."""
        groups = [group("drivers/rtc/rtc-meson-vrtc.c", "ktime-direct", KORG + "abelloni/linux.git"),
                  group("net/sunrpc/auth_gss/gss_krb5_unseal.c", "y2038-fixes", KORG + "cel/linux.git")]
        posted, held = series.hold_cleanups(groups, "6.1.192")  # the fix's code is gone upstream
        self.assertEqual([g["files"][0] for g in posted], ["net/sunrpc/auth_gss/gss_krb5_unseal.c"])
        self.assertEqual([(h.files, h.document) for h in held],
                         [(["drivers/rtc/rtc-meson-vrtc.c"], "Documentation/process/stable-kernel-rules.rst")])
        self.assertFalse(pr.posted("cleanup", KORG + "abelloni/linux.git", "6.1.192"))
        self.assertTrue(pr.posted("cleanup", KORG + "abelloni/linux.git", "6.12.118"))
        self.assertTrue(pr.posted("cleanup", KORG + "abelloni/linux.git", "6.19.0"))  # a maintainer's checkout

    def test_a_stable_trees_fix_for_a_bug_mainline_has_goes_upstream_first(self):
        fix = group("kernel/events/core.c", "y2038-fixes", KORG + "tip/tip.git")
        posted, held = series.hold_cleanups([fix], "6.1.192", lambda g: True)
        self.assertEqual((posted, [h.says for h in held]), ([], [pr.UPSTREAM_FIRST.says]))
        posted, held = series.hold_cleanups([fix], "6.12.118", lambda g: True)  # the newest tree posts it
        self.assertEqual((len(posted), held), (1, []))
        self.assertEqual(len(series.hold_cleanups([fix], "6.1.192", lambda g: False)[0]), 1)

    def test_a_fix_mainline_made_since_is_held_for_a_stable_backport(self):
        """stmmac's get_ptptime(): mainline fixed it in 7b7491372f8e after
        6.12 was cut; a fix of another function of the file is no such fix."""
        path = "drivers/net/ethernet/stmicro/stmmac/stmmac_hwtstamp.c"
        before = (b"static void get_ptptime(void __iomem *ptpaddr, u64 *ptp_time)\n{\n\tu64 ns;\n\n"
                  b"\tns += readl(ptpaddr + PTP_ATSR) * NSEC_PER_SEC;\n}\n\nstatic void other(void)\n{\n"
                  b"\tx = readl(a) * NSEC_PER_SEC;\n}\n")
        in_ptptime = before.replace(b"\tns += readl", b"\tns += (u64)readl")
        in_other = before.replace(b"\tx = readl", b"\tx = (u64)readl")
        self.assertEqual(mainline_fixes.fixed_in_mainline({path: (before, in_ptptime)}).commit, "7b7491372f8e")
        self.assertIsNone(mainline_fixes.fixed_in_mainline({path: (before, in_other)}))
        self.assertIsNone(mainline_fixes.fixed_in_mainline({path: (before, in_ptptime.replace(
            b"\tx = readl", b"\tx = (u64)readl"))}))  # and another function too: not all of it is upstream
        fix = group(path, "y2038-fixes", KORG + "netdev/net.git")
        for version in ("6.12.118", "6.1.192"):
            posted, held = series.hold_cleanups([fix], version, lambda g: True,
                                                lambda g: mainline_fixes.KNOWN[0])
            self.assertEqual(posted, [])
            self.assertEqual((held[0].section, held[0].fixed_by[:12]), ("Option 3", "7b7491372f8e"))
        results = SeriesResults(version="6.12.118", baseline="0" * 40, draft=True, source="linux-source-6.12",
                                campaigns=["y2038-fixes"], postings=[], patches=[], held=held)
        with tempfile.TemporaryDirectory() as tmp:
            markdown = flat(report.render_markdown(Path(tmp), results))
        self.assertIn('Mainline has fixed this since: 7b7491372f8e ("net: stmmac: fix multiplication overflow when '
                      'reading timestamp"), Linux 6.15;', markdown)
        self.assertIn("Linux 6.12.118 still has the bug: ask the stable maintainers to backport that commit", markdown)

    def test_a_32bit_fix_in_code_only_64bit_machines_run_is_held(self):
        """wave5's vpu_poll_interval * NSEC_PER_MSEC wraps on 32-bit machines,
        but VIDEO_WAVE_VPU depends on ARCH_K3 (arm64) || COMPILE_TEST: no
        machine the driver runs on has the bug.  A fix of a bug of every
        machine (no '// Machines: 32-bit') is posted whatever its Kconfig."""
        if not SRC_612.exists():
            self.skipTest("the 6.12 tree is not unpacked (tools/y2038 tree --kver 6.12)")
        tree = mock.Mock(src=SRC_612)
        wave5 = dict(group("drivers/media/platform/chips-media/wave5/wave5-vpu.c", "y2038-fixes", KORG + "media"),
                     rules=[{"path": "cocci/y2038-fixes/ns_product_32.cocci", "sites": 1}])
        workqueue = dict(wave5, files=["kernel/workqueue.c"])
        wallclock = dict(wave5, rules=[{"path": "cocci/y2038-fixes/wallclock_s32_local.cocci", "sites": 1}])
        posted, held = series.hold_cleanups([wave5, workqueue, wallclock], "6.12.118",
                                            sixty_four_bit_only=lambda g: series.sixty_four_bit_only(tree, g))
        self.assertEqual([g["files"] for g in posted], [["kernel/workqueue.c"], wave5["files"]])
        self.assertEqual((held[0].document, held[0].section, held[0].machines),
                         ("drivers/media/platform/chips-media/wave5/Kconfig", "config VIDEO_WAVE_VPU", "arm64"))
        results = SeriesResults(version="6.12.118", baseline="0" * 40, draft=True, source="linux-source-6.12",
                                campaigns=["y2038-fixes"], postings=[], patches=[], held=held)
        with tempfile.TemporaryDirectory() as tmp:
            markdown = flat(report.render_markdown(Path(tmp), results))
        self.assertIn("A fix of 32-bit arithmetic in code that only 64-bit machines run (arm64; "
                      "drivers/media/platform/chips-media/wave5/Kconfig, config VIDEO_WAVE_VPU: \"depends on "
                      "V4L_MEM2MEM_DRIVERS && VIDEO_DEV && OF && (ARCH_K3 || COMPILE_TEST)\"", markdown)

    def test_mainline_still_has_the_bug(self):
        """Same function, same faulty expression (the code around it may
        have changed: cpuctx became cpc); not when the function is gone or
        already has the fixed form."""
        before = ("static int\nstore(struct x *x)\n{\n\tcpuctx->iv = ns_to_ktime(NSEC_PER_MSEC * timer);\n"
                  "\treturn 0;\n}\n")
        after = before.replace("NSEC_PER_MSEC * timer", "(s64)timer * NSEC_PER_MSEC")
        newer = {"still": before.replace("cpuctx", "cpc"), "fixed": after.replace("cpuctx", "cpc"),
                 "gone": "static int\nother(void)\n{\n\treturn NSEC_PER_MSEC * timer;\n}\n"}
        # fixed upstream, though the faulty text is still elsewhere in the function (a comment)
        newer["fixed, text left"] = newer["fixed"].replace("\treturn 0;", "\t/* NSEC_PER_MSEC * timer */\n\treturn 0;")
        for case, expected in (("still", True), ("fixed", False), ("fixed, text left", False), ("gone", False)):
            with mock.patch.object(series.fixes, "newer_file", return_value=newer[case]):
                self.assertEqual(series.fixes.mainline_has("f.c", before, after), expected, case)
        with mock.patch.object(series.fixes, "newer_file", return_value=None):
            self.assertFalse(series.fixes.mainline_has("f.c", before, after))

    def test_the_stable_rules_say_what_the_policy_quotes(self):
        if not SRC_612.is_dir():
            self.skipTest(f"{SRC_612}: not unpacked")
        text = flat((SRC_612 / pr.STABLE_TREE.document).read_text())
        self.assertIn(flat(pr.STABLE_TREE.section), text)
        for part in pr.STABLE_TREE.says.split("[...]") + [pr.UPSTREAM_FIRST.says]:
            self.assertIn(flat(part), text)

    def test_the_table_says_what_its_documents_say(self):
        """Each quote is in its document, under its section, in Linux 6.12;
        a document recorded as saying nothing on clean-ups does not name them."""
        if not SRC_612.is_dir():
            self.skipTest(f"{SRC_612}: not unpacked (tools/y2038 tree with KVER=6.12)")
        for policy in pr.CLEANUP_POLICIES:
            text = (SRC_612 / policy.document).read_text()
            if policy.says == "nothing on clean-ups":
                self.assertIsNone(re.search(r"clean-?ups?\b", text, re.I), policy.document)
                continue
            heading = re.search(rf"^{re.escape(policy.section)}\n([-~=+^])\1+\n", text, re.M)
            self.assertIsNotNone(heading, (policy.document, policy.section))
            rest = text[heading.end():]
            level = heading.group(1)
            section = rest[:m.start()] if (m := re.search(rf"^\S.*\n{re.escape(level)}+\n", rest, re.M)) else rest
            for part in policy.says.split("[...]"):
                self.assertIn(flat(part), flat(section), policy.document)

    def test_maintainers_names_the_netdev_profile_for_the_held_trees(self):
        if not SRC_612.is_dir():
            self.skipTest(f"{SRC_612}: not unpacked")
        sections = (SRC_612 / "MAINTAINERS").read_text().split("\n\n")
        held_trees = {t for p in pr.CLEANUP_POLICIES if not p.posted for t in p.trees}
        netdev_trees = set()
        for name in ("NETWORKING DRIVERS", "NETWORKING [GENERAL]"):
            section = maintainers.parse_section(next(s for s in sections if s.startswith(name + "\n")))
            self.assertIn(f"P:\t{pr.NETDEV_PROFILE}", next(s for s in sections if s.startswith(name + "\n")))
            netdev_trees |= {pr.canonical(t.split()[1]) for t in section["T"]}
        self.assertLessEqual(netdev_trees, held_trees)
        # the other held trees' sections have no P: of their own (netdev's profile is the one that covers them)
        for chunk in sections:
            section = maintainers.parse_section(chunk)
            if {pr.canonical(t.split()[1]) for t in section["T"]} & (held_trees - netdev_trees):
                self.assertNotIn("\nP:", chunk, section["name"])

    def test_ports_and_fixes_are_always_posted(self):
        for kind in ("fix", "port"):
            self.assertTrue(pr.posted(kind, NET_NEXT, "6.12.118"))
            self.assertTrue(pr.posted(kind, NET_NEXT, "6.1.192"))
        self.assertFalse(pr.posted("cleanup", NET_NEXT, "6.12.118"))
        self.assertTrue(pr.posted("cleanup", "https://gitlab.freedesktop.org/drm/misc/kernel.git", "6.12.118"))

    def test_review_lists_the_held_cleanups_with_rule_and_source(self):
        held = HeldCleanup(prefix="net: macb", campaign="ktime-direct", subsystem="ATMEL MACB ETHERNET DRIVER",
                           tree=NET_NEXT, files=["drivers/net/ethernet/cadence/macb_ptp.c"],
                           rules=["cocci/ktime-direct/ktime_get_ns.cocci"], sites=1,
                           document=pr.NETDEV_PROFILE, section="Clean-up patches", says="Netdev discourages x.")
        results = SeriesResults(version="6.1.192", baseline="0" * 40, draft=True, source="linux-source-6.1",
                                campaigns=["ktime-direct"], postings=[], patches=[], held=[held])
        with tempfile.TemporaryDirectory() as tmp:
            markdown = report.render_markdown(Path(tmp), results)
            page = report.render_html(Path(tmp), results)
        self.assertIn("## Held: not posted", markdown)
        self.assertIn(f'- {NET_NEXT}: {pr.NETDEV_PROFILE}, "Clean-up patches": "Netdev discourages x."', markdown)
        self.assertIn("  - net: macb (ktime-direct): 1 site in drivers/net/ethernet/cadence/macb_ptp.c; "
                      "rule cocci/ktime-direct/ktime_get_ns.cocci", markdown)
        self.assertIn('id="held"', page)
        self.assertIn("cocci/ktime-direct/ktime_get_ns.cocci", page)
        self.assertIn("Clean-up patches", page)


class SaidOnce(unittest.TestCase):
    def test_no_two_campaigns_say_the_same_thing_in_one_letter(self):
        """Every set of campaigns a posting can hold: no run of
        REPEAT_WORDS words twice in its intro, each background once."""
        campaigns = [c for c in CAMPAIGN_ORDER if (covers.COCCI_DIR / c / "CAMPAIGN").exists()]
        for n in range(1, len(campaigns) + 1):
            for chosen in itertools.combinations(campaigns, n):
                infos = [covers.campaign_info(c) for c in chosen]
                texts = covers.said_once(infos)
                self.assertEqual(len(texts), len(set(texts)), chosen)
                self.assertEqual(sum(t.count("Linux 3.17 made the scalar") for t in texts),
                                 int(bool({"ktime-scalar", "ktime-direct"} & set(chosen))), chosen)

    def test_a_campaign_alone_tells_the_whole_story(self):
        info = covers.campaign_info("ktime-direct")
        self.assertTrue(info["text"].startswith(info["backgrounds"][0]))
        self.assertTrue(info["text"].endswith(info["own"]))

    def test_a_text_said_twice_is_refused(self):
        """The 6.1 net-next covers' case: two campaigns each restating the 3.17 history."""
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("a", "b"):
                (Path(tmp) / name).mkdir()
                (Path(tmp) / name / "CAMPAIGN").write_text(
                    f"Subject: {name}\nKind: cleanup\nLinux 3.17 made the scalar s64 nanosecond ktime_t "
                    f"universal, so {name} goes.\n")
            with mock.patch.object(covers, "COCCI_DIR", Path(tmp)):
                infos = [covers.campaign_info("a"), covers.campaign_info("b")]
                with self.assertRaisesRegex(Y2038Error, "both say .*Background:"):
                    covers.said_once(infos)

    def test_a_missing_background_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "a").mkdir()
            (Path(tmp) / "a" / "CAMPAIGN").write_text("Subject: a\nBackground: nowhere\nText.\n")
            with mock.patch.object(covers, "COCCI_DIR", Path(tmp)):
                with self.assertRaisesRegex(Y2038Error, "Background: nowhere"):
                    covers.campaign_info("a")


class Addressees(unittest.TestCase):
    def test_a_person_is_named_once_across_to_and_cc(self):
        # 6.1's net-next posting: Michael Chan under BNXT_EN and under TG3, with two addresses
        lines = ("Michael Chan <michael.chan@broadcom.com> (maintainer:BROADCOM BNXT_EN 50 GIGABIT ETHERNET DRIVER)",
                 "netdev@vger.kernel.org (open list:NETWORKING DRIVERS)",
                 "Jane Doe <jane@example.org> (reviewer:A DRIVER)",
                 "Michael Chan <mchan@broadcom.com> (maintainer:BROADCOM TG3 GIGABIT ETHERNET DRIVER)",
                 "jane doe <jane.doe@example.com> (maintainer:ANOTHER DRIVER)",
                 "netdev@vger.kernel.org (open list:NETWORKING [GENERAL])",
                 '"David S. Miller" <davem@davemloft.net> (maintainer:NETWORKING DRIVERS)')
        to, cc = series.split_recipients(maintainers.recipient(l) for l in lines)
        self.assertEqual(to, ["Michael Chan <michael.chan@broadcom.com>", "jane doe <jane.doe@example.com>",
                              '"David S. Miller" <davem@davemloft.net>'])
        self.assertEqual(cc, ["netdev@vger.kernel.org"])


def patch(name: str, files: list) -> Patch:
    return Patch(name=name, campaign="ktime-direct", subsystem="S", tree=NET_NEXT, files=files, rules=[], sites=1,
                 rewrites=1, prefix="p", recipients=[], commit="0" * 40, site_lines={},
                 checkpatch={"errors": [], "warnings": []})


def booted(compiled) -> BootResult:
    return BootResult(verdict="pass", tests=[{"name": "init.x", "result": "pass"}], problems=[], seconds=1.0,
                      build_seconds=1.0, compiled=compiled)


class BootClaim(unittest.TestCase):
    FILES = ["drivers/net/ethernet/cadence/macb_ptp.c", "kernel/time/timer_list.c"]

    def results(self, boots) -> SeriesResults:
        patches = [patch("t/0001-a.patch", [self.FILES[0]]), patch("t/0002-b.patch", [self.FILES[1]])]
        posting = Posting(dir="t", tree=NET_NEXT, prefix="p", part=1, of=1, route=[], to=[], cc=[],
                          patches=[p.name for p in patches])
        return SeriesResults(version="6.1.192", baseline="0" * 40, draft=True, source="s", campaigns=["ktime-direct"],
                             postings=[posting], patches=patches, boot=boots)

    def test_a_posting_none_of_whose_files_was_built_in(self):
        results = self.results({"x86_64": booted({"built_in": ["fs/other.c"], "module": []}),
                                "arm": booted({"built_in": [], "module": [self.FILES[0]]})})
        text = flat(covers.boot_section(results, results.patches[:1]))
        self.assertIn("None of this posting's 1 file is built into the boot kernels (some are built as modules, "
                      "never loaded): these boots did not run its changes and say nothing about them.", text)
        # one paragraph about the whole series' kernel: no suite list that reads as this posting's
        self.assertIn("Boot verification of the whole 2-patch series, this posting's among them", text)
        self.assertIn("arm PASS, x86_64 PASS.", text)
        self.assertNotIn("passed,", text)

    def test_the_files_each_boot_kernel_had_built_in(self):
        results = self.results({"x86_64": booted({"built_in": self.FILES[1:], "module": []}),
                                "arm": booted({"built_in": self.FILES[1:], "module": []})})
        text = flat(covers.boot_section(results, results.patches))
        self.assertIn("Built into the arm and x86_64 boot kernels: kernel/time/timer_list.c.", text)
        self.assertIn("The other 1 file is built into no boot kernel.", text)
        self.assertNotIn("say nothing", text)

    def test_a_fix_checks_options_in_a_boot_kernel_are_named(self):
        """The checks of the series' fixes are configured into the boot
        kernels of their machine: the cover says what else the kernel has."""
        x86 = booted({"built_in": self.FILES[:1], "module": []})
        x86.config = ["boot-tests/configs/base.config", "boot-tests/configs/x86_64.config",
                      "boot-tests/fix-checks/gss-krb5-v1-expiry/config"]
        results = self.results({"x86_64": x86, "arm": booted({"built_in": [], "module": []})})
        self.assertIn("(QEMU TCG, tinyconfig + boot-tests/configs + boot-tests/fix-checks/gss-krb5-v1-expiry/config "
                      "on x86_64, RTC at", flat(covers.boot_section(results, results.patches)))
        results = self.results({"x86_64": booted({"built_in": [], "module": []})})  # no config recorded
        self.assertIn("(QEMU TCG, tinyconfig + boot-tests/configs, RTC at",
                      flat(covers.boot_section(results, results.patches)))

    def test_an_older_boot_record_claims_nothing_about_the_files(self):
        results = self.results({"x86_64": booted(None)})
        self.assertIn("not recorded", covers.boot_section(results, results.patches))

    @unittest.skipUnless(shutil.which("ar"), "binutils' ar")
    def test_the_boot_build_records_what_it_linked_in(self):
        """A planted build dir: one object in the thin vmlinux.a (as kbuild
        makes it, absolute member paths), one built but not linked in, one
        not built."""
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            for obj in ("kernel/time/timer_list.o", "drivers/input/input.o"):
                (out / obj).parent.mkdir(parents=True, exist_ok=True)
                (out / obj).write_bytes(b"")
            subprocess.run(["ar", "cDPrST", str(out / "vmlinux.a"), str(out / "kernel/time/timer_list.o")],
                           check=True)
            found = boot.changed_files_built(out, ["kernel/time/timer_list.c", "drivers/input/input.c",
                                                   "drivers/net/ethernet/cadence/macb_ptp.c", "include/linux/x.h"])
        self.assertEqual(found, {"built_in": ["kernel/time/timer_list.c"], "module": ["drivers/input/input.c"]})


if __name__ == "__main__":
    unittest.main()
