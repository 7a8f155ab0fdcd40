"""The stages hand on values: compiling a game leaves the load stage's model as it was read, the flow, result
and report come from the loader as values; and a check that would draw chance is refused before play."""

import textwrap

import pytest

from interpreter import AuthoringError, load_game
from interpreter.cli import main
from interpreter.game import built, compile_content
from interpreter.load.loader import load_content
from interpreter.load.model import Flow, Outcome, Report

GAME = """
game: values
title: Values
players: {min: 2, max: 4}
cards: [cards.yaml]
counters:
  game:
    pot: {initial: "players * 2"}
zones:
  hand: {owner: player, visibility: owner}
  table: {visibility: public}
phases:
  play: |
    let c = I choose a card from my hand "Play which card?"
    move c to table
flow: {rounds: {until: "count(table) >= 4", at_most: 3}, turn: [play]}
result: {score: count(table), wins: lowest}
report: {title: seat, per_round: [pot]}
"""


def write_game(tmp_path, game: str = GAME):
    (tmp_path / "game.yaml").write_text(textwrap.dedent(game).lstrip(), encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("cards:\n  - {id: a, name: A, each_player: true, count: 3, start: hand}\n",
                                         encoding="utf-8")
    return tmp_path


def test_compiling_leaves_the_loaded_model_as_it_was_read(tmp_path):
    content = load_content(write_game(tmp_path))
    assert content.flow == Flow(content.flow.phases, 3, True, 1, False, False, content.flow.at)
    assert content.flow.phases["turn"] == ("play",) and content.flow.at["rounds"].endswith("game.yaml:15:8")
    assert content.outcome == Outcome(lowest_wins=True) and content.report == Report("seat", ("pot",))
    made = compile_content(content)
    assert made.initials == {"pot": {2: 4, 3: 6, 4: 8}}
    assert content.model.counters["pot"].by_players is None  # the load stage's model: not written into
    game_model = built(content, made).model
    assert game_model is not content.model and game_model.counters["pot"].by_players == {2: 4, 3: 6, 4: 8}
    game = load_game(tmp_path)
    assert game.rounds == 3 and game.rounds_capped and game.lowest_wins and game.report_per_round == ["pot"]
    assert game.new_match(players=3, seed=1).st.gc[0] == 6


@pytest.mark.parametrize("section, text, what", [
    ("invariants", "fair: roll d6 < 7", "invariant `fair`"),
    ("checks", "luck: {at: end, holds: \"roll d6 + count(table) > 0\"}", "check `luck`"),
])
def test_a_check_that_draws_chance_is_refused_at_its_place(tmp_path, capsys, section, text, what):
    game = GAME + f"{section}:\n  {text}\n"
    folder = write_game(tmp_path, game)
    with pytest.raises(AuthoringError) as err:
        load_game(folder)
    [d] = err.value.diagnostics
    line = game.lstrip().splitlines().index(f"  {text}") + 1
    assert (d.pos.line, d.message) == (line, f"{what} draws chance (a roll or a random pick), so checking it would "
                                               "change the match it checks")
    assert d.pos.col == f"  {text}".index("roll") + 1  # at the roll
    assert main(["validate", str(folder)]) == 1 and "draws chance" in capsys.readouterr().err
