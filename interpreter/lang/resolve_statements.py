"""Stage 4, statements: resolve names and types in a statement's lark tree and build its typed node, one
`stmt_<rule>` method a grammar rule (as jinja2's Parser has a `parse_<keyword>` a statement); the blocks, the
scopes of `let` names and the loops open around a statement. The expressions are resolved by the half it
subclasses (expressions.py, with the functions of calls.py); the driving loop over a program is resolve.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Tree

from ..diagnostics import did_you_mean
from ..limits import MAX_LOOP, MAX_OPTIONS
from . import nodes as n
from .asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT
from .blocks import ForCards, ForPlayers, If, Repeat, Visit, While
from .calls import ExprResolver
from .expressions import Abort, Scope, plain_string, ref, token, type_word
from .sentences import narrated
from .statements import (
    STATEMENTS,
    Add,
    Assign,
    Call,
    Choice,
    EndDeal,
    EndGame,
    FixedOptions,
    Flip,
    GuardedOptions,
    KnockOut,
    Let,
    LetChoice,
    Move,
    Nothing,
    NumberRange,
    Options,
    Resolve,
    Reveal,
    Say,
    Show,
    Shuffle,
    Stop,
    Subtract,
)


class StatementResolver(ExprResolver):
    """Turns the lark tree of each statement into its typed node, collecting authoring errors."""

    def __init__(self, model, functions: dict, rounds: int, procedures: dict, verbs: dict) -> None:
        super().__init__(model, functions, rounds)
        self.procedures = procedures
        self.verbs = verbs
        self.loops = 0  # loops open around the statement being resolved, in the current text
        self.lets: list[n.Var] = []  # the variables the current text's `let`s made, in order
        self.widened: dict[int, str] = {}  # a `let` variable first none, then let as a card or player: its type
        self.decided: dict[int, str] = {}  # the types of the current text's variables found when it was resolved

    def block(self, stmts, scope: Scope) -> list[n.Stmt]:
        out: list[n.Stmt] = []
        for s in stmts:
            if not isinstance(s, Tree):
                continue  # a `, then` separator
            if s.data == "suite":
                out += self.block(s.children, scope)
                continue
            try:
                node = self.statement(s, scope)
            except Abort:  # keep going: report every mistake of the text in one run
                if s.data in ("let", "let_choice"):
                    scope.define(n.Var(str(s.children[0]), "let", "any"))  # no follow-on "unknown name"
                continue
            node.at = self.pos(s)
            out.append(node)
        return out

    def statement(self, s: Tree, scope: Scope) -> n.Stmt:
        """The node of one statement: by `stmt_<rule>`, or by the class registered for the rule if it resolves
        itself (a statement added from outside the package, as docs/architecture.md's worked example)."""
        method = getattr(self, f"stmt_{s.data}", None)
        if method is not None:
            node: n.Stmt = method(s, scope)
            return node
        cls = STATEMENTS.get(s.data)
        assert cls is not None and hasattr(cls, "resolve"), f"nothing resolves the statement {s.data}"
        node = getattr(cls, "resolve")(self, s, scope)  # noqa: B009
        return node

    def suite(self, tree: Tree, scope: Scope) -> list[n.Stmt]:
        """The statements of a nested block (its `let`s still live to the end of the text)."""
        return self.block(tree.children, Scope(scope))

    def loop_body(self, stmts, scope: Scope) -> list[n.Stmt]:
        """The statements of a loop body (where `stop` may end the loop)."""
        self.loops += 1
        try:
            return self.block(stmts, scope)
        finally:
            self.loops -= 1

    def own_body(self, stmts, scope: Scope) -> list[n.Stmt]:
        """A body run apart from the text around it (no loop of the text is open inside it)."""
        loops, self.loops = self.loops, 0
        try:
            return self.block(stmts, scope)
        finally:
            self.loops = loops

    def local(self, scope: Scope, name: str, typ: str) -> n.Var:
        """The variable a `let` sets; it lives on to the end of its text, as in Python.

        Let-ing a name again sets the same variable (so a value set in both branches of an `if` is
        one variable), provided the type is the same."""
        root = scope.root()
        found = root.vars.get(name)
        if found is not None and found.type == typ:
            return found
        if found is not None and {found.type, typ} in ({"none", "card"}, {"none", "player"}):
            # `let c = none` then `let c = a card…`: one variable, of the type that is not none. Its type is
            # decided before any reference to it is made: found only now, the text is resolved again with it.
            if found.type == "none":
                self.widened[self.lets.index(found)] = typ
            return found
        made = n.Var(name, "let", self.decided.get(len(self.lets), typ) if typ == "none" else typ)
        self.lets.append(made)
        return root.define(made)


    def stmt_let(self, s: Tree, scope: Scope) -> Let:
        name, value = s.children
        v = self.expr(value, scope)
        kept = scope.root().vars.get(str(name))
        if kept is not None and kept.type != v.type and kept.type.startswith("list:") and v.type.startswith("list:"):
            self.fail(self.pos(value), f"`{name}` holds {type_word(kept.type)}, but this is {type_word(v.type)}",
                      "a name keeps one kind of list (each value is said as what it is): give this one another name")
        return Let(self.local(scope, str(name), v.type), v)

    def stmt_let_choice(self, s: Tree, scope: Scope) -> LetChoice:
        choice = _choice(self, s, scope)
        return LetChoice(self.local(scope, str(s.children[0]), choice.type), choice)

    def stmt_set(self, s: Tree, scope: Scope) -> Assign:
        t, value = s.children
        target, floor = _counter_target(self, t, scope)
        return Assign(target, self.expect(value, scope, target.type), floor)

    def stmt_add(self, s: Tree, scope: Scope) -> Assign:
        return _change(Add, self, s, scope, "+")

    def stmt_subtract(self, s: Tree, scope: Scope) -> Assign:
        return _change(Subtract, self, s, scope, "-")

    def stmt_move(self, s: Tree, scope: Scope) -> Move:
        what, dest = s.children[:2]
        facing = s.children[2] if len(s.children) > 2 else None
        zone = self.expect(dest.children[-1], scope, "zone")
        place: int | n.Expr = 0
        if dest.data == "dest_place":
            p = dest.children[0]
            known = _PLACES.get(p.data)
            if known is not None:
                place = known
            else:
                place = n.Helper("max", [n.Const(0, "num"), n.Arith("-", self.expect(p.children[0], scope, "num"),
                                                                    n.Const(1, "num"))], "num")
        named = self.model.zone(zone.zone) if isinstance(zone, n.GameZone | n.PlayerZone) else None
        move = Move(None, zone, place, _facing(facing), limit=named.limit if named else None,
                   face_up=named.face_up if named else True)
        if what.data == "all_cards" or (what.data == "pick_n" and what.children[0].data == "end_top"):
            source = self.expr(what.children[-1], scope)
            if source.type == "zone":
                move.source = source
                move.count = (n.Const(-1, "num") if what.data == "all_cards" else
                              n.Helper("max", [n.Const(0, "num"), self.expect(what.children[1], scope, "num")], "num"))
                return move
        cards = self.expr(what, scope)
        move.cards = cards if cards.type in ("card", "none") else self.coerce(cards, "cards", what)
        return move

    def stmt_shuffle(self, s: Tree, scope: Scope) -> Shuffle:
        return Shuffle(self.expect(s.children[0], scope, "zone"))

    def stmt_flip(self, s: Tree, scope: Scope) -> Flip:
        what, facing = s.children
        return self._flipped(Flip, what, scope, facing.data == "face_up")

    def _flipped(self, cls: type[Flip], what: Tree, scope: Scope, up: bool) -> Flip:
        v = self.expr(what, scope)
        return cls(v if v.type == "card" else self.coerce(v, "cards", what), up)

    def stmt_reveal(self, s: Tree, scope: Scope) -> Flip:
        return self._flipped(Reveal, s.children[0], scope, True)

    def stmt_show(self, s: Tree, scope: Scope) -> Show:
        what, who = s.children
        player = self.expect(who, scope, "player")
        v = self.expr(what, scope)
        return Show(v if v.type == "card" else self.coerce(v, "cards", what), player)

    def stmt_say(self, s: Tree, scope: Scope) -> Say:
        return Say(narrated(self.interpolate(token(s.children[0]), scope)))

    def stmt_nothing(self, s: Tree, scope: Scope) -> Nothing:
        return Nothing()

    def stmt_stop(self, s: Tree, scope: Scope) -> Stop:
        if not self.loops:
            self.fail(self.pos(s), "`stop` must be inside a loop (while, repeat, for each) of the same text")
        return Stop()

    def stmt_end_game(self, s: Tree, scope: Scope) -> EndGame:
        who = [x for x in s.children if isinstance(x, Tree)]
        if not who:
            return EndGame(None)
        v = self.expr(who[0], scope)
        return EndGame(v if v.type == "player" else self.coerce(v, "players", who[0]))

    def stmt_end_deal(self, s: Tree, scope: Scope) -> EndDeal:
        _the_deal(self, s.children[0], "end")
        return EndDeal()

    def stmt_knock_out(self, s: Tree, scope: Scope) -> KnockOut:
        word, who, *until = s.children
        if str(word) != "out":
            self.fail(self.pos(word), f"expected `knock out` here, not `knock {word}`")
        if until:
            _the_deal(self, until[0], "for")
        return KnockOut(self.expect(who, scope, "player"), bool(until))

    def stmt_call(self, s: Tree, scope: Scope) -> Call:
        kids = list(s.children)
        subject = kids.pop(0) if isinstance(kids[0], Tree) and kids[0].data.startswith("subject") else None
        verb = kids.pop(0)
        name = self.verbs[str(verb)]
        proc = self.procedures[name]
        args = [a for a in kids if a is not None]
        if len(args) != len(proc.params):
            want = ", ".join(proc.params) or "nothing"
            self.fail(self.pos(verb), f"`{verb}` takes {len(proc.params)} value(s) ({want}), got {len(args)}")
        values = [self.expect(a, scope, ty) for a, ty in zip(args, proc.param_types, strict=False)]
        if subject is None:
            return Call(name, values, self.me(scope))
        if subject.data == "subject_player":
            return Call(name, values, self.expect(subject.children[0], scope, "player"))
        return Call(name, values, self.player_kind(subject.children[0], scope), each=True)

    def stmt_resolve(self, s: Tree, scope: Scope) -> Resolve:
        name, card = s.children
        ability = str(name)
        if ability not in self.model.abilities:
            self.fail(self.pos(name), f"unknown ability `{ability}`",
                   did_you_mean(ability, self.model.abilities) or "declare it under abilities: in game.yaml")
        return Resolve(ability, self.model.abilities.index(ability), self.expect(card, scope, "card"), self.me(scope))

    def stmt_if_stmt(self, s: Tree, scope: Scope) -> If:
        cond, body, *rest = s.children
        branches = [(self.condition(cond, scope), self.suite(body, scope))]
        orelse = None
        for clause in rest:
            if clause is None:
                continue
            if clause.data == "elif_clause":
                branches.append((self.condition(clause.children[0], scope), self.suite(clause.children[1], scope)))
            else:
                orelse = self.suite(clause.children[0], scope)
        return If(branches, orelse)

    def stmt_for_players(self, s: Tree, scope: Scope) -> ForPlayers:
        kind, name, *rest = s.children
        clauses = {t.data: t for t in rest[:-1] if isinstance(t, Tree)}
        inner = Scope(scope)
        var = inner.define(n.Var(str(name), "loop", "player"))
        if "from_clause" in clauses:
            pool: n.Expr = n.SeatsFrom(self.expect(clauses["from_clause"].children[0], scope, "player"))
            if kind.data != "kind_player":
                other = n.Var("x", "it", "player")
                pool = n.Filter(pool, other, n.Compare("!=", ref(other), self.me(scope)), "players")
        else:
            pool = self.player_kind(kind, scope)
        where = self.condition(clauses["where_clause"].children[0], inner) if "where_clause" in clauses else None
        if "simultaneous" not in clauses:
            return ForPlayers(var, pool, where, self.loop_body(rest[-1].children, inner))
        # The body's `let`s are its own (a fresh root scope that sees every name around it).
        own = Scope(None)
        for visible in reversed(inner.names()):
            if (found := inner.lookup(visible)) is not None:  # (always: the name is one of its own)
                own.vars[visible] = found
        return ForPlayers(var, pool, where, self.own_body(rest[-1].children, own), simultaneous=True)

    def stmt_for_cards(self, s: Tree, scope: Scope) -> ForCards:
        """`for each card c in CARDS:`, or `for each group g in GROUPS:` (each group a list of cards)."""
        kind, name, cards, body = s.children
        if kind.data == "loop_group":
            pool = self.expr(cards, scope)
            if pool.type != "groups":
                self.fail(self.pos(cards), f"`for each group` runs over groups of cards, but this is "
                                           f"{type_word(pool.type)}",
                          "make them with groups(CARDS, VALUE), or write `for each card`")
            each = "cards"
        else:
            pool = self.expr(cards, scope)
            if pool.type == "groups":
                self.fail(self.pos(cards), "these are groups of cards: write `for each group g in …`")
            pool, each = self.coerce(pool, "cards", cards), "card"
        inner = Scope(scope)
        var = inner.define(n.Var(str(name), "loop", each))
        return ForCards(var, pool, self.loop_body(body.children, inner))

    def stmt_visit(self, s: Tree, scope: Scope) -> Visit:
        name, zone, body = s.children
        zi = self.expect(zone, scope, "zone")
        inner = Scope(scope)
        var = inner.define(n.Var(str(name), "loop", "card"))
        return Visit(var, zi, self.loop_body(body.children, inner))

    def stmt_repeat(self, s: Tree, scope: Scope) -> Repeat:
        count, body = s.children
        times = self.expect(count, scope, "num")
        if isinstance(times, n.Const) and times.value > MAX_LOOP:
            self.fail(self.pos(count), f"`repeat {times.value} times` is more than {MAX_LOOP:,} rounds")
        return Repeat(times, self.loop_body(body.children, Scope(scope)))

    def stmt_while_stmt(self, s: Tree, scope: Scope) -> While:
        cond, *rest = s.children
        bound = self.expect(rest[0], scope, "num") if len(rest) == 2 else None
        return While(self.condition(cond, scope), bound, self.loop_body(rest[-1].children, Scope(scope)))



def _choice(r: StatementResolver, s: Tree, scope: Scope) -> Choice:
    _, chooser, choice, question = s.children
    who = r.me(scope) if chooser.data == "chooser_me" else r.expect(chooser.children[0], scope, "player")
    prompt = r.question(token(question), scope) if question is not None else None
    return _CHOICES[choice.data](r, choice, scope, who, prompt)


def _choose_cards(r: StatementResolver, choice: Tree, scope: Scope, who: n.Expr, prompt: Any) -> Choice:
    """`up to N cards from …`, `N cards from …` (up to one: a card or none)."""
    ch, up_to = choice.children, choice.data == "choose_up_to"
    count = r.expect(ch[0], scope, "num")
    cards = r.expect(ch[-1], scope, "cards")
    if up_to and isinstance(count, n.Const) and count.value == 1:
        return Choice(who, Options(cards, decline=True), K_CARD, prompt, "card")
    return Choice(who, Options(cards), K_CARD, prompt, "cards", count, up_to)


def _choose_option(r: StatementResolver, choice: Tree, scope: Scope, who: n.Expr, prompt: Any) -> Choice:
    """`one of "a", "b" if …`: texts, each maybe offered only when its condition holds."""
    guarded = [(plain_string(token(o.children[0])),
                r.condition(o.children[1], scope) if len(o.children) > 1 and o.children[1] is not None else None)
               for o in choice.children]
    if all(test is None for _, test in guarded):  # known when the game is compiled
        return Choice(who, FixedOptions([o for o, _ in guarded]), K_TEXT, prompt, "str")
    return Choice(who, GuardedOptions(guarded), K_TEXT, prompt, "str")


def _choose_number(r: StatementResolver, choice: Tree, scope: Scope, who: n.Expr, prompt: Any) -> Choice:
    """`a number from LOW to HIGH`."""
    ch = choice.children
    low, high = (r.expect(x, scope, "num") for x in ch[:2])
    if isinstance(low, n.Const) and isinstance(high, n.Const) and high.value - low.value >= MAX_OPTIONS:
        r.fail(r.pos(ch[0]), f"`a number from {low.value} to {high.value}` offers {high.value - low.value + 1:,} "
               f"options, more than the {MAX_OPTIONS:,} a choice may have")
    return Choice(who, NumberRange(low, high, at=r.pos(ch[0])), K_NUMBER, prompt, "num")


# What a player may be asked to choose, by grammar rule: the choice it makes.
_CHOICES: dict[str, Callable[[StatementResolver, Tree, Scope, n.Expr, Any], Choice]] = {
    "choose_card": lambda r, c, scope, who, prompt: Choice(who, Options(r.expect(c.children[0], scope, "cards")),
                                                           K_CARD, prompt, "card"),
    "choose_up_to": _choose_cards,
    "choose_exactly": _choose_cards,
    "choose_player": lambda r, c, scope, who, prompt: Choice(who, Options(r.expect(c.children[0], scope, "players")),
                                                             K_PLAYER, prompt, "player"),
    "choose_opponent": lambda r, c, scope, who, prompt: Choice(who, Options(n.Opponents(who)), K_PLAYER, prompt,
                                                               "player"),
    "choose_any_player": lambda r, c, scope, who, prompt: Choice(who, Options(n.AllPlayers()), K_PLAYER, prompt,
                                                                 "player"),
    "choose_yes_no": lambda r, c, scope, who, prompt: Choice(who, FixedOptions([True, False]), K_BOOL, prompt,
                                                             "bool"),
    "choose_option": _choose_option,
    "choose_number": _choose_number,
}


def _counter_target(r: StatementResolver, t: Tree, scope: Scope) -> tuple[n.Expr, int | None]:
    """The node a `set`/`add` target names, and its counter's floor if any."""
    if t.data == "target_first_player":
        return n.StateField("first", "player", at=r.pos(t)), None
    name = str(t.children[0])
    counter = r.model.counters.get(name)
    if t.data == "target_name":
        local = scope.lookup(name)
        if local is not None:
            return ref(local), None
        if counter is not None and not counter.per_player:
            return n.GameCounter(counter.index, counter.type), counter.floor
        if counter is not None:
            r.fail(r.pos(t.children[0]), f"`{name}` is a counter of each player", f"write `my {name}` or `{name} of p`")
        r.fail(r.pos(t.children[0]), f"unknown counter or variable `{name}`",
               did_you_mean(name, list(r.model.counters) + scope.names()))
    if counter is None or not counter.per_player:
        r.fail(r.pos(t.children[0]), f"`{name}` is not a counter of each player",
               did_you_mean(name, [k for k, v in r.model.counters.items() if v.per_player]))
    who = r.me(scope) if t.data == "target_my" else r.expect(t.children[1], scope, "player")
    return n.PlayerCounter(counter.index, who, counter.type), counter.floor


def _change(cls, r: StatementResolver, s: Tree, scope: Scope, op: str) -> Assign:
    value, t = s.children
    if t.data == "target_first_player":
        r.fail(r.pos(t), "`first player` is a player, not a number", "use `set first player to …`")
    target, floor = _counter_target(r, t, scope)
    if target.type == "str":
        r.fail(r.pos(t), "a text counter holds a text: `add` and `subtract` change numbers",
               f"use `set {t.children[0]!s} to \"…\"`")
    return cls(target, n.Arith(op, target, r.reckoned(r.expr(value, scope), value)), floor)


_PLACES = {"place_top": 0, "place_bottom": -1, "place_random": -2}


def _facing(f: Tree | None) -> int:
    """-1: the zone's own facing; 1 face up; 0 face down."""
    if f is None:
        return -1
    return 1 if f.data == "face_up" else 0


def _the_deal(r: StatementResolver, word, what: str) -> None:
    """`…the deal`: the word after `the` must be `deal` (a name, so that games may still use it)."""
    if str(word) != "deal":
        r.fail(r.pos(word), f"expected `{what} the deal` here, not `{what} the {word}`",
               "`end the game` ends the match; `end the deal` ends the current deal" if what == "end" else None)


