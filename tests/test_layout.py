# SPDX-License-Identifier: GPL-2.0-only
"""engine/layout.py: the layout spatch loses, put back (no spatch run)."""
import unittest

import helpers
helpers.put_tools_on_path()
from y2038lib.engine.layout import keep_declarator_column


class DeclaratorColumn(unittest.TestCase):
    def test_a_longer_type_keeps_the_name_in_its_column(self):
        # 6.1's gss_verify_mic_v1(): the names of the declarations line up at column 32
        before = b"\tint\t\t\tdirection;\n\ts32\t\t\tnow;\n\tu32\t\t\tseqnum;\n"
        after = b"\tint\t\t\tdirection;\n\ttime64_t\t\t\tnow;\n\tu32\t\t\tseqnum;\n"
        self.assertEqual(keep_declarator_column(before, after),
                         b"\tint\t\t\tdirection;\n\ttime64_t\t\tnow;\n\tu32\t\t\tseqnum;\n")

    def test_a_type_past_the_column_gets_one_tab(self):
        self.assertEqual(keep_declarator_column(b"\tstruct timespec\tts;\n", b"\tstruct timespec64\tts;\n"),
                         b"\tstruct timespec64\tts;\n")

    def test_lines_not_aligned_with_tabs_or_otherwise_changed_are_left(self):
        for before, after in ((b"\tint a;\n", b"\tlong a;\n"),
                              (b"\ts32\t\tnow;\n", b"\ttime64_t\t\tthen;\n"),
                              (b"\ts32\t\tnow;\n", b"\ts32\t\tnow;\n\tint x;\n")):
            self.assertEqual(keep_declarator_column(before, after), after)


if __name__ == "__main__":
    unittest.main()
