"""A game's score (and tie-breaks) as one seat may know them: evaluated on a state rebuilt from that
seat's view alone, so a number shown to a player never comes from what the player cannot see.

The view lists each zone in order, a hidden card by its back. The rebuilt state holds a stand-in for
each hidden card: counting it works, reading one of its back properties works, reading anything else of
it (or a counter the view withholds, or which way up a card lies) makes the value unknown (None).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .run.runtime import State


class Unknown(Exception):
    """The value needs something the seat cannot see."""


class _Withheld:
    """A value the view does not give: reading it makes the whole value unknown."""


WITHHELD = _Withheld()


class _Guarded(list):
    """A list whose withheld entries make any read of them (or any walk over them) unknown."""

    def __getitem__(self, i):
        value = list.__getitem__(self, i)
        if value is WITHHELD:
            raise Unknown
        return value

    def __iter__(self) -> Iterator[Any]:
        for value in list.__iter__(self):
            if value is WITHHELD:
                raise Unknown
            yield value


class _Unseen:
    """Anything that must not be read at all (which way up a card lies, who knows it)."""

    def __getitem__(self, i: Any) -> Any:
        raise Unknown

    def __len__(self) -> int:
        raise Unknown


class _Props:
    """One property of every card: real cards as the layout has them, a stand-in only by its back."""

    def __init__(self, real: list, stand_ins: list[dict[str, Any]], name: str) -> None:
        self.real, self.stand_ins, self.name = real, stand_ins, name
        self.first_stand_in = len(real) - 1  # the layout's last entry is the default ("no card", -1)

    def __getitem__(self, c: int) -> Any:
        if c < self.first_stand_in:
            return self.real[c]  # also -1, "no card": the property's default
        back = self.stand_ins[c - self.first_stand_in]
        if self.name not in back:
            raise Unknown
        return back[self.name]


class _NoChance:
    def _randbelow(self, n: int) -> int:
        raise Unknown


def seat_state(m: Any, view: dict[str, Any]) -> State:
    """A state built from one seat's view (hidden cards as stand-ins) for evaluating score functions."""
    t = m.layout
    copies: dict[str, list[int]] = {}  # a view names cards by face: each one seen takes a copy of its own
    for c, face in reversed(list(enumerate(t.face_ids))):
        copies.setdefault(face, []).append(c)
    real = len(t.card_ids)
    stand_ins: list[dict[str, Any]] = []
    st: Any = State.__new__(State)  # its parts are stand-ins that read like the real ones, or raise Unknown
    zones: list[list[int]] = []
    zone_of = [-1] * real
    for zi, name in enumerate(t.zone_names):
        shown = view["zones"].get(name, {"count": 0})
        if isinstance(shown, dict):
            shown = [{"hidden": True}] * shown.get("count", 0)
        cards = []
        for card in shown:
            if isinstance(card, str):
                c = copies[card].pop()
                zone_of[c] = zi
            else:
                c = real + len(stand_ins)
                stand_ins.append({k: v for k, v in card.items() if k != "hidden"})
                zone_of.append(zi)
            cards.append(c)
        zones.append(cards)
    names = m.game.prop_names
    st.props = tuple(_Props(values, stand_ins, names[k]) for k, values in enumerate(t.props))
    st.zones, st.zone_of = zones, zone_of
    st.face = st.known = _Unseen()
    counters = view.get("counters", {})
    game_counters, player_counters = m.game.counter_names
    gc = _Guarded([WITHHELD] * (max((i for i, _ in game_counters), default=-1) + 1))
    for i, name in game_counters:
        value = counters.get(name, WITHHELD)
        gc[i] = WITHHELD if value is None else value
    pc = _Guarded([WITHHELD] * (max((i for i, _ in player_counters), default=-1) + 1))
    for i, name in player_counters:
        values = counters.get(name)
        pc[i] = _Guarded(WITHHELD if v is None else v for v in values) if isinstance(values, list) \
            else _Guarded([WITHHELD] * m.players)
    st.gc, st.pc = gc, pc
    st.layout, st.n = t, m.players
    st.out = st.gone = sum(1 << p for p in view["out"])  # who is out is public (score functions never read `gone`)
    st.orders, st.others, st.after, st.before = t.seats(st.out)
    st.first, st.active, st.round, st.turn = view["first"], view["active"], view["round"], view["turn"]
    st.deal, st.rounds_played = view["deal"], 0
    st.rng, st.log, st.decisions, st.chance_used = _NoChance(), None, 0, 0
    st.table_counters = m.game.counter_names
    return st


def evaluate(fn: Callable[[Any, int], Any], st: Any, seat: int) -> Any:
    """`fn(st, seat)`, or None if it needs what the state's viewer cannot see (or fails on a stand-in)."""
    try:
        return fn(st, seat)
    except Unknown:
        return None
    except (IndexError, KeyError, TypeError, ValueError, AttributeError, ArithmeticError):
        return None  # a stand-in read as a real card somewhere the guards do not reach


def scores_seen_by(m: Any, viewer: int) -> tuple[list[Any], list[list[Any]]]:
    """Each seat's score and tie-breaks as `viewer` may know them (None where it may not)."""
    game = m.game
    st = seat_state(m, m.view(viewer))
    scores = [evaluate(game.score, st, p) if game.score else None for p in range(m.players)]
    ties = [[evaluate(tb, st, p) for tb in game.tiebreaks] for p in range(m.players)]
    return scores, ties


def scores_of_all(m: Any) -> tuple[list[Any], list[list[Any]]]:
    """Each seat's score and tie-breaks from the whole state (for an omniscient narration)."""
    game = m.game
    scores = [evaluate(game.score, m.st, p) if game.score else None for p in range(m.players)]
    ties = [[evaluate(tb, m.st, p) for tb in game.tiebreaks] for p in range(m.players)]
    return scores, ties
