"""Rules scenarios as data: every file in tests/scenarios/<game>/*.yaml is a list of scenarios, one runner.

A scenario file is a YAML list; each scenario reads:

    - name: equal is not overloaded                  # unique within its game
      rule: "\"equal\" is not overloaded."           # the rulebook sentence it pins, quoted exactly
      players: 3                                     # default: the game's default
      seed: 1                                        # default: 0
      clear: [hand@0]                                # optional: zones emptied into `box` after set-up
      arrange: {deck: [standard-donkey#1]}           # optional: cards put on top of zones after set-up
      counters: {spot: [4, 6]}                       # optional: counters set after set-up (as in expect)
      chance: [3, 1]                                 # optional: the next chance outcomes after set-up
      decisions:                                     # in order; each picks one option by its LABEL
        - {who: 0, pick: cargo-5@0}
        - {who: [1, 2], pick: [cargo-5@1, cargo-5@2]}    # shorthand: seat 1 picks the first, seat 2 the second
        - expect: {to_act: [0]}                      # an expect block may also sit between decisions
      expect:                                        # checked after the decisions (the match may still run)
        zones: {pile@0: [cargo-5@0]}                 # exact card lists of zone instances, top first
        holds: {discard: [cargo-2@1, cargo-3@2]}     # the same cards in any order
        sizes: {pile@1: 1}                           # card counts of zone instances (for random outcomes)
        counters: {bonus: [0, 0, 5], capacity: 15}   # player counters as lists, game counters as ints
        say: ["Not overloaded"]                      # each must be a substring of some `say` sentence
        not_say: ["Overloaded!"]                     # none may be a substring of any `say` sentence
        to_act: [1]                                  # the seats that must act now
        options: {0: [accept, refuse]}               # exact legal option labels of a seat now
        invalid: {who: 0, action: 99, code: INVALID_MOVE}   # apply must return an Invalid (code optional)
        over: false                                  # whether the match has ended
        winners: [0]                                 # only once the match is over
        scores: [12, 5, 7]                           # only once the match is over
        face_up: [strafe]                            # cards lying face up (wherever they are)
        face_down: [dive]                            # cards lying face down
        sees: {1: [dive]}                            # cards a seat can see where they lie now
        unseen: {0: [dive]}                          # cards a seat cannot see where they lie now

The game's folder is the scenario folder's name (tests/scenarios/<game>/). `clear`, `arrange`, `counters`
and `chance` apply in that order right after the set-up phase, before the first round (counters that reset
each turn are reset again when the turn starts). `chance` scripts chance the way decisions script players:
each entry is the outcome of the next chance event, counted from 1 — a die shows that number, a random pick
takes the card at that position of its zone (top first); an event with one possible outcome takes none.
Once the script runs out, the seed's RNG goes on. Every entry must be used by the end of the decisions.

A failing scenario names its rule and prints the decisions made and the game's `say` sentences.
Other test modules run a single scenario by name with `run_scenario("overloaded", name)`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter import Invalid, load_game
from interpreter.run.match import Match
from interpreter.run.runtime import move, seen_by

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
RULEBOOKS = Path("/work/shared/games")  # the rulebooks, <game>.md, outside the repo: skipped if absent
EXPECT_KEYS = {"zones", "holds", "sizes", "counters", "say", "not_say", "to_act", "options", "invalid", "over",
               "winners", "scores", "face_up", "face_down", "sees", "unseen"}
SCENARIO_KEYS = {"name", "rule", "players", "seed", "clear", "arrange", "counters", "chance", "decisions",
                 "expect"}
_games: dict[str, Any] = {}


def game_of(name: str):
    """A bundled game, compiled once per test session."""
    if name not in _games:
        _games[name] = load_game(name)
    return _games[name]


def load_scenarios() -> list[tuple[str, str, dict]]:
    """(game, file stem, scenario) for every scenario file, in a stable order."""
    found = []
    for path in sorted(SCENARIOS.glob("*/*.yaml")):
        for sc in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            found.append((path.parent.name, path.stem, sc))
    return found


ALL = load_scenarios()


class ScriptedChance(random.Random):
    """The match's RNG with its next outcomes scripted (1-based); then it goes on as the seed's RNG would."""

    def __init__(self, rng: random.Random, script: list[int]) -> None:
        super().__init__()
        self.setstate(rng.getstate())
        self.script = list(script)

    def _randbelow(self, n: int) -> int:
        if not self.script:
            return super()._randbelow(n)
        outcome = self.script.pop(0)
        assert 1 <= outcome <= n, f"scripted chance outcome {outcome} is not one of 1..{n}"
        return outcome - 1


class ScenarioMatch(Match):
    """A match whose set-up a scenario finishes: `clear`, `arrange`, `counters`, `chance` (see above).

    They run in the engine's after-set-up hook, so turn 1 already sees them."""

    def __init__(self, game, players: int, seed: int, sc: dict) -> None:
        self.scenario = sc
        super().__init__(game, players, seed, log=True, after_setup=ScenarioMatch.finish_setup)

    def finish_setup(self) -> None:
        sc, st, t = self.scenario, self.st, self.layout
        box = t.zone_names.index("box") if "box" in t.zone_names else None
        for zone in sc.get("clear") or []:
            assert zone in t.zone_names and box is not None, f"cannot clear {zone!r} into a box"
            for c in list(st.zones[t.zone_names.index(zone)]):
                move(st, c, box, 0, -1)
        if sc.get("arrange"):
            self.arrange(sc["arrange"])
        game_counters, player_counters = self.game.counter_names
        for name, value in (sc.get("counters") or {}).items():
            if isinstance(value, list):
                (i,) = [i for i, n in player_counters if n == name] or [None]
                assert i is not None and len(value) == st.n, f"no player counter {name!r} for {st.n} seats"
                st.pc[i] = list(value)
            else:
                (i,) = [i for i, n in game_counters if n == name] or [None]
                assert i is not None, f"no game counter {name!r}"
                st.gc[i] = value
        if sc.get("chance"):
            st.rng = ScriptedChance(st.rng, sc["chance"])


def says(m) -> list[str]:
    """The game's own sentences so far (`say` events of the match log)."""
    return [e["text"] for e in m.log if e.get("type") == "event" and e.get("event") == "say"]


class ScenarioFailure(AssertionError):
    """A scenario expectation that does not hold, told with the match's story so far."""


def story(m, made: list[str]) -> str:
    lines = ["decisions made:"] + ([f"  {d}" for d in made] or ["  (none)"])
    lines += ["say log:"] + [f"  {s}" for s in says(m)]
    lines += [f"now: round {m.st.round}, to act {m.to_act()}"]
    lines += [f"  seat {s}: {m.prompt(s)!r} {m.action_labels(s)}" for s in m.to_act()]
    return "\n".join(lines)


def decide(m, who: int, label: str) -> None:
    """Let seat `who` pick the option labelled `label` (as the seat sees it, or by card id); fail with
    the labels on offer if it is absent."""
    labels = m.action_labels(who)
    if label not in labels:
        labels = m.option_ids(who)
    if label not in labels:
        raise AssertionError(f"seat {who} cannot pick {label!r}: to act {m.to_act()}, "
                             f"seat {who} is asked {m.prompt(who)!r} with options {labels}")
    problem = m.apply(who, labels.index(label))
    assert problem is None, f"seat {who} picking {label!r} was refused: {problem}"


def zone_cards(m, zone: str) -> list[str]:
    """The card ids of a zone instance (`table`, `hand@2`), top first."""
    t = m.layout
    if zone not in t.zone_names:
        raise AssertionError(f"no zone {zone!r}; zones: {', '.join(t.zone_names)}")
    return [t.card_ids[c] for c in m.st.zones[t.zone_names.index(zone)]]


def counter(m, name: str) -> int | list[int]:
    """A game counter as an int, or a player counter as a list by seat."""
    game_counters, player_counters = m.game.counter_names
    for i, n in game_counters:
        if n == name:
            return m.st.gc[i]
    for i, n in player_counters:
        if n == name:
            return list(m.st.pc[i])
    known = [n for _, n in game_counters] + [n for _, n in player_counters]
    raise AssertionError(f"no counter {name!r}; counters: {', '.join(known)}")


def check(m, expect: dict) -> list[str]:
    """Every expectation of an `expect` block that fails, as readable lines (empty: all hold)."""
    unknown = set(expect) - EXPECT_KEYS
    assert not unknown, f"unknown expect keys {sorted(unknown)}; known: {sorted(EXPECT_KEYS)}"
    bad: list[str] = []
    for zone, want in (expect.get("zones") or {}).items():
        have = zone_cards(m, zone)
        if have != list(want):
            bad.append(f"zone {zone}: expected {want}, have {have}")
    for zone, want in (expect.get("holds") or {}).items():
        have = zone_cards(m, zone)
        if sorted(have) != sorted(want):
            bad.append(f"zone {zone}: expected the cards {sorted(want)} in any order, have {have}")
    for zone, want in (expect.get("sizes") or {}).items():
        have = zone_cards(m, zone)
        if len(have) != want:
            bad.append(f"zone {zone}: expected {want} cards, have {len(have)}: {have}")
    for name, want in (expect.get("counters") or {}).items():
        have = counter(m, name)
        if have != want:
            bad.append(f"counter {name}: expected {want}, have {have}")
    sentences = says(m)
    for text in expect.get("say") or []:
        if not any(text in s for s in sentences):
            bad.append(f"no say sentence contains {text!r}")
    for text in expect.get("not_say") or []:
        hits = [s for s in sentences if text in s]
        if hits:
            bad.append(f"say sentences contain {text!r}: {hits}")
    if "to_act" in expect and m.to_act() != list(expect["to_act"]):
        bad.append(f"to act: expected {expect['to_act']}, have {m.to_act()}")
    for seat, want in (expect.get("options") or {}).items():
        have = m.action_labels(int(seat))
        if have != [str(x) for x in want]:
            bad.append(f"options of seat {seat}: expected {want}, have {have}")
    if "invalid" in expect:
        inv = expect["invalid"]
        before = (m.to_act(), [list(z) for z in m.st.zones], len(m.history))
        result = m.apply(inv["who"], inv["action"])
        if not isinstance(result, Invalid):
            bad.append(f"seat {inv['who']} action {inv['action']!r}: expected an Invalid value, got {result!r}")
        elif "code" in inv and result.code != inv["code"]:
            bad.append(f"seat {inv['who']} action {inv['action']!r}: expected code {inv['code']}, "
                       f"got {result.code} ({result.reason})")
        if (m.to_act(), [list(z) for z in m.st.zones], len(m.history)) != before:
            bad.append("an invalid action changed the match")
    ids = {cid: c for c, cid in enumerate(m.layout.card_ids)}
    for key, up in (("face_up", True), ("face_down", False)):
        for cid in expect.get(key) or []:
            if m.st.face[ids[cid]] != up:
                bad.append(f"{cid} lies face {'down' if up else 'up'}, expected face {'up' if up else 'down'}")
    for key, seen in (("sees", True), ("unseen", False)):
        for seat, cards in (expect.get(key) or {}).items():
            mask = 1 << int(seat)
            for cid in cards:
                if bool(seen_by(m.st, ids[cid]) & mask) != seen:
                    bad.append(f"seat {seat} {'cannot' if seen else 'can'} see {cid}")
    if "over" in expect and m.over != expect["over"]:
        bad.append(f"match over: expected {expect['over']}, have {m.over}")
    for key in ("winners", "scores"):
        if key in expect:
            if not m.over:
                bad.append(f"{key}: the match is not over")
            elif getattr(m, key) != expect[key]:
                bad.append(f"{key}: expected {expect[key]}, have {getattr(m, key)}")
    return bad


def run(game: str, sc: dict):
    """Play one scenario and check its expectations; returns the match for further checks."""
    unknown = set(sc) - SCENARIO_KEYS
    assert not unknown, f"scenario {sc.get('name')!r}: unknown keys {sorted(unknown)}"
    g = game_of(game)
    m = ScenarioMatch(g, sc.get("players") or g.default_players, sc.get("seed", 0), sc)
    made: list[str] = []

    def fail(problems: list[str], where: str) -> None:
        raise ScenarioFailure(f"scenario {sc['name']!r} ({where})\nrule: {sc.get('rule')}\n"
                              + "\n".join(problems) + "\n" + story(m, made))

    def verify(expect: dict, where: str) -> None:
        try:
            problems = check(m, expect)
        except AssertionError as err:
            problems = [str(err)]
        if problems:
            fail(problems, where)

    for step in sc.get("decisions") or []:
        if "expect" in step:
            verify(step["expect"], f"after {len(made)} decisions")
            continue
        seats, labels = step["who"], step["pick"]
        if not isinstance(seats, list):
            seats, labels = [seats], [labels]
        assert len(seats) == len(labels), f"scenario {sc['name']!r}: {step} pairs seats and picks unevenly"
        for who, label in zip(seats, labels, strict=True):
            try:
                decide(m, who, str(label))
            except AssertionError as err:
                fail([str(err)], f"decision {len(made) + 1}")
            made.append(f"P{who}: {label}")
    verify(sc.get("expect") or {}, "final expect")
    script = getattr(m.st.rng, "script", None)
    if script:
        fail([f"scripted chance outcomes {script} were never used"], "end")
    return m


def run_scenario(game: str, name: str):
    """Run the scenario called `name` of a game (for tests that pin a rule with a scenario)."""
    for g, _, sc in ALL:
        if g == game and sc["name"] == name:
            return run(game, sc)
    raise AssertionError(f"no {game} scenario named {name!r}")


def scenario(game: str, name: str) -> dict:
    """The data of one named scenario."""
    for g, _, sc in ALL:
        if g == game and sc["name"] == name:
            return sc
    raise AssertionError(f"no {game} scenario named {name!r}")


def plain(text: str) -> str:
    """Rulebook text without Markdown emphasis and with single spaces, for quoting sentences."""
    return " ".join(text.replace("**", "").split())


def test_scenario_names_are_unique_and_every_scenario_quotes_a_rule():
    seen: set[tuple[str, str]] = set()
    for game, stem, sc in ALL:
        key = (game, sc["name"])
        assert key not in seen, f"{game}/{stem}: scenario name {sc['name']!r} is used twice"
        seen.add(key)
        assert sc.get("rule"), f"{game}/{stem}: scenario {sc['name']!r} quotes no rule"


def test_every_quoted_rule_is_in_the_rulebook():
    for game, stem, sc in ALL:
        book = RULEBOOKS / f"{game}.md"
        if not book.is_file():
            pytest.skip(f"no rulebook at {book}")
        text = plain(book.read_text(encoding="utf-8"))
        quote = plain(sc["rule"])
        assert quote in text, f"{game}/{stem}: scenario {sc['name']!r} quotes {quote!r}, not in {book.name}"


@pytest.mark.parametrize("game, stem, sc", ALL, ids=[f"{g}/{s}: {sc['name']}" for g, s, sc in ALL])
def test_scenario(game, stem, sc):
    run(game, sc)
