"""Bots seated at a match: one name per seat, each bot's generator derived from the match seed and its seat,
so a seed fixes the whole match whoever plays it and wherever (any process, any worker count)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..run.match import Match, random_bot
from . import KINDS, Bot, RandomChoice, check, get

if TYPE_CHECKING:
    from ..game import Game

HUMAN = "human"  # a seat a person plays: no bot


def names_for(text: str | None, players: int | None) -> list[str]:
    """The bot names of a `--bots` text (`ismcts:200` for every seat, or `random,mc:50,…` one per seat),
    each checked (BotNameError); one name is repeated for `players` seats when that is given."""
    names = [k.strip() for k in text.split(",")] if text else ["random"]
    for name in names:
        check(name)
    if len(names) == 1 and players is not None:
        names = names * players
    return names


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the generator of the bot at `seat` of the match of `seed` (not random's: see `Lineup`)."""
    return (seed * 1_000_003 + 7) * 65_537 + 104_729 * (seat + 1)


class Lineup:
    """The bots of one match, by seat (None: a person). Random seats share the random bots' stream of the
    match (`random_bot(seed)`), so `--bots random` plays the matches `sim` and `play_random` play; every
    other bot has a generator of its own (`seat_seed`)."""

    def __init__(self, names: Sequence[str], seed: int, **knobs: object) -> None:
        shared = random_bot(seed)
        self.names = list(names)
        self.bots: list[Bot | None] = []
        for seat, name in enumerate(self.names):
            if name == HUMAN:
                self.bots.append(None)
                continue
            searches = KINDS[check(name)[0]][1]  # the knobs are the search bots' (random and first take none)
            bot = get(name, seat_seed(seed, seat), **(knobs if searches else {}))
            if isinstance(bot, RandomChoice) and bot.kind == "random":
                bot.pick = shared.pick
            self.bots.append(bot)

    @property
    def all_random(self) -> bool:
        """True when every seat is a random bot (the fast `sim` path plays such matches)."""
        return all(name == "random" for name in self.names)

    def play(self, m: Match) -> Match:
        """Play `m` on to its end, each seat's bot choosing from its seat's handle (no person seated)."""
        handles = [m.seat(s) for s in range(m.players)]
        bots = self.bots
        while not m.over:
            for seat in m.to_act():
                bot = bots[seat]
                assert bot is not None, "a person's seat is played at the terminal"
                problem = m.apply(seat, bot.choose(handles[seat]))
                assert problem is None, problem
        return m


def play(game: Game, players: int, seed: int, names: Sequence[str], log: bool = False, **knobs: object) -> Match:
    """One match of `game` between the named bots (one name per seat), played through the step API."""
    lineup = Lineup(names, seed, **knobs)
    return lineup.play(Match(game, players, seed, log=log, bots=list(names)))
