"""A traceback through a game's generated code shows, before each generated frame, the YAML file, line and DSL
text that frame's line was written for (jinja2's traceback rewriting): in an internal error's printed
traceback and in the traceback a rule failure keeps. The YAML file is named relative to the current folder
when it lies below it."""

import linecache
import os
import textwrap
import traceback

import pytest

from interpreter import RuleError, load_game
from interpreter.cli import main
from interpreter.diagnostics import Pos
from interpreter.run.tracebacks import placed_file, show_rules_lines, with_rules_lines

GAME = """
game: failing
title: Failing
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
counters:
  game:
    divisor: 1
zones:
  hand: {owner: player, visibility: owner}
  pile: {visibility: public}
phases:
  play: |
    shuffle pile
    let c = I choose a card from my hand "Play which card?"
    move c to pile
    set divisor to divisor - c.value
    say "{me} plays {c}: {12 / divisor}"
flow: {rounds: 2, turn: [play]}
result: {score: count(pile)}
"""
CARDS = """
cards:
  - {id: a, name: A, each_player: true, start: hand, value: 1}
  - {id: b, name: B, each_player: true, start: hand, value: 0}
"""
SHUFFLE = 15  # the YAML lines of `shuffle pile` and of the `say` that divides by zero
SAY = 19


@pytest.fixture
def game_folder(tmp_path, monkeypatch):
    """The game in `tmp_path/g`, the current folder `tmp_path` (so the game is named `g`, relatively)."""
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.yaml").write_text(textwrap.dedent(GAME))
    (folder / "cards.yaml").write_text(CARDS)
    monkeypatch.chdir(tmp_path)
    return folder


def yaml_frame(line: int, text: str, file: str = os.path.join("g", "game.yaml")) -> str:
    return f'  File "{file}", line {line}, in phase_play\n    {text}\n'


def generated_frames(shown: str, game) -> list[str]:
    return [part for part in shown.split("  File ")[1:] if part.startswith(f'"{game.code_filename}"')]


def test_an_internal_error_under_a_rule_shows_its_yaml_line_before_the_generated_one(game_folder, capsys,
                                                                                      monkeypatch):
    game = load_game("g")
    play = game.flow["turn"][0][0]  # the phase `play`, compiled

    def broken(st, zone):  # an engine fault in what the rule calls
        raise TypeError("a fault of the engine")

    monkeypatch.setitem(play.__globals__, "shuffle", broken)
    assert main(["sim", "g", "-n", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    placed = yaml_frame(SHUFFLE, "shuffle pile")
    assert err.count(placed) == 1, err
    after = err.split(placed, 1)[1]
    assert after.startswith(f'  File "{game.code_filename}", line ') and "shuffle(st, ZONE_pile)" in after
    assert len(generated_frames(err, game)) == 1  # one generated frame, one YAML frame before it
    assert err.endswith("meeple sim: internal error (please report it): TypeError: a fault of the engine\n")


def test_an_internal_error_in_a_sim_worker_shows_its_yaml_line(game_folder, capsys, monkeypatch):
    """A worker's traceback reaches the parent as text: the worker puts the rules' lines in before it goes."""
    game = load_game("g")
    play = game.flow["turn"][0][0]

    def broken(st, zone):
        raise TypeError("a fault of the engine")

    monkeypatch.setitem(play.__globals__, "shuffle", broken)  # (the workers are forked with it)
    assert main(["sim", "g", "-n", "2", "--workers", "2"]) == 1
    err = capsys.readouterr().err
    placed = yaml_frame(SHUFFLE, "shuffle pile")
    assert err.count(placed) == 1, err
    assert err.split(placed, 1)[1].startswith(f'  File "{game.code_filename}", line ')
    assert err.endswith("meeple sim: internal error (please report it): TypeError: a fault of the engine\n")


class _NoTables:
    def of_folder(self, folder):
        return []


def test_an_engine_fault_met_on_reload_prints_its_yaml_line(game_folder, capsys, monkeypatch):
    """The served games' watcher prints an engine fault's traceback with the rules' lines, found from the generated
    module's own table (the game it was met in is not one the server knows)."""
    from interpreter.run.match import play_random
    from interpreter.web import watch

    def broken(st, zone):
        raise TypeError("a fault of the engine")

    def faulty(folder):  # the new rules loaded, and a match of them played into a fault of the engine
        loaded = load_game(folder)
        monkeypatch.setitem(loaded.flow["turn"][0][0].__globals__, "shuffle", broken)
        return play_random(loaded, 2, 1)

    watcher = watch.Watcher({"g": load_game("g")}, _NoTables())
    monkeypatch.setattr(watch, "load_game", faulty)
    (game_folder / "game.yaml").write_text(textwrap.dedent(GAME).replace("rounds: 2", "rounds: 3"))
    assert watcher.check() == ["g"]
    err = capsys.readouterr().err
    placed = yaml_frame(SHUFFLE, "shuffle pile")
    assert err.count(placed) == 1, err
    assert err.split(placed, 1)[1].startswith('  File "<meeple game ')
    assert err.endswith("TypeError: a fault of the engine\n")


def test_a_rule_failure_keeps_a_traceback_with_the_yaml_line(game_folder):
    game = load_game("g")
    m = game.new_match(2, seed=5)
    with pytest.raises(RuleError) as err:
        while not m.over:
            seat = m.to_act()[0]
            ids = m.option_ids(seat)
            m.apply(seat, ids.index(f"a@{seat}") if f"a@{seat}" in ids else 0)
    assert str(err.value).startswith(f"{game_folder.resolve() / 'game.yaml'}:{SAY}:5: division by zero")
    shown = "".join(traceback.format_exception(err.value.__cause__))
    placed = yaml_frame(SAY, 'say "{me} plays {c}: {12 / divisor}"')
    assert shown.count(placed) == 1, shown
    assert shown.split(placed, 1)[1].startswith(f'  File "{game.code_filename}", line ')  # the Python it became
    # the whole chain printed (the RuleError, caused by the division) shows it once as well
    assert "".join(traceback.format_exception(err.value)).count(placed) == 1


def test_a_game_named_from_elsewhere_shows_the_yaml_file_as_it_lies(game_folder, monkeypatch):
    elsewhere = game_folder / "cards-only"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the game folder is not below the current one
    game = load_game(game_folder)
    with pytest.raises(RuleError) as err:
        m = game.new_match(2, seed=5)
        while not m.over:
            seat = m.to_act()[0]
            ids = m.option_ids(seat)
            m.apply(seat, ids.index(f"a@{seat}") if f"a@{seat}" in ids else 0)
    shown = "".join(traceback.format_exception(err.value.__cause__))
    assert yaml_frame(SAY, 'say "{me} plays {c}: {12 / divisor}"', str(game_folder.resolve() / "game.yaml")) in shown


def test_the_generated_code_names_no_yaml_path(game_folder):
    """The generated module is the same wherever the folder lies: the path is found when a traceback is shown."""
    source = load_game("g").python_source
    assert str(game_folder) not in source and str(game_folder.resolve()) not in source


# ---- the rewriting itself, on a module standing for a game's ------------------------------------------------


GENERATED = "<meeple game stand-in>"


def raised_in_generated(depth: int = 1) -> BaseException:
    """An exception raised `depth` calls deep in a module named like a game's (lines 2 and 4 do the work)."""
    source = "def phase_x(n):\n    if n > 1: return phase_x(n - 1)\n    x = 1\n    return 1 // (x - 1)\n"
    linecache.cache[GENERATED] = (len(source), None, source.splitlines(True), GENERATED)  # as game.py does
    where: dict = {}
    exec(compile(source, GENERATED, "exec"), where)
    try:
        where["phase_x"](depth)
    except ZeroDivisionError as err:
        return err
    raise AssertionError("it did not fail")


@pytest.fixture
def yaml_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.yaml").write_text("phases:\n  x: |\n    if n > 1: x n - 1\n    set pot to 1 / (pot - 1)\n")
    return str(tmp_path / "r.yaml")


def places(yaml_file: str, col: int = 5):
    lines = {2: Pos(yaml_file, 3, 5), 4: Pos(yaml_file, 4, col)}  # (line 3 of the module: no DSL text)
    return lambda name: lines.get if name == GENERATED else None


def test_each_generated_frame_is_preceded_by_its_dsl_place_and_kept(yaml_file):
    err = raised_in_generated(depth=3)
    original = traceback.extract_tb(err.__traceback__)
    show_rules_lines(err, places(yaml_file))
    frames = traceback.extract_tb(err.__traceback__)
    assert [(f.filename, f.lineno, f.name) for f in frames[1:]] == [
        ("r.yaml", 3, "phase_x"), (GENERATED, 2, "phase_x")] * 2 + [("r.yaml", 4, "phase_x"), (GENERATED, 4, "phase_x")]
    assert frames[-1].line == "return 1 // (x - 1)" and frames[-2].line == "set pot to 1 / (pot - 1)"
    assert [f for f in frames if f.filename != "r.yaml"] == list(original)  # nothing of the generated frames lost
    show_rules_lines(err, places(yaml_file))  # shown again: no second YAML frame
    assert len(traceback.extract_tb(err.__traceback__)) == len(frames)


def test_a_place_inside_its_line_is_underlined_from_its_column(yaml_file):
    err = raised_in_generated()
    shown = "".join(traceback.format_tb(with_rules_lines(err.__traceback__, places(yaml_file, col=16))))
    assert '  File "r.yaml", line 4, in phase_x\n    set pot to 1 / (pot - 1)\n               ^^^^^^^^^^^^^\n' in shown
    plain = "".join(traceback.format_tb(with_rules_lines(err.__traceback__, places(yaml_file))))  # (at its start)
    assert '  File "r.yaml", line 4, in phase_x\n    set pot to 1 / (pot - 1)\n  File "<meeple' in plain


def test_other_files_and_lines_written_for_no_dsl_text_get_no_frame(yaml_file):
    err = raised_in_generated()
    assert traceback.extract_tb(with_rules_lines(err.__traceback__, lambda name: None)) == \
        traceback.extract_tb(err.__traceback__)
    lines = {2: Pos(yaml_file, 3, 5)}  # line 4, where it failed, was written for no DSL text
    rewritten = with_rules_lines(err.__traceback__, lambda name: lines.get if name == GENERATED else None)
    assert traceback.extract_tb(rewritten) == traceback.extract_tb(err.__traceback__)


def test_a_file_is_named_relative_to_the_current_folder_only_below_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert placed_file(str(tmp_path / "g" / "game.yaml")) == os.path.join("g", "game.yaml")
    outside = str(tmp_path.parent / "game.yaml")
    assert placed_file(outside) == outside
