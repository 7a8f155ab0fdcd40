"""Stages 1–2: a game folder → validated YAML data → a GameModel plus the DSL texts to compile."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Anchor, AuthoringError, Diagnostic, Pos, did_you_mean, remember_source
from ..paths import bundled_games  # noqa: F401  (read from here too)
from .cards import count_cards, load_card_file
from .folder import _is_file, find_game  # noqa: F401  (find_game: read from here too)
from .model import (
    BUILTIN_PROPS,
    COUNTER_TYPES,
    FLOW_PARTS,
    PARAM_TYPES,
    PUBLIC,
    VISIBILITY,
    CounterDef,
    Flow,
    GameModel,
    Outcome,
    Report,
    ZoneDef,
)
from .schema import breaks_a_pattern, validate
from .source import Budget, SourceMap, anchor, load_yaml, readable

MAX_CARD_FILES = 100
"""The most card files a game may list."""
SCENARIO_FOLDER = "scenarios"
"""The folder of a game's scenario files (GAME/scenarios/*.yaml)."""
MAX_LOOKED_AT = 10_000
"""The most files looked at when searching a game folder for card files that `cards:` does not list."""


@dataclass
class Text:
    """One DSL text found in the content, and where it starts."""

    text: str
    at: Anchor
    label: str


@dataclass
class Check:
    """A rule declared under `checks:`: when it is checked, for whom, and its text."""

    at: str  # end | round_end | turn_end
    each_player: bool  # for every player (`me` bound), or once for the table
    text: Text


@dataclass
class Content:
    """A loaded game folder: its model, its raw sections and every DSL text with its anchor."""

    model: GameModel
    data: dict
    smap: SourceMap
    procedures: dict[str, tuple[list[str], list[str], Text]] = field(default_factory=dict)
    functions: dict[str, tuple[list[str], list[str], Text]] = field(default_factory=dict)
    phases: dict[str, Text] = field(default_factory=dict)
    invariants: dict[str, Text] = field(default_factory=dict)
    checks: dict[str, Check] = field(default_factory=dict)
    score: Text | None = None
    tiebreaks: list[Text] = field(default_factory=list)
    until: dict[str, Text] = field(default_factory=dict)  # flow.rounds / flow.deals → its `until` condition
    report_by: Text | None = None
    figures: dict[str, Text] = field(default_factory=dict)  # table.figures: label → an expression of `me`
    hidden_counters: list[str] = field(default_factory=list)  # table.hide: counters the table leaves out
    lasting: dict[str, str] = field(default_factory=dict)  # table.lasting: public counter → turn, round or deal
    listings: dict[str, str] = field(default_factory=dict)  # table.zones: zone → a template of card properties
    initials: dict[str, Text] = field(default_factory=dict)  # counters whose `initial` is an expression
    errors: list[Diagnostic] = field(default_factory=list)  # found so far; the DSL stage adds its own
    flow: Flow | None = None  # the `flow:` section (None only where the schema found it broken)
    outcome: Outcome = field(default_factory=Outcome)  # the `result:` section's rules
    report: Report = field(default_factory=Report)  # the `report:` section's title and per_round
    forms: dict[str, list[str]] = field(default_factory=dict)  # each procedure's forms, as written
    default_at: dict[str, Pos] = field(default_factory=dict)  # where each card property's default is


def _initial(name: str, spec: dict, kind: str, path: tuple, smap: SourceMap, content: Content,
             errors: list[Diagnostic]) -> Any:
    """A counter's initial value: a text counter's text, a number; a number written as a text is an
    expression of the player count, kept in `content.initials` to be worked out at each count."""
    initial = spec.get("initial", 0)
    if kind == "str":
        if not isinstance(initial, str):
            errors.append(Diagnostic(smap.pos((*path, "initial")), f"text counter `{name}` starts with a text",
                                     'write `initial: ""` (or the text it starts with)'))
            return ""
        if "min" in spec:
            errors.append(Diagnostic(smap.key_pos((*path, "min")), f"text counter `{name}` has no `min`",
                                     "only number counters have a lower bound"))
        return initial
    if isinstance(initial, str):
        content.initials[name] = Text(initial, anchor(smap, (*path, "initial")), f"initial value of {name}")
        return 0
    return initial


def _typed_params(raw: list[str], smap: SourceMap, path: tuple, errors: list[Diagnostic]):
    """`["c: card", "n"]` → names and DSL types (a bare name is a number)."""

    names, types = [], []
    for i, item in enumerate(raw):
        name, _, typ = (x.strip() for x in str(item).partition(":"))
        typ = typ or "num"
        if name in names:
            errors.append(Diagnostic(smap.pos((*path, i)), f"parameter `{readable(name)}` is named twice",
                                     "give each parameter its own name"))
        if typ not in PARAM_TYPES:
            errors.append(Diagnostic(smap.pos((*path, i)), f"unknown parameter type `{readable(typ)}`",
                                     did_you_mean(typ, PARAM_TYPES) or "types: " + ", ".join(PARAM_TYPES)))
            typ = "num"
        names.append(name)
        types.append(PARAM_TYPES[typ])
    return names, types


# What malformed data (already reported by the schema) can raise while it is read on regardless.
MALFORMED = (KeyError, TypeError, AttributeError, ValueError, IndexError)


def load_content(folder: Path) -> Content:
    """Read, schema-check and resolve the declarations of one game folder (DSL is parsed later).

    Schema mistakes do not stop the reading: the rest is checked too, so that one run reports every
    mistake — unless the data is too broken to go on, and then the schema's findings are the report."""
    file = folder / "game.yaml"
    if not inside(file, folder):
        problem = Diagnostic(Pos(str(file), 1, 1), "game.yaml links to a file outside the game folder",
                             "copy the file into the game folder")
        remember_source(str(file), "")  # so that the error does not quote the file it must not read
        raise AuthoringError([problem])
    budget = Budget()
    data, smap = load_yaml(file, budget)
    schema_errors = validate(data, smap, "game.schema.json", str(file))
    if schema_errors and breaks_a_pattern(data, "game.schema.json"):
        raise AuthoringError(schema_errors)  # a malformed name must not reach the messages of later checks
    try:
        return _resolve(folder, data, smap, list(schema_errors), budget)
    except MALFORMED:
        if schema_errors:
            raise AuthoringError(schema_errors) from None
        raise


def _resolve(folder: Path, data: dict, smap: SourceMap, errors: list[Diagnostic], budget: Budget) -> Content:
    players = data["players"]
    model = GameModel(
        name=data["game"], title=data["title"], version=str(data.get("version", "1")),
        min_players=players["min"], max_players=players["max"],
        default_players=players.get("default", players["min"]), root=str(folder),
    )
    content = Content(model, data, smap)
    if not model.min_players <= model.default_players <= model.max_players:
        errors.append(Diagnostic(smap.pos(("players",)), "players: need min <= default <= max"))
    read = _Sections(content, errors)
    read.zones()
    read.counters()
    read.public_while(schema_broken=bool(errors))  # a counter missing after a schema error is that error's echo
    read.properties()
    read.texts()
    read.result()
    read.table()
    read.report()
    read.flow()
    read.cards(folder, budget)
    content.errors = errors  # reported together with the DSL's mistakes, in one run
    return content


class _Sections:
    """Reads game.yaml's sections, one method each, into the content's model and texts (in the order their
    mistakes are reported)."""

    def __init__(self, content: Content, errors: list[Diagnostic]) -> None:
        self.content, self.model, self.data, self.smap = content, content.model, content.data, content.smap
        self.errors = errors
        self.seen: dict[str, str] = {}  # each name given so far: what it names

    def fail(self, at: Pos, message: str, hint: str | None = None) -> None:
        self.errors.append(Diagnostic(at, message, hint))

    def claim(self, name: str, what: str, path: tuple) -> None:
        if name in self.seen:
            self.fail(self.smap.key_pos(path), f"`{readable(name)}` is already a {self.seen[name]}",
                      "zones, counters, functions and properties need distinct names")
        self.seen[name] = what

    def zones(self) -> None:
        model = self.model
        for name, z in self.data.get("zones", {}).items():
            self.claim(name, "zone", ("zones", name))
            per_player = z.get("owner", "game") == "player"
            model.zones.append(ZoneDef(name, per_player, VISIBILITY.get(z.get("visibility"), 0),
                                       z.get("face", "up") == "up", z.get("limit", -1),
                                       self.smap.key_pos(("zones", name))))
            numbered = model.player_zones if per_player else model.game_zones
            numbered[name] = len(numbered)

    def counters(self) -> None:
        indexes = {"player": 0, "game": 0}
        for scope in ("game", "player"):
            for name, spec in self.data.get("counters", {}).get(scope, {}).items():
                self.counter(scope, name, spec if isinstance(spec, dict) else {"initial": spec}, indexes[scope])
                indexes[scope] += 1

    def counter(self, scope: str, name: str, spec: dict, index: int) -> None:
        path = ("counters", scope, name)
        self.claim(name, "counter", path)
        kind = COUNTER_TYPES.get(spec.get("type", "number"), "num")
        initial = _initial(name, spec, kind, path, self.smap, self.content, self.errors)
        self.model.counters[name] = CounterDef(name, scope == "player", initial, spec.get("reset", "never"),
                                               spec.get("min"), index, self.smap.key_pos(path), kind,
                                               VISIBILITY.get(spec.get("visibility", "public"), 0),
                                               spec.get("public_while", ""))
        if scope == "game" and spec.get("visibility") == "owner":
            self.fail(self.smap.pos((*path, "visibility")), f"game counter `{name}` has no owner to see it",
                      "use `visibility: hidden`, or make it a player counter")

    def public_while(self, schema_broken: bool) -> None:
        counters = self.model.counters
        for name, counter in counters.items():
            flag = counter.public_while
            if not flag:
                continue
            at = self.smap.pos(("counters", "player" if counter.per_player else "game", name, "public_while"))
            other = counters.get(flag)
            if other is None:
                if not schema_broken:
                    self.fail(at, f"unknown counter `{flag}` in public_while", did_you_mean(flag, list(counters)))
            elif other.per_player and not counter.per_player:
                self.fail(at, f"`{flag}` is a player counter; a game counter's public_while needs a game counter")
            elif other.type == "str":
                self.fail(at, f"`{flag}` is a text counter; public_while needs a number counter (public while it "
                          "is not 0)")
            elif other.visibility != PUBLIC:
                self.fail(at, f"`{flag}` is not public: a reveal everyone can see needs a public counter")

    def properties(self) -> None:
        model, smap = self.model, self.smap
        for name, default in self.data.get("properties", {}).items():
            self.claim(name, "card property", ("properties", name))
            self.content.default_at[name] = smap.pos(("properties", name))
            if name in BUILTIN_PROPS:
                self.fail(smap.key_pos(("properties", name)), f"`{name}` is a built-in card property",
                          "pick another name")
            model.prop_defaults[name] = default
        model.abilities = list(self.data.get("abilities", []))
        model.conditions = dict(self.data.get("conditions", {}))
        for name in model.conditions:
            self.claim(name, "condition", ("conditions", name))

    def text(self, path: tuple, label: str) -> Text:
        """The DSL text at `path` of game.yaml."""
        node: Any = self.data
        for key in path:
            node = node[key]
        return Text(node, anchor(self.smap, path), label)

    def texts(self) -> None:
        """Procedures, functions, phases, invariants and checks: the DSL texts with names."""
        content, data, smap, errors = self.content, self.data, self.smap, self.errors
        for name, proc in data.get("procedures", {}).items():
            names, types = _typed_params(proc.get("params", []), smap, ("procedures", name, "params"), errors)
            content.procedures[name] = (names, types, self.text(("procedures", name, "do"), name))
            content.forms[name] = list(proc.get("forms", []))
        for name, fn in data.get("functions", {}).items():
            self.claim(name, "function", ("functions", name))
            names, types = _typed_params(fn.get("params", []), smap, ("functions", name, "params"), errors)
            content.functions[name] = (names, types, self.text(("functions", name, "value"), name))
        for name in data.get("phases", {}):
            content.phases[name] = self.text(("phases", name), name)
        for name in data.get("invariants", {}):
            content.invariants[name] = self.text(("invariants", name), name)
        for name, check in data.get("checks", {}).items():
            if check["at"] == "turn_end" and not data["flow"].get("turn"):
                self.fail(smap.pos(("checks", name, "at")), "this game has no turns (its flow has no `turn:`)",
                          "check at `round_end` instead")
            content.checks[name] = Check(check["at"], check.get("for", "table") == "each_player",
                                         self.text(("checks", name, "holds"), name))

    def result(self) -> None:
        result = self.data.get("result", {})
        self.content.outcome = Outcome(result.get("wins", "highest") == "lowest",
                                       result.get("knocked_out", "lose") == "score", result.get("payoff", "win"))
        if "score" in result:
            self.content.score = self.text(("result", "score"), "score")
        tiebreaks = result.get("tiebreak", [])
        split = _split_by_yaml(tiebreaks, self.smap, ("result", "tiebreak"), self.errors)
        for i in range(len(tiebreaks)):
            if i not in split:  # a piece of an expression is not one: its error is the split
                self.content.tiebreaks.append(self.text(("result", "tiebreak", i), f"tiebreak {i + 1}"))

    def table(self) -> None:
        table = self.data.get("table", {})
        for label in table.get("figures", {}):
            self.content.figures[label] = self.text(("table", "figures", label), f"figure {label}")
        counters = self.model.counters
        for i, name in enumerate(table.get("hide", [])):
            if name not in counters:
                self.fail(self.smap.pos(("table", "hide", i)), f"`{readable(name)}` is not a counter",
                          did_you_mean(name, list(counters)))
            self.content.hidden_counters.append(name)
        for name, period in table.get("lasting", {}).items():
            self.lasting(name)
            self.content.lasting[name] = period
        for zone, template in table.get("zones", {}).items():
            self.listing(zone, template)
            self.content.listings[zone] = template

    def lasting(self, name: str) -> None:
        lasts = self.model.counters.get(name)
        at = self.smap.key_pos(("table", "lasting", name))
        if lasts is None:
            self.fail(at, f"`{readable(name)}` is not a counter", did_you_mean(name, list(self.model.counters)))
        elif lasts.visibility != PUBLIC or lasts.public_while:
            self.fail(at, f"`{readable(name)}` is not a public counter: only a counter everyone sees can last a turn, "
                      "round or deal on the table",
                      "leave it out of `lasting` (the table shows it whenever it is not at its start value)")

    def listing(self, zone: str, template: str) -> None:
        model = self.model
        known = [*BUILTIN_PROPS, *model.prop_defaults]
        if model.zone(zone) is None:
            self.fail(self.smap.key_pos(("table", "zones", zone)), f"`{readable(zone)}` is not a zone",
                      did_you_mean(zone, [z.name for z in model.zones]))
        for name in re.findall(r"{([^{}]*)}", template):
            if name not in known:
                self.fail(self.smap.pos(("table", "zones", zone)), f"`{{{readable(name)}}}` is no property of the "
                          "cards", did_you_mean(name, known) or "properties: " + ", ".join(known))

    def report(self) -> None:
        report = self.data.get("report", {})
        self.content.report = Report(report.get("title", "group"), tuple(report.get("per_round", [])))
        if "by" in report:
            self.content.report_by = self.text(("report", "by"), "report by")
        counters = self.model.counters
        for i, name in enumerate(report.get("per_round", [])):
            listed = counters.get(name)
            at = self.smap.pos(("report", "per_round", i))
            if listed is not None and listed.type == "str":
                self.fail(at, f"`{name}` is a text counter", "per_round reports the mean of number counters")
            elif listed is None or listed.per_player:
                self.fail(at, f"`{readable(name)}` is not a game counter",
                          did_you_mean(name, [k for k, c in counters.items() if not c.per_player]))

    def flow(self) -> None:
        flow, phases = self.data["flow"], self.content.phases
        rounds, rounds_capped = _count(flow.get("rounds", 1))
        deals, deals_capped = _count(flow.get("deals", 1))
        self.content.flow = Flow({part: tuple(flow.get(part, [])) for part in FLOW_PARTS}, rounds, rounds_capped,
                                 deals, deals_capped, any(k in flow for k in ("deals", "deal", "after_deal")),
                                 {k: str(self.smap.key_pos(("flow", k))) for k in ("rounds", "deals")})
        for key in ("rounds", "deals"):
            if isinstance(flow.get(key), dict) and "until" in flow[key]:
                self.content.until[key] = self.text(("flow", key, "until"), f"{key} until")
        for key in FLOW_PARTS:
            for i, phase in enumerate(flow.get(key, [])):
                if phase not in phases:
                    self.fail(self.smap.pos(("flow", key, i)), f"unknown phase `{readable(phase)}`",
                              did_you_mean(phase, phases) or "declare it under phases:")

    def cards(self, folder: Path, budget: Budget) -> None:
        listed, model = self.data["cards"], self.model
        if len(listed) > MAX_CARD_FILES:
            self.fail(self.smap.pos(("cards", MAX_CARD_FILES)), f"a game has at most {MAX_CARD_FILES} card files",
                      "put more cards in each file")
        model.card_files = [str(name) for name in listed[:MAX_CARD_FILES]]
        for i, name in enumerate(listed[:MAX_CARD_FILES]):
            if budget.bytes <= 0 or budget.values <= 0:
                break  # the files read so far took the game's whole allowance, and that is reported
            cited = self.smap.pos(("cards", i))
            card_file = _card_file(folder, name, cited, self.errors)
            if card_file is not None:
                load_card_file(card_file, model, self.errors, cited, self.content.default_at, budget)
        count_cards(model, self.errors)


def _count(spec: Any) -> tuple[int, bool]:
    """`rounds:` or `deals:` of the flow: how many at most, and whether that number is a safety cap."""
    if isinstance(spec, dict):
        return spec.get("at_most", 1), True
    return spec, False


def unlisted_card_files(model: GameModel) -> list[Diagnostic]:
    """A warning at each YAML file in the game folder (or a folder below it) that `cards:` does not
    list: a card file left out by mistake. game.yaml and the scenario files are not card files; hidden
    files and folders are passed over, and linked folders are not searched."""
    folder = Path(model.root)
    listed = {(folder / name).resolve() for name in model.card_files}
    found: list[Diagnostic] = []
    looked = 0
    for here, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and
                            not (Path(here) == folder and f == SCENARIO_FOLDER))
        for name in sorted(files):
            looked += 1
            if looked > MAX_LOOKED_AT:
                return found  # a folder that large is not a game's: the warnings are only a help
            path = Path(here) / name
            if name.startswith(".") or path.suffix not in (".yaml", ".yml") or path == folder / "game.yaml":
                continue
            try:
                if path.resolve() in listed:
                    continue
            except (OSError, RuntimeError):  # a link loop: not a card file either way
                continue
            shown = path.relative_to(folder).as_posix()
            if not inside(path, folder):
                remember_source(str(path), "")  # a link leading out: say so without reading it
            found.append(Diagnostic(
                Pos(str(path), 1, 1), f"`{readable(shown)}` is not listed under `cards:` in game.yaml",
                f"add `{readable(shown)}` to `cards:` if it holds cards, or move it out of the game folder",
                severity="warning"))
    return found


_OPENS, _CLOSES = "([{", ")]}"


def _depth_change(text: str) -> tuple[int, str]:
    """How many brackets `text` leaves open (negative: closes more than it opens), strings skipped;
    and the first bracket left open."""
    depth, opened, quoted = 0, [], False
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif quoted:
            continue
        elif ch in _OPENS:
            depth += 1
            opened.append(ch)
        elif ch in _CLOSES:
            depth -= 1
            if opened:
                opened.pop()
    return depth, opened[0] if opened else ""


def _split_by_yaml(items: list, smap: SourceMap, path: tuple, errors: list[Diagnostic]) -> set[int]:
    """The items of a `[a, b]` list of DSL texts that are pieces of one expression which YAML split at
    a comma, as in `[sum(x, y)]`; each split is reported once, at its first piece."""
    if smap.style(path) != "flow":
        return set()  # one item a line: YAML splits nothing
    pieces: set[int] = set()
    i = 0
    while i < len(items):
        depth, bracket = _depth_change(str(items[i]))
        if depth <= 0:
            i += 1
            continue
        end = i
        while depth > 0 and end + 1 < len(items):
            end += 1
            depth += _depth_change(str(items[end]))[0]
        whole = readable(", ".join(str(item) for item in items[i:end + 1]))
        quote = "'" if '"' in whole else '"'  # the DSL's strings are in "…"
        errors.append(Diagnostic(
            smap.pos((*path, i)),
            f"`{readable(items[i])}` leaves `{bracket}` open: YAML split this expression at a comma",
            f"in a `[…]` list each comma starts a new item; quote the expression: [{quote}{whole}{quote}], "
            f"or write the list one item a line: - {whole}"))
        pieces.update(range(i, end + 1))
        i = end + 1
    return pieces


def inside(path: Path, folder: Path) -> bool:
    """Whether `path`, with every symbolic link followed, lies in `folder`."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a link loop
        return False


def _card_file(folder: Path, name: str, cited: Pos, errors: list[Diagnostic]) -> Path | None:
    """The card file `name` of game.yaml's `cards:`, if it lies inside the game folder."""
    relative = Path(name)
    hint = "name card files relative to game.yaml, inside its folder"
    if relative.is_absolute() or relative.drive or name.startswith(("/", "\\")):
        errors.append(Diagnostic(cited, f"card file `{readable(name)}` is an absolute path", hint))
    elif ".." in relative.parts or ".." in name.split("\\"):
        errors.append(Diagnostic(cited, f"card file `{readable(name)}` leads out of the game folder", hint))
    elif not inside(folder / relative, folder):
        errors.append(Diagnostic(cited, f"card file `{readable(name)}` links to a file outside the game folder", hint))
    else:
        return folder / relative
    return None
