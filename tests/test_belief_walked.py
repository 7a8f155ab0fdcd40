"""The last stage of a draw: where every drawing from the start found no world, the match is rebuilt from its seed
and walked, the seat drawing a world every round of answers and carrying it on to the next (`stages._walked`).

Each draw of the walk then mends a world that already fits what the seat saw up to one point with what it saw in a
short span since, where a drawing from the start must meet everything at once. Found where it was needed: Go Fish, 5
players, the match of seed 4 of the walk after 112 decisions, P2. Fresh draws there found no world with one generator
of eight (`python benchmarks/hard_points.py --points go-fish:5:4:112:2 --rngs 0:8`); the walk of
`benchmarks/no_world.py`, which carries its world on, found one there. With the stage, all eight find one.

Here the drawings from the start are made to fail (`only_walked`), so that every draw below is the walk's."""

import random

import pytest
from walks import played, to_turn, walked

from interpreter.game import load_game
from interpreter.paths import bundled_games
from interpreter.run import belief
from interpreter.run.belief import NoConsistentWorld, replayed, stages
from interpreter.run.belief.kept import _beliefs
from tests.test_belief_twins import drawn_alike, of_belief, twins_of


def only_walked(monkeypatch, *real) -> list[int]:
    """Draws on the matches `real` find nothing from the start (their copies walked along them do): the count of
    draws the walk made on its copies, returned (a list, counted as they come)."""
    found, made = stages._found, [0]

    def failing(match, *args):
        if any(match is m for m in real):
            raise NoConsistentWorld("no world drawn from the start (made to fail)")
        made[0] += 1
        return found(match, *args)

    monkeypatch.setattr(stages, "_found", failing)
    return made


def halfway(name: str, share: float = 0.5):
    """The bundled game's match of seed 1 of the walk, at `share` of it (4 players where it may), and who acts."""
    game = load_game(name)
    players = 4 if game.min_players <= 4 <= game.max_players else game.default_players
    m = played(game, players, 1, int(len(walked(game, players, 1).history) * share))
    return m, m.to_act()[0]


@pytest.mark.parametrize("name", sorted(bundled_games()))
def test_where_no_drawing_from_the_start_fits_the_match_is_walked_a_world_carried_along_it(name, monkeypatch):
    m, seat = halfway(name)
    made = only_walked(monkeypatch, m)
    world = belief.determinize(m, seat, random.Random(0))
    assert world.information_state(seat) == m.information_state(seat)
    assert len(world.history) == len(m.history) and world.seed != m.seed
    replayed(world)  # a legal history of its own, from its start
    # one draw a round of answers, and the last at the match's point
    assert made[0] == (len(m.history) - 1) // m.players + 1


def test_the_world_the_walk_found_is_the_matchs_own_and_carried_on_from(monkeypatch):
    m, seat = halfway("go-fish")
    found = stages._found
    only_walked(monkeypatch, m)
    world = belief.determinize(m, seat, random.Random(0))
    kept = _beliefs(m)[seat]
    assert kept.world is not None and kept.events == len(m._watch.events) and set(kept.holders) == {m}
    # at the seat's next turn, the world is carried on: no drawing from the start, no walk again
    to_turn(m, seat, random.Random(1))
    monkeypatch.setattr(stages, "_found", found)
    monkeypatch.setattr(stages, "_walked", lambda *args: pytest.fail("walked again"))
    monkeypatch.setattr(stages, "_drawn", lambda *args: pytest.fail("drawn from the start"))
    later = belief.determinize(m, seat, random.Random(1))
    assert later.information_state(seat) == m.information_state(seat) and later is not world
    replayed(later)


def test_the_walk_of_a_match_set_up_by_hand_after_it_began_is_not_taken(monkeypatch):
    """The copy is rebuilt from the seed (and the set-up given when the match was made): a match whose cards were
    moved by hand later is not that match, and the draw fails as the drawings from the start did."""
    m, seat = halfway("go-fish")
    m.arrange({"stock": [m.layout.card_ids[m.st.zones[m.layout.zone_names.index("hand@0")][0]]]})
    only_walked(monkeypatch, m)
    with pytest.raises(NoConsistentWorld, match=r"^no world drawn from the start \(made to fail\)$"):
        belief.determinize(m, seat, random.Random(0))


def test_where_the_walk_too_finds_none_both_failures_are_told(monkeypatch):
    m, seat = halfway("go-fish")
    monkeypatch.setattr(stages, "_found", lambda *args: (_ for _ in ()).throw(NoConsistentWorld("none here")))
    with pytest.raises(NoConsistentWorld, match=r"^none here; carried along the match from its start: none here$"):
        belief.determinize(m, seat, random.Random(0))


@pytest.mark.parametrize("name", ["go-fish", "crazy-eights"])
def test_matches_a_seat_cannot_tell_apart_walk_to_one_world(name, monkeypatch):
    """The walk's draws hang on what the seat saw at each point, which twins share too (see test_belief_twins)."""
    compared = 0
    for a, b, how in twins_of(name):
        only_walked(monkeypatch, a, b)
        compared += drawn_alike(a, b, f"{name}, {how}", of_belief, points=1)
    assert compared >= 1


@pytest.mark.slow
def test_at_the_go_fish_point_where_a_fresh_draw_found_none_the_walk_finds_one(monkeypatch):
    m = played(load_game("go-fish"), 5, 4, 112)
    failed = []
    walk = stages._walked

    def noted(match, seat, rng, budget, why):
        failed.append(str(why))
        return walk(match, seat, rng, budget, why)

    monkeypatch.setattr(stages, "_walked", noted)
    for r in range(8):
        c = m.clone()
        c.__dict__.pop("_kept", None)
        world = c.determinize(2, random.Random(r))
        assert world.information_state(2) == m.information_state(2)
        replayed(world)
    assert len(failed) == 1 and "no world P2 cannot tell from this match" in failed[0]
