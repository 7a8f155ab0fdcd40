"""What a `sim` match costs, counted rather than timed: Python bytecodes run and Python frames entered (calls
and generator resumptions) per match, for each bundled game, and where they are spent (the game's generated
code, the run stage's modules, the rest). Counts do not change with the machine's load, so two versions of
the engine can be compared on a shared machine where timings are noise (same Python version for both).

    python benchmarks/bytecodes.py [-n MATCHES] [--top K] [--players P] [--against DIR] [GAME ...]

Each game is counted at its smallest and largest player count, or at P players (`--players`).

`--against DIR` counts the same matches with the engine and games of another checkout (for instance an
earlier commit, `git archive COMMIT | tar -x -C DIR`) and prints both totals and the change, per game and
player count.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from opcounts import counted

from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.sim import simulate


def count(game, players: int, matches: int) -> tuple[Counter, Counter]:
    """Bytecodes and frames entered per function (`file:function`, the game's code as `<game>`) over
    `matches` sim matches (seeds 0..matches-1)."""
    simulate(game, players, 0)  # anything loaded or compiled on first use is not counted
    def where(code) -> str:
        name = code.co_filename
        return f"<game>:{code.co_name}" if name.startswith("<") else f"{Path(name).name}:{code.co_name}"

    def work() -> None:
        for seed in range(matches):
            simulate(game, players, seed)

    ops, frames, _ = counted(work, where)
    return ops, frames


def player_counts(game, players: int | None) -> list[int]:
    """The player counts a game is counted at: `players`, else its smallest and largest."""
    return [players] if players else sorted({game.min_players, game.max_players})


def totals(names: list[str], matches: int, players: int | None = None) -> dict[str, float]:
    """Bytecodes per match of each game at its smallest and largest player count, or at `players` only
    (`game/players`)."""
    found = {}
    for name in names:
        game = load_game(name)
        for count_at in player_counts(game, players):
            found[f"{name}/{count_at}"] = sum(count(game, count_at, matches)[0].values()) / matches
    return found


def against(other: Path, names: list[str], matches: int, players: int | None = None) -> int:
    """Print the bytecodes per match of `other`'s engine and games and of this checkout's, and the change."""
    names = names or bundled_games()
    here = Path(__file__).resolve().parent
    # The other engine is imported first, so that this script's own imports find it already loaded.
    code = ("import json, sys; root, n, p, *names = sys.argv[1:]; sys.path.insert(0, root); "
            "import interpreter.game, interpreter.run.sim, interpreter.load.loader; "
            "assert interpreter.__file__.startswith(root), interpreter.__file__; "
            f"sys.path.insert(0, {str(here)!r}); import bytecodes; "
            "print(json.dumps(bytecodes.totals([f'{root}/cards/{g}' for g in names], int(n), int(p))))")
    run = subprocess.run([sys.executable, "-c", code, str(other.resolve()), str(matches), str(players or 0), *names],
                         capture_output=True, text=True, check=True)
    theirs = list(json.loads(run.stdout).values())
    ours = totals([str(here.parent / "cards" / g) for g in names], matches, players)
    print(f"Python {sys.version.split()[0]}, {matches} sim matches per game and player count, random bots")
    print(f"{'game/players':<22} {'against':>12} {'this':>12} {'change':>8}")
    for (key, mine), before in zip(ours.items(), theirs, strict=True):
        label = "/".join(key.rsplit("/", 2)[-2:])
        print(f"{label:<22} {before:>12,.0f} {mine:>12,.0f} {mine / before - 1:>+8.1%}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="bundled games (default: all)")
    parser.add_argument("-n", type=int, default=20, help="matches per game (default 20)")
    parser.add_argument("--top", type=int, default=6, help="functions listed per game (default 6)")
    parser.add_argument("--players", type=int, metavar="P", help="count each game at P players only")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout to compare with")
    args = parser.parse_args(argv)
    if args.against is not None:
        return against(args.against, args.games, args.n, args.players)
    print(f"Python {sys.version.split()[0]}, {args.n} sim matches per game and player count, random bots")
    for name in args.games or bundled_games():
        game = load_game(name)
        for players in player_counts(game, args.players):
            ops, frames = count(game, players, args.n)
            total = sum(ops.values())
            parts = Counter()
            for key, n in ops.items():
                parts["generated" if key.startswith("<game>") else key.split(":")[0]] += n
            print(f"{name}, {players} players: {total / args.n:,.0f} bytecodes, "
                  f"{sum(frames.values()) / args.n:,.0f} frames entered per match")
            shares = ", ".join(f"{part} {n / total:.0%}" for part, n in parts.most_common(5))
            print(f"    by module: {shares}")
            for key, n in ops.most_common(args.top):
                print(f"    {n / args.n:>9,.0f}  {n / total:5.1%}  {frames[key] / args.n:>7,.1f} frames  {key}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
