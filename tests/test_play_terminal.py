"""`meeple play` at the terminal: what a person at a seat sees and types, and the bots-only narration.

Matches run in-process through `main([...])` with a scripted stdin."""

import io
import json
import re
import sys

import pytest
from walks import old_bots, walker

from interpreter import load_game
from interpreter.cli import main
from interpreter.table import WORDS, Table
from interpreter.visible_score import scores_of_all, scores_seen_by


def run(capsys, monkeypatch, stdin: str, *argv: str) -> tuple[int, str, str]:
    """`meeple ARGV` with `stdin` typed, the bots answering as when these sessions were written."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    old_bots(monkeypatch)
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- the question: options by name, card text on demand -------------------------------------------


def test_options_are_card_names_with_their_key_numbers_not_ids(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "q\n", "play", "overloaded", "--human", "0", "--seed", "3")
    assert code == 0
    assert "   5) Cargo 5 — value 5, advantage Double Stake" in out
    assert "cargo-" not in out  # no card id anywhere


def test_an_option_shows_the_cards_text(capsys, monkeypatch):
    # Sky Haulers, seed 7: in turn 3 P0 plays a card; its hand holds Grease Monkey, with its text and numbers
    stdin = "1\n1\n\n1\nq\n"
    code, out, _ = run(capsys, monkeypatch, stdin, "play", "sky-haulers", "--human", "0", "--seed", "7")
    assert code == 0
    assert re.search(r"^  \d\) Grease Monkey — Immelmann 11, damage icons 1, pilot 2 · 1: draw 1$", out, re.M)


def test_a_question_with_one_option_is_asked_says_so_and_waits(capsys, monkeypatch):
    # Sky Haulers, seed 7: after "play a card", Tourist is the only card P0 can play; Enter takes it, then
    # "end the play step" is all that is left, and q still leaves the match
    code, out, _ = run(capsys, monkeypatch, "1\n\nq\n", "play", "sky-haulers", "--human", "0", "--seed", "7")
    assert code == 0
    assert re.search(r"^  1\) Tourist — .* \(the only option\)$", out, re.M)
    assert "P0 seats Tourist" in out
    assert re.search(r"^  1\) end the play step \(the only option\)\nchoice \[1 or Enter; \? help; q quit\]: q$",
                     out, re.M)
    assert out.rstrip().endswith(WORDS["en"]["quit"])


def test_info_n_and_question_mark_show_an_options_full_card(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "info 2\n? 3\n?1\nq\n", "play", "overloaded", "--human", "0", "--seed", "3")
    assert code == 0
    assert ("Cargo 2 (kind: cargo)\n  value 2, advantage Extra Harness\n  As a drover advantage: the donkey's capacity "
            "goes up by the number of players this round") in out
    assert "Cargo 3 (kind: cargo)" in out and "Cargo 1 (kind: cargo)" in out


def test_a_bare_question_mark_prints_help_and_every_card_option(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "?\nq\n", "play", "overloaded", "--human", "0", "--seed", "3")
    assert code == 0
    assert "Type an option's number" in out
    assert "10) Cargo 10 (kind: cargo)" in out


def test_info_of_a_non_card_option_and_of_a_card_by_name(capsys, monkeypatch):
    # the contract question (1 accept, 2 refuse) comes third; the donkey of round 1 lies face up
    stdin = "5\n1\ninfo 2\ninfo stubborn donkey\ninfo no such thing\nq\n"
    code, out, _ = run(capsys, monkeypatch, stdin, "play", "overloaded", "--human", "0", "--seed", "3")
    assert code == 0
    assert "option 2 is not a card you can see" in out
    assert "Stubborn Donkey (kind: donkey)\n  capacity per player 5\n  the single highest cargo card" in out
    assert "no card you can see is called `no such thing`" in out


def test_an_option_may_be_typed_by_its_card_name(capsys, monkeypatch, tmp_path):
    log = tmp_path / "m.jsonl"
    code, _, _ = run(capsys, monkeypatch, "cargo 7\n" + "1\n" * 300, "play", "overloaded", "--human", "0",
                     "--seed", "3", "--log", str(log))
    assert code == 0
    first = next(json.loads(line) for line in log.read_text().splitlines() if '"who": 0' in line)
    assert first["label"] == "cargo-7@0"


# ---- the screen ------------------------------------------------------------------------------------


def test_the_screen_shows_round_table_players_and_your_cards(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "q\n", "play", "overloaded", "--human", "0", "--seed", "3")
    assert code == 0
    assert "── round 1 of 8 · first player P0 (you) · you are P0 ──" in out
    assert "  donkey: Stubborn Donkey — capacity per player 5 · the single highest cargo card" in out
    assert "  capacity 20\n" in out  # counters at their start value are left out (weight 0, overloads 0)
    assert re.search(r"^  P1 +hand 10 · score 0$", out, re.M)  # a withheld contract is not `accepted ?`
    assert "your hand: Cargo 1, Cargo 2, Cargo 3" in out


def test_a_turn_game_names_whose_turn_it_is(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "q\n", "play", "sky-haulers", "--human", "1", "--seed", "7")
    assert code == 0
    assert "── round 1 · turn 2: P1 (you) to play · you are P1 ──" in out


def test_changed_counters_are_marked_and_unchanged_blocks_folded(capsys, monkeypatch):
    # load Cargo 5, no advantage; at the contract question the others' advantages raised the capacity
    code, out, _ = run(capsys, monkeypatch, "5\n1\nt\nq\n", "play", "overloaded", "--human", "0", "--seed", "3")
    assert code == 0
    assert "  capacity 24 (+4)\n" in out  # `contracts shown` opens the contracts: a switch, not shown
    assert re.search(r"^  P1 +hand 8 · advantages 1 \(\+1\) · score 0$", out, re.M)
    assert "more as on the last screen: t shows them" in out
    after_t = out[out.index("choice [1-2; ? help; q quit]: t"):]
    assert "donkey: Stubborn Donkey" in after_t  # `t` prints the whole table again


def _private_piles(tmp_path) -> str:
    """Overloaded with score piles only their owner sees (the game's own are public: every card in one was
    turned up and named as it was scored), so that a score counts what other seats cannot see."""
    import shutil

    from interpreter.paths import data_dir

    folder = tmp_path / "overloaded"
    shutil.copytree(data_dir("cards") / "overloaded", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "pile:     {owner: player, visibility: public}" in text
    game_yaml.write_text(text.replace("pile:     {owner: player, visibility: public}",
                                      "pile:     {owner: player, visibility: owner}"), encoding="utf-8")
    return str(folder)


def test_scores_a_seat_cannot_know_are_question_marks_until_the_end(capsys, monkeypatch, tmp_path):
    # these scores count a player's own face-up pile, which only its owner sees
    code, out, _ = run(capsys, monkeypatch, "1\n" * 400, "play", _private_piles(tmp_path), "--human", "0",
                       "--seed", "3")
    assert code == 0
    during = out[: out.index("── final scores ──")]
    assert re.search(r"^  P0 \(you\) .*· score \d+$", during, re.M)
    assert re.search(r"^  P3 .*· score \?$", during, re.M)
    final = out[out.index("── final scores ──"):]
    assert re.search(r"^  P3 +\d+ +\d+", final, re.M)  # at the end: every score (and tie-break)


def test_output_to_a_pipe_has_no_terminal_codes(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "1\n" * 400, "play", "overloaded", "--human", "1", "--seed", "2")
    assert code == 0 and "\033" not in out


def test_piped_answers_are_echoed_after_the_prompt(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "5\nq\n", "play", "overloaded", "--human", "0", "--seed", "3")
    assert code == 0
    assert "choice [1-10; ? help; q quit]: 5\n" in out


# ---- the story: each decision once, rolls with their sentence, round summaries, final scores -------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_contract_is_told_once_in_a_bots_match(capsys, monkeypatch, seed):
    code, out, _ = run(capsys, monkeypatch, "", "play", "overloaded", "--seed", str(seed))
    assert code == 0
    assert not re.search(r"chose (accept|refuse)", out)
    story = out[: out.index("── end of round 1 ──")]
    for p in range(4):
        assert len(re.findall(rf"^P{p} (accepts|refuses)$", story, re.M)) == 1


def test_a_decision_no_sentence_tells_is_printed_with_its_question(capsys, monkeypatch):
    # loads are secret; with no later sentence of that player in the round they would be lost
    code, out, _ = run(capsys, monkeypatch, "", "play", "overloaded", "--seed", "1")
    assert code == 0
    for line in out.splitlines():
        if " chose " in line:
            assert re.match(r"  P\d chose .+ — .+", line), line


def test_a_die_roll_is_printed_with_the_sentence_that_says_it(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "", "play", "sky-haulers", "--seed", "7")
    assert code == 0
    rolls = re.findall(r"^\[d6 = (\d)\] P\d rolls (\d)$", out, re.M)
    assert rolls and all(a == b for a, b in rolls)


def test_a_roll_no_sentence_tells_is_printed_alone():
    g = load_game("overloaded")
    m = g.new_match(players=4, seed=1, log=True)
    out = io.StringIO()
    table = Table(m, out, WORDS["en"], None)
    table.catch_up()
    m.log += [{"type": "event", "event": "roll", "sides": 6, "result": 3},
              {"type": "event", "event": "say", "text": "The storm rolls 3"},
              {"type": "event", "event": "roll", "sides": 8, "result": 5},
              {"type": "event", "event": "roll", "sides": 6, "result": 2},
              {"type": "event", "event": "say", "text": "Nothing happens"},
              {"type": "decision", "who": 1, "choice": 0, "options": 2, "label": "yes"}]  # ends the wait
    table.catch_up()
    table.catch_up()  # nothing new
    assert out.getvalue().splitlines()[-4:] == [
        "[d6 = 3] The storm rolls 3",
        "  [d8 = 5] (the game says nothing about this roll)",
        "  [d6 = 2] (the game says nothing about this roll)",
        "Nothing happens",
    ]


def test_every_round_ends_with_a_summary_and_the_match_with_a_score_table(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "", "play", "overloaded", "--seed", "1")
    assert code == 0
    assert re.findall(r"^── end of round (\d) ──$", out, re.M) == [str(r) for r in range(1, 9)]
    summary = out[out.index("── end of round 1 ──"):out.index("Round 2: ")]
    assert re.search(r"^  P\d  .*\(score \d+, \+\d+\)$", summary, re.M)
    lines = out.splitlines()
    table = lines[lines.index("── final scores ──"):]
    assert table[1].split() == ["seat", "score", "tie-break"]
    assert len([line for line in table if line.endswith("← winner")]) >= 1
    assert re.match(r"(Winner: P\d|Shared win: P\d(, P\d)+)$", lines[-1])


# ---- hidden information ----------------------------------------------------------------------------


def _screens(first_card: str, other: str) -> str:
    """Seat 0's narration and question screens in a match where seat 1's hand starts with `first_card`."""
    g = load_game("overloaded")
    rest = [f"cargo-{i}@1" for i in (1, 2, 4, 5, 6, 7)] + [other, "cargo-9@1", "cargo-10@1"]
    m = g.new_match(players=4, seed=3, log=True, arrange={"hand@1": [first_card, *rest]})
    out = io.StringIO()
    table = Table(m, out, WORDS["en"], 0)
    table.catch_up()
    for _ in range(2):
        together = m.simultaneous
        for seat in m.to_act():
            action = table.ask(seat, read=lambda: "1\n") if seat == 0 else 0
            m.apply(seat, action)
            table.catch_up(together)
    return out.getvalue()


def test_what_the_seat_cannot_see_changes_nothing_it_is_shown():
    # Cargo 3 and Cargo 8 share a back: seat 0 cannot tell which one seat 1 loaded
    a = _screens("cargo-3@1", "cargo-8@1")
    b = _screens("cargo-8@1", "cargo-3@1")
    assert a == b
    assert "P1 chose (hidden)" in a


def test_scores_seen_by_a_seat_are_the_true_scores_or_unknown(tmp_path):
    for name, players in (("overloaded", 4), ("private piles", 4), ("sky-haulers", 3)):
        g = load_game(_private_piles(tmp_path) if name == "private piles" else name)
        m = g.new_match(players=players, seed=5)
        rng = walker(5)
        steps = 0
        while not m.over and steps < 150:
            for seat in m.to_act():
                m.apply(seat, rng._randbelow(len(m.legal_actions(seat))))
            steps += 1
            true, true_ties = scores_of_all(m)
            for viewer in range(players):
                seen, ties = scores_seen_by(m, viewer)
                assert seen[viewer] == true[viewer]  # a seat always knows its own score in these games
                assert all(s is None or s == t for s, t in zip(seen, true, strict=True))
                assert ties == true_ties  # tie-breaks count cards: known to all
                if name == "private piles":  # an opponent's pile is private: its score is known only while empty
                    assert all((s is None) == bool(m.view(viewer)["zones"][f"pile@{p}"])
                               for p, s in enumerate(seen) if p != viewer)
                else:
                    assert seen == true  # public zones and counters


def test_every_cli_word_is_in_every_language(capsys, monkeypatch):
    assert set(WORDS["en"]) == set(WORDS["ru"])
    code, out, _ = run(capsys, monkeypatch, "?\ninfo 99\nx\nq\n", "play", "overloaded", "--human", "0",
                       "--seed", "3", "--lang", "ru")
    assert code == 0
    for english in ("choice [", "round 1", "you are", "Type an option", "not an option", "hand:"):
        assert english not in out
    assert not re.search(r"\bscore [\d?]", out)  # the CLI's word (a card's text is the game's own words)
    assert "── раунд 1 из 8 · первый игрок P0 (вы) · вы — P0 ──" in out
    assert "выбор [1-10; ? справка; q — выйти]: " in out and "партия прервана" in out
