"""The pipeline in one place: folder → content → parsed DSL → compiled Python → a playable Game."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Token, Tree

from .diagnostics import Anchor, AuthoringError, Diagnostic
from .lang.compiler import Compiler, Routine
from .lang.parser import keywords, parse
from .load.loader import MALFORMED, Content, Text, find_game, load_content
from .load.model import GameModel
from .paths import data_dir
from .run import runtime


def _uses(tree: Tree) -> tuple[bool, set[str], set[str]]:
    """Does a tree ask directly, which verbs does it call, which abilities does it resolve?"""
    asks, verbs, abilities = False, set(), set()
    for node in tree.iter_subtrees():
        if node.data in ("let_choice", "simultaneous"):
            asks = True
        elif node.data == "call":
            verbs.add(str(next(c for c in node.children if not isinstance(c, Tree) and c.type == "VERB")))
        elif node.data == "resolve":
            abilities.add(str(node.children[0]))
    return asks, verbs, abilities


class Game:
    """A compiled game: make matches of it with `new_match`."""

    def __init__(self, model: GameModel, content: Content, namespace: dict[str, Any], source: str) -> None:
        self.model = model
        self.name = model.name
        self.title = model.title
        self.version = model.version
        self.min_players = model.min_players
        self.max_players = model.max_players
        self.default_players = model.default_players
        self.source = source
        flow = content.data["flow"]
        self.rounds = flow["rounds"]
        self.flow = {k: [(namespace[f"phase_{p}"], p in content.generator_phases) for p in flow.get(k, [])]
                     for k in ("setup", "round", "turn", "after_last_round")}
        self._direct = content.direct
        self.flow_names = {k: list(flow.get(k, [])) for k in ("setup", "round", "turn", "after_last_round")}
        self._direct_flow: dict | None = None
        self.score = namespace.get("result_score")
        self.tiebreaks = [namespace[f"result_tiebreak_{i}"] for i in range(len(content.tiebreaks))]
        self.report_by = namespace.get("report_by")
        self.bundled = Path(model.root).resolve().parent == data_dir("cards").resolve()
        self.report_title = content.data.get("report", {}).get("title", "group")
        self.report_per_round = list(content.data.get("report", {}).get("per_round", []))
        self.invariants = {name: namespace[f"invariant_{name}"] for name in content.invariants}
        counters = model.counters.values()
        self.resets = {
            when: ([c.index for c in counters if c.reset == when and not c.per_player],
                   [c.index for c in counters if c.reset == when and c.per_player])
            for when in ("round", "turn")
        }
        self.counter_names = ([(c.index, c.name) for c in counters if not c.per_player],
                              [(c.index, c.name) for c in counters if c.per_player])
        self.prompts: list[str] = namespace["PROMPTS"]
        self.prop_names = {i: name for name, i in model.prop_index.items()}
        self.initial = {c.index: c.initial for c in counters if not c.per_player}
        self.player_initial = {c.index: c.initial for c in counters if c.per_player}

    def check_players(self, n: int) -> int:
        """`n` if the game is played by that many, else ValueError with the range."""
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players}–{self.max_players} players, not {n}")
        return n

    @property
    def direct_flow(self) -> dict:
        """The phases of the direct variant (choices call `st.choose`; nothing yields), compiled on
        first use: what `sim` runs."""
        if self._direct_flow is None:
            namespace = self._direct()
            self._direct_flow = {k: [(namespace[f"phase_{p}"], False) for p in phases]
                                 for k, phases in self.flow_names.items()}
        return self._direct_flow

    def new_match(self, players: int | None = None, seed: int = 0, log: bool = False, bots=None,
                  arrange: dict[str, list[str]] | None = None, after_setup=None, chance=None):
        """Start a match; see interpreter.run.match.Match."""
        from .run.match import Match

        return Match(self, players or self.default_players, seed, log=log, bots=bots, arrange=arrange,
                     after_setup=after_setup, chance=chance)


def build(content: Content) -> tuple[dict[str, Any], str]:
    """Parse every DSL text, compile the game to Python source and load it."""
    model = content.model
    errors: list[Diagnostic] = list(content.errors)
    forms: dict[str, list[tuple[str, ...]]] = {}
    verb_of: dict[str, str] = {}
    reserved = keywords()
    for name, (_, _, text) in content.procedures.items():
        for form in content.data["procedures"][name]["forms"]:
            words = tuple(form.split())
            if not words:
                continue  # the schema has reported it
            if len(words) == 1 and words[0] in reserved:
                errors.append(Diagnostic(text.at.shifted(1, 1), f"procedure form `{form}` is a DSL keyword",
                                         "pick another word, or a form of two words"))
            joined = " ".join(words)
            if joined in verb_of:
                errors.append(Diagnostic(text.at.shifted(1, 1),
                                         f"the form `{joined}` belongs to `{verb_of[joined]}` already",
                                         "each way of writing a verb names one procedure"))
            forms.setdefault(words[0], []).append(words)
            verb_of[joined] = name
    for name in list(model.counters) + list(model.game_zones) + list(model.player_zones) + list(model.prop_defaults):
        if name in verb_of or name in reserved:
            errors.append(Diagnostic(_where(model, name),
                                     f"`{name}` is also a {'DSL keyword' if name in reserved else 'verb'}",
                                     "zones and counters need names that are not verbs or keywords"))

    def parsed(text: Text, expression: bool = False) -> Tree | None:
        try:
            return parse(text.text, text.at, forms, expression)
        except AuthoringError as err:
            errors.extend(err.diagnostics)
        except RecursionError:
            errors.append(Diagnostic(text.at.shifted(1, 1), "this text nests too deeply to read",
                                     "split it into procedures or functions"))
        return None

    procedures: dict[str, Routine] = {}
    functions: dict[str, Routine] = {}
    abilities: dict[str, list[Routine]] = {}
    for name, (params, types, text) in content.procedures.items():
        procedures[name] = Routine(f"proc_{name}", parsed(text), text.at, params, name, "proc", types)
    for name, (params, types, text) in content.functions.items():
        functions[name] = Routine(f"fn_{name}", parsed(text, True), text.at, params, name, "function", types)
    phases = {name: Routine(f"phase_{name}", parsed(t), t.at, [], name, "phase") for name, t in content.phases.items()}
    conditions: list[Routine] = []
    for di, card in enumerate(model.cards):
        for ability, (text, at, label) in card.abilities.items():
            if ability in model.conditions:
                tree = parsed(Text(text, at, label), True)
                conditions.append(Routine(f"condition_{di}_{ability}", tree, at, [], label, "condition"))
                continue
            r = Routine(f"ability_{di}_{ability}", parsed(Text(text, at, label)), at, [], label, "ability")
            abilities.setdefault(ability, []).append(r)
    extras = []
    if content.score is not None:
        extras.append(Routine("result_score", parsed(content.score, True), content.score.at, [], "score", "function",
                              returns="num"))
    for i, t in enumerate(content.tiebreaks):
        extras.append(Routine(f"result_tiebreak_{i}", parsed(t, True), t.at, [], t.label, "function", returns="num"))
    if content.report_by is not None:
        t = content.report_by
        extras.append(Routine("report_by", parsed(t, True), t.at, [], "report by", "function", returns="text"))
    for name, t in content.invariants.items():
        extras.append(Routine(f"invariant_{name}", parsed(t, True), t.at, [], name, "function", returns="bool"))
    # Which routines can ask a player something (and so are generators): a fixpoint over calls.
    every = [r for r in list(procedures.values()) + list(phases.values()) + [r for rs in abilities.values() for r in rs]
             if r.tree is not None]
    usage = {id(r): _uses(r.tree) for r in every}
    gen_abilities: set[str] = set()
    changed = True
    while changed:
        changed = False
        for r in every:
            asks, verbs, used = usage[id(r)]
            now = asks or any(procedures[verb_of[v]].generator for v in verbs) or bool(used & gen_abilities)
            if now and not r.generator:
                r.generator = changed = True
        for ability, rs in abilities.items():
            if any(r.generator for r in rs) and ability not in gen_abilities:
                gen_abilities.add(ability)
                changed = True
    for ability in gen_abilities:
        for r in abilities[ability]:
            r.generator = True  # a `resolve` must treat every card's version alike

    recursive = _recursive(procedures, {id(r): usage[id(r)] for r in every}, verb_of)
    ordered_functions, cycle = _dependency_order(functions)
    if cycle is not None:
        errors.append(Diagnostic(cycle.at.shifted(1, 1), f"function `{cycle.label}` depends on itself",
                                 "a function's value may not need its own value"))
    order = [r for r in ordered_functions + extras + conditions + every if r.tree is not None]

    def variant(direct: bool) -> tuple[str, list[str], list[Diagnostic]]:
        """Python source of every routine: yielding asks (the step API) or calling `st.choose` (direct)."""
        comp = Compiler(model, procedures, functions, abilities)
        comp.recursive, comp.verbs, comp.generator_abilities = recursive, verb_of, gen_abilities
        comp.rounds = content.data["flow"]["rounds"]
        comp.direct = direct
        comp.yielding = not direct
        lines: list[str] = []
        starts.clear()
        for r in order:
            starts.append((len(lines) + 1, r))
            try:
                lines += comp.compile_routine(r)
            except RecursionError:
                comp.errors.append(too_deep(r))
            lines.append("")
        return "\n".join(lines), comp.prompts, comp.errors

    def too_deep(r: Routine) -> Diagnostic:
        return Diagnostic(r.at.shifted(1, 1), "this text nests too deeply to compile",
                          "split it into procedures or functions")

    starts: list[tuple[int, Routine]] = []
    source, prompts, found = variant(direct=False)
    errors += found
    errors = list({(str(d.pos), d.message): d for d in errors}.values())  # an inlined body reports once
    if errors:
        raise AuthoringError(sorted(errors, key=lambda d: (d.pos.file, d.pos.line, d.pos.col)))
    try:
        namespace = _load_module(model, source, prompts, abilities)
    except (SyntaxError, RecursionError) as err:  # Python's own limits on nesting
        line = getattr(err, "lineno", None) or 1
        culprit = next((r for start, r in reversed(starts) if start <= line), order[0])
        raise AuthoringError([too_deep(culprit)]) from None
    content.generator_phases = {name for name, r in phases.items() if r.generator}
    content.direct = lambda: _load_module(model, *variant(direct=True)[:2], abilities)
    return namespace, source


def _load_module(model: GameModel, source: str, prompts: list[str], abilities: dict) -> dict[str, Any]:
    """Run the generated source; fill the tables of card abilities and conditions."""
    namespace = dict(_RUNTIME)
    namespace["PROMPTS"] = prompts
    exec(compile(source, f"<game {model.name}>", "exec"), namespace)
    by_card = [[None] * len(model.cards) for _ in model.abilities]
    for ability, rs in abilities.items():
        k = model.abilities.index(ability)
        for r in rs:
            di = int(r.pyname.split("_")[1])
            by_card[k][di] = namespace[r.pyname]
    namespace["ABILITIES"] = by_card
    answers = []
    for name, default in model.conditions.items():
        fixed = _constant(default)
        answers.append([namespace.get(f"condition_{di}_{name}", fixed) for di in range(len(model.cards))])
    namespace["CONDITIONS"] = answers
    return namespace


def _dependency_order(functions: dict[str, Routine]) -> tuple[list[Routine], Routine | None]:
    """Functions ordered so that each comes after those it uses (their types are then known), and the
    first function found to depend on itself, if any."""
    uses = {name: {str(t) for t in r.tree.scan_values(lambda v: isinstance(v, Token))} & set(functions)
            if r.tree is not None else set() for name, r in functions.items()}
    done: list[str] = []
    state: dict[str, int] = {}  # 1 being visited, 2 placed
    cycle: list[Routine] = []

    def visit(name: str) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle.append(functions[name])
            return
        state[name] = 1
        for used in sorted(uses[name]):
            visit(used)
        state[name] = 2
        done.append(name)

    for name in functions:
        visit(name)
    return [functions[n] for n in done], (cycle[0] if cycle else None)


def _constant(answer: bool):
    """The condition of a card that does not state it: always the declared default."""
    return lambda st, me, this: answer


def _recursive(procedures: dict[str, Routine], usage: dict, verb_of: dict[str, str]) -> set[str]:
    """Python names of procedures that can reach themselves through calls (these are not inlined)."""
    calls = {name: {verb_of[v] for v in usage[id(r)][1]} if id(r) in usage else set()
             for name, r in procedures.items()}
    found = set()
    for start in procedures:
        stack, seen = list(calls[start]), set()
        while stack:
            name = stack.pop()
            if name == start:
                found.add(procedures[start].pyname)
                break
            if name not in seen:
                seen.add(name)
                stack += calls[name]
    return found


def _where(model: GameModel, name: str):
    z = model.zone(name)
    if z is not None:
        return z.pos
    if name not in model.counters:
        return Anchor(model.root + "/game.yaml", 1, 1).shifted(1, 1)
    return model.counters[name].pos


def top(cards: list[int]) -> int:
    """The first card of a list, or -1."""
    return cards[0] if cards else -1


def last(cards: list[int]) -> int:
    """The last card of a list, or -1."""
    return cards[-1] if cards else -1


def first_n(cards: list[int], n: int) -> list[int]:
    """The first n cards (all if fewer, none if n < 1)."""
    return cards[: max(0, n)]


def last_n(cards: list[int], n: int) -> list[int]:
    """The last n cards (all if fewer, none if n < 1)."""
    return cards[len(cards) - n:] if 0 < n <= len(cards) else (list(cards) if n > 0 else [])


def floordiv(a: int, b: int) -> int:
    """Whole-number division, rounding down; dividing by zero is a content bug."""
    if b == 0:
        raise runtime.RuleError("division by zero")
    return a // b


def mod(a: int, b: int) -> int:
    if b == 0:
        raise runtime.RuleError("remainder of a division by zero")
    return a % b


def ring_distance(a: int, b: int, size: int) -> int:
    """Steps between two positions on a ring of `size`, the shorter way round."""
    if size < 1:
        raise runtime.RuleError(f"ring_distance needs at least 1 place, not {size}")
    d = (a - b) % size
    return min(d, size - d)


def choose_cards(who: int, pool: list[int], n: int, up_to: bool, question: int):
    """Ask for cards one at a time (actions stay small ints); `up_to` adds a "done" option (-1)."""
    chosen: list[int] = []
    for _ in range(n):
        if not pool:
            break
        options = [-1, *pool] if up_to else list(pool)
        c = options[0] if len(options) == 1 else (yield (who, options, runtime.K_CARD, question))
        if c < 0:
            break
        chosen.append(c)
        pool.remove(c)
    return chosen


def choose_cards_now(st, who: int, pool: list[int], n: int, up_to: bool, question: int) -> list[int]:
    """`choose_cards` for the direct variant: each pick is asked of `st.choose` at once."""
    chosen: list[int] = []
    for _ in range(n):
        if not pool:
            break
        options = [-1, *pool] if up_to else list(pool)
        c = options[0] if len(options) == 1 else st.choose(st, who, options, runtime.K_CARD, question)
        if c < 0:
            break
        chosen.append(c)
        pool.remove(c)
    return chosen


_RUNTIME = {
    name: getattr(runtime, name)
    for name in ("move", "move_all", "move_cards", "kept_sight", "moved", "shuffle", "flip", "flip_all",
                 "show", "roll", "random_card", "say", "fmt", "check_loop", "one_ask_each", "GameOver")
}
_RUNTIME.update(top=top, last=last, first_n=first_n, last_n=last_n, floordiv=floordiv, mod=mod,
                ring_distance=ring_distance, choose_cards=choose_cards, choose_cards_now=choose_cards_now)


@lru_cache(maxsize=32)
def _load(folder: str, stamp: tuple) -> Game:
    content = load_content(Path(folder))
    try:
        namespace, source = build(content)
    except MALFORMED:
        if content.errors:  # content the schema rejected, too broken to compile: report what was found
            raise AuthoringError(content.errors) from None
        raise
    return Game(content.model, content, namespace, source)


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
    return _load(str(folder), stamp)
