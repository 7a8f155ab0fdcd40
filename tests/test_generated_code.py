"""The generated Python is a stable artifact: the same wherever the game folder lies, zones and properties
by name, only what is called written; a rule failing still names its YAML file in full."""

import re
import shutil
import textwrap

import pytest

from interpreter import RuleError, load_game
from interpreter.cli import main
from interpreter.paths import data_dir
from interpreter.run.sim import simulate


def compiled(capsys, folder) -> str:
    assert main(["compile", str(folder)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", ["overloaded", pytest.param("sky-haulers", marks=pytest.mark.slow),
                                  pytest.param("hearts", marks=pytest.mark.slow)])
def test_the_same_python_wherever_the_game_folder_lies(capsys, tmp_path, name):
    one, two = tmp_path / "one" / name, tmp_path / "somewhere" / "else" / name
    for folder in (one, two):
        shutil.copytree(data_dir("cards") / name, folder)
    first, second = compiled(capsys, one), compiled(capsys, two)
    assert first == second
    assert str(tmp_path) not in first and "/" + name + "/" not in first
    assert compiled(capsys, name) == first  # the bundled folder too


def test_zones_properties_and_counters_are_named(capsys):
    source = compiled(capsys, "hearts")
    assert not re.search(r"\b(Z|P|PC|G)\[\(?\d", source)  # no bare number picks a zone, a property or a counter
    assert "P[PROP_suit]" in source and "PLAYER_ZONES + ZONE_hand)" in source and "COUNTER_" in source
    assert re.search(r"\nZONE_hand = \d+\n", source)


def test_only_procedures_something_calls_are_written(capsys):
    source = compiled(capsys, "hearts")
    assert "# procedure " in source  # inlined where it is used…
    written = re.findall(r"^def (proc_\w+)\(", source, re.M)
    assert written and all(source.count(f"{name}(st, ") > 1 for name in written)  # …or written once and called


GAME = """
game: recursive
title: Recursive
players: {min: 2, max: 2}
cards: [cards.yaml]
counters:
  game:
    total: 0
zones:
  hand: {owner: player, visibility: owner}
procedures:
  count_down:
    forms: [count down]
    params: ["n"]
    do: |
      if n > 0:
        add 12 / (n - 1) to total
        count down n - 1
phases:
  play: |
    count down 3
flow: {rounds: 1, turn: [play]}
result: {score: total}
"""


def test_a_procedure_reaching_itself_is_written_once_and_fails_at_its_full_place(tmp_path):
    folder = tmp_path / "recursive"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.lstrip(), encoding="utf-8")
    (folder / "cards.yaml").write_text(textwrap.dedent("""
        cards:
          - {id: a, name: A, each_player: true, start: hand}
    """), encoding="utf-8")
    game = load_game(folder)
    assert game.python_source.count("def proc_count_down(") == 1
    assert str(tmp_path) not in game.python_source
    with pytest.raises(RuleError) as err:
        simulate(game, 2, 0)
    line = GAME.lstrip().splitlines().index("        add 12 / (n - 1) to total") + 1
    assert str(err.value).startswith(f"{folder.resolve() / 'game.yaml'}:{line}:")
    assert "division by zero" in str(err.value)


SHARED = """
game: shared
title: Shared
players: {min: 2, max: 2}
cards: [cards.yaml]
counters:
  game:
    total: 0
zones:
  hand: {owner: player, visibility: owner}
procedures:
  bump:
    forms: [bump]
    params: ["n"]
    do: |
      add n to total
  twice:
    forms: [bump twice]
    do: |
      bump 1
      bump 1
phases:
  play: |
    bump 1
    bump 2
    bump twice
    if total > 100:
      bump 3
flow: {rounds: 2, turn: [play]}
result: {score: total}
"""


def test_a_procedure_run_from_many_places_is_written_once_and_called(tmp_path):
    from interpreter.lang.compiler import INLINED_SITES

    (tmp_path / "game.yaml").write_text(SHARED.lstrip(), encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("cards:\n  - {id: a, name: A, each_player: true, start: hand}\n",
                                         encoding="utf-8")
    game = load_game(tmp_path)
    source = game.python_source
    assert INLINED_SITES < 5  # `bump` is run from five places
    assert source.count("def proc_bump(") == 1 and source.count("proc_bump(st, ") == 1 + 5  # written once, 5 calls
    assert "enter(st" not in source  # it does not reach itself: no depth to count
    assert "def proc_twice(" not in source and "# procedure twice (" in source  # two places: written in
    m = game.new_match(players=2, seed=0)
    assert m.over and m.result()["scores"] == [20, 20]  # 1 + 2 + 2 a turn, four turns


def test_a_simultaneous_body_that_branches_to_its_choice_runs_without_a_generator_per_seat(tmp_path):
    from interpreter.run.match import play_random
    from tests.test_compiler_cases import game, says

    g = game(tmp_path, """
        for each player p where seat(p) != 1 or round == 2 simultaneously:
          if round == 1:
            let c = p chooses a card from hand of p "Round one: {count(hand of p)} cards"
            move c to table face down
            add 1 to bonus of p
          elif seat(p) == 0:
            let k = p chooses yes or no
            if k:
              add 10 to bonus of p
          else:
            let d = p chooses up to 1 card from deck
            say "{p} takes {d}"
          say "{p} done"
    """)
    source = g.python_source
    assert "def _simul" not in source and "StopIteration" not in source  # one ask collected per seat, in place
    for seed in range(6):
        m = play_random(g, 3, seed, log=True)
        out = says(m)
        # round 1: seats 0 and 2 load a card (seat 1 is left out); round 2: seat 0 asks yes/no, seats 1, 2 a card
        assert out[:2] == ["P0 done", "P2 done"] and out[-1] == "P2 done" and len(out) == 7
        assert [d[0] for d in m.history] == [0, 2, 0, 1, 2]
        assert simulate(g, 3, seed).scores == m.result()["scores"]


def calls_of(name: str, run) -> int:
    """How often a Python function of that name is entered while `run()` runs."""
    import sys

    seen = 0

    def profile(frame, event, arg):
        nonlocal seen
        if event == "call" and frame.f_code.co_name == name:
            seen += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return seen


def test_a_question_is_written_out_only_in_a_logged_match_and_fails_alike_in_both(tmp_path):
    from interpreter.run.match import play_random
    from tests.test_compiler_cases import game

    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
    g = game(tmp_path / "one", """
        let c = I choose a card from deck "Take one of {count(deck)} ({(the top card of deck).value} on top)"
        move c to hand of me
    """)
    assert calls_of("fmt", lambda: simulate(g, 2, 0)) == 0  # sim's matches show nobody a question
    m = play_random(g, 2, 0, log=True)
    assert calls_of("fmt", lambda: m.clone().prompt()) == 0 < calls_of("fmt", lambda: play_random(g, 2, 0, log=True))
    # a card the question needs that is none fails the rule whether or not the match is logged
    bad = game(tmp_path / "two", """
        let c = I choose a card from table "Beat the {(the top card of table).value}"
        move c to hand of me
    """)
    with pytest.raises(RuleError, match="the card of this property"):
        simulate(bad, 2, 0)
    with pytest.raises(RuleError, match="the card of this property"):
        play_random(bad, 2, 0)


def test_a_test_of_whether_cards_are_there_stops_at_the_first_found(tmp_path):
    from interpreter.run.match import play_random
    from tests.test_compiler_cases import game, says

    g = game(tmp_path, """
        let v = 5
        say "{any(my hand where it.value == v)} {count(deck where it.value == v + 9) == 0}"
        say "{any(deck where it.value > 7)} {count(deck where it.value < 1) > 0} {any(deck where 10 / it.value > 5)}"
    """)
    source = g.python_source
    assert "in map(P[PROP_value].__getitem__, Z[" in source  # a property's value searched for in C
    assert "not in map(P[PROP_value].__getitem__" in source and "any((P[PROP_value][" in source
    assert source.count("len([") == 1  # the one whose test may fail (a division) runs over every card
    assert says(play_random(g, 2, 0, log=True))[:2] == ["yes yes", "yes no yes"]


def test_only_a_number_that_can_pass_the_limit_is_tested(tmp_path):
    from interpreter.run.match import play_random
    from tests.test_compiler_cases import game

    g = game(tmp_path, """
        set pot to sum(deck, it.value) * players + count(deck)
        let r = roll d6
        add (the top card of deck).value to bonus of me
        subtract max(deck, it.value) from bonus of me
        add r to pot
        set pot to pot * 2
    """)
    tests = [line.strip() for line in g.python_source.splitlines() if "too_big(" in line]
    assert tests == [
        "if PC[COUNTER_bonus][me] > 9223372036854775807: too_big(PC[COUNTER_bonus][me], AT[1])",  # grows only
        "if PC[COUNTER_bonus][me] < -9223372036854775807: too_big(PC[COUNTER_bonus][me], AT[2])",  # shrinks only
        "if not -9223372036854775807 <= G[COUNTER_pot] <= 9223372036854775807: too_big(G[COUNTER_pot], AT[3])",
        "if not -9223372036854775807 <= G[COUNTER_pot] <= 9223372036854775807: too_big(G[COUNTER_pot], AT[4])",
    ]  # a sum of card values, a count, a roll cannot pass it; a name (r) may hold a large number
    (tmp_path / "big").mkdir()
    big = game(tmp_path / "big", """
        set pot to 999999999999999999 * 9
        add (the top card of deck).value to pot
        set pot to pot * 2
    """)
    with pytest.raises(RuleError, match=r"game\.yaml:29:5:"):  # the doubling, not the sum before it
        play_random(big, 2, 0)


def test_how_many_cards_have_a_value_is_counted_in_c(tmp_path):
    from interpreter.run.match import play_random
    from tests.test_compiler_cases import game, says

    g = game(tmp_path, """
        let c = the top card of hand of me
        let k = count(table where it.value == c.value)
        say "{count(hand of me where it.value == c.value)} {count(deck where it.value == 9)} {k}"
        let d = the top card of table
        say "{count(table where it.value == d.value)}"
    """)
    assert g.python_source.count(".count(") == 4 and "len([" not in g.python_source
    out = says(play_random(g, 2, 0, log=True))
    assert out[:2] == ["3 0 0", "0"]  # an empty zone counts 0 without working out the value (d is none)


def test_a_fixed_sentence_is_written_as_one_text(tmp_path):
    from interpreter.run.match import play_random
    from tests.test_compiler_cases import game, says

    g = game(tmp_path, 'say "All {{set}}"\nsay "{me}"\nsay "{me} and {count(deck)}"')
    source = g.python_source
    assert "say(st, 'All {set}')" in source and "say(st, fmt(st, 'player', me))" in source
    assert source.count("''.join((") == 1
    assert says(play_random(g, 2, 0, log=True))[:3] == ["All {set}", "P0", "P0 and 8"]


def test_players_kept_by_a_counter_of_theirs_are_kept_in_c(tmp_path):
    from interpreter.run.match import play_random
    from tests.test_compiler_cases import game, says

    g = game(tmp_path, """
        add seat(first player) to bonus of first player
        add 1 to bonus of next player after first player
        say "{players where bonus of it} {players where bonus of it > 1}"
    """)
    assert "list(filter(PC[COUNTER_bonus].__getitem__, st.orders[st.first]))" in g.python_source
    assert says(play_random(g, 3, 0, log=True))[:2] == ["[P1] []", "[P1] [P1]"]
