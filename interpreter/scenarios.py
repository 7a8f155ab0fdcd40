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

from collections.abc import Iterable
from pathlib import Path

from .diagnostics import Pos
from .run.match import Match
from .run.runtime import RuleError
from .scenario_data import FOLDER, Scenario, check_scenarios, load_scenarios, scenario_files
from .scenario_expect import EXPECTATIONS, check
from .scenario_match import ScenarioMatch, ScriptedChance, ScriptError, counter, decide, says, zone_cards

__all__ = ["EXPECTATIONS", "FOLDER", "Scenario", "ScenarioFailure", "ScenarioMatch", "ScriptError", "ScriptedChance",
           "check", "check_scenarios", "counter", "decide", "find", "load_scenarios", "play", "says",
           "scenario_files", "select", "story", "zone_cards"]


class ScenarioFailure(AssertionError):
    """A scenario whose expectations do not hold, told with where, what differed and the match so far."""

    def __init__(self, scenario: Scenario, problems: list[tuple[Pos, str]], story: str) -> None:
        self.scenario, self.problems, self.story = scenario, problems, story
        lines = [f"scenario {scenario.name!r} fails", f"rule: {scenario.rule}"]
        lines += [f"{pos.file}:{pos.line}: {text}" for pos, text in problems]
        super().__init__("\n".join([*lines, story]))


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
