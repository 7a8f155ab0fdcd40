"""How often a kept copy of a world is exchanged twice or more (`_Exchanged`), and whether its pairs came from
one shuffle (where renaming each event with the exchanges one after the other and with one relabeling composed of
them all agree) or from several (where they may not: an event before a later pair's shuffle).

    python benchmarks/exchanges_composed.py [--games overloaded,hearts] [--seeds S] [--draws D]

For each game, S random matches (`worlds_digest.py`'s points: 10%, 50% and 90% of their decisions), D draws at each
point for the seat to act, then a few decisions on, three draws at each of the seat's turns (the world carried on).
Prints per game the copies exchanged, those exchanged again, those whose pairs came from several shuffles and the
events one composed relabeling would have renamed otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from worlds_digest import copies_at, players_of  # noqa: E402

from interpreter.game import load_game  # noqa: E402
from interpreter.load.loader import bundled_games  # noqa: E402
from interpreter.run.belief.exchange import _event_exchanged, _Exchanged  # noqa: E402


def composed(relabels: list[dict[int, int]]) -> dict[int, int]:
    """One relabeling of them all: card c's identity after each in turn."""
    out: dict[int, int] = {}
    for relabel in relabels:
        cards = {*out, *relabel}
        out = {c: relabel.get(out.get(c, c), out.get(c, c)) for c in cards}
    return out


def count(stats: Counter, kept) -> None:
    """`kept` (a copy just exchanged) counted in `stats`."""
    stats["exchanged"] += 1
    steps = kept.steps
    if len(steps) < 2:
        return
    stats["again"] += 1
    if len({named[0] for _, named in steps}) > 1:
        stats["several shuffles"] += 1
    world = kept.world
    record = world.__dict__.get("_record")
    events = record[0].events[:record[1]] if record is not None else world._watch.events
    whole = composed([relabel for relabel, _ in steps])
    for i in sorted({i for _, named in steps for i in named}):
        if i < len(events):
            one_after_other = events[i]
            for relabel, named in steps:
                if i in named:
                    one_after_other = _event_exchanged(one_after_other, relabel, None)
            stats["renamed otherwise"] += _event_exchanged(events[i], whole, None) != one_after_other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated games (default: the bundled ones)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--draws", type=int, default=12)
    args = parser.parse_args()
    stats: Counter = Counter()
    made = _Exchanged.__init__

    def init(self, world, pair, named, seat) -> None:
        made(self, world, pair, named, seat)
        count(stats, self)

    _Exchanged.__init__ = init  # type: ignore[method-assign]
    for name in args.games.split(",") if args.games else list(bundled_games()):
        game = load_game(name)
        stats.clear()
        for seed in range(args.seeds):
            for m in copies_at(game, players_of(game), seed):
                seat = m.to_act()[0]
                c = m.clone()
                c.__dict__.pop("_kept", None)
                for k in range(args.draws):
                    c.determinize(seat, random.Random(seed * 100 + k))
                play = random.Random(seed)
                for _ in range(4):
                    if c.over:
                        break
                    for p in c.to_act():
                        c.apply(p, play.randrange(len(c.legal_actions(p))))
                    if not c.over and seat in c.to_act():
                        for k in range(3):
                            c.determinize(seat, random.Random(7 + k))
        print(f"{name}: {stats['exchanged']} copies exchanged, {stats['again']} again, "
              f"{stats['several shuffles']} of pairs of several shuffles, "
              f"{stats['renamed otherwise']} events one composed relabeling renames otherwise", flush=True)


if __name__ == "__main__":
    main()
