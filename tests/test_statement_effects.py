"""What statements do to a match is declared by each statement class (`effects`) and collected by the
analysis over the program (`Plan.does`, `Plan.effects`); nothing outside the language stage tests
statement classes. And the worked example of docs/architecture.md ("How to add a statement"): a
state-changing statement, `reverse ZONE`, added as documented, passes the leak check and `meeple check`."""

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from lark import Lark

from interpreter.cli import main
from interpreter.game import compile_content, load_game
from interpreter.lang import nodes as n
from interpreter.lang import parser
from interpreter.lang.asks import K_CARD
from interpreter.lang.compiler import CodeGenerator
from interpreter.lang.resolve_statements import StatementResolver
from interpreter.lang.statements import STATEMENTS, statement
from interpreter.leaks import check_leaks
from interpreter.load.loader import load_content
from interpreter.paths import data_dir
from interpreter.run import runtime

ENGINE = Path(__file__).resolve().parent.parent / "interpreter"


def write_game(folder: Path, phases: str, cards: str = "") -> Path:
    """A game of two or three players, each dealt two cards from a hidden deck, a public row; `phases`:
    the game's phases (`deal` is given), played `play` a turn for two rounds."""
    (folder / "game.yaml").write_text(textwrap.dedent("""\
        game: effects
        title: Effects
        players: {min: 2, max: 3}
        cards: [cards.yaml]
        properties: {value: 0}
        zones:
          deck: {visibility: hidden, face: down}
          hand: {owner: player, visibility: owner}
          row: {visibility: public}
        counters: {game: {pot: 0}}
        procedures:
          fill:
            forms: [fill, fills]
            params: []
            do: move the top card of deck to my hand
        phases:
          deal: |
            shuffle deck
            for each player p:
              move the top 2 cards of deck to hand of p
        """) + textwrap.indent(textwrap.dedent(phases).strip() + "\n", "  ")
        + "flow: {setup: [deal], rounds: 2, turn: [play]}\nresult: {score: count(my hand)}\n")
    (folder / "cards.yaml").write_text(cards or textwrap.dedent("""\
        cards:
          - {id: red, name: Red, count: 3, start: deck, value: 1}
          - {id: blue, name: Blue, count: 3, start: deck, value: 2}
          - {id: green, name: Green, count: 3, start: deck, value: 3}
          - {id: gold, name: Gold, count: 3, start: deck, value: 4}
        """))
    return folder


def plan_of(folder: Path):
    program, plan, _, _ = compile_content(load_content(folder))
    return program, plan


# ---- the facts, collected ----------------------------------------------------------------------------------


def test_each_statement_class_declares_effects_of_the_catalogue():
    for rule, cls in STATEMENTS.items():
        assert cls.effects <= n.EFFECTS, rule
    assert STATEMENTS["let_choice"].effects == {n.ASKS} and STATEMENTS["knock_out"].effects == {n.KNOCKS_OUT}
    assert STATEMENTS["shuffle"].effects == {n.REORDERS} and STATEMENTS["move"].effects == {n.MOVES}


def test_what_a_routine_does_reaches_through_procedures_and_abilities(tmp_path):
    program, plan = plan_of(write_game(tmp_path, """
        play: |
          fill
          if pot > 5:
            knock out me
        other: |
          add 1 to pot
          say "{pot}"
        """))
    play, other, deal = program.phases["play"], program.phases["other"], program.phases["deal"]
    assert plan.does[program.procedures["fill"]] == {n.MOVES}
    assert plan.does[play] == {n.MOVES, n.KNOCKS_OUT}  # the procedure's move, the nested knock-out
    assert plan.does[other] == {n.COUNTS, n.SAYS}
    assert plan.does[deal] == {n.REORDERS, n.MOVES}
    assert plan.effects == {n.MOVES, n.KNOCKS_OUT, n.COUNTS, n.SAYS, n.REORDERS}
    assert not plan.asking  # nothing asks: no generator


def test_asking_is_what_does_asks_and_every_version_of_an_asking_ability(tmp_path):
    program, plan = plan_of(write_game(tmp_path, """
        play: |
          let c = I choose a card from my hand "Put one in the row"
          move c to row
          for each player p simultaneously:
            fill
        """))
    play = program.phases["play"]
    assert plan.does[play] == {n.ASKS, n.MOVES} and plan.asking == {play}


def test_the_game_reads_the_plan_for_knock_outs():
    assert load_game("overloaded").knocks_out is (n.KNOCKS_OUT in load_game("overloaded").effects)
    assert load_game(Path(__file__).resolve().parent / "games" / "low-hand").knocks_out
    assert not load_game("hearts").knocks_out and n.MOVES in load_game("hearts").effects


def test_nothing_outside_the_language_stage_names_a_statement_class():
    """Whether a routine asks, knocks out, moves…: the analysis says (Plan), not an isinstance test."""
    wrong = []
    for path in ENGINE.rglob("*.py"):
        text = path.read_text()
        if path.relative_to(ENGINE).parts[0] == "lang" or ("statements" not in text and "blocks" not in text):
            continue  # (a module that never writes either word imports neither: not parsed)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[-1] in ("statements",
                                                                                                  "blocks"):
                wrong.append(f"{path.relative_to(ENGINE)}:{node.lineno}")
    assert not wrong, wrong


# ---- the worked example: `reverse ZONE`, a statement that changes the state ----------------------------------


def worked_example() -> dict:
    """The grammar rule, the class and the verb of docs/architecture.md's worked example, from the page."""
    page = (ENGINE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    example = page[page.index("### Worked example"):]
    blocks = [textwrap.dedent(b) for b in re.findall(r"```python\n(.*?)```", example, re.S)]
    assert len(blocks) == 2  # the node class, the verb
    names: dict = {"rule": re.search(r"`(reverse: [^`]*)`", example).group(1),
                   "statement": statement, "dataclass": dataclass, "n": n, "move": runtime.move, "TOP": runtime.TOP}
    exec(compile("from __future__ import annotations\n" + "\n".join(blocks), "architecture.md", "exec"), names)
    return names


def reverse_unwatched(st, zi):
    """The same, written past the hooks: the seats' views no longer follow the zone."""
    st.zones[zi].reverse()


def with_rule(rule: str, name: str) -> tuple[Lark, parser._Layout]:
    """The parser of the DSL's grammar with `rule` (named `name`) listed among the simple statements."""
    grammar = (data_dir("grammar") / "meeple.lark").read_text(encoding="utf-8")
    grammar += f"\n{rule}\n%extend _simple: {name}\n"
    layout = parser._Layout()
    lark = Lark(grammar, parser="lalr", lexer="basic", postlex=layout, start=["start", "expr_start"],
                propagate_positions=True, maybe_placeholders=True)
    return lark, layout


@pytest.fixture(scope="module")
def reverse_grammar():
    """Step 1 for `reverse ZONE`: the page's grammar rule added (analysed once for the module's tests)."""
    page = (ENGINE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    example = page[page.index("### Worked example"):]
    return with_rule(re.search(r"`(reverse: [^`]*)`", example).group(1), "reverse")


@pytest.fixture
def reverse_statement(monkeypatch, reverse_grammar):
    """The steps of docs/architecture.md ("How to add a statement") for `reverse ZONE`."""
    example = worked_example()  # (registers the class)
    try:
        # 1. a grammar rule, listed among the simple statements (here fed to the parser from the test)
        assert reverse_grammar[0].source_grammar.endswith(f"\n{example['rule']}\n%extend _simple: reverse\n")
        monkeypatch.setattr(parser, "_lark", lambda: reverse_grammar)

        # 2.–3. the node class, its effects declared, and its runtime verb: as the page writes them
        monkeypatch.setattr(runtime, "reverse", example["reverse"], raising=False)
        monkeypatch.setattr(runtime, "GENERATED_CODE_NAMES", (*runtime.GENERATED_CODE_NAMES, "reverse"))
        yield example["Reverse"]
    finally:
        del STATEMENTS["reverse"]


REVERSING = """
    play: |
      let c = I choose a card from my hand "Put one in the row"
      if count(row) % 2 == 0:
        move c to row face down
      else:
        move c to row
      reverse row
      reverse my hand
      fill
      reverse deck
    """


def test_the_worked_example_reverses_and_passes_the_leak_check(tmp_path, reverse_statement):
    folder = write_game(tmp_path, REVERSING)
    game = load_game(folder)
    assert n.REORDERS in game.effects and "reverse(st, " in game.python_source
    m = game.new_match(2, seed=3)
    row = m.st.zones[m.layout.zone_names.index("row")]
    m.apply(m.to_act()[0], 0)
    first = row[0]  # face down
    m.apply(m.to_act()[0], 0)
    assert len(row) == 2 and row[0] == first  # put on top, then the row reversed
    report = check_leaks(game, seeds=range(3))
    assert report.matches == 6 and report.points > 10
    assert main(["check", str(folder), "--examples", "5"]) == 0  # its matches keep the game's properties too


def test_the_worked_example_past_the_hooks_is_caught(tmp_path, reverse_statement, monkeypatch):
    """The verb must tell the watcher (here through `move`'s hooks): written past them, the check finds it."""
    monkeypatch.setattr(runtime, "reverse", reverse_unwatched)
    game = load_game(write_game(tmp_path, REVERSING))
    with pytest.raises(AssertionError, match="view is not what its observations imply"):
        check_leaks(game, seeds=range(3))


# ---- a statement added in the package, as the numbered steps say: an asking one, through the two visitors ------


@statement("pass_card")
@dataclass(eq=False)
class PassCard(n.Stmt):
    """`pass a card from CARDS to ZONE`: I choose one of the cards (none if there are none) and move it there."""

    cards: n.Expr
    zone: n.Expr
    who: n.Expr
    effects = frozenset({n.ASKS, n.MOVES})


del STATEMENTS["pass_card"]  # registered by the fixture only, for its tests


def stmt_pass_card(self, s, scope):
    """Step 4: the resolver's method for the rule."""
    cards, zone = s.children
    return PassCard(self.expect(cards, scope, "cards"), self.expect(zone, scope, "zone"), self.me(scope))


def visit_PassCard(self, node):
    """Step 5: the code generator's method for the class (its ask written by the writer's `ask`)."""
    who, c = self.some(node.who, "the player who chooses"), self.fresh("c")
    self.ask(who, f"(list({self.expr(node.cards)}) or [-1])", K_CARD, self.prompt("Pass which card?"), c)
    self.line(f"if {c} >= 0: move(st, {c}, {self.expr(node.zone)}, 0, -1)")


@pytest.fixture
def pass_statement(monkeypatch):
    grammar = with_rule('pass_card: "pass" "a" "card" "from" expr "to" expr', "pass_card")
    monkeypatch.setattr(parser, "_lark", lambda: grammar)
    monkeypatch.setattr(StatementResolver, "stmt_pass_card", stmt_pass_card, raising=False)
    monkeypatch.setattr(CodeGenerator, "visit_PassCard", visit_PassCard, raising=False)
    monkeypatch.setitem(STATEMENTS, "pass_card", PassCard)
    yield PassCard


def test_an_asking_statement_added_through_the_visitors_asks_and_passes_the_checks(tmp_path, pass_statement):
    folder = write_game(tmp_path, """
        play: |
          pass a card from my hand to row
          fill
        """)
    game = load_game(folder)
    assert {n.ASKS, n.MOVES} <= game.effects and "phase_play" in game.python_source
    m = game.new_match(2, seed=1)
    row = m.st.zones[m.layout.zone_names.index("row")]
    seat, options = m.to_act()[0], m.seat(m.to_act()[0]).legal_actions()
    m.apply(seat, options[-1])
    assert len(row) == 1 and len(options) == 2  # asked, with the two cards of the hand, one passed on
    assert check_leaks(game, seeds=range(2)).matches == 4
    assert main(["check", str(folder), "--examples", "5"]) == 0
