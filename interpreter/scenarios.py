"""Rule scenarios as data: GAME/scenarios/*.yaml, checked like content and run by one runner.

A scenario file is a list of scenarios (schema: schemas/scenario.schema.json); each reads:

    - name: a tie is not a win                       # unique within its game
      rule: "A tie is not a win."                    # the rulebook sentence it pins, quoted exactly
      players: 3                                     # default: the game's default
      seed: 1                                        # default: 0
      clear: {hand@0: box}                           # optional: zones emptied into others after set-up
      arrange: {deck: [gem#2]}                       # optional: cards put on top of zones after set-up
      counters: {coins: [4, 6, 0]}                   # optional: counters set after set-up (as in expect)
      chance: [3, 1]                                 # optional: the next chance outcomes after set-up
      decisions:                                     # in order; each picks one option by its LABEL
        - {who: 0, pick: gem#1}
        - {who: [1, 2], pick: [pass, "yes"]}         # seat 1 picks the first, then seat 2 the second
        - expect: {to_act: [0]}                      # an expect block may also sit between decisions
      expect:                                        # checked after the decisions (the match may go on)
        zones: {table: [gem#1]}                      # exact card lists of zone instances, top first
        holds: {hand@1: [gem#3, coin@1]}             # the same cards in any order
        sizes: {deck: 12}                            # card counts of zone instances (for random outcomes)
        counters: {coins: [4, 6, 1], pot: 15}        # player counters as lists, game counters as ints
        say: ["Nobody wins"]                         # each must be a substring of some `say` sentence
        not_say: ["wins the round"]                  # none may be a substring of any `say` sentence
        to_act: [1]                                  # the seats that must act now
        options: {0: [accept, refuse]}               # exact legal option labels of a seat now
        invalid: {who: 0, action: 99, code: INVALID_MOVE}   # apply must return an Invalid (code optional)
        over: false                                  # whether the match has ended
        winners: [0]                                 # only once the match is over
        scores: [12, 5, 7]                           # only once the match is over
        face_up: [gem#1]                             # cards lying face up (wherever they are)
        face_down: [gem#2]                           # cards lying face down
        sees: {1: [gem#2]}                           # cards a seat can see where they lie now
        unseen: {0: [gem#2]}                         # cards a seat cannot see where they lie now

`clear`, `arrange`, `counters` and `chance` apply in that order right after the set-up phases, before the
first round (counters that reset each turn are reset again when the turn starts). `chance` scripts chance
the way decisions script players: each entry is the outcome of the next chance event, counted from 1 — a
die shows that number, a random pick takes the card at that position of its zone (top first); an event
with one possible outcome takes none. Once the script runs out, the seed's RNG goes on. Every entry must
be used by the end of the decisions.

A scenario file must lie inside its game folder once symbolic links are followed (as card files must).
A file that breaks the schema, names a zone, card, counter or seat the game lacks or gives a counter a
value it cannot hold (a text for a number, a seat the match lacks) is an AuthoringError (`file:line:col`);
a scenario whose expectations do not hold raises ScenarioFailure (an AssertionError) naming the rule, the
`file:line` of what differed, the decisions made and the game's `say` sentences.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .diagnostics import AuthoringError, Diagnostic, Pos, did_you_mean, remember_source
from .limits import MAX_NUMBER
from .load.loader import SCENARIO_FOLDER, inside
from .load.model import CounterDef
from .load.schema import validate
from .load.source import SourceMap, load_yaml
from .run.match import Invalid, Match
from .run.runtime import RuleError, move, seen_by

DataPath = tuple[str | int, ...]
FOLDER = SCENARIO_FOLDER


@dataclass
class Scenario:
    """One scenario of a file, with the game it plays and the source map of its file."""

    game: Any
    data: dict
    index: int
    smap: SourceMap

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def rule(self) -> str:
        return self.data["rule"]

    @property
    def file(self) -> str:
        return self.smap.file

    @property
    def players(self) -> int:
        return self.data.get("players") or self.game.default_players

    @property
    def id(self) -> str:
        """`file stem: name`, e.g. for a test id."""
        return f"{Path(self.file).stem}: {self.name}"

    def pos(self, *path: str | int) -> Pos:
        """Where the value at `path` inside this scenario is written."""
        return self.smap.pos((self.index, *path))


class ScenarioFailure(AssertionError):
    """A scenario whose expectations do not hold, told with where, what differed and the match so far."""

    def __init__(self, scenario: Scenario, problems: list[tuple[Pos, str]], story: str) -> None:
        self.scenario, self.problems, self.story = scenario, problems, story
        lines = [f"scenario {scenario.name!r} fails", f"rule: {scenario.rule}"]
        lines += [f"{pos.file}:{pos.line}: {text}" for pos, text in problems]
        super().__init__("\n".join([*lines, story]))


class ScriptError(Exception):
    """A scripted chance outcome that the chance event cannot have."""


# ---- finding and checking scenario files -----------------------------------------------------------


def scenario_files(folder: str | Path) -> list[Path]:
    """The scenario files of a game folder: scenarios/*.yaml (and .yml), sorted."""
    where = Path(folder) / FOLDER
    return sorted(p for p in where.glob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def load_scenarios(game, files: Iterable[str | Path] | None = None) -> list[Scenario]:
    """Every scenario of the game's scenario files (or of `files`); AuthoringError with every mistake."""
    scenarios, found = check_scenarios(game, files)
    if found:
        raise AuthoringError(found)
    return scenarios


def check_scenarios(game, files: Iterable[str | Path] | None = None) -> tuple[list[Scenario], list[Diagnostic]]:
    """The well-formed scenarios of the files, and a diagnostic for every mistake in them.

    A file with any mistake contributes no scenario, so that what runs is what was meant."""
    paths = scenario_files(game.model.root) if files is None else [Path(f) for f in files]
    scenarios: list[Scenario] = []
    problems: list[Diagnostic] = []
    names: dict[str, Pos] = {}
    for path in paths:
        if path.parent.name == FOLDER and not inside(path, path.parent.parent):
            problems.append(Diagnostic(Pos(str(path), 1, 1), "scenario file links to a file outside the game folder",
                                       "copy the file into the game's scenarios folder"))
            remember_source(str(path), "")  # so that the error does not quote the file it must not read
            continue
        try:
            data, smap = load_yaml(path)
        except AuthoringError as err:
            problems += err.diagnostics
            continue
        if data is None:
            continue  # an empty file holds no scenarios
        found = validate(data, smap, "scenario.schema.json", str(path))
        if not found:
            mine = [Scenario(game, sc, i, smap) for i, sc in enumerate(data)]
            for sc in mine:
                found += _Checker(game, sc).problems()
                if sc.name in names:
                    first = names[sc.name]
                    found.append(Diagnostic(sc.pos("name"), f"scenario name `{sc.name}` is used twice",
                                            f"it is already used at {first.file}:{first.line}; names are unique "
                                            "within a game"))
                names.setdefault(sc.name, sc.pos("name"))
            if not found:
                scenarios += mine
        problems += found
    return scenarios, problems


class _Checker:
    """The mistakes of one scenario that the schema cannot see: names the game lacks, seats, shapes."""

    def __init__(self, game, sc: Scenario) -> None:
        self.game, self.sc = game, sc
        self.found: list[Diagnostic] = []

    def problems(self) -> list[Diagnostic]:
        g, sc, data = self.game, self.sc, self.sc.data
        n = sc.players
        if not g.min_players <= n <= g.max_players:
            self.error(("players",), f"{g.name} is played by {g.min_players}–{g.max_players} players, not {n}")
            return self.found
        layout = g.model.setup(n)
        self.zones, self.cards, self.n = layout.zone_names, set(layout.card_ids), n
        for zone, into in (data.get("clear") or {}).items():
            self.zone(("clear", zone), zone, on_key=True)
            self.zone(("clear", zone), into)
        for zone, ids in (data.get("arrange") or {}).items():
            self.zone(("arrange", zone), zone, on_key=True)
            self.card_list(("arrange", zone), ids)
        self.counters(("counters",), data.get("counters") or {})
        for j, step in enumerate(data.get("decisions") or []):
            self.step(("decisions", j), step)
        if "expect" in data:
            self.expect(("expect",), data["expect"])
        return self.found

    def error(self, path: DataPath, message: str, hint: str | None = None, on_key: bool = False) -> None:
        full = (self.sc.index, *path)
        pos = self.sc.smap.key_pos(full) if on_key else self.sc.smap.pos(full)
        self.found.append(Diagnostic(pos, message, hint))

    def zone(self, path: DataPath, zone: str, on_key: bool = False) -> None:
        if zone not in self.zones:
            hint = did_you_mean(zone, self.zones) or f"zones at {self.n} players: {', '.join(self.zones)}"
            self.error(path, f"no zone `{zone}` in {self.game.name} at {self.n} players", hint, on_key)

    def card_list(self, path: DataPath, ids: list[str]) -> None:
        for k, cid in enumerate(ids):
            if cid not in self.cards:
                hint = did_you_mean(cid, self.cards) or "a card is named by its id, `id#copy` if it has " \
                    "several copies, `…@seat` if each player has one"
                self.error((*path, k), f"no card `{cid}` in {self.game.name} at {self.n} players", hint)

    def seat(self, path: DataPath, seat: int | str, on_key: bool = False) -> None:
        if not 0 <= int(seat) < self.n:
            self.error(path, f"no seat {seat}: seats are 0–{self.n - 1}", on_key=on_key)

    def counters(self, path: DataPath, values: dict[str, Any]) -> None:
        known = self.game.model.counters
        for name, value in values.items():
            spec = known.get(name)
            if spec is None:
                self.error((*path, name), f"no counter `{name}` in {self.game.name}",
                           did_you_mean(name, known) or f"counters: {', '.join(known)}", on_key=True)
            elif spec.per_player and (not isinstance(value, list) or len(value) != self.n):
                self.error((*path, name), f"`{name}` is a player counter: give a list of {self.n} values, "
                                          "one by seat")
            elif not spec.per_player and isinstance(value, list):
                self.error((*path, name), f"`{name}` is a game counter: give one number, not a list")
            elif isinstance(value, list):
                for k, one in enumerate(value):
                    self.counter_value((*path, name, k), spec, one)
            else:
                self.counter_value((*path, name), spec, value)

    def counter_value(self, path: DataPath, spec: CounterDef, value: Any) -> None:
        """A value the counter can hold: a number (within its `min` and MAX_NUMBER), a seat or a text."""
        name = spec.name
        if spec.type == "str":
            if not isinstance(value, str):
                self.error(path, f"`{name}` is a text counter: give a text, not {value!r}",
                           'put it in quotes: "…"')
        elif not isinstance(value, int) or isinstance(value, bool):
            what = f"a seat (0–{self.n - 1}, or -1 for none)" if spec.type == "player" else "a whole number"
            self.error(path, f"`{name}` holds {what}, not {value!r}")
        elif spec.type == "player" and not -1 <= value < self.n:
            self.error(path, f"`{name}` holds a seat: {value} is no seat at {self.n} players",
                       f"seats are 0–{self.n - 1}; none is -1")
        elif spec.type == "num" and not -MAX_NUMBER <= value <= MAX_NUMBER:
            self.error(path, f"`{name}`: {value} is past the limit of {MAX_NUMBER:,} either way a counter may keep")
        elif spec.type == "num" and spec.floor is not None and value < spec.floor:
            self.error(path, f"`{name}` is never below its min, {spec.floor}: not {value}")

    def step(self, path: DataPath, step: dict) -> None:
        if "expect" in step:
            if "who" in step or "pick" in step:
                self.error(path, "a step is either a decision (`who` and `pick`) or an `expect` block, not both",
                           "put the expect block in a step of its own")
            self.expect((*path, "expect"), step["expect"])
            return
        if "who" not in step or "pick" not in step:
            missing = "pick" if "who" in step else "who"
            self.error(path, f"this decision has no `{missing}`", "a decision reads {who: SEAT, pick: LABEL}")
            return
        seats, picks = step["who"], step["pick"]
        if isinstance(seats, list) != isinstance(picks, list) or (
                isinstance(seats, list) and len(seats) != len(picks)):
            self.error((*path, "pick"), "`who` and `pick` must pair up: one seat and one label, or two lists "
                                        "of the same length")
            return
        for k, seat in enumerate(seats if isinstance(seats, list) else [seats]):
            self.seat((*path, "who", k) if isinstance(seats, list) else (*path, "who"), seat)

    def expect(self, path: DataPath, expect: dict) -> None:
        for key in ("zones", "holds", "sizes"):
            for zone, ids in (expect.get(key) or {}).items():
                self.zone((*path, key, zone), zone, on_key=True)
                if key != "sizes":
                    self.card_list((*path, key, zone), ids)
        self.counters((*path, "counters"), expect.get("counters") or {})
        for key in ("to_act", "winners"):
            for k, seat in enumerate(expect.get(key) or []):
                self.seat((*path, key, k), seat)
        for key in ("face_up", "face_down"):
            self.card_list((*path, key), expect.get(key) or [])
        self.by_seat(path, expect)
        scores = expect.get("scores")
        if scores is not None and len(scores) != self.n:
            self.error((*path, "scores"), f"give one score by seat: {self.n}, not {len(scores)}")


    def by_seat(self, path: DataPath, expect: dict) -> None:
        """The expectations keyed by seat: `options`, and the cards of `sees` and `unseen`."""
        for key in ("options", "sees", "unseen"):
            for seat, value in (expect.get(key) or {}).items():
                self.seat((*path, key, seat), seat, on_key=True)
                if key != "options":
                    self.card_list((*path, key, seat), value)


# ---- playing a scenario -----------------------------------------------------------------------------


class ScriptedChance(random.Random):
    """The match's RNG with its next outcomes scripted (1-based); then it goes on as the seed's RNG would."""

    def __init__(self, rng: random.Random, script: list[int]) -> None:
        super().__init__()
        self.setstate(rng.getstate())
        self.script = list(script)

    def _randbelow(self, n: int) -> int:
        if not self.script:
            return super()._randbelow(n)  # type: ignore[misc]  # Random's own core, not in its stubs
        outcome = self.script.pop(0)
        if not 1 <= outcome <= n:
            raise ScriptError(f"scripted chance outcome {outcome} is not one of 1..{n}")
        return outcome - 1


class ScenarioMatch(Match):
    """A logged match whose set-up a scenario's `clear`, `arrange`, `counters` and `chance` finish.

    They run in the engine's after-set-up hook, so round 1 already sees them."""

    def __init__(self, game, players: int, seed: int, setup: dict) -> None:
        self.scenario = setup
        super().__init__(game, players, seed, log=True, after_setup=ScenarioMatch.finish_setup)

    def finish_setup(self) -> None:
        sc, st, t = self.scenario, self.st, self.layout
        for zone, into in (sc.get("clear") or {}).items():
            target = t.zone_names.index(into)
            for c in list(st.zones[t.zone_names.index(zone)]):
                move(st, c, target, 0, -1)
        if sc.get("arrange"):
            self.arrange(sc["arrange"])
        game_counters, player_counters = self.game.counter_names
        for name, value in (sc.get("counters") or {}).items():
            if isinstance(value, list):
                (i,) = [i for i, n in player_counters if n == name]
                st.pc[i] = list(value)
            else:
                (i,) = [i for i, n in game_counters if n == name]
                st.gc[i] = value
        if sc.get("chance"):
            st.rng = ScriptedChance(st.rng, sc["chance"])


def says(m: Match) -> list[str]:
    """The game's own sentences so far (`say` events of the match log)."""
    return [e["text"] for e in m.log or () if e.get("type") == "event" and e.get("event") == "say"]


def story(m: Match, made: list[str]) -> str:
    """The decisions made, the game's sentences and who is asked what now: the context of a failure."""
    lines = ["decisions made:"] + ([f"  {d}" for d in made] or ["  (none)"])
    lines += ["say log:"] + ([f"  {s}" for s in says(m)] or ["  (none)"])
    if m.over:
        lines.append(f"now: the match is over; winners {m.winners}, scores {m.scores}")
    else:
        lines.append(f"now: round {m.st.round}, to act {m.to_act()}")
        lines += [f"  seat {s}: {m.prompt(s)!r} {m.action_labels(s)}" for s in m.to_act()]
    return "\n".join(lines)


def decide(m: Match, who: int, label: str) -> None:
    """Let seat `who` pick the option labelled `label` (as the seat sees it, or by card id); AssertionError
    with the options on offer if it is absent."""
    labels = m.action_labels(who)
    if label not in labels:
        labels = m.option_ids(who)
    if label not in labels:
        if not m.to_act():
            raise AssertionError(f"seat {who} cannot pick {label!r}: the match is over")
        raise AssertionError(f"seat {who} cannot pick {label!r}: to act {m.to_act()}, "
                             f"seat {who} is asked {m.prompt(who)!r} with options {m.action_labels(who)}")
    problem = m.apply(who, labels.index(label))
    if problem is not None:
        raise AssertionError(f"seat {who} picking {label!r} was refused: {problem.reason}")


def zone_cards(m: Match, zone: str) -> list[str]:
    """The card ids of a zone instance (`table`, `hand@2`), top first."""
    t = m.layout
    if zone not in t.zone_names:
        raise AssertionError(f"no zone {zone!r}; zones: {', '.join(t.zone_names)}")
    return [t.card_ids[c] for c in m.st.zones[t.zone_names.index(zone)]]


def counter(m: Match, name: str) -> int | list[int]:
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


Findings = Iterator[tuple[DataPath, str]]
"""What an expectation found wrong: each (its path inside the expectation, what differed)."""


def _zones(m: Match, zones: dict | None) -> Findings:
    for zone, want in (zones or {}).items():
        have = zone_cards(m, zone)
        if have != list(want):
            yield (zone,), f"zone {zone}: expected {want}, have {have}"


def _holds(m: Match, zones: dict | None) -> Findings:
    for zone, want in (zones or {}).items():
        have = zone_cards(m, zone)
        if sorted(have) != sorted(want):
            yield (zone,), f"zone {zone}: expected the cards {sorted(want)} in any order, have {have}"


def _sizes(m: Match, zones: dict | None) -> Findings:
    for zone, want in (zones or {}).items():
        have = zone_cards(m, zone)
        if len(have) != want:
            yield (zone,), f"zone {zone}: expected {want} cards, have {len(have)}: {have}"


def _counters(m: Match, counters: dict | None) -> Findings:
    for name, want in (counters or {}).items():
        value = counter(m, name)
        if value != want:
            yield (name,), f"counter {name}: expected {want}, have {value}"


def _say(m: Match, texts: list | None) -> Findings:
    sentences = says(m)
    for k, text in enumerate(texts or []):
        if not any(text in s for s in sentences):
            yield (k,), f"no say sentence contains {text!r}"


def _not_say(m: Match, texts: list | None) -> Findings:
    sentences = says(m)
    for k, text in enumerate(texts or []):
        found = [s for s in sentences if text in s]
        if found:
            yield (k,), f"say sentences contain {text!r}: {found}"


def _to_act(m: Match, seats: list) -> Findings:
    if m.to_act() != list(seats):
        yield (), f"to act: expected {seats}, have {m.to_act()}"


def _options(m: Match, options: dict | None) -> Findings:
    for seat, want in (options or {}).items():
        have = m.action_labels(int(seat))
        if have != [str(x) for x in want] and m.option_ids(int(seat)) != [str(x) for x in want]:  # or by card id
            yield (seat,), f"options of seat {seat}: expected {want}, have {have}"


def _invalid(m: Match, inv: dict) -> Findings:
    """An action the match must refuse, without changing anything."""
    before = (m.to_act(), [list(z) for z in m.st.zones], len(m.history))
    result = m.apply(inv["who"], inv["action"])
    what = f"seat {inv['who']} action {inv['action']!r}"
    if not isinstance(result, Invalid):
        yield (), f"{what}: expected the match to refuse it, but it was played"
    elif "code" in inv and result.code != inv["code"]:
        yield ("code",), f"{what}: expected code {inv['code']}, got {result.code} ({result.reason})"
    if (m.to_act(), [list(z) for z in m.st.zones], len(m.history)) != before:
        yield (), "an invalid action changed the match"


def _lying(up: bool) -> Callable[[Match, list | None], Findings]:
    def lying(m: Match, cards: list | None) -> Findings:
        ids = {cid: c for c, cid in enumerate(m.layout.card_ids)}
        for k, cid in enumerate(cards or []):
            if m.st.face[ids[cid]] != up:
                yield (k,), f"{cid} lies face {'down' if up else 'up'}, expected face {'up' if up else 'down'}"
    return lying


def _seen(seen: bool) -> Callable[[Match, dict | None], Findings]:
    def by_seat(m: Match, cards_by_seat: dict | None) -> Findings:
        ids = {cid: c for c, cid in enumerate(m.layout.card_ids)}
        for seat, cards in (cards_by_seat or {}).items():
            mask = 1 << int(seat)
            for k, cid in enumerate(cards):
                if bool(seen_by(m.st, ids[cid]) & mask) != seen:
                    yield (seat, k), f"seat {seat} {'cannot' if seen else 'can'} see {cid}"
    return by_seat


def _over(m: Match, over: bool) -> Findings:
    if m.over != over:
        yield (), f"match over: expected {over}, have {m.over}"


def _at_the_end(key: str) -> Callable[[Match, Any], Findings]:
    def at_the_end(m: Match, want: Any) -> Findings:
        if not m.over:
            yield (), f"{key}: the match is not over"
        elif getattr(m, key) != want:
            yield (), f"{key}: expected {want}, have {getattr(m, key)}"
    return at_the_end


EXPECTATIONS: dict[str, Callable[[Match, Any], Findings]] = {
    "zones": _zones, "holds": _holds, "sizes": _sizes, "counters": _counters, "say": _say, "not_say": _not_say,
    "to_act": _to_act, "options": _options, "invalid": _invalid, "face_up": _lying(True),
    "face_down": _lying(False), "sees": _seen(True), "unseen": _seen(False), "over": _over,
    "winners": _at_the_end("winners"), "scores": _at_the_end("scores"),
}
"""Each key of an `expect` block and its check, in the order they are checked (`invalid` plays an action the
match must refuse, so what comes before it sees the match as it was)."""


def check(m: Match, expect: dict) -> Findings:
    """Every expectation of an `expect` block that fails: (its path inside the block, what differed)."""
    for key, expectation in EXPECTATIONS.items():
        if key in expect:
            for path, text in expectation(m, expect[key]):
                yield (key, *path), text


class _Playthrough:
    """A scenario being played: the match, the decisions made and what is being played or checked (a
    failure's position)."""

    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.made: list[str] = []
        self.m: Match | None = None
        self.at: tuple[str | int, ...] = ("name",)

    def fail(self, problems: list[tuple[Pos, str]]) -> ScenarioFailure:
        return ScenarioFailure(self.sc, problems, story(self.m, self.made) if self.m is not None else "")

    def verify(self, expect: dict, *path: str | int) -> None:
        assert self.m is not None  # verified once it is made
        problems = [(self.sc.pos(*path, *sub), text) for sub, text in check(self.m, expect)]
        if problems:
            raise self.fail(problems)

    def step(self, j: int, step: dict) -> None:
        """Decision step `j`: an expect block, or one decision (of one seat or several, in turn)."""
        assert self.m is not None  # stepped once it is made
        self.at = ("decisions", j)
        if "expect" in step:
            self.verify(step["expect"], "decisions", j, "expect")
            return
        seats, labels = step["who"], step["pick"]
        if not isinstance(seats, list):
            seats, labels = [seats], [labels]
        for who, label in zip(seats, labels, strict=True):
            try:
                decide(self.m, who, str(label))
            except AssertionError as err:
                raise self.fail([(self.sc.pos("decisions", j), str(err))]) from None
            self.made.append(f"P{who}: {label}")


def play(sc: Scenario) -> Match:
    """Play one scenario and check its expectations; returns the match, or raises ScenarioFailure."""
    data = sc.data
    run = _Playthrough(sc)
    try:
        m = run.m = ScenarioMatch(sc.game, sc.players, data.get("seed", 0), data)
        for j, step in enumerate(data.get("decisions") or []):
            run.step(j, step)
        run.at = ("expect",)
        run.verify(data.get("expect") or {}, "expect")
    except (RuleError, ScriptError) as err:
        what = "the game's rules failed" if isinstance(err, RuleError) else "the chance script does not fit"
        raise run.fail([(sc.pos(*run.at), f"{what}: {err}")]) from None
    script = getattr(m.st.rng, "script", None)
    if script:
        raise run.fail([(sc.pos("chance"), f"scripted chance outcomes {script} were never used")])
    return m


def find(scenarios: Iterable[Scenario], name: str) -> Scenario:
    """The scenario called `name`."""
    for sc in scenarios:
        if sc.name == name:
            return sc
    raise LookupError(f"no scenario named {name!r}")


def select(scenarios: Iterable[Scenario], text: str | None) -> list[Scenario]:
    """The scenarios whose name or file name contains `text` (any case); all of them without one."""
    if not text:
        return list(scenarios)
    needle = text.lower()
    return [sc for sc in scenarios if needle in sc.name.lower() or needle in Path(sc.file).stem.lower()]
