"""`meeple serve` in a real browser: Debian's Chromium, driven headless by Playwright (no browser is downloaded),
opens a table of a bundled game against a bot from the start page and plays a few moves by clicking; two seats
in two browser profiles are never sent each other's cards (over HTTP or the websocket); the designer's page
undoes, rewinds, previews and steps the bots; a saved game file reloads on the designer's page."""

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"
SERVED = ("go-fish", "hearts", "overloaded")
ROOT = Path(__file__).resolve().parent.parent
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


def serve(*games: str) -> subprocess.Popen:
    """`meeple serve GAME … --port 0` starting in its own process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-m", "interpreter", "serve", *games, "--port", "0"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def server():
    """`meeple serve go-fish hearts overloaded --port 0` in its own process, one for the module's tests; its
    address is read once (`address`)."""
    process = serve(*SERVED)
    try:
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


_ADDRESSES: dict[int, str] = {}


def address(server, served: str | None = None) -> str:
    """The address the server prints once it listens (it serves `served`, else SERVED)."""
    served = served or ", ".join(SERVED)
    if server.pid not in _ADDRESSES:
        line = server.stdout.readline()
        assert line.startswith(f"meeple serve: {served} at http://127.0.0.1:"), line + server.stderr.read()
        _ADDRESSES[server.pid] = line.split(" at ")[1].split()[0]
    return _ADDRESSES[server.pid]


@pytest.fixture(scope="module")
def browser():
    """Chromium, for the module's tests (Playwright imported here, when a test needs it, not at collection)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser):
    """A page in a fresh browser profile of its own."""
    context = browser.new_context()
    try:
        yield context.new_page()
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
    page.wait_for_selector("body[data-live=websocket]")  # the page is pushed its changes
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


def test_two_seats_in_two_browsers_are_never_sent_each_others_cards(server, browser):
    url = address(server)
    body = {"game": "hearts", "players": 4, "seed": 4, "seats": ["person", "random", "person", "random"]}
    request = urllib.request.Request(url + "api/tables", data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request) as response:
        seats = {int(seat): link for seat, link in json.loads(response.read())["seats"].items()}
    assert set(seats) == {0, 2}
    contexts = []
    try:
        pages, sent, frames = {}, {0: [], 2: []}, {0: [], 2: []}
        for s in (0, 2):
            contexts.append(browser.new_context())  # each seat its own browser profile
            pages[s] = contexts[-1].new_page()
            pages[s].on("response", lambda r, s=s: sent[s].append(r.text()) if "/api/seat/" in r.url
                        and r.status == 200 else None)
            pages[s].on("websocket", lambda ws, s=s: ws.on("framereceived",
                                                           lambda payload, s=s: frames[s].append(payload)))
            pages[s].goto(url.rstrip("/") + seats[s])
        for s in (0, 2):
            pages[s].wait_for_selector("body[data-live=websocket] button.option")
        for _ in range(3):  # the passes (pass left: neither can hand the other a card it knows)
            for s in (0, 2):
                if pages[s].locator("button.option:not([disabled])").count():
                    click_first_option(pages[s])
        for s, other in ((0, 2), (2, 0)):
            shown = pages[other].locator(f'[data-zone="hand@{other}"] .card[data-card]')
            theirs = [card.get_attribute("data-card") for card in shown.all()]
            assert theirs and sent[s] and len(frames[s]) >= 2, (len(sent[s]), len(frames[s]))
            for text in sent[s] + frames[s]:
                assert not any(f'"{cid}"' in text for cid in theirs), f"seat {s} was sent a card of seat {other}"
                assert "designer" not in text
    finally:
        for context in contexts:
            context.close()


def made(page) -> int:
    """How many decisions the designer's page says were made."""
    return int(page.inner_text("#status").split(" decisions")[0].split("· ")[-1])


def test_the_designer_page_shows_every_card_previews_undoes_and_steps_the_bots(server, page):
    url = address(server)
    page.goto(url)
    page.select_option("#game", "go-fish")
    page.fill("#players", "2")
    page.dispatch_event("#players", "input")
    page.fill("#seed", "5")
    page.select_option("#seat-1", "other")  # a bot with a budget of one's own
    page.fill("#bot-1", "mc:1")
    page.check("#designer")
    page.click("#start")
    page.wait_for_url("**/d/*")
    page.wait_for_selector("body[data-live=websocket]")
    assert "DESIGNER MODE" in page.inner_text("header")
    assert page.inner_text('#seats [data-seat="1"] h3') == "P1 (bot mc:1)"
    bot_hand = page.locator('#seats [data-zone="hand@1"] .card[data-card]')
    assert bot_hand.count() > 0  # the bot's hand, face up
    assert page.locator("#links a").count() == 1  # the person's own page, to hand out
    page.click("#pause")
    page.wait_for_selector("text=bots paused")
    # answer for P0 from the designer's page, twice; the bot waits for a step
    for _ in range(2):
        page.wait_for_selector('#question button.option[data-seat="0"]')
        now = made(page)
        page.locator('#question button.option[data-seat="0"]').first.click()
        page.wait_for_function(f"document.getElementById('status').textContent.includes(' {now + 1} decisions')")
        while page.locator('#question button.option[data-seat="1"]').count():
            now = made(page)
            page.click("#step-one")
            page.wait_for_function(f"document.getElementById('status').textContent.includes(' {now + 1} decisions')")
    # the log: hovering an entry shows the state then
    page.locator("#log li.decision").first.hover()
    page.wait_for_selector("#preview h2")
    assert "after 0 decisions" in page.inner_text("#preview h2") and page.locator("#now").is_hidden()
    page.mouse.move(0, 0)
    page.wait_for_selector("#now", state="visible")
    # undo goes back before the person's last answer; rewind, to the start
    last = page.locator("#log li.decision:not(:has-text('(bot)'))").last.get_attribute("data-at")
    page.click("#undo")
    page.wait_for_function(f"document.getElementById('status').textContent.includes(' {last} decisions')")
    page.locator("#log li.decision button.rewind").first.click()
    page.wait_for_function("document.getElementById('status').textContent.includes(' 0 decisions')")
    # the table as the bot's seat is sent it: the person's hand as backs
    page.click('#see-as button[data-as="1"]')
    page.wait_for_selector("#preview h2:has-text('What P1 is sent')")
    assert page.locator('#preview [data-zone="hand@0"] .card.back').count() > 0
    assert page.locator('#preview [data-zone="hand@0"] .card[data-card]').count() == 0
    page.click('#see-as button[data-as=""]')
    page.wait_for_selector("#now", state="visible")
    assert page.get_attribute("#download", "href").endswith("/log")
    page.click("#pause")
    page.wait_for_function("!document.getElementById('status').textContent.includes('bots paused')")
    assert page.inner_text("#error") == ""


TINY = """\
game: tiny
title: Tiny
players: {min: 2, max: 2}
cards: [cards.yaml]
counters:
  player:
    points: 0
zones:
  hand: {owner: player, visibility: owner}
  pile: {visibility: public}
phases:
  play: |
    let c = I choose a card from my hand "Play which card?"
    move c to pile
    add 1 to my points
flow: {rounds: 2, turn: [play]}
result: {score: my points}
"""
TINY_CARDS = """\
cards:
  - {id: a, name: A, each_player: true, start: hand, text: The first.}
  - {id: b, name: B, each_player: true, start: hand, text: The second.}
"""


@pytest.mark.slow
def test_a_saved_game_file_reloads_on_the_designers_page(tmp_path, page):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(TINY)
    (folder / "cards.yaml").write_text(TINY_CARDS)
    process = serve(str(folder))
    try:
        url = address(process, "tiny")
        page.goto(url)
        page.check("#designer")
        page.click("#start")
        page.wait_for_url("**/d/*")
        page.wait_for_selector("body[data-live=websocket]")
        page.locator('#question button.option[data-seat="0"]').first.click()
        page.wait_for_selector("#seats [data-seat='0'] dd:text-is('1')")
        (folder / "game.yaml").write_text(TINY.replace("add 1 to my points", "add 1 to my pointz"))
        page.wait_for_selector("#rules-errors")
        assert page.inner_text("#rules-errors").startswith("game.yaml:15:")
        (folder / "game.yaml").write_text(TINY.replace("add 1 to my points", "add 5 to my points"))
        page.wait_for_selector("#replay")
        page.click("#replay")
        page.wait_for_selector("#seats [data-seat='0'] dd:text-is('5')")
        replayed, _, of = page.inner_text("#rules").partition(" decisions")[0].partition(" of ")
        assert replayed == of and page.inner_text("#rules").endswith(" decisions played again on the new rules")
        assert page.inner_text("#error") == ""
    finally:
        process.terminate()
        process.wait(timeout=30)
