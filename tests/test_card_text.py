"""Card text is text, not code: every bundled card a player is shown reads as a sentence, and `validate`
warns of a card with an effect and no `text:`."""

import re
import shutil

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.paths import bundled_games, data_dir
from interpreter.run.match import Match
from interpreter.table import WORDS, Cards

# What betrays the effect language in a text: a name_with_underscores, a `{placeholder}`, a comparison,
# an ability's name as a label (`effect: …`), or a statement's opening words.
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|[{}]|==|!=|<=|>=|\b(?:set|let|add|resolve) (?:my|the|\w+ to)\b|^\s*if .*:$")


def looks_like_code(text: str, game) -> str | None:
    """Why `text` reads as the rules' code rather than a sentence for a player (None: it reads as text)."""
    found = CODE.search(text)
    if found:
        return f"`{found.group(0)}`"
    for name in game.model.abilities:
        if re.search(rf"(?:^|\s){re.escape(name)}:", text):
            return f"the ability name `{name}:`"
    return None


@pytest.mark.parametrize("name", bundled_games())
def test_no_bundled_card_shows_code(name):
    game = load_game(name)
    m = Match(game, game.default_players, 0, log=True)
    cards = Cards(m)
    shown = {}
    for cid in m.layout.card_ids:
        shown[cid] = [cards.line(cid), *cards.full(cid, WORDS["en"])]
    bad = [f"{cid}: {why} in {text!r}" for cid, texts in shown.items() for text in texts
           if (why := looks_like_code(text, game))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", bundled_games())
def test_every_card_with_an_effect_has_text(name):
    assert [c.id for c in load_game(name).model.cards if c.abilities and not c.text] == []


def test_second_thoughts_reads_as_a_sentence():
    game = load_game("overloaded")
    cards = Cards(Match(game, 4, 0, log=True))
    assert cards.full("cargo-4@0", WORDS["en"]) == [
        "Cargo 4 (kind: cargo)", "  value 4, advantage Second Thoughts",
        "  As a drover advantage: once every contract is chosen, you may flip your own contract"]
    assert looks_like_code("effect: set my second_thoughts to 1", game)


def test_the_code_detector_catches_what_it_should():
    game = load_game("sky-haulers")
    assert looks_like_code("set my spot to slot_number", game)
    assert looks_like_code("on_roll: if last_roll == 3:", game)
    assert looks_like_code("draw 1, then draw until my hand has 5 {me}", game)
    assert looks_like_code("Your turn, once per turn: draw 2", game) is None


def test_validate_warns_of_a_card_with_an_effect_and_no_text(tmp_path, capsys):
    folder = tmp_path / "mine"
    shutil.copytree(data_dir("cards") / "overloaded", folder)
    cargo = folder / "cargo.yaml"
    text = cargo.read_text(encoding="utf-8")
    kept = "\n".join(line for line in text.splitlines() if "drover advantage: look" not in line) + "\n"
    cargo.write_text(kept, encoding="utf-8")
    for target in (folder, cargo):
        code = main(["validate", str(target)])
        out, err = capsys.readouterr()
        assert code == 0 and out.startswith("ok: ")  # a warning does not fail validation
        warned = re.findall(r"^(.*):(\d+):5: warning: card `(cargo-\d+)` has an effect but no `text:`", err, re.M)
        assert [(w[0], w[2]) for w in warned] == [(str(cargo), "cargo-1"), (str(cargo), "cargo-6")]
        assert err.rstrip().endswith("2 warnings found")
