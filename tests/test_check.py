"""`meeple check` and `meeple sim --check`: Hypothesis-driven property checks, shrunk failures, replayable logs."""

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from interpreter.check import ENDS, REPLAYS, RULES, card_problem, check_players, failure_log, replays
from interpreter.cli import main
from interpreter.game import load_game
from interpreter.paths import data_dir

OVERLOADED = data_dir("cards") / "overloaded"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def planted(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of Overloaded with one change to its game.yaml (the planted bug)."""
    folder = tmp_path / name
    shutil.copytree(OVERLOADED, folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    assert old in text
    game_yaml.write_text(text.replace(old, new, 1))
    return folder


@pytest.fixture(scope="module")
def twelve_rounds(tmp_path_factory):
    """Overloaded played over 12 rounds: players hold only 10 cards (the rulebook deals 10 and plays 8). One
    folder for the module's tests (none changes it): compiled once."""
    return planted(tmp_path_factory.mktemp("check"), "twelve-rounds", "  rounds: 8", "  rounds: 12")


@pytest.fixture(scope="module")
def twelve_rounds_failure(twelve_rounds, tmp_path_factory) -> list[dict]:
    """The lines of the log `meeple check --players 3` writes of the twelve-round game's shrunk failure (found
    once for the tests that change it and replay it)."""
    log = tmp_path_factory.mktemp("failure") / "failure.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["check", str(twelve_rounds), "--players", "3", "--out", str(log)]) == 1
    return [json.loads(line) for line in log.read_text().splitlines()]


def _invariant_at(name: str) -> str:
    """Where Overloaded's game.yaml writes an invariant's rule (`game.yaml:LINE:COL`), as errors tell it."""
    lines = (data_dir("cards") / "overloaded" / "game.yaml").read_text(encoding="utf-8").splitlines()
    i, line = next((i, line) for i, line in enumerate(lines, 1) if line.strip().startswith(f"{name}:"))
    return f"game.yaml:{i}:{line.index(':') + 3}"


ENOUGH_AT = _invariant_at("enough_cards_to_load")


@pytest.fixture
def divides_on_some_deals(tmp_path):
    """A rule that divides by zero when the revealed donkey's capacity is 12: with 3 players, the Weak
    Donkey (5 × 3 − 3) or the Foal (4 × 3); it depends on the deal, not on any decision."""
    return planted(tmp_path, "divides", "    set capacity to donkey.capacity_per_player * players + "
                   "donkey.capacity_bonus\n",
                   "    set capacity to donkey.capacity_per_player * players + donkey.capacity_bonus\n"
                   "    set weight to 10 / (capacity - 12)\n")


def checked_bundled_game(capsys, bundled_game: str, examples: int) -> None:
    game = load_game(bundled_game)
    code, out, err = run(capsys, "check", bundled_game, "--examples", str(examples), "--leaks", "0")  # test_leaks
    assert code == 0, out + err
    lines = out.splitlines()
    checks = f"{len(game.checks)} check{'s' * (len(game.checks) != 1)}"  # the game's declared checks run too
    assert lines[0].startswith(f"{game.title}: checking {len(game.invariants)} invariants, {checks} and"), lines[0]
    counts = range(game.min_players, game.max_players + 1)
    assert len(lines) == 1 + len(counts)  # one summary line per player count
    for n, line in zip(counts, lines[1:], strict=True):
        assert re.fullmatch(rf"  {n} players: {examples} examples, \d+ decisions checked, [\d.]+ s: every property "
                            r"holds", line), line


def test_the_bundled_games_pass_check(capsys, bundled_game):
    checked_bundled_game(capsys, bundled_game, 2)


@pytest.mark.slow
def test_the_bundled_games_pass_a_longer_check(capsys, bundled_game):
    checked_bundled_game(capsys, bundled_game, 30)


def test_a_broken_invariant_is_found_shrunk_to_the_first_decision_and_replays(capsys, tmp_path, twelve_rounds):
    log = tmp_path / "failure.jsonl"
    code, out, _ = run(capsys, "check", str(twelve_rounds), "--players", "3", "--out", str(log))
    assert code == 1
    assert "property: invariant `enough_cards_to_load` holds for every player at every decision" in out
    assert f"failure:  invariant `enough_cards_to_load` ({ENOUGH_AT}) is false for P0, P1, P2" in out
    assert "the shrunk match: 0 decisions, 19 chance outcomes: 0 0 0" in out  # the deal shrinks too
    assert "  Round 1: " in out and "  FAILS HERE: invariant `enough_cards_to_load`" in out
    assert f"`meeple replay {log} --game {twelve_rounds}` re-runs it" in out
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines[0]["chance"]) == 19
    assert lines[-1] == {"type": "error", "decisions": 0, "check": "invariant:enough_cards_to_load",
                         "message": f"invariant `enough_cards_to_load` ({ENOUGH_AT}) is false for P0, P1, P2"}
    code, out, err = run(capsys, "replay", str(log), "--game", str(twelve_rounds))
    assert code == 0, err
    assert out.startswith("replay ok: 23 events, 0 decisions, the check fails at the same point: invariant")


def test_a_rule_failing_on_some_deals_is_found_shrunk_and_replays(capsys, tmp_path, divides_on_some_deals):
    log = tmp_path / "failure.jsonl"
    code, out, _ = run(capsys, "check", str(divides_on_some_deals), "--players", "3", "--out", str(log))
    assert code == 1
    assert "property: no rule fails during play" in out
    assert re.search(r"failure:  .*game\.yaml:\d+:\d+: division by zero", out)
    assert "the shrunk match: 0 decisions" in out  # it fails as round 1 begins: no decision is needed
    assert re.search(r"    deck → donkey \(up\): (weak-donkey|foal)\n", out)
    assert json.loads(log.read_text().splitlines()[-1])["type"] == "error"
    code, out, err = run(capsys, "replay", str(log), "--game", str(divides_on_some_deals))
    assert code == 0, err
    assert "the rules fail at the same point" in out and "division by zero" in out


def test_a_failure_depending_on_decisions_shrinks_to_simple_choices(tmp_path):
    """Load = capacity exactly: the shrunk match plays every first option until the loads add up."""
    folder = planted(tmp_path, "exact", "    resolve adjust_capacity of donkey\n",
                     "    resolve adjust_capacity of donkey\n    if weight > 0:\n"
                     "      add 100 / (weight - capacity) to overloads\n")
    run_ = check_players(load_game(folder), 3, examples=100)
    failure = run_.failure
    assert failure is not None and failure.check == RULES
    history = failure.played.match.history
    assert len(history) <= 60  # one 3-player match is about 54 decisions; it stops at the failure
    assert sum(choice for _, choice in history) <= 10  # first options, nearly all


def test_check_is_deterministic_for_a_seed(tmp_path, capsys, twelve_rounds):
    logs = []
    for i in range(2):
        log = tmp_path / f"{i}.jsonl"
        run(capsys, "check", str(twelve_rounds), "--seed", "5", "--out", str(log))
        logs.append(log.read_text())
    assert logs[0] == logs[1]


def test_a_match_that_does_not_end_is_reported_and_replays(capsys, tmp_path):
    game = load_game(OVERLOADED)
    run_ = check_players(game, 3, examples=5, cap=7)
    failure = run_.failure
    assert failure is not None and failure.check == ENDS
    assert failure.message.startswith("the match has not ended after 7 decisions (round 1")
    log = tmp_path / "ends.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in failure.log))
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0, err
    assert "the check fails at the same point: the match has not ended after 7 decisions" in out


def test_replay_checks_the_property_again(capsys, tmp_path, twelve_rounds, twelve_rounds_failure):
    log = tmp_path / "failure.jsonl"
    lines = [dict(line) for line in twelve_rounds_failure]
    lines[-1]["check"] = "invariant:capacity_not_negative"  # holds at that point
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, _, err = run(capsys, "replay", str(log), "--game", str(twelve_rounds))
    assert code == 1
    assert "mismatch" in err and "it holds here: invariant `capacity_not_negative`" in err


@pytest.mark.parametrize(("change", "message"), [
    (lambda chance: chance[:-1], "the recorded chance outcomes ran out: chance event 19 has none"),
    (lambda chance: [*chance, 0], "the header has 20 chance outcomes, but the match used 19"),
    (lambda chance: [99, *chance[1:]], "chance outcome 1 is 99, but its event has outcomes 0–19"),
])
def test_replay_feeds_the_chance_outcomes_of_the_header(capsys, tmp_path, twelve_rounds, twelve_rounds_failure,
                                                        change, message):
    log = tmp_path / "failure.jsonl"
    lines = [dict(line) for line in twelve_rounds_failure]
    lines[0]["chance"] = change(lines[0]["chance"])
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, _, err = run(capsys, "replay", str(log), "--game", str(twelve_rounds))
    assert code == 1
    assert f"{log}:1: mismatch: {message}" in err


def test_sim_check_reports_the_first_failure_with_its_seed_and_log(capsys, tmp_path, monkeypatch, twelve_rounds):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "sim", str(twelve_rounds), "-n", "20", "--players", "3", "--check")
    assert code == 1 and out == ""
    assert err.startswith("meeple sim: error: check failed in the match of seed 0 after 0 decisions: "
                          f"invariant `enough_cards_to_load` ({ENOUGH_AT}) is false for P0, P1, P2; "
                          "its log is in check-failure.jsonl")
    code, out, err = run(capsys, "replay", "check-failure.jsonl", "--game", str(twelve_rounds))
    assert code == 0, err
    assert "the check fails at the same point" in out


def test_sim_check_passes_a_sound_game(capsys):
    code, out, _ = run(capsys, "sim", "sky-haulers", "-n", "20", "--check")
    assert code == 0 and "20 games" in out


def test_an_invariant_that_cannot_be_worked_out_is_its_failure(tmp_path):
    folder = planted(tmp_path, "bad-invariant", "  capacity_not_negative: capacity >= 0",
                     "  capacity_not_negative: 10 / (capacity - 12) >= 0")
    failure = check_players(load_game(folder), 3, examples=50).failure
    assert failure is not None and failure.check == "invariant:capacity_not_negative"
    at = re.escape(_invariant_at("capacity_not_negative"))
    assert re.search(rf"invariant `capacity_not_negative` \({at}\) cannot be worked out: "
                     r".*division by zero$", failure.message)


def test_card_problems_name_the_card_and_the_zones(overloaded):
    m = overloaded.new_match(players=3, seed=1)
    st, t = m.st, m.layout
    assert card_problem(st) is None
    hand = t.zone_names.index("hand@0")
    card = st.zones[hand][0]
    st.zones[t.zone_names.index("discard")].append(card)
    assert card_problem(st) == f"{t.card_ids[card]} lies in discard, but the match has it in hand@0"
    st.zones[t.zone_names.index("discard")].pop()
    st.zones[hand].append(card)
    assert card_problem(st) == f"{t.card_ids[card]} lies 2 times in hand@0"
    st.zones[hand].remove(card)
    st.zones[hand].remove(card)
    assert card_problem(st) == f"{t.card_ids[card]} lies in no zone"


def test_a_log_that_replays_differently_is_a_failure(overloaded):
    from interpreter.check import play

    played = play(overloaded, 3, 0, lambda n: 0, chance=lambda n: n - 1, log=True)
    assert played.broken is None and replays(overloaded, played) is None
    played.match.log[5] = {"type": "event", "event": "say", "text": "changed"}
    check, message = replays(overloaded, played)
    assert check == REPLAYS and message.startswith("log line 6 differs")
    assert "chance" in failure_log(played)[0] and failure_log(played)[-1]["type"] == "result"


def test_check_refuses_a_log_path_it_cannot_write_before_any_work(capsys, tmp_path):
    code, out, err = run(capsys, "check", "overloaded", "--out", str(tmp_path / "no" / "such.jsonl"))
    assert code == 1 and out == ""
    assert "its folder does not exist" in err


def test_check_names_a_player_count_the_game_does_not_allow(capsys):
    code, _, err = run(capsys, "check", "overloaded", "--players", "9")
    assert code == 1 and "3–6 players, not 9" in err


@pytest.mark.slow
@pytest.mark.parametrize("name", ["overloaded", "sky-haulers", "low-tide", "go-fish", "crazy-eights", "hearts"])
def test_the_bundled_games_pass_a_hundred_examples(capsys, name):
    code, out, err = run(capsys, "check", name)
    assert code == 0, out + err


def test_past_its_budget_a_match_is_answered_by_a_generator_seeded_by_hypothesis():
    """Hypothesis gives up on an example past 8 KiB of choices: a long match must not be thrown away."""
    from interpreter.check import hypothesis_answers

    asked = []

    def take(strategy):
        asked.append(strategy)
        return 7

    answer = hypothesis_answers(take, drawn=10)
    answers = [answer(1_000) for _ in range(100)]
    assert answers[:10] == [7] * 10 and len(asked) == 11  # ten answers, then one seed
    assert len(set(answers[10:])) > 1 and all(0 <= a < 1_000 for a in answers)
    assert answer(1) == 0 and len(asked) == 11  # a single option draws nothing


def test_meeple_check_ends_with_the_leak_check_and_fails_on_a_leak(capsys, tmp_path):
    # A secret bid kept in a public counter: every other property holds, the leak check finds it.
    from test_leaks import BID_CARDS, BIDS, write_game

    def check(name: str, extra: str, *args: str) -> tuple[int, str]:
        (tmp_path / name).mkdir()
        write_game(tmp_path / name, BIDS % extra, BID_CARDS)
        code, out, _ = run(capsys, "check", str(tmp_path / name), "--examples", "3", "--players", "2",
                           "--out", str(tmp_path / "f.jsonl"), *args)
        return code, out

    code, out = check("public", "")
    assert code == 1 and "FAILED the leak check" in out and "leak in bids, 2 players, seed 0" in out
    code, out = check("owner", ", visibility: owner, public_while: bids_open")
    assert code == 0 and "nothing leaks" in out
    code, out = check("unchecked", "", "--leaks", "0")
    assert code == 0 and "leak check" not in out
