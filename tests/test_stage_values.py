"""The stages hand on values: compiling a game leaves the load stage's model as it was read, the flow, result
and report come from the loader as values; and a check that would draw chance is refused before play."""

import dataclasses
import textwrap

import pytest

from interpreter import AuthoringError, load_game
from interpreter.cli import main
from interpreter.game import built, compile_content
from interpreter.lang import nodes as n
from interpreter.lang.simplify import simplify_program
from interpreter.load.loader import load_content
from interpreter.load.model import Flow, Outcome, Report
from interpreter.run.match import play_random

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


# ---- typed nodes: made once, frozen, and given anew by the stages after resolve ------------------------------


def resolved(tmp_path, play: str):
    """The program of GAME with `play` as its phase, resolved (not yet simplified)."""
    from interpreter.lang.analysis import function_order
    from interpreter.lang.program import parse_program
    from interpreter.lang.resolve import resolve_program

    body = textwrap.indent(textwrap.dedent(play).strip(), "    ")
    phase = '  play: |\n    let c = I choose a card from my hand "Play which card?"\n    move c to table\n'
    game = GAME.replace(phase, "  play: |\n" + body + "\n")
    parsed = parse_program(load_content(write_game(tmp_path, game)))
    program = resolve_program(parsed, function_order(parsed))
    assert not program.errors, program.errors
    assert program is not parsed and parsed.phases["play"].body is None  # a new program: the parsed one as it was
    return program


def refs_of(value, var) -> list:
    """Every reference to `var` among the nodes in `value`."""
    found = []
    if isinstance(value, n.Ref) and value.var is var:
        found.append(value)
    if isinstance(value, list | tuple):
        for v in value:
            found += refs_of(v, var)
    elif dataclasses.is_dataclass(value) and not isinstance(value, n.Var):
        for f in dataclasses.fields(value):
            found += refs_of(getattr(value, f.name), var)
    return found


def test_folding_gives_new_nodes_and_leaves_the_resolved_ones_as_they_were(tmp_path):
    program = resolved(tmp_path, """
        let x = 2 * 3
        add 2 * 3 to pot
        say "{x}"
    """)
    let, add, say = program.phases["play"].body
    folded = simplify_program(program)
    assert program.phases["play"].body == [let, add, say]  # the resolved program as it was…
    assert isinstance(let.value, n.Arith) and isinstance(add.value.right, n.Arith)  # …and its nodes
    new_let, new_add, new_say = folded.phases["play"].body
    assert new_let is not let and new_let.var is let.var
    assert isinstance(new_let.value, n.Const) and new_let.value.value == 6 and new_let.value.at == let.value.at
    # `add` keeps its counter as the left side of its sum (one node: written `+= 6`)
    assert new_add is not add and new_add.value.left is new_add.target and new_add.value.right.value == 6
    assert new_say is say  # nothing in it folds: the same node


def test_a_let_variable_has_its_type_before_any_reference_to_it(tmp_path):
    play = """
        let c = none
        repeat 2 times:
          say "{c}"
          let c = the top card of my hand
    """
    program = resolved(tmp_path, play)
    let = program.phases["play"].body[0]
    [ref] = refs_of(program.phases["play"].body, let.var)
    assert let.var.type == "card" and ref.type == "card"  # the sentence names a card (the second time round)
    with pytest.raises(dataclasses.FrozenInstanceError):
        let.var.type = "none"
    m = play_random(load_game(tmp_path), 2, 0, log=True)
    assert [r["text"] for r in m.log if r.get("event") == "say"][:2] == ["nothing", "A (P0)"]


def test_typed_nodes_are_frozen_once_resolved(tmp_path):
    program = resolved(tmp_path, "let c = the top card of my hand\nmove c to table")
    let, move = program.phases["play"].body
    with pytest.raises(AttributeError, match="a Move is frozen once resolved"):
        move.zone = let.value
    with pytest.raises(AttributeError, match="frozen"):
        let.value.cards = None
    assert dataclasses.replace(move, facing=1).facing == 1  # a new node, not a changed one
