"""Stage 6: the state of one match and the generic verbs that compiled game code calls, all of them named here
(`GENERATED_CODE_NAMES`, the names a game's module is given): the state and the errors a match ends with in
`state.py`, the moves of cards and the upkeep of who knows each in `moving.py`, the limits a match keeps to and the
readers of lists in `guards.py`, and here the other verbs (shuffle, flip, show, roll, random picks, knock-outs, say).

Cards, zones and players are small ints. "No card" and "no player" are -1, so a card property list
ends with the property's default (`props[k][-1]`) and reading a property of no card needs no test.
Every random draw goes through `State.below`, the match's single chance hook (`shuffle` makes the
same draws in a loop of its own).
"""

from __future__ import annotations

import random
from typing import Any

from ..lang.asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT
from ..limits import MAX_NUMBER, UNCHARGED
from ..load.model import HIDDEN, OWNER, PUBLIC
from .events import Said, Shown, Shuffled
from .guards import (
    always,
    ask_condition,
    charge,
    check_loop,
    checked,
    choose_cards,
    enter,
    first_n,
    first_with,
    floordiv,
    last,
    last_n,
    mod,
    need,
    numbers,
    one_ask_each,
    out_of_steps,
    ring_distance,
    too_big,
    too_many_rounds,
    top,
)
from .moving import (
    copies_of,
    kept_sight,
    landed_face_down,
    lapse,
    lapse_copy,
    move,
    move_all,
    move_cards,
    move_zone,
    moved,
    seen_by,
)
from .state import (
    BOTTOM,
    CHANCE_USED,
    DECISIONS,
    RANDOM,
    TOP,
    ChecksTooLong,
    DealOver,
    GameOver,
    Quiet,
    RuleError,
    State,
)

# what the rest of the package, and compiled game code (`GENERATED_CODE_NAMES`), take from the runtime: its state
# (state.py), its guards (guards.py), its card moves (moving.py) and its other verbs, here
__all__ = [
    "BOTTOM", "CHANCE_USED", "DECISIONS", "GENERATED_CODE_NAMES", "HIDDEN", "K_BOOL", "K_CARD", "K_NUMBER",
    "K_PLAYER", "K_TEXT", "OWNER", "PUBLIC", "RANDOM", "TOP", "ChecksTooLong", "DealOver", "GameOver", "Quiet",
    "RuleError", "State", "always", "ask_condition", "back_in", "charge", "check_loop", "checked", "choose_cards",
    "copies_of", "enter", "first_n", "first_with", "flip", "flip_all", "floordiv", "fmt", "is_out", "kept_sight",
    "knock_out", "landed_face_down", "lapse", "lapse_copy", "last", "last_n", "mod", "move", "move_all",
    "move_cards", "move_zone", "moved", "need", "numbers", "one_ask_each", "out_of_steps", "random_card",
    "random_player", "ring_distance", "roll", "say", "seen_by", "show", "shuffle", "too_big", "too_many_rounds",
    "top",
]


def shuffle(st: State, zi: int) -> None:
    """Shuffle a zone in place (Fisher-Yates, each draw as `State.below` makes it: every one has two or
    more outcomes); nobody knows the order any more."""
    cards = st.zones[zi]
    if len(cards) > 1:
        st.chance_used += len(cards) - 1
        rng = st.rng
        if rng.__class__ is random.Random:
            _fisher_yates(cards, rng.getrandbits)
        elif hasattr(rng, "shuffled"):  # a determinized world deals the order it was given
            cards[:] = rng.shuffled(cards)
        else:
            below = rng._randbelow
            for i in range(len(cards) - 1, 0, -1):
                j = below(i + 1)
                cards[i], cards[j] = cards[j], cards[i]
    if st.log is not None:
        known = st.known
        for c in cards:
            known[c] = 0
        if st.watch is not None:
            st.watch.shuffled(st, zi)
        if st.log.__class__ is list:
            st.log.append(Shuffled.log(st.layout, zi))


def _fisher_yates(cards: list[int], bits: Any) -> None:
    """Shuffle `cards` in place with `Random._randbelow(i + 1)` for i from the last place down, written out:
    `bits(k)` until at most i, k the bit length of i + 1 (the same order and stream as `random.shuffle`,
    with no call per draw but the generator's own)."""
    m = len(cards)
    for i, k in _DRAWS.get(m) or _draws(m):
        while (j := bits(k)) > i:
            pass
        cards[i], cards[j] = cards[j], cards[i]


_DRAWS: dict[int, tuple[tuple[int, int], ...]] = {}
"""The draws of a shuffle of m cards by m: each place i from the last down to 1 and the bit length of i + 1."""


def _draws(m: int) -> tuple[tuple[int, int], ...]:
    """`_DRAWS[m]`, worked out (once for each m)."""
    draws = _DRAWS[m] = tuple((i, (i + 1).bit_length()) for i in range(m - 1, 0, -1))
    return draws


def flip(st: State, c: int, up: bool) -> None:
    """Turn one card face up or face down where it lies."""
    if c < 0 or st.face[c] == up:
        return
    if st.log is not None:
        if up:
            st.known[c] = 0
        else:
            landed_face_down(st, c, st.zone_of[c])
    st.face[c] = up
    if st.log is not None:
        st.flipped(c, up)


def flip_all(st: State, cards: list[int], up: bool) -> None:
    """Turn every card of a list face up or face down (a step a card, past UNCHARGED cards)."""
    if len(cards) > UNCHARGED:
        charge(st, cards, "")
    for c in list(cards):
        flip(st, c, up)


def show(st: State, c: int, p: int) -> None:
    """Let player `p` see card `c` (and nobody else)."""
    if c < 0 or p < 0:
        return
    if st.watch is not None:
        st.watch.shown(st, c, p)
    st.known[c] |= 1 << p
    if st.log.__class__ is list:
        st.log.append(Shown.log(st.layout, c, p))


def roll(st: State, sides: int) -> int:
    """Roll a die with `sides` faces."""
    if sides > MAX_NUMBER:
        too_big(sides, "")
    r = st.below(sides) + 1
    if st.log is not None:
        st.rolled(sides, r)
    return r


def random_card(st: State, cards: list[int]) -> int:
    """A card picked uniformly at random from a list (-1 if empty). `State.below` written out where the match's
    chance is its own generator (the same draw: `Random._randbelow`'s `getrandbits(k)` until below n)."""
    n = len(cards)
    if n > 1:
        rng = st.rng
        if rng.__class__ is random.Random:
            st.chance_used += 1
            bits, k = rng.getrandbits, n.bit_length()
            while (r := bits(k)) >= n:
                pass
            return cards[r]
        return cards[st.below(n)]
    return cards[0] if n else -1


def random_player(st: State, players: Any) -> int:
    """A player picked uniformly at random from a list (-1 if empty)."""
    return players[st.below(len(players))] if players else -1


def knock_out(st: State, p: int, for_deal: bool) -> None:
    """Knock player `p` out (of the deal, or of the match): skipped by every player list, neighbour and
    turn from now on. (The flow ends the deal when a phase ends with one player left in.)"""
    if p < 0 or st.out >> p & 1:
        return
    st.out |= 1 << p
    if not for_deal:
        st.gone |= 1 << p
    st.orders, st.others, st.after, st.before = st.layout.seats(st.out)
    if st.log is not None:
        st.seats_changed("knock_out", (("player", p), ("until", "deal" if for_deal else "match")))


def is_out(st: State, p: int) -> bool:
    """Whether player `p` is knocked out (none is not)."""
    return p >= 0 and st.out >> p & 1 == 1


def back_in(st: State) -> None:
    """A new deal: the players knocked out only for the last deal are in again."""
    if st.out != st.gone:
        back = [p for p in range(st.n) if (st.out & ~st.gone) >> p & 1]
        st.out = st.gone
        st.orders, st.others, st.after, st.before = st.layout.seats(st.out)
        if st.log is not None:
            st.seats_changed("back_in", (("players", back),))


def say(st: State, text: str) -> None:
    """A sentence written by the game for the readable log."""
    assert st.log is not None, "compiled code says only into a kept (or watched) log"
    if st.watch is not None:
        st.watch.said(st, text)
    st.log.append(Said.log(text))


def fmt(st: State, kind: str, value: Any) -> str:
    """Render a value of a DSL type for a `say` sentence or a question's text."""
    if kind == "str" or kind == "num":  # the most common, first: text and numbers print as they are
        return str(value)
    t = st.layout
    if kind in ("card", "none"):  # (`none` itself, alone or in a list: nothing, not -1)
        return t.card_names[value] if value >= 0 else "nothing"
    if kind == "player":
        return t.player_name(value)
    if kind == "cards":
        return "[" + ", ".join(t.card_names[c] for c in value) + "]" if value else "nothing"
    if kind == "players":
        return "[" + ", ".join(t.player_name(p) for p in value) + "]"
    if kind == "bool":
        return "yes" if value else "no"
    if kind.startswith("list:"):  # each value written as it is alone (`list:card`: by name); never set: nothing
        each = kind[len("list:"):]
        return "[" + ", ".join(fmt(st, each, v) for v in value) + "]" if value is not None else "nothing"
    if kind == "zone":  # (a zone in a list: its cards now)
        return fmt(st, "cards", st.zones[value])
    if isinstance(value, list):  # (a list of numbers or texts, as they are kept)
        return "[" + ", ".join("yes" if v is True else "no" if v is False else str(v) for v in value) + "]"
    return str(value)


# What generated game code may call, by name.
GENERATED_CODE_NAMES = (
    "move", "move_all", "move_cards", "move_zone", "kept_sight", "moved", "shuffle", "flip", "flip_all",
    "show", "roll",
    "random_card", "say", "fmt", "check_loop", "too_many_rounds", "out_of_steps", "charge", "enter", "need",
    "numbers", "too_big",
    "ask_condition",
    "one_ask_each", "GameOver", "top", "last", "first_with", "first_n", "last_n",
    "floordiv", "mod", "ring_distance", "choose_cards", "random_player", "knock_out", "is_out", "DealOver",
)
