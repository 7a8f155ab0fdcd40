"""Every run-time limit bounds work: aggregates, moves of many cards, the flow's rounds, deals and turns,
and a match's invariants and checks are charged as steps, so a hostile game stops early with a located
error that names the limit (SECURITY.md, docs/dsl.md). Sizes, not clocks, keep these tests short."""

import random
import re
from pathlib import Path

import pytest
from test_hostile_input import run

from interpreter import limits
from interpreter.check import watch_sim
from interpreter.game import load_game
from interpreter.run.match import Match
from interpreter.run.runtime import BOTTOM, TOP, RuleError, State, move, move_all
from interpreter.run.sim import simulate


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where sim leaves the log of a match whose rules failed


STEPS = r"the match ran more than 1,000,000 steps \(loop rounds, calls, cards moved, elements aggregated"
LOWER = 100_000  # a lower step limit stops a runaway match sooner: where it stops and why do not change
LOWER_STEPS = STEPS.replace("1,000,000", f"{LOWER:,}")


def write_game(folder: Path, turn: str, copies: int = 1, flow: str = "  turn: [turn]\n  rounds: 1\n",
               extra: str = "") -> Path:
    """A game of ten kinds of card (`copies` of each) in a deck, with `turn` as its turn phase."""
    folder.mkdir(parents=True, exist_ok=True)
    body = "".join(f"    {line}\n" for line in turn.splitlines())
    (folder / "game.yaml").write_text(f"""\
game: hostile
title: Hostile
players: {{min: 2, max: 2}}
cards: [cards.yaml]
properties:
  value: 0
zones:
  deck: {{visibility: hidden, face: down}}
  pile: {{visibility: public, face: up}}
  held: {{visibility: public, face: up, limit: 5}}
  hand: {{owner: player, visibility: owner}}
counters:
  player:
    points: 0
phases:
  turn: |
{body}flow:
{flow}{extra}result:
  score: my points
""")
    (folder / "cards.yaml").write_text("cards:\n" + "".join(
        f"  - {{id: c{i}, name: C{i}, start: deck, value: {i}, count: {copies}}}\n" for i in range(10)))
    return folder


def stops(folder: Path, where: str, message: str, steps: int | None = None) -> str:
    """A quiet match of the game (under a limit of `steps`, if given) stops with a RuleError at
    `game.yaml:LINE:COL` whose text matches."""
    with pytest.raises(RuleError) as info:
        simulate(load_game(folder).with_max_steps(steps), 2, 0)
    text = str(info.value)
    assert re.match(rf"{re.escape(str(folder / 'game.yaml'))}:{where}: {message}", text), text
    return text


def test_nested_aggregates_are_charged_element_by_element(tmp_path):
    nested = "0"
    for i in range(10):  # 10**10 elements in all
        nested = f"sum(x{i} in deck, {nested} + 1)"
    folder = write_game(tmp_path / "nested", f"let t = {nested}\nadd t to my points")
    stops(folder, r"17:\d+", LOWER_STEPS, LOWER)


def test_aggregates_nested_through_game_functions_are_charged(tmp_path):
    functions = "functions:\n  f0:\n    value: sum(x in deck, x.value)\n" + "".join(
        f"  f{i}:\n    value: sum(x in deck, f{i - 1})\n" for i in range(1, 10))
    folder = write_game(tmp_path / "functions", "add f9 to my points", extra=functions)
    with pytest.raises(RuleError, match=rf"game.yaml:\d+:\d+: {LOWER_STEPS}"):
        simulate(load_game(folder).with_max_steps(LOWER), 2, 0)


def test_nested_aggregates_stop_sim_with_a_located_error(capsys, tmp_path):
    nested = "0"
    for i in range(20):  # 2**20 players in all
        nested = f"count(x{i} in players where {nested} >= 0)"
    folder = write_game(tmp_path / "players", f"let t = {nested}\nadd t to my points")
    code, _, err = run(capsys, "sim", folder, "-n", "1", "--max-steps", str(LOWER))
    assert code == 1 and re.search(rf"{re.escape(str(folder / 'game.yaml'))}:17:\d+: {LOWER_STEPS}", err), err


def test_moving_all_cards_back_and_forth_is_charged_card_by_card(tmp_path):
    loop = "while true at most 1000000 times:\n  move all deck to pile\n  move all pile to deck"
    stops(write_game(tmp_path / "zones", loop, copies=1000), r"1[89]:\d+", STEPS)
    loop = "while true at most 1000000 times:\n  move deck where it.value >= 0 to pile\n" \
           "  move pile where it.value >= 0 to bottom of deck"
    stops(write_game(tmp_path / "lists", loop, copies=1000), r"1[89]:\d+", STEPS)


def test_a_watched_match_of_moves_back_and_forth_stops_as_a_quiet_one(tmp_path):
    """`play` watches who sees what; a card taken from or put at an end of a zone is found there, not
    searched for, so the watched match stops where `sim` does, at the same step (1,000 cards)."""
    folder = write_game(tmp_path / "zones", "while true at most 1000000 times:\n  move all deck to pile\n"
                        "  move all pile to deck", copies=100)
    quiet = stops(folder, r"1[89]:\d+", LOWER_STEPS, LOWER)
    with pytest.raises(RuleError) as info:
        Match(load_game(folder).with_max_steps(LOWER), 2, 0)
    assert str(info.value).split(" (seed")[0] == quiet.split(" (seed")[0]


def test_a_sentence_of_the_log_is_charged_alike_in_sim_and_play(capsys, tmp_path):
    """What a `say` runs over is charged whether or not the match is logged: `sim` and `play` stop alike."""
    loop = 'while true at most 1000000 times:\n  say "{deck where it.value > 3}"'
    folder = write_game(tmp_path / "sentences", loop, copies=1000)
    quiet = stops(folder, r"18:13", STEPS)
    code, _, err = run(capsys, "play", folder, "--log", tmp_path / "match.jsonl")
    assert code == 1 and quiet.split(" (seed")[0] in err, err


def test_a_list_grown_by_plus_is_charged(tmp_path):
    loop = "let x = deck where it.value >= 0\nwhile true at most 1000000 times:\n  set x to x + deck"
    stops(write_game(tmp_path / "grows", loop), r"19:\d+", STEPS)


def test_rounds_of_deals_are_charged(tmp_path):
    folder = write_game(tmp_path / "rounds", "add 1 to my points", flow="  turn: [turn]\n  rounds: 10000\n"
                        "  deals: 10000\n")
    stops(folder, r"20:3", LOWER_STEPS, LOWER)  # at `rounds:`
    folder = write_game(tmp_path / "empty", "add 1 to my points", flow="  round: [turn]\n  rounds: 10000\n"
                        "  deals: 10000\n")
    stops(folder, r"20:3", LOWER_STEPS, LOWER)


def test_deals_are_charged(tmp_path):
    folder = write_game(tmp_path / "deals", "add 1 to my points",
                        flow="  turn: [turn]\n  rounds: {until: \"true\", at_most: 1}\n  deals: 10000\n")
    game = load_game(folder).with_max_steps(100)
    with pytest.raises(RuleError, match=rf"^{re.escape(str(folder / 'game.yaml'))}:21:3: the match ran more "
                                        "than 100 steps"):
        simulate(game, 2, 0)


def test_an_invariant_has_a_budget_of_its_own(capsys, tmp_path):
    square = "count(x in deck where count(y in deck where y.value == x.value) == 1) >= 0"
    folder = write_game(tmp_path / "square", 'let b = I choose one of "x", "y" "?"', copies=200,
                        flow="  turn: [turn]\n  rounds: 100\n", extra=f"invariants:\n  square: {square}\n")
    code, _, err = run(capsys, "sim", folder, "-n", "1", "--check")
    assert code == 1 and re.search(rf"{re.escape(str(folder / 'game.yaml'))}:22:\d+: the game's invariants and "
                                   "checks ran more than 10,000,000 steps", err), err
    # The same match unchecked runs its course: checking it spends none of its rules' steps.
    assert run(capsys, "sim", folder, "-n", "1")[0] == 0


def test_the_bundled_games_stay_far_below_the_limits(bundled_game, monkeypatch):
    game = load_game(bundled_game)
    seen: list[State] = []
    init = State.__init__

    def kept(st: State, *args, **kwargs) -> None:
        init(st, *args, **kwargs)
        seen.append(st)

    monkeypatch.setattr(State, "__init__", kept)
    for seed in range(3):
        simulate(game, game.max_players, seed, watch_sim)
    assert max(st.steps_max - st.steps for st in seen) < 50_000
    assert max(limits.MAX_CHECK_STEPS - st.checks_left for st in seen) < 200_000


@pytest.fixture(scope="module")
def three_of_each(tmp_path_factory):
    """The game of ten kinds of card, three copies of each (compiled once for the module)."""
    return load_game(write_game(tmp_path_factory.mktemp("moves") / "moves", "add 1 to my points", copies=3))


@pytest.mark.parametrize("place", [TOP, BOTTOM])
def test_moving_many_cards_at_once_is_moving_them_one_by_one(three_of_each, place):
    """A quiet match moves a list of cards to an end of a zone in one pass: the same cards in the same
    order as moving them one at a time, a full zone (`held`, limit 5) and cards named twice included."""
    game = three_of_each
    zones = range(len(game.model.setup(2).zone_names))
    rng = random.Random(7)
    for _ in range(300):
        spread = [rng.choice(zones) for _ in range(30)]
        cards = [rng.choice([*range(30), -1]) for _ in range(rng.randrange(40))]
        dest, face = rng.choice(zones), rng.choice([-1, 0, 1])
        once, each = (State(game.model.setup(2), 2, 0, None) for _ in range(2))
        for st in (once, each):
            for c, zi in enumerate(spread):
                move(st, c, zi, BOTTOM, 1)
        move_all(once, cards, dest, place, face)
        for c in cards:
            move(each, c, dest, place, face)
        assert (once.zones, once.zone_of, once.face) == (each.zones, each.zone_of, each.face)
        assert once.steps == each.steps  # (a short list moves uncharged)


# ---- whole numbers are bounded ------------------------------------------------------------------------

BIG = "a whole number of 36 digits, past the limit of 9,223,372,036,854,775,807"
GROWS = 'let b = I choose one of "x", "y" "?"\n' + "set my points to my points * 999999999999999999 + 1\n" * 20


def located(err: str, folder: Path, line: int, message: str) -> bool:
    return re.search(rf"{re.escape(str(folder / 'game.yaml'))}:{line}:\d+: {message}", err) is not None


@pytest.fixture(scope="module")
def grows(tmp_path_factory) -> Path:
    """A game whose score grows past the limit (one folder for the module's tests: compiled once)."""
    return write_game(tmp_path_factory.mktemp("grows") / "grows", GROWS)


def test_a_number_past_the_limit_stops_sim_and_play_at_its_line(capsys, grows):
    folder = grows
    for argv in (["sim", folder, "-n", "1"], ["play", folder], ["play", folder, "--json"]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and located(err, folder, 20, BIG), err  # the third `set`: 10**36


def test_the_log_of_a_match_stopped_by_a_number_is_written_and_replays(capsys, tmp_path, grows):
    folder = grows
    log = tmp_path / "match.jsonl"
    code, _, err = run(capsys, "play", folder, "--log", log)
    assert code == 1 and located(err, folder, 20, BIG), err
    assert '"type": "error"' in log.read_text().splitlines()[-1]
    code, out, _ = run(capsys, "replay", log, "--game", folder)
    assert code == 0 and "the rules fail at the same point" in out


@pytest.mark.parametrize("turn, line, message", [
    ("let x = my points + 999999999999999999\nrepeat 10 times:\n  add x to my points", 19, "a whole number of 19"),
    ("repeat 20 times:\n  let x = 999999999999999999 * (my points + 9)\n  set my points to x", 18,
     "a whole number of 37"),
    ("let x = roll a die with 999999999999999999 * 999999999999999999 sides", 17, "a whole number of 36"),
    ("set my points to 999999999 * 999999999\nlet x = I choose a number from 1 to my points * my points", 18,
     "a whole number of 36"),
], ids=["add", "let", "roll", "number choice"])
def test_every_stored_number_is_bounded(capsys, tmp_path, turn, line, message):
    folder = write_game(tmp_path / "stored", turn)
    code, _, err = run(capsys, "sim", folder, "-n", "1")
    assert code == 1 and located(err, folder, line, message), err


def test_a_score_past_the_limit_is_located_at_the_score(capsys, tmp_path):
    folder = write_game(tmp_path / "score", "set my points to 999999999 * 999999999")
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace(
        "score: my points", "score: my points * my points"))
    code, _, err = run(capsys, "sim", folder, "-n", "1")
    assert code == 1 and located(err, folder, 22, "a whole number of 36 digits"), err


def test_a_constant_past_the_limit_is_refused_before_play(capsys, tmp_path):
    folder = write_game(tmp_path / "constant", "let x = 999999999999999999 * 999999999999999999")
    code, _, err = run(capsys, "validate", folder)
    assert code == 1 and located(err, folder, 17, r"error: .*past the limit of 9,223,372,036,854,775,807"), err
