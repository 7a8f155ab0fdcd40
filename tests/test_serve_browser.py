"""`meeple serve` in a real browser: Debian's Chromium, driven headless by Playwright (no browser is downloaded),
opens a table of a bundled game against a bot from the start page and plays a few moves by clicking."""

import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"
SERVED = ("go-fish", "hearts", "overloaded")
ROOT = Path(__file__).resolve().parent.parent
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")
if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture
def server():
    """`meeple serve go-fish hearts overloaded --port 0` starting in its own process (while the browser starts)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", *SERVED, "--port", "0"], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


def address(server) -> str:
    """The address the server prints once it listens."""
    line = server.stdout.readline()
    assert line.startswith(f"meeple serve: {', '.join(SERVED)} at http://127.0.0.1:"), line + server.stderr.read()
    return line.split(" at ")[1].split()[0]


@pytest.fixture
def page(tmp_path):
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=CHROMIUM,
                                                       headless=True, args=FLAGS)
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()


def open_table(page, url: str, game: str, players: int) -> None:
    """From the start page: a table of `game`, seed 3, a person at seat 0 and random bots beside."""
    page.goto(url)
    page.select_option("#game", game)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "input")
    page.fill("#seed", "3")
    assert page.input_value("#seat-0") == "person" and page.input_value(f"#seat-{players - 1}") == "random"
    page.click("#start")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("button.option")


def click_first_option(page) -> None:
    """Click the first option and wait for the next screen."""
    renders = page.get_attribute("body", "data-renders")
    with page.expect_response(lambda r: r.url.endswith("/act")) as answered:
        page.locator("button.option").first.click()
    assert answered.value.status == 200
    page.wait_for_function(f"document.body.dataset.renders !== '{renders}'")


def test_a_person_plays_go_fish_against_a_bot_by_clicking(server, page):
    url = address(server)
    asked_of = set()
    page.on("request", lambda request: asked_of.add(urlparse(request.url).netloc))
    open_table(page, url, "go-fish", 2)
    assert page.title() == "Go Fish — P0"
    hand = page.locator('[data-zone="hand@0"] .card')
    assert hand.count() > 0 and hand.first.get_attribute("title")  # a card of the seat's hand, its text on hover
    assert page.locator('[data-zone="hand@1"] .card.back').count() > 0  # the bot's hand: backs
    moves = 0
    while moves < 4 and page.locator("button.option").count():
        click_first_option(page)
        moves += 1
    assert moves == 4 or page.locator("#result table").count()
    assert page.locator("#log li").count() > 1  # the game's sentences
    assert page.inner_text("#error") == ""
    assert "to act: P0" in page.inner_text("#status") or page.locator("#result table").count()
    assert asked_of == {urlparse(url).netloc}, "the page fetched from another host"


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [("hearts", 4), ("overloaded", 4)])
def test_a_whole_match_against_bots_by_clicking(server, page, game, players):
    open_table(page, address(server), game, players)
    for _ in range(3000):
        if page.locator("#result table").count():
            break
        page.wait_for_selector("button.option:not([disabled]), #result table")
        if page.locator("button.option").count():
            click_first_option(page)
    final = page.inner_text("#result")
    assert "Final table" in final and "wins" in final
    assert page.inner_text("#error") == "" and "the match is over" in page.inner_text("#status")


@pytest.mark.slow
def test_two_seats_in_two_browsers_are_never_sent_each_others_cards(server, tmp_path):
    url = address(server)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            first = browser.new_context().new_page()
            first.goto(url)
            first.select_option("#game", "hearts")
            first.fill("#seed", "4")
            first.select_option("#seat-2", "person")
            first.click("#start")
            links = first.locator("#links a")
            links.first.wait_for()
            seats = {int(text.split(":")[0][1:]): a for text, a in zip(first.locator("#links li").all_inner_texts(),
                                                                      links.all(), strict=True)}
            assert set(seats) == {0, 2}
            pages, sent = {}, {0: [], 2: []}
            for s in (0, 2):
                pages[s] = browser.new_context().new_page()  # each seat its own browser profile
                pages[s].on("response", lambda r, s=s: sent[s].append(r.text()) if "/api/seat/" in r.url
                            and r.status == 200 else None)
                pages[s].goto(url.rstrip("/") + seats[s].get_attribute("href"))
                pages[s].wait_for_selector("button.option")
            for _ in range(6):  # the passes (pass left: neither can hand the other a card it knows), then play
                for s in (0, 2):
                    if pages[s].locator("button.option:not([disabled])").count():
                        click_first_option(pages[s])
            for s, other in ((0, 2), (2, 0)):
                shown = pages[other].locator(f'[data-zone="hand@{other}"] .card[data-card]')
                theirs = [card.get_attribute("data-card") for card in shown.all()]
                assert theirs and sent[s]
                for body in sent[s]:
                    assert not any(f'"{cid}"' in body for cid in theirs), f"seat {s} was sent a card of seat {other}"
        finally:
            browser.close()
