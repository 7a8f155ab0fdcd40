"""Matches recorded by an earlier version: the same seed and random bots must still give the same match,
event for event (a change of the chance stream or of the rules' meaning shows here first)."""

import json
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.run.match import play_random

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.jsonl"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_recorded_match_plays_the_same_today(path):
    recorded = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    head = recorded[0]
    m = play_random(load_game(head["game"]), head["players"], head["seed"], log=True)
    today = [json.loads(json.dumps(rec, sort_keys=True, ensure_ascii=False)) for rec in m.log]
    for i, (want, got) in enumerate(zip(recorded, today, strict=False)):
        assert got == want, f"{path.name}: record {i + 1} differs"
    assert len(today) == len(recorded)
