"""Twins: two real matches that one seat cannot tell apart, for the tests that a seat's bots and worlds read nothing
but what the seat knows (tests/test_bots.py, tests/test_belief_twins.py)."""

from __future__ import annotations

import random

from interpreter.run.match import Match
from tests.walks import walker


def pile_twins(game, players: int, seed: int):
    """Two matches of one seed whose hidden pile has its top two cards in the other order (`arrange`),
    which no seat can tell apart; None if the game keeps no such pile after its set-up."""
    probe = Match(game, players, seed)
    t = probe.layout
    for zi, zone in enumerate(t.zone_names):
        cards = probe.st.zones[zi]
        if "@" in zone or len(cards) < 2:
            continue
        x, y = t.card_ids[cards[-1]], t.card_ids[cards[-2]]
        a = Match(game, players, seed, arrange={zone: [x, y]})
        b = Match(game, players, seed, arrange={zone: [y, x]})
        if a.information_state(0) == b.information_state(0) and a.st.zones != b.st.zones:
            return a, b
    return None


def answer_twins(game, players: int, seed: int, seat: int):
    """Two matches of one seed in which another seat gave a different secret answer, played on alike until
    `seat` has a choice, the seat unable to tell them apart; None if no such answer is found early."""
    bot = walker(seed)
    history: list[tuple[int, int]] = []
    m = Match(game, players, seed)
    while not m.over and len(history) < 60:
        for p in m.to_act():
            n = len(m.legal_actions(p))
            k = bot.pick(n)
            if p != seat and n > 1:
                a, b = Match(game, players, seed), Match(game, players, seed)
                for q, x in history:
                    a.apply(q, x)
                    b.apply(q, x)
                a.apply(p, k)
                b.apply(p, (k + 1) % n)
                if go_on_alike(a, b, seat, random.Random(len(history))) and a.st.zones != b.st.zones:
                    return a, b
            m.apply(p, k)
            history.append((p, k))
    return None


def seed_twins(game, players: int, seeds: range, seat: int):
    """Two matches of different seeds that `seat` cannot tell apart at their first question (its own cards dealt
    alike, the others' not), or None among `seeds`: every shuffle of the two differs."""
    seen: dict[str, Match] = {}
    for seed in seeds:
        m = Match(game, players, seed)
        other = seen.setdefault(m.information_state(seat), m)
        if other is not m and other.st.zones != m.st.zones and other.to_act() == m.to_act():
            return other, m
    return None


def go_on_alike(a, b, seat: int, rng, bot=None) -> bool:
    """Play `a` and `b` on with the same answers until `seat` has a choice; True if then the seat still
    cannot tell them apart."""
    while not a.over:
        if a.information_state(seat) != b.information_state(seat) or a.to_act() != b.to_act():
            return False
        if seat in a.to_act() and len(a.legal_actions(seat)) > 1:
            return True
        for p in a.to_act():
            k = rng.randrange(len(a.legal_actions(p)))
            if a.apply(p, k) is not None or b.apply(p, k) is not None:
                return False
    return False
