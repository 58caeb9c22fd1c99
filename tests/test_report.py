# SPDX-License-Identifier: GPL-2.0-only
"""The review page of a series: review.html is self-contained (no script, no
external resource), headless Chromium renders it and the rendered page shows
the series' figures; REVIEW.md carries the same figures.  Run on copies of
the committed 6.1 and 6.12 series, so the committed files are not touched."""
import html
import json
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from helpers import run_cli
from y2038lib.posting import compare
from y2038lib.common import Y2038Error

CHROMIUM = shutil.which("chromium")


class ReviewPage:
    KVER: str  # each subclass sets its kernel version

    @classmethod
    def setUpClass(cls):
        try:
            committed = compare.series_of(cls.KVER)
        except Y2038Error:
            raise unittest.SkipTest(f"no series committed for {cls.KVER}: `make run KVER={cls.KVER}`")
        cls.tmp = Path(tempfile.mkdtemp(prefix="y2038-report-"))
        shutil.copytree(committed, cls.tmp / "series")
        run_cli("report", "--out", str(cls.tmp / "series"), check=True)
        cls.results = json.loads((cls.tmp / "series" / "results.json").read_text())
        cls.html = (cls.tmp / "series" / "review.html").read_text()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def expected_figures(self):
        """The figures count the posted patches; the build's own total also counts the
        patches it withdrew to unverified/, which the page lists apart."""
        patches = self.results["patches"]
        build = self.results["build"]
        compiled = [sum(p["lines_compiled"][i] for p in patches) for i in (0, 1)]
        return [f"{len(patches)}", f"{sum(p['rewrites'] for p in patches)}",
                f"{len(build['verified'])} of {len(patches)}", f"{compiled[0]} of {compiled[1]}"]

    def test_withdrawn_patches_are_listed_with_their_reason(self):
        md = (self.tmp / "series" / "REVIEW.md").read_text()
        for note in self.results.get("unverified") or []:
            self.assertIn(f"- {note}", md)
            self.assertIn(html.escape(note), self.html)
        if not self.results.get("unverified"):
            self.assertNotIn("unverified/", md)

    def test_page_is_self_contained(self):
        self.assertNotIn("<script", self.html)
        self.assertNotIn("url(", self.html)
        external = re.findall(r"""(?:src|href)\s*=\s*["'](?!#)([^"']*)""", self.html)
        self.assertEqual(external, [])

    @unittest.skipUnless(CHROMIUM, "chromium is not installed (make test installs it)")
    def test_chromium_renders_the_figures_and_every_patch(self):
        page = (self.tmp / "series" / "review.html").as_uri()
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1600"]
        dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", page], text=True, timeout=120,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        figures = re.search(r'<table class="figures" id="figures">(.*?)</table>', dom, re.S)
        self.assertIsNotNone(figures, "the rendered page has no figures table")
        cells = re.findall(r"<td>(?:<span[^>]*>)?([^<]*)", figures.group(1))
        for figure in self.expected_figures():
            self.assertIn(figure, cells)
        for arch, boot in self.results["boot"].items():
            self.assertIn(boot["verdict"], cells, arch)
        self.assertEqual(len(re.findall(r'<section class="patch"', dom)), len(self.results["patches"]))
        shot = self.tmp / "review.png"
        subprocess.run([CHROMIUM, *flags, f"--screenshot={shot}", page], timeout=120,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.assertGreater(shot.stat().st_size, 20000, "the screenshot is (nearly) blank")

    def test_markdown_summary_has_the_figures(self):
        md = (self.tmp / "series" / "REVIEW.md").read_text()
        patches = self.results["patches"]
        npatches, npostings = len(patches), len(self.results["postings"])
        self.assertIn(f"{npatches} patch{'es' * (npatches != 1)} in {npostings} posting{'s' * (npostings != 1)}", md)
        self.assertIn(f"{self.expected_figures()[2]} patches verified", md)
        self.assertEqual(md.count("\n| "), len(patches) + 2 + len({p["subsystem"] for p in patches}))


class ReviewPage61(ReviewPage, unittest.TestCase):
    KVER = "6.1"


class ReviewPage612(ReviewPage, unittest.TestCase):
    KVER = "6.12"
