"""A DSL error in a text is placed at its line and column in game.yaml, whatever the YAML style the text is written
in: a quoted text on several lines (its breaks folded, its escapes `\\n`, `\\"`, `''` read), a plain one folded, a
`|` or `>` block with its chomping and indentation indicators, one behind an anchor or a tag."""

from __future__ import annotations

import pytest
import yaml

from interpreter.diagnostics import AuthoringError
from interpreter.game import load_game
from interpreter.load.source import anchor, load_yaml

SPEC = {
    "game": "corner", "title": "Corner", "players": {"min": 2, "max": 3}, "cards": ["cards.yaml"],
    "properties": {"value": 0},
    "zones": {"hand": {"owner": "player", "visibility": "owner"}, "table": {"visibility": "public"}},
    "counters": {"player": {"bonus": 0}, "game": {"pot": 0}},
    "phases": {"main": "PHASE"},
    "flow": {"rounds": 2, "round": ["main"]},
    "result": {"score": "my bonus"},
}

# The text of the phase as written after `main: `; the error is its one `)`, on the text's second or third line.
CASES = {
    "double-quoted, escaped breaks": r'"let x = 1\nadd 1 to pot\nadd 2 to pot )"',
    "double-quoted, breaks escaped at line ends": '"let x = 1\\n\\\n    add 1 to pot\\n\\\n    add 2 to pot )"',
    "double-quoted, empty lines": '"let x = 1\n\n    add 1 to pot\n\n    add 2 to pot )"',
    "double-quoted, a fold then escapes": '"let x =\n    1\\nsay \\"a\\tb\\"\\n\\\n    say \\"\\u00e9\\" )"',
    "double-quoted, spaces before breaks": '"let x = 1   \n\n   add 1 to pot  \n\n\tadd 2 to pot )"',
    "single-quoted, empty lines and ''": "'# it''s\n\n    let x = 1\n\n    say \"it''s\" )'",
    "plain, empty lines": "let x = 1\n\n    add 1 to pot\n\n    add 2 to pot )",
    "plain, a fold": "let x =\n    1\n\n    add 2 to pot )",
    "literal": "|\n    let x = 1\n    add 1 to pot\n    add 2 to pot )",
    "literal, indentation indicator": "|4\n      let x = 1\n      if x > 0:\n        add 2 to pot )",
    "literal, strip and a comment": "|-  # the main phase\n    let x = 1\n\n    add 2 to pot )\n",
    "literal, keep": "|+\n    let x = 1\n\n    add 2 to pot )\n\n",
    "folded": ">\n    let x = 1\n\n    add 1 to pot\n\n    add 2 to pot )",
    "folded, lines joined": ">-\n    let x =\n    1\n\n    add 2 to pot\n    )",
    "folded, more indented lines": ">\n    if true:\n      add 1 to pot\n      add 2 to pot )",
    "anchor and tag": '&main !!str "let x = 1\\n\\\n    add 2 to pot )"',
}


def written(tmp_path, phase: str) -> str:
    text = yaml.safe_dump(SPEC, sort_keys=False, width=1000).replace("main: PHASE", "main: " + phase)
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    cards = [{"id": "h", "name": "H", "each_player": True, "start": "hand", "value": 5, "count": 3}]
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}), encoding="utf-8")
    return text


@pytest.mark.parametrize("phase", CASES.values(), ids=CASES.keys())
def test_a_dsl_error_is_placed_under_its_word_in_the_file(tmp_path, phase):
    text = written(tmp_path, phase)
    before = text[:text.index(")")]
    line, col = before.count("\n") + 1, len(before) - before.rfind("\n")
    with pytest.raises(AuthoringError) as err:
        load_game(tmp_path)
    first = err.value.diagnostics[0]
    assert (first.pos.line, first.pos.col) == (line, col), first.render()
    _, shown, caret = first.render().splitlines()[:3]
    assert shown == "    " + text.splitlines()[line - 1].expandtabs(1)  # a tab is shown as one space
    assert caret == "    " + " " * (col - 1) + "^"


@pytest.mark.parametrize("phase", CASES.values(), ids=CASES.keys())
def test_every_character_of_a_text_is_placed_where_it_was_written(tmp_path, phase):
    text = written(tmp_path, phase)
    data, smap = load_yaml(tmp_path / "game.yaml")
    at = anchor(smap, ("phases", "main"))
    lines = text.splitlines()
    for number, line in enumerate(data["phases"]["main"].split("\n"), 1):
        for col, ch in enumerate(line, 1):
            pos = at.shifted(number, col)
            here = lines[pos.line - 1][pos.col - 1:]
            # an escape is placed at its backslash, a folded break (a space) at the end of its line
            assert here.startswith(ch) or here.startswith("\\") or (ch == " " and here.strip() == ""), (number, col)


def test_a_file_with_crlf_line_ends_places_its_errors_alike(tmp_path):
    text = written(tmp_path, CASES["double-quoted, empty lines"])
    (tmp_path / "game.yaml").write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    before = text[:text.index(")")]
    with pytest.raises(AuthoringError) as err:
        load_game(tmp_path)
    pos = err.value.diagnostics[0].pos
    assert (pos.line, pos.col) == (before.count("\n") + 1, len(before) - before.rfind("\n"))


def test_a_text_yaml_reads_otherwise_places_its_errors_at_its_start(tmp_path):
    # a line break other than "\n" (U+2028) is kept by YAML as it is: such a text's places are not told
    text = written(tmp_path, '"let x = 1\u2028    add 2 to pot )"')
    _, smap = load_yaml(tmp_path / "game.yaml")
    at = anchor(smap, ("phases", "main"))
    start = smap.text_start(("phases", "main"))
    assert at.places == ()
    assert at.shifted(2, 5) == start
    assert (start.line, start.col) == (text[:text.index('"let')].count("\n") + 1, 10)
