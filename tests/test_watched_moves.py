"""A watched match moves many cards at once (each zone rebuilt in one pass, each card's place worked out): the
log, the observations and every seat's information state come out as if the cards had moved one by one."""

import pytest
from test_run_limits import STEPS, write_game

from interpreter.game import load_game
from interpreter.run import information, runtime
from interpreter.run.match import Match, play_random
from interpreter.run.runtime import RuleError

MOVES = """\
show the top card of deck to me
let x = I choose one of "a", "b" "?"
move deck where it.value < 5 to pile
move deck where it.value >= 7 to pile face down
move pile where it.value > 2 to bottom of deck
move all deck to my hand
move (pile where it.value < 3) + (my hand where it.value > 4) to deck face down
move my hand to bottom of pile
shuffle deck
move all pile to bottom of deck face up"""


def played(game, seed: int) -> Match:
    return play_random(game, 2, seed, log=True)


def seen(m: Match) -> tuple:
    return m.log, m._watch.events, m._watch.tags, [m.information_state(s) for s in range(m.players)]


@pytest.mark.parametrize("seed", [0, 1])
def test_many_cards_moved_at_once_are_watched_as_one_by_one(tmp_path, monkeypatch, seed):
    game = load_game(write_game(tmp_path / "moves", MOVES, copies=3, flow="  turn: [turn]\n  rounds: 2\n"))
    batches = []
    at_once = runtime._move_watched

    def counted(*args):
        batches.append(at_once(*args))
        return batches[-1]

    monkeypatch.setattr(runtime, "_move_watched", counted)
    together = seen(played(game, seed))
    assert batches.count(True) >= 4 and False in batches  # both ways taken (a hand's cards go one by one)
    monkeypatch.setattr(runtime, "_move_watched", lambda *args: False)
    assert seen(played(game, seed)) == together


def test_the_watched_back_and_forth_moves_each_batch_at_once(tmp_path, monkeypatch):
    """The hostile match of cards moved back and forth, watched: every move of the loop goes as one batch
    (the watcher is told once a batch, no card is moved by itself), so it costs in proportion to the cards
    moved, as in `sim`, and stops at the same step."""
    folder = write_game(tmp_path / "zones", "while true at most 1000000 times:\n  move all deck to pile\n"
                        "  move all pile to deck", copies=100)
    game = load_game(folder).with_max_steps(100_000)
    calls = {"move": 0, "moved": 0, "moved_many": 0}

    def counted(name: str, f):
        def spy(*args):
            calls[name] += 1
            return f(*args)
        return spy

    for owner, name in ((runtime, "move"), (information.Watcher, "moved"), (information.Watcher, "moved_many")):
        monkeypatch.setattr(owner, name, counted(name, getattr(owner, name)))
    with pytest.raises(RuleError, match=STEPS.replace("1,000,000", "100,000")):
        Match(game, 2, 0, log=True)
    assert calls["move"] == calls["moved"] == 0
    assert 95 <= calls["moved_many"] <= 100  # 1,000 cards a batch, a step a card
