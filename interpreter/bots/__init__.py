"""The bots, by name: `get("ismcts:200", seed=S)` returns a bot whose `choose(m.seat(s))` picks an action.

Names are `KIND[:BUDGET]`: `random`, `first`, `mc:N`, `ismcts:N` (N iterations) or `ismcts:0.5s` (a time
budget); `ismcts-deal:N`, `ismcts-round:N` (and `mc-…`) are those searches with play-outs that stop at the end
of the deal or round under way. Every bot chooses from a seat handle only, with a generator of its own seeded
by `seed`.
A new kind is added with `register(kind, factory)`: `factory(seed=…, budget=…, **knobs)` returns a `Bot`
subclass instance (docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from .base import Bot, BotNameError, Budget, FirstChoice, RandomChoice, Stats, parse_budget
from .ismcts import InformationSetMCTS
from .mc import FlatMonteCarlo

__all__ = ["KINDS", "Bot", "BotNameError", "Budget", "FirstChoice", "FlatMonteCarlo", "InformationSetMCTS",
           "RandomChoice", "Stats", "check", "get", "register"]

# kind → (the bot's factory, whether it takes a budget)
KINDS: dict[str, tuple[Callable[..., Bot], bool]] = {
    "random": (RandomChoice, False),
    "first": (FirstChoice, False),
    "mc": (FlatMonteCarlo, True),
    "ismcts": (InformationSetMCTS, True),
    # play-outs to the end of the deal or round under way (the `horizon` knob), scored by the result there
    "mc-deal": (partial(FlatMonteCarlo, horizon="deal"), True),
    "mc-round": (partial(FlatMonteCarlo, horizon="round"), True),
    "ismcts-deal": (partial(InformationSetMCTS, horizon="deal"), True),
    "ismcts-round": (partial(InformationSetMCTS, horizon="round"), True),
}


def register(kind: str, factory: Callable[..., Bot], budget: bool = True) -> None:
    """Make `kind` (or `kind:BUDGET` when `budget`) a bot name everywhere bots are named."""
    if not kind.isidentifier() or kind in KINDS:
        raise ValueError(f"{kind!r} is not a new bot kind")
    KINDS[kind] = (factory, budget)


def check(name: str) -> tuple[str, Budget | None]:
    """A bot name's kind and budget; a name that names no bot raises BotNameError saying which do."""
    kind, colon, text = name.strip().partition(":")
    if kind not in KINDS:
        names = ", ".join(f"{k}:N" if takes else k for k, (_f, takes) in KINDS.items())
        raise BotNameError(f"unknown bot `{name}`; bots: {names} (N: iterations, or seconds as `0.5s`)")
    takes = KINDS[kind][1]
    if colon and not takes:
        raise BotNameError(f"`{name}`: the `{kind}` bot takes no budget")
    return kind, parse_budget(kind, text) if colon else None


def get(name: str, seed: int = 0, **knobs: Any) -> Bot:
    """The bot of that name with its own generator seeded by `seed` (knobs: e.g. `worlds=`, `payoff="score"`,
    `c=`, `horizon="deal"` for the search bots)."""
    kind, budget = check(name)
    factory, takes = KINDS[kind]
    return factory(seed=seed, budget=budget, **knobs) if takes else factory(seed=seed, **knobs)
