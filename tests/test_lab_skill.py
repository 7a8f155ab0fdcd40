"""The report's skill section (`--skill KIND:N`): a search bot against random and at doubling budgets against
itself, each rung's win rate against its fair share and the skill index, with intervals; the same figures
whatever the workers; rungs kept in the raw results file and extended without playing a match twice."""

import json

import pytest

from interpreter.cli import main
from interpreter.lab import backends, jobs
from interpreter.lab.collect import BotError
from interpreter.lab.command import TIME_FIELDS
from interpreter.lab.skill import ladder, rung_figures, skill_figures

KUHN = "tests/games/kuhn-poker"  # two seats, a few decisions a match: a search bot's match costs milliseconds


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def figures_of(out: str) -> dict:
    figures = json.loads(out)
    for field in TIME_FIELDS:
        figures.pop(field)
    return figures


def test_the_ladder_doubles_the_budget_of_the_named_bot():
    assert ladder("ismcts:8") == [("ismcts:8", "random"), ("ismcts:16", "ismcts:8"), ("ismcts:32", "ismcts:16")]
    assert ladder("mc:5")[2] == ("mc:20", "mc:10")
    for bad, message in (("ismcts:0.5s", "number of iterations"), ("random", "number of iterations"),
                         ("nobody:3", "unknown bot")):
        with pytest.raises(BotError, match=message):
            ladder(bad)


def _record(bots, winners, scores):
    return {"bots": bots, "winners": winners, "scores": scores}


def test_a_rung_counts_a_shared_win_as_a_share_and_puts_the_fair_share_at_index_zero():
    a, b = "ismcts:2", "random"
    records = [_record([a, b, b], [0], [9, 3, 3]),        # A wins alone
               _record([b, a, b], [1, 2], [1, 5, 5]),     # A shares a win with one other: 1/2
               _record([b, b, a], [0], [7, 2, 2]),        # A loses
               _record([a, b, b], [1], [2, 4, 0])]        # A loses
    r = rung_figures(a, b, records, 3, False, 0.04)
    assert r["n"] == 4 and r["wins"] == pytest.approx(1.5) and r["rate"] == pytest.approx(1.5 / 4)
    assert r["fair"] == pytest.approx(1 / 3) and r["edge"] == pytest.approx(1.5 / 4 - 1 / 3)
    assert r["index"] == pytest.approx((1.5 / 4 - 1 / 3) / (2 / 3))
    low, high = r["ci"]
    assert r["index_ci"] == pytest.approx([(low - 1 / 3) / (2 / 3), (high - 1 / 3) / (2 / 3)])
    assert r["score_margin"]["mean"] == pytest.approx((6 + 2 - 2.5 + 0) / 4)  # A's score minus the others' mean
    assert r["thin"] and not r["better"] and not r["worse"]
    always = rung_figures(a, b, [_record([a, b], [0], [1, 0])] * 60, 2, False, 0.04)
    assert always["index"] == 1 and always["better"] and always["index_ci"][0] > 0.85


def test_skill_matters_when_the_first_rung_is_surely_above_the_fair_share():
    a, b = "mc:2", "random"
    won = [_record([a, b], [0], [1, 0])] * 40
    lost = [_record([a, b], [1], [0, 1])] * 40
    even = won[:20] + lost[:20]
    assert skill_figures(a, [(a, b, won)], 2, False, 0.04)["matters"]["verdict"] == "yes"
    assert skill_figures(a, [(a, b, lost)], 2, False, 0.04)["matters"]["verdict"].startswith("the search bot")
    assert skill_figures(a, [(a, b, even)], 2, False, 0.04)["matters"]["verdict"] == "no evidence"
    assert skill_figures(a, [], 2, False, 0.04)["matters"]["verdict"] == "not measured"


def test_skill_rungs_seat_the_search_bot_in_every_seat_and_do_not_depend_on_the_workers(capsys, tmp_path):
    raw = tmp_path / "raw.jsonl"
    argv = ("report", KUHN, "-n", "6", "--skill", "ismcts:2", "--skill-n", "6", "--json")
    code, one, _ = run(capsys, *argv, "--raw", str(raw))
    assert code == 0
    ladder_figures = json.loads(one)["skill_ladder"]
    assert [(r["a"], r["b"], r["n"]) for r in ladder_figures["rungs"]] == [
        ("ismcts:2", "random", 6), ("ismcts:4", "ismcts:2", 6), ("ismcts:8", "ismcts:4", 6)]
    assert ladder_figures["matters"]["index"] == ladder_figures["rungs"][0]["index"]
    records = [json.loads(line) for line in raw.read_text().splitlines()[1:]]
    rung = [r for r in records if r.get("part") == "ismcts:4 vs ismcts:2"]
    assert [r["bots"].index("ismcts:4") for r in rung] == [0, 1, 0, 1, 0, 1]
    assert len(records) == 6 + 3 * 6
    assert figures_of(run(capsys, *argv, "--workers", "2")[1]) == figures_of(one)


def test_skill_rungs_are_extended_from_the_raw_file_without_playing_a_match_twice(capsys, tmp_path, monkeypatch):
    raw = tmp_path / "raw.jsonl"
    argv = ("report", KUHN, "-n", "4", "--skill", "mc:2", "--json")
    assert run(capsys, *argv, "--skill-n", "3", "--raw", str(raw))[0] == 0
    played = []
    real_play = jobs.play
    monkeypatch.setattr(jobs, "play", lambda game, players, seed, bots: played.append((seed, bots)) or
                        real_play(game, players, seed, bots))
    code, extended, _ = run(capsys, *argv, "--skill-n", "5", "--resume", str(raw))
    assert code == 0 and sorted(seed for seed, _ in played) == [3, 3, 3, 4, 4, 4]  # two more a rung, no main match
    monkeypatch.undo()
    assert figures_of(extended) == figures_of(run(capsys, *argv, "--skill-n", "5")[1])


def test_the_skill_section_shows_in_the_text_the_page_and_a_csv_file(capsys, tmp_path):
    page, folder = tmp_path / "r.html", tmp_path / "csv"
    code, out, _ = run(capsys, "report", KUHN, "-n", "4", "--skill", "mc:2", "--skill-n", "2", "-o", str(page),
                       "--csv", str(folder))
    assert code == 0 and "does skill matter?" in out and "mc:4 vs mc:2:" in out
    html = page.read_text()
    assert "Does skill matter?" in html and "Skill ladder" in html and "mc:8" in html
    assert (folder / "skill.csv").read_text().splitlines()[1].startswith("mc:2,random,2,")


def test_a_page_without_the_skill_section_says_how_to_measure_it():
    from interpreter.lab.page import _skill_section

    assert "--skill ismcts:16" in _skill_section({"skill": [], "skill_ladder": None})


@pytest.mark.parametrize("skill, message", [("ismcts:1s", "number of iterations"), ("nobody:3", "unknown bot")])
def test_a_bad_skill_bot_is_one_clear_message(capsys, skill, message):
    code, _, err = run(capsys, "report", KUHN, "-n", "2", "--skill", skill)
    assert code == 1 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_jobs_that_differ_only_in_their_bots_or_part_have_different_keys(overloaded):
    job = jobs.make_job(overloaded, 4, ["random"] * 4, 0)
    other = jobs.make_job(overloaded, 4, ["mc:2"] + ["random"] * 3, 0, rotate=True, part="mc:2 vs random")
    assert job.digest == other.digest and job.key != other.key  # a cluster keeps results by key
    assert not job.heavy and other.heavy
    assert backends.batches(range(3), 2, heavy=True) == [[0], [1], [2]]  # a search bot's match: a task of its own


@pytest.mark.slow
def test_skill_matters_in_overloaded(overloaded):
    """A search bot with 8 iterations against three random bots, seated in turn at every seat: it wins far above
    the fair 25% (40 matches: 45%, a skill index of +0.27 [+0.08, +0.47]; 12 matches, 5 wins, left the index's
    interval across 0)."""
    from interpreter.lab.skill import seating

    job = jobs.make_job(overloaded, 4, seating("ismcts:8", "random", 4), 0, True, "ismcts:8 vs random")
    records = backends.run(job, range(40))
    r = rung_figures("ismcts:8", "random", records, 4, False, 0.04)
    assert r["better"] and r["index_ci"][0] > 0


def test_ctrl_c_in_a_skill_rung_keeps_the_report_and_the_rungs_so_far(capsys, monkeypatch):
    real_play = jobs.play

    def stop_in_the_second_rung(game, players, seed, bots):
        if "mc:2" in bots and "mc:1" in bots and seed == 2:
            raise KeyboardInterrupt
        return real_play(game, players, seed, bots)

    monkeypatch.setattr(jobs, "play", stop_in_the_second_rung)
    code, out, err = run(capsys, "report", KUHN, "-n", "4", "--skill", "mc:1", "--skill-n", "4", "--json")
    assert code == 130
    f = json.loads(out)
    assert f["games"] == 4 and [r["n"] for r in f["skill_ladder"]["rungs"]] == [4, 2]
    assert "interrupted in the skill rung mc:2 vs mc:1: 2 of its 4 matches finished" in f["stopped"]
    assert "skill rung" in err and "Traceback" not in err
