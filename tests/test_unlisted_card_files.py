"""A YAML file in a game folder that `cards:` does not list is most likely a card file left out by
mistake: `meeple validate` warns at the file (the game still validates: exit 0)."""

from __future__ import annotations

import json
import shutil

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.load.loader import unlisted_card_files
from interpreter.paths import data_dir

OVERLOADED = data_dir("cards") / "overloaded"


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(OVERLOADED, folder)
    return folder


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_card_file_left_out_of_cards_is_a_warning_at_the_file(capsys, game):
    shutil.copy(game / "donkeys.yaml", game / "more-donkeys.yaml")
    code, out, err = run(capsys, "validate", game)
    assert code == 0 and out.startswith(f"ok: {game} (")
    assert f"{game / 'more-donkeys.yaml'}:1:1: warning: `more-donkeys.yaml` is not listed under `cards:` " \
        "in game.yaml" in err
    assert "hint: add `more-donkeys.yaml` to `cards:`" in err
    assert err.strip().endswith("1 warning found")


def test_the_warning_is_in_the_json_list_with_its_severity(capsys, game):
    (game / "extra").mkdir()
    (game / "extra" / "spare.yml").write_text("cards: []\n")
    code, out, _ = run(capsys, "validate", "--format", "json", game)
    assert code == 0
    [warning] = json.loads(out)
    assert warning["severity"] == "warning" and warning["file"] == str(game / "extra" / "spare.yml")
    assert (warning["line"], warning["col"]) == (1, 1)
    assert "`extra/spare.yml` is not listed" in warning["message"]


def test_an_unlisted_file_named_on_its_own_is_checked_too(capsys, game):
    (game / "spare.yaml").write_text("cards: []\n")
    code, _, err = run(capsys, "validate", game, game / "spare.yaml")
    assert code == 1
    assert f"{game / 'spare.yaml'}:1:8: error: cards must not be empty" in err
    assert err.count("warning: `spare.yaml` is not listed") == 1  # said once, though both paths find it
    assert err.strip().endswith("1 error and 1 warning found")


def test_game_yaml_scenarios_hidden_files_and_other_files_are_not_card_files(game):
    (game / ".editor.yaml").write_text("x: 1\n")
    (game / ".cache").mkdir()
    (game / ".cache" / "state.yaml").write_text("x: 1\n")
    (game / "scenarios" / "notes.yml").write_text("[]\n")
    (game / "README.txt").write_text("rules\n")
    assert unlisted_card_files(load_game(game).model) == []


def test_a_listed_file_named_another_way_is_listed(game):
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("cards: [", "cards: [./", 1))
    assert unlisted_card_files(load_game(game).model) == []


def test_a_linked_file_leading_out_is_warned_about_without_being_read(capsys, game, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n")
    try:
        (game / "innocent.yaml").symlink_to(secret)
    except (OSError, NotImplementedError):
        pytest.skip("no symbolic links here")
    code, out, err = run(capsys, "validate", game)
    assert code == 0 and "warning: `innocent.yaml` is not listed" in err
    assert "hunter2" not in out + err
