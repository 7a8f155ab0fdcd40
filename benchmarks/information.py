"""What `information_state(seat)` costs right after a decision, per bundled game, early, midway and late in a
match: CPU µs and Python bytecodes per call (a count does not change with the machine's load).

    python benchmarks/information.py [--seeds S] [--copies K] [--rounds R] [--afresh] [--against DIR] [GAME ...]

For each game (4 players where it allows 4, else its default count), S random matches are played through the
step API to 10%, 50% and 90% of their decisions. At each point K copies are made; each renders the seat to act's
information state, then every seat to act decides (copy i takes option i modulo their number), and the call
measured is that seat's information state after it (its earlier one already rendered: what a search bot pays
at each step), timed alone right after its copy is made. The CPU time (the median call, less what reading the clock
costs: a collection of the garbage of making the copies falls on a few calls) is the median of R rounds, each
over fresh copies; the bytecodes are counted once.

The line of an event rendered for a seat is kept (per game and player count, by the event), so the copies that
made the same decision find the lines of its events written; `--afresh` drops every kept line before each call
measured, so that the call writes the lines of the events since the seat's last call itself (what the first copy
to make a decision pays).

`--against DIR` measures the same calls with the engine of another checkout (an earlier commit unpacked with
`git archive COMMIT | tar -x -C DIR`), the two taking turns round by round in fresh processes (so that a
machine's load falls on both alike), and prints both and the change.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from opcounts import counted

HERE = Path(__file__).resolve().parent.parent
POINTS = (("early", 0.1), ("mid", 0.5), ("late", 0.9))


def players_of(game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.default_players


def matches_at(game, seeds: int, share: float) -> list[Any]:
    """Random matches played to a point (those not over there)."""
    from walker import played, walk_length  # (here: the engine is on the path by now)

    players, out = players_of(game), []
    for seed in range(seeds):
        m = played(game, players, seed, int(walk_length(game, players, seed) * share))
        if not m.over:
            out.append(m)
    return out


def one_on(m, i: int) -> tuple[Any, int]:
    """A copy of `m` one decision on (copy i takes option i modulo their number) from its seat's last
    information state, and that seat."""
    c = m.clone()
    seat = c.to_act()[0]
    c.information_state(seat)
    for p in c.to_act():
        c.apply(p, i % len(c.legal_actions(p)))
    return c, seat


def bytecodes(calls: list[tuple[Any, int]], afresh: bool = False) -> int:
    """Bytecodes run by the calls (copy, seat), in all (`afresh`: less those of dropping the kept lines)."""
    def work() -> None:
        for c, seat in calls:
            if afresh:
                forget_lines()
            c.information_state(seat)

    def dropping() -> None:
        for _ in calls:
            forget_lines()

    return counted(work)[2] - (counted(dropping)[2] if afresh else 0)


def forget_lines() -> None:
    """Drop the lines kept for events (an engine that keeps none has none to drop)."""
    from interpreter.run import information

    for hit in getattr(information, "_LOOKS", {}).values():
        for kept in getattr(hit[2], "lines", ()):
            kept.clear()


def one_round(names: list[str], seeds: int, copies: int, count: bool, afresh: bool = False) -> dict[str, list[float]]:
    """Per game and point: [CPU µs per call, bytecodes per call (0 if not `count`)]."""
    from interpreter.game import load_game

    clock = time.process_time
    idle = min(-clock() + clock() for _ in range(1000))  # what reading the clock costs, taken off each call
    found = {}
    for name in names:
        game = load_game(name)
        for point, share in POINTS:
            matches = matches_at(game, seeds, share)
            calls = [one_on(m, i) for m in matches for i in range(copies)]
            ops = bytecodes(calls, afresh) / len(calls) if count and calls else 0
            spent = []
            for m in matches:  # each call timed alone, right after its copy is made (as a search makes them)
                for i in range(copies):
                    c, seat = one_on(m, i)
                    if afresh:
                        forget_lines()
                    started = clock()
                    c.information_state(seat)
                    spent.append(clock() - started - idle)
            found[f"{name} {players_of(game)}p {point}"] = [statistics.median(spent) * 1e6 if spent else 0, ops]
    return found


def in_process(root: Path, names: list[str], seeds: int, copies: int, count: bool,
               afresh: bool) -> dict[str, list[float]]:
    """One round measured in a fresh Python with the engine of `root`."""
    code = ("import json, sys; root, here, seeds, copies, count, afresh, *names = sys.argv[1:]; "
            "sys.path.insert(0, root); import interpreter; assert interpreter.__file__.startswith(root), "
            "interpreter.__file__; sys.path.insert(0, here); import information as bench; "
            "print(json.dumps(bench.one_round(names, int(seeds), int(copies), count == '1', afresh == '1')))")
    run = subprocess.run([sys.executable, "-c", code, str(root.resolve()), str(HERE / "benchmarks"), str(seeds),
                          str(copies), "1" if count else "0", "1" if afresh else "0", *names],
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="bundled games (default: all)")
    parser.add_argument("--seeds", type=int, default=3, help="matches per game (default 3)")
    parser.add_argument("--copies", type=int, default=20, help="copies per match and point (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds timed, the median kept (default 3)")
    parser.add_argument("--afresh", action="store_true", help="drop the kept lines of events before each call")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout to compare with")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))  # this checkout's engine, not an installed one
    from interpreter.load.loader import bundled_games

    names = args.games or bundled_games()
    engines = [HERE] if args.against is None else [args.against, HERE]
    rounds: list[list[dict[str, list[float]]]] = [[] for _ in engines]
    for r in range(args.rounds):
        for i, root in enumerate(engines):  # taking turns, round by round
            rounds[i].append(in_process(root, names, args.seeds, args.copies, r == 0, args.afresh))
    print(f"Python {sys.version.split()[0]}; information_state after a decision: CPU µs per call (median of "
          f"{args.rounds} rounds) and bytecodes per call; {args.seeds} matches x {args.copies} copies a point"
          + ("; no line of an event kept" if args.afresh else ""))
    heads = ["game", "cpu µs", "bytecodes"] if args.against is None else \
        ["game", "cpu before", "cpu after", "change", "ops before", "ops after", "change"]
    print("  ".join(f"{h:>24}" if i == 0 else f"{h:>10}" for i, h in enumerate(heads)))
    for key in rounds[0][0]:
        cpu = [statistics.median(found[key][0] for found in runs) for runs in rounds]
        ops = [runs[0][key][1] for runs in rounds]
        cells = [f"{cpu[0]:,.1f}", f"{ops[0]:,.0f}"] if args.against is None else \
            [f"{cpu[0]:,.1f}", f"{cpu[1]:,.1f}", f"{cpu[1] / cpu[0] - 1:+.0%}", f"{ops[0]:,.0f}", f"{ops[1]:,.0f}",
             f"{ops[1] / ops[0] - 1:+.0%}"]
        print(f"{key:>24}  " + "  ".join(f"{x:>10}" for x in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
