"""`information_state(seat)` right after a decision, as `benchmarks/search.py`'s `info` column makes it, per bundled
game, early, midway and late: the least CPU time of many runs of each call, and its bytecodes; two checkouts
measured in turn in one run.

    python benchmarks/information_after.py [--seeds S] [--repeat R] [--rounds N] [--against DIR] [--instructions
                                          [--parts]] [GAME ...]

For each game (4 players where it allows 4, else its default count), S random matches are played to 10%, 50% and
90% of their decisions. At each point, for k = 0 and 1, a copy renders the seat to act's information state, then
every seat to act takes its option k (modulo their number): the call measured is that seat's information state
after it. Each such call is run R times, each on a fresh copy of that match (its state rebuilt before the clock
starts), and the least CPU time is kept (the machine's load only adds to a run); the figure is the median over
the calls. `afresh`: every line of an event kept per layout is dropped before each run, so the call writes the
lines of the decision's events itself (what search.py's `info` measures: each of its calls follows a decision
no copy made before); `kept`: they are found written (what a search's later copies pay). Bytecodes are counted
once per call, afresh.

`--against DIR` measures the engine of another checkout too (an earlier commit, `git archive COMMIT | tar -x -C
DIR`): the two run in fresh processes in turn, game by game, N rounds (the least of each call over the rounds),
so that the load of a shared machine falls on both alike; the change is printed beside them.

`--instructions` counts machine instructions per call instead (valgrind's callgrind, which must be installed; a
figure no load moves): the same calls, each twice on a fresh copy, only the calls counted (`counted_calls`), each
apart; afresh is a call whose events' lines were forgotten just before it (the forgetting not counted), kept, a call
that finds them. `--parts` (with `--instructions`) splits a call afresh in three, each counted on its own copy: the
events' lines written (`information._catch_up`), then the view (`view_json`), and the rest of a whole call (the
string joined: the lines so far and the view). Callgrind counts a copy of memory made by `rep movsb`, as the C
library copies a long string, an instruction a byte: the rest is a byte of the string about an instruction.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from callgrind import counted_spans, total

HERE = Path(__file__).resolve().parent.parent
POINTS = (("early", 0.1), ("mid", 0.5), ("late", 0.9))


def players_of(game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.default_players


def calls_at(game, seeds: int, share: float) -> list[tuple[Any, int]]:
    """The copies (one decision past the seat's last information state) and their seats, at one point."""
    from walker import played, walk_length  # (here: the engine is on the path by now)

    players, out = players_of(game), []
    for seed in range(seeds):
        m = played(game, players, seed, int(walk_length(game, players, seed) * share))
        if m.over:
            continue
        for k in range(2):
            c = m.clone()
            seat = c.to_act()[0]
            c.information_state(seat)
            for p in c.to_act():
                c.apply(p, k % len(c.legal_actions(p)))
            out.append((c, seat))
    return out


def forget_lines(c, seat: int) -> None:
    """Drop the lines kept for the seat of the events since its last call (only those: dropping every line kept
    would also take the rest of the engine's data out of the processor's caches, which a search does not)."""
    from interpreter.run import information

    hit = information._LOOKS.get(id(c.layout))
    if hit is not None:
        kept = hit[2].lines[seat]
        for e in c._watch.events[c._seen[seat].events:]:
            try:  # noqa: SIM105 (a bare try costs nothing; `suppress` enters a context per event)
                kept.pop(e, None)
            except TypeError:  # (an event holding a list is never kept)
                pass


def least(c, seat: int, repeat: int, afresh: bool) -> float:
    """The least CPU µs of `repeat` runs of the call, each on a fresh copy (rebuilt before the clock starts)."""
    clock = time.process_time_ns
    best = None
    for _ in range(repeat):
        copy = c.clone()
        copy.to_act()
        if afresh:
            forget_lines(copy, seat)
        started = clock()
        copy.information_state(seat)
        spent = clock() - started
        best = spent if best is None or spent < best else best
    return (best or 0) / 1000


def one_game(name: str, seeds: int, repeat: int) -> dict[str, list[Any]]:
    """Per point: [afresh µs per call, kept µs per call, bytecodes per call afresh, characters per call]."""
    sys.path.insert(0, str(HERE / "benchmarks"))
    from opcounts import counted

    from interpreter.game import load_game

    game = load_game(name)
    found = {}
    for point, share in POINTS:
        calls = calls_at(game, seeds, share)
        if not calls:
            continue
        fresh = [least(c, seat, repeat, True) for c, seat in calls]
        kept = [least(c, seat, repeat, False) for c, seat in calls]
        ops, size = [], []
        for c, seat in calls:
            copy = c.clone()
            copy.to_act()
            forget_lines(copy, seat)
            ops.append(counted(lambda copy=copy, seat=seat: copy.information_state(seat))[2])
            size.append(len(copy.information_state(seat)))
        found[f"{name} {players_of(game)}p {point}"] = [fresh, kept, statistics.mean(ops), statistics.mean(size)]
    return found


def in_process(root: Path, name: str, seeds: int, repeat: int) -> dict[str, list[Any]]:
    """One game measured in a fresh Python with the engine of `root`."""
    code = ("import json, sys; root, here, name, seeds, repeat = sys.argv[1:]; sys.path.insert(0, root); "
            "import interpreter; assert interpreter.__file__.startswith(root), interpreter.__file__; "
            "sys.path.insert(0, here); import information_after as bench; "
            "print(json.dumps(bench.one_game(name, int(seeds), int(repeat))))")
    run = subprocess.run([sys.executable, "-c", code, str(root.resolve()), str(HERE / "benchmarks"), name,
                          str(seeds), str(repeat)], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def counted_parts(name: str, seeds: int) -> None:
    """Run under callgrind by `instructions` with `--parts`: per point, each call afresh in three spans (`--parts`),
    labelled `render`, `view` and `whole` (after the point and `|`), the lines first written by another copy as
    `counted_calls` writes them."""
    from interpreter.game import load_game
    from interpreter.run import information

    game = load_game(name)
    for point, share in POINTS:
        key, todo = f"{name} {players_of(game)}p {point}", []
        for c, seat in calls_at(game, seeds, share):
            first, parted, whole = c.clone(), c.clone(), c.clone()
            for copy in (first, parted, whole):
                copy.to_act()
            first.information_state(seat)
            todo.append((parted, whole, seat))
        gc.collect()
        gc.freeze()  # (as `counted_calls`: no collection of the copies made in the spans)
        for parted, whole, seat in todo:
            forget_lines(parted, seat)
            sys.call_tracing(information._catch_up, (parted, seat, parted._seen[seat]))
            print(f"{key}|render", flush=True)
            sys.call_tracing(information.view_json, (parted, seat))
            print(f"{key}|view", flush=True)
            forget_lines(whole, seat)  # (the lines `parted` wrote are kept per layout: forgotten again)
            sys.call_tracing(whole.information_state, (seat,))
            print(f"{key}|whole", flush=True)
        gc.unfreeze()


def counted_calls(name: str, seeds: int) -> None:
    """Run under callgrind by `instructions`: per point and way of making the call, each call runs on a fresh copy
    inside a `sys.call_tracing` of its own (what callgrind counts, and dumps after each), which prints its point and
    way (`|` between them). The lines of each call's events are first written by another copy, as a later copy finds
    them; `afresh` forgets them just before the call, outside what is counted, so that no cost of forgetting them
    is counted and none is to be taken off."""
    from interpreter.game import load_game

    game = load_game(name)
    for point, share in POINTS:
        calls = calls_at(game, seeds, share)
        for c, seat in calls:
            first = c.clone()
            first.to_act()
            first.information_state(seat)
        for way in ("kept", "afresh"):
            todo = []
            for c, seat in calls * 2:
                copy = c.clone()
                copy.to_act()
                todo.append((copy, seat))
            gc.collect()
            gc.freeze()  # (the copies made are no young objects for a collection in the calls to look through)
            for copy, seat in todo:
                if way == "afresh":
                    forget_lines(copy, seat)
                sys.call_tracing(copy.information_state, (seat,))
                print(f"{name} {players_of(game)}p {point}|{way}", flush=True)
            gc.unfreeze()


def instructions(root: Path, name: str, seeds: int, parts: bool = False) -> dict[str, list[float]]:
    """Per point: machine instructions per call afresh and kept, the mean over the calls, with the engine of `root`
    (`counted_calls`); with `parts`, per call afresh its lines written, its view and the rest (`counted_parts`)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "calls"
        call = "counted_parts" if parts else "counted_calls"
        labels = counted_spans(root, "information_after", call, [name, seeds], out).splitlines()
        counts = [total(Path(f"{out}.{i + 1}").read_text()) for i in range(len(labels))]  # (one dump a call)
    found: dict[str, dict[str, list[int]]] = {}
    for label, n in zip(labels, counts, strict=True):
        key, way = label.split("|")
        found.setdefault(key, {}).setdefault(way, []).append(n)
    if parts:
        return {key: [statistics.mean(ways["render"]), statistics.mean(ways["view"]),
                      statistics.mean(ways["whole"]) - statistics.mean(ways["render"]) - statistics.mean(ways["view"])]
                for key, ways in found.items()}
    return {key: [statistics.mean(ways["afresh"]), statistics.mean(ways["kept"])] for key, ways in found.items()}


def counted(names: list[str], engines: list[Path], seeds: int, parts: bool = False) -> int:
    """`main` with `--instructions`: per game and point, instructions per call afresh and kept (with `parts`: a call
    afresh's lines, view and the rest), the mean over the calls, each engine's (and the change, with `--against`)."""
    print(f"information_state after a decision: machine instructions per call (callgrind, the mean of {seeds} "
          f"matches x 2 decisions a point, {'each call afresh in three parts' if parts else 'each call twice'})")
    ways = ["lines", "view", "rest"] if parts else ["afresh", "kept"]
    heads = ways if len(engines) == 1 else [h for way in ways for h in (f"{way} before", "after", "change")]
    print(f"{'game':>24}  " + "  ".join(f"{h:>13}" for h in heads))
    for name in names:
        found = [instructions(root, name, seeds, parts) for root in engines]
        for key in found[0]:
            if len(engines) == 1:
                cells = [f"{n:,.0f}" for n in found[0][key]]
            else:
                cells = [cell for n0, n1 in zip(found[0][key], found[1][key], strict=True)
                         for cell in (f"{n0:,.0f}", f"{n1:,.0f}", f"{n1 / n0 - 1:+.1%}")]
            print(f"{key:>24}  " + "  ".join(f"{x:>13}" for x in cells), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="bundled games (default: all)")
    parser.add_argument("--seeds", type=int, default=3, help="matches per game (default 3)")
    parser.add_argument("--repeat", type=int, default=30, help="runs of each call, the least kept (default 30)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds in turn with --against (default 1)")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout to compare with")
    parser.add_argument("--instructions", action="store_true", help="machine instructions per call (valgrind)")
    parser.add_argument("--parts", action="store_true", help="with --instructions: a call afresh's lines, view, rest")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))  # this checkout's engine, not an installed one
    from interpreter.load.loader import bundled_games

    names = args.games or sorted(bundled_games())
    engines = [HERE] if args.against is None else [args.against, HERE]
    if args.instructions:
        return counted(names, engines, args.seeds, args.parts)
    print(f"Python {sys.version.split()[0]}; information_state after a decision: least CPU µs of {args.repeat} runs "
          f"per call, the median call; bytecodes per call afresh; {args.seeds} matches x 2 decisions a point")
    heads = ["afresh", "kept", "bytecodes", "kB"] if args.against is None else \
        ["afresh before", "after", "change", "kept before", "after", "change", "ops before", "after", "change", "kB"]
    print(f"{'game':>24}  " + "  ".join(f"{h:>13}" for h in heads))
    for name in names:
        runs: list[list[dict[str, list[Any]]]] = [[] for _ in engines]
        for _ in range(args.rounds):
            for i, root in enumerate(engines):
                runs[i].append(in_process(root, name, args.seeds, args.repeat))
        for key in runs[0][0]:
            def figures(found: list[dict[str, list[Any]]], key: str = key) -> list[float]:
                fresh = statistics.median(map(min, zip(*(f[key][0] for f in found), strict=True)))
                kept = statistics.median(map(min, zip(*(f[key][1] for f in found), strict=True)))
                return [fresh, kept, found[0][key][2], found[0][key][3] / 1000]

            mine = [figures(found) for found in runs]
            if args.against is None:
                cells = [f"{mine[0][0]:,.1f}", f"{mine[0][1]:,.1f}", f"{mine[0][2]:,.0f}", f"{mine[0][3]:,.0f}"]
            else:
                (a0, k0, o0, size), (a1, k1, o1, _) = mine
                cells = [f"{a0:,.1f}", f"{a1:,.1f}", f"{a1 / a0 - 1:+.0%}", f"{k0:,.1f}", f"{k1:,.1f}",
                         f"{k1 / k0 - 1:+.0%}", f"{o0:,.0f}", f"{o1:,.0f}", f"{o1 / o0 - 1:+.0%}", f"{size:,.0f}"]
            print(f"{key:>24}  " + "  ".join(f"{x:>13}" for x in cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
