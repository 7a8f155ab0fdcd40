"""Walks through a match that tests take their points from: `played`, a random bot seeded like the match;
`bench_walk`, the walk `benchmarks/bench.py` makes (one answer forced, the first option, at every 9th decision);
and `answered`, a match's answers written out in `tests/answers/` (a point a test needs that no change to the
random bots may move)."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.game import load_game
from interpreter.run.match import Match, random_bot, replay

ANSWERS = Path(__file__).parent / "answers"


def played(game, players: int, seed: int, decisions: int) -> Match:
    """A match of `game` after `decisions` decisions (or over sooner) of a random bot seeded like the match."""
    m = Match(game, players, seed)
    bot = random_bot(seed)
    while not m.over and len(m.history) < decisions:
        for seat in m.to_act():
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
    return m


def bench_walk(name: str, players: int, seed: int, decisions: int) -> Match:
    """The match of bundled game `name` after `decisions` decisions of the walk."""
    m = load_game(name).new_match(players=players, seed=seed)
    bot = random_bot(seed)
    while len(m.history) < decisions:
        for seat in m.to_act():
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
        if len(m.history) % 9 == 0:
            m.apply(m.to_act()[0], 0)
    return m


def answered(name: str, decisions: int | None = None) -> Match:
    """The match of `tests/answers/NAME.json` (its game, players, seed and answers as `[seat, action]`) after its
    first `decisions` answers (all of them if None)."""
    written = json.loads((ANSWERS / f"{name}.json").read_text(encoding="utf-8"))
    answers = [(seat, action) for seat, action in written["answers"]][:decisions]
    return replay(load_game(written["game"]), written["players"], written["seed"], answers)
