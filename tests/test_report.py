"""`meeple report`: its statistics, its records of matches, its outputs (text, JSON, CSV, HTML), a run resumed or
stopped, and the same figures whatever the number of worker processes."""

import json
import math

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.lab import backends, jobs, stats
from interpreter.lab.collect import play
from interpreter.lab.command import TIME_FIELDS
from interpreter.run.sim import simulate


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def figures_of(out: str) -> dict:
    figures = json.loads(out)
    for field in TIME_FIELDS:
        figures.pop(field)
    return figures


# ---- statistics --------------------------------------------------------------------------------------


def test_wilson_interval_matches_the_textbook_values():
    low, high = stats.wilson(30, 100)  # Wilson (1927); as scipy's binomtest(30, 100).proportion_ci("wilson")
    assert (round(low, 6), round(high, 6)) == (0.218949, 0.395849)
    assert stats.wilson(0, 50)[0] == 0.0 and 0.06 < stats.wilson(0, 50)[1] < 0.08
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_t_quantiles_and_chi_square_tail_match_their_tables():
    assert stats.t_quantile(1) == pytest.approx(12.7062, abs=1e-4)
    assert stats.t_quantile(2) == pytest.approx(4.3027, abs=1e-4)
    assert stats.t_quantile(10) == pytest.approx(2.2281, abs=1e-4)
    assert stats.t_quantile(30) == pytest.approx(2.0423, abs=1e-4)
    assert stats.chi2_sf(7.815, 3) == pytest.approx(0.05, abs=1e-4)
    assert stats.chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert stats.chi2_sf(50, 5) == pytest.approx(1.3858e-09, rel=1e-3)


def test_equal_shares_tells_a_fair_split_from_a_skewed_one():
    assert stats.equal_shares([250, 250, 250, 250])[2] == 1.0
    assert stats.equal_shares([240, 260, 255, 245])[2] > 0.5
    assert stats.equal_shares([300, 200, 250, 250])[2] < 0.001


def test_a_paired_difference_that_never_varies_is_exact_and_real():
    same = stats.paired([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    assert same["diff"] == 3.0 and same["ci"] == [3.0, 3.0] and same["real"]
    assert stats.paired([1.0, 2.0], [1.0, 2.0])["real"] is False
    noisy = stats.paired([0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0])
    assert noisy["ci"][0] < 0 < noisy["ci"][1] and not noisy["real"]


def test_the_matches_needed_shrink_the_interval_to_the_asked_width():
    n = stats.n_for_rate_width(0.25, 0.04)
    low, high = stats.wilson(n // 4, n)
    assert high - low <= 0.0401
    low, high = stats.wilson(n // 8, n // 2)
    assert high - low > 0.05
    assert stats.n_for_mean_width(2.0, 1.0) == math.ceil((2 * stats.Z95 * 2.0) ** 2)


# ---- records -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["overloaded", "sky-haulers", "go-fish"])
def test_random_bots_play_the_matches_sim_plays(name):
    game = load_game(name)
    players = game.default_players
    for seed in range(3):
        record = play(game, players, seed, ["random"] * players)
        outcome = simulate(game, players, seed)
        assert (record["scores"], record["winners"], record["decisions"], record["capped"], record["rounds"]) == \
            (outcome.scores, outcome.winners, outcome.decisions, outcome.capped, outcome.rounds)


def test_a_record_holds_each_round_leader_and_the_cards_of_each_seat(overloaded):
    record = play(overloaded, 4, 3, ["random"] * 4)
    assert len(record["leaders"]) == 8  # Overloaded lasts 8 rounds: a leader (or none) at the end of each
    assert all(-1 <= seat < 4 for seat in record["leaders"])
    cargo = [i for i, d in enumerate(overloaded.model.cards) if d.kind == "cargo"]
    assert all(set(chosen) <= set(cargo) | {i for i, d in enumerate(overloaded.model.cards) if d.kind != "donkey"}
               for chosen in record["chosen"])
    assert all(set(end) <= set(seen) for end, seen in zip(record["at_end"], record["in_round"], strict=True))
    assert record["first"] == 0


def test_records_do_not_depend_on_the_worker_count(overloaded):
    job = jobs.make_job(overloaded, 4, ["random", "first", "random", "first"], 11)
    one = backends.run(job, range(60), workers=1)
    two = backends.run(job, range(60), workers=2)
    assert one == two
    assert [r["seed"] for r in one] == list(range(11, 71))


# ---- the command -------------------------------------------------------------------------------------


def test_report_json_holds_every_figure_with_its_interval(capsys):
    code, out, _ = run(capsys, "report", "overloaded", "-n", "60", "--json")
    assert code == 0
    f = json.loads(out)
    assert f["games"] == 60 and f["players"] == 4
    for seat in f["seats"]:
        assert seat["n"] == 60 and seat["ci"][0] <= seat["rate"] <= seat["ci"][1]
    assert 0 <= f["equal_seats"]["p"] <= 1
    assert f["length"]["turns"]["mean"] == 8 and f["capped"]["k"] == 0
    assert f["per_round"]["overloads"]["rounds"] == 480
    assert {c["name"] for c in f["cards"]} >= {"Cargo 1", "Cargo 10"}
    assert f["enough"]["suggested_n"] > 60
    assert set(f) >= {"first_player", "shared_wins", "scores", "margin", "lead_changes", "leader_wins", "groups"}


def test_report_figures_do_not_depend_on_the_workers(capsys):
    _, one, _ = run(capsys, "report", "crazy-eights", "-n", "40", "--json", "--seed", "5")
    _, two, _ = run(capsys, "report", "crazy-eights", "-n", "40", "--json", "--seed", "5", "--workers", "2")
    assert figures_of(one) == figures_of(two)


def test_sky_haulers_report_gives_the_win_rate_of_each_player_card(capsys):
    code, out, _ = run(capsys, "report", "sky-haulers", "-n", "30", "--json")
    assert code == 0
    groups = json.loads(out)["groups"]
    assert groups["title"] and sum(g["n"] for g in groups["rows"]) == 30 * 2


def test_csv_files_are_written_whole(tmp_path, capsys):
    code, out, _ = run(capsys, "report", "overloaded", "-n", "30", "--csv", str(tmp_path / "csv"))
    assert code == 0 and "first player wins" in out
    names = sorted(p.name for p in (tmp_path / "csv").iterdir())
    assert names == ["cards.csv", "enough.csv", "groups.csv", "leader.csv", "means.csv", "rates.csv"]
    rates = (tmp_path / "csv" / "rates.csv").read_text().splitlines()
    assert rates[0] == "figure,bot,n,k,rate,low,high" and rates[1].startswith("seat 0 win rate,random,30,")
    cards = (tmp_path / "csv" / "cards.csv").read_text().splitlines()
    assert len(cards) == 1 + len(load_game("overloaded").model.cards)


def test_a_run_extended_from_its_raw_file_plays_only_the_missing_matches(tmp_path, capsys, monkeypatch):
    raw = tmp_path / "raw.jsonl"
    assert run(capsys, "report", "low-tide", "-n", "20", "--raw", str(raw), "--json")[0] == 0
    played = []
    real_play = jobs.play
    monkeypatch.setattr(jobs, "play", lambda game, players, seed, bots: played.append(seed) or
                        real_play(game, players, seed, bots))
    code, extended, _ = run(capsys, "report", "low-tide", "-n", "35", "--resume", str(raw), "--json")
    assert code == 0 and played == list(range(20, 35))
    assert len(raw.read_text().splitlines()) == 1 + 35
    monkeypatch.undo()
    _, whole, _ = run(capsys, "report", "low-tide", "-n", "35", "--json")
    assert figures_of(extended) == figures_of(whole)


def test_a_raw_file_of_another_run_is_refused(tmp_path, capsys):
    raw = tmp_path / "raw.jsonl"
    run(capsys, "report", "overloaded", "-n", "5", "--raw", str(raw), "--json")
    code, _, err = run(capsys, "report", "overloaded", "-n", "10", "--seed", "3", "--resume", str(raw))
    assert code == 1 and "another run (seed differ" in err and "Traceback" not in err


def test_ctrl_c_reports_the_matches_that_finished(capsys, monkeypatch):
    real_play = jobs.play

    def stop_at_45(game, players, seed, bots):
        if seed == 45:
            raise KeyboardInterrupt
        return real_play(game, players, seed, bots)

    monkeypatch.setattr(jobs, "play", stop_at_45)
    code, out, err = run(capsys, "report", "overloaded", "-n", "200", "--json")
    assert code == 130
    f = json.loads(out)
    assert 0 < f["games"] <= 45 and "interrupted" in f["stopped"]
    assert "matches finished" in err


@pytest.mark.parametrize("argv, message", [
    (["--bots", "nobody"], "unknown bot"),
    (["--bots", "random,random"], "2 bots for 4 seats"),
    (["--players", "9"], "3–6 players, not 9"),
    (["--cluster", "local:x"], "local:N"),
    (["-o", "/nonexistent-folder/r.html"], "its folder does not exist"),
])
def test_bad_arguments_give_one_clear_message(capsys, argv, message):
    code, _, err = run(capsys, "report", "overloaded", "-n", "5", *argv)
    assert code == 1 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bots_given_per_seat_show_in_the_skill_figures(capsys):
    code, out, _ = run(capsys, "report", "crazy-eights", "-n", "30", "--bots", "first,random,random,random",
                       "--json")
    assert code == 0
    skill = {s["bot"]: s for s in json.loads(out)["skill"]}
    assert skill["first"]["n"] == 30 and skill["random"]["n"] == 90
    assert skill["first"]["edge"] == pytest.approx(skill["first"]["rate"] - 0.25)


def test_a_search_bot_plays_from_its_seat_handle_the_same_whatever_the_workers(capsys):
    pytest.importorskip("interpreter.bots")
    argv = ("report", "overloaded", "-n", "2", "--bots", "mc:2,random,random,random", "--json")
    code, one, _ = run(capsys, *argv)
    assert code == 0 and json.loads(one)["skill"][0]["bot"] == "mc:2"
    assert figures_of(run(capsys, *argv, "--workers", "2")[1]) == figures_of(one)


def test_holm_keeps_only_what_stays_significant_among_many():
    assert stats.holm([0.001, 0.04, 0.03, 0.5]) == [True, False, False, False]
    assert stats.holm([0.001, 0.012, 0.02]) == [True, True, True]
    assert stats.holm([]) == []


def test_rotated_bots_sit_in_every_seat_in_turn(overloaded):
    job = jobs.make_job(overloaded, 4, ["first", "random", "random", "random"], 0, rotate=True)
    records = backends.run(job, range(8))
    assert [r["bots"].index("first") for r in records] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_the_raw_file_is_kept_up_to_date_while_the_run_goes_on(tmp_path, capsys, monkeypatch):
    from interpreter.lab import command

    raw = tmp_path / "raw.jsonl"
    sizes = []
    real_write = command._write_raw

    def write(path, job, records):
        real_write(path, job, records)
        sizes.append(len(raw.read_text().splitlines()) - 1)  # each write whole: a header and every record so far

    monkeypatch.setattr(command, "CHECKPOINT_SECONDS", 0.0)
    monkeypatch.setattr(command, "_write_raw", write)
    assert run(capsys, "report", "crazy-eights", "-n", "30", "--raw", str(raw), "--json")[0] == 0
    assert len(sizes) > 2 and sizes == sorted(sizes) and sizes[-1] == 30


def test_lead_changes_count_only_a_new_seat_ahead():
    from interpreter.lab.figures import _lead_changes

    assert _lead_changes([0, 0, 1, -1, 1, 2]) == 2  # a round with no one ahead changes nothing
    assert _lead_changes([-1, -1, 3]) == 0 and _lead_changes([]) == 0


def test_card_figures_count_seats_with_and_without_the_card(overloaded):
    from interpreter.lab.figures import report_figures

    def record(winners, chosen):
        return {"seed": 0, "scores": [0, 0, 0, 0], "winners": winners, "turns": 8, "rounds": 8, "decisions": 70,
                "capped": False, "first": 0, "counters": [0, 0, 0, 0], "seat_counters": [[0] * 4] * 5,
                "groups": [], "leaders": [0] * 8, "chosen": chosen, "at_end": [[], [], [], []],
                "in_round": [[], [], [], []]}

    # card 0 chosen by the winner in both matches and by one loser; 8 seats in all
    records = [record([0], [[0], [0], [], []]), record([2], [[], [], [0], []])]
    f = report_figures(overloaded, records, 4, ["random"] * 4, 0)
    chosen = f["cards"][0]["chosen"]
    assert chosen["n"] == 3 and chosen["share"] == 3 / 8
    assert (chosen["win"]["k"], chosen["win"]["n"]) == (2, 3)
    assert (chosen["win_not"]["k"], chosen["win_not"]["n"]) == (0, 5)
    assert chosen["effect"]["diff"] == pytest.approx(2 / 3)
    assert f["cards"][0]["thin"] and f["cards"][1]["chosen"]["n"] == 0
    assert [s["k"] for s in f["seats"]] == [1, 0, 1, 0] and f["first_player"]["k"] == 1
    assert f["leader_wins"][0]["k"] == 1 and f["leader_wins"][0]["n"] == 2


def test_a_worker_elsewhere_plays_from_the_game_files_sent_with_the_job(overloaded, tmp_path, monkeypatch):
    job = jobs.make_job(overloaded, 4, ["random"] * 4, 0)
    here = jobs.play_batch(job, [0, 1])
    away = jobs.Job(str(tmp_path / "not-here"), job.files, 4, job.bots, job.max_steps, 0)
    monkeypatch.setattr(jobs, "_GAMES", {})
    monkeypatch.setattr(jobs.tempfile, "gettempdir", lambda: str(tmp_path))
    assert jobs.play_batch(away, [0, 1]) == here
    assert (tmp_path / f"meeple-lab-{job.digest}" / "game.yaml").is_file()
    ours = [p.name for p in tmp_path.iterdir() if p.name.startswith("meeple-lab-")]  # (a parser may cache there too)
    assert ours == [f"meeple-lab-{job.digest}"]  # no staging folder left


def test_a_worker_process_that_dies_is_one_message_and_the_finished_matches_are_kept(tmp_path, capsys, monkeypatch):
    import os

    real_play = jobs.play

    def die_at_45(game, players, seed, bots):
        if seed == 45:
            os._exit(9)  # as a worker killed by the system would end
        return real_play(game, players, seed, bots)

    monkeypatch.setattr(jobs, "play", die_at_45)
    raw = tmp_path / "raw.jsonl"
    code, _, err = run(capsys, "report", "crazy-eights", "-n", "100", "--workers", "2", "--raw", str(raw))
    assert code == 1 and "a worker process died" in err and "Traceback" not in err
    kept = len(raw.read_text().splitlines()) - 1
    assert f"{kept} of 100 matches finished; they are in {raw}" in err
