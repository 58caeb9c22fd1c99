# SPDX-License-Identifier: GPL-2.0-only
"""No file costs minutes (issue 28): the whole-driver pass reads a file in
time that grows with its size, not with its size squared.  A register
initialisation file of tens of thousands of macro calls (a vendor SDK's
shape) took the pass 160 s at 40,000 calls (a prefix of the file copied
and searched per call, and per function-like name); it now takes seconds."""
import time
import unittest

from helpers import put_tools_on_path

put_tools_on_path()
from y2038lib.outoftree import driver_types  # noqa: E402


def register_file(calls: int) -> dict:
    """One file: a macro called `calls` times with register offsets, and a
    timeval local the pass must still see."""
    body = "".join(f"\tREG_W(regs + {i * 4}, {i});\n" for i in range(calls))
    return {"regs.c": "#define REG_W(a, v) writel(v, a)\n\nstatic void init(void __iomem *regs)\n{\n" + body
            + "}\n\nstatic long stamp(void)\n{\n\tstruct timeval tv;\n\n\tdo_gettimeofday(&tv);\n"
            "\treturn tv.tv_sec;\n}\n"}


class LinearInTheFile(unittest.TestCase):
    def test_forty_thousand_macro_calls_take_seconds(self):
        start = time.monotonic()
        driver_types.convert(register_file(40000))
        self.assertLess(time.monotonic() - start, 30)  # 1.8 s measured at load 10; 160 s before

    def test_the_functions_are_the_same_ones(self):
        code = register_file(3)["regs.c"]
        self.assertEqual([f[0] for f in driver_types.functions(code)], ["init", "stamp"])
        body = driver_types.functions(code)[1][3]
        self.assertEqual(code[body], "{")


if __name__ == "__main__":
    unittest.main()
