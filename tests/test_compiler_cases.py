"""Corners of the compiler, each on a small game made for it (found in review; kept as regressions)."""

import sys
import textwrap

import pytest
import yaml

from interpreter.diagnostics import AuthoringError
from interpreter.game import load_game
from interpreter.run.match import play_random
from interpreter.run.runtime import RuleError
from interpreter.run.sim import simulate


def game(tmp_path, main: str, **extra) -> object:
    """A two-to-three player game: each player has three cards in hand; a deck of c1..c8; `main` is
    the phase run in each of two rounds."""
    spec = {
        "game": "corner", "title": "Corner", "players": {"min": 2, "max": 3}, "cards": ["cards.yaml"],
        "properties": {"value": 0},
        "zones": {"hand": {"owner": "player", "visibility": "owner"}, "table": {"visibility": "public"},
                  "deck": {"visibility": "hidden", "face": "down"}},
        "counters": {"player": {"bonus": 0}, "game": {"pot": 0}},
        "phases": {"main": textwrap.dedent(main).strip() + "\n"},
        "flow": {"rounds": 2, "round": ["main"]},
        "result": {"score": "my bonus"},
    }
    spec.update(extra)
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False, width=1000))
    cards = [{"id": "h", "name": "H", "each_player": True, "start": "hand", "value": 5, "count": 3}]
    cards += [{"id": f"c{i}", "name": f"C{i}", "start": "deck", "value": i} for i in range(1, 9)]
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}))
    return load_game(tmp_path)


def says(m) -> list[str]:
    return [r["text"] for r in m.log if r.get("event") == "say"]


def test_a_name_let_on_one_branch_reads_as_nothing_after_it(tmp_path):
    m = play_random(game(tmp_path, """
        let c = none
        if round == 1:
          let c = the top card of deck
        if round == 2:
          let x = 5
        say "{c} {x}"
    """), 2, 0, log=True)
    assert says(m) == ["C1 0", "nothing 5"]


def test_a_simultaneous_body_sets_outer_names_and_keeps_its_own_lets(tmp_path):
    g = game(tmp_path, """
        let total = 0
        for each player p simultaneously:
          add 1 to bonus of p
          set total to total + 1
          let pick = p chooses a card from hand of p
          move pick to table face down
        say "{total}"
    """)
    m = play_random(g, 3, 1, log=True)
    assert says(m) == ["3", "3"] and m.scores == [2, 2, 2]
    assert simulate(g, 3, 1).scores == m.scores


def test_a_let_inside_a_simultaneous_body_is_unknown_after_it(tmp_path):
    with pytest.raises(AuthoringError, match="unknown name `pick`"):
        game(tmp_path, """
            for each player p simultaneously:
              add 1 to bonus of p
              let pick = p chooses a card from hand of p
            move pick to table
        """)


def test_names_that_differ_by_a_digit_stay_apart(tmp_path):
    m = play_random(game(tmp_path, """
        let p1 = first player
        move the top card of hand of p1 to table
        move the top card of hand of p1 to table
        for each player p:
          add 1 to bonus of p
        add 10 to bonus of p1
    """), 3, 0)
    assert m.scores == [22, 2, 2]


def test_a_simultaneous_choice_made_by_another_player_is_a_rule_error(tmp_path):
    g = game(tmp_path, """
        for each player p simultaneously:
          let c = first player chooses a card from hand of p
          move c to table
    """)
    with pytest.raises(RuleError, match="asks one player twice"):
        play_random(g, 2, 0)


def test_picks_by_position_clamp_at_the_edges(tmp_path):
    m = play_random(game(tmp_path, """
        say "{count(the bottom 5 cards of hand of first player)} {count(the top 0 - 2 cards of deck)}"
        say "{the top card of ((deck where it.value > 6) + table)}"
    """), 2, 0, log=True)
    assert says(m)[:2] == ["3 0", "C7"]


def test_count_and_any_agree_on_seat_zero(tmp_path):
    m = play_random(game(tmp_path, """
        say "{count(players where seat(it) == 0)} {any(players, seat(it) == 0)}"
    """), 2, 0, log=True)
    assert says(m)[0] == "1 yes"


def test_searches_and_aggregates_over_a_card_property(tmp_path):
    m = play_random(game(tmp_path, """
        let v = 3
        say "{the first card of deck where it.value == v} {the first card of deck where 9 == it.value}"
        say "{the first card of table where it.value == table.value}"
        say "{sum(deck, it.value)} {max(deck, it.value)} {min(table, it.value)} {highest(deck, it.value)}"
        say "{list(deck, it.value)} {any(table, it.value)} {lowest(deck, it.value)}"
    """), 2, 0, log=True)
    assert says(m)[:4] == ["C3 nothing", "nothing", "36 8 0 C8", "[1, 2, 3, 4, 5, 6, 7, 8] no C1"], \
        "an empty zone works out nothing of the value searched for (no card needed there)"


def test_a_search_by_property_works_out_its_value_where_the_zone_has_cards(tmp_path):
    g = game(tmp_path, """
        let found = the first card of deck where it.value == table.value
    """)
    with pytest.raises(RuleError, match="none"):
        play_random(g, 2, 0)


def test_a_say_with_a_hash_sign_runs_in_a_logged_match(tmp_path):
    m = play_random(game(tmp_path, 'say "#{count(deck)} left"'), 2, 0, log=True)
    assert says(m)[0] == "#8 left"


def test_a_score_must_be_a_number(tmp_path):
    with pytest.raises(AuthoringError, match="expected a number here, but this is a zone"):
        game(tmp_path, "nothing", result={"score": "my hand"})


def python_calls(load) -> tuple[int, object]:
    """How many Python function calls `load()` makes (work, not time: the same on a busy machine)."""
    count = [0]

    def counted(frame, event, arg) -> None:
        if event == "call":
            count[0] += 1

    sys.setprofile(counted)
    try:
        result = load()
    finally:
        sys.setprofile(None)
    return count[0], result


def test_a_long_sum_compiles_in_work_that_grows_with_its_length(tmp_path):
    """Sixty more terms cost at most a thousand calls each (about 240 now): nothing grows faster than
    the sum (an ambiguous parse or a nested emission would)."""
    for name in ("warm", "short", "long"):
        (tmp_path / name).mkdir()
    game(tmp_path / "warm", "add 1 + 1 to pot")  # the grammar and the schemas, loaded once
    short, _ = python_calls(lambda: game(tmp_path / "short", "add " + " + ".join(["1"] * 60) + " to pot"))
    long, g = python_calls(lambda: game(tmp_path / "long", "add " + " + ".join(["1"] * 120) + " to pot"))
    assert long - short < 60 * 1000, (short, long)
    assert simulate(g, 2, 0).counters[0] == 240


def test_one_verb_form_names_one_procedure(tmp_path):
    procs = {"a": {"forms": ["bump"], "do": "add 1 to pot"}, "b": {"forms": ["bump"], "do": "add 2 to pot"}}
    with pytest.raises(AuthoringError, match="the form `bump` belongs to `a` already"):
        game(tmp_path, "bump", procedures=procs)


def test_a_condition_may_not_share_a_property_name(tmp_path):
    with pytest.raises(AuthoringError, match="`value` is already a card property"):
        game(tmp_path, "nothing", conditions={"value": True})


def test_a_function_may_use_one_declared_after_it(tmp_path):
    fns = {"leader": {"value": "chief"}, "chief": {"value": "first player"}}
    m = play_random(game(tmp_path, 'say "{count(hand of leader)}"', functions=fns), 2, 0, log=True)
    assert says(m)[0] == "3"


def test_a_function_that_needs_itself_is_an_error(tmp_path):
    with pytest.raises(AuthoringError, match="function `f` depends on itself"):
        game(tmp_path, "add f to pot", functions={"f": {"value": "f + 1"}})


def test_first_player_is_not_a_number(tmp_path):
    with pytest.raises(AuthoringError, match="`first player` is a player, not a number"):
        game(tmp_path, "add 5 to first player")
