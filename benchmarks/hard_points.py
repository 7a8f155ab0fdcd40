"""Fresh draws at the points where `benchmarks/no_world.py` found a draw dear or with no world: how many of them find
no world, how many drawings they take and what they cost, over many generators.

    python benchmarks/hard_points.py [--points GAME:PLAYERS:SEED:DECISIONS:SEAT,...] [--rngs A:B]

A point is rebuilt as `no_world.py`'s walk reaches it: the match of SEED, PLAYERS players, played by the walk's random
bot (`walker`) to DECISIONS decisions; SEAT draws there afresh (no world kept), once per generator `random.Random(r)`,
r in [A, B). At such a point a draw's cost and its luck swing widely from one generator to the next, so one draw tells
little: the figures are over all of them. Printed per point: draws, draws with no world, draws that walked the
match (every drawing from the start failed: see `no_world.py`), drawings made (`_Replay`s played, the walk's too: the
first that fits ends a draw), and the draws' CPU (`time.process_time`): all, median and worst, in s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from no_world import walks_counted
from walker import played

from interpreter.game import load_game
from interpreter.run.belief import NoConsistentWorld
from interpreter.run.belief.replay import _Replay

# found by `no_world.py --seeds 5`: a draw of the walk found no world there, fresh draws find one only slowly; and
# where fresh draws found none with one generator of eight (which the walk of the match mends: `stages._walked`)
KNOWN = "crazy-eights:5:4:34:1,go-fish:4:4:30:3,go-fish:5:4:112:2"


def point(name: str, players: int, seed: int, decisions: int):
    """The match of the walk of `seed` after `decisions` decisions."""
    m = played(load_game(name), players, seed, decisions)
    if len(m.history) != decisions:
        raise SystemExit(f"{name} {players}p seed {seed}: the walk does not stop at {decisions} decisions")
    return m


def drawings_counted() -> list[int]:
    """A counter of the drawings played (`_Replay.play` calls), for this process."""
    count = [0]
    play = _Replay.play

    def counted(self, *args, **kwargs):
        count[0] += 1
        return play(self, *args, **kwargs)

    _Replay.play = counted
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description="Fresh draws at hard points, over many generators.")
    parser.add_argument("--points", default=KNOWN, help=f"GAME:PLAYERS:SEED:DECISIONS:SEAT,... (default {KNOWN})")
    parser.add_argument("--rngs", default="0:20", help="the generators' seeds, A:B (default 0:20)")
    args = parser.parse_args()
    a, b = (int(x) for x in args.rngs.split(":"))
    count, walked = drawings_counted(), walks_counted()
    print("| point | draws | no world | walked | drawings | CPU s | median s | worst s |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in args.points.split(","):
        name, players, seed, decisions, seat = spec.split(":")
        m = point(name, int(players), int(seed), int(decisions))
        times: list[float] = []
        failed = 0
        count[0] = walked[0] = 0
        for r in range(a, b):
            c = m.clone()
            c.__dict__.pop("_kept", None)
            t0 = time.process_time()
            try:
                c.determinize(int(seat), random.Random(r))
            except NoConsistentWorld:
                failed += 1
            times.append(time.process_time() - t0)
        print(f"| {spec} | {len(times)} | {failed} | {walked[0]} | {count[0]} | {sum(times):.1f} | "
              f"{statistics.median(times):.2f} | {max(times):.1f} |", flush=True)


if __name__ == "__main__":
    main()
