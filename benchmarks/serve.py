"""What a `meeple serve` table costs in a real browser (Debian's Chromium, headless through Playwright), per game.

    python benchmarks/serve.py [--games hearts,overloaded] [--clicks N] [--screenshots docs/serve]

For each game a table is opened by the API with seat 0 a person and the others random bots (seed 1); then
`load` is the time from asking for the seat's page to its first screen with the question's buttons, `page kB`
the size of the seat's JSON page, `click` the median and the slowest time from a click on an option to the
next screen drawn (the answer sent, the bots played on, the new page drawn), over N clicks on the first
option (the page is drawn from the answer's reply; the other pages of the table are pushed theirs over the
websocket). Also the server alone: `api` the median time of one answer through the JSON API (no browser);
`push` the median time from an answer sent through the API to the seat's page arriving over its websocket
(a second person seated at the table, bots between); and the designer's tools after the N answers: `preview`
(the state after half the decisions, played again from the seed), `undo`, `rewind` (to half the decisions:
played again from the seed, the bots put back) and `log kB` (the match log downloaded).
`--screenshots FOLDER` writes `GAME.png`, the table after the clicks, and `GAME-designer.png`, its designer's
page (the first 1400 × 900 pixels). Times are wall-clock, in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def open_table(base: str, game: dict, full: bool = False, people: int = 1):
    seats = ["person"] * people + ["random"] * (game["default"] - people)
    answer = post(base + "api/tables", {"game": game["name"], "players": game["default"], "seed": 1, "seats": seats})
    return answer if full else answer["seats"]["0"]


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return (time.perf_counter() - start) * 1000


def designer_ms(base: str, game: dict, clicks: int) -> tuple[float, float, float, float]:
    """rewind (to half the decisions made), undo, preview (of that point) and the log's size, after `clicks`
    answers."""
    answer = open_table(base, game, full=True)
    token = answer["seats"]["0"].rsplit("/", 1)[1]
    designer = base + "api" + answer["designer"].replace("/d/", "/designer/")
    with urllib.request.urlopen(f"{base}api/seat/{token}") as response:
        page = json.loads(response.read())
    for _ in range(clicks):
        if not page["options"]:
            break
        page = post(f"{base}api/seat/{token}/act", {"action": page["options"][0]["action"]})
    with urllib.request.urlopen(designer) as response:
        made = json.loads(response.read())["decisions"]
    preview = timed(lambda: urllib.request.urlopen(f"{designer}/at/{made // 2}").read())
    undo = timed(post, designer + "/undo", {})
    rewind = timed(post, designer + "/rewind", {"to": made // 2})
    with urllib.request.urlopen(designer + "/log") as response:
        size = len(response.read()) / 1024
    return preview, undo, rewind, size


async def _pushes(base: str, game: dict, clicks: int) -> float:
    """The median time from an answer of seat 0 to seat 1's page arriving over its websocket (both people)."""
    import websockets

    if game["default"] < 2:
        return float("nan")
    answer = open_table(base, game, full=True, people=2)
    tokens = {int(s): link.rsplit("/", 1)[1] for s, link in answer["seats"].items()}
    times = []
    async with websockets.connect(base.replace("http", "ws", 1) + f"ws/seat/{tokens[1]}") as other:
        await other.recv()
        for _ in range(clicks):
            with urllib.request.urlopen(f"{base}api/seat/{tokens[0]}") as response:
                page = json.loads(response.read())
            if not page["options"]:
                break
            start = time.perf_counter()
            await asyncio.to_thread(post, f"{base}api/seat/{tokens[0]}/act", {"action": page["options"][0]["action"]})
            try:
                await asyncio.wait_for(other.recv(), 5)
            except TimeoutError:
                continue
            times.append((time.perf_counter() - start) * 1000)
            with urllib.request.urlopen(f"{base}api/seat/{tokens[1]}") as response:
                theirs = json.loads(response.read())
            while theirs["options"]:  # seat 1 answers too, so that seat 0 is asked again
                theirs = post(f"{base}api/seat/{tokens[1]}/act", {"action": theirs["options"][0]["action"]})
                while True:  # the pages pushed meanwhile
                    try:
                        await asyncio.wait_for(other.recv(), 0.05)
                    except TimeoutError:
                        break
    return statistics.median(times) if times else float("nan")


def api_click_ms(base: str, game: dict, clicks: int) -> float:
    token = open_table(base, game).rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{base}api/seat/{token}") as response:
        page = json.loads(response.read())
    times = []
    for _ in range(clicks):
        if not page["options"]:
            break
        start = time.perf_counter()
        page = post(f"{base}api/seat/{token}/act", {"action": page["options"][0]["action"]})
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="hearts,overloaded,go-fish,crazy-eights,low-tide,sky-haulers")
    parser.add_argument("--clicks", type=int, default=12)
    parser.add_argument("--screenshots", type=Path)
    args = parser.parse_args()
    names = args.games.split(",")
    server = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", *names, "--port", "0"], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        base = server.stdout.readline().split(" at ")[1].split()[0]
        with urllib.request.urlopen(base + "api/games") as response:
            games = {g["name"]: g for g in json.loads(response.read())}
        print(f"{'game':<14} {'load ms':>8} {'page kB':>8} {'click ms':>9} {'slowest':>8} {'api ms':>7} "
              f"{'push ms':>8} {'preview':>8} {'undo':>6} {'rewind':>7} {'log kB':>7}")
        with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
            context = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                           args=FLAGS, viewport={"width": 1400, "height": 900})
            page = context.new_page()
            for name in names:
                link = open_table(base, games[name])
                start = time.perf_counter()
                page.goto(base.rstrip("/") + link)
                page.wait_for_selector("button.option")
                load = (time.perf_counter() - start) * 1000
                with urllib.request.urlopen(base + "api/seat/" + link.rsplit("/", 1)[1]) as response:
                    size = len(response.read()) / 1024
                clicks = []
                for _ in range(args.clicks):
                    if not page.locator("button.option").count():
                        break
                    renders = page.get_attribute("body", "data-renders")
                    start = time.perf_counter()
                    page.locator("button.option").first.click()
                    page.wait_for_function(f"document.body.dataset.renders !== '{renders}'")
                    clicks.append((time.perf_counter() - start) * 1000)
                    page.wait_for_selector("button.option:not([disabled]), #result table")
                if args.screenshots:
                    args.screenshots.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(args.screenshots / f"{name}.png"))
                    answer = open_table(base, games[name], full=True)
                    page.goto(base.rstrip("/") + answer["designer"])
                    page.wait_for_selector("#question button.option")
                    for _ in range(args.clicks):
                        renders = page.get_attribute("body", "data-renders")
                        page.locator('#question button.option[data-seat="0"]').first.click()
                        page.wait_for_function(f"document.body.dataset.renders !== '{renders}'")
                        if not page.locator('#question button.option[data-seat="0"]').count():
                            break
                    page.locator("#log li.decision").nth(2).hover()
                    page.wait_for_selector("#preview h2")
                    page.screenshot(path=str(args.screenshots / f"{name}-designer.png"))
                    page.mouse.move(0, 0)
                api = api_click_ms(base, games[name], args.clicks)
                with ThreadPoolExecutor(1) as aside:  # Playwright's own event loop runs in this thread
                    push = aside.submit(asyncio.run, _pushes(base, games[name], args.clicks)).result()
                preview, undo, rewind, log = designer_ms(base, games[name], args.clicks)
                print(f"{name:<14} {load:8.0f} {size:8.1f} {statistics.median(clicks):9.0f} {max(clicks):8.0f} "
                      f"{api:7.1f} {push:8.1f} {preview:8.0f} {undo:6.0f} {rewind:7.0f} {log:7.1f}")
            context.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
