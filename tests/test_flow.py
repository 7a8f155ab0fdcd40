"""The turn structure card games need: deals above rounds, rounds until a condition, knock-outs, the
lowest score winning, a first player set (or drawn at random) before the first round, and `meeple sim`
counting only the matches a safety cap stopped. Each test names the rule it pins."""

import json
import textwrap
from pathlib import Path

import pytest

from interpreter import RuleError, load_game
from interpreter.cli import main
from interpreter.diagnostics import AuthoringError
from interpreter.run.flow import finish
from interpreter.run.match import play_random
from interpreter.run.sim import simulate

LOW_HAND = Path(__file__).parent / "games" / "low-hand"

CARDS = """
cards:
  - {id: chip, name: Chip, each_player: true, start: hand, value: 1}
"""


def tiny(tmp_path: Path, flow: str, phases: str, extra: str = "", counters: str = ""):
    """A game of two to four seats with one chip each: `phases` and `flow` as given (YAML text), `counters`
    more game counters (`name: spec` lines)."""
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent("""\
        game: tiny
        title: Tiny
        players: {min: 2, max: 4, default: 4}
        cards: [cards.yaml]
        properties: {value: 0}
        zones:
          hand: {owner: player, visibility: owner}
          pile: {visibility: public}
        counters:
          player:
            points: 0
          game:
            steps: 0
        """) + "".join(f"    {line}\n" for line in counters.splitlines() if line)
        + textwrap.dedent(phases) + textwrap.dedent(flow) + textwrap.dedent(extra))
    (folder / "cards.yaml").write_text(CARDS)
    return load_game(folder)


def says(m) -> list[str]:
    return [line["text"] for line in m.log if line.get("event") == "say"]


def low_hand_with(tmp_path: Path, *edits: tuple[str, str]):
    """Low Hand with its game.yaml edited (old text → new text)."""
    folder = tmp_path / "low-hand"
    folder.mkdir()
    text = (LOW_HAND / "game.yaml").read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    (folder / "game.yaml").write_text(text)
    (folder / "cards.yaml").write_text((LOW_HAND / "cards.yaml").read_text())
    return load_game(folder)


# ---- deals ----------------------------------------------------------------------------------------------


def test_deals_run_their_phases_and_rounds_each_and_rounds_count_within_the_deal(tmp_path):
    game = tiny(tmp_path, """
        flow:
          setup: [start]
          deal: [open]
          rounds: 2
          round: [step]
          after_deal: [close]
          deals: 3
          after_last_round: [last]
        """, """
        phases:
          start: say "setup"
          open: say "deal {deal} opens at round {round}"
          step: say "deal {deal} round {round} left {rounds left}"
          close: say "deal {deal} closes"
          last: say "the end after deal {deal}"
        """)
    m = play_random(game, 2, 1, log=True)
    assert says(m) == ["setup"] + [line for d in (1, 2, 3) for line in (
        f"deal {d} opens at round 0", f"deal {d} round 1 left 1", f"deal {d} round 2 left 0",
        f"deal {d} closes")] + ["the end after deal 3"]
    assert m.result()["turns"] == 6, "a game without turns counts its rounds over every deal"
    states = [line for line in m.log if line["type"] == "state"]
    assert [(s["deal"], s["round"]) for s in states] == [(1, 1), (1, 2), (1, 2), (2, 1), (2, 2), (2, 2),
                                                         (3, 1), (3, 2), (3, 2)]


def test_a_game_without_deals_keeps_its_log_lines_as_before(tmp_path):
    game = tiny(tmp_path, "flow: {rounds: 2, round: [step]}\n", "phases:\n  step: say \"{deal}\"\n")
    m = play_random(game, 2, 1, log=True)
    assert says(m) == ["1", "1"], "`deal` is 1 in a game of one deal"
    assert all("deal" not in line for line in m.log if line["type"] in ("state", "result"))


def test_deal_counters_reset_at_the_start_of_each_deal(tmp_path):
    game = tiny(tmp_path, "flow: {deal: [open], rounds: 2, round: [step], deals: 2}\n", """
        phases:
          open: say "open with {dealt}"
          step: add 1 to dealt
        """, counters="dealt: {initial: 0, reset: deal}")
    m = play_random(game, 2, 1, log=True)
    assert says(m) == ["open with 0", "open with 0"]
    assert m.st.gc[game.model.counters["dealt"].index] == 2


def test_end_the_deal_skips_the_rest_of_the_deal_and_runs_after_deal(tmp_path):
    game = tiny(tmp_path, "flow: {rounds: 5, turn: [play], after_deal: [close], deals: 2}\n", """
        phases:
          play: |
            add 1 to steps
            if steps == 3:
              end the deal
            say "{me} step {steps}"
          close: |
            say "closed at round {round}"
            end the deal
            say "never said"
        """)
    m = play_random(game, 2, 1, log=True)
    assert says(m)[:3] == ["P0 step 1", "P1 step 2", "closed at round 2"]
    assert says(m)[3] == "P0 step 4", "the next deal starts from its first round"
    assert "never said" not in says(m), "`end the deal` in after_deal ends the after-deal phases"


def test_end_the_deal_outside_a_deal_is_a_rule_failure_at_its_place(tmp_path):
    game = tiny(tmp_path, "flow: {setup: [start], rounds: 1}\n", "phases:\n  start: end the deal\n")
    with pytest.raises(RuleError, match=r"game.yaml:\d+:\d+: `end the deal` in set-up"):
        game.new_match(players=2, seed=1)


def test_rounds_until_are_checked_before_each_round_and_after_each_turn(tmp_path):
    game = tiny(tmp_path, """
        flow:
          rounds: {until: steps >= 3, at_most: 10}
          turn: [play]
        """, """
        phases:
          play: |
            add 1 to steps
            say "{me}"
        """)
    m = play_random(game, 2, 1, log=True)
    assert says(m) == ["P0", "P1", "P0"], "the round ends after the turn that made the condition true"
    assert simulate(game, 2, 1).capped is False, "a condition that holds is the game's own end"


def test_deals_until_are_checked_after_each_deal(tmp_path):
    game = tiny(tmp_path, """
        flow:
          rounds: 1
          round: [step]
          deals: {until: "any(players, points of it >= 2)", at_most: 9}
        """, "phases:\n  step: add 1 to points of first player\n")
    m = play_random(game, 2, 1)
    assert m.st.deal == 2 and m.over


# ---- the round limit in `meeple sim` ----------------------------------------------------------------


def test_only_a_safety_cap_counts_as_the_round_limit(tmp_path):
    assert simulate(load_game("overloaded"), 4, 1).capped is False, "8 fixed rounds are the game's own end"
    capped = low_hand_with(tmp_path, ('rounds: {until: "any(players, count(hand of it) == 0)", at_most: 5}',
                                      'rounds: {at_most: 1}'))
    assert simulate(capped, 3, 1).capped is True, "the last deal's rounds ran to their cap"
    assert simulate(load_game(LOW_HAND), 3, 1).capped is False


def test_sim_reports_the_share_of_matches_a_cap_stopped(tmp_path, capsys):
    tiny(tmp_path, "flow: {rounds: {at_most: 2}, round: [step]}\n", """
        phases:
          step: |
            add 1 to steps
            if steps == 2 and points of first player == 0:
              end the game
        """)
    assert main(["sim", str(tmp_path / "tiny"), "-n", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ended_by_round_limit"] == 0.0, "`end the game` is no cap"
    text = (tmp_path / "tiny" / "game.yaml").read_text().replace("steps == 2", "steps == 3")
    (tmp_path / "tiny" / "game.yaml").write_text(text)
    assert main(["sim", str(tmp_path / "tiny"), "-n", "4"]) == 0
    assert "ended at the round limit: 100.0%" in capsys.readouterr().out


# ---- knock-outs ------------------------------------------------------------------------------------------


KNOCKED = """
    phases:
      start: |
        let p = next player after first player
        knock out p
        set first player to p
      play: |
        say "{me} turn {turn}: {players} | {opponents} | NEIGHBOURS | {count(players)} {players * 1}"
        if first player is out and not (me is out):
          add 1 to steps
    """.replace("NEIGHBOURS", "next {next player after me} | previous {previous player before me}")


def test_a_knocked_out_player_takes_no_turn_and_leaves_every_list_of_players(tmp_path):
    game = tiny(tmp_path, "flow: {setup: [start], rounds: 2, turn: [play]}\n", KNOCKED)
    m = play_random(game, 4, 1, log=True)
    assert m.st.first == 1, "the first player may be knocked out: the order starts after them"
    assert says(m)[:3] == [
        "P2 turn 1: [P2, P3, P0] | [P3, P0] | next P3 | previous P0 | 3 3",
        "P3 turn 2: [P2, P3, P0] | [P0, P2] | next P0 | previous P2 | 3 3",
        "P0 turn 3: [P2, P3, P0] | [P2, P3] | next P2 | previous P3 | 3 3",
    ], "a knocked-out first player's turn order starts at the next player still in; turns count on"
    assert len(says(m)) == 6 and m.st.gc[0] == 6
    assert m.view(0)["out"] == [1]
    assert {"type": "event", "event": "knock_out", "player": 1, "until": "match"} in m.log


def test_one_player_left_ends_the_match_and_the_survivor_wins(tmp_path):
    flow = "flow: {rounds: 9, turn: [play]}\n"
    phases = """
        phases:
          play: |
            add 1 to points of me
            knock out next player after me
        """
    game = tiny(tmp_path, flow, phases, "result: {score: points of me}\n")
    m = play_random(game, 3, 1, log=True)
    assert m.winners == [2] and m.scores == [1, 0, 1], "P0 knocks out P1, P2 knocks out P0"
    assert m.result()["out"] == [0, 1] and m.st.turn == 2


def test_the_survivor_wins_even_with_the_worse_score_unless_the_result_ranks_the_knocked_out(tmp_path):
    phases = """
        phases:
          play: |
            add 1 to points of me
            if turn == 2:
              knock out previous player before me
        """
    game = tiny(tmp_path, "flow: {rounds: 9, turn: [play]}\n", phases, "result: {score: points of me}\n")
    m = play_random(game, 2, 1)
    assert m.winners == [1] and m.scores == [1, 1]
    (tmp_path / "tiny" / "game.yaml").write_text((tmp_path / "tiny" / "game.yaml").read_text().replace(
        "result: {score: points of me}", "result: {score: 0 - seat(me), knocked_out: score}"))
    assert play_random(load_game(tmp_path / "tiny"), 2, 1).winners == [0]


def test_a_player_knocked_out_for_the_deal_is_back_in_at_the_next_deal(tmp_path):
    phases = """
        phases:
          play: |
            say "deal {deal}: {me}"
            if deal == 1 and turn == 1:
              knock out previous player before me for the deal
        """
    game = tiny(tmp_path, "flow: {rounds: 2, turn: [play], deals: 2}\n", phases)
    m = play_random(game, 3, 1, log=True)
    assert says(m) == ["deal 1: P0", "deal 1: P1", "deal 1: P0", "deal 1: P1",
                       "deal 2: P0", "deal 2: P1", "deal 2: P2", "deal 2: P0", "deal 2: P1", "deal 2: P2"]
    assert {"type": "event", "event": "back_in", "players": [2]} in m.log
    assert not m.st.out


def test_knocking_out_all_but_one_for_the_deal_ends_the_deal_with_that_phase(tmp_path):
    phases = """
        phases:
          play: |
            knock out next player after me for the deal
            say "{me} then {players}"
          close: say "deal {deal} left {players}"
        """
    game = tiny(tmp_path, "flow: {rounds: 5, turn: [play], after_deal: [close], deals: 2}\n", phases)
    m = play_random(game, 2, 1, log=True)
    assert says(m) == ["P0 then [P0]", "deal 1 left [P0]", "P0 then [P0]", "deal 2 left [P0]"], \
        "the rest of the phase runs; the deal's remaining turns do not; after_deal still sees who is out"


def test_knocked_out_state_survives_clone_and_pickle(tmp_path):
    import pickle

    game = tiny(tmp_path, "flow: {setup: [start], rounds: 2, turn: [play]}\n", KNOCKED.replace(
        "      play: |\n", "      play: |\n        let ok = I choose yes or no\n"))
    m = game.new_match(players=4, seed=3)
    assert m.st.out == 0b10 and m.to_act() == [2]
    m.apply(2, 0)
    for other in (m.clone(), pickle.loads(pickle.dumps(m))):
        assert other.st.out == 0b10 and other.st.orders[0] == (0, 2, 3) and other.st.after[0] == 2
        assert other.to_act() == [3] and other.view(0)["out"] == [1]


# ---- the result -------------------------------------------------------------------------------------------


def test_the_lowest_score_wins_and_its_tiebreaks_go_the_same_way(tmp_path):
    game = tiny(tmp_path, "flow: {rounds: 1}\n", "", """
        result:
          score: points of me
          tiebreak: [0 - seat(me)]
          wins: lowest
        """)
    m = game.new_match(players=4, seed=1)
    points = m.st.pc[game.model.counters["points"].index]
    points[:] = [3, 1, 1, 2]
    assert finish(game, m.st, None) == ([3, 1, 1, 2], [2]), "lowest 1 twice; the lower tiebreak (-2) wins"
    points[:] = [3, 1, 5, 2]
    assert finish(game, m.st, None)[1] == [1]
    assert finish(game, m.st, [3])[1] == [3], "winners named by `end the game` stand"


def test_the_result_line_and_the_final_table_say_the_lowest_score_wins(capsys, tmp_path):
    assert main(["play", str(LOW_HAND), "--seed", "3", "--log", str(tmp_path / "m.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "The lowest score wins." in out and "(out)" in out
    m = play_random(load_game(LOW_HAND), 3, 3, log=True)
    result = m.log[-1]
    assert result["wins"] == "lowest" and result["out"]
    survivors = [p for p in range(3) if p not in result["out"]]
    best = min(result["scores"][p] for p in survivors)
    assert result["winners"] == [p for p in survivors if result["scores"][p] == best]


def test_sim_json_says_which_way_the_score_wins(capsys):
    assert main(["sim", str(LOW_HAND), "-n", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wins"] == "lowest"


# ---- the first player ---------------------------------------------------------------------------------


def test_a_first_player_set_in_setup_leads_the_first_round(tmp_path):
    game = tiny(tmp_path, "flow: {setup: [start], rounds: 1, turn: [play]}\n", """
        phases:
          start: set first player to next player after next player after first player
          play: say "{me}"
        """)
    assert says(play_random(game, 4, 1, log=True)) == ["P2", "P3", "P0", "P1"]


def test_a_random_first_player_is_drawn_from_the_match_chance(tmp_path):
    game = tiny(tmp_path, "flow: {setup: [start], rounds: 1, turn: [play]}\n", """
        phases:
          start: |
            set first player to a random player
            set steps to seat(a random player of opponents)
          play: |
            let c = I choose yes or no
        """)
    drawn = []

    def chance(n):
        drawn.append(n)
        return n - 1

    m = game.new_match(players=4, seed=1, chance=chance)
    assert drawn == [4, 3] and m.st.first == 3 and m.to_act() == [3]
    assert m.st.gc[0] == 3, "the last opponent of P0 (`me` in set-up: the first player as it began)"
    firsts = {game.new_match(players=4, seed=s).st.first for s in range(40)}
    assert firsts == {0, 1, 2, 3}, "the seed decides"


# ---- words and their mistakes -------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ("knock over me", "expected `knock out` here, not `knock over`"),
    ("end the hand", "expected `end the deal` here, not `end the hand`"),
    ("end the round", "unexpected `round`; expected one of: `game`"),
    ("knock out me for the hand", "expected `for the deal` here"),
    ("if me is gone:\n      nothing", "expected `is out` here, not `is gone`"),
])
def test_the_flow_words_report_a_misspelling_at_its_place(tmp_path, text, message):
    with pytest.raises(AuthoringError, match=message):
        tiny(tmp_path, "flow: {rounds: 1, turn: [play]}\n", f"phases:\n  play: |\n    {text}\n")


def test_deal_stays_a_name_a_game_may_give_its_own_things(tmp_path):
    game = tiny(tmp_path, "flow: {rounds: 1, round: [step]}\n", """
        procedures:
          deal:
            forms: [deal cards]
            do: add 1 to steps
        functions:
          deal: {value: "7"}
        phases:
          step: |
            deal cards
            say "{deal}"
        """)
    assert says(play_random(game, 2, 1, log=True)) == ["7"]


def test_rounds_until_needs_a_safety_cap(tmp_path):
    with pytest.raises(AuthoringError, match="at_most"):
        tiny(tmp_path, "flow: {rounds: {until: steps > 1}, round: [step]}\n", "phases:\n  step: nothing\n")


# ---- what each seat knows ---------------------------------------------------------------------------------


def test_a_knock_out_is_public_and_the_leak_check_passes_a_game_of_deals():
    from interpreter.leaks import check_leaks

    game = load_game(LOW_HAND)
    m = play_random(game, 3, 3)
    for seat in range(3):
        observed = m.information_state_json(seat)["observed"]
        assert any(line.get("event") == "knock_out" for line in observed)
        assert m.view(seat)["out"] == m.view(0)["out"] and m.view(seat)["deal"] == m.st.deal
    report = check_leaks(game, players=3, seeds=range(1), ignore_who_is_asked=True)
    assert report.matches == 1
