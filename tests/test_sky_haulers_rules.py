"""Sky Haulers, rule by rule: one test per sentence of the rulebook (sky-haulers.md) that a test can pin.

Each test's name states the rule and its docstring opens with the rulebook's words. Rules with a scenario
in cards/sky-haulers/scenarios/ run it by name; the others drive a match through the step API. Properties
that must hold everywhere are checked at every decision of random matches at 2, 3 and 4 players
(`RandomPlay`, run once per player count and shared by the tests that read it).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache
from itertools import chain

import pytest
from test_scenarios import RULEBOOKS, game_of, run_scenario

from interpreter.run.runtime import seen_by
from interpreter.scenarios import ScenarioMatch, counter, decide, says, zone_cards

GAME = game_of("sky-haulers")
PROP = GAME.model.prop_index
DECK_KINDS = ("cargo", "passenger", "pilot", "action", "artifact")
DECK_ZONES = {"deck", "pile", "hand", "chain", "hold", "fight", "resolving"}
SEEDS = 10          # random matches per player count in the default run
SLOW_SEEDS = 600    # ... and behind @pytest.mark.slow


def scenario(name: str):
    return run_scenario("sky-haulers", name)


# ---- driving a match ---------------------------------------------------------------------------------


def new(players: int = 2, seed: int = 0, **setup):
    """A logged match finished by a scenario's set-up keys: clear=, arrange=, counters=, chance=."""
    return ScenarioMatch(GAME, players, seed, {"name": "rules test", **setup})


def card(m, cid: str) -> int:
    return m.layout.card_ids.index(cid)


def prop(m, c: int, name: str):
    return m.layout.props[PROP[name]][c]


def zone(m, name: str) -> list[int]:
    return m.st.zones[m.layout.zone_names.index(name)]


def spot(m, seat: int) -> int:
    return counter(m, "spot")[seat]


def location(m, seat: int) -> int:
    """The Location card under a player's token."""
    return next(c for c in zone(m, "ring") if prop(m, c, "slot") == spot(m, seat))


def team(m, seat: int, stat: str) -> int:
    """A team stat as the rulebook defines it: Player card + chain + Artifacts in the hold (+ Tailwind)."""
    total = prop(m, zone(m, f"player_card@{seat}")[0], stat)
    total += sum(prop(m, c, stat) for c in zone(m, f"chain@{seat}"))
    total += sum(prop(m, c, stat) for c in zone(m, f"hold@{seat}") if prop(m, c, "kind") == "artifact")
    if stat == "shipping":
        total += counter(m, "tailwind")[seat]
    return max(0, total)


def ring_distance(a: int, b: int) -> int:
    d = (a - b) % 12
    return min(d, 12 - d)


def drive(m, choose=None, stop=None, limit: int = 100_000) -> None:
    """Answer every question until `stop(m)` or the end: `choose(m, seat, labels)` returns a label, or
    None for the first option."""
    for _ in range(limit):
        if m.over or (stop and stop(m)):
            return
        seat = m.to_act()[0]
        labels = m.option_ids(seat)
        label = choose(m, seat, labels) if choose else None
        decide(m, seat, label if label is not None else labels[0])
    raise AssertionError("the match does not end")


# ---- random play, checked at every decision -------------------------------------------------------------

SAY_TURN = re.compile(r"^Turn \d+: P(\d)$")
SAY_CARGO = re.compile(r"^P(\d) plays a cargo at ")
SAY_WIN = re.compile(r"^P(\d) has (\d+) cargo in the hold and wins$")
CAN_PLAY_WHEN = {  # a card from hand whose effect cannot be carried out cannot be played
    "peek-inside": lambda m, p: any(not m.st.face[c] for q in range(m.players) for c in zone(m, f"hold@{q}")),
    "customs-raid": lambda m, p: any(not m.st.face[c] for q in range(m.players) if q != p
                                     for c in zone(m, f"hold@{q}")),
    "salvage": lambda m, p: bool(zone(m, "pile")),
    "second-wind": lambda m, p: bool(zone(m, "deck") or zone(m, "pile")),
    "eviction": lambda m, p: len(zone(m, f"hand@{p}")) > 1
    and any(zone(m, f"chain@{q}") for q in range(m.players)),
    "reshuffle-seats": lambda m, p: len(zone(m, f"chain@{p}")) > 1,
    "double-check": lambda m, p: len(zone(m, f"hand@{p}")) > 1
    and team(m, p, "shipping") >= prop(m, location(m, p), "receiving"),
}


class RandomPlay:
    """Random matches at one player count; every rule property is checked at every decision.

    A broken property is recorded (with the seed and the decision count to replay it) and play goes on,
    so each property's test reports on its own."""

    def __init__(self, players: int, seeds: range) -> None:
        self.players = players
        self.broken: dict[str, list[str]] = {}
        self.counts: Counter = Counter()
        for seed in seeds:
            self.play(seed)

    def fail(self, prop_name: str, text: str) -> None:
        found = self.broken.setdefault(prop_name, [])
        if len(found) < 5:
            found.append(f"{self.players} players, seed {self.seed}, decision {len(self.m.history)}: {text}")

    def play(self, seed: int) -> None:
        self.seed = seed
        m = self.m = GAME.new_match(self.players, seed, log=True)
        t = m.layout
        rng = random.Random(seed)
        kinds = [prop(m, c, "kind") for c in range(len(t.card_ids))]
        self.ids = set(t.card_ids)
        self.deck_cards = [c for c, k in enumerate(kinds) if k in DECK_KINDS]
        self.fixed = {c: m.st.zone_of[c] for c, k in enumerate(kinds) if k in ("player", "location")}
        self.ring = list(zone(m, "ring"))
        self.sizes = {name: len(cards) for name, cards in zip(t.zone_names, t.start_zones, strict=True)}
        self.read = 0
        self.active = -1
        self.dogfights = 0
        self.rolls = 0
        self.fighting = False                 # between a dogfight's start and the die roll
        self.leaving: str | None = None       # a card that just left a hold, until the game says why
        self.holds = [[] for _ in range(self.players)]
        self.before: tuple[int, int] | None = None
        self.read_log()
        asked_to_play = None                  # log length when "play a card" was picked
        while not m.over:
            seat = m.to_act()[0]
            labels = m.option_ids(seat)
            # the card to play is asked right after "play a card" unless it was the only one (then it moved)
            which_card = asked_to_play is not None and all(x in self.ids for x in labels) and not any(
                e.get("event") == "move" for e in m.log[asked_to_play:])
            self.check_decision(seat, labels, which_card)
            pick = rng.randrange(len(labels))
            asked_to_play = len(m.log) if labels[pick] == "play a card" else None
            assert m.apply(seat, pick) is None
            self.read_log()
        self.check_end()

    # -- at every decision
    def check_decision(self, seat: int, labels: list[str], which_card: bool) -> None:
        m, st, t = self.m, self.m.st, self.m.layout
        self.counts["decisions"] += 1
        for p in range(m.players):
            if len(zone(m, f"hand@{p}")) > 10:
                self.fail("hand limit", f"hand@{p} holds {len(zone(m, f'hand@{p}'))} cards")
            if len(zone(m, f"chain@{p}")) > 4:
                self.fail("chain limit", f"chain@{p} holds {len(zone(m, f'chain@{p}'))} Passengers")
            for c in zone(m, f"hold@{p}"):
                if not seen_by(st, c) >> p & 1:
                    self.fail("own cargo", f"P{p} cannot see its own cargo {t.card_ids[c]}")
        if sorted(chain.from_iterable(st.zones)) != list(range(len(t.card_ids))):
            self.fail("conservation", "a card is lost or listed twice")
        for zi, cards in enumerate(st.zones):
            if cards and set(map(st.zone_of.__getitem__, cards)) != {zi}:  # (in C: then the card, in Python)
                for c in cards:
                    if st.zone_of[c] != zi:
                        self.fail("conservation", f"{t.card_ids[c]} is listed in the wrong zone")
        for c in self.deck_cards:
            where = t.zone_names[st.zone_of[c]].partition("@")[0]
            if where not in DECK_ZONES:
                self.fail("conservation", f"deck card {t.card_ids[c]} lies in {where}")
        for c, zi in self.fixed.items():
            if st.zone_of[c] != zi:
                self.fail("fixed cards", f"{t.card_ids[c]} moved to {t.zone_names[st.zone_of[c]]}")
        if zone(m, "ring") != self.ring:
            self.fail("fixed cards", "the ring of Locations changed order")
        for p in range(m.players):
            now = zone(m, f"hold@{p}")
            kept = [c for c in self.holds[p] if c in now]
            if now[:len(kept)] != kept:
                self.fail("cargo order", f"hold@{p} went from {self.holds[p]} to {now}")
            self.holds[p] = list(now)
        if all(x.isdigit() for x in labels):      # how many steps (or Charter Flight's Location)
            numbers = [int(x) for x in labels]
            self.counts["numbers offered"] += 1
            if numbers != list(range(1, len(numbers) + 1)):
                self.fail("zero moves", f"numbers offered: {numbers}")
        if which_card:
            self.counts["plays offered"] += 1
            for cid in labels:
                c = card(m, cid)
                kind, base = prop(m, c, "kind"), cid.partition("#")[0]
                if kind == "cargo" or (kind == "action" and prop(m, c, "timing") != "turn"):
                    self.fail("playable", f"{cid} ({kind}) is offered in step 2")
                if kind == "pilot" and counter(m, "dogfights")[seat]:
                    self.fail("one dogfight", f"{cid} is offered after this turn's dogfight")
                if base in CAN_PLAY_WHEN and not CAN_PLAY_WHEN[base](m, seat):
                    self.fail("playable", f"{cid} is offered but its effect cannot be carried out")
                if prop(m, c, "once_per_turn") and counter(m, "once_used")[seat]:
                    self.fail("once per turn", f"{cid} is offered after a once-per-turn card")
        if "start a dogfight" in labels:
            reach = [q for q in range(m.players) if q != seat
                     and ring_distance(spot(m, seat), spot(m, q)) <= team(m, seat, "range")]
            if not reach or counter(m, "dogfights")[seat]:
                self.fail("one dogfight", "a dogfight by RANGE is offered without a target or a second time")
        a = st.active
        self.before = (team(m, a, "shipping"), prop(m, location(m, a), "receiving"))

    # -- what happened since the last decision
    def read_log(self) -> None:
        m = self.m
        for e in m.log[self.read:]:
            kind = e.get("type")
            if kind == "event" and e["event"] == "move":
                self.sizes[e["from"]] -= 1
                self.sizes[e["to"]] += 1
                if e["to"].startswith("hand@") and self.sizes[e["to"]] > 10:
                    self.fail("hand limit", f"{e['card']} entered {e['to']} as its card {self.sizes[e['to']]}")
                if e["from"].startswith("hold@"):
                    if e["to"] != "pile":
                        self.fail("cargo stays", f"{e['card']} left {e['from']} for {e['to']}")
                    self.leaving = e["card"]
            elif kind == "event" and e["event"] == "roll":
                self.rolls += 1
            elif kind == "event" and e["event"] == "say":
                self.read_say(e["text"])
            elif kind == "state":
                self.end_of_turn(e)
        self.read = len(m.log)

    def read_say(self, text: str) -> None:
        if self.leaving is not None:
            why = [w for w in ("is opened: a bluff", " shoots down ", " overboard") if w in text]
            if not why:
                self.fail("cargo stays", f"{self.leaving} left a hold, then: {text!r}")
            elif why == [" shoots down "]:
                self.counts["shot down"] += 1
                if not self.fighting:
                    self.fail("damage", f"{text} outside a dogfight")
            self.leaving = None
        if re.match(r"^P\d rolls \d$", text):
            self.fighting = False
        turn = SAY_TURN.match(text)
        if turn:
            self.active, self.dogfights, self.rolls = int(turn.group(1)), 0, 0
        if " starts a dogfight against " in text:
            self.fighting = True
            self.dogfights += 1
            self.counts["dogfights"] += 1
            if self.dogfights > 1:
                self.fail("one dogfight", f"a second dogfight this turn: {text}")
        cargo = SAY_CARGO.match(text)
        if cargo:
            self.counts["cargo played"] += 1
            shipping, receiving = self.before
            if int(cargo.group(1)) != self.active or shipping < receiving:
                self.fail("shipping", f"{text} with SHIPPING {shipping} < RECEIVING {receiving}")

    def end_of_turn(self, state: dict) -> None:
        self.counts["turns"] += 1
        hands = {seat: len(cards) for seat, cards in state["zones"]["hand"].items()}
        if max(hands.values()) > 7:
            self.fail("seven after step 4", f"hands {hands} at the end of turn {state['turn']}")
        if len(state["zones"]["hold"][str(self.active)]) >= 5:
            self.fail("win", f"P{self.active} ends turn {state['turn']} with 5 cargo and plays on")
        if self.rolls != 1:
            self.fail("one roll", f"turn {state['turn']} rolled the die {self.rolls} times")
        if state["round"] > 100:
            self.fail("game length", f"round {state['round']}")

    def check_end(self) -> None:
        m = self.m
        last = says(m)[-1]
        won = SAY_WIN.match(last)
        holds = [len(zone(m, f"hold@{p}")) for p in range(m.players)]
        if won:
            self.counts["won by cargo"] += 1
            a = int(won.group(1))
            if a != m.st.active or m.winners != [a] or int(won.group(2)) != holds[a] or holds[a] < 5:
                self.fail("win", f"{last!r} with active P{m.st.active}, winners {m.winners}, holds {holds}")
            if self.rolls != 1:
                self.fail("one roll", f"the last turn rolled the die {self.rolls} times")
        else:
            self.counts["won on points"] += 1
            best = max(holds)
            if m.st.round != 100 or m.winners != [p for p in range(m.players) if holds[p] == best]:
                self.fail("game length", f"ended in round {m.st.round} with winners {m.winners}, holds {holds}")
        if m.st.round > 100:
            self.fail("game length", f"round {m.st.round}")


@cache
def random_play(players: int, seeds: int = SEEDS) -> RandomPlay:
    return RandomPlay(players, range(seeds))


def holds_everywhere(prop_name: str, seeds: int = SEEDS) -> None:
    for players in (2, 3, 4):
        run = random_play(players, seeds)
        assert not run.broken.get(prop_name), "\n".join(run.broken[prop_name])


NOT_RULES = {"test_every_rule_test_quotes_the_rulebook", "test_random_play_reaches_the_rules_it_checks",
             "test_every_property_holds_over_many_random_matches"}


def test_every_rule_test_quotes_the_rulebook():
    """Each test's docstring opens with words of the rulebook, word for word (Markdown bold dropped)."""
    book = RULEBOOKS / "sky-haulers.md"
    if not book.is_file():
        pytest.skip(f"no rulebook at {book}")
    text = " ".join(book.read_text(encoding="utf-8").replace("**", "").split())
    for name, fn in globals().items():
        if name.startswith("test_") and name not in NOT_RULES:
            quote = " ".join((fn.__doc__ or "").split("\n\n")[0].replace("**", "").split())
            assert quote and quote in text, f"{name} does not quote the rulebook: {quote!r}"


def test_random_play_reaches_the_rules_it_checks():
    """The random matches do reach what the properties check: dogfights, cargo, plays, wins by cargo."""
    for players in (2, 3, 4):
        counts = random_play(players).counts
        assert counts["dogfights"] > 5 * SEEDS and counts["cargo played"] > 5 * SEEDS, counts
        assert counts["plays offered"] > 10 * SEEDS and counts["won by cargo"] > SEEDS // 2, counts
    holds_everywhere("game length")


# ---- Components and setup ------------------------------------------------------------------------------


def test_the_deck_has_fifty_three_cards_of_five_kinds():
    """A shuffled deck of 53 cards: 14 Cargo, 14 Passengers, 6 Pilots, 15 Actions, 4 Artifacts."""
    m = new()
    kinds = Counter(prop(m, c, "kind") for c in range(len(m.layout.card_ids)))
    assert kinds == {"cargo": 14, "passenger": 14, "pilot": 6, "action": 15, "artifact": 4, "player": 4,
                     "location": 12}


def test_every_deck_card_carries_a_dogfight_move():
    """Every deck card also carries a dogfight move on its edge: a name, a value 1..13, and 0..2 icons
    (D = damage, W = draw)."""
    m = new()
    for c, cid in enumerate(m.layout.card_ids):
        if prop(m, c, "kind") in DECK_KINDS:
            assert prop(m, c, "move_name") and 1 <= prop(m, c, "move_value") <= 13, cid
            assert 0 <= prop(m, c, "damage_icons") + prop(m, c, "draw_icons") <= 2, cid


def test_twelve_locations_lie_on_a_clock_face():
    """12 Location cards laid out as a clock face (positions 1..12), each with RECEIVING and maybe a Cargo
    Bonus."""
    m = new()
    ring = zone(m, "ring")
    assert sorted(prop(m, c, "slot") for c in ring) == list(range(1, 13))
    assert [prop(m, c, "receiving") for c in sorted(ring, key=lambda c: prop(m, c, "slot"))] == \
        [1, 3, 2, 5, 2, 4, 1, 6, 3, 4, 2, 5]


def test_two_to_four_players_and_two_by_default():
    """2–4 players (default 2)."""
    assert GAME.new_match(None, 0).players == 2
    for n in (1, 5):
        with pytest.raises(ValueError):
            GAME.new_match(n, 0)


def test_tokens_start_at_twelve_and_six_or_at_twelve_three_six_nine():
    """puts their token on position 12, 6 (2 players) or 12, 3, 6, 9 (3–4 players, in seat order)."""
    assert counter(new(2), "spot") == [12, 6]
    assert counter(new(3), "spot") == [12, 3, 6]
    assert counter(new(4), "spot") == [12, 3, 6, 9]


def test_each_player_takes_a_player_card_and_draws_five_and_seat_zero_starts():
    """Shuffle the deck; each player draws 5. Seat 0 starts; play goes clockwise."""
    dealt = set()
    for seed in range(20):
        m = GAME.new_match(4, seed, log=True)
        assert next(s for s in says(m) if s.startswith("Turn")) == "Turn 1: P0" and m.to_act() == [0]
        assert [len(zone(m, f"hand@{p}")) for p in range(1, 4)] == [5, 5, 5]
        assert len(zone(m, "hand@0")) == 6           # and P0 has drawn in step 1
        dealt.add(tuple(zone_cards(m, f"player_card@{p}")[0] for p in range(4)))
    assert len(dealt) > 5, "Player cards are not dealt at random"
    m = GAME.new_match(2, 0, log=True)
    drive(m, stop=lambda m: m.st.turn == 3)
    assert [s for s in says(m) if s.startswith("Turn")] == ["Turn 1: P0", "Turn 2: P1", "Turn 3: P0"]


def table(header: str) -> list[list[str]]:
    """The rows (cells stripped) of the rulebook's Markdown table that starts with `header`."""
    book = RULEBOOKS / "sky-haulers.md"
    if not book.is_file():
        pytest.skip(f"no rulebook at {book}")
    lines = book.read_text(encoding="utf-8").splitlines()
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def parse_move(text: str) -> tuple[str, int, int, int]:
    """"Serpentine 10 D D" -> (name, value, D icons, W icons)."""
    name, value, icons = re.fullmatch(r"(.+?) (\d+)((?: [DW])*)", text).groups()
    return name, int(value), icons.split().count("D"), icons.split().count("W")


def move_of(m, c: int) -> tuple[str, int, int, int]:
    return (prop(m, c, "move_name"), prop(m, c, "move_value"), prop(m, c, "damage_icons"),
            prop(m, c, "draw_icons"))


def bonuses(text: str) -> dict[str, int]:
    """"SHIP +2, PILOT +1" -> {"shipping": 2, "pilot": 1}; "—" -> {}."""
    names = {"SHIP": "shipping", "SHIPPING": "shipping", "RANGE": "range", "PILOT": "pilot"}
    found = re.findall(r"(SHIPPING|SHIP|RANGE|PILOT) ([+−-]\d+)", text)
    return {names[k]: int(v.replace("−", "-")) for k, v in found}


def by_name(m, kind: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for c in range(len(m.layout.card_ids)):
        if prop(m, c, "kind") == kind:
            found.setdefault(prop(m, c, "name"), []).append(c)
    return found


def stats(m, c: int) -> dict[str, int]:
    return {k: prop(m, c, k) for k in ("shipping", "range", "pilot") if prop(m, c, k)}


def test_player_cards_carry_the_stats_and_opening_moves_of_their_table():
    """| player | SHIP | RANGE | PILOT | opening move | die 1 | 2 | 3 | 4 | 5 | 6 |"""
    m = new()
    cards = by_name(m, "player")
    rows = table("| player | SHIP | RANGE | PILOT | opening move | die 1 | 2 | 3 | 4 | 5 | 6 |")
    assert sorted(cards) == sorted(row[0] for row in rows)
    for name, ship, rng, pilot, move, *_ in rows:
        (c,) = cards[name]
        assert [prop(m, c, "shipping"), prop(m, c, "range"), prop(m, c, "pilot")] == [int(ship), int(rng), int(pilot)]
        assert move_of(m, c) == parse_move(move), name


def test_locations_carry_the_receiving_of_their_table():
    """| pos | name | RECEIVING | Cargo Bonus |"""
    m = new()
    cards = by_name(m, "location")
    for pos, name, receiving, bonus in table("| pos | name | RECEIVING | Cargo Bonus |"):
        (c,) = cards[name]
        assert (prop(m, c, "slot"), prop(m, c, "receiving")) == (int(pos), int(receiving)), name
        has_bonus = GAME.model.cards[m.layout.card_def[c]].abilities.get("bonus") is not None
        assert has_bonus == (bonus != "—"), name


def test_passengers_carry_the_bonuses_and_moves_of_their_table():
    """| passenger | bonus | die effects | move |"""
    m = new()
    cards = by_name(m, "passenger")
    rows = table("| passenger | bonus | die effects | move |")
    assert len(rows) == 14 and sorted(cards) == sorted(row[0] for row in rows)
    for name, bonus, _, move in rows:
        (c,) = cards[name]
        assert stats(m, c) == bonuses(bonus), name
        assert move_of(m, c) == parse_move(move), name


def test_pilots_carry_the_pilot_and_opening_moves_of_their_table():
    """| pilot | PILOT | opening move | reward |"""
    m = new()
    cards = by_name(m, "pilot")
    rows = table("| pilot | PILOT | opening move | reward |")
    assert sorted(cards) == sorted(row[0] for row in rows)
    for name, pilot, move, reward in rows:
        (c,) = cards[name]
        assert prop(m, c, "pilot") == int(pilot) and move_of(m, c) == parse_move(move), name
        has_reward = GAME.model.cards[m.layout.card_def[c]].abilities.get("reward") is not None
        assert has_reward == (reward != "—"), name


def test_actions_come_in_the_counts_timings_and_moves_of_their_table():
    """| count | action | when / cost | effect | move |"""
    m = new()
    cards = by_name(m, "action")
    rows = table("| count | action | when / cost | effect | move |")
    assert sorted(cards) == sorted(row[1] for row in rows)
    timing = {"your turn": "turn", "when an opponent": "evade", "in a dogfight": "dogfight"}
    for count, name, when, _, move in rows:
        copies = cards[name]
        assert len(copies) == int(count), name
        for c in copies:
            assert move_of(m, c) == parse_move(move), name
            assert prop(m, c, "once_per_turn") == ("once per turn" in when), name
            (when_played,) = [t for start, t in timing.items() if when.startswith(start)]
            assert prop(m, c, "timing") == when_played, name


def test_artifacts_carry_the_effects_and_moves_of_their_table():
    """| artifact | effect on the owner | move |"""
    m = new()
    cards = by_name(m, "artifact")
    rows = table("| artifact | effect on the owner | move |")
    assert sorted(cards) == sorted(row[0] for row in rows)
    for name, effect, move in rows:
        (c,) = cards[name]
        assert stats(m, c) == bonuses(effect) and move_of(m, c) == parse_move(move), name


def test_cargo_cards_carry_the_moves_of_their_list():
    """Lucky Shot 1 (×2), Jink 2, Swoop 3, Climb 4, Barrel Roll 5, Bank 6, Dive 7 D, Strafe 8 D, Loop 9 D,
    Serpentine 10, Immelmann 11 W, Split-S 12 D, Ace Maneuver 13."""
    m = new()
    listed = test_cargo_cards_carry_the_moves_of_their_list.__doc__.replace("\n", " ")
    want = Counter()
    for item in " ".join(listed.split()).rstrip(".").split(", "):
        item, _, copies = item.partition(" (×")
        want[parse_move(item)] += int(copies.rstrip(")") or 1)
    have = Counter(move_of(m, c) for cs in by_name(m, "cargo").values() for c in cs)
    assert have == want and sum(have.values()) == 14
    assert all(prop(m, c, "lucky") == (prop(m, c, "name") == "Lucky Shot") for cs in by_name(m, "cargo").values()
               for c in cs)


# ---- The turn --------------------------------------------------------------------------------------------


def test_step_one_draws_one_card_then_refills_to_five():
    """Draw. Draw 1 card. Then, while you hold fewer than 5, keep drawing until you hold 5."""
    scenario("step 1 draws one card then refills the hand to five")
    scenario("step 1 draws one card even above five")


def test_step_two_plays_passengers_artifacts_and_actions_in_any_order():
    """Play. In any order, as many times as you like: play a Passenger into your chain; play an Artifact
    into any player's hold; play an Action that says "play on your turn"."""
    m = new(clear={"hand@0": "box"}, chance=[5],     # afterwards Ivo's 5 finds nobody within RANGE
            arrange={"hand@0": ["fidget", "tailwind", "cursed-idol", "big-bo", "swoop"], "deck": ["salvage"]})
    for pick in ("play a card", "big-bo", "play a card", "tailwind", "play a card", "salvage",  # Tailwind back
                 "play a card", "cursed-idol", "P1", "play a card", "tailwind", "play a card", "fidget",
                 "end the play step", "nobody"):
        decide(m, 0, pick)                    # Fidget, the only card left, is asked for all the same
    assert zone_cards(m, "chain@0") == ["big-bo", "fidget"] and zone_cards(m, "hold@1") == ["cursed-idol"]
    assert says(m).count("P0 plays Tailwind") == 2 and "P0 plays Salvage" in says(m)
    assert zone_cards(m, "hand@0") == ["swoop"] and m.to_act() == [1]
    scenario("evasive action and afterburner are not played in step 2")
    holds_everywhere("playable")


def test_at_most_one_dogfight_per_turn_by_pilot_or_by_range():
    """Also, at most one dogfight per turn, started either by playing a Pilot card or by using your
    team's RANGE."""
    scenario("one dogfight per turn whichever way it started")
    scenario("all three attacks blocked and the defender takes a move card")
    scenario("evasive action cancels the dogfight and discards the pilot")
    holds_everywhere("one dogfight")


def test_the_die_is_rolled_once_for_the_player_card_then_the_chain():
    """Roll. Roll the die once. Resolve the row of that number on your Player card, then on each Passenger
    along your chain (rules below)."""
    m = scenario("the seed's Molly example")
    said = says(m)
    assert said.index("P0 flies 1 clockwise to Harbor Town") < said.index("Fidget leaves the chain")
    assert sum(e.get("event") == "roll" for e in m.log) == 1
    holds_everywhere("one roll")


def test_every_player_discards_down_to_seven_of_their_choice():
    """Discard. Every player discards down to 7 cards (each chooses which)."""
    scenario("every player discards down to seven starting with the active player")
    holds_everywhere("seven after step 4")


def test_a_discard_asks_the_player_which_cards_to_discard():
    """Discard. Every player discards down to 7 cards (each chooses which)."""
    m = new(clear={"hand@0": "box"}, chance=[4],
            arrange={"player_card@0": ["molly-quill"], "box": ["ivo-kestrel"],
                     "hand@0": ["swoop", "climb", "bank", "barrel-roll", "strafe", "loop"],
                     "deck": ["lucky-shot#1", "ace-maneuver", "salvage"]})
    decide(m, 0, "end the play step")                            # nothing can be played
    assert m.to_act() == [0] and len(m.action_labels(0)) == 9    # 9 cards: discard 2
    assert m.prompt(0) == "Hand limit: discard down to 7 cards"


def test_the_active_player_with_five_cargo_wins_and_the_game_ends():
    """Then, if you (the player whose turn it is) have 5 or more cargo in your hold, you win and the game
    ends."""
    scenario("the active player with five cargo wins at the end of the turn")
    scenario("five cargo win only at the end of their owner's own turn")
    holds_everywhere("win")


def test_a_passenger_may_still_spoil_a_win():
    """The check comes only after the whole turn, so a Passenger may still spoil a win."""
    scenario("a passenger may still spoil a win")


# ---- Hand limit and cards entering a hand ---------------------------------------------------------------


def test_no_player_ever_holds_more_than_ten_cards():
    """No player ever holds more than 10 cards."""
    holds_everywhere("hand limit")


def test_a_draw_past_ten_draws_only_up_to_ten_from_any_source():
    """A draw that would go past 10 draws only up to 10 — for every draw, from any source (cards, bonuses,
    dogfights)."""
    scenario("no draw takes a hand past ten")                 # a die row
    scenario("dogfight draws stop at ten cards")              # a dogfight
    # a Cargo Bonus: Sky Fortress draws 3 into a hand of 8 (9 with the step-1 draw, 8 after the cargo)
    m = new(clear={"hand@0": "box"}, chance=[1], counters={"spot": [11, 6]},
            arrange={"player_card@0": ["molly-quill"], "box": ["ivo-kestrel"], "chain@0": ["big-bo"],
                     "hand@0": ["swoop", "climb", "bank", "barrel-roll", "strafe", "loop", "split-s", "immelmann"],
                     "deck": ["lucky-shot#1", "lucky-shot#2", "ace-maneuver", "serpentine"]})
    decide(m, 0, "end the play step")
    decide(m, 0, "1")                         # move up to 1: asked all the same
    decide(m, 0, "clockwise")
    decide(m, 0, "swoop")
    assert len(zone(m, "hand@0")) == 10
    assert {"lucky-shot#2", "ace-maneuver"} <= set(zone_cards(m, "hand@0"))
    assert zone_cards(m, "deck")[0] == "serpentine"
    # a card: Second Wind draws 2 into a hand of 9 after it is played
    m = new(clear={"hand@0": "box"}, chance=[5],
            arrange={"hand@0": ["second-wind#1", "swoop", "climb", "bank", "barrel-roll", "strafe", "loop",
                                "split-s", "immelmann"], "deck": ["lucky-shot#1", "lucky-shot#2", "ace-maneuver"]})
    decide(m, 0, "play a card")               # 10 cards; Second Wind leaves 9, its 2 draws give 1
    decide(m, 0, "second-wind#1")             # the only card that can be played: asked all the same
    assert len(zone(m, "hand@0")) == 10 and zone_cards(m, "deck")[0] == "ace-maneuver"


def test_a_card_that_would_enter_a_full_hand_stays_where_it_was():
    """The limit holds for every way a card can enter a hand (taking, stealing, returning, searching): a card
    that would enter a hand of 10 stays where it was"""
    scenario("a card that would enter a full hand stays where it was")          # taking (Lady Fenwick)
    full = ["swoop", "climb", "bank", "barrel-roll", "strafe", "loop", "split-s", "immelmann", "ace-maneuver"]
    # stealing: Ivo's 5 takes nothing into a hand of 10
    m = new(players=3, clear={"hand@0": "box"}, chance=[5, 2], arrange={"hand@0": full, "deck": ["lucky-shot#1"]})
    decide(m, 0, "end the play step")
    assert len(zone(m, "hand@0")) == 10 and "lady-fenwick" in zone_cards(m, "hand@1")
    # searching: Mechanic Rosa's 5 leaves the Cargo card in the deck
    m = new(clear={"hand@0": "box"}, chance=[5],
            arrange={"player_card@0": ["rook-harlan"], "player_card@1": ["ivo-kestrel"],
                     "chain@0": ["mechanic-rosa"], "hand@0": full[:-1], "deck": ["lucky-shot#1", "tailwind"]})
    decide(m, 0, "end the play step")
    assert len(zone(m, "hand@0")) == 10      # Rook's 5 drew the 10th card; Rosa's search finds no room
    decide(m, 0, "lucky-shot#2")
    assert "lucky-shot#2" in zone_cards(m, "deck") and len(zone(m, "hand@0")) == 10
    # stealing: Sky Pirate's reward takes a card into a hand of 9...
    pirate = {"hand@0": ["sky-pirate", *full[:-1]], "deck": ["lucky-shot#1", "lucky-shot#2", "tailwind"]}
    m = new(clear={"hand@0": "box"}, chance=[1], arrange=pirate)
    decide(m, 0, "play a card")
    decide(m, 0, "sky-pirate")                # 9 cards left
    decide(m, 0, "P1")
    decide(m, 1, "none")                      # the evade window: asked though P1 holds no Evasive Action
    decide(m, 1, "no")
    assert "serpentine" in zone_cards(m, "hand@0") and len(zone(m, "hand@0")) == 10
    # ...but not into a hand of 10: accepted, the PILOT draw fills P0's hand before P1 lets attack 1 through
    m = new(clear={"hand@0": "box"}, chance=[1], arrange=pirate)
    decide(m, 0, "play a card")
    decide(m, 0, "sky-pirate")
    decide(m, 0, "P1")
    decide(m, 1, "none")                      # the evade window
    decide(m, 1, "yes")
    decide(m, 1, "none")
    decide(m, 0, "make them discard a card")  # Loop's D: the only option, asked all the same
    assert m.to_act() == [1] and m.option_ids(1) == zone_cards(m, "hand@1")   # P1 discards
    assert len(zone(m, "hand@0")) == 10 and len(zone(m, "hand@1")) == 5 + 3


def test_a_passenger_evicted_into_a_full_hand_is_discarded():
    """except a Passenger returned by *Eviction*, which is discarded instead."""
    scenario("eviction discards a passenger whose owner's hand is full")
    scenario("eviction costs another card and returns a passenger to its owner's hand")


# ---- Actions --------------------------------------------------------------------------------------------


def test_once_per_turn_cards_and_tailwind_last_one_turn():
    """"once per turn" cards: a player plays at most one of them per turn"""
    scenario("second wind draws 2 and is once per turn with charter flight")
    m = new(clear={"hand@0": "box"}, chance=[5, 5],      # Ivo's 5 and Rook's 5: nobody moves, nobody discards
            arrange={"hand@0": ["second-wind#1", "second-wind#2", "tailwind", "swoop"],
                     "deck": ["lucky-shot#1", "lucky-shot#2", "split-s"]})
    decide(m, 0, "play a card")
    decide(m, 0, "second-wind#1")
    decide(m, 0, "play a card")
    decide(m, 0, "tailwind")                  # only Tailwind now; then nothing: the turn goes on
    decide(m, 0, "end the play step")
    decide(m, 0, "nobody")                    # Ivo's 5: nobody within RANGE
    assert "P0 plays Tailwind" in says(m) and m.to_act() == [1]
    drive(m, lambda m, seat, labels: "end the play step" if "end the play step" in labels else None,
          stop=lambda m: m.st.turn == 3)
    assert counter(m, "tailwind") == [0, 0] and counter(m, "once_used") == [0, 0]
    decide(m, 0, "play a card")
    if "second-wind#2" in m.option_ids(0):
        decide(m, 0, "second-wind#2")
    assert says(m).count("P0 plays Second Wind") == 2


# ---- Effects that cannot be carried out ------------------------------------------------------------------


def test_a_die_bonus_or_reward_that_cannot_be_carried_out_does_nothing():
    """A die, bonus or reward effect that cannot be carried out (no target, nothing to open) does nothing."""
    scenario("dana rolls 4 with no opponent cargo and nothing happens")
    scenario("ivo rolls 5 with nobody within range and takes nothing")
    scenario("air ace's reward does nothing without open cargo")
    scenario("a damage point with no possible option is lost")
    # a bonus: Iron Docks with no opponent cargo anywhere
    m = new(clear={"hand@0": "box"}, chance=[1], counters={"spot": [5, 12]},
            arrange={"player_card@0": ["molly-quill"], "box": ["ivo-kestrel"], "chain@0": ["fidget"],
                     "hand@0": ["swoop", "climb", "bank", "barrel-roll"], "hold@0": ["loop"],
                     "deck": ["lucky-shot#1"]})
    decide(m, 0, "end the play step")
    decide(m, 0, "1")
    decide(m, 0, "clockwise")
    decide(m, 0, "swoop")
    decide(m, 0, "none")                      # no opponent cargo to open: asked, with nothing to choose
    assert m.to_act() == [1] and not any(m.st.face[c] for c in zone(m, "hold@0"))


def test_a_card_whose_effect_cannot_be_carried_out_cannot_be_played():
    """A card from hand whose effect cannot be carried out cannot be played."""
    for name in ("peek inside cannot be played without face-down cargo",
                 "double check cannot be played where shipping is too low",
                 "eviction cannot be played without another card or a passenger",
                 "salvage cannot be played on an empty discard pile",
                 "second wind cannot be played with nothing left to draw"):
        scenario(name)
    holds_everywhere("playable")


# ---- Deck ---------------------------------------------------------------------------------------------------


def test_an_empty_deck_is_refilled_from_the_discard_pile():
    """When a draw finds the deck empty, shuffle the discard pile into a new deck;"""
    m = scenario("an empty deck is refilled by shuffling the discard pile")
    assert any(e.get("event") == "shuffle" and e["zone"] == "deck" for e in m.log[-40:])


def test_a_draw_stops_when_deck_and_discard_are_both_empty():
    """if both are empty, the draw stops."""
    scenario("a draw stops when deck and discard pile are both empty")


def test_searching_the_deck_ends_with_a_shuffle():
    """Searching the deck ends with a shuffle."""
    m = scenario("mechanic rosa searches the deck for a cargo card on a 5")
    events = [e for e in m.log if e.get("type") == "event"]
    taken = max(i for i, e in enumerate(events) if e["event"] == "move" and e["card"] == "ace-maneuver")
    assert events[taken]["from"] == "deck" and events[taken]["to"] == "hand@0"
    assert any(e["event"] == "shuffle" and e["zone"] == "deck" for e in events[taken:])
    # the searcher looked at the Cargo cards of the deck to choose; the shuffle hides the deck again
    assert not any(m.st.known[c] for c in zone(m, "deck"))


# ---- Game length --------------------------------------------------------------------------------------------


def test_after_round_one_hundred_the_most_cargo_wins_and_ties_share():
    """If nobody has won by the end of round 100, the player with the most cargo wins (ties: shared win)."""

    def cargo_only_for(limits: list[int]):
        """Never play a card in step 2; play real Cargo cards as cargo until the hold has `limits[seat]`."""
        def choose(m, seat, labels):
            if "end the play step" in labels:
                return "end the play step"
            if labels[0] == "none":
                cargo = [x for x in labels[1:] if prop(m, card(m, x), "kind") == "cargo"]
                return cargo[0] if cargo and len(zone(m, f"hold@{seat}")) < limits[seat] else "none"
            return None
        return choose

    m = new(3, seed=5)
    drive(m, cargo_only_for([2, 3, 1]))
    assert m.st.round == 100 and m.st.turn == 300
    assert [len(zone(m, f"hold@{p}")) for p in range(3)] == [2, 3, 1] and m.winners == [1]
    assert not any(SAY_WIN.match(s) for s in says(m))
    m = new(3, seed=5)
    drive(m, cargo_only_for([2, 0, 2]))
    assert m.winners == [0, 2] and m.scores == [2, 0, 2]


def test_every_simulated_game_ends_by_round_one_hundred():
    """This bounds every simulated game."""
    holds_everywhere("game length")


# ---- Team stats -------------------------------------------------------------------------------------------


def test_team_stats_sum_player_card_passengers_artifacts_and_turn_modifiers():
    """Your SHIPPING, RANGE and PILOT are your Player card's value plus every Passenger's bonus in your
    chain, plus Artifact and until-end-of-turn modifiers; a total is never below 0."""
    # SHIPPING 3 (Molly) + 2 (Big Bo) - 2 (Cursed Idol) + 2 (Tailwind) = 5: Double Check at Sunspire
    m = new(clear={"hand@0": "box"}, counters={"spot": [4, 6]},
            arrange={"player_card@0": ["molly-quill"], "box": ["ivo-kestrel"], "chain@0": ["big-bo"],
                     "hold@0": ["cursed-idol"], "hand@0": ["tailwind", "double-check", "swoop", "climb"],
                     "deck": ["lucky-shot#1"]})
    assert team(m, 0, "shipping") == 3
    decide(m, 0, "play a card")
    decide(m, 0, "tailwind")                  # only Tailwind can be played
    assert "P0 plays Tailwind" in says(m) and team(m, 0, "shipping") == 5
    decide(m, 0, "play a card")
    decide(m, 0, "double-check")              # now Double Check
    decide(m, 0, "swoop")
    assert "P0 plays a cargo at Sunspire" in says(m)
    # RANGE 1 (Molly) + 1 (Ace Wingman) + 2 (Golden Compass) = 4 reaches 4 steps; PILOT 2 + 3 draws 5
    m = new(clear={"hand@0": "box"}, counters={"spot": [12, 8]},
            arrange={"player_card@0": ["molly-quill"], "box": ["ivo-kestrel"], "chain@0": ["ace-wingman"],
                     "hold@0": ["golden-compass"], "hand@0": ["fidget", "swoop", "climb", "bank"],
                     "deck": ["lucky-shot#1"]})
    decide(m, 0, "play a card")
    decide(m, 0, "fidget")                    # Fidget (RANGE +0): 4 cards left
    assert m.action_labels(0) == ["start a dogfight", "end the play step"]
    decide(m, 0, "start a dogfight")
    decide(m, 0, "P1")                        # the only opponent within RANGE: asked all the same
    decide(m, 1, "none")                      # the evade window
    decide(m, 1, "yes")
    assert len(zone(m, "hand@0")) == 4 + 5


def test_a_team_total_is_never_below_zero_and_counts_every_modifier_first():
    """a total is never below 0."""
    # Dana 1 - 1 (Stowaway) - 2 (Cursed Idol) + 2 (Tailwind) = 0: the total, not a floored sum plus 2
    m = new(clear={"hand@0": "box"}, counters={"spot": [1, 6]}, chance=[1],
            arrange={"player_card@0": ["dana-vale"], "box": ["ivo-kestrel"], "chain@0": ["stowaway"],
                     "hold@0": ["cursed-idol"], "hand@0": ["tailwind", "double-check", "swoop", "climb"],
                     "deck": ["lucky-shot#1"]})
    decide(m, 0, "play a card")
    decide(m, 0, "tailwind")                  # the only card that can be played
    decide(m, 0, "end the play step")
    # SHIPPING 0 < RECEIVING 1 at Harbor Town: Double Check is not offered and the turn goes on to the die
    assert "P0 plays Double Check" not in says(m) and "P0 rolls 1" in says(m) and m.to_act() == [1]


def test_the_seed_example_two_shipping_plus_four_makes_six():
    """(Seed example: Player SHIPPING 2 + Passenger +4 = 6.)"""
    # No Passenger gives +4: Quartermaster Pell (+3) and Fidget (+1) do, with Rook's 2, at Storm Peak (6).
    m = new(clear={"hand@0": "box"}, counters={"spot": [7, 12]}, chance=[1],
            arrange={"player_card@0": ["rook-harlan"], "player_card@1": ["ivo-kestrel"],
                     "chain@0": ["quartermaster-pell", "fidget"], "hand@0": ["swoop", "climb", "bank"],
                     "deck": ["lucky-shot#1", "lucky-shot#2", "split-s"]})
    decide(m, 0, "end the play step")
    decide(m, 0, "1")
    decide(m, 0, "clockwise")
    decide(m, 0, "swoop")
    assert team(m, 0, "shipping") == 6 and "P0 plays a cargo at Storm Peak" in says(m)


# ---- Moving and playing cargo ---------------------------------------------------------------------------


def test_move_up_to_x_offers_one_to_x_steps_either_way_never_zero():
    """"Move up to X" moves your token 1..X steps around the ring, in either direction (never 0 steps)."""
    scenario("moving never offers zero steps")
    scenario("rook rolls 6 and may move anything from 1 to 6 steps either way")
    scenario("ivo rolls 1 and moves one step then plays cargo")
    holds_everywhere("zero moves")


def test_several_tokens_may_share_a_location():
    """Several tokens may share a Location."""
    scenario("iron docks' bonus opens an opponent's cargo")


def test_cargo_is_played_only_when_an_effect_says_so():
    """"Play cargo" happens only when an effect says so."""
    holds_everywhere("playable")              # a Cargo card is never offered as a card to play
    holds_everywhere("cargo stays")           # and a hold loses cards only to the discard pile


def test_cargo_only_where_shipping_reaches_receiving():
    """It is allowed only if your SHIPPING ≥ the RECEIVING of your current Location."""
    scenario("sunspire takes no cargo below shipping five")
    scenario("cargo cat's cargo needs the shipping too")
    scenario("double check cannot be played where shipping is too low")
    holds_everywhere("shipping")


def test_any_card_may_be_played_face_down_as_cargo():
    """If allowed you may play any card from hand face down into your hold (a bluff is fine)."""
    scenario("any card may be played as cargo as a bluff")
    scenario("choosing no cargo gives no cargo bonus")


def test_the_cargo_bonus_resolves_at_once_before_the_rest_of_the_die_effects():
    """Then the Location's Cargo Bonus, if any, resolves at once — before the rest of the die effects."""
    scenario("a cargo bonus resolves before the passengers' die effects")


def test_cargo_keeps_its_order_and_the_row_closes_up():
    """Cargo on the table is not reordered or moved unless an effect says so; when one leaves the middle of
    the row, the row closes up."""
    m = new(clear={"hand@0": "box"}, chance=[4],
            arrange={"player_card@0": ["dana-vale"], "box": ["ivo-kestrel"], "hand@0": ["swoop", "climb", "bank"],
                     "hold@1": ["strafe", "fidget", "loop"], "deck": ["lucky-shot#1", "lucky-shot#2"]})
    decide(m, 0, "end the play step")
    decide(m, 0, "fidget")                    # Dana's 4 opens the middle one: a bluff
    assert zone_cards(m, "hold@1") == ["strafe", "loop"]
    holds_everywhere("cargo order")


def test_a_player_may_always_look_at_their_own_face_down_cargo():
    """You may always look at your own face-down cargo."""
    scenario("any card may be played as cargo as a bluff")
    holds_everywhere("own cargo")


# ---- The passenger chain -----------------------------------------------------------------------------------


def test_a_chain_holds_at_most_four_passengers():
    """At most 4 Passengers [completion]; playing a fifth makes you discard one of the five (your choice) at
    once."""
    scenario("a fifth passenger makes its owner drop one of the five at once")
    holds_everywhere("chain limit")


def test_passengers_are_visited_in_the_chains_current_order_each_once():
    """When the die is rolled, after your Player card, visit the Passengers in chain order, each once:
    always take the first Passenger in the chain's *current* order that has not yet been visited this roll."""
    scenario("the seed's Molly example")
    scenario("a passenger moved to the last position does not act again")
    # Chatterbox moved to the front on a 3 is not visited again (it would then move itself again, no
    # harm) and Rumpus behind it acts exactly once: every player draws 1 card, not 2
    m = new(clear={"hand@0": "box"}, chance=[3],
            arrange={"player_card@0": ["molly-quill"], "box": ["ivo-kestrel"], "chain@0": ["rumpus", "chatterbox"],
                     "hand@0": ["swoop", "climb", "bank", "barrel-roll"], "deck": ["lucky-shot#1"]})
    decide(m, 0, "end the play step")
    decide(m, 0, "1")
    decide(m, 0, "clockwise")
    decide(m, 0, "none")
    assert zone_cards(m, "chain@0") == ["chatterbox", "rumpus"]
    assert len(zone(m, "hand@0")) == 6 and len(zone(m, "hand@1")) == 7   # 5 + Rumpus + P1's step 1


def test_a_passenger_that_discards_itself_leaves_when_reached():
    """"Discard this Passenger" discards it when it is reached, not earlier or later; the rest close up."""
    scenario("mechanic rosa's shipping counts until she leaves when reached")
    scenario("fidget leaves the chain on a 3")


def test_a_passenger_moved_first_or_last_moves_at_once_and_does_not_act_again():
    """"Move this Passenger to the first / last position" moves it at once; because it has now been visited,
    it does not act again when reached later."""
    scenario("a passenger moved to the last position does not act again")
    scenario("chatterbox moves itself to the last position on a 5")


def test_the_seeds_molly_example():
    """This example must be a test."""
    m = scenario("the seed's Molly example")
    assert zone_cards(m, "chain@0") == ["chatterbox", "big-bo", "rumpus"]


# ---- Opening and damaging cargo ---------------------------------------------------------------------------


def test_opening_turns_cargo_face_up_and_real_cargo_stays_open():
    """A Cargo card or an Artifact stays in the hold face up as *open cargo* (it still counts toward 5)."""
    scenario("dana rolls 4 and opens an opponent's real cargo which stays open in the hold")
    scenario("an opened artifact stays as open cargo and keeps acting")
    # open cargo counts toward the win
    m = new(clear={"hand@0": "box"}, chance=[1],
            arrange={"player_card@0": ["molly-quill"], "box": ["ivo-kestrel"],
                     "hand@0": ["peek-inside#1", "swoop", "climb", "bank"],
                     "hold@0": ["strafe", "loop", "split-s", "immelmann"], "deck": ["lucky-shot#1"]})
    decide(m, 0, "play a card")
    decide(m, 0, "peek-inside#1")            # the only card to play: asked all the same
    decide(m, 0, "strafe")                    # opened: real, it stays open in the hold
    decide(m, 0, "end the play step")
    decide(m, 0, "1")
    decide(m, 0, "clockwise")                 # nothing more to play: the die shows 1, to Harbor Town
    decide(m, 0, "swoop")
    assert m.over and m.winners == [0] and m.st.face[card(m, "strafe")]


def test_an_opened_bluff_is_discarded():
    """Anything else was a bluff and is discarded."""
    scenario("dana rolls 4 and opens an opponent's cargo which is a bluff")
    scenario("hired gun's reward opens one of the defender's cargo")


def test_open_n_cargo_targets_anyone_and_needs_n_face_down_cargo():
    """"Open N cargo" may target anyone's face-down cargo, your own included; it must be your own when nobody
    else has any; it cannot be played when fewer than N face-down cargo exist in total."""
    scenario("peek inside opens any face-down cargo including your own")
    scenario("peek inside opens your own cargo when nobody else has any")
    scenario("peek inside cannot be played without face-down cargo")


def test_open_an_opponents_cargo_targets_opponents_only():
    """"Open an opponent's cargo" targets opponents only."""
    scenario("dana rolls 4 and opens an opponent's cargo which is a bluff")
    scenario("dana rolls 4 with no opponent cargo and nothing happens")


def test_only_a_dogfight_damages_cargo():
    """Only a dogfight damages cargo (below)."""
    scenario("damage is dealt one point at a time and only possible options are offered")
    scenario("air ace's reward discards one of the defender's open cargo")
    holds_everywhere("damage")                # open cargo is shot down only between a dogfight and the roll
    holds_everywhere("cargo stays")           # a hold loses only opened bluffs, shot-down and thrown cargo


# ---- Rules that tests must pin down -------------------------------------------------------------------------


def test_pin_the_seeds_molly_example():
    """The seed's Molly example (above), exactly."""
    m = scenario("the seed's Molly example")
    assert zone_cards(m, "chain@0") == ["chatterbox", "big-bo", "rumpus"]
    assert zone_cards(m, "pile") == ["fidget"]


def test_pin_hands_never_pass_ten_and_are_at_most_seven_after_step_four():
    """No hand ever exceeds 10, whatever draws; after step 4 every hand is ≤ 7."""
    holds_everywhere("hand limit")
    holds_everywhere("seven after step 4")


def test_pin_every_deck_card_is_in_exactly_one_place_and_player_and_location_cards_never_move():
    """Card conservation: the 53 deck cards are always in exactly one of deck, discard, a hand, a chain, a
    hold, the table (dogfight); Player and Location cards never move."""
    holds_everywhere("conservation")
    holds_everywhere("fixed cards")


def test_pin_cargo_needs_shipping_and_a_move_is_never_zero_steps():
    """Cargo can be played only where SHIPPING ≥ RECEIVING; a move of 0 steps is never legal."""
    holds_everywhere("shipping")
    holds_everywhere("zero moves")


def test_pin_one_dogfight_per_turn_and_four_passengers_per_chain():
    """At most one dogfight per turn; at most 4 Passengers in a chain."""
    holds_everywhere("one dogfight")
    holds_everywhere("chain limit")


def test_pin_the_win_is_checked_only_at_the_end_of_the_active_players_turn():
    """The win is checked only at the end of the active player's turn."""
    scenario("five cargo win only at the end of their owner's own turn")
    scenario("a passenger may still spoil a win")
    holds_everywhere("win")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_property_holds_over_many_random_matches(players):
    """Every property of `RandomPlay`, over many more random matches."""
    run = RandomPlay(players, range(SEEDS, SEEDS + SLOW_SEEDS))
    assert not run.broken, "\n".join(line for lines in run.broken.values() for line in lines)
