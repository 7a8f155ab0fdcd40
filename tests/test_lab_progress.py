"""Long runs of the lab: progress bars on a terminal (none when piped), and the raw results file kept up to date
while matches are still being played, so a run killed outright keeps what it had and resumes from it."""

import json
import sys

from interpreter.cli import main
from interpreter.lab import command, jobs


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_terminal_gets_a_bar_for_each_part_with_the_time_left(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(capsys, "report", "tests/games/kuhn-poker", "-n", "8", "--skill", "mc:1", "--skill-n", "2",
                         "--json")
    assert code == 0 and json.loads(out)["games"] == 8  # stdout holds the figures alone
    for label in ("matches", "skill: mc:1 vs random", "skill: mc:4 vs mc:2"):
        assert label in err
    assert "8/8" in err and "left" in err


def test_a_pipe_gets_no_bar(capsys):
    code, _, err = run(capsys, "report", "tests/games/kuhn-poker", "-n", "8", "--json")
    assert code == 0 and err == ""


def test_the_raw_file_is_written_while_a_match_is_still_being_played(tmp_path, capsys, monkeypatch):
    """A slow match holds up the run: the checkpoint's thread writes what finished before it meanwhile."""
    raw = tmp_path / "raw.jsonl"
    seen_during_match_3 = []
    real_play = jobs.play

    def slow_at_3(game, players, seed, bots):
        if seed == 3:
            for _ in range(400):  # until the thread has written matches 0-2 (it looks every 10 ms here)
                lines = raw.read_text().splitlines() if raw.exists() else []
                if len(lines) == 1 + 3:
                    seen_during_match_3.append([json.loads(line)["index"] for line in lines[1:]])
                    break
                command.threading.Event().wait(0.01)
        return real_play(game, players, seed, bots)

    monkeypatch.setattr(command, "CHECKPOINT_SECONDS", 0.05)
    monkeypatch.setattr(command, "CHECKPOINT_POLL", 0.01)
    monkeypatch.setattr(jobs, "play", slow_at_3)
    assert run(capsys, "report", "crazy-eights", "-n", "6", "--raw", str(raw), "--json")[0] == 0
    assert seen_during_match_3 == [[0, 1, 2]]
    assert len(raw.read_text().splitlines()) == 1 + 6
