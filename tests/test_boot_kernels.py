# SPDX-License-Identifier: GPL-2.0-only
"""How the boot stage schedules its kernel builds, without a kernel build:
the kernels of the boots to run are built side by side, a boot whose
result is kept builds nothing, and a boot uses the kernel built for it."""
import threading
import unittest
from types import SimpleNamespace
from unittest import mock

import helpers
helpers.put_tools_on_path()
from y2038lib.verification import boot  # noqa: E402


def planted_boots(kept_arches=()):
    """What Boots.build_side_by_side uses of a Boots: kept results, kernels, and where builds go."""
    return SimpleNamespace(saved=lambda variant, arch: ("key", None, {"verdict": "pass"} if arch in kept_arches else None),
                           kernel=lambda variant, arch: SimpleNamespace(arch=arch), built={})


class SideBySide(unittest.TestCase):
    def test_both_kernels_build_at_once(self):
        both_started = threading.Barrier(2, timeout=10)  # broken, and the test fails, if one waits for the other

        def build(kernel):
            both_started.wait()
            return f"{kernel.arch}-image", [], 1.0
        boots = planted_boots()
        with mock.patch.object(boot, "build_kernel", build):
            boot.Boots.build_side_by_side(boots, "patched", ("x86_64", "arm"))
        self.assertEqual(boots.built, {("patched", "x86_64"): ("x86_64-image", [], 1.0),
                                       ("patched", "arm"): ("arm-image", [], 1.0)})

    def test_a_kept_boot_builds_nothing_and_one_kernel_is_left_to_its_boot(self):
        boots = planted_boots(kept_arches=("arm",))
        with mock.patch.object(boot, "build_kernel", side_effect=AssertionError("built")):
            boot.Boots.build_side_by_side(boots, "patched", ("x86_64", "arm"))
        self.assertEqual(boots.built, {})

    def test_a_boot_uses_the_kernel_built_for_it(self):
        kernel = SimpleNamespace(machine=boot.MACHINES["arm"], variant="patched")
        with mock.patch.object(boot, "build_kernel", side_effect=AssertionError("built again")):
            result = boot.boot_one(None, kernel, None, None, {}, [], built=(None, ["error: x"], 42.0))
        self.assertEqual((result["verdict"], result["build_seconds"]), ("fail", 42.0))
        self.assertIn("kernel build failed:\nerror: x", result["problems"][0])


if __name__ == "__main__":
    unittest.main()
