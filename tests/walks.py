"""Walks through a match that tests take their points from: `played`, a random bot seeded like the match; and
`bench_walk`, the walk `benchmarks/bench.py` makes (one answer forced, the first option, at every 9th decision)."""

from __future__ import annotations

from interpreter.game import load_game
from interpreter.run.match import Match, random_bot


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
