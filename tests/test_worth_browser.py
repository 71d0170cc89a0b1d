"""The `rulespec worth` report in a real browser (Playwright on /usr/bin/chromium): the forest
plots load and are drawn, and the page reads in the spec's words, as a designer opens it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from support import TESTS
from test_browser import ARGS, CHROMIUM, _need_chromium

WORTH = TESTS / "specs" / "worth"
SCREENSHOT = os.environ.get("RULESPEC_WORTH_SCREENSHOT")  # where to keep a picture of the page


def test_the_worth_report_shows_a_forest_plot_per_side_in_a_browser(tmp_path):
    _need_chromium()
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    result = CliRunner().invoke(main, ["worth", str(WORTH), "--games", "300", "--json",
                                       "--report", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True, args=ARGS,
            viewport={"width": 1100, "height": 900})
        page = context.new_page()
        page.goto((tmp_path / "r" / "index.html").as_uri())
        page.get_by_role("heading", name="Red").wait_for()
        page.get_by_role("heading", name="Blue").wait_for()
        images = page.locator("img")
        assert images.count() == 2
        for k in range(2):
            assert images.nth(k).evaluate("i => i.complete && i.naturalWidth > 300")
        strongest = max(out["cards"], key=lambda r: r["worth"])
        assert page.get_by_text(strongest["sentence"]).first.is_visible()
        cells = page.locator("td").all_inner_texts()
        assert "Banner" in cells and "Curse" in cells and "era early" in cells
        if SCREENSHOT:
            page.screenshot(path=SCREENSHOT, full_page=True)
        context.close()
