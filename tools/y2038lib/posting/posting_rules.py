# SPDX-License-Identifier: GPL-2.0-only
"""How the kernel's maintainers want patches posted: the subject prefix of
a changed file, how a posting to a tree is marked and sized, what a cover
letter must say about it, and whether the tree takes standalone clean-ups
at all (CLEANUP_POLICIES, with the profile that says so).

Sources, in this order: Documentation/process/maintainer-netdev.rst
(`[PATCH net-next]`, at most 15 patches a posting), maintainer-tip.rst
('subsys/component:' and an upper-case first word), the KVM and RISC-V
profiles the MAINTAINERS P: lines point to ("KVM: x86:", "RISC-V: KVM:"),
then the forms the subsystems' own git logs use ("Input: <driver> -",
"scsi: ufs: core:", "wifi: mac80211:", "drm/i915:", "iio: <type>: <driver>:").
A prefix names one driver (or one maintainer's driver family): the series
stage puts files of different prefixes in different patches.
"""
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from ..deps import NEWEST_PACKAGED

# (path prefix, subject prefix), the first match wins: most specific first.
# {1}, {2}: the first and second directories below the path prefix (the
# driver's name when there are fewer); {dir}: the file's own directory;
# {drv}: the file's name without extension and without a leading "<dir>-" or
# "<dir>_" (drivers/rtc/rtc-meson-vrtc.c -> meson-vrtc), or without the part
# of its name a prefix ending mid-name matched (drivers/md/dm-stats.c ->
# stats); {family2}: the second directory below the prefix unless it is a
# generic one (common/), else the first, else {drv} up to its first '_'
# (ethernet/cadence/macb_ptp.c -> macb).
PREFIXES = [
    # tip (maintainer-tip.rst: subsys/component)
    ("kernel/time/timekeeping", "timekeeping"),
    ("kernel/time/hrtimer", "hrtimer"),
    ("kernel/time/", "timers"),
    ("kernel/sched/", "sched/{drv}"),
    ("kernel/events/", "perf/{drv}"),
    ("arch/x86/kvm/", "KVM: x86"),
    ("arch/x86/", "x86/{1}"),
    # KVM and RISC-V profiles
    ("arch/mips/kvm/", "KVM: MIPS"),
    ("arch/riscv/kvm/", "RISC-V: KVM"),
    ("arch/arm64/kvm/", "KVM: arm64"),
    ("arch/s390/kvm/", "KVM: s390"),
    ("arch/powerpc/kvm/", "KVM: PPC"),
    ("virt/kvm/", "KVM"),
    ("arch/riscv/", "riscv"),
    ("arch/s390/", "s390/{drv}"),
    ("arch/", "{1}"),
    # networking (maintainer-netdev.rst; wireless and CAN keep their own forms)
    ("net/mac80211/", "wifi: mac80211"),
    ("net/wireless/", "wifi: cfg80211"),
    ("drivers/net/wireless/broadcom/brcm80211/brcmfmac/", "wifi: brcmfmac"),
    ("drivers/net/wireless/", "wifi: {2}"),
    ("drivers/net/can/usb/", "can: {1}"),
    ("drivers/net/can/", "can: {drv}"),
    ("net/can/", "can: {drv}"),
    ("drivers/net/ethernet/intel/", "{1}"),  # Intel wired LAN: "igc:", "e1000e:"
    # drivers whose own git logs use another form than "net: <drv>:"
    ("drivers/net/ethernet/broadcom/bnxt/", "bnxt_en"),
    ("drivers/net/ethernet/broadcom/bnx2x/", "bnx2x"),
    ("drivers/net/ethernet/broadcom/tg3", "tg3"),
    ("drivers/net/ethernet/mellanox/mlx5/", "net/mlx5"),
    ("drivers/net/ethernet/mellanox/mlx4/", "net/mlx4"),
    ("drivers/net/ethernet/marvell/octeontx2/af/", "octeontx2-af"),
    ("drivers/net/ethernet/marvell/octeontx2/nic/", "octeontx2-pf"),
    ("drivers/net/ethernet/chelsio/cxgb4/", "cxgb4"),
    ("drivers/net/ethernet/qlogic/qede/", "qede"),
    ("drivers/net/ethernet/engleder/", "tsnep"),
    ("drivers/net/ethernet/amd/xgbe/", "amd-xgbe"),
    ("drivers/net/ethernet/ti/", "net: ethernet: ti: {drv}"),
    ("drivers/net/wwan/iosm/", "net: wwan: iosm"),
    ("net/sched/sch_", "net/sched: sch_{drv}"),
    ("include/net/pkt_sched", "net/sched"),
    ("net/rxrpc/", "rxrpc"),
    ("net/sunrpc/", "SUNRPC"),  # the NFS and SUNRPC maintainers' own form (git log net/sunrpc)
    ("net/rds/", "rds"),
    ("net/sctp/", "sctp"),
    ("net/core/pktgen", "pktgen"),
    ("drivers/net/ethernet/", "net: {family2}"),
    ("drivers/net/dsa/", "net: dsa: {1}"),
    ("drivers/net/", "net: {1}"),
    ("include/net/", "net: {drv}"),
    ("net/", "net: {1}"),
    ("drivers/ptp/", "ptp: {drv}"),
    # storage
    ("drivers/ufs/core/", "scsi: ufs: core"),
    ("drivers/ufs/", "scsi: ufs: {drv}"),
    ("drivers/scsi/", "scsi: {1}"),
    ("drivers/md/dm-", "dm {drv}"),
    ("drivers/md/", "md"),
    ("drivers/block/", "{1}"),
    ("block/", "block"),
    # graphics and media
    ("drivers/gpu/drm/amd/amdgpu/", "drm/amdgpu"),
    ("drivers/gpu/drm/amd/", "drm/amd/{1}"),
    ("drivers/gpu/drm/nouveau/", "drm/nouveau"),
    ("drivers/gpu/drm/msm/disp/dpu1/", "drm/msm/dpu"),  # the msm sub-drivers' own prefixes
    ("drivers/gpu/drm/msm/disp/mdp5/", "drm/msm/mdp5"),
    ("drivers/gpu/drm/msm/dp/", "drm/msm/dp"),
    ("drivers/gpu/drm/msm/dsi/", "drm/msm/dsi"),
    ("drivers/gpu/drm/msm/adreno/", "drm/msm/adreno"),
    ("drivers/gpu/drm/msm/", "drm/msm"),
    ("drivers/gpu/drm/i915/", "drm/i915"),
    ("drivers/gpu/drm/panel/", "drm/panel: {drv}"),
    ("drivers/gpu/drm/", "drm/{1}"),
    ("drivers/dma-buf/", "dma-buf: {drv}"),
    ("drivers/dma/", "dmaengine: {drv}"),  # not the directory's name: the subsystem's
    ("drivers/media/rc/", "media: rc: {drv}"),
    ("drivers/media/pci/bt8xx/bttv", "media: bttv"),  # the driver's name, not its directory's
    ("drivers/media/", "media: {dir}"),
    # input, iio, usb, misc drivers
    ("drivers/input/input", "Input"),  # the core
    ("drivers/input/", "Input: {drv} -"),
    ("drivers/iio/industrialio-", "iio: core"),
    ("drivers/iio/", "iio: {1}: {drv}"),
    ("drivers/usb/typec/", "usb: typec: {2}"),
    ("drivers/usb/", "usb: {1}"),
    ("drivers/misc/habanalabs/", "habanalabs"),
    ("drivers/accel/habanalabs/", "accel/habanalabs"),
    ("drivers/misc/mei/", "mei"),
    ("drivers/misc/", "misc: {1}"),
    ("drivers/staging/", "staging: {1}"),
    ("drivers/iommu/intel/", "iommu/vt-d"),
    ("drivers/iommu/", "iommu/{drv}"),
    ("drivers/rtc/", "rtc: {drv}"),
    ("drivers/hwmon/", "hwmon: ({drv})"),
    ("drivers/i2c/busses/i2c-", "i2c: {drv}"),
    ("drivers/thermal/", "thermal: {drv}"),
    ("drivers/power/supply/", "power: supply: {drv}"),
    ("drivers/cpufreq/", "cpufreq: {drv}"),
    ("drivers/firmware/", "firmware: {1}: {drv}"),
    ("drivers/ntb/", "ntb: {1}"),
    ("drivers/", "{1}: {drv}"),
    # power management, file systems, the rest
    ("kernel/power/", "PM: {drv}"),
    ("kernel/trace/blktrace", "blktrace"),
    ("kernel/trace/", "tracing"),
    ("kernel/", "{drv}"),
    ("fs/", "{1}"),
    ("mm/", "mm"),
    ("lib/", "lib"),
    ("sound/soc/sof/", "ASoC: SOF"),
    ("sound/soc/", "ASoC: {drv}"),
    ("sound/", "ALSA: {1}"),
]

# directories named for a bus or a role, not for a driver
GENERIC_DIRS = {"spi", "pci", "usb", "i2c", "platform", "common", "core", "lib"}

# kernel/power's files by the names their maintainers use in subjects
PM_COMPONENTS = {"main": "sleep", "suspend": "sleep", "hibernate": "hibernate", "swap": "hibernate",
                 "snapshot": "hibernate", "wakelock": "sleep", "autosleep": "sleep"}


def subject_prefix(relpath: str) -> str:
    """The subject prefix of one changed file, without the trailing ':'
    (Input's form ends in ' -', hwmon's in ')')."""
    path = PurePosixPath(relpath)
    for prefix, template in PREFIXES:
        if not relpath.startswith(prefix):
            continue
        rest = relpath[len(prefix):]
        below = rest.split("/")[:-1]
        if not prefix.endswith("/") and "/" not in rest:
            drv = PurePosixPath(rest).stem  # the prefix ended mid-name: dm-stats.c -> stats
        else:
            drv = path.stem
            for sep in ("-", "_"):
                if drv.startswith(path.parent.name + sep) and len(drv) > len(path.parent.name) + 1:
                    drv = drv[len(path.parent.name) + 1:]
        if prefix == "kernel/power/":
            drv = PM_COMPONENTS.get(drv, drv)
        family = drv.split("_")[0]
        directory = path.parent.name
        if directory in GENERIC_DIRS:  # media/spi/cxd2880-spi.c: the driver, not "spi"
            directory = re.split(r"[_-]", drv)[0]
        vendor_driver = below[1] if len(below) >= 2 and below[1] not in GENERIC_DIRS else \
            (below[0] if len(below) >= 2 else family)
        out = template.replace("{drv}", drv).replace("{dir}", directory).replace("{family2}", vendor_driver)
        for n in (1, 2):
            out = out.replace(f"{{{n}}}", below[n - 1] if len(below) >= n else drv)
        return out
    return path.parts[0]


# Subsystems whose summaries start with an upper-case word: tip and KVM by their
# profiles (maintainer-tip.rst, maintainer-kvm-x86.rst: "KVM: x86: Add ..."), the
# others by their own logs ("scsi: lpfc: Fix ...", "s390/dasd: Fix ...",
# "iommu/vt-d: Fix ...", "hwmon: (pmbus) Add ...", "drm/i915: Use ...",
# "thermal: core: Fix ...", "PM: sleep: Fix ...", "cpufreq: Fix ...", "ubifs: Fix ...",
# "workqueue: Fix ...", "ASoC: SOF: Fix ...", "ALSA: hda: Fix ...").
UPPER_CASE_PREFIXES = ("KVM:", "RISC-V: KVM", "scsi:", "s390", "iommu", "hwmon:", "drm/i915", "thermal:", "PM:",
                       "cpufreq:", "ubifs:", "workqueue:", "ASoC:", "ALSA:")


def subject(prefix: str, summary: str, tree: str) -> str:
    """'<prefix>: <summary>' in the tree's form: Input's 'Input: drv - x',
    an upper-case first word where the subsystem writes one."""
    if tree_kind(tree) == "tip" or f"{prefix}:".startswith(UPPER_CASE_PREFIXES):
        summary = summary[:1].upper() + summary[1:]
    return f"{prefix} {summary}" if prefix.endswith((" -", ")")) else f"{prefix}: {summary}"


def tree_kind(tree_url: str) -> str:
    """'netdev', 'tip' or '' for a MAINTAINERS T: URL."""
    if re.search(r"/netdev/net(-next)?(\.git)?$", tree_url):
        return "netdev"
    if re.search(r"/tip/tip(\.git)?$", tree_url):
        return "tip"
    return ""


def posting_subject_prefix(tree_url: str, draft: bool) -> str:
    """What `git format-patch --subject-prefix` gets for a posting."""
    words = ["PATCH"]
    if tree_kind(tree_url) == "netdev":
        words.append("net-next")  # cleanups are new code for the net-next tree, never net
    if draft:
        words.insert(0, "DRAFT")
    return " ".join(words)


MAX_POSTING = 15  # submitting-patches.rst and maintainer-netdev.rst: at most 15 patches a posting

KERNEL_ORG = "git://git.kernel.org/pub/scm/linux/kernel/git/"
# Trees MAINTAINERS names that are another name of a tree, or that no longer
# take patches, and the tree that takes them.
TREE_ALIASES = {
    # Jens Axboe's block tree, under the name of his own server (BLKIO)
    "git://git.kernel.dk/linux-block": KERNEL_ORG + "axboe/linux-block.git",
    # Felipe Balbi's USB gadget tree: no pull request since 2021; the DWC2/DWC3
    # and gadget patches go through Greg Kroah-Hartman's usb tree
    KERNEL_ORG + "balbi/usb.git": KERNEL_ORG + "gregkh/usb.git",
    # SCSI SUBSYSTEM names both: Martin K. Petersen queues the patches
    # (scsi-queue), James Bottomley's tree carries the pull requests
    KERNEL_ORG + "jejb/scsi.git": KERNEL_ORG + "mkp/scsi.git",
    # DRM DRIVERS' tree takes pull requests; the drivers without a tree of
    # their own are queued in drm-misc (6.1's and 6.12's spellings)
    "git://anongit.freedesktop.org/drm/drm": "git://anongit.freedesktop.org/drm/drm-misc",
    "https://gitlab.freedesktop.org/drm/kernel.git": "https://gitlab.freedesktop.org/drm/misc/kernel.git",
}
# Lists whose subsystem takes the patches of sections that name no tree
# (maintainer-netdev.rst: everything on netdev goes through net or net-next).
LIST_TREES = {"netdev@vger.kernel.org": KERNEL_ORG + "netdev/net-next.git"}
# submitting-patches.rst: "If you cannot find a maintainer for the subsystem
# you are working on, Andrew Morton (akpm@linux-foundation.org) serves as a
# maintainer of last resort."  His tree takes such patches, and he is addressed.
LAST_RESORT = KERNEL_ORG + "akpm/mm.git"
LAST_RESORT_PERSON = "Andrew Morton <akpm@linux-foundation.org>"
LAST_RESORT_WHY = "the maintainer of last resort"


def canonical(url: str) -> str:
    """One spelling per kernel.org tree: git://, with .git."""
    url = re.sub(r"^https?://git\.kernel\.org/", "git://git.kernel.org/", url.rstrip("/"))
    if url.startswith("git://git.kernel.org/") and not url.endswith(".git"):
        url += ".git"
    return url


# A tree that takes one part of a section's files: PERFORMANCE EVENTS
# SUBSYSTEM names tip (perf/core, the kernel side) and the perf tools' trees
# (tools/perf/ and tools/lib/perf/ only).
TOOLS_ONLY_TREES = re.compile(r"/perf/perf-tools(-next)?\.git$")


def section_tree(section: dict, relpath: str = "") -> str:
    """A section's tree for cleanups: git before quilt, the -next (or
    next-queue) tree before the fixes one; a tools-only tree for tools/
    files only."""
    named = [t for t in section["T"]
             if relpath.startswith("tools/") or not TOOLS_ONLY_TREES.search(canonical(t.split(None, 1)[1]))]
    trees = sorted(named, key=lambda t: (not t.startswith("git "), not re.search(r"next[^/]*$", t)))
    return canonical(trees[0].split(None, 1)[1]) if trees else ""


def route(relpath: str, sections: list, person_trees: dict) -> tuple:
    """(tree URL, why, the section it goes through) for a file, from its MAINTAINERS sections as
    get_maintainer.pl lists them (most specific first):
    1. the first section, except ARM/ platform sections for files outside
       arch/ (they list a SoC's drivers for review; a driver goes through its
       subsystem), and THE REST (nobody sends cleanups to Linus);
    2. its T: (git, -next); if it has none, the next matched section's
       (a driver's section inside its subsystem's);
    3. else the tree most sections of its first maintainer name;
    4. else the tree of its list (LIST_TREES);
    5. else Andrew Morton's tree, the maintainer of last resort.
    Aliases and retired trees are mapped last (TREE_ALIASES)."""
    own = [s for s in sections if s["name"] != "THE REST"]
    if not relpath.startswith("arch/"):
        own = [s for s in own if not s["name"].startswith("ARM/")] or own
    tree, why, name = "", "no section but THE REST", "THE REST"
    if own:
        name = own[0]["name"]
        first = own[0]
        tree, why = section_tree(first, relpath), f"T: of {first['name']}"
        for later in own[1:]:
            if not tree:
                tree, why = section_tree(later, relpath), f"{first['name']} names no tree; T: of {later['name']}"
        if not tree and first["M"]:
            trees = person_trees.get(first["M"][0], {})
            git = sorted(((n, t) for t, n in trees.items() if t.startswith("git ")), key=lambda x: (-x[0], x[1]))
            if git:
                tree, why = git[0][1].split(None, 1)[1], f"{first['name']} names no tree; its first maintainer's"
        if not tree:
            tree, why = next(((LIST_TREES[l], f"{first['name']} names no tree; its list {l}'s")
                              for l in first["L"] if l in LIST_TREES), ("", f"{first['name']} names no tree"))
    if not tree:
        tree, why = LAST_RESORT, why + f": {LAST_RESORT_WHY}"
    if tree in TREE_ALIASES:
        tree, why = TREE_ALIASES[tree], why + f" ({tree}: taken by {TREE_ALIASES[tree]})"
    return tree, why, name


def family(relpath: str) -> str:
    """The driver family a file belongs to, for splitting a large posting:
    drivers/net/ethernet/<vendor>, net/<protocol>, drivers/net/<kind>."""
    parts = relpath.split("/")
    depth = 4 if relpath.startswith("drivers/net/ethernet/") or relpath.startswith("drivers/net/wireless/") else 3
    return "/".join(parts[:min(depth, len(parts) - 1)])


def slug(url: str) -> str:
    """A posting folder's name from its tree: the path below the host,
    without kernel.org's pub/scm/linux/kernel/git (owner-repo), so it stays
    the same when other postings come and go."""
    if not url:
        return "no-tree"
    path = re.sub(r"^[a-z+]+://[^/]+/", "", url.rstrip("/")).removesuffix(".git")
    path = re.sub(r"^(pub/scm/linux/kernel/git|pub/scm|projects)/", "", path)
    return re.sub(r"[^A-Za-z0-9._-]+", "-", path.replace("/", "-"))


@dataclass(frozen=True)
class CleanupPolicy:
    """Whether a maintainer tree takes standalone clean-ups (campaigns of
    Kind: cleanup), and the document and section that say so, quoted."""
    trees: tuple  # canonical tree URLs (canonical()), all spellings the packaged trees use
    posted: bool
    document: str
    section: str
    says: str


NETDEV_PROFILE = "Documentation/process/maintainer-netdev.rst"
# The one table of subsystem policy, read in Linux 6.12's profiles (the
# documents MAINTAINERS P: names, and those Documentation/maintainer/
# maintainer-entry-profile.rst and process/maintainer-handbooks.rst list) for
# every tree the 6.1.192 and 6.12.118 series go to.  Of the sections those
# series' files match, only NETWORKING DRIVERS and NETWORKING [GENERAL] have
# a P: (maintainer-netdev.rst); media's and tip's profiles are listed in the
# handbooks.  A tree not in the table: no profile of its sections says
# anything on clean-ups (CLEANUPS_UNSAID).
CLEANUP_POLICIES = (
    # wireless, CAN and Intel wired LAN have trees of their own but no P: of their own; their files are
    # in NETWORKING DRIVERS too, whose P: is netdev's profile: the one documented policy for them
    CleanupPolicy((KERNEL_ORG + "netdev/net-next.git", KERNEL_ORG + "netdev/net.git",
                   KERNEL_ORG + "wireless/wireless-next.git", KERNEL_ORG + "mkl/linux-can-next.git",
                   KERNEL_ORG + "tnguy/next-queue.git", "https://github.com/nbd168/wireless"), False,
                  NETDEV_PROFILE, "Clean-up patches",
                  "Netdev discourages patches which perform simple clean-ups, which are not in the context "
                  "of other work. [...] This is because it is felt that the churn that such changes produce "
                  "comes at a greater cost than the value of such clean-ups."),
    CleanupPolicy(("git://linuxtv.org/media_tree.git", "git://linuxtv.org/media.git"), True,
                  "Documentation/driver-api/media/maintainer-entry-profile.rst", "Style Cleanup Patches",
                  "We may accept pure standalone style cleanups, but they should ideally be one patch for "
                  "the whole subsystem (if the cleanup is low volume), or at least be grouped per directory."),
    CleanupPolicy((KERNEL_ORG + "tip/tip.git",), True, "Documentation/process/maintainer-tip.rst", "",
                  "nothing on clean-ups"),
)
CLEANUPS_UNSAID = CleanupPolicy((), True, "MAINTAINERS", "P:",
                                "no profile of the tree's sections says anything on clean-ups")


# A series made on an older tree than the newest packaged one is for that
# stable series, which takes fixes only; its clean-ups go upstream from the
# newest tree's series, made on the code the maintainers have now.
STABLE_TREE = CleanupPolicy((), False, "Documentation/process/stable-kernel-rules.rst",
                            "Rules on what kind of patches are accepted, and which ones are not",
                            "It or an equivalent fix must already exist in Linux mainline (upstream). [...] "
                            "It must either fix a real bug that bothers people or just add a device ID.")


# A fix made on an older tree whose lines the newest packaged tree still has
# is a mainline bug: it goes upstream first (from the newest tree's series,
# with Cc: stable), and stable takes it from there.
UPSTREAM_FIRST = CleanupPolicy((), False, "Documentation/process/stable-kernel-rules.rst",
                               "Rules on what kind of patches are accepted, and which ones are not",
                               "It or an equivalent fix must already exist in Linux mainline (upstream).")


def series_of(version: str) -> str:
    """'6.1' for Linux 6.1.192."""
    return ".".join(version.split(".")[:2])


def is_newest(version: str) -> bool:
    """A tree as new as the newest packaged one or newer (a maintainer's
    checkout): its series goes to the maintainers' trees; an older one's to
    its stable series."""
    numbers = [int(x) for x in series_of(version).split(".") if x.isdigit()]
    return numbers >= [int(x) for x in NEWEST_PACKAGED.split(".")]


def cleanup_policy(tree_url: str, version: str) -> CleanupPolicy:
    """The policy on standalone clean-ups of the tree a posting goes to,
    made on Linux version."""
    if not is_newest(version):
        return STABLE_TREE
    return next((p for p in CLEANUP_POLICIES if canonical(tree_url) in p.trees), CLEANUPS_UNSAID)


def posted(kind: str, tree_url: str, version: str) -> bool:
    """Whether a patch of a campaign of this Kind: is posted to the tree:
    fixes and ports always, clean-ups where the tree takes them."""
    return kind in ("fix", "port") or cleanup_policy(tree_url, version).posted
