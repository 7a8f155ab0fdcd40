"""Broken content is reported before play, at file:line:col, all mistakes in one run."""

import shutil

import pytest

from interpreter.diagnostics import AuthoringError
from interpreter.game import load_game
from interpreter.paths import data_dir


@pytest.fixture
def game_copy(tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(data_dir("cards") / "overloaded", folder)
    return folder


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_col(path, needle, offset=0):
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return n, line.index(needle) + 1 + offset
    raise AssertionError(needle)


def errors_of(folder):
    with pytest.raises(AuthoringError) as info:
        load_game(folder)
    return info.value.diagnostics


def test_a_misspelt_zone_is_reported_at_its_position_with_a_suggestion(game_copy):
    game = game_copy / "game.yaml"
    edit(game, "move all table to discard\n", "move all table to discrad\n")
    [d] = errors_of(game_copy)
    assert (d.pos.file, d.pos.line, d.pos.col) == (str(game), *line_col(game, "discrad"))
    assert "unknown name `discrad`" in d.message and d.hint == "did you mean `discard`?"
    rendered = d.render()
    assert rendered.startswith(f"{game}:{d.pos.line}:{d.pos.col}: error: ")
    source, caret = rendered.splitlines()[1:3]
    assert caret.index("^") == source.index("discrad")


def test_a_syntax_error_points_at_the_unexpected_word(game_copy):
    game = game_copy / "game.yaml"
    edit(game, "    shuffle donkeys\n", "    shuffle donkeys twice\n")
    [d] = errors_of(game_copy)
    assert (d.pos.line, d.pos.col) == line_col(game, "twice")
    assert "unexpected `twice`" in d.message


def test_a_type_mismatch_says_what_was_expected(game_copy):
    game = game_copy / "game.yaml"
    edit(game, "set capacity to donkey.capacity_per_player", "set capacity to donkey")
    [d] = errors_of(game_copy)
    assert "expected a number here, but this is a zone" in d.message


def test_an_unknown_card_property_in_a_card_file_suggests_the_declared_one(game_copy):
    cards = game_copy / "donkeys.yaml"
    edit(cards, "    capacity_bonus: 3\n", "    capacity_bonsu: 3\n")
    [d] = errors_of(game_copy)
    assert (d.pos.file, d.pos.line) == (str(cards), line_col(cards, "capacity_bonsu")[0])
    assert d.hint == "did you mean `capacity_bonus`?"


def test_every_mistake_of_every_file_is_reported_in_one_run(game_copy):
    game, cargo = game_copy / "game.yaml", game_copy / "cargo.yaml"
    edit(game, "move all table to discard\n", "move all table to discrad\n")
    edit(game, "add 1 to overloads", "add 1 to overlods")
    edit(cargo, "effect: scout", "effect: scout scout")
    diagnostics = errors_of(game_copy)
    assert len(diagnostics) == 3
    assert {d.pos.file for d in diagnostics} == {str(game), str(cargo)}


def test_a_schema_error_and_a_card_error_come_together(game_copy):
    edit(game_copy / "game.yaml", "visibility: owner}", "visibility: secret}")
    diagnostics = errors_of(game_copy)
    assert any("secret" in d.message for d in diagnostics)


def test_a_zone_may_not_be_named_like_a_verb(game_copy):
    game = game_copy / "game.yaml"
    edit(game, "  box:      {visibility: hidden, face: down}", "  box:      {visibility: hidden, face: down}\n"
         "  score:    {visibility: public}")
    [d] = errors_of(game_copy)
    assert "`score` is also a verb" in d.message and d.pos.line == line_col(game, "score:    {")[0]


def test_a_procedure_called_with_the_wrong_number_of_values(game_copy):
    edit(game_copy / "game.yaml", "p uses advantage c\n", "p uses advantage c, c\n")
    [d] = errors_of(game_copy)
    assert "`uses advantage` takes 1 value(s)" in d.message


def test_a_missing_game_is_one_clear_error():
    with pytest.raises(AuthoringError) as info:
        load_game("overlaoded")
    assert "did you mean `overloaded`?" in str(info.value)


def test_schema_card_and_dsl_mistakes_are_all_reported_in_one_run(game_copy):
    game, cargo = game_copy / "game.yaml", game_copy / "cargo.yaml"
    edit(game, "visibility: owner}", "visibility: secret}")
    edit(game, "    shuffle donkeys\n", "    shufle donkeys\n")
    edit(cargo, "    value: 1\n", "    valeu: 1\n")
    messages = [d.message for d in errors_of(game_copy)]
    assert any("not 'secret'" in m for m in messages)
    assert any("`shufle` is not a statement word" in m for m in messages)
    assert any("unknown card property `valeu`" in m for m in messages)


def test_an_expression_yaml_split_at_a_comma_gets_a_hint_to_quote_it(game_copy):
    game = game_copy / "game.yaml"
    edit(game, "tiebreak: [count(my pile)]", "tiebreak: [sum(my pile, it.value), count(my pile)]")
    [d] = errors_of(game_copy)
    assert (d.pos.line, d.pos.col) == line_col(game, "[sum(my pile", offset=1)
    assert d.message == "`sum(my pile` leaves `(` open: YAML split this expression at a comma"
    assert '["sum(my pile, it.value)"]' in d.hint


@pytest.mark.parametrize("tiebreak", ['["sum(my pile, it.value)", count(my pile)]',
                                      "\n    - sum(my pile, it.value)\n    - count(my pile)"])
def test_a_quoted_expression_or_a_list_one_item_a_line_keeps_its_commas(game_copy, tiebreak):
    edit(game_copy / "game.yaml", "tiebreak: [count(my pile)]", f"tiebreak: {tiebreak}")
    assert len(load_game(game_copy).tiebreaks) == 2


@pytest.mark.parametrize("old, new, word", [
    ("    bonus: 0\n", "    bonus: 0\n    knock: 0\n", "knock"),
    ("    shuffle donkeys\n", "    let is = 1\n    shuffle donkeys\n", "is"),
])
def test_a_name_that_became_a_keyword_is_told_what_to_write_instead(game_copy, old, new, word):
    # Content keeps working: a game written before `knock out P` and `P is out` existed may use those
    # words as names; validate says which new words took them and what to do.
    edit(game_copy / "game.yaml", old, new)
    hints = [d.hint or "" for d in errors_of(game_copy)]
    assert any(f"`{word}` became a keyword with" in h and "rename it" in h for h in hints), hints
