# SPDX-License-Identifier: GPL-2.0-only
"""platform_arches: a driver whose Kconfig entry depends on one platform is
built on that platform's architecture (am65-cpts: ARCH_K3, arm64), not when
COMPILE_TEST lets allmodconfig build it or a default architecture has the
platform too.  On a small planted tree."""
import tempfile
import unittest
from pathlib import Path

import helpers
helpers.put_tools_on_path()
from y2038lib.platforms import config_symbol, platform_arches, sixty_four_bit_only

FILES = {
    "drivers/net/ti/Makefile": "obj-$(CONFIG_TI_CPTS) += cpts.o\nobj-$(CONFIG_TI_ETH) += ti-eth.o\n"
                               "ti-eth-y := eth_main.o \\\n\teth_ptp.o\nobj-$(CONFIG_TI_ANY) += any.o\n"
                               "obj-$(CONFIG_TI_BOTH) += both.o\n",
    "drivers/net/ti/Kconfig": "config TI_CPTS\n\ttristate \"CPTS\"\n\tdepends on ARCH_K3 && OF\n\n"
                              "config TI_ETH\n\ttristate \"eth\"\n\tdepends on ARCH_K3\n\n"
                              "config TI_ANY\n\ttristate \"any\"\n\tdepends on ARCH_K3 || COMPILE_TEST\n\n"
                              "config TI_BOTH\n\tbool \"both\"\n\tdepends on ARCH_OMAP\n",
    "arch/arm64/Kconfig.platforms": "config ARCH_K3\n\tbool \"K3\"\n\nconfig ARCH_OMAP\n\tbool\n",
    "arch/arm/mach-omap2/Kconfig": "menuconfig ARCH_OMAP\n\tbool \"OMAP\"\n",
    "arch/arm64/Kconfig": "config ARM64\n\tdef_bool y\n\nconfig 64BIT\n\tdef_bool y\n",
    "arch/arm/Kconfig": "config ARM\n\tdef_bool y\n",
    "drivers/media/vpu/Makefile": "obj-$(CONFIG_VPU) += vpu.o\nobj-$(CONFIG_BIG) += big.o\n"
                                  "obj-$(CONFIG_OMAP_VPU) += omap-vpu.o\nobj-$(CONFIG_ANY_VPU) += any-vpu.o\n",
    "drivers/media/vpu/Kconfig": "config VPU\n\ttristate \"VPU\"\n\tdepends on VIDEO_DEV && OF\n"
                                 "\tdepends on ARCH_K3 || COMPILE_TEST\n\n"
                                 "config BIG\n\ttristate \"big\"\n\tdepends on 64BIT\n\n"
                                 "config OMAP_VPU\n\ttristate \"omap\"\n\tdepends on ARCH_K3 || ARCH_OMAP || COMPILE_TEST\n\n"
                                 "config ANY_VPU\n\ttristate \"any\"\n\tdepends on VIDEO_DEV\n",
}


class PlantedTree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.src = Path(cls.tmp.name)
        for relpath, text in FILES.items():
            (cls.src / relpath).parent.mkdir(parents=True, exist_ok=True)
            (cls.src / relpath).write_text(text)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class PlatformArches(PlantedTree):
    def arches(self, relpath):
        return platform_arches(self.src, relpath, ("x86", "arm"))

    def test_one_platform_is_built_where_it_is(self):
        self.assertEqual(self.arches("drivers/net/ti/cpts.c"), ("arm64",))

    def test_a_file_of_a_composite_module(self):
        self.assertEqual(config_symbol(self.src, "drivers/net/ti/eth_ptp.c"), "TI_ETH")
        self.assertEqual(self.arches("drivers/net/ti/eth_ptp.c"), ("arm64",))

    def test_compile_test_or_a_default_architecture_needs_nothing_more(self):
        self.assertEqual(self.arches("drivers/net/ti/any.c"), ())
        self.assertEqual(self.arches("drivers/net/ti/both.c"), ())  # arm has ARCH_OMAP too (menuconfig)
        self.assertEqual(self.arches("drivers/net/ti/unknown.c"), ())



class SixtyFourBitOnly(PlantedTree):
    """The machines a 32-bit arithmetic bug can hit: none where every way to
    meet a Kconfig term, COMPILE_TEST aside, is 64-bit (wave5: ARCH_K3)."""

    def test_a_platform_only_arm64_defines(self):
        why = sixty_four_bit_only(self.src, "drivers/media/vpu/vpu.c")
        self.assertEqual((why.kconfig, why.symbol, why.arches), ("drivers/media/vpu/Kconfig", "VPU", ("arm64",)))
        self.assertEqual(why.depends, "VIDEO_DEV && OF && (ARCH_K3 || COMPILE_TEST)")

    def test_64bit_itself(self):
        self.assertEqual(sixty_four_bit_only(self.src, "drivers/media/vpu/big.c").symbol, "BIG")

    def test_a_64bit_architecture_s_own_file(self):
        self.assertEqual(sixty_four_bit_only(self.src, "arch/arm64/kernel/time.c").arches, ("arm64",))
        self.assertIsNone(sixty_four_bit_only(self.src, "arch/arm/kernel/time.c"))

    def test_a_32bit_platform_or_none_runs_on_32bit(self):
        self.assertIsNone(sixty_four_bit_only(self.src, "drivers/media/vpu/omap-vpu.c"))  # ARCH_OMAP: arm too
        self.assertIsNone(sixty_four_bit_only(self.src, "drivers/media/vpu/any-vpu.c"))
        self.assertEqual(sixty_four_bit_only(self.src, "drivers/net/ti/any.c").arches, ("arm64",))  # K3 or a test build
        self.assertIsNone(sixty_four_bit_only(self.src, "kernel/workqueue.c"))  # no Makefile entry: everywhere


if __name__ == "__main__":
    unittest.main()
