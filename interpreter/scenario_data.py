"""Scenario files read and checked: a game's `scenarios/*.yaml` found, each file read with its source map,
checked against schemas/scenario.schema.json and then against the game (the zones, cards, counters and seats it
names, the values it gives), every mistake an AuthoringError at its `file:line:col`. The format is described in
`interpreter/scenarios.py`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .diagnostics import AuthoringError, Diagnostic, Pos, did_you_mean, remember_source
from .limits import MAX_NUMBER
from .load.loader import SCENARIO_FOLDER, inside
from .load.model import CounterDef
from .load.schema import validate
from .load.source import SourceMap, load_yaml

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
