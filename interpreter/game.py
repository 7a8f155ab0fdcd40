"""The pipeline in one place: folder → content → parsed DSL → typed nodes → Python → a playable Game.

Each stage is one call taking the previous stage's output: load_content (stages 1–2), parse_program
(3), function_order + resolve_program (4), analyse + simplify_program + generate (5); then the
generated module is run once and wrapped in a Game. See docs/architecture.md.
"""

from __future__ import annotations

import ast
import copy
import linecache
import weakref
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from .diagnostics import AuthoringError, Diagnostic, Pos
from .lang.analysis import Plan, analyse, function_order
from .lang.compiler import Compiled, generate
from .lang.nodes import KNOCKS_OUT
from .lang.program import Program, parse_program, table_checks_without_me
from .lang.resolve import resolve_program, too_deep
from .lang.simplify import initial_values, simplify_program
from .limits import MAX_STEPS
from .load.loader import MALFORMED, Content, find_game, load_content
from .load.model import GameModel
from .paths import data_dir
from .run import runtime

_FLOW_PARTS = ("setup", "deal", "round", "turn", "after_deal", "after_last_round")


class DeclaredCheck(NamedTuple):
    """A compiled `checks:` entry: when (end | round_end | turn_end), for whom, and `holds(st, me)`."""

    at: str
    each_player: bool
    holds: Callable[[Any, int], bool]


class Game:
    """A compiled game: make matches of it with `new_match`."""

    def __init__(self, model: GameModel, content: Content, program: Program, plan: Plan, compiled: Compiled,
                 namespace: dict[str, Any], filename: str) -> None:
        self.model = model
        self.name = model.name
        self.title = model.title
        self.version = model.version
        self.min_players = model.min_players
        self.max_players = model.max_players
        self.default_players = model.default_players
        self.python_source = compiled.source
        self.code_filename = filename  # the name the generated module was compiled under (as tracebacks show it)
        self._compiled = compiled
        flow = content.data["flow"]
        self.flow = {k: [(namespace[f"phase_{p}"], program.phases[p] in plan.asking) for p in flow.get(k, [])]
                     for k in _FLOW_PARTS}
        # rounds per deal and deals per match: (how many at most, whether that is a safety cap, until)
        self.rounds, self.rounds_capped = _count(flow["rounds"])
        self.rounds_until = namespace.get("rounds_until")
        self.deals, self.deals_capped = _count(flow.get("deals", 1))
        self.deals_until = namespace.get("deals_until")
        self.has_deals = any(k in flow for k in ("deals", "deal", "after_deal"))
        self.flow_at = {k: str(content.smap.key_pos(("flow", k))) for k in ("rounds", "deals")}  # (step limit)
        self.effects = plan.effects  # what the game's statements can do to a match (lang/nodes.py: EFFECTS)
        self.knocks_out = KNOCKS_OUT in plan.effects  # (a game that never knocks anyone out skips those tests)
        self.score = namespace.get("result_score")
        self.tiebreaks = [namespace[f"result_tiebreak_{i}"] for i in range(len(content.tiebreaks))]
        result = content.data.get("result", {})
        self.lowest_wins = result.get("wins", "highest") == "lowest"
        self.out_can_win = result.get("knocked_out", "lose") == "score"
        self.report_by = namespace.get("report_by")
        self.bundled = Path(model.root).resolve().parent == data_dir("cards").resolve()
        self.report_title = content.data.get("report", {}).get("title", "group")
        self.report_per_round = list(content.data.get("report", {}).get("per_round", []))
        # what the terminal table shows besides zones and counters (`table:`): figures per player, counters left out
        self.figures = [(label, namespace[f"figure_{i}"]) for i, label in enumerate(content.figures)]
        self.hidden_counters = set(content.hidden_counters)
        self.lasting = dict(content.lasting)
        self.listings = dict(content.listings)
        self.invariants = {name: namespace[f"invariant_{name}"] for name in content.invariants}
        self.checks = {name: DeclaredCheck(c.at, c.each_player, namespace[f"check_{name}"])
                       for name, c in content.checks.items()}
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

    def with_max_steps(self, steps: int | None) -> Game:
        """This game with another step limit per match (`--max-steps`); a copy, the loaded game is shared."""
        if steps is None or steps == self.max_steps:
            return self
        other = copy.copy(self)
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


def _count(spec: Any) -> tuple[int, bool]:
    """`rounds:` or `deals:` of the flow: how many at most, and whether that number is a safety cap."""
    if isinstance(spec, dict):
        return spec["at_most"], True
    return spec, False


def compile_content(content: Content) -> tuple[Program, Plan, Compiled]:
    """Stages 3–5: parse every DSL text, resolve names and types into typed nodes, analyse and
    simplify them, and write the game's Python module. Raises AuthoringError with every mistake."""
    program = parse_program(content)
    functions = function_order(program)
    resolve_program(program, functions)
    table_checks_without_me(program)
    _raise_if(program.errors)
    plan = analyse(program)
    simplify_program(program)
    initial_values(program)
    _raise_if(program.errors)
    compiled, errors = generate(program, plan)
    _raise_if(errors)
    return program, plan, compiled


def _raise_if(errors: list[Diagnostic]) -> None:
    if errors:
        unique = list({(str(d.pos), d.message): d for d in errors}.values())
        raise AuthoringError(sorted(unique, key=lambda d: (d.pos.file, d.pos.line, d.pos.col)))


def load_module(program: Program, compiled: Compiled, filename: str) -> dict[str, Any]:
    """Run the generated source once (registered with linecache, so tracebacks show its lines) and
    fill the tables of card abilities and conditions."""
    model = program.model
    namespace: dict[str, Any] = {name: getattr(runtime, name) for name in runtime.GENERATED_CODE_NAMES}
    namespace["PROMPTS"] = compiled.prompts
    namespace["AT"] = places(compiled, model.root)
    try:
        code = compile(folded(compiled.source, compiled.constants), filename, "exec")
    except (SyntaxError, RecursionError) as err:  # Python's own limits on nesting
        line = getattr(err, "lineno", None) or 1
        culprit = next((r for start, r in reversed(compiled.starts) if start <= line), compiled.starts[0][1])
        raise AuthoringError([too_deep(culprit)]) from None
    linecache.cache[filename] = (len(compiled.source), None, compiled.source.splitlines(True), filename)
    exec(code, namespace)
    by_card = [[None] * len(model.cards) for _ in model.abilities]
    for ability, versions in program.abilities.items():
        k = model.abilities.index(ability)
        for r in versions:
            by_card[k][r.card] = namespace[r.pyname]
    namespace["ABILITIES"] = by_card
    stated = {(r.ability, r.card): namespace[r.pyname] for r in program.conditions}
    namespace["CONDITIONS"] = [[stated.get((name, di)) or runtime.always(default) for di in range(len(model.cards))]
                               for name, default in model.conditions.items()]
    return namespace


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
    content = load_content(Path(folder))
    try:
        program, plan, compiled = compile_content(content)
    except MALFORMED:
        if content.errors:  # content the schema rejected, too broken to compile: report what was found
            raise AuthoringError(content.errors) from None
        raise
    filename = f"<meeple game {folder}>"
    namespace = load_module(program, compiled, filename)
    return Game(content.model, content, program, plan, compiled, namespace, filename)


# folder → the game last loaded from it in this process, while anything holds that game
_LOADED: weakref.WeakValueDictionary[str, Game] = weakref.WeakValueDictionary()


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
