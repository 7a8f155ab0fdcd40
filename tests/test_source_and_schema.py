"""YAML → data + source map (interpreter.load.source) and JSON Schema checks with author-facing diagnostics."""

import json
import textwrap
from pathlib import Path

import pytest

from interpreter.diagnostics import Anchor, AuthoringError, Diagnostic
from interpreter.load.schema import validate
from interpreter.load.source import load_yaml
from interpreter.paths import data_dir

OVERLOADED = Path(__file__).resolve().parent.parent / "cards" / "overloaded"

GOOD_GAME = """\
game: tiny
title: Tiny
players: {min: 2, max: 4}
cards: [deck.yaml]
zones:
  hand: {owner: player, visibility: owner}
flow:
  rounds: 3
procedures:
  deal:
    forms: [deal, deals]
    params: ["c: card", n]
    do: move c to hand
"""


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def check(path: Path, schema: str) -> list[Diagnostic]:
    data, smap = load_yaml(path)
    return validate(data, smap, schema, str(path))


def load_error(path: Path) -> AuthoringError:
    with pytest.raises(AuthoringError) as info:
        load_yaml(path)
    return info.value


def char_at(path: Path, line: int, col: int) -> str:
    return path.read_text(encoding="utf-8").splitlines()[line - 1][col - 1]


# --- the bundled game is clean --------------------------------------------------------------------

@pytest.mark.parametrize(("name", "schema"), [("game", "game"), ("cargo", "cards"), ("donkeys", "cards")])
def test_overloaded_files_validate_clean(name, schema):
    assert check(OVERLOADED / f"{name}.yaml", schema) == []


def test_data_is_plain_python():
    data, _ = load_yaml(OVERLOADED / "game.yaml")
    assert data["players"] == {"min": 3, "max": 6, "default": 4}
    assert data["version"] == "1.0"
    assert data["properties"]["no_advantages"] is False
    assert data["counters"]["player"]["second_thoughts"] == {"initial": 0, "reset": "round"}
    assert data["phases"]["setup"].startswith("shuffle donkeys\n")


def test_schemas_are_found_and_editor_friendly():
    for name in ("game", "cards", "log"):
        schema = json.loads((data_dir("schemas") / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["description"]
    game = json.loads((data_dir("schemas") / "game.schema.json").read_text(encoding="utf-8"))
    for key, prop in game["properties"].items():
        assert prop.get("title") and prop.get("description"), key
    zone = game["properties"]["zones"]["additionalProperties"]["properties"]
    assert all(p.get("description") for p in zone.values())


# --- source map -----------------------------------------------------------------------------------

def test_positions_of_values_and_keys(tmp_path):
    path = write(tmp_path, """\
        zones:
          hand: {owner: player}
        cards:
          - a
          - b
        """)
    _, smap = load_yaml(path)
    assert str(smap.pos(("zones", "hand", "owner"))) == f"{path}:2:17"
    assert str(smap.key_pos(("zones", "hand", "owner"))) == f"{path}:2:10"
    assert str(smap.key_pos(("zones", "hand"))) == f"{path}:2:3"
    assert str(smap.pos(("cards", 1))) == f"{path}:5:5"
    # Unknown paths fall back to the nearest known parent.
    assert smap.pos(("zones", "hand", "nope", 3)) == smap.pos(("zones", "hand"))
    assert smap.pos(("nowhere",)).line == 1


def test_text_start_plain_quoted_and_block(tmp_path):
    path = write(tmp_path, """\
        abilities:
          plain: add players to capacity
          quoted: "add players to capacity"
          single: 'add players to capacity'
          block: |
            let r = roll d6
            add r to capacity
        """)
    data, smap = load_yaml(path)
    for key, style in [("plain", "plain"), ("quoted", "double-quoted"), ("single", "single-quoted")]:
        at = ("abilities", key)
        assert smap.style(at) == style
        dsl_col = data["abilities"][key].index("capacity") + 1
        pos = smap.text_start(at).shifted(1, dsl_col)
        assert (pos.line, char_at(path, pos.line, pos.col)) == (smap.pos(at).line, "c")
    block = ("abilities", "block")
    assert smap.style(block) == "literal"
    assert (smap.text_start(block).line, smap.text_start(block).col) == (6, 5)
    # DSL line 1, column of "roll": shifted from text_start lands on the "r" of roll.
    pos = smap.text_start(block).shifted(1, data["abilities"]["block"].index("roll") + 1)
    assert (pos.line, char_at(path, pos.line, pos.col)) == (6, "r")
    # Later lines of a literal block keep its indentation.
    second = data["abilities"]["block"].splitlines()[1]
    start = smap.text_start(block)
    pos = Anchor(start.file, start.line, start.col, block=True).shifted(2, second.index("capacity") + 1)
    assert path.read_text().splitlines()[pos.line - 1][pos.col - 1:].startswith("capacity")


def test_text_start_in_overloaded_phase():
    path = OVERLOADED / "game.yaml"
    data, smap = load_yaml(path)
    start = smap.text_start(("phases", "setup"))
    assert char_at(path, start.line - 1, smap.pos(("phases", "setup")).col) == "|"
    assert path.read_text().splitlines()[start.line - 1][start.col - 1:] == "shuffle donkeys"
    assert data["phases"]["setup"].splitlines()[0] == "shuffle donkeys"


def test_folded_and_indented_block_and_anchor(tmp_path):
    path = write(tmp_path, """\
        a: >
          folded text
        b:
          - |2
               two extra spaces
        c: &name "anchored"
        """)
    data, smap = load_yaml(path)
    assert smap.style(("a",)) == "folded"
    assert (smap.text_start(("a",)).line, smap.text_start(("a",)).col) == (2, 3)
    assert data["b"][0] == "   two extra spaces\n"
    assert (smap.text_start(("b", 0)).line, smap.text_start(("b", 0)).col) == (5, 5)
    start = smap.text_start(("c",))
    assert char_at(path, start.line, start.col) == "a"


def test_scalars_resolve_safely(tmp_path):
    path = write(tmp_path, """\
        n: 3
        f: 1.5
        t: true
        z: ~
        s: "3"
        d: 2024-01-01
        yes: key keeps its spelling
        """)
    data, _ = load_yaml(path)
    assert data == {"n": 3, "f": 1.5, "t": True, "z": None, "s": "3", "d": "2024-01-01",
                    "yes": "key keeps its spelling"}


def test_merge_keys(tmp_path):
    path = write(tmp_path, """\
        base: &base {value: 1, kind: cargo}
        card:
          <<: *base
          value: 2
        """)
    data, smap = load_yaml(path)
    assert data["card"] == {"value": 2, "kind": "cargo"}
    assert smap.pos(("card", "value")).line == 4


# --- load errors ----------------------------------------------------------------------------------

def test_yaml_syntax_error_position(tmp_path):
    path = write(tmp_path, """\
        game: tiny
        players:
          min: 2
         max: 4
        """)
    error = load_error(path)
    assert len(error.diagnostics) == 1
    diagnostic = error.diagnostics[0]
    assert (diagnostic.pos.file, diagnostic.pos.line) == (str(path), 4)
    assert "YAML syntax" in diagnostic.message
    assert str(error).startswith(f"{path}:4:")


def test_tab_indentation_hint(tmp_path):
    path = tmp_path / "tabs.yaml"
    path.write_text("game: tiny\nzones:\n\thand: {}\n", encoding="utf-8")
    diagnostic = load_error(path).diagnostics[0]
    assert diagnostic.pos.line == 3
    assert "tabs" in diagnostic.hint


def test_duplicate_keys(tmp_path):
    path = write(tmp_path, """\
        game: tiny
        zones:
          hand: {owner: player}
          deck: {}
          hand: {owner: game}
        title: Tiny
        game: again
        """)
    error = load_error(path)
    found = [(d.pos.line, d.pos.col, d.message) for d in error.diagnostics]
    assert found == [(5, 3, "duplicate key `hand`"), (7, 1, "duplicate key `game`")]
    assert "line 3" in error.diagnostics[0].hint


def test_unreadable_and_non_utf8_files(tmp_path):
    missing = tmp_path / "missing.yaml"
    assert str(load_error(missing).diagnostics[0].pos) == f"{missing}:1:1"
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"title: ok\nname: caf\xe9\n")
    diagnostic = load_error(latin).diagnostics[0]
    assert (diagnostic.pos.line, diagnostic.pos.col) == (2, 10)
    assert "UTF-8" in diagnostic.message


def test_unsafe_tags_are_rejected(tmp_path):
    path = write(tmp_path, "a: !!python/object:os.system echo\nb: !!set {x, y}\n")
    found = [(d.pos.line, d.message) for d in load_error(path).diagnostics]
    assert found == [
        (1, "unsupported YAML tag `!!python/object:os.system`"),
        (2, "unsupported YAML tag `!!set`"),
    ]


def test_empty_file_is_a_schema_error(tmp_path):
    path = write(tmp_path, "# nothing yet\n")
    [diagnostic] = check(path, "game")
    assert diagnostic.message == "the top level must be a mapping (key: value), not empty"


# --- schema diagnostics ---------------------------------------------------------------------------

def test_small_game_is_clean(tmp_path):
    assert check(write(tmp_path, GOOD_GAME), "game") == []


def test_typo_key_points_at_the_key_with_a_suggestion(tmp_path):
    path = write(tmp_path, GOOD_GAME.replace("visibility: owner", "visibilty: owner"))
    [diagnostic] = check(path, "game")
    assert str(diagnostic.pos) == f"{path}:6:25"
    assert char_at(path, 6, 25) == "v"
    assert diagnostic.message == "unknown key `visibilty` in zones.hand"
    assert diagnostic.hint == "did you mean `visibility`?"
    rendered = diagnostic.render()
    assert rendered.startswith(f"{path}:6:25: error: unknown key `visibilty`")
    assert "did you mean `visibility`?" in rendered and "^" in rendered


def test_bad_enum_value(tmp_path):
    path = write(tmp_path, GOOD_GAME.replace("visibility: owner", "visibility: secret"))
    [diagnostic] = check(path, "game")
    assert (diagnostic.pos.line, diagnostic.pos.col) == (6, 37)
    assert char_at(path, 6, 37) == "s"
    assert "visibility must be one of public, owner, hidden, not 'secret'" in diagnostic.message


def test_missing_required_key(tmp_path):
    path = write(tmp_path, GOOD_GAME.replace("players: {min: 2, max: 4}", "players: {min: 2}"))
    [diagnostic] = check(path, "game")
    assert (diagnostic.pos.line, diagnostic.pos.col) == (3, 1)
    assert diagnostic.message == "players is missing required key `max`"


def test_missing_top_level_keys_in_one_message(tmp_path):
    path = write(tmp_path, "game: tiny\ncards: [a.yaml]\nflow: {rounds: 1}\n")
    [diagnostic] = check(path, "game")
    assert diagnostic.message == "the top level is missing required keys `title`, `players`"


def test_unquoted_version_gets_a_quoting_hint(tmp_path):
    path = write(tmp_path, GOOD_GAME + "version: 1.0\n")
    [diagnostic] = check(path, "game")
    assert diagnostic.message == "version must be text, not 1.0"
    assert "quotes" in diagnostic.hint


def test_counter_forms(tmp_path):
    path = write(tmp_path, GOOD_GAME + textwrap.dedent("""\
        counters:
          player:
            bonus: zero
            streak: {initial: 0, reset: rounds}
        """))
    first, second = check(path, "game")
    assert first.message == ("counters.player.bonus must be a whole number or a mapping (key: value), "
                             "not 'zero'")
    assert second.message == "counters.player.streak.reset must be one of round, turn, deal, never, not 'rounds'"
    assert second.hint == "did you mean `round`?"
    assert char_at(path, second.pos.line, second.pos.col) == "r"


def test_bad_parameter(tmp_path):
    path = write(tmp_path, GOOD_GAME.replace('"c: card"', '"C card"'))
    [diagnostic] = check(path, "game")
    assert diagnostic.message == "procedures.deal.params[0] 'C card' is not a valid parameter"
    assert "c: card" in diagnostic.hint


def test_unquoted_typed_parameter_gets_a_quoting_hint(tmp_path):
    path = write(tmp_path, GOOD_GAME.replace('"c: card"', "c: card"))
    [diagnostic] = check(path, "game")
    assert diagnostic.message == "procedures.deal.params[0] must be text, not a mapping"
    assert diagnostic.hint == 'YAML read `c: card` as a mapping; put it in quotes: "c: card"'


def test_bad_names_point_at_the_key(tmp_path):
    path = write(tmp_path, GOOD_GAME.replace("  hand:", "  Hand:"))
    [diagnostic] = check(path, "game")
    assert (diagnostic.pos.line, diagnostic.pos.col) == (6, 3)
    assert diagnostic.message == "`Hand` is not a valid name"


def test_many_errors_in_one_run_in_file_order(tmp_path):
    path = write(tmp_path, """\
        game: Tiny Game
        title: Tiny
        players: {min: 0, max: 4}
        cards: []
        zones:
          hand: {owner: everyone, visibilty: owner}
          deck: {face: sideways}
        flow:
          rounds: 0
        colour: red
        """)
    found = [(d.pos.line, d.message) for d in check(path, "game")]
    assert found == [
        (1, "game 'Tiny Game' is not a valid game slug"),
        (3, "players.min must be at least 1, not 0"),
        (4, "cards must not be empty"),
        (6, "zones.hand.owner must be one of player, game, not 'everyone'"),
        (6, "unknown key `visibilty` in zones.hand"),
        (7, "zones.deck.face must be one of up, down, not 'sideways'"),
        (9, "flow.rounds must be at least 1, not 0"),
        (10, "unknown key `colour`"),
    ]
    positions = [d.pos for d in check(path, "game")]
    assert len(positions) == len(set(positions))


def test_card_file_errors(tmp_path):
    path = write(tmp_path, """\
        defaults:
          id: shared
          each_player: yes
        cards:
          - id: Cargo 1
            count: 0
          - name: No Id
            value: {a: 1}
        """, "deck.yaml")
    found = [(d.pos.line, d.pos.col, d.message) for d in check(path, "cards")]
    assert found == [
        (2, 3, "defaults.id is not allowed here"),
        (5, 9, "cards[0].id 'Cargo 1' is not a valid card id"),
        (6, 12, "cards[0].count must be at least 1, not 0"),
        (7, 5, "cards[1] is missing required key `id`"),
        (8, 12, "cards[1].value must be a whole number, text, true/false or a list, not a mapping"),
    ]


def test_card_properties_are_open_but_typed(tmp_path):
    path = write(tmp_path, """\
        cards:
          - id: c-1
            name: One
            value: 3
            tags: [a, 2, true]
            secret: false
        """, "deck.yaml")
    assert check(path, "cards") == []


# --- match log ------------------------------------------------------------------------------------

GOOD_LOG = [
    {"type": "match", "game": "overloaded", "version": "1.0", "seed": 7, "players": 3,
     "bots": ["random", "random", "greedy"]},
    {"type": "decision", "who": 1, "choice": 0, "options": 4, "label": "cargo-3"},
    {"type": "event", "event": "move", "card": "cargo-3", "from": "hand", "to": "table"},
    {"type": "state", "round": 1, "turn": None,
     "zones": {"table": ["cargo-3"], "hand": {"0": ["cargo-1"], "1": [], "2": ["cargo-9"]}},
     "counters": {"capacity": 15, "bonus": [0, 1, 0]}},
    {"type": "state", "round": 2, "turn": 0, "zones": {}, "counters": {}, "faces": {"cargo-3": "down"}},
    {"type": "result", "winners": [2], "scores": [10, 12, 19], "turns": 8, "decisions": 40},
]


@pytest.mark.parametrize("line", GOOD_LOG, ids=lambda line: line["type"])
def test_log_lines_validate(line):
    assert validate(json.loads(json.dumps(line)), None, "log", "match.jsonl") == []


@pytest.mark.parametrize(("line", "message"), [
    ({"type": "decision", "who": 0, "options": 2, "label": "x"},
     "the top level is missing required key `choice`"),
    ({"type": "decisoin"}, "type must be one of match, decision, event, state, result, error, not 'decisoin'"),
    ({"type": "result", "winners": [0], "scores": [1], "turns": 1, "decisions": 0, "extra": 1},
     "unknown key `extra`"),
    ({"type": "state", "round": 1, "turn": None, "zones": {"hand": {"0": [3]}}, "counters": {}},
     "zones.hand.0[0] must be text, not 3"),
    ({"type": "decision", "who": 0, "choice": 0, "options": 0, "label": "x"},
     "options must be at least 1, not 0"),
])
def test_bad_log_lines(line, message):
    assert [d.message for d in validate(line, None, "log", "match.jsonl")] == [message]
