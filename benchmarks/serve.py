"""What a `meeple serve` table costs in a real browser (Debian's Chromium, headless through Playwright), per game.

    python benchmarks/serve.py [--games hearts,overloaded] [--clicks N] [--screenshots docs/serve]

For each game a table is opened by the API with seat 0 a person and the others random bots (seed 1); then
`load` is the time from asking for the seat's page to its first screen with the question's buttons, `page kB`
the size of the seat's JSON page, `click` the median and the slowest time from a click on an option to the
next screen drawn (the answer sent, the bots played on, the new page drawn), over N clicks on the first
option. Also the server alone: `api` the median time of one answer through the JSON API (no browser).
`--screenshots FOLDER` writes `GAME.png`, the table after the clicks (the first 1400 × 900 pixels). Times are
wall-clock, in ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def open_table(base: str, game: dict) -> str:
    seats = ["person"] + ["random"] * (game["default"] - 1)
    answer = post(base + "api/tables", {"game": game["name"], "players": game["default"], "seed": 1, "seats": seats})
    return answer["seats"]["0"]


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
        print(f"{'game':<14} {'load ms':>8} {'page kB':>8} {'click ms':>9} {'slowest':>8} {'api ms':>7}")
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
                api = api_click_ms(base, games[name], args.clicks)
                print(f"{name:<14} {load:8.0f} {size:8.1f} {statistics.median(clicks):9.0f} {max(clicks):8.0f} "
                      f"{api:7.1f}")
            context.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
