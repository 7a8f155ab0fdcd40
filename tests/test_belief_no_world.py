"""Points where `determinize` found no world: Sky Haulers at 4 players, in the walk `benchmarks/bench.py` makes for
its information figures (seeds 0-9, a draw at every 9th decision: 8 of 523 points with no world). The matches are
written out as their answers (each a seat and an option, base 36), so that a change of the bots' random stream
cannot move the points."""

import random

import pytest

from interpreter.game import load_game
from interpreter.run.belief import replayed, stages
from interpreter.run.belief.assign import _assign
from interpreter.run.belief.base import _Misfit
from interpreter.run.belief.trace import _Tracer

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"

# seed 5, 280 answers: P3 has looked at six cards of a hand that its player chose cards from unseen, before and
# after the look
SEED_5 = (
    "0002030000000102303034083100313200030001102030010101003010121a1211101121202023313111303130303030313030313001"
    "001010130210000000000102010107101011103030311939103012301111111821200001202222202220232126303133323030320003"
    "000200010011103030301011111110111133303122202020303232202130312230300110203030353031303030000002303102330001"
    "000000020001000000000101001410121200000416011201031111101521252021263231303502010100040716201214101012212100"
    "000921042602012123202220013030323030300101210101000001001511120001110010101011131115101021202125272430320010"
    "20303031101011311030"
)

# seed 7, 640 answers: P3 saw cards of P1's hand go into its hold unseen, one by one; P1 took a card from the top
# of the deck into hand (the seat did not see which) before the deck's last cards were shuffled; and P1 loaded a
# Jinxed Crate the seat had seen in its hand (so a world that loads it makes P1 lose a card at its turn's end)
SEED_7 = (
    "010212121110213031303030323130300200000812111010212020202230333220202534203022313030303938302302000003101110"
    "101014111030303411301032101012101311101114103520232030303020332020212020202826343232343030303600000003040000"
    "001100000000000011100001111010111011101213111210151010202220242223323130303635010010101800100102010000161324"
    "301110303111321010101113101012101110101021211011211221202020203032011020303032001324010501001010121210141010"
    "202021000120202020202020202221202130303030323130320313200100303100000001000103121010111122202120303030000131"
    "001121340100303036003205313200010135101012000002130010101010111011101010101211132335041020202322203031322020"
    "203034343731303030202322020001000001101010101011303033103111313310302220202020303131300001303031033032323032"
    "001020313133010020202304230223220003002510101020202117201010111126111411102130031715102122101120202122212021"
    "303233343030313000000030303005313131303136331300000200000700000110121210101315212110112120202120202021212020"
    "202230303000000030303030303030333231303131333201010010101508130411140102000201022635101110101210111011022022"
    "203030322431263020202121212523223632303031310100101100000001010000021212101312122120212027303030000002320030"
    "30313031303033360700050002080611110000031703140010111010141010121011111520202020222120112020"
)


def point(seed: int, answers: str):
    """The match of the walk, its answers given again."""
    m = load_game("sky-haulers").new_match(players=4, seed=seed)
    for k in range(0, len(answers), 2):
        m.apply(int(answers[k]), DIGITS.index(answers[k + 1]))
    return m


def drawings(m, seat: int, seeds: range) -> int:
    """How many of the drawings of step 2 (`_assign`, one per generator seed) give every path a card."""
    tr = _Tracer(m, seat).advance(m)
    drawn = 0
    for k in seeds:
        try:
            _assign(tr, m.layout.face_ids, random.Random(k))
            drawn += 1
        except _Misfit:
            pass
    return drawn


def fresh(m, seat: int, seed: int):
    """A world drawn afresh (no world kept), checked: the seat's information state, a legal history of its own."""
    c = m.clone()
    c.__dict__.pop("_kept", None)
    world = c.determinize(seat, random.Random(seed))
    assert world.information_state(seat) == m.information_state(seat)
    replayed(world)
    return world


@pytest.fixture(scope="module")
def seed_5():
    return point(5, "".join(SEED_5))


@pytest.fixture(scope="module")
def seed_7():
    return point(7, "".join(SEED_7))


def test_a_look_at_a_hand_chosen_from_before_and_after_puts_its_faces_where_both_choices_fit(seed_5):
    """The faces of the look were put on the hand's paths before the backward pass of the drawing, in an order
    blind to what the later choices from that hand asked of each path (the hand's order is kept through a choice):
    no drawing fit (0 of 50 each time, and no world in 66 drawings). Placed where the pass comes down to the paths,
    most fit."""
    assert len(seed_5.history) == 280
    assert drawings(seed_5, 3, range(10)) >= 4
    fresh(seed_5, 3, 0)


def test_two_choices_from_one_hand_that_no_single_card_fits_are_taken_again(seed_7):
    """Two choices from one hand asked the cards it kept between them for faces that no one choice could bring to
    both (the faces a path could carry are worked out path by path): 1 drawing of 200 fit. With the faces a
    shuffle's or a choice's paths could carry worked out less loosely and the choices taken again where a mix
    before them finds no card, all do."""
    assert len(seed_7.history) == 640
    assert drawings(seed_7, 3, range(10)) == 10


def test_a_card_taken_unseen_and_a_crate_loaded_unseen_are_mended_by_the_quick_drawings(seed_7, monkeypatch):
    """Only the quick drawings (their mends sharing one budget), as a search bot's draw mostly takes them. P1's
    pick of the top cards of the deck, drawn anew among its options, took another card than the drawing sent
    into its hand, and the deck shuffled later held other cards ('a shuffle of other cards'); the Jinxed Crate
    the seat saw in P1's hand could be traded by no shuffle, only by P1 choosing another card to load."""
    monkeypatch.setattr(stages, "THOROUGH_TRIES", 0)
    monkeypatch.setattr(stages, "PATIENT_TRIES", 0)
    monkeypatch.setattr(stages, "TARGETED_TRIES", 0)
    for seed in (0, 1):
        fresh(seed_7, 3, seed)
