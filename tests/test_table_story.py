"""The terminal table tells the whole story (issue: a new player can play every bundled game): each test
plays the situation, as a scripted `--human` session or a bots' match, and asserts what is printed."""

import io
import re
import sys
import textwrap

import pytest
from walks import old_bots, walked, walker

from interpreter.cli import main

_TOLD: dict[tuple[str, tuple[str, ...]], str] = {}  # a session played once for every test that reads it


def run(capsys, monkeypatch, stdin: str, *argv: str) -> str:
    """What `meeple ARGV` prints with `stdin` typed, the bots answering as when the stories were written."""
    if (stdin, argv) not in _TOLD:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        old_bots(monkeypatch)
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert code == 0, err
        _TOLD[stdin, argv] = out
    return _TOLD[stdin, argv]


def screens(out: str) -> list[str]:
    """The person's screens, each from its heading to its question's answer."""
    return re.split(r"\n(?=── )", out)[1:]


# ---- Hearts -------------------------------------------------------------------------------------------


@pytest.fixture
def hearts_pass(capsys, monkeypatch) -> str:
    # seed 1, seat 0: pass the first option three times (left to P1), then the first card of trick 1
    return run(capsys, monkeypatch, "1\n1\n1\n1\nq\n", "play", "hearts", "--human", "0", "--seed", "1")


def test_the_cards_passed_to_you_and_by_you_are_shown(hearts_pass):
    # what you pass and get is named (sorted in the deck's order, never in the order the passer chose)
    assert "\n  P1 gets 4 of Clubs, 7 of Clubs, Jack of Clubs from you\n" in hearts_pass
    assert "\n  you get 2 of Diamonds, 5 of Diamonds, Queen of Hearts (from P3)\n" in hearts_pass
    after = hearts_pass[hearts_pass.index("you get 2 of Diamonds"):]
    hand = re.search(r"^your hand: (.*(?:\n    .*)*)", after, re.M).group(1)
    for card in ("2 of Diamonds", "5 of Diamonds", "Queen of Hearts"):
        assert card in hand  # only cards the seat holds now are named


def test_the_hand_and_a_choice_from_it_are_sorted_and_the_number_picks_that_card(hearts_pass):
    first = screens(hearts_pass)[0]
    assert "your hand: 4 of Clubs, 7 of Clubs, Jack of Clubs, King of Clubs, 8 of Diamonds, Jack of Diamonds,\n" \
           "    5 of Hearts, Jack of Hearts, King of Hearts, Ace of Hearts, 6 of Spades, Queen of Spades,\n" \
           "    Ace of Spades" in first  # each card whole on its line
    options = re.findall(r"^ +\d+\) (.+?) —", first, re.M)
    assert options[:4] == ["4 of Clubs", "7 of Clubs", "Jack of Clubs", "King of Clubs"]
    assert options[-1] == "Ace of Spades"
    # answering 1 three times passed the first card of each sorted list
    second, third = screens(hearts_pass)[1:3]
    assert "4 of Clubs" not in second and re.search(r"^ +1\) 7 of Clubs", second, re.M)
    assert re.search(r"^ +1\) Jack of Clubs", third, re.M)


def test_no_round_zero_and_no_counter_at_its_start_value(hearts_pass):
    assert "round 0" not in hearts_pass
    assert re.search(r"^── deal 1 · first player P0 \(you\) · you are P0 ──$", hearts_pass, re.M)
    assert "hearts broken 0" not in hearts_pass
    assert not re.search(r"\bled(?: \(|\n| ·)", hearts_pass)  # `led` empty, or `led (← diamonds)`: never
    assert "led clubs\n" in hearts_pass and "(← )" not in hearts_pass


def test_your_card_played_without_a_question_is_told_before_the_trick_ends(capsys, monkeypatch):
    # seed 3: P0 is passed the 2 of Clubs, which leads the first trick with no question
    out = run(capsys, monkeypatch, "1\n1\n1\n1\nq\n", "play", "hearts", "--human", "0", "--seed", "3")
    story = out[out.index("you get 2 of Clubs"):]
    assert story.index("  your 2 of Clubs goes to the table (no choice)") < story.index("takes trick 1")


def test_secret_picks_in_a_row_are_one_line_and_cards_played_face_up_are_named(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "", "play", "hearts", "--seed", "1")
    deal = out[: out.index("── deal 1, end of round 1 ──")]
    assert "  P0 chose (hidden) — Pass three cards left\n" in deal
    assert "  P0 chose (hidden) ×2 — Pass three cards left\n" in deal  # not two lines alike
    # a card played to a trick is seen by all: named, even the deal's last, gathered in the same step
    for line in out.splitlines():
        if "(hidden)" in line:
            assert "Pass three cards" in line, line
    assert "  P3 chose 9 of Clubs — Play a card (clubs led)" in deal


# ---- Overloaded ---------------------------------------------------------------------------------------


def test_a_contract_is_printed_once_at_the_terminal(capsys, monkeypatch):
    # seed 1, answers 1: round 2 opens with P1; its contract is printed before P0's question
    out = run(capsys, monkeypatch, "1\n" * 12 + "q\n", "play", "overloaded", "--human", "0", "--seed", "1")
    round_2 = out[out.index("Round 2:"): out.index("── end of round 2 ──")]
    assert "  P1 chose refuse\n" in round_2
    assert not re.search(r"^P1 refuses$", round_2, re.M)  # not told a second time
    assert re.search(r"^P0 accepts$", round_2, re.M)  # the sentence of a contract not yet printed stays
    summary = out[out.index("── end of round 2 ──"):]
    assert re.search(r"^  P1 +.*refuses", summary, re.M)  # the summary keeps the whole round


def test_counters_not_at_their_start_value_only(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "1\n" * 12 + "q\n", "play", "overloaded", "--human", "0", "--seed", "1")
    for screen in screens(out):
        assert not re.search(r"\b(weight|overloads|contracts shown|second thoughts|double stake) 0\b", screen)
        assert "accepted ?" not in screen
        assert "contracts shown" not in screen  # it opens the contracts (`public_while`): they show, it does not
    assert re.search(r"^  P[123] .*· accepted 1", out, re.M)  # the contracts it opened


# ---- round summaries ----------------------------------------------------------------------------------


ANTE = """\
game: ante
title: Ante
players: {min: 2, max: 2}
cards: [cards.yaml]
zones: {deck: {visibility: hidden, face: down}}
counters:
  player:
    chips: 10
flow: {rounds: 3, round: [ante, bet]}
phases:
  ante: |
    for each player p:
      add -1 to chips of p
  bet: |
    for each player p:
      let answer = p chooses one of "gain", "keep" "Gain five?"
      if answer == "gain":
        add 5 to chips of p
result:
  score: my chips
"""


def test_a_round_summary_scores_the_round_as_it_ended_and_counts_from_the_start(tmp_path, capsys, monkeypatch):
    (tmp_path / "game.yaml").write_text(ANTE, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("cards:\n  - {id: blank, start: deck}\n", encoding="utf-8")
    out = run(capsys, monkeypatch, "1\n1\n1\n", "play", str(tmp_path), "--human", "0", "--seed", "1")
    first = out[out.index("── end of round 1 ──"):]
    # P0 gained: 10 - 1 + 5 = 14 at the round's end (not 13 after round 2's ante), +4 from its start (not +14)
    assert re.search(r"^  P0 \(you\) .*\(score 14, \+4\)$", first, re.M), first
    bots = run(capsys, monkeypatch, "", "play", str(tmp_path), "--seed", "1")
    before = {"P0": 10, "P1": 10}  # the start value of chips, the score
    summaries = re.findall(r"── end of round \d ──\n((?:  P.*\n)+)", bots)
    assert len(summaries) == 3
    for summary in summaries:
        for who, value, change in re.findall(r"^  (P\d) .*\(score (\d+)(?:, ([+-]\d+))?\)$", summary, re.M):
            assert int(value) - before[who] in (-1, 4)  # an ante, maybe a gain: nothing of the next round
            assert int(change or 0) == int(value) - before[who], textwrap.indent(summary, "| ")
            before[who] = int(value)


def test_every_load_on_the_table_says_whose_it_is_also_in_the_scout_question(capsys, monkeypatch):
    # seed 1: load Cargo 1, then use Cargo 6 (Scout) as the drover advantage
    out = run(capsys, monkeypatch, "1\n6\n1\nq\n", "play", "overloaded", "--human", "0", "--seed", "1")
    assert "  table: [Double Stake] (P3), [Scout] (P2), [Second Thoughts] (P1), Cargo 1 (yours)\n" in out
    question = out[out.index("Scout: whose load do you look at?"):]
    assert re.findall(r"^  \d\) (.+)$", question, re.M)[:3] == [
        "[Double Stake] (P3) — card 1 of table", "[Scout] (P2) — card 2 of table",
        "[Second Thoughts] (P1) — card 3 of table"]
    assert "  you see Cargo 10\n" in question
    assert "  drovers: Cargo 6 (yours) — value 6, advantage Scout" in out



def test_overloaded_scores_said_aloud_are_shown_to_every_seat(capsys, monkeypatch):
    # seed 1: P1 doubles the stake and scores 10 in round 2; every card of a score pile was turned up and
    # named as it was scored (the piles are public), so no score on any screen or summary is `?`
    out = run(capsys, monkeypatch, "1\n" * 400, "play", "overloaded", "--human", "0", "--seed", "1")
    during = out[: out.index("── final scores ──")]
    assert "P1 scores 10" in during
    assert re.search(r"^  P1 +uses Double Stake; refuses; doubles the stake: \+10 bonus; scores 10  \(score 20, "
                     r"\+20\)$", during, re.M), during
    assert "score ?" not in during
    assert re.search(r"^  P2 .*· score \d+$", during, re.M)  # on the screens too
    last = during[during.index("── end of round 8 ──"):]
    assert re.search(r"^  P1 .*\(score (\d+)", last, re.M).group(1) == re.search(
        r"^  P1 +(\d+)", out[out.index("── final scores ──"):], re.M).group(1)

# ---- Sky Haulers: figures the game declares -------------------------------------------------------------


def test_sky_haulers_shows_each_teams_figures_and_where_each_plane_is(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "q\n", "play", "sky-haulers", "--human", "0", "--seed", "7")
    assert "  P0 (you)  hand 6 · player card 1 · SHIPPING 3 · RANGE 1 · PILOT 2 · at Sky Fortress · RECEIVING 5" \
           in out
    assert re.search(r"^  P1 +hand 5 · player card: Dana Vale · SHIPPING 1 · RANGE 3 · PILOT 4 · at Iron Docks ·",
                     out, re.M)
    assert "spot" not in out  # `table: hide` leaves the number out: the figure names the Location


def test_a_figure_is_the_true_value_or_unknown_never_a_guess():
    from interpreter import load_game
    from interpreter.run.match import Match
    from interpreter.table import WORDS, Table
    from interpreter.visible_score import evaluate

    game = load_game("sky-haulers")
    unknown = 0
    for seed in (1, 2):
        m = Match(game, 2, seed, log=True)
        table, rng = Table(m, None, WORDS["en"], 0), walker(seed)
        for _ in range(150):
            if m.over:
                break
            shown = table.figures(0, m.view(0))
            for p in range(2):
                for (label, fn), text in zip(game.figures, shown[p], strict=True):
                    value = text.removeprefix(label + " ")
                    unknown += value == "?"
                    assert value == "?" or value == str(evaluate(fn, m.st, p)), (seed, p, label)
            seat = m.to_act()[0]
            m.apply(seat, rng.pick(len(m.legal_actions(seat))))
    assert unknown  # an opponent's face-down cargo may be an Artifact: its SHIPPING is then `?`


def test_a_table_section_names_only_counters_and_its_figures_are_checked(tmp_path, capsys):
    import shutil

    from interpreter.paths import data_dir

    folder = tmp_path / "sky"
    shutil.copytree(data_dir("cards") / "sky-haulers", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("  hide: [spot,", "  hide: [spots,").replace(
        "RECEIVING: location(me).receiving", "RECEIVING: location(me).recieving"), encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"game\.yaml:\d+:\d+: error: `spots` is not a counter", err) and "did you mean `spot`?" in err
    assert re.search(r"game\.yaml:\d+:\d+: error: .*recieving", err)


# ---- counters that last a turn, round or deal (table: lasting) ------------------------------------------


def test_a_lasting_counter_is_shown_only_in_its_own_turn_or_round(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "1\n" * 900, "play", "sky-haulers", "--human", "0", "--seed", "1")
    story = out[: out.index("── final scores ──")]
    shown = 0
    for m in re.finditer(r"last roll (\d)", story):
        turn_start = story.rfind("\nTurn ", 0, m.start())
        assert re.search(rf"^(?:\[d6 = \d\] )?P\d rolls {m.group(1)}$", story[turn_start: m.start()], re.M), \
            "a roll of an earlier turn"
        shown += 1
    assert shown
    overloaded = run(capsys, monkeypatch, "1\n" * 400, "play", "overloaded", "--human", "0", "--seed", "1")
    assert "Loads: [10, 6, 4, 1], load 21" in overloaded  # weighed at the end of round 1 …
    assert not re.search(r"^  .*\bweight\b", overloaded, re.M)  # … and never news on a later round's screen


@pytest.mark.parametrize("lasting, message", [
    ("{weigth: round}", r"`weigth` is not a counter"),
    ("{accepted: round}", r"`accepted` is not a public counter"),
])
def test_only_a_public_counter_can_last(tmp_path, capsys, lasting, message):
    import shutil

    from interpreter.paths import data_dir

    folder = tmp_path / "ovl"
    shutil.copytree(data_dir("cards") / "overloaded", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("lasting: {weight: round}",
                                                                       f"lasting: {lasting}"), encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    assert re.search(rf"game\.yaml:\d+:\d+: error: {message}", capsys.readouterr().err)


def test_the_show_off_round_asks_for_a_load_face_up_and_the_generous_donkey_says_its_bonus(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "1\n" * 12 + "q\n", "play", "overloaded", "--human", "0", "--seed", "1")
    round_2 = out[out.index("Round 2: Show-off Donkey"):]
    assert "Load a cargo card (face up: the Show-off Donkey shows the loads)\n" in round_2
    assert "Load a cargo card (face down)" not in round_2[: round_2.index("Round 3")]
    bots = run(capsys, monkeypatch, "", "play", "overloaded", "--seed", "1")
    assert "\nP1 refused: +1 bonus from the Generous Donkey\n" in bots
    assert re.search(r"^  P1 +refuses; refused: \+1 bonus from the Generous Donkey  \(score 5, \+1\)$", bots, re.M)


def test_sky_haulers_says_where_a_move_lands_why_no_cargo_and_why_a_discard(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "1\n" * 900, "play", "sky-haulers", "--human", "0", "--seed", "1")
    assert "Which way round? Clockwise lands at Cape Mist, anticlockwise at Sky Fortress\n" in out
    after = out[out.index("Clockwise lands at Cape Mist"):]
    assert re.search(r"choice \[1-2; \? help; q quit\]: 1\nP0 flies 1 clockwise to Cape Mist\n", after)
    # SHIPPING below the Location's RECEIVING: the question says so, and `none` is all there is
    assert "Play a card face down into your hold as cargo? (your SHIPPING 2, RECEIVING at Cape Mist 3)\n" \
           "  1) none (nothing to choose)\n" in out
    assert "Hand limit: discard down to 7 cards\n" in out  # the hand limit says why it asks for discards


def test_dogfight_sentences_name_the_cards_the_table_shows():
    from interpreter import load_game

    fight = re.compile(r" (starts a dogfight|blocks attack|attacks with) ")
    says = [line["text"] for seed in range(1, 9)
            for line in walked(load_game("sky-haulers"), 2, seed, log=True).log
            if line.get("event") == "say" and fight.search(line["text"])]
    assert says
    names = {c.name for c in load_game("sky-haulers").model.cards}
    for text in says:  # `… with Hired Gun (Strafe 8)`, `… with Afterburner (13)`: the card, then its move's value
        card = re.search(r" with (.+) \((?:[A-Za-z -]+ )?\d+\)$", text)
        assert card and card.group(1) in names, text


def test_hearts_shows_the_points_taken_this_deal_before_the_deal_is_scored(capsys, monkeypatch):
    # seed 1: P0 takes the Queen of Spades in deal 1; the score counts it only when the deal ends
    out = run(capsys, monkeypatch, "1\n" * 100 + "q\n", "play", "hearts", "--human", "0", "--seed", "1")
    assert "  P0 (you)  hand 5 · tricks 8 · points this deal 13 · score 0\n" in out
    assert not re.search(r"score \d+ · .*score \d+", out)  # the match score once, not as a counter too


def test_a_counter_reset_each_round_is_not_shown_between_deals(capsys, monkeypatch):
    # Hearts, seed 3: deal 1's last trick was led in diamonds; deal 2's pass comes before any trick, so
    # `led` (reset each round) means nothing there
    out = run(capsys, monkeypatch, "1\n" * 400, "play", "hearts", "--human", "2", "--seed", "3")
    passes = [s for s in screens(out) if re.match(r"── deal \d+ · first player", s)]
    tricks = [s for s in screens(out) if re.match(r"── deal \d+ · round \d+", s)]
    assert len(passes) > 3 and len(tricks) > 10
    assert not any(re.search(r"^  .*\bled \w", s, re.M) for s in passes)
    assert any(re.search(r"^  .*\bled \w", s, re.M) for s in tricks)  # within a trick, the suit led
    # the deal is numbered by the heading, not a second time by its counter (`deal number 2`)
    assert {re.match(r"── deal (\d+)", s).group(1) for s in passes} >= {"1", "2", "3", "5"}
    assert "deal number" not in out

def test_a_card_played_because_of_your_answer_is_not_told_as_played_for_you(capsys, monkeypatch):
    # Crazy Eights, seed 2: "You drew a card you can play: play it?" — yes plays it; that is your doing
    out = run(capsys, monkeypatch, "1\n" * 60 + "q\n", "play", "crazy-eights", "--human", "0", "--seed", "2")
    assert "You drew a card you can play: play it?" in out and "P0 plays 6 of Spades" in out
    assert "(no choice)" not in out


def test_go_fish_shows_the_last_ask_only_in_its_own_turn(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "1\n" * 80 + "q\n", "play", "go-fish", "--human", "0", "--seed", "2")
    assert "P2 asks P1 for Queens" in out
    firsts = {}
    for screen in screens(out):  # the first screen of each of the person's turns: the asks before it are old
        firsts.setdefault(screen.splitlines()[0], screen)
    assert len(firsts) > 3 and not any("asked rank" in s or "asked of" in s for s in firsts.values())


def test_a_go_fish_knock_out_is_told_by_one_sentence(capsys, monkeypatch):
    # seed 1, 3 players: P1 runs out of cards with the stock empty; the game says why, the table that P1 is out
    out = run(capsys, monkeypatch, "", "play", "go-fish", "--players", "3", "--seed", "1")
    story = out[:out.index("── final scores")].splitlines()
    why = story.index("P1 has no cards and the stock is empty")
    assert story[why + 1] == "P1 is knocked out of the match"
    assert [line for line in story if re.search(r"\bP1\b.*\bout\b", line)] == ["P1 is knocked out of the match"]


def test_the_cards_you_draw_are_told_after_the_sentence_that_draws_them(capsys, monkeypatch):
    # Sky Haulers, seed 1, seat 0: the rules move the cards, then say `P0 draws 1`; a reader takes the sentence first
    out = run(capsys, monkeypatch, "1\n" * 40 + "q\n", "play", "sky-haulers", "--human", "0", "--seed", "1")
    assert "\nP0 draws 5\n  you get 5 cards (from the deck)\nP1 draws 5\n" in out  # (a whole hand: counted)
    assert "\nP0 draws 1\n  you get Ace Wingman (from the deck)\n" \
           "P0 draws 2 more\n  you get Chatterbox, Tourist (from the deck)\n" in out


def test_a_hand_dealt_whole_is_counted_in_the_story_and_named_on_the_screen(hearts_pass):
    # Hearts, seed 1: 13 cards into an empty hand are all it holds; the screen's hand line and the question name
    # them, so the story says how many (it listed all 13 before the same 13 on the screen and as options)
    head = hearts_pass[:hearts_pass.index("\n── ")]
    assert head.splitlines()[1:] == ["Deal 1", "  you get 13 cards (from the deck)", "Pass left"]
    first = screens(hearts_pass)[0]
    assert first.count("Queen of Spades") == 2  # the hand line and option 12
    assert "\n  you get 2 of Diamonds, 5 of Diamonds, Queen of Hearts (from P3)\n" in hearts_pass  # a pass: named


def test_a_hand_passed_on_is_told_with_copies_counted(capsys, monkeypatch):
    # Low Tide, seed 2: after the first pick every hand passes to the left
    out = run(capsys, monkeypatch, "1\nq\n", "play", "low-tide", "--human", "0", "--seed", "2")
    assert "  you get Periwinkle, Sea Urchin ×3, Kelp Sprig, Kelp Bed, Sand Dollar (from P3)\n" in out
    assert "  P1 gets Periwinkle ×2, Sea Urchin, Starfish ×3, Sand Dollar from you\n" in out


def test_copies_of_a_card_in_hand_are_one_option(capsys, monkeypatch):
    # Low Tide, seed 2: the hand holds Periwinkle ×3 and Starfish ×3; picking any copy is the same choice
    out = run(capsys, monkeypatch, "3\n?\n4\nq\n", "play", "low-tide", "--human", "0", "--seed", "2")
    first = screens(out)[0]
    assert re.findall(r"^  \d\) (.+?) —", first, re.M) == ["Periwinkle ×3", "Sea Urchin", "Starfish ×3",
                                                           "Sand Dollar"]
    assert "choice [1-4; ? help; q quit]: 3\nP0 picks Starfish\n" in out
    second = screens(out)[1]  # the hand that came from P3: Sea Urchin ×3 among single cards
    options = re.findall(r"^  (\d)\) (.+?) —", second, re.M)
    assert ("2", "Sea Urchin ×3") in options and len(options) == 5
    assert "\n2) Sea Urchin (kind: urchin)\n" in second  # `?`: each option's card once
    assert "choice [1-5; ? help; q quit]: 4\n" in second

def test_the_ring_lists_each_location_with_its_receiving(capsys, monkeypatch, tmp_path):
    out = run(capsys, monkeypatch, "q\n", "play", "sky-haulers", "--human", "0", "--seed", "7")
    ring = re.search(r"^  ring: (.*(?:\n      .*)*)", out, re.M).group(1)
    assert " ".join(ring.split()).startswith("1 Harbor Town (RECEIVING 1), 2 Cape Mist (RECEIVING 3), 3 Old")
    assert "12 Sky Fortress (RECEIVING 5)" in " ".join(ring.split())
    import shutil

    from interpreter.paths import data_dir

    folder = tmp_path / "sky"
    shutil.copytree(data_dir("cards") / "sky-haulers", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("RECEIVING {receiving})", "{recieving})")
                         .replace("    ring: ", "    rings: "), encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"error: `rings` is not a zone", err) and "did you mean `ring`?" in err
    assert re.search(r"error: `\{recieving\}` is no property of the cards", err) and "did you mean `receiving`?" in err


def test_the_sleepy_donkey_says_the_drovers_step_is_skipped(capsys, monkeypatch):
    out = run(capsys, monkeypatch, "", "play", "overloaded", "--seed", "4")
    sleepy = out[out.index("Round 5: Sleepy Donkey"): out.index("── end of round 5 ──")]
    assert "\nThe Sleepy Donkey: no drover advantages this round\n" in sleepy
    assert "Use a drover advantage" not in sleepy


def test_the_defender_of_a_dogfight_is_told_by_its_sentences_and_not_kept_on_the_screens_after_it(capsys, monkeypatch):
    # Sky Haulers, seed 1: in turn 3 P0 wins a dogfight against P1 and plays on; the counter that named the
    # defender keeps its value past the dogfight's end, so the table leaves it out (`table: hide`)
    out = run(capsys, monkeypatch, "1\n" * 900, "play", "sky-haulers", "--human", "0", "--seed", "1")
    fight = out.index("P0 starts a dogfight against P1 with Molly Quill (Swoop 3)\n")
    won = out.index("P0 wins the dogfight\n", fight)
    turn_over = out.index("\nTurn 4: P1\n", won)
    assert len(screens(out[won:turn_over])) > 3  # P0 plays on in that turn, a screen at each question
    assert "P1 starts a dogfight against P0 with" in out  # and is attacked in a later turn
    assert not re.search(r"^  .*\bdefender P\d", out, re.M)  # on no screen: before, during or after one


def test_go_fish_names_the_card_you_fish_to_you_alone(capsys, monkeypatch):
    # Go Fish, seed 2, seat 0 asks P1 for Twos each turn: it goes fishing, and so do P1 and P2
    out = run(capsys, monkeypatch, "1\n" * 80 + "q\n", "play", "go-fish", "--human", "0", "--seed", "2")
    lines = out.splitlines()
    fished = [i for i, line in enumerate(lines) if re.fullmatch(r"P\d goes fishing \(P\d has none\)", line)]
    mine = [i for i in fished if lines[i].startswith("P0 ")]
    assert mine and len(fished) > len(mine)
    ranks = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]
    for i in mine:  # your fished card, by name, right after the sentence
        assert re.fullmatch(r"  you get (\w+) \(from the stock\)", lines[i + 1]).group(1) in ranks
    for i in set(fished) - set(mine):  # another's: no card named, nor any line about it
        assert not lines[i + 1].startswith("  ")
    assert sum("(from the stock)" in line for line in lines) == len(mine) + 1  # and the deal


def test_no_card_name_is_broken_across_lines(capsys, monkeypatch):
    # Hearts, seed 4, on a narrow terminal: long piles of taken tricks and a 13-card hand, wrapped
    monkeypatch.setenv("COLUMNS", "72")
    out = run(capsys, monkeypatch, "1\n" * 40 + "q\n", "play", "hearts", "--human", "0", "--seed", "4")
    names = {f"{rank} of {suit}" for suit in ("Clubs", "Diamonds", "Hearts", "Spades")
             for rank in [*map(str, range(2, 11)), "Jack", "Queen", "King", "Ace"]}
    joined = re.sub(r"\n +", " ", out)  # each wrapped line put back on the one before it
    for name in names:
        whole = sum(len(re.findall(rf"(?<!\w){name}(?!\w)", line)) for line in out.splitlines())
        assert whole == len(re.findall(rf"(?<!\w){name}(?!\w)", joined)), name
    assert "your hand: 9 of Clubs, 2 of Diamonds," in out and "── end of round" not in out  # (Hearts: deals)


def test_a_once_per_turn_mark_is_shown_only_in_the_turn_it_was_used(capsys, monkeypatch):
    # Sky Haulers, seed 5: P0 plays Second Wind (once per turn) in turn 3; the mark resets as a turn begins
    out = run(capsys, monkeypatch, "1\n" * 300 + "q\n", "play", "sky-haulers", "--human", "0", "--seed", "5")
    firsts: dict[str, str] = {}
    marked = 0
    for screen in screens(out):
        heading = screen.splitlines()[0]
        firsts.setdefault(heading, screen)
        marked += "once used 1" in screen
    assert marked and len(firsts) > 3
    assert not any("once used" in screen for screen in firsts.values())  # a turn's first screen: not yet used
