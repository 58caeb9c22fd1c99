# SPDX-License-Identifier: GPL-2.0-only
"""csource: comments and literals blanked with every offset and line kept,
for str and bytes, and the three strengths told apart."""
import unittest

import helpers
helpers.put_tools_on_path()
from y2038lib.csource import (IDENTIFIER, blank_comments, blank_comments_and_literals,
                              blank_comments_and_strings)

BLANKERS = (blank_comments, blank_comments_and_strings, blank_comments_and_literals)


def spaces(text: str) -> str:
    return "".join(c if c == "\n" else " " for c in text)


class Blanking(unittest.TestCase):
    def assert_all(self, text: str, expected: str):
        for blanker in BLANKERS:
            with self.subTest(blanker=blanker.__name__):
                self.assertEqual(blanker(text), expected)

    def test_offsets_and_lines_kept(self):
        text = 'a = 1; /* one\n * two */ b = "x";\n// three\nc = \'{\';\n'
        for blanker in BLANKERS:
            out = blanker(text)
            self.assertEqual(len(out), len(text))
            self.assertEqual(out.count("\n"), text.count("\n"))

    def test_block_comment_spans_lines(self):
        self.assert_all("x /* a\n * b\n */ y", "x " + spaces("/* a\n * b\n */") + " y")

    def test_block_comment_is_not_nested_and_ends_at_first_close(self):
        self.assert_all("/* a /* b */ c */", spaces("/* a /* b */") + " c */")

    def test_line_comment_ends_at_newline(self):
        self.assert_all("x; // note\ny;", "x; " + spaces("// note") + "\ny;")

    def test_line_comment_backslash_is_not_followed(self):
        self.assert_all("x; // note \\\ny;", "x; " + spaces("// note \\") + "\ny;")

    def test_string_strength(self):
        text = 'p("a /* b */ c"); q();'
        # comments only knows no strings: what looks like a comment in one goes too
        self.assertEqual(blank_comments(text), 'p("a ' + spaces("/* b */") + ' c"); q();')
        self.assertEqual(blank_comments_and_strings(text), "p(" + spaces('"a /* b */ c"') + "); q();")
        self.assertEqual(blank_comments_and_literals(text), blank_comments_and_strings(text))

    def test_line_comment_inside_string(self):
        text = 'url = "http://x"; // y'
        self.assertEqual(blank_comments(text), 'url = "http:' + spaces("//x\"; // y"))
        self.assertEqual(blank_comments_and_strings(text), "url = " + spaces('"http://x"') + "; " + spaces("// y"))

    def test_escaped_quotes_in_string(self):
        text = 'p("say \\"hi\\" \\\\"); x;'
        self.assertEqual(blank_comments_and_strings(text), "p(" + spaces('"say \\"hi\\" \\\\"') + "); x;")

    def test_string_continued_by_backslash_newline(self):
        text = 'p("one \\\ntwo"); x;'
        self.assertEqual(blank_comments_and_strings(text), "p(" + spaces('"one \\\ntwo"') + "); x;")

    def test_unterminated_string_is_code(self):
        text = 'p("open\n); x;'
        self.assertEqual(blank_comments_and_strings(text), text)

    def test_character_literals(self):
        text = "if (c == '{' || c == '\\'' || c == '\"') x(); /* } */"
        self.assertEqual(blank_comments_and_literals(text),
                         "if (c == " + spaces("'{'") + " || c == " + spaces("'\\''") + " || c == "
                         + spaces("'\"'") + ") x(); " + spaces("/* } */"))
        # without character literals the '"' is code: it opens no string on this line
        self.assertEqual(blank_comments_and_strings(text),
                         "if (c == '{' || c == '\\'' || c == '\"') x(); " + spaces("/* } */"))

    def test_quote_character_pairs_with_a_string_without_character_literals(self):
        text = "if (c == '\"') s = \"}\";"
        self.assertEqual(blank_comments_and_literals(text), "if (c == " + spaces("'\"'") + ") s = " + spaces('"}"') + ";")
        self.assertEqual(blank_comments_and_strings(text), "if (c == '" + spaces("\"') s = \"") + "}\";")

    def test_bytes(self):
        text = b'x = "s"; /* c\n */ y = \'c\';'
        self.assertEqual(blank_comments(text), b'x = "s"; ' + spaces("/* c\n */").encode() + b" y = 'c';")
        self.assertEqual(blank_comments_and_strings(text),
                         b"x = " + b"   " + b"; " + spaces("/* c\n */").encode() + b" y = 'c';")
        self.assertEqual(blank_comments_and_literals(text),
                         b"x = " + b"   " + b"; " + spaces("/* c\n */").encode() + b" y = " + b"   " + b";")


class Identifiers(unittest.TestCase):
    def test_identifiers(self):
        self.assertEqual(IDENTIFIER.findall("ts64.tv_sec = _x1 + 2u;"), ["ts64", "tv_sec", "_x1", "u"])


if __name__ == "__main__":
    unittest.main()
