"""What the DSL parser tells an author: misspellings anywhere in a line, every syntax error of a text,
bad indentation and absurd numbers, each at its own line and column."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.diagnostics import Anchor, AuthoringError, DslSyntaxError
from interpreter.game import load_game
from interpreter.lang.parser import MAX_DIGITS, MAX_ERRORS, parse
from interpreter.paths import data_dir

# A few game verbs, as a game's procedures declare them.
VERBS = {"draw": [("draw",)], "draws": [("draws",)], "discards": [("discards",)], "scout": [("scout",)],
         "use": [("use", "advantage")], "uses": [("uses", "advantage")]}
AT = Anchor("game.yaml", 10, 7, block=True)  # a `|` block whose text starts at line 10, column 7


def errors(text: str, expression: bool = False) -> list[tuple[int, int, str, str | None]]:
    """(file line, file column, message, hint) of every diagnostic of a text that must not parse."""
    with pytest.raises(DslSyntaxError) as info:
        parse(text, AT, VERBS, expression)
    return [(d.pos.line, d.pos.col, d.message, d.hint) for d in info.value.diagnostics]


def test_a_misspelt_verb_after_then_is_named_with_a_suggestion():
    [(line, col, message, hint)] = errors("draw 1, then mvoe c to drovers\n")
    assert (line, col) == (10, 7 + len("draw 1, then "))
    assert message == "`mvoe` is not a statement word or a declared verb"
    assert hint == "did you mean `move`?"


def test_a_misspelt_dsl_word_inside_an_expression_is_suggested():
    [(line, col, message, hint)] = errors("let r = rol d6\n")
    assert (line, col) == (10, 7 + len("let r = "))
    assert "`rol`" in message and hint == "did you mean `roll`?"


def test_a_misspelt_game_verb_after_a_subject_is_suggested():
    [(_, col, message, hint)] = errors("each opponent dicsards 1\n")
    assert col == 7 + len("each opponent ") and "`dicsards`" in message and hint == "did you mean `discards`?"


def test_a_misspelt_second_word_of_a_verb_is_suggested():
    [(_, _, _, hint)] = errors("uses advantge\n")
    assert hint == "did you mean `advantage`?"


def test_a_near_miss_that_does_not_parse_either_is_not_suggested():
    # `twice` is close to `times`, but `shuffle deck times` does not parse: no false lead
    [(_, col, message, hint)] = errors("shuffle deck twice\n")
    assert col == 7 + len("shuffle deck ") and message.startswith("unexpected `twice`")
    assert "times" not in (hint or "")


def test_a_misspelt_word_inside_a_string_is_left_alone():
    [(_, _, message, _)] = errors('say "mvoe: it" twice\n')
    assert message.startswith("unexpected `twice`")


def test_every_syntax_error_of_a_text_is_reported_at_its_line():
    text = "mvoe c to drovers\ndraw 1\nshufle deck\nif x = = 3:\n    draw 1\nlet y = (1 +\n"
    found = errors(text)
    assert [(line, message.split(";")[0]) for line, _, message, _ in found] == [
        (10, "`mvoe` is not a statement word or a declared verb"),
        (12, "`shufle` is not a statement word or a declared verb"),
        (13, "unexpected `=`"),
        (15, "this `(` is never closed"),
    ]


def test_an_error_in_a_block_header_does_not_make_its_block_an_error_too():
    found = errors("if x == :\n    draw 1\nelse:\n    draw 2\nlet = 3\n")
    assert [line for line, *_ in found] == [10, 14]


def test_a_missing_colon_is_one_error_not_two():
    assert [line for line, *_ in errors("if x > 1\n    draw 1\n")] == [10]


def test_errors_stop_at_a_bound():
    found = errors("".join(f"mvoe c{i} to drovers\n" for i in range(MAX_ERRORS + 5)))
    assert len(found) == MAX_ERRORS


def test_an_expression_reports_its_first_error_only():
    assert len(errors("1 + + 2 * * 3", expression=True)) == 1


def test_an_inconsistent_dedent_is_a_positioned_error():
    [(line, col, message, hint)] = errors("if x > 1:\n    draw 1\n  draw 2\n")
    assert (line, col) == (12, 7 + 2)
    assert message == "this line starts at column 9, but the blocks around it start at column 7 or 11"
    assert hint and "indent" in hint


def test_a_line_indented_under_no_block_is_a_positioned_error():
    [(line, col, message, _)] = errors("draw 1\n    draw 2\n")
    assert (line, col) == (11, 7 + 4) and message == "this line is indented, but the line before it starts no block"


def test_an_unclosed_bracket_is_named_at_the_bracket():
    [(line, col, message, _)] = errors("let x = max(1,\ndraw 2\n")
    assert (line, col) == (10, 7 + len("let x = max")) and message == "this `(` is never closed"


def test_an_error_inside_brackets_that_close_later_is_not_blamed_on_them():
    [(line, _, message, _)] = errors("let x = max(1,\n    2 3)\n")
    assert line == 11 and message.startswith("unexpected `3`")


def test_else_without_if_says_where_else_belongs():
    [(_, _, _, hint)] = errors("draw 1\nelse:\n    draw 2\n")
    assert hint and "must follow the block of an `if`" in hint


def test_a_statement_where_a_value_is_expected_says_so():
    [(_, _, message, hint)] = errors("set x to 1", expression=True)
    assert message.startswith("unexpected `set`") and hint == "this text is a value (an expression), not a statement"


def test_errors_after_a_bad_dedent_are_reported_too():
    found = errors("if x > 1:\n    draw 1\n  draw 2\nshufle deck\n")
    assert [line for line, *_ in found] == [12, 13]


@pytest.mark.parametrize("text", ["let x = 1234567890123456789\n", "let x = roll d99999999999999999999\n"])
def test_an_absurdly_long_number_is_an_error(text):
    [(line, col, message, hint)] = errors(text)
    digits = text.split()[-1].lstrip("d")
    assert (line, col) == (10, 7 + text.index(digits))
    assert f"has {len(digits)} digits; numbers have at most {MAX_DIGITS}" in message and hint


def test_a_long_but_sane_number_parses():
    parse("let x = " + "9" * MAX_DIGITS + "\n", AT, VERBS)


def test_parse_errors_of_a_game_come_together_at_their_yaml_positions(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(data_dir("cards") / "overloaded", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "    shuffle donkeys\n" in text and "    move all donkeys to box\n" in text
    text = text.replace("    shuffle donkeys\n", "    shufle donkeys\n", 1)
    text = text.replace("    move all donkeys to box\n", "    moev all donkeys to box\n", 1)
    game.write_text(text, encoding="utf-8")
    with pytest.raises(AuthoringError) as info:
        load_game(folder)
    lines = game.read_text(encoding="utf-8").splitlines()
    where = {(d.pos.line, d.pos.col): d.hint for d in info.value.diagnostics}
    shufle = next(i for i, line in enumerate(lines, 1) if "shufle donkeys" in line)
    moev = next(i for i, line in enumerate(lines, 1) if "moev all" in line)
    assert where[(shufle, 5)] == "did you mean `shuffle`?"
    assert where[(moev, 5)] == "did you mean `move`?"


def test_a_text_parsed_before_elsewhere_reports_its_errors_at_its_new_place():
    text = "draw 1\nshufle deck\n"
    elsewhere = Anchor("cards.yaml", 40, 3, block=True)
    with pytest.raises(DslSyntaxError) as first:
        parse(text, AT, VERBS)
    with pytest.raises(DslSyntaxError) as second:
        parse(text, elsewhere, VERBS)
    assert [(d.pos.file, d.pos.line, d.pos.col) for d in first.value.diagnostics] == [("game.yaml", 11, 7)]
    assert [(d.pos.file, d.pos.line, d.pos.col) for d in second.value.diagnostics] == [("cards.yaml", 41, 3)]


def test_a_text_that_parses_is_parsed_once_and_its_tree_counts_from_its_own_first_line():
    text = "draw 1\nlet x = 2\n"
    tree = parse(text, AT, VERBS)
    assert parse(text, Anchor("other.yaml", 99, 1, block=True), VERBS) is tree
    assert [c.meta.line for c in tree.children] == [1, 2]  # places in the file come from each use's own anchor


def test_a_text_read_with_other_verbs_is_parsed_again():
    assert parse("scout\n", AT, VERBS) is not None
    with pytest.raises(DslSyntaxError):
        parse("scout\n", AT, {})  # not a verb of this game: the tree made with VERBS is not reused
    assert parse("scout\n", AT, VERBS) is not None


def test_one_text_written_twice_is_blamed_at_each_place(tmp_path):
    """The same text in two procedures of a game: a tree shared by both, each mistake at its own line."""
    folder = tmp_path / "game"
    shutil.copytree(Path(__file__).parent / "games" / "low-hand", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    draw = "    do: move the top n cards of deck to my hand\n"
    assert draw in text
    twice = "".join(f"  {name}:\n    forms: [{form}]\n    do: add 1 to my penalti\n"
                    for name, form in (("one", "nudge"), ("two", "poke")))
    game.write_text(text.replace(draw, draw + twice, 1), encoding="utf-8")
    with pytest.raises(AuthoringError) as info:
        load_game(folder)
    lines = game.read_text(encoding="utf-8").splitlines()
    places = [i for i, line in enumerate(lines, 1) if line == "    do: add 1 to my penalti"]
    assert len(places) == 2
    found = [(d.pos.line, d.pos.col) for d in info.value.diagnostics if "`penalti`" in d.message]
    assert found == [(line, 21) for line in places]
