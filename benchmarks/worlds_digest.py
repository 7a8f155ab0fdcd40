"""A digest of the worlds `determinize` draws, to show that two engines draw the same worlds for the same generator.

    python benchmarks/worlds_digest.py [--games hearts,go-fish] [--seeds S] [--engine DIR] [--bytecodes]

For each game (4 players where it allows 4, else its default count), S random matches (`search.py`'s) are copied
after 10%, 50% and 90% of their decisions; at each point, for the seat to act, a fresh draw, a next draw at the same
point and a draw at the seat's next turn (the world carried on), each with its own generator. The digest reads each
world's history and every seat's information state in it. `--engine DIR`: the engine of another checkout (an earlier
commit, `git archive COMMIT | tar -x -C DIR`), these matches and draws. `--bytecodes`: each fresh draw counted in
bytecodes run too (`sys.settrace`, per opcode: a figure a shared machine's load does not move), printed per point,
and per game their sum (the draws then take several times as long).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent


def drawn_into(worlds: list, m, seat: int, seed: int) -> None:
    """A fresh draw of `seat`'s world in `m`, added to `worlds`."""
    worlds.append(m.determinize(seat, random.Random(seed)))


def players_of(game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.default_players


def copies_at(game, players: int, seed: int) -> list:
    """`search.py`'s copies of a random match (imported here, so that `--engine` decides the engine)."""
    from interpreter.run.random_bots import random_bot
    from interpreter.run.sim import simulate
    decisions = simulate(game, players, seed).decisions
    cuts = {int(decisions * share) for share in (0.1, 0.5, 0.9)}
    m, bot, out = game.new_match(players=players, seed=seed), random_bot(seed), {}
    while not m.over and len(out) < len(cuts):
        for p in m.to_act():
            if len(m.history) in cuts and len(m.history) not in out:
                out[len(m.history)] = m.clone()
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    return list(out.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated games (default: the bundled ones)")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--engine", default="", help="the checkout whose engine draws (default: this one)")
    parser.add_argument("--bytecodes", action="store_true", help="count each fresh draw's bytecodes")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.engine).resolve() if args.engine else HERE.parent))  # the engine that draws
    from interpreter.game import load_game
    from interpreter.load.loader import bundled_games
    names = args.games.split(",") if args.games else list(bundled_games())
    total = hashlib.blake2b(digest_size=16)
    from counted import Counted  # (this folder's: the first on the path while the script runs)
    counted = Counted()
    for name in names:
        game = load_game(name)
        players = players_of(game)
        digest = hashlib.blake2b(digest_size=16)
        spent = 0
        for seed in range(args.seeds):
            for point, m in zip(("early", "mid", "late"), copies_at(game, players, seed), strict=False):
                seat = m.to_act()[0]
                c = m.clone()
                c.__dict__.pop("_kept", None)
                worlds: list = []
                first = partial(drawn_into, worlds, c, seat, seed)
                if not args.bytecodes:
                    first()
                else:
                    counted(first)
                    print(f"{name} seed {seed} {point} first: {counted.n:,} bytecodes", flush=True)
                    spent += counted.n
                worlds.append(c.determinize(seat, random.Random(seed + 1000)))
                bot = random.Random(seed)
                while not c.over:
                    for p in c.to_act():
                        c.apply(p, bot.randrange(len(c.legal_actions(p))))
                    if seat in c.to_act():
                        worlds.append(c.determinize(seat, random.Random(seed + 2000)))
                        break
                for w in worlds:
                    digest.update(repr(w.history).encode())
                    for s in range(w.players):
                        digest.update(w.information_state(s).encode())
        print(name, digest.hexdigest(), f"(first draws: {spent:,} bytecodes)" if args.bytecodes else "", flush=True)
        total.update(digest.digest())
    print("all", total.hexdigest())


if __name__ == "__main__":
    main()
