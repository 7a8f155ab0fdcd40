"""Stage 3 for a whole game: every DSL text of the content parsed into one Routine each.

A Routine is one text that becomes one Python function (a phase, a procedure, a function, a card's
ability or condition, the score…). Later stages hand on new routines rather than fill these in: resolution
a Program whose routines carry their typed nodes, simplification one with those folded (`Program.renewed`);
a Program is the game's routines plus its verbs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from lark import Tree

from ..diagnostics import Anchor, AuthoringError, Diagnostic
from ..load.loader import Content, Text
from ..load.model import GameModel
from . import nodes as n
from .parser import NEWER_KEYWORDS, keywords, parse, renamed


@dataclass(eq=False)
class Routine:
    """One DSL text compiled into one Python function."""

    pyname: str
    tree: Tree | None  # None: the text did not parse (its errors are reported)
    at: Anchor
    params: list[str]
    label: str
    kind: str = "proc"  # proc | phase | ability | condition | function
    param_types: list[str] = field(default_factory=list)
    returns: str | None = None  # for an expression: num (a score), bool (an invariant) or text (a label)
    table: bool = False  # a check for the table: its text may not name `me`
    card: int = -1  # an ability or condition: the index of its card's definition
    ability: str | None = None  # …and the ability or condition it is
    # what resolution made of it (a new Routine: the parsed one is left without)
    result_type: str = "any"
    body: list[n.Stmt] | None = None  # a statement text's typed statements
    value: n.Expr | None = None  # an expression text's typed value
    me: n.Var | None = None
    this: n.Var | None = None
    param_vars: list[n.Var] = field(default_factory=list)

    @property
    def statements(self) -> bool:
        """A statement text (phase, procedure, ability), not an expression."""
        return self.kind in ("proc", "phase", "ability")


@dataclass
class Program:
    """Every routine of a game, by kind, and the verbs that name its procedures."""

    model: GameModel
    rounds: int
    procedures: dict[str, Routine] = field(default_factory=dict)
    functions: dict[str, Routine] = field(default_factory=dict)
    phases: dict[str, Routine] = field(default_factory=dict)
    abilities: dict[str, list[Routine]] = field(default_factory=dict)  # ability → each card's version
    conditions: list[Routine] = field(default_factory=list)
    extras: list[Routine] = field(default_factory=list)  # score, tie-breaks, report label, invariants
    initials: dict[str, Routine] = field(default_factory=dict)  # counters' `initial` expressions (not compiled)
    verbs: dict[str, str] = field(default_factory=dict)  # a verb's form → its procedure
    errors: list[Diagnostic] = field(default_factory=list)

    def actions(self) -> list[Routine]:
        """The statement routines: procedures, phases and card abilities."""
        return [*self.procedures.values(), *self.phases.values(), *(r for rs in self.abilities.values() for r in rs)]

    def renewed(self, new: dict[int, Routine], errors: list[Diagnostic]) -> Program:
        """A new Program of the same game: each routine replaced by its new version in `new` (by the id of the
        routine it replaces; the others as they are), with `errors`; this one is left as it is."""

        def get(r: Routine) -> Routine:
            return new.get(id(r), r)

        return replace(self, procedures={k: get(r) for k, r in self.procedures.items()},
                       functions={k: get(r) for k, r in self.functions.items()},
                       phases={k: get(r) for k, r in self.phases.items()},
                       abilities={k: [get(r) for r in rs] for k, rs in self.abilities.items()},
                       conditions=[get(r) for r in self.conditions], extras=[get(r) for r in self.extras],
                       initials={k: get(r) for k, r in self.initials.items()}, errors=errors)


def parse_program(content: Content) -> Program:
    """Parse every DSL text of the content (stage 3); syntax errors are collected in `errors`."""
    rounds = content.flow.rounds if content.flow is not None else 1  # (the rounds of a deal, at most)
    program = Program(content.model, rounds, errors=list(content.errors))
    parsed = _Reader(program.errors, _verbs(content, program))
    _statement_texts(content, program, parsed)
    _card_texts(content, program, parsed)
    _expression_texts(content, program, parsed)
    return program


class _Reader:
    """Parses one DSL text with the game's verbs: its tree, or None (its syntax errors collected)."""

    def __init__(self, errors: list[Diagnostic], forms: dict[str, list[tuple[str, ...]]]) -> None:
        self.errors, self.forms = errors, forms

    def __call__(self, text: Text, expression: bool = False) -> Tree | None:
        try:
            return parse(text.text, text.at, self.forms, expression)
        except AuthoringError as err:
            self.errors.extend(err.diagnostics)
        except RecursionError:
            self.errors.append(Diagnostic(text.at.shifted(1, 1), "this text nests too deeply to read",
                                          "split it into procedures or functions"))
        return None


def _statement_texts(content: Content, program: Program, parsed: _Reader) -> None:
    """Procedures, functions and phases."""
    for name, (params, types, text) in content.procedures.items():
        program.procedures[name] = Routine(f"proc_{name}", parsed(text), text.at, params, name, "proc", types)
    for name, (params, types, text) in content.functions.items():
        program.functions[name] = Routine(f"fn_{name}", parsed(text, True), text.at, params, name, "function",
                                          types)
    for name, t in content.phases.items():
        program.phases[name] = Routine(f"phase_{name}", parsed(t), t.at, [], name, "phase")


def _card_texts(content: Content, program: Program, parsed: _Reader) -> None:
    """Each card's abilities (statements) and conditions (expressions)."""
    model = content.model
    for di, card in enumerate(model.cards):
        for ability, (written, at, label) in card.abilities.items():
            if ability in model.conditions:
                tree = parsed(Text(written, at, label), True)
                program.conditions.append(Routine(f"condition_{di}_{ability}", tree, at, [], label, "condition",
                                                  card=di, ability=ability))
                continue
            r = Routine(f"ability_{di}_{ability}", parsed(Text(written, at, label)), at, [], label, "ability", card=di,
                        ability=ability)
            program.abilities.setdefault(ability, []).append(r)


def _expression_texts(content: Content, program: Program, parsed: _Reader) -> None:
    """The game's other expressions: score, tiebreaks, report, table figures, initial values, invariants, the
    flow's `until`s, checks."""
    extras = program.extras

    def value(pyname: str, t: Text, label: str, returns: str, table: bool = False) -> Routine:
        return Routine(pyname, parsed(t, True), t.at, [], label, "function", returns=returns, table=table)

    if content.score is not None:
        extras.append(value("result_score", content.score, "score", "num"))
    for i, t in enumerate(content.tiebreaks):
        extras.append(value(f"result_tiebreak_{i}", t, t.label, "num"))
    if content.report_by is not None:
        extras.append(value("report_by", content.report_by, "report by", "text"))
    for i, t in enumerate(content.figures.values()):  # the table's figures, each as text (a card by name)
        extras.append(value(f"figure_{i}", t, t.label, "text"))
    for name, t in content.initials.items():
        program.initials[name] = value(f"initial_{name}", t, t.label, "num")
    for name, t in content.invariants.items():
        extras.append(value(f"invariant_{name}", t, name, "bool"))
    for key, t in content.until.items():
        extras.append(value(f"{key}_until", t, t.label, "bool"))
    for name, check in content.checks.items():
        extras.append(value(f"check_{name}", check.text, name, "bool", table=not check.each_player))


def table_checks_without_me(program: Program) -> None:
    """A check for the table is worked out once, for nobody: its text may not name `me` (nor say `my`,
    `opponents`…). Game functions it calls get `me` as nobody."""
    for r in program.extras:
        if r.table and r.value is not None and _names(r.value, r.me):
            program.errors.append(Diagnostic(r.at.shifted(1, 1), f"check `{r.label}` is for the table, but it "
                                             "speaks of `me`", "add `for: each_player` to check it for every player"))


def checks_draw_no_chance(program: Program) -> None:
    """An invariant or a check is worked out by `check` and `sim --check` only: one that rolls or picks at random
    would draw from the match's chance and play another match than the one it checks (and `replay`)."""
    for r in program.extras:
        if not r.pyname.startswith(("invariant_", "check_")) or r.value is None or "rng" not in r.value.reads():
            continue
        what = "invariant" if r.pyname.startswith("invariant_") else "check"
        found = _drawing(r.value)
        program.errors.append(Diagnostic((found.at if found is not None else None) or r.at.shifted(1, 1),
                                         f"{what} `{r.label}` draws chance (a roll or a random pick), so checking it "
                                         "would change the match it checks",
                                         "roll in a phase and keep the result in a counter the check reads"))


def _drawing(e: n.Expr) -> n.Expr | None:
    """The innermost part of `e` that draws chance."""
    for child in e.children():
        if "rng" in child.reads():
            return _drawing(child) or child
    return e if "rng" in e.READS or getattr(e, "chance", False) else None


def _names(node: object, var: n.Var | None) -> bool:
    """Does a typed expression use `var` (other than as the player a game function is called for)?"""
    if isinstance(node, n.Ref):
        return node.var is var
    if isinstance(node, (list, tuple)):
        return any(_names(x, var) for x in node)
    if not isinstance(node, n.Expr):
        return False
    skip = "me" if isinstance(node, n.FunctionCall) else None
    return any(_names(getattr(node, f.name), var) for f in fields(node) if f.name not in (skip, "at"))


def _verbs(content: Content, program: Program) -> dict[str, list[tuple[str, ...]]]:
    """The forms of every procedure, by first word (what the parser turns into VERB tokens)."""
    model, errors, verb_of = content.model, program.errors, program.verbs
    forms: dict[str, list[tuple[str, ...]]] = {}
    reserved = keywords()
    for name, (_, _, text) in content.procedures.items():
        for form in content.forms.get(name, []):
            words = tuple(form.split())
            if not words:
                continue  # the schema has reported it
            if len(words) == 1 and words[0] in reserved:
                errors.append(Diagnostic(text.at.shifted(1, 1), f"procedure form `{form}` is a DSL keyword",
                                         renamed(words[0]) if words[0] in NEWER_KEYWORDS
                                         else "pick another word, or a form of two words"))
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
                                     renamed(name) if name in NEWER_KEYWORDS
                                     else "zones and counters need names that are not verbs or keywords"))
    return forms


def _where(model: GameModel, name: str):
    z = model.zone(name)
    if z is not None:
        return z.pos
    if name not in model.counters:
        return Anchor(model.root + "/game.yaml", 1, 1).shifted(1, 1)
    return model.counters[name].pos
