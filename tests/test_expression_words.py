"""Expression words card games need: named variables in aggregates and filters, `… if … else …`, text
counters, initial values that depend on the player count, cards in a text, and questions with `{…}`.
Each test names the rule it pins, on a small game made for it (tests/test_compiler_cases.py)."""

import re

import pytest
import yaml

from interpreter.diagnostics import AuthoringError, source_line
from interpreter.run.match import play_random
from tests.test_compiler_cases import game, says

TEXT_COUNTERS = {
    "player": {"bonus": 0, "mood": {"initial": "calm", "type": "text", "visibility": "owner"}},
    "game": {"pot": 0, "trump": {"initial": "", "type": "text"},
             "hand_size": {"initial": "11 if players <= 2 else 9", "reset": "round"}},
}


def said(tmp_path, main: str, players: int = 2, **extra) -> list[str]:
    return says(play_random(game(tmp_path, main, **extra), players, 0, log=True))


def refused(tmp_path, main: str, **extra) -> str:
    with pytest.raises(AuthoringError) as err:
        game(tmp_path, main, **extra)
    return str(err.value)


def test_a_named_variable_works_in_every_aggregate_and_in_a_named_filter(tmp_path):
    # deck: C1..C8 with values 1..8; each hand: three cards of value 5
    out = said(tmp_path, """
        let k = count(c in deck where c.value > 3)
        let s = sum(c in deck, c.value)
        let t = sum(c in deck where c.value <= 2, c.value * 10)
        let h = highest(c in deck where c.value < 5, c.value)
        let l = lowest(c in deck, c.value)
        let q = max(p in players, seat(p))
        let y = any(c in hand of me, c.value == 5)
        let f = (c in deck where c.value > 6)
        say "{k} {s} {t} {h} {l} {q} {y} {f} {list(c in deck where c.value < 4, c.value)}"
    """)
    assert out[0] == "5 36 30 C4 C1 1 yes [C7, C8] [1, 2, 3]"


def test_named_variables_compile_to_the_same_comprehension_as_it(tmp_path):
    g = game(tmp_path, """
        let x = count(c in my hand where c.value > 3)
        let y = count(my hand where it.value > 3)
        let z = sum(c in my hand, c.value)
        let w = sum(my hand, it.value)
    """)
    lines = [re.sub(r"_[a-z]+_\d+", "_", line.split("=", 1)[1]) for line in g.python_source.splitlines()
             if re.match(r"\s+_v_[xyzw]_\d+ = (len|sum)", line)]
    assert len(lines) == 4 and lines[0] == lines[1] and lines[2] == lines[3]


def test_named_variables_let_an_aggregate_sit_inside_another(tmp_path):
    # the cards of the deck with no card one lower in the deck: only C1 (1 + nothing below it)
    out = said(tmp_path, """
        say "{sum(c in deck where not any(d in deck, d.value == c.value - 1), c.value)}"
        say "{count(c in deck where any(deck, it.value == c.value + 1))}"
    """)
    assert out[:2] == ["1", "7"]


def test_it_inside_another_its_scope_is_an_error_that_asks_for_names(tmp_path):
    with pytest.raises(AuthoringError) as err:
        game(tmp_path, 'say "{sum(deck where not any(deck, it.value == it.value - 1), it.value)}"\n')
    (d,) = err.value.diagnostics
    assert "`it` here means the inner card" in d.message and "name them: `count(c in … where …)`" in d.hint
    # at the first `it` of the inner aggregate, in the YAML file
    assert source_line(d.pos.file, d.pos.line)[d.pos.col - 1:].startswith("it.value == it.value - 1")


def test_a_named_variable_may_not_take_a_name_already_used(tmp_path):
    assert "`deck` already names something here" in refused(tmp_path, 'say "{count(deck in deck)}"\n')
    assert "`c` already names something here" in refused(tmp_path, "let c = 1\nsay \"{sum(c in deck, c.value)}\"\n")


@pytest.mark.parametrize("expression, message", [
    ("count()", "`count` takes a set of cards or players and optionally a value of `it`"),
    ("count(deck, it.value, 3)", "`count` takes a set of cards or players and optionally a value of `it`"),
    ("highest(deck)", "`highest` needs a value to compare: write highest(cards, it.value)"),
    ("sum(c in deck where c.value > 2)", "`sum` needs a value to compare: write sum(cards, it.value)"),
    ("max(3, deck)", "expected a number here, but this is a zone"),
    ("sum(hand of me, it.name)", "expected a number here, but this is a text"),
])
def test_an_aggregate_written_wrong_says_how(tmp_path, expression, message):
    assert message in refused(tmp_path, f'say "{{{expression}}}"\n')


def test_max_and_min_of_two_numbers_and_of_a_set(tmp_path):
    out = said(tmp_path, """
        say "{max(2, 7)} {min(round, 5)} {max(deck, it.value)} {min(c in deck where c.value > 2, c.value)}"
    """)
    assert out[0] == "7 1 8 3"


def test_a_conditional_takes_the_branch_its_condition_picks_and_binds_loosest(tmp_path):
    out = said(tmp_path, """
        say "{1 + 1 if round == 1 or false else 7} {the top card of deck if round > 5 else none}"
    """)
    assert out[0] == "2 nothing"


def test_a_conditionals_branches_must_have_one_type(tmp_path):
    assert "differ: a number and a text" in refused(tmp_path, 'let x = 1 if round == 1 else "a"\n')


def test_a_text_counter_is_set_compared_reset_and_shown_like_a_number(tmp_path):
    m = play_random(game(tmp_path, """
        say "[{trump}] {hand_size} {my mood}"
        set trump to "hearts"
        subtract 5 from hand_size
        if trump == "hearts" and my mood != "x":
          set my mood to "glad"
    """, counters=TEXT_COUNTERS), 2, 0, log=True)
    assert says(m) == ["[] 11 calm", "[hearts] 11 glad"]  # hand_size resets each round to its initial value
    assert m.st.gc[1] == "hearts"
    state = [line for line in m.log if line.get("type") == "state"][-1]
    assert state["counters"]["trump"] == "hearts" and state["counters"]["mood"] == ["glad", "calm"]


def test_a_text_counter_is_hidden_from_others_like_a_number_counter(tmp_path):
    g = game(tmp_path, """
        for each player p:
          set mood of p to "glad" if seat(p) == 0 else "sad"
    """, counters=TEXT_COUNTERS)
    a = play_random(g, 2, 0)
    assert a.view(0)["counters"]["mood"] == ["glad", None]
    assert a.view(1)["counters"]["mood"] == [None, "sad"]
    b = play_random(g, 2, 0)
    b.st.pc[1][1] = "cross"  # a value seat 0 cannot see
    assert a.information_state(0) == b.information_state(0) and a.information_state(1) != b.information_state(1)


def test_adding_to_a_text_counter_is_refused_before_play(tmp_path):
    assert "`add` and `subtract` change numbers" in refused(tmp_path, "add 1 to trump\n", counters=TEXT_COUNTERS)
    assert "texts compare only with == or !=" in refused(tmp_path, 'let x = trump < "b"\n', counters=TEXT_COUNTERS)


@pytest.mark.parametrize(("players", "size"), [(2, 11), (3, 9)])
def test_an_initial_value_may_depend_on_the_player_count_and_a_reset_uses_it(tmp_path, players, size):
    out = said(tmp_path, 'say "{hand_size}"\nsubtract 1 from hand_size\n', players, counters=TEXT_COUNTERS)
    assert out == [str(size), str(size)]


def test_an_initial_value_uses_only_the_player_count(tmp_path):
    counters = {"game": {"pot": {"initial": "round"}}, "player": {"bonus": 0}}
    assert "an initial value may use only numbers, `players`" in refused(tmp_path, "nothing\n", counters=counters)
    counters = {"game": {"pot": {"initial": "6 / (players - 3)"}}, "player": {"bonus": 0}}
    assert "with 3 players the initial value of `pot` divides by zero" in refused(tmp_path, "nothing\n",
                                                                                 counters=counters)


def test_a_zone_or_cards_in_a_text_are_listed_by_name_and_nothing_when_empty(tmp_path):
    out = said(tmp_path, 'say "{my hand} | {table} | {deck where it.value < 3} | {table where true}"\n')
    assert out[0] == "[H (P0), H (P0), H (P0)] | nothing | [C1, C2] | nothing"


def test_chance_in_a_text_is_refused(tmp_path):
    assert "a text cannot roll or pick at random" in refused(tmp_path, 'say "{a random card of deck}"\n')


def test_a_game_function_that_rolls_cannot_be_shown_in_a_text(tmp_path):
    text = refused(tmp_path, 'say "{lucky}"\n', functions={"lucky": {"value": "roll d6"}})
    assert "a text cannot roll or pick at random" in text


def test_a_question_is_worked_out_for_the_asked_seat_when_it_is_asked(tmp_path):
    g = game(tmp_path, """
        for each player p:
          let c = p chooses a card from hand of p "Pass {3 - count(table)} more, {p}; table: {table}"
          move c to table
    """)
    m = g.new_match(players=2, seed=1)
    assert m.prompt(0) == "Pass 3 more, P0; table: nothing"
    m.apply(0, 0)
    assert m.prompt(1) == "Pass 2 more, P1; table: [H (P0)]"


def test_only_the_asked_seat_sees_a_questions_sentence_the_others_see_it_as_written(tmp_path):
    g = game(tmp_path, """
        for each player p:
          let c = p chooses a card from hand of p "Your best is {highest(c in hand of p, c.value)}"
          move c to table
    """)
    m = g.new_match(players=2, seed=1)
    m.apply(0, 0)
    asked_seat, other = m.information_state(0), m.information_state(1)
    assert "Your best is H (P0)" in asked_seat and "Your best is H (P0)" not in other
    assert "Your best is {highest(c in hand of p, c.value)}" in other


def test_a_question_with_braces_only_is_fixed_text(tmp_path):
    g = game(tmp_path, 'let c = I choose a card from my hand "Pick {{one}}"\n')
    assert g.prompts == ["Pick {one}"]


def test_a_conditional_that_may_be_none_is_checked_where_a_player_is_needed(tmp_path):
    from interpreter.run.runtime import RuleError

    g = game(tmp_path, "show my hand to (first player if round > 5 else none)\n")
    with pytest.raises(RuleError, match="none"):
        play_random(g, 2, 0)


def test_max_and_min_give_a_yes_no_as_the_number_it_stands_for(tmp_path):
    """Where a number is wanted a yes/no stands for 1 or 0 (docs/dsl.md); `max` and `min` give back one of their
    values, so they make it that number rather than pass the yes/no on (a sentence wrote `True`)."""
    out = said(tmp_path, """
        let bigger = count(deck) > 1
        say "{max(true, 0)} {max(0, true)} {min(false, 3)} {max(bigger, 0)} {min(bigger, true)} {max(bigger, 7)}"
        say "{max(deck, it.value > 3)} {min(deck, it.value > 3)} {max(p in players, seat(p) == 1)} {min(table, true)}"
        set pot to max(bigger, 0)
        say "{pot} {max(true, 0) + 1}"
    """)
    assert out[:3] == ["1 1 0 1 1 7", "1 0 1 0", "1 2"]


def test_a_yes_no_kept_where_a_number_is_wanted_is_kept_as_1_or_0(tmp_path):
    """A counter, a number name, a procedure's number and a game function's number keep a yes/no as the number it
    stands for (a sentence wrote `True`); arithmetic reckons with it as before."""
    out = said(tmp_path, """
        let n = 3
        set n to round == 1
        set bonus of me to true
        set pot to false
        put round > 1
        say "{bonus of me} {pot} {n} {same(true)} {true * 5 - false} {-true} {sum(deck, it.value > 3)}"
    """, procedures={"put": {"forms": ["put"], "params": ["x"], "do": 'say "{x}"\n'}},
        functions={"same": {"params": ["x"], "value": "x"}})
    assert out[:2] == ["0", "1 0 1 1 5 -1 5"]


def test_a_number_kept_where_a_yes_no_is_wanted_is_yes_unless_0(tmp_path):
    out = said(tmp_path, """
        let f = false
        set f to 3
        say "{f} {f == true} {true and round} {false or round}"
    """)
    assert out[0] == "yes yes yes yes"


def test_a_conditional_of_a_yes_no_and_a_number_is_a_number(tmp_path):
    out = said(tmp_path, """
        let x = true if round == 1 else 0
        set pot to 5 if round == 1 else false
        say "{x} {pot} {x + pot} {(round == 2) if round > 5 else 7}"
    """)
    assert out == ["1 5 6 7", "0 0 0 7"]


def test_a_list_writes_each_value_as_it_is_written_alone(tmp_path):
    """`list(…)` in a sentence writes a yes/no as yes or no, a card by its name and a player as P0 (they said
    `[False, True]`, `[6, 7]` and `[0, 1]`)."""
    out = said(tmp_path, """
        let big = list(deck, it.value > 6)
        say "{list(deck, it.value > 6)} {big} {list(c in deck where c.value < 3, c)} {list(p in players, p)}"
        say "{list(deck where it.value < 3, it.value)} {list(table, true)}"
    """)
    assert out[:2] == ["[no, no, no, no, no, no, yes, yes] [no, no, no, no, no, no, yes, yes] [C1, C2] [P0, P1]",
                       "[1, 2] []"]


def test_a_yes_no_compares_as_the_1_or_0_it_stands_for(tmp_path):
    """`round or 0` is a yes/no (said yes) that holds the round; compared, it is 1 as `true` is (in round 2 it was
    unequal to `true`)."""
    out = said(tmp_path, """
        let f = round or 0
        say "{f} {f == true} {f == (round > 0)} {f != 1} {true > false} {(round == 1) == 1}"
    """)
    assert out == ["yes yes yes no yes yes", "yes yes yes no yes no"]


def test_a_list_kept_in_a_name_writes_each_value_as_it_is_written_alone(tmp_path):
    """A list's type says what it holds, through a `let`, a `set`, a game function's result, `NAME of PLAYERS` and a
    list of lists: a kept list of cards, players or yes/no is said as `list(…)` in the sentence is (they said
    `[6, 7, …]`, `[0, 1]`, `[False, …]`)."""
    out = said(tmp_path, """
        let low = list(deck where it.value < 3, it)
        let seats = list(q in players, q)
        let big = list(deck, it.value > 6)
        set big to list(deck, it.value > 7)
        let leaders = lead of players
        let zones = list(players, hand of it)
        let nested = list(c in deck where c.value < 3, list(d in deck where d.value <= c.value, d))
        let tops = list(players, the top card of table)
        say "{low} {seats} {big} {leaders} {lows} {fn_seats}"
        say "{zones} {nested} {tops} {lows == low} {list(deck where it.value < 3, it.value)}"
    """, counters={"player": {"bonus": 0, "lead": {"initial": 0, "type": "player"}}, "game": {"pot": 0}},
        functions={"lows": {"value": "list(deck where it.value < 3, it)"}, "fn_seats": {"value": "seats_of(2)"},
                   "seats_of": {"params": ["n"], "value": "list(q in players, seat(q) < n)"}})
    assert out[:2] == ["[C1, C2] [P0, P1] [no, no, no, no, no, no, no, yes] [P0, P0] [C1, C2] [yes, yes]",
                       "[[H (P0), H (P0), H (P0)], [H (P1), H (P1), H (P1)]] [[C1], [C1, C2]] [nothing, nothing] "
                       "yes [1, 2]"]


def test_a_table_figure_writes_a_list_as_a_sentence_does(tmp_path):
    from interpreter.run.match import Match
    from interpreter.visible_score import evaluate

    g = game(tmp_path, "nothing\n", table={"figures": {"seats": "list(q in players, q)", "low": "lows"}},
             functions={"lows": {"value": "list(deck where it.value < 3, it)"}})
    m = Match(g, 2, 0)
    assert [evaluate(fn, m.st, 0) for _, fn in g.figures] == ["[P0, P1]", "[C1, C2]"]


@pytest.mark.parametrize("main, message", [
    ("let l = list(deck, it)\nif round == 1:\n  let l = list(deck, it.value)\n",
     "`l` holds a list of cards, but this is a list of numbers"),
    ("let l = list(deck, it)\nset l to list(players, it)\n",
     "expected a list of cards here, but this is a list of players"),
    ('say "{list(deck, it) if round == 1 else list(deck, it.value > 3)}"\n',
     "differ: a list of cards and a list of yes/no"),
    ('say "{list(deck, it) == list(deck, it.value)}"\n', "cannot compare a list of cards with a list of numbers"),
    ("let l = list(deck, it)\nmove l to table\n", "expected cards here, but this is a list of cards"),
])
def test_lists_of_different_things_are_not_mixed(tmp_path, main, message):
    """A list is said as what it holds, so a name, a conditional or a comparison keeps to one kind of list (they
    were taken, and a list of cards kept in a name then set to numbers was said by card names)."""
    assert message in refused(tmp_path, main)


def test_a_list_of_cards_said_from_a_name_reads_the_cards_faces(tmp_path):
    """Saying a kept list of cards puts the cards into words, as saying `list(deck, it)` does: a world in which
    they were dealt to each other's places would be another match (interpreter/lang/faces.py)."""
    said_cards = game(tmp_path, 'let l = list(deck, it)\nsay "{l}"\n')
    assert {fn.__name__ for fn in said_cards.face_readers} == {"phase_main"}
    said_seats = game(tmp_path, 'let l = list(q in players, q)\nsay "{l}"\n')
    assert said_seats.face_readers == frozenset()


def test_a_card_condition_gives_back_yes_or_no(tmp_path):
    """A condition written as a number or a zone is yes or no to its callers: arithmetic adds 1 or 0 (a sum of it
    added the cards' values, and adding one of a zone failed inside the engine)."""
    from interpreter.game import load_game

    game(tmp_path, """
        add heavy of the top card of deck to pot
        add holding of the top card of deck to pot
        say "{pot} {sum(deck, heavy of it)} {count(deck, holding of it)} {heavy of the top card of deck}"
    """, conditions={"heavy": False, "holding": False})
    cards = [{"id": f"c{i}", "name": f"C{i}", "start": "deck", "value": i,
              "abilities": {"heavy": "this.value", "holding": "deck"}} for i in range(1, 9)]
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}))
    out = says(play_random(load_game(tmp_path), 2, 0, log=True))
    assert out[:2] == ["2 8 8 yes", "4 8 8 yes"]


def test_none_is_said_nothing_alone_and_in_a_list(tmp_path):
    """`none` is written `nothing`, as a card that is none is (it was written -1)."""
    assert said(tmp_path, 'say "{none} {list(deck where it.value < 3, none)}"\n')[0] == "nothing [nothing, nothing]"


def test_and_and_or_give_back_yes_or_no_whatever_their_sides_are(tmp_path):
    """dsl.md: `and` and `or` give back yes or no (a number yes unless 0, a zone unless empty), not a side as it
    is: `false or round` is 1 in round 2, not 2; a hand or false added to 1 is 2, not a failure of the engine."""
    out = said(tmp_path, """
        let f = false or round
        add (false or round) to pot
        say "{(false or round) + 0} {(round and 3) * 1} {(hand of me or false) + 1} {f + 0} {f} {pot}"
    """)
    assert out == ["1 1 2 1 yes 1", "1 1 2 1 yes 2"]
