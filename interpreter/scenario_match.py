"""The match a scenario plays: its set-up finished by the scenario (`clear`, `arrange`, `counters`, a chance
script), a decision made by an option's label, and what a scenario reads of the match (a zone's cards, a
counter, the game's `say` sentences)."""

from __future__ import annotations

import random

from .run.match import Match
from .run.runtime import move


class ScriptError(Exception):
    """A scripted chance outcome that the chance event cannot have."""


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
