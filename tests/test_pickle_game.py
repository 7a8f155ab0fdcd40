"""A pickle round trip of a match does not touch its game's folder: an unpickled match takes the game already
loaded in the process, and loads the folder only when none is."""

import pickle

import pytest

from interpreter import game as game_module
from interpreter import load_game


def counting(monkeypatch):
    """Count every look at a game folder: finding it, and compiling it."""
    calls = []
    find, load = game_module.find_game, game_module._load

    def find_game(name):
        calls.append(("find", name))
        return find(name)

    def _load(folder, stamp):
        calls.append(("load", folder))
        return load(folder, stamp)

    monkeypatch.setattr(game_module, "find_game", find_game)
    monkeypatch.setattr(game_module, "_load", _load)
    return calls


@pytest.mark.parametrize("name", ["overloaded", "hearts"])
def test_a_round_trip_reuses_the_loaded_game(name, monkeypatch):
    game = load_game(name)
    m = game.new_match(players=4, seed=2)
    for p in m.to_act():
        m.apply(p, 0)
    calls = counting(monkeypatch)
    other = pickle.loads(pickle.dumps(m))
    assert calls == [] and other.game is game
    assert other.information_state(1) == m.information_state(1) and other.history == m.history


def test_with_no_game_loaded_an_unpickled_match_loads_its_folder(monkeypatch):
    m = load_game("go-fish").new_match(players=2, seed=1)
    data = pickle.dumps(m)
    monkeypatch.setattr(game_module, "_LOADED", {})  # a process that never loaded the game
    calls = counting(monkeypatch)
    other = pickle.loads(data)
    assert [kind for kind, _ in calls] == ["find", "load"] and other.to_act() == m.to_act()
    assert pickle.loads(data).game is other.game and len(calls) == 2  # …and then found loaded
