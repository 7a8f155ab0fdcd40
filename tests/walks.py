"""Walks through a match that tests take their points from, none of them the random bots' (so that a change to
the random bots' stream moves no point a test needs): `walker(seed)`, the answers; `played`, a match after so many
of them; `walked`, a whole match (as `play_random` played it with the random bots of a Mersenne Twister);
`bench_walk`, the walk of `benchmarks/bench.py`'s figures of information (one answer forced, the first option, at
every 9th decision); `answered`, a match's answers written out in `tests/answers/`; `old_bots`, the bots of `play`
answering with the walker."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.game import load_game
from interpreter.run.match import Match, RandomBot, replay

ANSWERS = Path(__file__).parent / "answers"


def walker(seed: int) -> RandomBot:
    """The answers of the walks of the match of `seed`: `pick(n)` (no draw with one option), from a Mersenne Twister
    seeded as the random bots' was before their stream was BLAKE2b's (`random_bot`), and kept apart from them: a change
    to their stream leaves every point tests found in these matches where it is."""
    return RandomBot(seed * 1_000_003 + 7)


def walked(game, players: int, seed: int, log: bool = False) -> Match:
    """A whole match of `game` answered by `walker(seed)` (what `play_random` played with the random bots of a
    Mersenne Twister)."""
    return _answered(Match(game, players, seed, log=log), walker(seed), None)


def old_bots(monkeypatch) -> None:
    """The random bots of a `Lineup` (those of `play`, `duel`, a page's bots) answer with `walker(seed)`, as they
    did when a story of the terminal was written (the test stays where it is though their stream changed)."""
    monkeypatch.setattr("interpreter.bots.lineup.random_bot", walker)


def played(game, players: int, seed: int, decisions: int) -> Match:
    """A match of `game` after `decisions` decisions (or over sooner) of `walker(seed)`."""
    return _answered(Match(game, players, seed), walker(seed), decisions)


def to_turn(m: Match, seat: int, rng) -> Match:
    """`m` answered at random (`rng`) on to `seat`'s next question (at least one round of answers given)."""
    while True:
        for p in m.to_act():
            m.apply(p, rng.randrange(len(m.legal_actions(p))))
        if seat in m.to_act():
            return m


def _answered(m: Match, bot: RandomBot, decisions: int | None) -> Match:
    """`m` answered by `bot` to its end, or until it has `decisions` decisions (a round of several seats acting at
    once is answered whole)."""
    while not m.over and (decisions is None or len(m.history) < decisions):
        for seat in m.to_act():
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
    return m


def bench_walk(name: str, players: int, seed: int, decisions: int) -> Match:
    """The match of bundled game `name` after `decisions` decisions of the walk."""
    m = load_game(name).new_match(players=players, seed=seed)
    bot = walker(seed)
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
