"""What `meeple print` costs, per bundled game: the PDF of every card (A4, poker, mirrored backs) and the PNG
images of its distinct cards.

    python benchmarks/print.py [--games hearts,go-fish] [--repeat R] [--png] [--previews docs/print]

For each game: its cards' copies, sheets and pages; `read` the game's content and print section (YAML,
schema, cards: no rules compiled); `pdf` the PDF made in memory (the fonts registered before, once a
process: `fonts`, first row only); its size in kB; `per card` the PDF's time divided by its copies; with
`--png`, `png` the print-shop PDF of the distinct cards (fronts and backs) rasterised at 300 dpi and encoded,
and how many images. Times are wall-clock medians of R repeats, in ms. `--previews FOLDER` also writes a
sheet of each game's first different cards at 60 dpi, the previews docs/print.md shows: its fronts page as
`GAME.png`, and its backs page as `GAME-backs.png` where they are not all alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from interpreter.load.loader import bundled_games, find_game, load_content
from interpreter.printing.faces import register_fonts
from interpreter.printing.images import pages_as_png
from interpreter.printing.sheets import PrintOptions, copies, sheets_pdf
from interpreter.printing.spec import print_spec


def timed(work, repeat: int) -> tuple[float, object]:
    """The median wall time of `repeat` calls, in ms, and the last call's result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", help="comma-separated bundled games (default: all)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--png", action="store_true", help="also time the PNG images")
    parser.add_argument("--previews", metavar="FOLDER", help="write each game's first sheet there as PNG")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else bundled_games()
    start = time.perf_counter()
    register_fonts()
    print(f"fonts registered in {(time.perf_counter() - start) * 1000:.0f} ms")
    head = f"{'game':<13} {'copies':>6} {'sheets':>6} {'pages':>5} {'read':>7} {'pdf':>7} {'kB':>6} {'per card':>8}"
    print(head + (f" {'png':>8} {'images':>6}" if args.png else ""))
    options = PrintOptions()
    for name in games:
        read_ms, (content, spec) = timed(lambda name=name: (c := load_content(find_game(name)), print_spec(c)),
                                         args.repeat)
        todo = copies(content.model.cards, spec, content.model.max_players)
        pdf_ms, printed = timed(lambda todo=todo, spec=spec: sheets_pdf(todo, spec, options), args.repeat)
        row = (f"{name:<13} {printed.copies:>6} {printed.sheets:>6} {printed.pages:>5} {read_ms:>7.0f} "
               f"{pdf_ms:>7.0f} {len(printed.data) / 1024:>6.0f} {pdf_ms / printed.copies:>8.1f}")
        if args.png:
            unique = list({copy.label: copy for copy in todo}.values())

            def images(unique=unique, spec=spec):
                return pages_as_png(sheets_pdf(unique, spec, replace(options, shop=True)).data)

            png_ms, made = timed(images, 1)
            row += f" {png_ms:>8.0f} {len(made):>6}"
        print(row)
        if args.previews:  # a sheet of different cards: the first copy of each, as they come
            distinct = list({copy.card.id: copy for copy in reversed(todo)}.values())[::-1][:printed.per_sheet]
            fronts, backs = pages_as_png(sheets_pdf(distinct, spec, options).data, dpi=60)
            (Path(args.previews) / f"{name}.png").write_bytes(fronts)
            if len(spec.backs) > 1 or any(c.back for c in content.model.cards):  # backs that are not all alike
                (Path(args.previews) / f"{name}-backs.png").write_bytes(backs)


if __name__ == "__main__":
    main()
