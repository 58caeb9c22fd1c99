# SPDX-License-Identifier: GPL-2.0-only
"""The kernels the stages build come from what changed, not from ccache's
memory of an older build.  ARM's zImage wraps the compressed kernel with
arch/arm/boot/compressed/piggy.S, whose text never changes: it pulls the
kernel in with the assembler's .incbin.  ccache in depend mode never runs
the preprocessor, so it cannot see the .incbin, and it handed back the
first piggy.o it had cached: every zImage after the first was the first
one (a fix proof's kernel without the fix booted with it, and passed).

Here the compiler environments of the build stage (compiler_env) and of
the boot kernels (with BOOT_KERNEL_CCACHE) each assemble the same piggy.S twice around two different payloads, as kbuild
does (-Wp,-MMD), with real ccache and gcc: the second object must carry
the second payload."""
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import helpers

helpers.put_tools_on_path()
from y2038lib.verification import boot, build  # noqa: E402

PIGGY_S = '\t.section .piggydata, "a"\n\t.globl\tinput_data\ninput_data:\n\t.incbin\t"piggy_data"\n'


class IncbinNotCached(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        (self.root / "piggy.S").write_text(PIGGY_S)
        self.saved = os.environ.get("Y2038_CCACHE_DIR")
        os.environ["Y2038_CCACHE_DIR"] = str(self.root / "ccache")

    def tearDown(self):
        if self.saved is None:
            os.environ.pop("Y2038_CCACHE_DIR", None)
        else:
            os.environ["Y2038_CCACHE_DIR"] = self.saved
        self.tmp.cleanup()

    def assemble(self, payload: bytes, boot_kernel=False) -> bytes:
        (self.root / "piggy_data").write_bytes(payload)
        env = dict(os.environ, **build.compiler_env(self.root), **(boot.BOOT_KERNEL_CCACHE if boot_kernel else {}))
        subprocess.run(["ccache", "gcc", "-Wp,-MMD,piggy.o.d", "-c", "piggy.S", "-o", "piggy.o"],
                       cwd=self.root, env=env, check=True)
        return (self.root / "piggy.o").read_bytes()

    def test_a_new_payload_makes_a_new_object(self):
        for boot_kernel in (False, True):
            with self.subTest(boot_kernel=boot_kernel):
                first = self.assemble(b"first kernel image " * 8, boot_kernel)
                self.assertIn(b"first kernel image", first)
                second = self.assemble(b"second kernel image" * 8, boot_kernel)
                self.assertIn(b"second kernel image", second)
                self.assertNotIn(b"first kernel image", second)


if __name__ == "__main__":
    unittest.main()
