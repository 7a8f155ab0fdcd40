"""The walk the benchmarks take their points from: the answers the random bots gave before their stream was
BLAKE2b's (a Mersenne Twister seeded from the match seed, as `tests/walks.py`'s `walker`). A change to the random bots'
stream leaves these points where they were, and any version of the engine makes the same walk (`RandomBot` is in
every one), so two versions compared with `--against` play the same matches."""

from __future__ import annotations

import sys

from interpreter.run.match import RandomBot


def walker(seed: int) -> RandomBot:
    """The walk's answers for the match of `seed`: `pick(n)`, no draw with one option."""
    return RandomBot(seed * 1_000_003 + 7)


def players_of(game) -> int:
    """The players of the benchmarks' matches of `game`: 4 where it may, else its default."""
    return 4 if game.min_players <= 4 <= game.max_players else game.default_players


def played(game, players: int, seed: int, decisions: int):
    """The match of `seed` after `decisions` decisions of the walk (or over sooner; a round of several seats acting at
    once is answered whole)."""
    m, bot = game.new_match(players=players, seed=seed), walker(seed)
    while not m.over and len(m.history) < decisions:
        for p in m.to_act():
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    return m


def walk_length(game, players: int, seed: int) -> int:
    """The decisions the walk of the match of `seed` makes to its end, through the step API (a benchmark's points are
    shares of it: `sim`'s own match, played by the random bots' stream, may be shorter)."""
    return len(played(game, players, seed, sys.maxsize).history)
