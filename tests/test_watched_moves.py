"""A watched match moves many cards at once (each zone rebuilt in one pass, each card's place worked out): the
log, the observations and every seat's information state come out as if the cards had moved one by one."""

import json

import pytest
from test_hostile_input import run
from test_run_limits import STEPS, write_game
from walks import walker

from interpreter import logfile
from interpreter.game import load_game
from interpreter.run import information, moving, runtime
from interpreter.run.match import Match
from interpreter.run.runtime import OWNER, RuleError

MOVES = """\
show the top card of deck to me
let x = I choose one of "a", "b" "?"
move deck where it.value < 5 to pile
move deck where it.value >= 7 to pile face down
move pile where it.value > 2 to bottom of deck
move all deck to my hand
show my hand where it.value < 7 to next player after me
move (pile where it.value < 3) + (my hand where it.value > 4) to deck face down
let y = I choose one of "a", "b" "?"
shuffle deck
move all deck to my hand
show the bottom 12 cards of my hand to next player after me
move the top 16 cards of my hand to pile
flip my hand face down
let z = I choose one of "a", "b" "?"
move my hand where it.value > 1 to pile face down
move my hand to bottom of pile
move all pile to top of pile
move pile where it.value > 3 to bottom of pile face down
move the top 3 cards of pile to a random position of deck
move the top card of pile to position 2 of pile
let w = I choose one of "a", "b" "?"
move all pile to bottom of deck face up
move deck where it.value > 3 to top of deck
shuffle deck"""


def played(game, seed: int) -> tuple:
    """A match of random bots, and who could tell which cards apart and who knew which at every question."""
    m = Match(game, 2, seed, log=True)
    rng = walker(seed)
    asked = []
    while not m.over:
        asked.append(([t[:] for t in m._watch.tags], m.st.known[:], [z[:] for z in m.st.zones]))
        for seat in m.to_act():
            m.apply(seat, rng.pick(len(m.legal_actions(seat))))
    return m, asked


def seen(played: tuple) -> tuple:
    m, turns = played
    return m.log, m._watch.events, turns, [m.information_state(s) for s in range(m.players)]


@pytest.mark.parametrize("seed", [0, 1])
def test_many_cards_moved_at_once_are_watched_as_one_by_one(tmp_path, monkeypatch, seed):
    game = load_game(write_game(tmp_path / "moves", MOVES, copies=3, flow="  turn: [turn]\n  rounds: 2\n"))
    batches = []
    at_once = moving._move_watched

    def counted(st, cards, *args):
        hand = any(st.layout.zone_vis[st.zone_of[c]] == OWNER for c in cards)
        batches.append((hand, at_once(st, cards, *args)))
        return batches[-1][1]

    monkeypatch.setattr(moving, "_move_watched", counted)
    together = seen(played(game, seed))
    assert (True, True) in batches and (False, True) in batches  # cards from a hand and from the table at once
    monkeypatch.setattr(moving, "_move_watched", lambda *args: False)
    one_by_one = information.Watcher.moved
    monkeypatch.setattr(information.Watcher, "moved", lambda self, st, c, src, dst, at_random=False, to=-1:
                        one_by_one(self, st, c, src, dst, at_random))  # each place found by a search
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

    # (`move` as compiled code calls it, and as the runtime's moves of several cards do)
    for owner, name in ((runtime, "move"), (moving, "move"), (information.Watcher, "moved"),
                        (information.Watcher, "moved_many")):
        monkeypatch.setattr(owner, name, counted(name, getattr(owner, name)))
    with pytest.raises(RuleError, match=STEPS.replace("1,000,000", "100,000")):
        Match(game, 2, 0, log=True)
    assert calls["move"] == calls["moved"] == 0
    assert 95 <= calls["moved_many"] <= 100  # 1,000 cards a batch, a step a card


SET_UP_FAILS = 'say "the deck is cut"\nmove all deck to pile\nlet z = 1 / my points'


@pytest.mark.parametrize("command", [["play", "--log", "early.jsonl"], ["sim", "-n", "1"]])
def test_rules_that_fail_before_the_first_decision_leave_a_log_that_replays(capsys, tmp_path, monkeypatch, command):
    """`play --log` (and `sim`, which plays a failed match again with its log) writes the log of a match whose
    rules fail before anyone is asked anything: what happened up to the failure, then its error line."""
    monkeypatch.chdir(tmp_path)
    folder = write_game(tmp_path / "early", SET_UP_FAILS, copies=2)
    code, _, err = run(capsys, command[0], folder, *command[1:])
    log = tmp_path / ("early.jsonl" if command[0] == "play" else "rule-failure.jsonl")
    assert code == 1 and "division by zero (seed 0, after 0 decisions)" in err and f"is in {log.name}" in err, err
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert [line["type"] for line in lines[:2]] == ["match", "event"] and lines[1]["text"] == "the deck is cut"
    assert sum(line.get("event") == "move" for line in lines) == 20 and lines[-1]["type"] == "error"
    code, out, _ = run(capsys, "replay", log, "--game", folder)
    assert code == 0 and "the rules fail at the same point" in out


def test_a_failed_match_whose_log_is_too_large_says_so(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(logfile, "MAX_LOG_BYTES", 2_000)
    code, _, err = run(capsys, "play", write_game(tmp_path / "early", SET_UP_FAILS, copies=2), "--log", "early.jsonl")
    assert code == 1 and err.rstrip().endswith("its log was not written: cannot write early.jsonl: the log would be "
                                               "larger than 2,000 bytes"), err
    assert not (tmp_path / "early.jsonl").exists()
