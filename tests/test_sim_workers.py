"""`run_many` hands its workers the game it was given (a game pickles as its folder and step limit, and the
worker takes the one loaded there): the run stage loads no game of its own."""

import multiprocessing
import pickle

import pytest
import yaml

from interpreter.game import load_game
from interpreter.run.runtime import RuleError
from interpreter.run.sim import run_many

forked = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="workers are not forked")


def pot_game(folder, added: int):
    """Two players, one round: each turn adds `added` to a game counter."""
    (folder / "game.yaml").write_text(
        "game: pot\ntitle: Pot\nplayers: {min: 2, max: 2}\ncards: [cards.yaml]\n"
        "zones: {deck: {visibility: hidden, face: down}}\ncounters: {game: {pot: 0}}\n"
        f"flow: {{rounds: 1, turn: [main]}}\nphases:\n  main: add {added} to pot\n")
    (folder / "cards.yaml").write_text(yaml.safe_dump({"cards": [{"id": "c1", "start": "deck"}]}))
    return folder


@forked
def test_the_workers_play_the_game_they_are_handed_not_the_folder_as_it_is_now(tmp_path):
    game = load_game(pot_game(tmp_path, 3))
    pot_game(tmp_path, 4)  # the folder changes after the game was loaded
    by_one = run_many(game, 2, 8, workers=1)
    by_two = run_many(game, 2, 8, workers=2)
    assert by_one["mean_counters"] == by_two["mean_counters"] == {"pot": 6.0}  # two turns of 3
    assert load_game(tmp_path) is not game  # (the folder does hold another game now)


@forked
def test_the_workers_keep_the_step_limit_of_the_game_handed_to_them():
    game = load_game("overloaded").with_max_steps(50)
    with pytest.raises(RuleError, match="ran more than 50 steps"):
        run_many(game, 4, 4, workers=2)


def test_a_game_crosses_to_a_worker_as_its_folder_and_step_limit():
    game = load_game("overloaded").with_max_steps(777)
    data = pickle.dumps(game)
    assert len(data) < 500 and b"python_source" not in data  # the folder's name, not the compiled game
    back = pickle.loads(data)
    assert back.max_steps == 777 and back.model.root == game.model.root
