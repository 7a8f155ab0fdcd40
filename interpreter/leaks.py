"""A leak check for any game: nobody sees what they should not.

    from interpreter import load_game
    from interpreter.leaks import check_leaks

    def test_my_game_hides_what_it_should():
        check_leaks(load_game("path/to/my-game"), seeds=range(3))

Random matches are played, and at their decision points the check asks, for each seat, what the rules
hide from it:
- a **hidden answer**: another seat's secret (simultaneous) answer, or its pick among cards of a hand
  the seat cannot see (same back): each is replaced by another such answer;
- a **hidden deal**: two cards the seat cannot tell apart (same back, lost from sight: in the deck,
  another hand, face down) swap places from the match's last kept phase boundary on (so the shuffle
  or the draw came out the other way);
- **chance**: one chance outcome (a shuffle's, a random pick's, a die's) comes out another way, from
  the last kept phase boundary on, or from the start at the first decision point (the set-up's chance).
Where the other world changes what a player is asked or may answer since that boundary, the two
matches are compared up to the last point they share; then both play on a little, answering alike.
They must look the same to the seat — its observations, view, questions and their labels, whether it
is asked at all — until the rules themselves show the difference: a card turned or moved where the
seat sees its face, a `say` sentence whose words differ, a counter that becomes visible (a counter
that changes is excused only by a sentence, before anyone is asked, whose words differ), and where
chance differs a roll, its own options, or a place in a zone whose order it knows. Two copies of one
card told apart, or the same cards of another player's hand shown in another order, are never
excused. The first difference that is none of these is a leak: `check_leaks` raises AssertionError
naming the game, the seed, the decisions so far, what was replaced and what the seat saw in each
match. At every point a seat's view must also be what its observations imply (the cards it follows,
where it sees them, how many cards each zone holds, the counters): a change of the state nobody was
told of is found there. And `determinize` must leave the seat's view and information state as they
were, at random points (and not fail).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from .run.belief import NoConsistentWorld
from .run.information import back_key, interchangeable, observed, ordered_for, zone_view
from .run.match import Match, random_bot
from .run.runtime import CHANCE_USED, K_CARD, OWNER, PUBLIC, Quiet, State


@dataclass
class LeakReport:
    """What a clean check looked at (a leak raises instead)."""

    answers: int = 0  # hidden answers replaced
    deals: int = 0  # hidden deals swapped
    chance: int = 0  # chance outcomes drawn another way
    determinized: int = 0  # determinizations checked
    no_world: int = 0  # determinizations that found no world within their budget (not a leak: counted)
    matches: int = 0
    by_players: dict[int, int] = field(default_factory=dict)  # points checked per player count

    @property
    def points(self) -> int:
        return self.answers + self.deals + self.chance + self.determinized


def check_leaks(game, players: int | list[int] | None = None, seeds=range(2), every: int = 1,
                deals: int = 1, determinize: int = 9, max_decisions: int = 400,
                ignore_who_is_asked: bool = False, worlds: int = 3) -> LeakReport:
    """Play random matches of `game` (every player count unless `players` is given) and check at every
    `every`-th decision point that the hidden answers do not show; at the first point, for every seat, a
    swapped hidden deal and a chance outcome drawn another way, then at every `deals`-th point one of the
    two by turns, for a seat in turn (0: none after the first point); at every `determinize`-th a
    determinization (0: none; at most `worlds` a match: a world is a whole other match played, so it
    costs far more than a point); and at every point, for a seat in turn (every seat at the first), that
    the view is what its observations imply.
    Raises AssertionError on the first leak. `ignore_who_is_asked`: do not count whether another seat is
    asked (the engine asks every choice, even with one option; this is for rules that ask only when a
    hidden hand allows a choice)."""
    counts = game.player_counts(players) if isinstance(players, int) else list(players or game.player_counts())
    report = LeakReport()
    for n in counts:
        for seed in seeds:
            before = report.points
            _check_match(game, n, seed, every, deals, determinize, max_decisions, report, ignore_who_is_asked,
                         worlds)
            report.matches += 1
            report.by_players[n] = report.by_players.get(n, 0) + report.points - before
    return report


def _check_match(game, n: int, seed: int, every: int, deals: int, determinize: int, max_decisions: int,
                 report: LeakReport, lenient: bool, worlds: int) -> None:
    m = Match(game, n, seed)
    drawn = 0  # determinizations checked in this match
    m._lenient = lenient  # type: ignore[attr-defined]  # read by _compare
    bot = random_bot(seed)
    rng = random.Random(seed * 7919 + n)
    views = [_Followed(m, seat) for seat in range(n)]
    since: list[Match] = []  # copies of the match at each point since its kept base (see _check_deal)
    point = 0
    while not m.over and len(m.history) < max_decisions:
        point += 1
        if since and since[0]._base is not m._base:
            since = []
        since.append(m.clone())
        for seat in range(n) if point == 1 else [point % n]:
            views[seat].check(m)
        if point % every == 0:
            for seat in range(n):  # the seat in turn sees the others' answers played on
                report.answers += _check_answers(m, seat, rng, seat == point % n)
        _check_other_worlds(m, point, deals, rng, since, report)
        if determinize and point % determinize == 0 and drawn < worlds:
            drawn += 1
            _check_determinize(m, rng.randrange(n), rng, report)
        for p in m.to_act():
            m.apply(p, bot.pick(len(m.legal_actions(p))))


def _check_other_worlds(m: Match, point: int, deals: int, rng: random.Random, since: list[Match],
                        report: LeakReport) -> None:
    """At the first point every seat, both ways (a hidden deal swapped, chance drawn another way); then at every
    `deals`-th point a seat in turn, a deal and chance by turns."""
    n = m.players
    if point == 1:  # before anyone answered
        for seat in range(n):
            report.deals += _check_deal(m, seat, rng, since)
            report.chance += _check_chance(m, seat, rng, since, True)
    elif deals and point % deals == 0:
        turn = point // deals
        if turn % 2:
            report.chance += _check_chance(m, turn // 2 % n, rng, since, False)
        else:
            report.deals += _check_deal(m, turn // 2 % n, rng, since)


# ---- hidden answers ---------------------------------------------------------------------------------


def _hidden_pairs(m: Match, p: int, seat: int) -> list[tuple[int, int]]:
    """Pairs of `p`'s options that the rules hide from `seat`."""
    ask = m._ask_of(p)
    if ask is None:
        return []
    options, kind = ask[1], ask[2]
    st, t = m.st, m.layout
    secret = m.simultaneous

    groups: dict[Any, list[int]] = {}
    for i, value in enumerate(options):
        if kind == K_CARD:
            if value < 0:
                key: Any = ("none",)
            elif secret:
                key = ("card", back_key(t, value))  # unseen now; later only its back may show
            elif not ordered_for(t, st.zone_of[value], seat):
                key = ("hand", st.zone_of[value], back_key(t, value))  # a pick from a hand the seat does not hold
            else:
                continue  # a card where the seat sees which one is taken
        elif secret:
            key = ("answer",)
        else:
            continue
        groups.setdefault(key, []).append(i)
    face = _faces(m)
    pairs = []
    for g in groups.values():  # the first option and one of another face (two copies of a card are alike)
        if len(g) > 1:
            first = face[options[g[0]]] if kind == K_CARD and options[g[0]] >= 0 else None
            pairs.append((g[0], next((i for i in g if face[options[i]] != first), g[-1]) if first else g[-1]))
    return pairs


def _faces(m: Match) -> list[str]:
    """What a seat sees of each card: its face (copies of one card alike)."""
    t = m.layout
    return getattr(t, "face_ids", None) or [_copy_apart(f'"{c}"')[1:-1] for c in t.card_ids]


def _check_answers(m: Match, seat: int, rng: random.Random, play_on: bool = False) -> int:
    """Replace each hidden answer of another seat by another; `play_on`: and let both matches play on a
    little, answering alike (what the answer changes later, a question asked or not, shows there)."""
    checked = 0
    for p in m.to_act():
        if p == seat:
            continue
        for a, b in _hidden_pairs(m, p, seat):
            worlds = []
            rest = [q for q in m.to_act() if q != p] if m.simultaneous else []
            for action in (a, b):
                w = m.clone()
                w.apply(p, action)
                for q in rest:
                    w.apply(q, 0)  # the rest of the same secret choice: alike in both matches
                worlds.append(w)
            where = f"{_who(m, p)} answered {m.option_ids(p)[a]!r} or {m.option_ids(p)[b]!r}"
            if play_on:
                _play_on_and_compare(m, seat, worlds[0], worlds[1], len(observed(m, seat)), where, False)
            else:
                _compare(m, seat, worlds[0], worlds[1], len(observed(m, seat)), where)
            checked += 1
    return checked


# ---- hidden deals -----------------------------------------------------------------------------------


def _check_deal(m: Match, seat: int, rng: random.Random, since: list[Match]) -> int:
    """Swap two cards `seat` cannot tell apart, from the kept base on, and compare. `since`: copies of
    the match at the points since its base (the last is the match now); if the swapped match cannot be
    played to now (someone is asked something else, or an answer no longer fits), it is compared from
    the last of those points it reaches."""
    if m.over or m._base is None:
        return 0
    groups = interchangeable(m, seat)
    if not groups:
        return 0
    group = rng.choice(groups)
    c = rng.choice(group)
    zone_of, face = m.st.zone_of, _faces(m)
    others = [d for d in group if face[d] != face[c]] or [d for d in group if d != c]  # another face, if any
    elsewhere = [d for d in others if zone_of[d] != zone_of[c]]  # a swap between two zones, where there is one
    d = rng.choice(elsewhere or others)
    pi = list(range(len(m.st.face)))
    pi[c], pi[d] = d, c
    ids = m.layout.card_ids
    where = f"the hidden cards {ids[c]} and {ids[d]} swapped places (from the last phase boundary on)"
    return _check_twin(m, seat, since, lambda here: Match.relabeled(here, pi, seat, None), where)


def _check_twin(m: Match, seat: int, since: list[Match], twin, where: str, chance: bool = False) -> int:
    """Compare the match with `twin(here)` (another world, played again from the kept base to `here`),
    for `here` the match now or, if that world cannot be played to now (someone is asked something else,
    or an answer no longer fits), the last point of `since` it reaches; both then play on a little,
    answering alike."""
    points = since or [m]
    here: Match | None = points[-1]
    other = twin(points[-1])
    low, high = 0, len(points) - 2
    if other is None:  # the last point it reaches (once the other world cannot follow, it cannot later)
        here = None
        while low <= high:
            mid = (low + high) // 2
            found = twin(points[mid])
            if found is None:
                high = mid - 1
            else:
                here, other, low = points[mid], found, mid + 1
    if here is None or other is None:
        return 0  # not even the base fits: that world is not this one's twin
    start = _lines_before(m, seat, m._base_info[0])
    if since and here is not since[-1]:
        where += f", compared after decisions {here.history}"
    _play_on_and_compare(m, seat, here.clone(), other, start, where, chance)
    return 1


def _play_on_and_compare(m: Match, seat: int, a: Match, other: Match, start: int, where: str, chance: bool) -> None:
    free = len(observed(other, seat))  # from here on, the others answer as they like
    for _ in range(LOOKAHEAD):  # and on, answering alike (the same words), while both can
        if a.over or other.over or a.to_act() != other.to_act():
            break
        p = a.to_act()[0]
        said, labels = a.action_labels(p)[0], other.action_labels(p)  # as the deciding seat sees them
        if said not in labels:
            break
        a.apply(p, 0)
        other.apply(p, labels.index(said))
    _compare(m, seat, a, other, start, where, free, chance)


LOOKAHEAD = 8  # decisions of the other seats played on after a swapped deal


# ---- chance drawn another way -----------------------------------------------------------------------------


class _OtherDraw(random.Random):
    """Chance as a generator in the state `state` draws it, but for its draw number `left` from now (0: the
    next), which comes out another way."""

    def __init__(self, state: tuple | None = None, left: int = -1, skew: int = 0) -> None:
        super().__init__()
        if state is not None:
            self.setstate(state)
        self.left, self.skew = left, skew

    def _randbelow(self, n: int) -> int:
        value = super()._randbelow(n)  # type: ignore[misc]
        self.left -= 1
        return (value + 1 + self.skew % (n - 1)) % n if self.left == -1 else value

    def __reduce__(self) -> tuple:
        return type(self), (self.getstate(), self.left, self.skew)


def _check_chance(m: Match, seat: int, rng: random.Random, since: list[Match], first: bool) -> int:
    """One chance outcome drawn since the kept base (at the first point: since the match began) comes out
    another way: a card drawn at random, a shuffle, a die. What the seat sees of chance it sees as the
    rules show it (a roll, a face, a place in a zone whose order it knows); nothing else may differ."""
    if m.over or m._base is None:
        return 0
    cur, frozen = m._base
    skew = rng.randrange(1 << 30)
    if first:  # the chance of the set-up, before anyone was asked: the match played again from its start
        if not m.st.chance_used or m.history:
            return 0
        k = rng.randrange(m.st.chance_used)
        draw = _OtherDraw(random.Random(m.seed).getstate(), k, skew)
        other = Match(m.game, m.players, m.seed, chance=draw._randbelow)
        _play_on_and_compare(m, seat, m.clone(), other, 0, f"chance outcome {k + 1} came out another way", True)
        return 1
    state, drawn = frozen[-1], m.st.chance_used - frozen[CHANCE_USED]
    if drawn <= 0 or state[0] == "object":
        return 0
    k = rng.randrange(drawn)
    identity = list(range(len(m.st.face)))

    def twin(here: Match) -> Match | None:
        w = here.clone()
        w._base = (cur, (*frozen[:-1], ("object", _OtherDraw(state, k, skew))))
        return Match.relabeled(w, identity, seat, None)

    where = f"chance outcome {frozen[CHANCE_USED] + k + 1} came out another way (from the last phase boundary on)"
    return _check_twin(m, seat, since, twin, where, chance=True)


def _lines_before(m: Match, seat: int, events: int) -> int:
    """How many of `seat`'s observation lines come from the first `events` raw events (rendered on from
    where the last call stopped: the kept base only moves on)."""
    from .run.information import render

    known = m.__dict__.setdefault("_leak_lines", {})
    done, count, last = known.get(seat, (0, 0, None))
    if events < done:
        done, count, last = 0, 0, None
    lines, last = render(m, seat, m._watch.events[done:events], last)
    known[seat] = (events, count + len(lines), last)
    return count + len(lines)


# ---- determinize ------------------------------------------------------------------------------------


def _check_determinize(m: Match, seat: int, rng: random.Random, report: LeakReport) -> None:
    if m.over:
        return
    want, view = m.information_state(seat), m.view(seat)
    try:
        d = m.determinize(seat, rng)
    except AssertionError:
        raise
    except NoConsistentWorld:  # no world within the budget: said, counted, no leak
        report.no_world += 1
        return
    except Exception as err:  # anything else is a failure of determinize, not an internal error of the check
        raise AssertionError(f"{_where(m)}: determinize({seat}) failed: {err!r}") from err
    if d.view(seat) != view or d.information_state(seat) != want:  # (raised, not asserted: checked under -O too)
        raise AssertionError(f"{_where(m)}: determinize({seat}) changed what P{seat} sees")
    for _ in range(3):  # and play goes on legally from there
        if d.over:
            break
        for p in d.to_act():
            problem = d.apply(p, rng.randrange(len(d.legal_actions(p))))
            if problem is not None:
                raise AssertionError(f"{_where(m)}: after determinize({seat}), P{p}'s legal action was refused: "
                                     f"{problem}")
    report.determinized += 1


# ---- the view a seat's observations imply ----------------------------------------------------------------


class _Followed:
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
            raise AssertionError(f"leak in {_where(m)}:\n  P{self.seat}'s view is not what its observations "
                                 f"imply (the state changed where nobody was told):\n    " + "\n    ".join(problems))


# ---- comparing two matches as one seat sees them -------------------------------------------------------


def _compare(m: Match, seat: int, a: Match, b: Match, start: int, what: str, free: int | None = None,
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
    if _copy_apart(la[i]) == _copy_apart(lb[i]) or _same_look(m, la, lb, i, seat):
        raise AssertionError(_leak(m, seat, what, f"observation {i + 1}", la[i], lb[i]))
    if _shown_by_rules(m, la, lb, i, seat) or (chance and _chance_shown(m, la[i], lb[i], seat)):
        return  # the rules show it (in one of the matches at least): the seat may tell them apart
    if free is not None and i >= free and '"type":"decision"' in la[i] and f'"who":{seat}}}' not in la[i]:
        return
    raise AssertionError(_leak(m, seat, what, f"observation {i + 1}", la[i], lb[i]))


_COPY = re.compile(r"#[0-9]+(?=[\"@])")


def _copy_apart(line: str) -> str:
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


def _who(m: Match, p: int) -> str:
    return m.layout.player_name(p)


def _where(m: Match) -> str:
    return f"{m.game.name}, {m.players} players, seed {m.seed}, after decisions {m.history}"


def _leak(m: Match, seat: int, what: str, at: str, x: str, y: str) -> str:
    return (f"leak in {_where(m)}:\n  {what};\n  P{seat} can tell the two apart at {at}:\n"
            f"    one: {x}\n    other: {y}")
