"""What one seat sees of a match, for the leak check (`interpreter.leaks`): the view its observations imply
(`Followed`, so that a change of the state nobody was told of is found), and two matches compared as the seat
sees them (`compare`): the first difference must be one the rules show, else it is a leak (AssertionError)."""

from __future__ import annotations

import json
import re
from typing import Any

from .run.information import observed, ordered_for, zone_view
from .run.match import Match
from .run.runtime import OWNER, PUBLIC, Quiet, State

# ---- the view a seat's observations imply ----------------------------------------------------------------


class Followed:
    """A seat's zones rebuilt from its observations alone: in each zone whose order the seat sees, the
    card at each place where an observation named it (None where it showed only a back), elsewhere only
    how many cards lie there; and the counters and turn of the last table it saw. `check` compares that
    with the view the match shows the seat now, so a change of the state nobody was told of (a zone
    reordered, a card moved or turned without an event) is found, whatever the statement that made it."""

    def __init__(self, m: Match, seat: int) -> None:
        self.seat = seat
        t = m.layout
        start = State(t, m.players, 0, Quiet())  # the cards where they lie before anything happens
        self.zones: dict[str, list[str | None]] = {}
        self.sees_order: dict[str, bool] = {}
        for zi, name in enumerate(t.zone_names):
            seen = zone_view(m.game, start, zi, seat)
            self.zones[name] = [None] * seen["count"] if isinstance(seen, dict) \
                else [x if isinstance(x, str) else None for x in seen]
            self.sees_order[name] = ordered_for(t, zi, seat)
        self.lost: set[str] = set()  # zones where a card went to a place the seat did not see
        self.table: dict | None = None
        self.read = 0
        self.errors: list[str] = []

    def _follows(self, zone: str) -> bool:
        return self.sees_order[zone] and zone not in self.lost

    def _take(self, zone: str, at: int | None, card: str | None) -> None:
        cards = self.zones[zone]
        if not cards:
            self.errors.append(f"{card or 'a hidden card'} leaves {zone}, where no card lies")
        elif at is not None and self._follows(zone):
            if not 0 < at <= len(cards):
                self.errors.append(f"{card or 'a hidden card'} leaves {zone} at place {at}, of {len(cards)}")
            else:
                there = cards.pop(at - 1)
                if card is not None and there is not None and there != card:
                    self.errors.append(f"{card} leaves {zone} at place {at}, where {there} was")
        else:  # no place (a hidden zone's order is nobody's): which of the cards left may be unknown now
            gone = card if card in cards else None
            if self._follows(zone) and (cards.count(gone) > 1 or (gone is None and any(cards))):
                self.lost.add(zone)
            cards.remove(gone) if gone in cards else cards.pop()

    def _moved(self, d: dict, card: str | None) -> None:
        self._take(d["from"], d.get("from_at"), card)
        zone = d["to"]
        if "to_at" in d and self._follows(zone):
            self.zones[zone].insert(d["to_at"] - 1, card)
        else:
            self.zones[zone].append(card)
            if self.sees_order[zone]:
                self.lost.add(zone)

    def _turned(self, d: dict, card: str | None) -> None:
        """A card flipped or shown at a place of a zone the seat follows."""
        cards = self.zones[d["zone"]]
        if not 0 < d["at"] <= len(cards):
            self.errors.append(f"{card or 'a hidden card'} in {d['zone']} at place {d['at']}, of {len(cards)}")
        elif card is not None:
            cards[d["at"] - 1] = card

    def _feed(self, line: str) -> None:
        d = json.loads(line)
        kind = d.get("event")
        card = d["card"] if isinstance(d.get("card"), str) else None
        if kind == "move":
            self._moved(d, card)
        elif kind in ("flip", "show") and "at" in d and self._follows(d["zone"]):
            self._turned(d, card)
        elif kind == "shuffle":
            self.zones[d["zone"]] = [None] * len(self.zones[d["zone"]])
            self.lost.discard(d["zone"])
        elif kind == "table":
            self.table = d
        for zone in self.lost & {d.get("from"), d.get("zone")}:
            if not self.zones[zone]:
                self.lost.discard(zone)  # emptied: followed again

    def _zone_problems(self, zone: str, shown: list | dict) -> list[str]:
        """Where a zone of the view (its cards, or only their count) is not what the observations put there."""
        cards = self.zones[zone]
        count = shown["count"] if isinstance(shown, dict) else len(shown)
        if count != len(cards):
            return [f"{zone} holds {count} cards, the observations {len(cards)}"]
        if not (self._follows(zone) and isinstance(shown, list)):
            return []
        return [f"{zone} shows {y} at place {at + 1}, where the observations put {x}"
                for at, (x, y) in enumerate(zip(cards, shown, strict=True))
                if x is not None and isinstance(y, str) and x != y]

    def check(self, m: Match) -> None:
        lines = observed(m, self.seat)
        for line in lines[self.read:]:
            if '"type":"event"' in line:
                self._feed(line)
        self.read = len(lines)
        view = m.view(self.seat)
        problems, self.errors = self.errors, []
        for zone, shown in view["zones"].items():
            problems += self._zone_problems(zone, shown)
        if self.table is not None:
            problems += [f"{key} is {view[key]!r}, the last table seen {self.table[key]!r}"
                         for key in ("round", "turn", "first", "active", "counters") if self.table[key] != view[key]]
        if problems:
            raise AssertionError(f"leak in {place_of(m)}:\n  P{self.seat}'s view is not what its observations "
                                 f"imply (the state changed where nobody was told):\n    " + "\n    ".join(problems))


# ---- comparing two matches as one seat sees them -------------------------------------------------------


def compare(m: Match, seat: int, a: Match, b: Match, start: int, what: str, free: int | None = None,
             chance: bool = False) -> None:
    """The first difference in what `seat` observed since line `start` must be one the rules show (or,
    from line `free` on, an answer of another seat, which may answer differently in the two; with
    `chance`, where the two matches' chance differs, a roll or a place in a zone whose order it knows)."""
    lenient = getattr(m, "_lenient", False)
    la, lb = observed(a, seat), observed(b, seat)
    if lenient:
        la, lb = la[:start] + _no_asks(la[start:], seat), lb[:start] + _no_asks(lb[start:], seat)
    i = next((i for i in range(start, min(len(la), len(lb))) if la[i] != lb[i]), None)
    if i is not None:
        _excuse_line(m, seat, la, lb, i, what, free, chance)
        return
    if len(la) != len(lb):
        i = min(len(la), len(lb))
        if _shown_by_rules(m, la, lb, i, seat):
            return
        if lenient:
            return  # one match may wait for a question the other did not ask
        raise AssertionError(_leak(m, seat, what, f"observation {i + 1}",
                                   la[i] if i < len(la) else "(nothing)", lb[i] if i < len(lb) else "(nothing)"))
    va, vb = a.view(seat), b.view(seat)
    if lenient:
        va, vb = {**va, "to_act": None}, {**vb, "to_act": None}
    if va != vb:
        detail = "; ".join(f"{k}: {_diff(va[k], vb[k])}" for k in va if va[k] != vb[k])
        raise AssertionError(_leak(m, seat, what, "the view", detail, "(as above)"))


def _excuse_line(m: Match, seat: int, la: list[str], lb: list[str], i: int, what: str, free: int | None,
                 chance: bool) -> None:
    """The first line `i` where the two matches differ for the seat: a leak (raised) unless the rules show it,
    or it is another seat's free answer, or (with `chance`) chance shown as the rules show it."""
    if copy_apart(la[i]) == copy_apart(lb[i]) or _same_look(m, la, lb, i, seat):
        raise AssertionError(_leak(m, seat, what, f"observation {i + 1}", la[i], lb[i]))
    if _shown_by_rules(m, la, lb, i, seat) or (chance and _chance_shown(m, la[i], lb[i], seat)):
        return  # the rules show it (in one of the matches at least): the seat may tell them apart
    if free is not None and i >= free and '"type":"decision"' in la[i] and f'"who":{seat}}}' not in la[i]:
        return
    raise AssertionError(_leak(m, seat, what, f"observation {i + 1}", la[i], lb[i]))


_COPY = re.compile(r"#[0-9]+(?=[\"@])")


def copy_apart(line: str) -> str:
    """A line with the copies of a card (`guard#2`, `guard#3`) named alike (`guard`)."""
    return _COPY.sub("", line)


def _same_look(m: Match, la: list[str], lb: list[str], i: int, seat: int) -> bool:
    """Do the two matches show the seat the same cards of a hand it does not hold (a look), only in
    another order? The order a player keeps a hand in is theirs alone: that difference is a leak."""
    def look(lines: list[str]) -> list[dict]:
        first = json.loads(lines[i])
        if first.get("event") != "show" or first["to"] != seat:
            return []
        run = [first]
        for x in lines[i + 1:]:
            d = json.loads(x)
            if d.get("event") != "show" or d["zone"] != first["zone"] or d["to"] != seat:
                break
            run.append(d)
        return run

    a, b = look(la), look(lb)
    if not a or not b or a[0]["zone"] != b[0]["zone"]:
        return False
    zi = m.layout.zone_names.index(a[0]["zone"])
    cards = sorted(json.dumps(d["card"], sort_keys=True) for d in a)
    return not ordered_for(m.layout, zi, seat) and cards == sorted(json.dumps(d["card"], sort_keys=True) for d in b)


def _chance_shown(m: Match, x: str, y: str, seat: int) -> bool:
    """Where chance differs: a roll, the seat's own options (as it sees them), whose turn it is, or a move
    whose only differences are cards the seat sees (in both matches) and places in zones whose order it
    knows (a public zone, or its own)."""
    dx, dy = json.loads(x), json.loads(y)
    if dx.get("event") == "roll" or dy.get("event") == "roll":
        return True
    if dx.get("type") == dy.get("type") == "ask" and dx["who"] == dy["who"] == seat:
        return dx["prompt"] == dy["prompt"]  # its own options, as it sees them
    if dx.get("event") == dy.get("event") == "table":
        return dx["counters"] == dy["counters"]  # whose turn it is (a first player drawn by chance)
    if dx.get("event") != "move" or dy.get("event") != "move":
        return False
    if isinstance(dx["card"], str) and isinstance(dy["card"], str):
        del dx["card"], dy["card"]
    t = m.layout
    for key, zone in (("from_at", "from"), ("to_at", "to")):
        if dx.get(key) != dy.get(key):
            zi = t.zone_names.index(dx[zone])
            if t.zone_vis[zi] != PUBLIC and t.zone_owner[zi] != seat:
                return False
            dx.pop(key, None)
            dy.pop(key, None)
    return dx == dy


def _no_asks(lines: list[str], seat: int) -> list[str]:
    """The lines without the questions put to other seats (nor the tables noted when they were put:
    the views still show the counters)."""
    return [x for x in lines if not (x.startswith('{"prompt"') and '"type":"ask"' in x and f'"who":{seat}}}' not in x)
            and '"event":"table"' not in x]


def _diff(x: Any, y: Any) -> str:
    if isinstance(x, dict) and isinstance(y, dict):
        return ", ".join(f"{k}: {x.get(k)!r} / {y.get(k)!r}" for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k))
    return f"{x!r} / {y!r}"


def _face_shown(m: Match, line: str, seat: int) -> bool:
    """Does this observation show the seat a card's face: shown to it, or lying face up where it sees?"""
    d = json.loads(line)
    if d.get("type") != "event" or not isinstance(d.get("card"), str):
        return False
    if d["event"] == "show":
        return d["to"] == seat
    t = m.layout
    zi = t.zone_names.index(d["to"] if d["event"] == "move" else d["zone"])
    if t.zone_owner[zi] == seat or (d["event"] == "move" and t.zone_owner[t.zone_names.index(d["from"])] == seat):
        return True  # into or out of the seat's own zone: it may look at its own cards, face down too
    if d.get("face") != "up":
        return False  # a card the seat knew going face down: knowledge kept, not shown
    return t.zone_vis[zi] == PUBLIC or (t.zone_vis[zi] == OWNER and t.zone_owner[zi] == seat)


def _shown_by_rules(m: Match, la: list[str], lb: list[str], i: int, seat: int) -> bool:
    """Does observation `i` (of one match at least) show something on purpose: a card's face, a
    knock-out, a counter that turns visible, or a sentence? A sentence excuses only what it says: a
    sentence, or a visible counter that changes and is told before anyone is asked, is excused only if
    the words said from there until someone is asked differ between the two matches (the same words
    said in both excuse nothing)."""
    told = False
    for x in (la, lb):
        if i >= len(x):
            continue
        d = json.loads(x[i])
        if d.get("type") != "event":
            continue
        if d["event"] in ("knock_out", "back_in") or _face_shown(m, x[i], seat):
            return True
        if d["event"] == "table":
            last = next((json.loads(y) for y in reversed(x[:i]) if '"event":"table"' in y), None)
            if last is not None and _only_revealed(d, last):
                return True
        told = told or d["event"] in ("say", "table")
    return told and _said_before_asked(la, i) != _said_before_asked(lb, i)


def _said_before_asked(lines: list[str], i: int) -> list[str]:
    """The sentences said from line `i` on, until someone is asked or answers."""
    said = []
    for x in lines[i:]:
        if '"type":"ask"' in x or '"type":"decision"' in x:
            break
        if '"event":"say"' in x:
            said.append(json.loads(x)["text"])
    return said


def _only_revealed(now: dict, last: dict) -> bool:
    """Every counter value that differs from the seat's last table was hidden there."""
    if any(now[k] != last[k] for k in ("round", "turn", "first", "active")):
        return False
    for name, value in now["counters"].items():
        old = last["counters"].get(name)
        olds = old if isinstance(old, list) else [old]
        for v, o in zip(value if isinstance(value, list) else [value], olds, strict=False):
            if v != o and o is not None:
                return False
    return True


def place_of(m: Match) -> str:
    return f"{m.game.name}, {m.players} players, seed {m.seed}, after decisions {m.history}"


def _leak(m: Match, seat: int, what: str, at: str, x: str, y: str) -> str:
    return (f"leak in {place_of(m)}:\n  {what};\n  P{seat} can tell the two apart at {at}:\n"
            f"    one: {x}\n    other: {y}")
