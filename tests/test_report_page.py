"""The report's HTML page: one self-contained file, opened offline in headless Chromium with its plots drawn."""

import re
import shutil
import subprocess

import pytest

from interpreter.cli import main


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", "sky-haulers", "-n", "16", "-o", str(path)]) == 0
    return path


def test_the_page_fetches_nothing(page):
    text = page.read_text(encoding="utf-8")
    for fetch in ("<script", "<link", "<img", "<iframe", "src=", "@import"):
        assert fetch not in text
    assert not re.search(r"url\((?!#)", text)  # only references within the page (an SVG's clip paths)
    assert not re.search(r"https?://(?!www\.w3\.org/)", text)  # only the SVG namespaces name a web address


def test_the_page_holds_every_section_and_its_plots(page):
    text = page.read_text(encoding="utf-8")
    for heading in ("Fairness", "Length", "Scores and drama", "Win rate by", "Cards", "How many matches are enough?"):
        assert f"<h2>{heading}" in text
    assert text.count("<svg") == 6  # seats, length, scores, leader by round, groups, cards


def _chromium() -> str | None:
    return next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


def test_headless_chromium_renders_the_plots_offline(page, tmp_path):
    """Names resolve to nothing in this browser: a page that needed the network would lose its plots."""
    browser = _chromium()
    if browser is None:
        pytest.skip("no Chromium on this machine")
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             f"--user-data-dir={tmp_path / 'profile'}", "--host-resolver-rules=MAP * ~NOTFOUND"]
    dom = subprocess.run([*flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert dom.count("<svg") == 6 and dom.count("<path") > 100  # the plots are in the rendered page, drawn
