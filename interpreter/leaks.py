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

import random
from dataclasses import dataclass, field
from typing import Any

from .leak_sight import Followed, compare, copy_apart, place_of
from .run.belief import NoConsistentWorld
from .run.information import back_key, interchangeable, observed, ordered_for
from .run.match import Match, random_bot
from .run.runtime import CHANCE_USED, K_CARD


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
    m._lenient = lenient  # type: ignore[attr-defined]  # read by compare
    bot = random_bot(seed)
    rng = random.Random(seed * 7919 + n)
    views = [Followed(m, seat) for seat in range(n)]
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
    return getattr(t, "face_ids", None) or [copy_apart(f'"{c}"')[1:-1] for c in t.card_ids]


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
                compare(m, seat, worlds[0], worlds[1], len(observed(m, seat)), where)
            checked += 1
    return checked


def _who(m: Match, p: int) -> str:
    return m.layout.player_name(p)


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
    compare(m, seat, a, other, start, where, free, chance)


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
        raise AssertionError(f"{place_of(m)}: determinize({seat}) failed: {err!r}") from err
    if d.view(seat) != view or d.information_state(seat) != want:  # (raised, not asserted: checked under -O too)
        raise AssertionError(f"{place_of(m)}: determinize({seat}) changed what P{seat} sees")
    for _ in range(3):  # and play goes on legally from there
        if d.over:
            break
        for p in d.to_act():
            problem = d.apply(p, rng.randrange(len(d.legal_actions(p))))
            if problem is not None:
                raise AssertionError(f"{place_of(m)}: after determinize({seat}), P{p}'s legal action was refused: "
                                     f"{problem}")
    report.determinized += 1
