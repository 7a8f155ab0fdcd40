"""Every bundled game has a rules page for a player: in its folder, linked from the README and from
`meeple cards`, printed by `meeple rules GAME`; the launch games' pages agree with their cards."""

import re
import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.paths import bundled_games, data_dir

REPO = Path(__file__).resolve().parent.parent


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", bundled_games())
def test_rules_prints_the_page_of_every_bundled_game(capsys, game):
    page = (data_dir("cards") / game / "README.md").read_text(encoding="utf-8")
    code, out, err = run(capsys, "rules", game)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == page.splitlines()[0]  # `# Title`
    assert "**" not in out  # emphasis marks are for the web, not the terminal
    assert out.replace(" ", "") == page.replace("**", "").replace(" ", "")


@pytest.mark.parametrize("game", bundled_games())
def test_the_readme_and_cards_lead_to_each_page(capsys, game):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"(cards/{game}/README.md)" in readme
    code, out, _ = run(capsys, "cards", game)
    assert code == 0 and out.splitlines()[-1] == f"The rules: meeple rules {game}"


def test_rules_of_an_unknown_game_or_a_game_without_a_page_is_one_message(tmp_path, capsys):
    code, out, err = run(capsys, "rules", "overloadd")
    assert code == 1 and out == "" and "did you mean `overloaded`?" in err and len(err.splitlines()) == 1
    folder = tmp_path / "mine"
    shutil.copytree(data_dir("cards") / "go-fish", folder)
    (folder / "README.md").unlink()
    code, out, err = run(capsys, "rules", str(folder))
    assert code == 1 and out == ""
    assert err.strip() == f"meeple rules: error: the game `{folder}` has no rules page: write one as README.md " \
                          "in its folder"
    code, out, _ = run(capsys, "cards", str(folder))
    assert code == 0 and "meeple rules" not in out


def _table(page: str, heading: str) -> list[list[str]]:
    """The rows of the first Markdown table after `heading`, as cells (the header and rule rows left out)."""
    after = page[page.index(heading):]
    block: list[list[str]] = []
    for line in after.splitlines()[1:]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in line.strip("|").split("|")])
        elif block:
            break
    assert block, heading
    return block[2:]


def test_the_overloaded_page_names_every_donkey_and_advantage_as_the_cards_do():
    page = (data_dir("cards") / "overloaded" / "README.md").read_text(encoding="utf-8")
    model = load_game("overloaded").model
    donkeys = {row[1]: int(row[0]) for row in _table(page, "## The donkeys")}
    assert donkeys == {c.name: c.count for c in model.cards if c.kind == "donkey"}
    advantages = {row[0] for row in _table(page, "## Drover advantages")}
    assert advantages == {c.props["advantage"] for c in model.cards if c.kind == "cargo"}
    for c in model.cards:
        if c.kind == "cargo":  # "1 and 6 Scout": each value with the advantage on its back
            assert re.search(rf"\b{c.props['value']}\b[^,.]* {c.props['advantage']}", " ".join(page.split())), c.name


def test_the_sky_haulers_page_gives_every_card_its_numbers():
    page = (data_dir("cards") / "sky-haulers" / "README.md").read_text(encoding="utf-8")
    cards = {c.name: c for c in load_game("sky-haulers").model.cards}
    for pos, name, receiving, _ in _table(page, "## The Locations"):
        assert (cards[name].props["slot"], cards[name].props["receiving"]) == (int(pos), int(receiving))
    for row in _table(page, "## The Player cards"):
        props = cards[row[0]].props
        assert [props["shipping"], props["range"], props["pilot"]] == [int(x) for x in row[1:4]]
        assert row[4].startswith(f"{props['move_name']} {props['move_value']}")
    for heading in ("**Passengers**", "**Pilots**", "**Artifacts**"):
        for row in _table(page, heading):
            props = cards[row[0]].props
            assert f"{props['move_name']} {props['move_value']}" in row[-1] + row[2], row[0]
    actions = _table(page, "**Actions**")
    assert {row[1]: int(row[0]) for row in actions} == {n: c.count for n, c in cards.items() if c.kind == "action"}
