"""Generated cards (`generate:` in a card file): a deck from ranges and lists of values loads to exactly
the cards written out one by one, and every mistake in a generator is reported at its place."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from interpreter import AuthoringError, load_game
from interpreter.cli import main
from interpreter.load import generate
from interpreter.load.cards import MAX_CARDS

GAME = """\
game: deck
title: Deck
players: {min: 2, max: 4}
cards: [deck.yaml]
properties:
  rank: 0
  suit: ""
  red: false
abilities: [effect]
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
counters:
  player:
    points: 0
phases:
  deal: |
    shuffle deck
  turn: |
    move the top card of deck to my hand
flow:
  setup: [deal]
  turn: [turn]
  rounds: 1
result:
  score: my points
"""

GENERATED = """\
defaults:
  start: deck
  kind: card
generate:
  - each: {suit: [diamonds, hearts], rank: {from: 2, to: 14}}
    names: {rank: {11: Jack, 12: Queen, 13: King, 14: Ace}}
    id: "{rank}-{suit}"
    name: "{rank_name} of {suit_title}"
    rank: "{rank}"
    suit: "{suit}"
    red: true
  - each: {suit: [clubs, spades], rank: {from: 2, to: 14}}
    names: {rank: {11: Jack, 12: Queen, 13: King, 14: Ace}}
    id: "{rank}-{suit}"
    name: "{rank_name} of {suit_title}"
    rank: "{rank}"
    suit: "{suit}"
    abilities:
      effect: add this.rank to my points
"""

FACES = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}


def written_out() -> str:
    """The deck of GENERATED, every card written by hand."""
    lines = ["defaults:", "  start: deck", "  kind: card", "cards:"]
    for red, suits in ((True, ("diamonds", "hearts")), (False, ("clubs", "spades"))):
        for suit in suits:
            for rank in range(2, 15):
                lines += [f"  - id: {rank}-{suit}", f"    name: {FACES.get(rank, rank)} of {suit.title()}",
                          f"    rank: {rank}", f"    suit: {suit}"]
                lines += ["    red: true"] if red else ["    abilities:", "      effect: add this.rank to my points"]
    return "\n".join(lines) + "\n"


def make(folder: Path, cards: str, game: str = GAME) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "deck.yaml").write_text(cards, encoding="utf-8")
    return folder


def without_places(card):
    """A card definition without where it was written: the rest is what the game plays with."""
    abilities = {name: (text, label) for name, (text, _, label) in card.abilities.items()}
    return dataclasses.replace(card, pos=None, abilities=abilities)


def test_a_generated_deck_is_the_deck_written_out(tmp_path):
    generated = load_game(make(tmp_path / "generated", GENERATED))
    written = load_game(make(tmp_path / "written", written_out()))
    assert len(generated.model.cards) == 52
    assert [without_places(c) for c in generated.model.cards] == [without_places(c) for c in written.model.cards]
    for n in (2, 4):
        a, b = dataclasses.asdict(generated.model.setup(n)), dataclasses.asdict(written.model.setup(n))
        assert a == b
    a = generated.new_match(players=3, seed=7)
    b = written.new_match(players=3, seed=7)
    while not a.over:
        seat = a.to_act()[0]
        assert a.action_labels(seat) == b.action_labels(seat)
        a.apply(seat, 0)
        b.apply(seat, 0)
    assert a.result() == b.result()


def test_names_titles_and_typed_properties(tmp_path):
    game = load_game(make(tmp_path / "g", GENERATED))
    by_id = {c.id: c for c in game.model.cards}
    queen = by_id["12-spades"]
    assert (queen.name, queen.kind, queen.props) == ("Queen of Spades", "card", {"rank": 12, "suit": "spades"})
    assert by_id["7-hearts"].name == "7 of Hearts" and by_id["7-hearts"].props["red"] is True
    assert [c.id for c in game.model.cards[:3]] == ["2-diamonds", "3-diamonds", "4-diamonds"]  # the last varies fastest


def test_no_thanks_values_in_three_lines(tmp_path):
    cards = 'generate:\n  - {each: {n: {from: 3, to: 35}}, id: "card-{n}", name: "{n}", rank: "{n}", start: deck}\n'
    game = load_game(make(tmp_path / "g", cards))
    assert [c.props["rank"] for c in game.model.cards] == list(range(3, 36))
    assert game.model.cards[0].id == "card-3" and game.model.cards[-1].name == "35"


def test_cards_and_generators_come_in_the_order_of_the_file(tmp_path):
    cards = ("generate:\n  - {each: {n: [1, 2]}, id: 'g-{n}', start: deck}\n"
             "cards:\n  - {id: joker, start: deck}\n")
    assert [c.id for c in load_game(make(tmp_path / "g", cards)).model.cards] == ["g-1", "g-2", "joker"]


def test_text_and_true_false_values_take_the_kind_of_the_default(tmp_path):
    cards = """\
generate:
  - each: {n: [1, 2], red: [true, false]}
    id: "c-{n}-{red}"
    name: "{{{n}}} {red_title}"
    suit: "{n}"
    red: "{red}"
    rank: "1{n}"
    start: deck
"""
    game = load_game(make(tmp_path / "g", cards))
    first = game.model.cards[0]
    assert (first.id, first.name, first.props) == ("c-1-true", "{1} True", {"suit": "1", "red": True, "rank": 11})


def test_abilities_are_not_templates_and_point_at_the_generator(tmp_path):
    cards = GENERATED.replace("add this.rank to my points", "add this.rank to my pionts")
    folder = make(tmp_path / "g", cards)
    with pytest.raises(AuthoringError) as info:
        load_game(folder)
    [d] = info.value.diagnostics  # said once, though 26 cards carry the ability
    assert "pionts" in d.message
    line = cards.splitlines().index("      effect: add this.rank to my pionts") + 1
    assert (d.pos.file, d.pos.line, d.pos.col) == (str(folder / "deck.yaml"), line, 35)


def test_cards_and_validate_show_generated_cards(tmp_path, capsys, monkeypatch):
    folder = make(tmp_path / "g", GENERATED)
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["cards", str(folder)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^12-spades\s+Queen of Spades\s+1\s+card\s+effect: add this.rank to my points$", out, re.M)
    assert out.rstrip().endswith("Deck: 52 cards, 52 copies")
    assert main(["validate", str(folder), str(folder / "deck.yaml")]) == 0
    assert capsys.readouterr().out.splitlines() == [f"ok: {folder} (52 cards, 52 copies)",
                                                    f"ok: {folder / 'deck.yaml'} (52 cards, 52 copies)"]


def test_a_lone_card_file_with_a_generator_is_checked_and_counted(tmp_path, capsys):
    lone = tmp_path / "lone.yaml"
    lone.write_text('generate:\n  - {each: {n: {from: 1, to: 5}}, id: "c-{n}", count: 2}\n')
    assert main(["validate", str(lone)]) == 0
    assert capsys.readouterr().out.strip() == f"ok: {lone} (5 cards, 10 copies)"
    lone.write_text('generate:\n  - {each: {n: {from: 1, to: 5}}, id: "c-{m}"}\n')
    assert main(["validate", str(lone)]) == 1
    assert f"{lone}:2:42: error: unknown variable `{{m}}` in this template" in capsys.readouterr().err


def test_a_huge_range_is_refused_at_once(tmp_path, monkeypatch):
    cards = 'generate:\n  - {each: {a: {from: 1, to: 999999999999999999}, b: [x, y]}, id: "c-{a}-{b}", start: deck}\n'
    folder = make(tmp_path / "g", cards)

    def made(*args, **kwargs):  # work, not time: no card of the generator is made before it is refused
        raise AssertionError("the generator's cards were made before it was refused")

    monkeypatch.setattr(generate, "_fill", made)
    with pytest.raises(AuthoringError) as info:
        load_game(folder)
    [d] = info.value.diagnostics
    assert d.message == f"this generator makes 1,999,999,999,999,999,998 cards, more than the {MAX_CARDS:,} a game " \
        "may have"


def test_generators_together_are_held_to_the_card_limit(tmp_path):
    half = MAX_CARDS // 2 + 1
    cards = "".join(f'  - {{each: {{n: {{from: 1, to: {half}}}}}, id: "g{g}-{{n}}", start: deck}}\n' for g in (1, 2))
    with pytest.raises(AuthoringError) as info:
        load_game(make(tmp_path / "g", "generate:\n" + cards))
    [d] = info.value.diagnostics
    assert (d.pos.line, d.pos.col) == (3, 6)
    assert d.message == f"this generator makes {half:,} cards, and with them the game has more than {MAX_CARDS:,}"


# Each mistake: (old text of GENERATED, new text, the message, the text the error points at (its first
# occurrence in the new file), how far into that text).
MISTAKES = [
    ('id: "{rank}-{suit}"', 'id: "{rnk}-{suit}"', "unknown variable `{rnk}` in this template", "{rnk}", 0),
    ('name: "{rank_name} of', 'name: "{rank_name of', "`{` is not closed in this template", '"{rank_name of', 1),
    ('name: "{rank_name} of', 'name: "}{rank_name} of', "`}` closes nothing in this template", '"}{', 1),
    ('id: "{rank}-{suit}"', 'id: "{rank}"', "this generator makes the id `2` twice: for suit=diamonds, rank=2 and "
     "for suit=hearts, rank=2", '"{rank}"', 0),
    ('id: "{rank}-{suit}"', 'id: "{rank}-{suit_title}"', "for suit=diamonds, rank=2 the id is `2-Diamonds`, not a "
     "valid card id", '"{rank}-{suit_title}"', 0),
    ('rank: "{rank}"', 'rank: "{suit}"', "`rank` must be a whole number, like its default; for suit=diamonds, "
     "rank=2 this template gives `diamonds`", '"{suit}"\n    suit', 0),
    ("    red: true", '    red: "{suit}"', "`red` must be true/false, like its default; for suit=diamonds, rank=2 "
     "this template gives `diamonds`", '"{suit}"\n  -', 0),
    ("rank: {from: 2, to: 14}}\n    names", "rank: {from: 14, to: 2}}\n    names", "the range of `rank` is empty: "
     "from 14 to 2", "{from: 14", 0),
    ("{11: Jack", "{1: Jack", "`1` is not a value of `rank`", "1: Jack", 0),
    ("names: {rank:", "names: {rnk:", "`names` has a table for `rnk`, which is not a variable of `each`", "rnk:", 0),
    ("each: {suit: [diamonds, hearts]", "each: {suit_name: [x], suit: [diamonds, hearts]",
     "variable `suit_name` has the name of `{suit_name}`, the name of `suit`", "suit_name:", 0),
    ("rank: {from: 2, to: 14}}\n    names", "rank: 2..14}\n    names",
     "generate[0].each.rank must be a mapping (key: value) or a list, not '2..14'", "2..14", 0),
    ("each: {suit: [diamonds, hearts], rank: {from: 2, to: 14}}", "each: {}", "generate[0].each must not be empty",
     "{}", 0),
    ("  - each: {suit: [diamonds, hearts]", "  - eech: {suit: [diamonds, hearts]", "generate[0] is missing "
     "required key `each`", "eech", 0),
    ("    red: true", "    colour: red", "unknown card property `colour`", "colour", 0),
    ("each: {suit: [clubs, spades]", "each: {suit: [clubs, hearts]", "card id `2-hearts` is used twice",
     'id: "{rank}-{suit}"\n    name: "{rank_name} of {suit_title}"\n    rank: "{rank}"\n    suit: "{suit}"\n'
     "    abilities", 4),
]


@pytest.mark.parametrize("old, new, message, at, offset", MISTAKES, ids=[m[2][:40] for m in MISTAKES])
def test_each_mistake_in_a_generator_is_reported_at_its_place(tmp_path, old, new, message, at, offset):
    assert old in GENERATED, old
    cards = GENERATED.replace(old, new, 1)
    folder = make(tmp_path / "g", cards)
    with pytest.raises(AuthoringError) as info:
        load_game(folder)
    first = info.value.diagnostics[0]
    before = cards[:cards.index(at) + offset]
    assert first.message == message, first.render()
    assert (first.pos.line, first.pos.col) == (before.count("\n") + 1, len(before) - before.rfind("\n")), \
        first.render()
    assert len({(d.pos, d.message) for d in info.value.diagnostics}) == len(info.value.diagnostics)
