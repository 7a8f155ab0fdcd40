"""The pipeline in one place: folder → content → parsed DSL → typed nodes → Python → a playable Game.

Each stage is one call taking the previous stage's output: load_content (stages 1–2), parse_program
(3), function_order + resolve_program (4), analyse + simplify_program + generate (5); then the
generated module is run once and wrapped in a Game. See docs/architecture.md.
"""

from __future__ import annotations

import ast
import linecache
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any, NamedTuple

from . import cache
from .diagnostics import AuthoringError, Diagnostic, Pos
from .lang.compiled import Compiled
from .limits import MAX_STEPS
from .load.folder import find_game
from .load.model import Flow, GameModel, Outcome, Report
from .paths import data_dir
from .run import runtime
from .run.tracebacks import RULES_LINES

if TYPE_CHECKING:
    from .lang.analysis import Plan
    from .lang.program import Program
    from .load.loader import Content

# The stages that compile a game (lang/, load/loader.py) are imported where a game is compiled, not with this
# module: a game read from the compiled-game cache needs none of them.

class DeclaredCheck(NamedTuple):
    """A compiled `checks:` entry: when (end | round_end | turn_end), for whom, and `holds(st, me)`."""

    at: str
    each_player: bool
    holds: Callable[[Any, int], bool]


@dataclass
class Built:
    """What compiling a game folder makes, as plain data (what the compiled-game cache keeps): the model, the
    generated module and its tables, and what the `Game` reads of the flow, result, report and table sections."""

    model: GameModel  # the load stage's, with each counter's initial value at every player count worked out
    compiled: Compiled  # (its `starts`, which name the typed routines, are left out once the module compiled)
    flow: Flow
    asking_phases: set[str]  # phases that can ask a player (generators)
    outcome: Outcome
    report: Report
    tiebreaks: int
    figures: list[str]
    hidden_counters: list[str]
    lasting: dict[str, str]
    listings: dict[str, str]
    invariants: list[str]
    checks: dict[str, tuple[str, bool]]  # name → (at, for each player)
    abilities: list[tuple[int, int, str]]  # (ability's index, card definition, Python name)
    conditions: list[tuple[str, int, str]]  # (condition, card definition, Python name)
    effects: frozenset[str]
    knocks_out: bool  # whether any statement can knock a player out
    face_readers: frozenset[str]  # the phases and flow conditions that may read a card's face (lang/faces.py)
    face_zones: frozenset[str] | None  # the zones whose cards those may reach (None: any; lang/faces.py)
    face_props: dict[str, tuple | None]  # what those read of a card in each zone (lang/faces.py: reading_props)
    # whether chance may be drawn once an answer was given (lang/faces.py: drawing_chance; see `_after_answers`)
    chance_after_answers: bool


def built(content: Content, made: Compilation) -> Built:
    """The plain data a `Game` is made of, from the stages that compiled it (none of their values changed)."""
    from .lang.faces import UNTIL, drawing_chance, reading_faces, reading_props, reading_zones
    from .lang.nodes import KNOCKS_OUT

    program, plan = made.program, made.plan
    model = content.model
    assert content.flow is not None  # (a game whose flow the schema refused does not compile)
    counters = {name: replace(c, by_players=made.initials[name]) if name in made.initials else c
                for name, c in model.counters.items()}
    return Built(
        model=replace(model, counters=counters, _setups={}), compiled=made.compiled, flow=content.flow,
        asking_phases={name for name, r in program.phases.items() if r in plan.asking},
        outcome=content.outcome, report=content.report, tiebreaks=len(content.tiebreaks),
        figures=list(content.figures), hidden_counters=list(content.hidden_counters), lasting=dict(content.lasting),
        listings=dict(content.listings), invariants=list(content.invariants),
        checks={name: (c.at, c.each_player) for name, c in content.checks.items()},
        abilities=[(model.abilities.index(a), r.card, r.pyname) for a, rs in program.abilities.items() for r in rs],
        conditions=[(r.ability or "", r.card, r.pyname) for r in program.conditions],
        effects=plan.effects, knocks_out=KNOCKS_OUT in plan.effects, face_readers=reading_faces(program),
        face_zones=reading_zones(program), face_props=reading_props(program),
        chance_after_answers=bool(drawing_chance(program) & _after_answers(content.flow, program.phases, plan.asking,
                                                                          UNTIL)))


def _after_answers(flow: Flow, phases: dict[str, Any], asking: Any, conditions: tuple[str, ...]) -> set[str]:
    """The phases of `flow` that may run after an answer (all but those of its set-up before the first that asks,
    which run once, before any answer) and the flow's conditions (`conditions`)."""
    setup = flow.phases.get("setup", ())
    first = next((i for i, p in enumerate(setup) if phases[p] in asking), len(setup))
    later = {p for part, names in flow.phases.items() for i, p in enumerate(names) if part != "setup" or i >= first}
    return later | set(conditions)


class Game:
    """A compiled game: make matches of it with `new_match`."""

    def __init__(self, made: Built, namespace: dict[str, Any], filename: str) -> None:
        model = made.model
        self.model = model
        self.name = model.name
        self.title = model.title
        self.version = model.version
        self.min_players = model.min_players
        self.max_players = model.max_players
        self.default_players = model.default_players
        self.python_source = made.compiled.source
        self.code_filename = filename  # the name the generated module was compiled under (as tracebacks show it)
        self._compiled = made.compiled
        flow = made.flow
        self.flow = {k: [(namespace[f"phase_{p}"], p in made.asking_phases) for p in phases]
                     for k, phases in flow.phases.items()}
        # rounds per deal and deals per match: (how many at most, whether that is a safety cap, until)
        self.rounds, self.rounds_capped = flow.rounds, flow.rounds_capped
        self.rounds_until = namespace.get("rounds_until")
        self.deals, self.deals_capped = flow.deals, flow.deals_capped
        self.deals_until = namespace.get("deals_until")
        self.has_deals = flow.has_deals
        self.flow_at = dict(flow.at)  # (step limit)
        self.effects = made.effects  # what the game's statements can do to a match (lang/nodes/base.py: EFFECTS)
        self.knocks_out = made.knocks_out  # (a game that never knocks anyone out skips those tests)
        # the phases and flow conditions that may read a card's face, as functions (see run/free_worlds.py)
        self.face_readers = frozenset(namespace[name] for name in made.face_readers)
        self.face_zones = made.face_zones  # the zones whose cards they may reach (see run/belief/exchange.py)
        self.face_props = made.face_props  # what they read of a card in each zone (run/belief/exchange.py)
        # whether chance may be drawn once an answer was given (where not, a world being drawn stops an option that
        # parted at its first differing line: see run/belief/answers.py)
        self.chance_after_answers = made.chance_after_answers
        self.score = namespace.get("result_score")
        self.tiebreaks = [namespace[f"result_tiebreak_{i}"] for i in range(made.tiebreaks)]
        self.lowest_wins = made.outcome.lowest_wins
        self.out_can_win = made.outcome.out_can_win
        self.payoff = made.outcome.payoff  # what the search bots play for: `win` or `score` (`result.payoff`)
        self.report_by = namespace.get("report_by")
        self.bundled = Path(model.root).resolve().parent == data_dir("cards").resolve()
        self.report_title = made.report.title
        self.report_per_round = list(made.report.per_round)
        # what the terminal table shows besides zones and counters (`table:`): figures per player, counters left out
        self.figures = [(label, namespace[f"figure_{i}"]) for i, label in enumerate(made.figures)]
        self.hidden_counters = set(made.hidden_counters)
        self.lasting = dict(made.lasting)
        self.listings = dict(made.listings)
        self.invariants = {name: namespace[f"invariant_{name}"] for name in made.invariants}
        self.checks = {name: DeclaredCheck(at, each, namespace[f"check_{name}"])
                       for name, (at, each) in made.checks.items()}
        counters = model.counters.values()
        self.resets = {
            when: ([c.index for c in counters if c.reset == when and not c.per_player],
                   [c.index for c in counters if c.reset == when and c.per_player])
            for when in ("deal", "round", "turn")
        }
        self.counter_names = ([(c.index, c.name) for c in counters if not c.per_player],
                              [(c.index, c.name) for c in counters if c.per_player])
        self.prompts: list[str] = namespace["PROMPTS"]
        self.prop_names = {i: name for name, i in model.prop_index.items()}
        self.max_steps = MAX_STEPS  # loop rounds and nested calls a match may run

    def __reduce__(self) -> tuple:
        """A pickled game is its folder and step limit; unpickled, it is the game loaded from that folder in the
        process (`loaded_game`: the folder is read only if none is)."""
        return _reloaded, (self.model.root, self.max_steps)

    def with_max_steps(self, steps: int | None) -> Game:
        """This game with another step limit per match (`--max-steps`); a copy, the loaded game is shared."""
        if steps is None or steps == self.max_steps:
            return self
        other = object.__new__(Game)  # (not copy.copy: it goes through `__reduce__`, which hands back this game)
        other.__dict__.update(self.__dict__)
        other.max_steps = steps
        return other

    def anchor_at(self, lineno: int) -> Pos | None:
        """The DSL place (file, line, col) that line `lineno` of `python_source` was written for."""
        return self._compiled.anchor_at(lineno)

    def player_counts(self, only: int | None = None) -> list[int]:
        """Every player count the game allows, from the fewest (or just `only`)."""
        return [only] if only is not None else list(range(self.min_players, self.max_players + 1))

    def check_players(self, n: int) -> int:
        """`n` if the game is played by that many, else ValueError with the range."""
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players}–{self.max_players} players, not {n}")
        return n

    def new_match(self, players: int | None = None, seed: int = 0, log: bool = False, bots=None,
                  arrange: dict[str, list[str]] | None = None, after_setup=None, chance=None,
                  explicit_chance: bool = False):
        """Start a match; see interpreter.run.match.Match. With `explicit_chance`, the match stops at every
        chance event to be told its outcome (`m.chance_outcomes()`, `m.apply_chance(k)`) instead of drawing
        it from the seed."""
        from .run.match import Match, explicit_match

        if explicit_chance:
            return explicit_match(self, players or self.default_players, seed, log=log, bots=bots,
                                  arrange=arrange, after_setup=after_setup)
        return Match(self, players or self.default_players, seed, log=log, bots=bots, arrange=arrange,
                     after_setup=after_setup, chance=chance)


class Compilation(NamedTuple):
    """What stages 3–5 hand on: the typed program, its plan, the generated module, and each counter's initial
    value at every player count where `initial` is an expression (counter → players → value)."""

    program: Program
    plan: Plan
    compiled: Compiled
    initials: dict[str, dict[int, int]]


def compile_content(content: Content) -> Compilation:
    """Stages 3–5: parse every DSL text, resolve names and types into typed nodes, analyse and
    simplify them, and write the game's Python module. Raises AuthoringError with every mistake."""
    from .lang.analysis import analyse, function_order
    from .lang.compiler import generate
    from .lang.program import checks_draw_no_chance, parse_program, table_checks_without_me
    from .lang.resolve import resolve_program
    from .lang.simplify import initial_values, simplify_program

    parsed = parse_program(content)
    resolved = resolve_program(parsed, function_order(parsed))
    table_checks_without_me(resolved)
    checks_draw_no_chance(resolved)
    _raise_if(resolved.errors)
    program = simplify_program(resolved)
    plan = analyse(program)
    initials = initial_values(program)
    _raise_if(program.errors)
    compiled, errors = generate(program, plan)
    _raise_if(errors)
    return Compilation(program, plan, compiled, initials)


def _raise_if(errors: list[Diagnostic]) -> None:
    if errors:
        unique = list({(str(d.pos), d.message): d for d in errors}.values())
        raise AuthoringError(sorted(unique, key=lambda d: (d.pos.file, d.pos.line, d.pos.col)))


def module_code(compiled: Compiled, filename: str) -> CodeType:
    """The generated module compiled by Python (its named numbers folded); a text nested deeper than Python
    can compile is an AuthoringError at its routine."""
    from .lang.resolve import too_deep

    try:
        return compile(folded(compiled.source, compiled.constants), filename, "exec")
    except (SyntaxError, RecursionError) as err:  # Python's own limits on nesting
        line = getattr(err, "lineno", None) or 1
        culprit = next((r for start, r in reversed(compiled.starts) if start <= line), compiled.starts[0][1])
        raise AuthoringError([too_deep(culprit)]) from None


def load_module(made: Built, code: CodeType, filename: str) -> dict[str, Any]:
    """Run the generated module once (its source registered with linecache, so tracebacks show its lines) and
    fill the tables of card abilities and conditions."""
    model, compiled = made.model, made.compiled
    namespace: dict[str, Any] = {name: getattr(runtime, name) for name in runtime.GENERATED_CODE_NAMES}
    namespace["PROMPTS"] = compiled.prompts
    namespace["AT"] = places(compiled, model.root)
    namespace[RULES_LINES] = compiled.anchor_at  # (a traceback through the module finds its rules' lines)
    linecache.cache[filename] = (len(compiled.source), None, compiled.source.splitlines(True), filename)
    exec(code, namespace)
    by_card: list[list[Any]] = [[None] * len(model.cards) for _ in model.abilities]
    for k, card, pyname in made.abilities:
        by_card[k][card] = namespace[pyname]
    namespace["ABILITIES"] = by_card
    tables = AbilityCards(by_card, model.setup, model.max_players)
    namespace["ABILITY_CARDS"], namespace["ABILITIES_AT"] = tables.by_players, tables.at
    stated = {(ability, card): namespace[pyname] for ability, card, pyname in made.conditions}
    namespace["CONDITIONS"] = [[stated.get((name, di)) or runtime.always(default) for di in range(len(model.cards))]
                               for name, default in model.conditions.items()]
    return namespace


class AbilityCards:
    """The generated code's table of card abilities by player count, by ability and by card number (a copy's
    number, as the layout of that player count numbers them), None where the card has none, and None at index
    -1 too (no card): `ABILITY_CARDS[st.n][k][c]` is the function of ability k of card c, found in two
    subscripts. `by_players` (the module's `ABILITY_CARDS`) is a plain list, None at a player count whose table
    is not built yet: the code reads `ABILITY_CARDS[st.n] or ABILITIES_AT(st.n)`, `ABILITIES_AT` being `at`, which
    builds it (a subscript of a plain list is the interpreter's quickest; that of a dict subclass, one that could
    build the table on a miss, cost some 250 machine instructions more a lookup)."""

    def __init__(self, by_definition: list[list[Any]], layout: Any, players: int) -> None:
        self.by_definition = by_definition  # by ability, by card definition (`ABILITIES`)
        self.layout = layout  # player count → its numbered layout (`GameModel.setup`)
        self.by_players: list[list[list[Any]] | None] = [None] * (players + 1)

    def at(self, players: int) -> list[list[Any]]:
        """The table at a player count, built when first asked for."""
        numbered = self.layout(players).card_def
        table = self.by_players[players] = [[row[d] for d in numbered] + [None] for row in self.by_definition]
        return table


class _Fold(ast.NodeTransformer):
    def __init__(self, values: dict[str, int]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return ast.copy_location(ast.Constant(self.values[node.id]), node)
        return node


def folded(source: str, constants: dict[str, int]) -> ast.Module:
    """The generated module's syntax tree with its named numbers read as the numbers themselves: the source
    says `Z[ZONE_hand]`, the code runs `Z[7]` (a constant costs less than a global name at every use)."""
    return _Fold(constants).visit(ast.parse(source))


def places(compiled: Compiled, root: str) -> list[str]:
    """The generated module's `AT`: each DSL place an error may name, its file joined to the game folder."""
    folder = Path(root).resolve()
    return [str(p) if Path(p.file).is_absolute() else f"{folder / p.file}:{p.line}:{p.col}" for p in compiled.places]


@lru_cache(maxsize=32)
def _load(folder: str, stamp: tuple) -> Game:
    filename = f"<meeple game {folder}>"
    root = Path(folder)
    name = cache.key(root, _game_files(root))
    hit = cache.read(name)
    if hit is not None:
        made, code = hit
    else:
        made, code = _compile(root, filename)
        cache.write(name, made, code)
    return Game(made, load_module(made, code, filename), filename)


def _compile(root: Path, filename: str) -> tuple[Built, CodeType]:
    """Stages 1–6 for a game folder: what the game is made of, and its module's code."""
    from .load.loader import MALFORMED, load_content

    content = load_content(root)
    try:
        made = compile_content(content)
    except MALFORMED:
        if content.errors:  # content the schema rejected, too broken to compile: report what was found
            raise AuthoringError(content.errors) from None
        raise
    code = module_code(made.compiled, filename)
    kept = replace(made.compiled, starts=[])  # (the typed routines are not kept: the module compiled)
    return built(content, made._replace(compiled=kept)), code


def _game_files(folder: Path) -> list[Path]:
    """The YAML files of a game folder (what its compiled game may depend on)."""
    return [p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()]


# folder → the game last loaded from it in this process, while anything holds that game
_LOADED: weakref.WeakValueDictionary[str, Game] = weakref.WeakValueDictionary()


def _reloaded(folder: str, max_steps: int) -> Game:
    return loaded_game(folder).with_max_steps(max_steps)


def loaded_game(folder: str) -> Game:
    """The game last loaded from `folder` (a game's `model.root`) in this process, as it was compiled then,
    without reading the folder again; else `load_game(folder)`. An unpickled match finds its game so."""
    game = _LOADED.get(folder)
    return game if game is not None else load_game(folder)


def _stamp(path: Path) -> tuple:
    """What tells that a file changed (an editor's dangling lock link simply has none)."""
    try:
        st = path.stat()
    except OSError:
        return (path.name, 0, 0)
    return (path.name, st.st_mtime_ns, st.st_size)


def load_game(name: str | Path) -> Game:
    """Load a bundled game by name, or a game folder by path. It is compiled once per process and
    again whenever a YAML file of the folder changes."""
    folder = find_game(str(name)).resolve()
    stamp = tuple(sorted(_stamp(p) for p in folder.rglob("*") if p.suffix in (".yaml", ".yml")))
    game = _load(str(folder), stamp)
    _LOADED[game.model.root] = game
    return game
