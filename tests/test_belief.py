"""What a seat may believe: `determinize` draws another legal match, with a history of its own, that the
seat cannot tell from the real one (docs/information.md, "Determinization")."""

import random
from collections import Counter

import pytest
from test_leaks import BURY_CARDS, hiding, write_game

from interpreter import load_game
from interpreter.run import information
from interpreter.run.belief import NoConsistentWorld, replayed
from interpreter.run.match import Match, Recorded
from tests.walks import played, walker


def again(m: Match) -> Match:
    """The same match played again from its seed: a new object, so nothing a determinization kept on `m`
    (its last world) is reused — each draw is a fresh one."""
    other = Match(m.game, m.players, m.seed)
    for seat, action in m.history:
        other.apply(seat, action)
    return other


def chi_square(counts: Counter, outcomes: list, n: int) -> float:
    expected = n / len(outcomes)
    return sum((counts[o] - expected) ** 2 / expected for o in outcomes)


# 0.1% critical values of chi-square by degrees of freedom: a drawing this far off is no chance
CRITICAL = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52}

KUHN = hiding("kuhn", """  bet: |
    for each player p:
      let b = p chooses one of "bet", "pass" "Bet?"
      if b == "bet":
        add 1 to chips of p""", players="{min: 2, max: 2}", flow="rounds: 1, round: [bet]", dealt=1,
              zones="\n  board: {visibility: public}\ncounters:\n  player:\n    chips: 0")
KUHN_CARDS = """
cards:
  - {id: jack, name: Jack, value: 1, start: deck}
  - {id: queen, name: Queen, value: 2, start: deck}
  - {id: king, name: King, value: 3, start: deck}
"""
LEDUC = KUHN.replace("game: kuhn", "game: leduc").replace("""      if b == "bet":
        add 1 to chips of p
""", """      if b == "bet":
        add 1 to chips of p
    move the top 1 cards of deck to board
""")
LEDUC_CARDS = """
cards:
  - {id: jack, name: Jack, value: 1, start: deck, count: 2}
  - {id: queen, name: Queen, value: 2, start: deck, count: 2}
  - {id: king, name: King, value: 3, start: deck, count: 2}
"""


def drawn_faces(m: Match, seat: int, zone: str, draws: int, rng: random.Random) -> Counter:
    """How often each face lies in `zone` across `draws` fresh determinizations for `seat`."""
    t = m.layout
    zi = t.zone_names.index(zone)
    counts: Counter = Counter()
    for _ in range(draws):
        world = again(m).determinize(seat, rng)
        counts[tuple(sorted(t.face_ids[c] for c in world.st.zones[zi]))] += 1
    return counts


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kuhn_sized_the_other_card_is_either_unseen_card_alike(tmp_path, seed):
    game = write_game(tmp_path, KUHN, KUHN_CARDS)
    m = played(game, 2, seed, 1)
    mine = game.model.setup(2).face_ids[m.st.zones[m.layout.zone_names.index("hand@0")][0]]
    unseen = sorted({"jack", "queen", "king"} - {mine})
    counts = drawn_faces(m, 0, "hand@1", 200, random.Random(seed))
    assert sorted(counts) == [(f,) for f in unseen]
    assert chi_square(counts, [(f,) for f in unseen], 200) < CRITICAL[1]


def test_leduc_sized_the_other_card_follows_the_cards_left(tmp_path):
    """Six cards, two of each rank; after the board card is shown, the other hand is one of the four cards
    left: a rank with both copies left comes twice as often as one with a single copy."""
    game = write_game(tmp_path, LEDUC, LEDUC_CARDS)
    m = played(game, 2, 3, 2)
    t = m.layout
    seen = [t.face_ids[c] for z in ("hand@0", "board") for c in m.st.zones[t.zone_names.index(z)]]
    left = Counter({"jack": 2, "queen": 2, "king": 2}) - Counter(seen)
    n = 400
    counts = drawn_faces(m, 0, "hand@1", n, random.Random(3))
    expected = {(f,): n * k / sum(left.values()) for f, k in left.items()}
    assert set(counts) == set(expected)
    stat = sum((counts[o] - e) ** 2 / e for o, e in expected.items())
    assert stat < CRITICAL[len(expected) - 1]


HIDE = hiding("hide", """  hide: |
    for each player p:
      let c = p chooses a card from hand of p "Hide a card"
      move c to hold of p face down
      if c.value >= WALL:
        say "{p} hid a high card"
""".rstrip("\n"), players="{min: 2, max: 2}", flow="rounds: 1, round: [hide]")
HIDE_CARDS = BURY_CARDS.replace("  - {id: six, name: Six, value: 6, start: deck}\n", "")  # one to five


def worlds_of_hide(m: Match, wall: int) -> list[tuple]:
    """Every world seat 0 cannot tell apart from `m`, by enumeration: (the card left in the deck, the
    card P1 hid), each as likely under the sampling model (chance uniform, P1's choice uniform among its
    two cards: the same number of options in every world)."""
    t = m.layout
    mine = {t.face_ids[c] for z in ("hand@0", "hold@0") for c in m.st.zones[t.zone_names.index(z)]}
    rest = sorted({"one", "two", "three", "four", "five"} - mine)
    value = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    said = any("hid a high card" in line and '"P1' in line for line in m.information_state(0).splitlines())
    worlds = []
    for left in rest:
        for hidden in rest:
            if hidden != left and (value[hidden] >= wall) == said:
                worlds.append((left, hidden))
    return worlds


@pytest.mark.parametrize("wall", [9, 4])
def test_a_secret_choice_is_drawn_as_enumeration_says(tmp_path, wall):
    """Exactly, by enumeration: the worlds seat 0 cannot tell apart, each as often; with a sentence that
    tells whether P1 hid a high card, only the worlds that fit it."""
    game = write_game(tmp_path, HIDE.replace("WALL", str(wall)), HIDE_CARDS)
    t = game.model.setup(2)
    for seed in range(2):
        m = played(game, 2, seed, 2)
        assert m.over or not m.to_act() or True
        worlds = worlds_of_hide(m, wall)
        counts: Counter = Counter()
        n = 60 * len(worlds)
        rng = random.Random(seed)
        for _ in range(n):
            w = again(m).determinize(0, rng)
            deck = w.st.zones[t.zone_names.index("deck")]
            hold = w.st.zones[t.zone_names.index("hold@1")]
            counts[(t.face_ids[deck[0]], t.face_ids[hold[0]])] += 1
        assert set(counts) == set(worlds)
        if len(worlds) > 1:
            assert chi_square(counts, worlds, n) < CRITICAL[min(len(worlds) - 1, 5)]


# ---- the bundled games ------------------------------------------------------------------------------

POINTS = [("overloaded", 4, 30), ("sky-haulers", 3, 40), ("low-tide", 4, 12), ("go-fish", 3, 20),
          ("crazy-eights", 3, 20), ("hearts", 4, 30)]


@pytest.mark.parametrize(("name", "players", "decisions"), POINTS)
def test_a_world_is_a_match_of_its_own_that_the_seat_cannot_tell_apart(name, players, decisions):
    game = load_game(name)
    m = played(game, players, 1, decisions)
    for seat in range(players):
        world = m.determinize(seat, random.Random(seat))
        assert world is not m and world.st is not m.st
        assert world.information_state(seat) == m.information_state(seat)
        assert world.view(seat) == m.view(seat)
        again_ = replayed(world)  # its history replays legally from its own start
        assert [again_.information_state(s) for s in range(players)] == \
            [world.information_state(s) for s in range(players)]
        assert again_.st.zones == world.st.zones


CARRIED = [("hearts", 4, 40), ("sky-haulers", 3, 30), ("crazy-eights", 3, 24), ("go-fish", 3, 16)]


@pytest.mark.parametrize(("name", "players", "decisions"), CARRIED)
def test_a_world_carried_on_as_the_match_goes_is_still_one_the_seat_cannot_tell_apart(name, players, decisions):
    """A seat drawing a world at each of its turns (as a search bot does): the match keeps its last world
    and carries it on (cards seen since traded in, answers since given again), or draws it again at the
    same point by a swap; every world fits what the seat knows and replays from its own start."""
    game = load_game(name)
    m = Match(game, players, 2)
    bot, rng = walker(2), random.Random(2)
    drawn = 0
    while not m.over and len(m.history) < decisions:
        for seat in m.to_act():
            for _ in range(2):  # carried on from the last turn, then moved at the same point
                world = m.determinize(seat, rng)
                assert world.information_state(seat) == m.information_state(seat)
                assert replayed(world).st.zones == world.st.zones
                drawn += 1
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
    assert drawn == 2 * len(m.history) >= 2 * min(decisions, 20)
    assert m.__dict__["_kept"][1]  # the match kept the seats' last worlds


def suit_of(m: Match, c: int) -> str:
    k = next(k for k, name in m.game.prop_names.items() if name == "suit")
    return m.layout.props[k][c]


def voids(m: Match) -> dict[int, set[str]]:
    """The suits each Hearts player showed it lacked in the deal now played (did not follow the suit led)."""
    out: dict[int, set[str]] = {}
    t = m.layout
    led = None
    plays = 0
    deal_start = max((i for i, e in enumerate(m._watch.events) if e[0] == "s"), default=0)
    for e in m._watch.events[deal_start:]:
        if e[0] == "m" and t.zone_names[e[4]].startswith("table"):
            p = int(t.zone_names[e[4]].split("@")[1])
            suit = suit_of(m, e[1])
            if plays % 4 == 0:
                led = suit
            elif suit != led:
                out.setdefault(p, set()).add(led)
            plays += 1
    return out


def test_hearts_worlds_keep_every_void_the_play_showed():
    """A player who did not follow a suit holds none of it in any world drawn for another seat."""
    game = load_game("hearts")
    checked = 0
    for seed in range(6):
        m = played(game, 4, seed, 40)
        shown = voids(m)
        for p, suits in shown.items():
            seat = (p + 1) % 4
            for k in range(3):
                world = m.determinize(seat, random.Random(k))
                hand = world.st.zones[world.layout.zone_names.index(f"hand@{p}")]
                assert not {suit_of(world, c) for c in hand} & suits
                checked += 1
    assert checked > 0


def test_a_card_sent_face_down_from_a_hand_of_many_backs_is_drawn_among_those_of_its_back():
    """Overloaded's cargo shows its owner and advantage on its back: a load laid face down is one of the
    loader's cards with that back, drawn anew in each world (it was kept as the true one when the hand
    held other backs too)."""
    game = load_game("overloaded")
    m = Match(game, 4, 0)
    bot = walker(0)
    t = m.layout
    table = t.zone_names.index("table")
    while len(m.st.zones[table]) < 4:
        for seat in m.to_act():
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
    back = information.back_key
    loads = {}
    for k in range(8):
        world = again(m).determinize(0, random.Random(k))
        for c in world.st.zones[table]:
            owner = t.card_ids[c].split("@")[1]
            truth = next(d for d in m.st.zones[table] if t.card_ids[d].split("@")[1] == owner)
            assert back(t, c) == back(t, truth)
            loads.setdefault(owner, set()).add(c)
    assert any(len(drawn) > 1 for owner, drawn in loads.items() if owner != "0")


def test_a_world_redraws_what_the_seat_never_saw():
    """Another player's hand is drawn anew: across draws it is not always the true one."""
    game = load_game("hearts")
    m = played(game, 4, 2, 14)  # the passes are made, the first trick begun
    t = m.layout
    truth = sorted(m.st.zones[t.zone_names.index("hand@2")])
    hands = {tuple(sorted(again(m).determinize(0, random.Random(k)).st.zones[t.zone_names.index("hand@2")]))
             for k in range(6)}
    assert len(hands) > 1 and hands != {tuple(truth)}


def test_asked_again_at_the_same_point_determinize_moves_on_from_its_last_world():
    game = load_game("overloaded")
    m = played(game, 4, 3, 20)
    rng = random.Random(0)
    seen = set()
    for _ in range(8):
        world = m.determinize(1, rng)
        assert world.information_state(1) == m.information_state(1)
        seen.add(tuple(tuple(z) for z in world.st.zones))
    assert len(seen) > 1


def test_a_match_given_its_chance_outcomes_has_no_world_to_draw_and_says_so():
    game = load_game("overloaded")
    m = Match(game, 3, 0, chance=Recorded([], then=5))
    with pytest.raises(NoConsistentWorld, match="chance comes from its seed"):
        m.determinize(0, random.Random(0))


def test_a_world_holds_nothing_that_tells_the_real_chance():
    """Neither the real seed nor a copy of the real generator goes with a world (they would tell every
    shuffle of the real match): a world's chance so far is its own record, and from now on its own."""
    game = load_game("crazy-eights")
    m = played(game, 3, 4, 12)
    world = m.determinize(0, random.Random(0))
    _, source, _ = world._drawn
    assert world.seed != m.seed and source.stream is None
    copy = world.clone()
    assert copy.information_state(0) == m.information_state(0)  # its copies replay from its own record
