"""Two copies of a card are one face: a seat is never shown which copy moved, nor the order the engine
keeps a hand in when it looks at it, nor where in a hidden pile a card was taken at random."""

import io
import pickle
import textwrap

from interpreter import load_game
from interpreter.run.information import describe
from interpreter.run.match import Match
from interpreter.table import WORDS, Table

CARDS = """
cards:
  - {id: prince, name: Prince, count: 2, start: deck}
  - {id: guard, name: Guard, count: 3, start: deck}
  - {id: baron, name: Baron, start: deck}
"""


def write_game(folder, play: str, cards: str = CARDS):
    (folder / "game.yaml").write_text(textwrap.dedent("""
    game: twins
    title: Twins
    players: {min: 2, max: 2}
    cards: [cards.yaml]
    zones:
      deck: {visibility: hidden, face: down}
      hand: {owner: player, visibility: owner}
      discard: {visibility: public}
    phases:
      play: |
    %s
    flow: {rounds: 1, round: [play]}
    result: {score: count(my hand)}
    """) % textwrap.indent(textwrap.dedent(play).strip(), "    " * 2))
    (folder / "cards.yaml").write_text(textwrap.dedent(cards))
    return load_game(folder)


def seat_sees(m: Match, seat: int) -> dict:
    """Everything a seat is shown, as data and as words."""
    state = m.information_state_json(seat)
    table = Table(m, None, WORDS["en"], seat)
    return {"view": m.view(seat), "state": m.information_state(seat), "json": state,
            "labels": m.action_labels(seat), "prompt": m.prompt(seat),
            "log": [describe(line, seat) for line in state["observed"]], "screen": table.screen(seat)}


# ---- copies ------------------------------------------------------------------------------------------

PLAY_A_PRINCE = """
let p = first player
let q = next player after p
move the top card of deck to hand of p
move the top card of deck to hand of q
show hand of p to q
move the top card of deck to hand of p
let c = p chooses a card from hand of p "Play a card"
move c to discard
let t = q chooses a card from hand of p "Take a card"
move t to hand of q
"""


def prince_played(tmp_path, action: int) -> Match:
    """P1 looked at P0's Prince; P0 drew the other Prince (unseen) and played one of the two."""
    game = write_game(tmp_path, PLAY_A_PRINCE)
    m = Match(game, 2, 0, arrange={"deck": ["prince#1", "guard#1", "prince#2"]})
    assert m.option_ids(0) == ["prince#2", "prince#1"]  # the omniscient names keep the copies apart
    m.apply(0, action)
    return m


def test_which_copy_was_played_is_not_shown_to_the_other_seat(tmp_path):
    first, second = prince_played(tmp_path, 0), prince_played(tmp_path, 1)
    assert first.option_ids(1) != second.option_ids(1)  # the matches do differ
    assert seat_sees(first, 1) == seat_sees(second, 1)
    # P1 cannot tell which Prince left: the one it saw may be gone
    assert first.view(1)["zones"]["hand@0"] == [{"hidden": True}]
    assert first.action_labels(1) == ["hidden card of hand@0"]
    # and a copy of the match (rebuilt by replaying its answers) agrees
    assert seat_sees(first.clone(), 1) == seat_sees(first, 1)
    assert seat_sees(pickle.loads(pickle.dumps(second)), 1) == seat_sees(second, 1)


def test_a_seat_sees_copies_by_their_face_and_the_full_log_by_their_id(tmp_path):
    game = write_game(tmp_path, PLAY_A_PRINCE)
    m = Match(game, 2, 0, log=True, arrange={"deck": ["prince#1", "guard#1", "prince#2"]})
    assert m.action_labels(0) == ["prince", "prince"]  # either will do: they are the same card
    assert m.view(0)["zones"]["hand@0"] == ["prince", "prince"]
    assert m.view(1)["zones"]["hand@0"] == ["prince", {"hidden": True}]
    m.apply(0, 1)
    moved = [x for x in m.information_state_json(0)["observed"] if x.get("event") == "move"]
    assert moved[-1]["card"] == "prince"
    assert all("#" not in line for seat in (0, 1) for line in m.information_state(seat).splitlines())
    # the full log is the exact record: it names the copy
    assert m.log[-2]["label"] == "prince#1" and m.log[-1]["card"] == "prince#1"


# ---- glimpses ----------------------------------------------------------------------------------------

REORDER_AND_SHOW = """
let p = first player
let q = next player after p
move the top 3 cards of deck to hand of p
let c = p chooses a card from hand of p "Put one at the back of your hand"
move c to bottom of hand of p
show hand of p to q
let t = q chooses a card from discard + hand of q "Wait"
"""


def test_a_look_at_a_hand_shows_no_position_and_no_kept_order(tmp_path):
    game = write_game(tmp_path, REORDER_AND_SHOW)
    seen = []
    for action in range(3):
        m = Match(game, 2, 0, arrange={"deck": ["baron", "prince#1", "guard#1"]})
        m.apply(0, action)
        shows = [x for x in m.information_state_json(1)["observed"] if x.get("event") == "show"]
        assert len(shows) == 3 and all("at" not in x for x in shows)
        seen.append(seat_sees(m, 1))
    assert seen[0] == seen[1] == seen[2]


def test_the_looker_sees_the_hand_canonically_and_its_owner_in_order(tmp_path):
    game = write_game(tmp_path, REORDER_AND_SHOW)
    m = Match(game, 2, 0, arrange={"deck": ["baron", "prince#1", "guard#1"]})
    m.apply(0, 0)
    assert m.view(1)["zones"]["hand@0"] == ["baron", "guard", "prince"]
    hand = m.st.zones[m.layout.zone_names.index("hand@0")]
    assert m.view(0)["zones"]["hand@0"] == [m.layout.card_ids[c].split("#")[0] for c in hand]
    assert [x["card"] for x in m.information_state_json(1)["observed"] if x.get("event") == "show"] == \
        ["baron", "guard", "prince"]


# ---- a random pick from a pile never shuffled ---------------------------------------------------------

PICK = """
let p = first player
let q = next player after p
move a random card of deck to hand of p
flip a random card of deck face up
let t = q chooses a card from discard + hand of q "Wait"
"""


def test_a_random_card_from_an_unshuffled_hidden_pile_shows_no_position(tmp_path):
    game = write_game(tmp_path, PICK)
    picked, seen = set(), []
    for seed in range(12):
        m = Match(game, 2, seed)
        picked.add(m.view(0)["zones"]["hand@0"][0])
        moves = [x for x in m.information_state_json(1)["observed"] if x.get("event") in ("move", "flip")]
        assert len(moves) == 2 and all("from_at" not in x and "at" not in x for x in moves)
        seen.append(seat_sees(m, 1))
    assert len(picked) > 1  # the picks differ, what P1 sees does not
    assert all(s == seen[0] for s in seen)


BLIND = """
let p = first player
let q = next player after p
let c = p chooses a card from deck "Take a card, blind"
move c to hand of p
let t = q chooses a card from discard + hand of q "Wait"
"""


def test_a_blind_choice_from_a_hidden_pile_names_no_position(tmp_path):
    """Nobody saw the order of a pile never shuffled: its unseen cards read alike, to the chooser too."""
    game = write_game(tmp_path, BLIND)
    seen = []
    for action in (0, 3):
        m = Match(game, 2, 0)
        assert m.action_labels(0) == ["hidden card of deck"] * 6
        m.apply(0, action)
        seen.append(seat_sees(m, 1))
    assert seen[0] == seen[1]


def narration(game, human: int, arrange: dict, action: int) -> str:
    m = Match(game, 2, 0, log=True, arrange=arrange)
    out = io.StringIO()
    table = Table(m, out, WORDS["en"], human)
    m.apply(0, action)
    table.catch_up()
    table.flush()  # what waits for a sentence that may still tell the decision
    return out.getvalue() + "\n".join("\n".join(block) for block in table.screen(human)[1])


def test_the_terminal_tells_neither_copies_nor_a_hands_kept_order(tmp_path):
    looks = [narration(write_game(tmp_path, REORDER_AND_SHOW), 1, {"deck": ["baron", "prince#1", "guard#1"]}, a)
             for a in range(3)]
    assert "you see" in looks[0] and looks[0] == looks[1] == looks[2]
    plays = [narration(write_game(tmp_path, PLAY_A_PRINCE), 1, {"deck": ["prince#1", "guard#1", "prince#2"]}, a)
             for a in range(2)]
    assert plays[0] == plays[1]
