"""A seat's information state is written incrementally (its lines kept joined, its view's zones and
counters kept as they were, the frequent lines written from pieces made once per layout): it must be,
byte for byte, the straightforward rendering of everything the match recorded, at every point, in every
bundled and test game, through clones that go on apart, copies cut back to their kept base, search copies,
determinized worlds and pickles (which carry no rendered line)."""

from __future__ import annotations

import json
import pickle
import random
import textwrap
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.run import information as info
from interpreter.run import look
from interpreter.run.information import (
    ASK,
    FLIP,
    HIDDEN,
    MOVE,
    ROLL,
    SAY,
    SEATS,
    SHOW,
    SHUFFLE,
    TABLE,
    back_key,
    back_of,
    card_place_label,
    counter_rules,
    faces,
    glimpse_at,
    option_label,
    order_known,
    ordered_for,
    prompt_text,
    visible_counters,
)
from interpreter.run.match import Match
from interpreter.run.runtime import seen_by

# ---- the reference: every event rendered from the start, as dicts, then dumped --------------------------


def _card_key(line: dict) -> str:
    return json.dumps(line["card"], sort_keys=True)


def _sort_glimpses(out: list[dict], line: dict, alone: bool) -> None:
    k = len(out)
    while k and (x := out[k - 1]).get("event") == "show" and "at" not in x and x["zone"] == line["zone"] \
            and x["to"] == line["to"]:
        k -= 1
    run = sorted([*out[k:], line], key=_card_key)
    if alone:
        run = [x for i, x in enumerate(run) if i == 0 or x != run[i - 1]]
    out[k:] = run


class _Table:
    def __init__(self, n, gc, pc):
        self.n, self.gc, self.pc = n, gc, pc


def reference_lines(m: Match, seat: int) -> list[str]:
    t, game = m.layout, m.game
    names = t.zone_names
    out: list[dict] = []
    bit = 1 << seat
    face = faces(t)
    last = None

    def card(c: int, seen: int):
        return face[c] if seen & bit else back_of(game, t, c)

    for e in m._watch.events:
        kind = e[0]
        if kind == MOVE:
            _, c, src, at, dst, to, up, before, after = e[:9]
            d = {"event": "move", "card": card(c, before | after), "from": names[src], "to": names[dst],
                 "face": "up" if up else "down"}
            if order_known(t, src, seat):
                d["from_at"] = at + 1
            if ordered_for(t, dst, seat) and (to >= 0 or after & bit):
                d["to_at"] = (to if to >= 0 else ~to) + 1
        elif kind == FLIP:
            _, c, zi, at, up, before, after = e[:7]
            d = {"event": "flip", "card": card(c, before | after), "zone": names[zi], "face": "up" if up else "down"}
            if order_known(t, zi, seat):
                d["at"] = at + 1
        elif kind == SHUFFLE:
            d = {"event": "shuffle", "zone": names[e[1]]}
        elif kind == SHOW:
            _, c, p, zi, at, before = e[:6]
            d = {"event": "show", "card": card(c, before | (1 << p)), "zone": names[zi], "to": p}
            if glimpse_at(t, zi, p, seat):
                d["at"] = at + 1
            else:
                _sort_glimpses(out, {"type": "event", **d}, p != seat)
                continue
        elif kind == ROLL:
            d = {"event": "roll", "sides": e[1], "result": e[2]}
        elif kind == SAY:
            d = {"event": "say", "text": e[1]}
        elif kind == SEATS:
            d = {"event": e[1], **dict(e[2])}
        elif kind == TABLE:
            rnd, turn, first, active, gc, pc = e[1]
            d = {"event": "table", "round": rnd, "turn": turn, "first": first, "active": active,
                 "counters": visible_counters(game.model, _Table(t.n, gc, pc), seat)}
            if d == last:
                continue
            last = d
        elif kind == ASK:
            _, who, question, asked, options = e[:5]
            d = {"type": "ask", "who": who, "prompt": prompt_text(game, question, asked, written=who != seat)}
            if who == seat:
                d["options"] = [option_label(game, t, asked, x, seat) for x in options]
        else:
            _, who, secret, answer, seen, zi, at = e[:7]
            d = {"type": "decision", "who": who}
            if not secret or who == seat:
                if zi < 0:
                    d["label"] = answer
                elif seen & bit and (who == seat or ordered_for(t, zi, seat)):
                    d["label"] = face[answer]
                else:
                    d["label"] = card_place_label(game, t, answer, zi, at, seat)
        if "event" in d:
            d = {"type": "event", **d}
        out.append(d)
    return [json.dumps(d, sort_keys=True, separators=(",", ":")) for d in out]


def reference_zone(m: Match, zi: int, seat: int):
    st, t, game = m.st, m.layout, m.game
    bit = 1 << seat
    cards = st.zones[zi]
    face = faces(t)
    if not ordered_for(t, zi, seat):
        known = sorted(face[c] for c in cards if st.known[c] & bit)
        hidden = sorted((back_key(t, c), c) for c in cards if not st.known[c] & bit)
        shown = [*known, *(back_of(game, t, c) for _, c in hidden)]
    else:
        shown = [face[c] if seen_by(st, c) & bit else back_of(game, t, c) for c in cards]
    if t.zone_vis[zi] == HIDDEN and not any(isinstance(x, str) for x in shown):
        return {"count": len(cards)}
    return shown


def reference_view(m: Match, seat: int) -> dict:
    st, t = m.st, m.layout
    zones = {t.zone_names[zi]: reference_zone(m, zi, seat) for zi in range(len(st.zones))}
    return {"seat": seat, "deal": st.deal, "round": st.round, "turn": st.turn, "first": st.first,
            "active": st.active, "out": [p for p in range(st.n) if st.out >> p & 1], "zones": zones,
            "counters": visible_counters(m.game.model, st, seat), "to_act": m.to_act(),
            "options": m.action_labels(seat)}


def reference_state(m: Match, seat: int) -> str:
    head = json.dumps({"game": m.game.name, "players": m.players, "seat": seat}, sort_keys=True)
    now = json.dumps(reference_view(m, seat), sort_keys=True, separators=(",", ":"))
    return "\n".join([head, *reference_lines(m, seat), now])


def same_as_reference(m: Match, seats=None) -> None:
    for seat in range(m.players) if seats is None else seats:
        want = reference_state(m, seat)
        assert m.information_state(seat) == want, f"seat {seat} after {len(m.history)} decisions"
        assert m.view(seat) == reference_view(m, seat)
        lines = want.split("\n")
        assert info.observed(m, seat) == lines[1:-1]
        assert m.information_state_json(seat) == {"game": m.game.name, "players": m.players, "seat": seat,
                                                  "observed": [json.loads(x) for x in lines[1:-1]],
                                                  "now": json.loads(lines[-1])}


def step(m: Match, rng: random.Random) -> None:
    for seat in m.to_act():
        if m.over:
            return
        m.apply(seat, rng.randrange(len(m.legal_actions(seat))))


def players_of(game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.default_players


# ---- the tests -------------------------------------------------------------------------------------------


def rendered_as_the_reference(name: str, seed: int, points: int | None) -> None:
    """The fast path is called after every decision (by one seat in turn, as a search bot would), and
    compared with the reference for every seat at points of a match and at its end: every 13th decision
    with `points=None`, else `points` spread evenly over the match (the rendered lines are cumulative, so
    a line gone wrong at any decision before a point shows there; the reference costs the whole history
    at each point, which makes every 13th decision of a long match slow)."""
    game = load_game(name)
    every = 13
    if points is not None:  # the same match played first without the reference, to learn its length
        m = game.new_match(players=players_of(game), seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not m.over:
            step(m, rng)
            steps += 1
        every = max(every, steps // points)
    m = game.new_match(players=players_of(game), seed=seed)
    rng = random.Random(seed)
    k = 0
    while not m.over:
        step(m, rng)
        k += 1
        m.information_state(k % m.players)
        if k % every == 1:
            same_as_reference(m)
    same_as_reference(m)


@pytest.mark.parametrize("seed", [0, 1])
def test_every_bundled_game_renders_as_the_reference_at_many_points(bundled_game, seed):
    """About 8 points of each match and its end (the every-13th-decision run: below, slow)."""
    rendered_as_the_reference(bundled_game, seed, 8)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_every_bundled_game_renders_as_the_reference_every_13_decisions(bundled_game, seed):
    rendered_as_the_reference(bundled_game, seed, None)


TEST_GAMES = sorted(str(p) for p in (Path(__file__).parent / "games").iterdir() if (p / "game.yaml").exists())


@pytest.mark.parametrize("folder", TEST_GAMES, ids=lambda folder: Path(folder).name)
def test_every_test_game_renders_as_the_reference_at_many_points(folder):
    rendered_as_the_reference(folder, 0, 8)


def played(name: str, seed: int, decisions: int) -> tuple[Match, random.Random]:
    """A random match of a bundled game after some decisions, every seat's information state rendered."""
    game = load_game(name)
    m = game.new_match(players=players_of(game), seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        step(m, rng)
    for s in range(m.players):
        m.information_state(s)
    return m, rng


def test_clones_going_on_apart_keep_their_own_lines(bundled_game):
    """A clone shares its original's rendered lines; when both go on differently (and either renders
    first), neither sees the other's lines, and copies of copies neither."""
    m, rng = played(bundled_game, 5, 12)
    for round_ in range(3):
        if m.over:
            break
        a, b = m.clone(), m.clone()
        for s in range(m.players):
            b.information_state(s)  # rendered in the copy before either goes on
        step(m, random.Random(100 + round_))  # the original goes on first, in place
        m.information_state(0)
        step(a, random.Random(200 + round_))
        step(b, random.Random(300 + round_))
        c = b.clone()
        step(c, random.Random(400 + round_))
        for x in (m, a, b, c):
            same_as_reference(x)
        for _ in range(5):
            step(m, rng)


def test_a_pickle_carries_no_rendered_line_and_renders_them_again(bundled_game):
    m, _ = played(bundled_game, 7, 30)
    assert "_seen" not in m.__getstate__()
    other = pickle.loads(pickle.dumps(m))
    assert other._seen[0].count == 0  # nothing rendered yet: rendered on demand
    same_as_reference(other)
    assert [other.information_state(s) for s in range(m.players)] == [m.information_state(s) for s in range(m.players)]
    step(other, random.Random(1))
    step(m, random.Random(2))
    same_as_reference(other)
    same_as_reference(m)


def test_a_copy_cut_back_to_its_kept_base_renders_as_the_reference(bundled_game):
    """`Match.relabeled` (with no card relabeled) plays the match again from its kept base: the seats' lines
    are cut back there and the rest rendered again."""
    game = load_game(bundled_game)
    m = game.new_match(players=players_of(game), seed=11)
    rng = random.Random(11)
    checked = 0
    for k in range(60):
        step(m, rng)
        if m.over:
            break
        for s in range(m.players):
            m.information_state(s)
        if k % 7 == 3:
            again = Match.relabeled(m, list(range(len(m.st.face))), 0, None)
            if again is not None:
                same_as_reference(again)
                checked += 1
    assert checked


def test_search_copies_and_determinized_worlds_render_as_the_reference(bundled_game):
    """A copy made for a search (which keeps no tags) and a world drawn for a seat render their own lines,
    before and after they go on, as the reference renders them."""
    m, _ = played(bundled_game, 3, 10)
    assert not m.over
    seat = m.to_act()[0]
    copy = m.search_copy()
    same_as_reference(copy)
    step(copy, random.Random(1))
    same_as_reference(copy)
    world = m.determinize(seat, random.Random(2))
    assert world.information_state(seat) == m.information_state(seat)
    same_as_reference(world)
    step(world, random.Random(3))
    same_as_reference(world)


def test_a_view_after_many_changes_at_once_renders_as_the_reference(bundled_game):
    """The view's zones are kept between calls: a seat asked only now and then (many decisions, turns and
    deals since its last view) gets the view written from scratch, and so does a copy asked first."""
    game = load_game(bundled_game)
    m = game.new_match(players=players_of(game), seed=21)
    rng = random.Random(21)
    for k in range(60):
        step(m, rng)
        if m.over:
            break
        if k % 17 == 5:
            same_as_reference(m, seats=[k % m.players])
            same_as_reference(m.clone(), seats=[(k + 1) % m.players])
    same_as_reference(m)


GLIMPSES = """
let p = first player
let q = next player after p
shuffle deck
move the top card of deck to hand of p
move the top card of deck to hand of p
move the top card of deck to hand of q
show hand of p to q
show the top card of deck to q
move the top card of deck to hand of p
let c = p chooses a card from hand of p "Play a card"
move c to bottom of pile face down
show hand of q to p
let d = q chooses a card from hand of q "Play a card"
move d to a random position of deck face down
flip the top card of pile face up
show hand of p to q
say "done"
"""


def test_looks_at_hands_and_piles_render_as_the_reference(tmp_path):
    """Glimpses without a place come in a canonical order (and once each to a seat only watching), as the
    reference sorts them."""
    (tmp_path / "game.yaml").write_text(textwrap.dedent("""
    game: looks
    title: Looks
    players: {min: 3, max: 3}
    cards: [cards.yaml]
    properties: {colour: none}
    zones:
      deck: {visibility: hidden, face: down}
      hand: {owner: player, visibility: owner}
      pile: {visibility: public}
    phases:
      play: |
    %s
    flow: {rounds: 3, round: [play]}
    result: {score: count(my hand)}
    """) % textwrap.indent(textwrap.dedent(GLIMPSES).strip(), "    " * 2))
    (tmp_path / "cards.yaml").write_text(textwrap.dedent("""
    defaults: {start: deck, back: [colour]}
    cards:
      - {id: prince, name: Prince, count: 3, colour: red}
      - {id: guard, name: Guard, count: 4, colour: blue}
      - {id: baron, name: Baron, colour: red}
      - {id: king, name: King, count: 2, colour: blue}
    """))
    game = load_game(tmp_path)
    for seed in range(6):
        m = game.new_match(players=3, seed=seed)
        rng = random.Random(seed)
        while not m.over:
            same_as_reference(m)
            step(m, rng)
        same_as_reference(m)
        watched = [x for x in info.observed(m, 2) if '"event":"show"' in x and '"at"' not in x]
        assert watched  # P2 watched P0 and P1 look at each other's hands


def test_the_counters_written_are_the_counters_the_seat_sees():
    """`look._counter_writer` writes a seat's counters with no dict made: against `visible_counters` dumped,
    for every seat, over counters public, a player's own, hidden, and hidden but public while a game or a player
    counter is not 0 (values of several kinds, and 0 and not 0 for the flags)."""
    from types import SimpleNamespace

    from interpreter.load.model import HIDDEN as HIDE
    from interpreter.load.model import OWNER, PUBLIC

    def counter(name, per_player, index, visibility, public_while=None):
        return SimpleNamespace(name=name, per_player=per_player, index=index, visibility=visibility,
                               public_while=public_while)

    counters = [counter("zeta", False, 0, PUBLIC), counter("flag", False, 1, PUBLIC),
                counter("alpha", False, 2, HIDE, "flag"), counter("secret", False, 3, HIDE),
                counter("score", True, 0, PUBLIC), counter("hand_size", True, 1, OWNER),
                counter("bid", True, 2, HIDE, "shown"), counter("shown", True, 3, OWNER),
                counter("mark", True, 4, OWNER, "flag")]
    model = SimpleNamespace(counters={c.name: c for c in counters})
    rules = counter_rules(model)
    rng = random.Random(5)
    n, checked = 3, 0
    for _ in range(60):
        gc = [rng.choice([0, 1, -2, 7, True, None, 2.5, "x"]) for _ in range(4)]
        pc = [[rng.choice([0, 3, False, None]) for _ in range(n)] for _ in range(5)]
        for seat in range(n):
            want = json.dumps(visible_counters(model, _Table(n, gc, pc), seat), sort_keys=True, separators=(",", ":"))
            assert look._counter_writer(rules, n, seat)(gc, pc) == want
            assert look._counter_writer(rules, n, seat)(tuple(gc), tuple(map(tuple, pc))) == want
            checked += 1
    assert checked == 180

