"""A scenario's `expect` block checked against a match: one small function per key, in one table
(`EXPECTATIONS`), each yielding what differed and where inside the block."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .run.match import Invalid, Match
from .run.runtime import seen_by
from .scenario_data import DataPath
from .scenario_match import counter, says, zone_cards

Findings = Iterator[tuple[DataPath, str]]
"""What an expectation found wrong: each (its path inside the expectation, what differed)."""


def _zones(m: Match, zones: dict | None) -> Findings:
    for zone, want in (zones or {}).items():
        have = zone_cards(m, zone)
        if have != list(want):
            yield (zone,), f"zone {zone}: expected {want}, have {have}"


def _holds(m: Match, zones: dict | None) -> Findings:
    for zone, want in (zones or {}).items():
        have = zone_cards(m, zone)
        if sorted(have) != sorted(want):
            yield (zone,), f"zone {zone}: expected the cards {sorted(want)} in any order, have {have}"


def _sizes(m: Match, zones: dict | None) -> Findings:
    for zone, want in (zones or {}).items():
        have = zone_cards(m, zone)
        if len(have) != want:
            yield (zone,), f"zone {zone}: expected {want} cards, have {len(have)}: {have}"


def _counters(m: Match, counters: dict | None) -> Findings:
    for name, want in (counters or {}).items():
        value = counter(m, name)
        if value != want:
            yield (name,), f"counter {name}: expected {want}, have {value}"


def _say(m: Match, texts: list | None) -> Findings:
    sentences = says(m)
    for k, text in enumerate(texts or []):
        if not any(text in s for s in sentences):
            yield (k,), f"no say sentence contains {text!r}"


def _not_say(m: Match, texts: list | None) -> Findings:
    sentences = says(m)
    for k, text in enumerate(texts or []):
        found = [s for s in sentences if text in s]
        if found:
            yield (k,), f"say sentences contain {text!r}: {found}"


def _to_act(m: Match, seats: list) -> Findings:
    if m.to_act() != list(seats):
        yield (), f"to act: expected {seats}, have {m.to_act()}"


def _options(m: Match, options: dict | None) -> Findings:
    for seat, want in (options or {}).items():
        have = m.action_labels(int(seat))
        if have != [str(x) for x in want] and m.option_ids(int(seat)) != [str(x) for x in want]:  # or by card id
            yield (seat,), f"options of seat {seat}: expected {want}, have {have}"


def _invalid(m: Match, inv: dict) -> Findings:
    """An action the match must refuse, without changing anything."""
    before = (m.to_act(), [list(z) for z in m.st.zones], len(m.history))
    result = m.apply(inv["who"], inv["action"])
    what = f"seat {inv['who']} action {inv['action']!r}"
    if not isinstance(result, Invalid):
        yield (), f"{what}: expected the match to refuse it, but it was played"
    elif "code" in inv and result.code != inv["code"]:
        yield ("code",), f"{what}: expected code {inv['code']}, got {result.code} ({result.reason})"
    if (m.to_act(), [list(z) for z in m.st.zones], len(m.history)) != before:
        yield (), "an invalid action changed the match"


def _lying(up: bool) -> Callable[[Match, list | None], Findings]:
    def lying(m: Match, cards: list | None) -> Findings:
        ids = {cid: c for c, cid in enumerate(m.layout.card_ids)}
        for k, cid in enumerate(cards or []):
            if m.st.face[ids[cid]] != up:
                yield (k,), f"{cid} lies face {'down' if up else 'up'}, expected face {'up' if up else 'down'}"
    return lying


def _seen(seen: bool) -> Callable[[Match, dict | None], Findings]:
    def by_seat(m: Match, cards_by_seat: dict | None) -> Findings:
        ids = {cid: c for c, cid in enumerate(m.layout.card_ids)}
        for seat, cards in (cards_by_seat or {}).items():
            mask = 1 << int(seat)
            for k, cid in enumerate(cards):
                if bool(seen_by(m.st, ids[cid]) & mask) != seen:
                    yield (seat, k), f"seat {seat} {'cannot' if seen else 'can'} see {cid}"
    return by_seat


def _over(m: Match, over: bool) -> Findings:
    if m.over != over:
        yield (), f"match over: expected {over}, have {m.over}"


def _at_the_end(key: str) -> Callable[[Match, Any], Findings]:
    def at_the_end(m: Match, want: Any) -> Findings:
        if not m.over:
            yield (), f"{key}: the match is not over"
        elif getattr(m, key) != want:
            yield (), f"{key}: expected {want}, have {getattr(m, key)}"
    return at_the_end


EXPECTATIONS: dict[str, Callable[[Match, Any], Findings]] = {
    "zones": _zones, "holds": _holds, "sizes": _sizes, "counters": _counters, "say": _say, "not_say": _not_say,
    "to_act": _to_act, "options": _options, "invalid": _invalid, "face_up": _lying(True),
    "face_down": _lying(False), "sees": _seen(True), "unseen": _seen(False), "over": _over,
    "winners": _at_the_end("winners"), "scores": _at_the_end("scores"),
}
"""Each key of an `expect` block and its check, in the order they are checked (`invalid` plays an action the
match must refuse, so what comes before it sees the match as it was)."""


def check(m: Match, expect: dict) -> Findings:
    """Every expectation of an `expect` block that fails: (its path inside the block, what differed)."""
    for key, expectation in EXPECTATIONS.items():
        if key in expect:
            for path, text in expectation(m, expect[key]):
                yield (key, *path), text
