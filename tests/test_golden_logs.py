"""Matches recorded by an earlier version: the same seed and random bots must still give the same match,
event for event (a change of the chance stream or of the rules' meaning shows here first).

A change that is meant to alter these matches rewrites them, and its commit says why:

    python tests/test_golden_logs.py
"""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this checkout's engine

from interpreter import load_game
from interpreter.run.match import play_random

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.jsonl"))


def recorded_today(head: dict) -> list[dict]:
    """The log of the match a golden file's header names, as it plays today (keys sorted)."""
    m = play_random(load_game(head["game"]), head["players"], head["seed"], log=True)
    return [json.loads(json.dumps(rec, sort_keys=True, ensure_ascii=False)) for rec in m.log]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_recorded_match_plays_the_same_today(path):
    recorded = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    today = recorded_today(recorded[0])
    for i, (want, got) in enumerate(zip(recorded, today, strict=False)):
        assert got == want, f"{path.name}: record {i + 1} differs"
    assert len(today) == len(recorded)


if __name__ == "__main__":
    for path in GOLDEN:
        head = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        lines = [json.dumps(rec, sort_keys=True, ensure_ascii=False) for rec in recorded_today(head)]
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"rewrote {path.name}: {len(lines)} records")
