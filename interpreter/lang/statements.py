"""Stage 5, statement by statement: one function per DSL statement, registered in one table.

Each function takes the compiler, the statement's tree and its scope, and emits Python lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Tree

from ..diagnostics import did_you_mean
from .asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT
from .expressions import Scope, Typed

if TYPE_CHECKING:
    from .compiler import Compiler

WHILE_BOUND = 10_000
STATEMENTS: dict[str, callable] = {}


def statement(name: str):
    """Register the compiler of one statement kind (one verb, one function)."""

    def register(fn):
        STATEMENTS[name] = fn
        return fn

    return register

@statement("let")
def _let(c: Compiler, s: Tree, scope: Scope) -> None:
    name, value = s.children
    v = c.expr(value, scope)
    py = c.local(scope, str(name), v.type)
    c.emit.line(f"{py} = {v.code}")


@dataclass
class Choice:
    """The parts of one `let x = … chooses …`: who, the options' code, how to label them."""

    who: str
    options: str
    kind: int
    prompt: str | None
    forced: bool  # with one option the answer is known: don't ask
    type: str
    count: str | None = None  # several cards: how many (asked one at a time)
    up_to: bool = False  # several cards: fewer may be chosen


def choice_parts(c: Compiler, s: Tree, scope: Scope) -> Choice:
    """Compile the choice of a let_choice (its chooser, options and question)."""
    parts = _choice_parts(c, s, scope)
    question = s.children[3]
    if question is not None:
        parts.prompt = c.plain_string(question)
    return parts


def _choice_parts(c: Compiler, s: Tree, scope: Scope) -> Choice:
    _, chooser, choice, _ = s.children
    who = c.me(scope) if chooser.data == "chooser_me" else c.expect(chooser.children[0], scope, "player").code
    kind, ch = choice.data, choice.children
    if kind == "choose_card":
        return Choice(who, f"list({c.expect(ch[0], scope, 'cards').code})", K_CARD, None, True, "card")
    if kind in ("choose_up_to", "choose_exactly"):
        count = c.expect(ch[0], scope, "num")
        if kind == "choose_up_to" and count.code == "1":
            # A choice that may be declined is always asked, even when declining is all there is:
            # whether a player is asked must not tell the others what they hold.
            cards = c.expect(ch[-1], scope, "cards").code
            return Choice(who, f"[-1, *{cards}]", K_CARD, None, False, "card")
        cards = c.expect(ch[-1], scope, "cards").code
        return Choice(who, f"list({cards})", K_CARD, None, True, "cards", count.code, kind == "choose_up_to")
    if kind == "choose_player":
        pool = c.expect(ch[0], scope, "players").code
        return Choice(who, f"list({pool})", K_PLAYER, None, True, "player")
    if kind == "choose_opponent":
        return Choice(who, f"list(st.orders[{who}][1:])", K_PLAYER, None, True, "player")
    if kind == "choose_any_player":
        return Choice(who, "list(st.orders[st.first])", K_PLAYER, None, True, "player")
    if kind == "choose_yes_no":
        return Choice(who, "[True, False]", K_BOOL, None, False, "bool")
    if kind == "choose_option":
        if all(len(o.children) == 1 or o.children[1] is None for o in ch):
            values = ", ".join(repr(c.plain_string(o.children[0])) for o in ch)
            return Choice(who, f"[{values}]", K_TEXT, None, True, "str")
        # Options offered only when their `if` holds.
        parts = []
        for o in ch:
            text = repr(c.plain_string(o.children[0]))
            test = c.condition(o.children[1], scope) if len(o.children) > 1 and o.children[1] is not None else None
            parts.append(f"([{text}] if {test} else [])" if test else f"[{text}]")
        return Choice(who, " + ".join(parts), K_TEXT, None, True, "str")
    if kind == "choose_number":
        lo, hi = (c.expect(x, scope, "num").code for x in ch[:2])
        return Choice(who, f"list(range({lo}, ({hi}) + 1))", K_NUMBER, None, True, "num")
    raise AssertionError(kind)


@statement("let_choice")
def _let_choice(c: Compiler, s: Tree, scope: Scope) -> None:
    name = str(s.children[0])
    parts = choice_parts(c, s, scope)
    target = c.local(scope, name, parts.type)
    if parts.count is not None:  # several cards, asked one at a time
        question = c.prompt_id(parts.prompt)
        args = f"{parts.who}, {parts.options}, {parts.count}, {parts.up_to}, {question}"
        if c.yielding:
            c.emit.line(f"{target} = yield from choose_cards({args})")
        else:
            c.emit.line(f"{target} = choose_cards_now(st, {args})")
        return
    c.ask(parts.who, parts.options, parts.kind, parts.prompt, target, parts.forced)


def _counter_target(c: Compiler, t: Tree, scope: Scope) -> tuple[str, object]:
    """The Python lvalue of a `set`/`add` target, and its counter (for its floor) if any."""
    if t.data == "target_first_player":
        return "st.first", None
    if t.data == "target_name":
        name = str(t.children[0])
        local = scope.lookup(name)
        if local is not None:
            return local[0], None
        counter = c.model.counters.get(name)
        if counter is not None and not counter.per_player:
            return f"G[{counter.index}]", counter
        if counter is not None:
            c.fail(c.pos(t.children[0]), f"`{name}` is a counter of each player",
                   f"write `my {name}` or `{name} of p`")
        c.fail(c.pos(t.children[0]), f"unknown counter or variable `{name}`",
               did_you_mean(name, list(c.model.counters) + scope.names()))
    name = str(t.children[0])
    counter = c.model.counters.get(name)
    if counter is None or not counter.per_player:
        c.fail(c.pos(t.children[0]), f"`{name}` is not a counter of each player",
               did_you_mean(name, [k for k, v in c.model.counters.items() if v.per_player]))
    who = c.me(scope) if t.data == "target_my" else c.expect(t.children[1], scope, "player").code
    return f"PC[{counter.index}][{who}]", counter


def _assign(c: Compiler, target: Tree, value: str, scope: Scope) -> None:
    lhs, counter = _counter_target(c, target, scope)
    if counter is not None and counter.floor is not None:
        c.emit.line(f"{lhs} = max({counter.floor}, {value})")
    else:
        c.emit.line(f"{lhs} = {value}")


@statement("set")
def _set(c: Compiler, s: Tree, scope: Scope) -> None:
    target, value = s.children
    if target.data == "target_first_player":
        kind = "player"
    elif target.data == "target_name" and scope.lookup(str(target.children[0])) is not None:
        kind = scope.lookup(str(target.children[0]))[1]  # a local keeps its type
    else:
        counter = c.model.counters.get(str(target.children[0]))
        kind = counter.type if counter is not None else "num"
    _assign(c, target, c.expect(value, scope, kind).code, scope)


def _number_target(c: Compiler, target: Tree) -> None:
    if target.data == "target_first_player":
        c.fail(c.pos(target), "`first player` is a player, not a number", "use `set first player to …`")


@statement("add")
def _add(c: Compiler, s: Tree, scope: Scope) -> None:
    value, target = s.children
    _number_target(c, target)
    lhs, _ = _counter_target(c, target, scope)
    _assign(c, target, f"{lhs} + ({c.expect(value, scope, 'num').code})", scope)


@statement("subtract")
def _subtract(c: Compiler, s: Tree, scope: Scope) -> None:
    value, target = s.children
    _number_target(c, target)
    lhs, _ = _counter_target(c, target, scope)
    _assign(c, target, f"{lhs} - ({c.expect(value, scope, 'num').code})", scope)


def _facing(f: Tree | None) -> str:
    if f is None:
        return "-1"
    return "1" if f.data == "face_up" else "0"


@statement("move")
def _move(c: Compiler, s: Tree, scope: Scope) -> None:
    what, dest, facing = ([*list(s.children), None])[:3]
    zone_tree = dest.children[-1]
    target = c.expect(zone_tree, scope, "zone")
    zone = target.code
    place = "0"
    if dest.data == "dest_place":
        p = dest.children[0]
        place = {"place_top": "0", "place_bottom": "-1", "place_random": "-2"}.get(p.data)
        if place is None:
            place = f"max(0, ({c.expect(p.children[0], scope, 'num').code}) - 1)"
    bulk = _bulk_source(c, what, scope)
    if bulk is not None:
        c.emit.line(f"move_cards(st, {bulk[0]}, {bulk[1]}, {zone}, {place}, {_facing(facing)})")
        return
    cards = c.expr(what, scope)
    zdef = c.model.zone(target.zone) if target.zone else None
    if cards.type == "card" and zdef is not None and zdef.limit < 0 and place in ("0", "-1"):
        _inline_move(c, cards.code, target, place, zdef.face_up if facing is None else facing.data == "face_up")
    elif cards.type in ("card", "none"):
        c.emit.line(f"move(st, {cards.code}, {zone}, {place}, {_facing(facing)})")
    else:
        cards = c.coerce(cards, "cards", what)
        c.emit.line(f"move_all(st, {cards.code}, {zone}, {place}, {_facing(facing)})")


def owner_bit(zone: Typed) -> str:
    """` | 1 << owner` for a zone of a player (who may always look at their own face-down cards)."""
    return f" | (1 << {zone.owner})" if zone.owner else ""


def _inline_move(c: Compiler, card: str, zone: Typed, place: str, up: bool) -> None:
    """`move` written out in place for the common case (one card, a zone without a limit, an end):
    the same steps as runtime.move, without a call."""
    var, src, dst = c.emit.fresh("c"), c.emit.fresh("s"), c.emit.fresh("d")
    c.emit.line(f"{var} = {card}")
    c.emit.line(f"if {var} >= 0:")
    c.emit.line(f"    {src} = ZO[{var}]; {dst} = {zone.code}")
    if up:
        c.emit.line(f"    KN[{var}] = 0")
    else:
        c.emit.line(f"    KN[{var}] = kept_sight(st, {var}){owner_bit(zone)}")
    c.emit.line(f"    Z[{src}].remove({var})")
    c.emit.line(f"    Z[{dst}].insert(0, {var})" if place == "0" else f"    Z[{dst}].append({var})")
    c.emit.line(f"    ZO[{var}] = {dst}; F[{var}] = {up}")
    c.emit.line(f"    if st.log is not None: moved(st, {var}, {src}, {dst})")


def _bulk_source(c: Compiler, what: Tree, scope: Scope) -> tuple[str, str] | None:
    """`all Z` and `the top N cards of Z` move straight from a zone: (zone code, count or -1)."""
    if what.data == "all_cards":
        zone = c.expr(what.children[0], scope)
        return (zone.code, "-1") if zone.type == "zone" else None
    if what.data == "pick_n" and what.children[0].data == "end_top":
        zone = c.expr(what.children[2], scope)
        if zone.type == "zone":
            return zone.code, f"max(0, {c.expect(what.children[1], scope, 'num').code})"
    return None


@statement("shuffle")
def _shuffle(c: Compiler, s: Tree, scope: Scope) -> None:
    c.emit.line(f"shuffle(st, {c.expect(s.children[0], scope, 'zone').code})")


def _turn(c: Compiler, what: Tree, up: bool, scope: Scope) -> None:
    v = c.expr(what, scope)
    if v.type == "card":
        c.emit.line(f"flip(st, {v.code}, {up})")
    elif up:
        # Turning face up needs no bookkeeping of who knows what: written out in place.
        var = c.emit.fresh("c")
        c.emit.line(f"for {var} in list({c.coerce(v, 'cards', what).code}):")
        c.emit.line(f"    if not F[{var}]:")
        c.emit.line(f"        F[{var}] = True; KN[{var}] = 0")
        c.emit.line(f"        if st.log is not None: st.event('flip', card=st.layout.card_ids[{var}], face='up')")
    else:
        c.emit.line(f"flip_all(st, {c.coerce(v, 'cards', what).code}, {up})")


@statement("flip")
def _flip(c: Compiler, s: Tree, scope: Scope) -> None:
    what, facing = s.children
    _turn(c, what, facing.data == "face_up", scope)


@statement("reveal")
def _reveal(c: Compiler, s: Tree, scope: Scope) -> None:
    _turn(c, s.children[0], True, scope)


@statement("show")
def _show(c: Compiler, s: Tree, scope: Scope) -> None:
    what, who = s.children
    player = c.expect(who, scope, "player").code
    v = c.expr(what, scope)
    if v.type == "card":
        c.emit.line(f"show(st, {v.code}, {player})")
    else:
        var = c.emit.fresh("c")
        c.emit.line(f"for {var} in {c.coerce(v, 'cards', what).code}: show(st, {var}, {player})")


@statement("say")
def _say(c: Compiler, s: Tree, scope: Scope) -> None:
    c.emit.line(f"if st.log is not None: say(st, {c.interpolate(s.children[0], scope)})")


@statement("nothing")
def _nothing(c: Compiler, s: Tree, scope: Scope) -> None:
    c.emit.line("pass")


@statement("stop")
def _stop(c: Compiler, s: Tree, scope: Scope) -> None:
    if not c.loops:
        c.fail(c.pos(s), "`stop` must be inside a loop (while, repeat, for each) of the same text")
    c.emit.line("break")


@statement("end_game")
def _end_game(c: Compiler, s: Tree, scope: Scope) -> None:
    who = [x for x in s.children if isinstance(x, Tree)]
    if not who:
        c.emit.line("raise GameOver(None)")
        return
    v = c.expr(who[0], scope)
    if v.type == "player":
        c.emit.line(f"raise GameOver([{v.code}])")
    else:
        c.emit.line(f"raise GameOver(list({c.coerce(v, 'players', who[0]).code}))")


@statement("call")
def _call(c: Compiler, s: Tree, scope: Scope) -> None:
    kids = list(s.children)
    subject = kids.pop(0) if isinstance(kids[0], Tree) and kids[0].data.startswith("subject") else None
    verb = kids.pop(0)
    proc = c.procedures[c.verbs[str(verb)]]
    args = [a for a in kids if a is not None]
    if len(args) != len(proc.params):
        want = ", ".join(proc.params) or "nothing"
        c.fail(c.pos(verb), f"`{verb}` takes {len(proc.params)} value(s) ({want}), got {len(args)}")
    values = [c.expect(a, scope, ty).code for a, ty in zip(args, proc.param_types, strict=False)]
    if subject is None:
        c.invoke(proc, c.me(scope), values)
    elif subject.data == "subject_player":
        c.invoke(proc, c.expect(subject.children[0], scope, "player").code, values)
    else:
        var = c.emit.fresh("p")
        c.emit.line(f"for {var} in {c.player_kind(subject.children[0], scope)}:")
        c.emit.depth += 1
        c.invoke(proc, var, values)
        c.emit.depth -= 1


@statement("resolve")
def _resolve(c: Compiler, s: Tree, scope: Scope) -> None:
    name, card = s.children
    ability = str(name)
    if ability not in c.model.abilities:
        c.fail(c.pos(name), f"unknown ability `{ability}`",
               did_you_mean(ability, c.model.abilities) or "declare it under abilities: in game.yaml")
    k = c.model.abilities.index(ability)
    v = c.expect(card, scope, "card").code
    var, fn = c.emit.fresh("c"), c.emit.fresh("f")
    c.emit.line(f"{var} = {v}")
    c.emit.line(f"{fn} = ABILITIES[{k}][CD[{var}]] if {var} >= 0 else None")
    head = "yield from " if ability in c.generator_abilities and not c.direct else ""
    c.emit.line(f"if {fn} is not None: {head}{fn}(st, {c.me(scope)}, {var})")


@statement("if_stmt")
def _if(c: Compiler, s: Tree, scope: Scope) -> None:
    cond, body, *rest = s.children
    c.emit.line(f"if {c.condition(cond, scope)}:")
    c.suite(body, scope)
    for clause in rest:
        if clause is None:
            continue
        if clause.data == "elif_clause":
            c.emit.line(f"elif {c.condition(clause.children[0], scope)}:")
            c.suite(clause.children[1], scope)
        else:
            c.emit.line("else:")
            c.suite(clause.children[0], scope)


@statement("for_players")
def _for_players(c: Compiler, s: Tree, scope: Scope) -> None:
    kind, name, *rest = s.children
    body = rest[-1]
    clauses = {t.data: t for t in rest[:-1] if isinstance(t, Tree)}
    inner = Scope(scope)
    var = inner.define(str(name), c.emit.fresh("v_" + str(name)), "player")
    if "from_clause" in clauses:
        start = c.expect(clauses["from_clause"].children[0], scope, "player").code
        pool = f"st.orders[{start}]"
        if kind.data != "kind_player":
            pool = f"[x for x in st.orders[{start}] if x != {c.me(scope)}]"
    else:
        pool = c.player_kind(kind, scope)
    cond = c.condition(clauses["where_clause"].children[0], inner) if "where_clause" in clauses else None
    if "simultaneous" not in clauses:
        c.emit.line(f"for {var} in {pool}:")
        if cond:
            c.emit.line(f"    if not ({cond}): continue")
        c.loop_body(body.children, inner)
        return
    # Simultaneous: every player's body runs up to its first choice; all first choices are asked
    # at once (nobody sees another's answer); then the bodies finish one by one in turn order.
    if _simultaneous_choice_first(c, var, pool, cond, body, inner):
        return
    fn, gens, asks, g, a = (c.emit.fresh(x) for x in ("simul", "gens", "asks", "g", "a"))
    # The body is a nested generator function: its `let`s are its own (a fresh root scope that sees
    # every name around it), and names of the routine it sets are declared nonlocal.
    body_scope = Scope(None)
    for name in reversed(inner.names()):
        body_scope.vars[name] = inner.lookup(name)
    outer = sorted({py for py, _ in body_scope.vars.values() if py.startswith(("_v_", "_a_", "a_"))} - {var})
    c.emit.line(f"def {fn}({var}):")
    c.emit.depth += 1
    if outer:
        c.emit.line(f"nonlocal {', '.join(outer)}")
    mark, known = len(c.emit.lines), set(body_scope.vars)
    loops, yielding, simultaneous = c.loops, c.yielding, c.simultaneous
    c.loops, c.simultaneous, c.yielding = 0, True, True  # this body is a generator in either variant
    try:
        c.block(body.children, body_scope)
    finally:
        c.loops, c.simultaneous, c.yielding = loops, simultaneous, yielding
    fresh = Scope(None)
    fresh.vars = {k: v for k, v in body_scope.vars.items() if k not in known}
    c.emit.lines[mark:mark] = c.initial_values(fresh, "    " * c.emit.depth)
    c.emit.line("if False: yield")
    c.emit.depth -= 1
    c.emit.line(f"{gens} = []; {asks} = []")
    c.emit.line(f"for {var} in {pool}:")
    if cond:
        c.emit.line(f"    if not ({cond}): continue")
    c.emit.line(f"    {g} = {fn}({var})")
    c.emit.line("    try:")
    c.emit.line(f"        {asks}.append(next({g})); {gens}.append({g})")
    c.emit.line("    except StopIteration: pass")
    c.emit.line(f"if {gens}:")
    c.emit.line(f"    one_ask_each({asks}, {str(c.pos(s))!r})")
    c.emit.line(f"    {a} = {c.ask_all(asks)}")
    c.emit.line(f"    for {g}, {a} in zip({gens}, {a}):")
    c.emit.line("        try:")
    c.emit.line("            while True:")
    resume = f"yield {g}.send({a})" if c.yielding else f"st.choose(st, *{g}.send({a}))"
    c.emit.line(f"                {a} = {resume}")
    c.emit.line("        except StopIteration: pass")


_PURE = {"name", "number", "string", "true", "false", "none", "me", "it", "this"}
# Values that cannot change while a simultaneous choice is collected: locals, parameters, literals.
_STEADY = re.compile(r"-?\d+|'[^']*'|True|False|me|this|_?[av]_\w+|_me_\d+|_i\d+")


def _simultaneous_choice_first(c: Compiler, var: str, pool: str, cond: str | None, body: Tree,
                               scope: Scope) -> bool:
    """The common case without nested generators: each body *starts* with its choice (maybe inside
    an inlined procedure). Collect every player's options, ask once, then run the bodies in order."""
    emit = c.emit
    depth, mark, pushed = emit.depth, len(emit.lines), 0
    emit.depth += 1
    later: list[tuple[list, Scope, object]] = []
    stmts = [x for x in body.children if isinstance(x, Tree)]
    done = False
    try:
        while stmts and stmts[0].data == "call":
            kids = [k for k in stmts[0].children if k is not None]
            subject = kids[0] if isinstance(kids[0], Tree) and kids[0].data.startswith("subject") else None
            verb = kids[1] if subject is not None else kids[0]
            proc = c.procedures[c.verbs[str(verb)]]
            args = kids[2:] if subject is not None else kids[1:]
            if (proc.pyname in c.recursive or proc.tree is None or len(args) != len(proc.params)
                    or (subject is not None and subject.data != "subject_player")
                    or any(a.data not in _PURE for a in args)
                    or (subject is not None and subject.children[0].data not in _PURE)):
                return False
            who = c.expect(subject.children[0], scope, "player").code if subject is not None else c.me(scope)
            values = [c.expect(a, scope, ty).code for a, ty in zip(args, proc.param_types, strict=False)]
            if not all(_STEADY.fullmatch(v) for v in [who, *values]):
                return False  # a counter could change between the two passes: take the general path
            later.append((stmts[1:], scope, c.at))
            scope = c.inline_scope(proc, who, values)
            pushed += 1
            stmts = [x for x in proc.tree.children if isinstance(x, Tree)]
        if not stmts or stmts[0].data != "let_choice":
            return False
        parts = choice_parts(c, stmts[0], scope)
        if parts.count is not None:
            return False
        bindings = emit.lines[mark:]
        del emit.lines[mark:]
        emit.depth = depth
        seats, asks, values, opts, answers = (emit.fresh(x) for x in ("seats", "asks", "vals", "o", "ans"))
        emit.line(f"{seats} = [{var} for {var} in {pool}{f' if {cond}' if cond else ''}]")
        asked = emit.fresh("asked")
        emit.line(f"{asks} = []; {asked} = []; {values} = {{}}")
        emit.line(f"for {var} in {seats}:")
        emit.lines += bindings
        emit.line(f"    {opts} = {parts.options}")
        test = f"len({opts}) > 1" if parts.forced else "True"
        emit.line(f"    if {test}: {asks}.append(({parts.who}, {opts}, {parts.kind}, {c.prompt_id(parts.prompt)}));"
                  f" {asked}.append({var})")
        emit.line(f"    else: {values}[{var}] = {opts}[0] if {opts} else -1")
        emit.line(f"if {asks}:")
        emit.line(f"    one_ask_each({asks}, {str(c.pos(stmts[0]))!r})")
        emit.line(f"    {answers} = {c.ask_all(asks)}")
        emit.line(f"    for {opts}, {answers} in zip({asked}, {answers}): {values}[{opts}] = {answers}")
        emit.line(f"for {var} in {seats}:")
        emit.lines += bindings
        emit.depth += 1
        name = str(stmts[0].children[0])
        emit.line(f"{c.local(scope, name, parts.type)} = {values}[{var}]")
        c.block(stmts[1:], scope)
        for rest, outer, at in reversed(later):
            c.at = at
            c.block(rest, outer)
        done = True
        return True
    finally:
        emit.depth = depth
        if not done:
            del emit.lines[mark:]
        for _ in range(pushed):
            c.at = c.at_stack.pop()


@statement("for_cards")
def _for_cards(c: Compiler, s: Tree, scope: Scope) -> None:
    name, cards, body = s.children
    pool = c.expect(cards, scope, "cards").code
    inner = Scope(scope)
    var = inner.define(str(name), c.emit.fresh("v_" + str(name)), "card")
    c.emit.line(f"for {var} in list({pool}):")
    c.loop_body(body.children, inner)


@statement("visit")
def _visit(c: Compiler, s: Tree, scope: Scope) -> None:
    name, zone, body = s.children
    zi = c.expect(zone, scope, "zone").code
    inner = Scope(scope)
    var = inner.define(str(name), c.emit.fresh("v_" + str(name)), "card")
    seen, zv = c.emit.fresh("seen"), c.emit.fresh("z")
    # Each member once, always the first not yet visited in the zone's *current* order.
    c.emit.line(f"{seen} = set(); {zv} = Z[{zi}]")
    c.emit.line("while True:")
    c.emit.line(f"    {var} = next((x for x in {zv} if x not in {seen}), -1)")
    c.emit.line(f"    if {var} < 0: break")
    c.emit.line(f"    {seen}.add({var})")
    c.loop_body(body.children, inner)


@statement("repeat")
def _repeat(c: Compiler, s: Tree, scope: Scope) -> None:
    count, body = s.children
    c.emit.line(f"for _ in range({c.expect(count, scope, 'num').code}):")
    c.loop_body(body.children, Scope(scope))


@statement("while_stmt")
def _while(c: Compiler, s: Tree, scope: Scope) -> None:
    cond, *rest = s.children
    body = rest[-1]
    bound = rest[0] if len(rest) == 2 else None
    counter = c.emit.fresh("w")
    limit = c.expect(bound, scope, "num").code if bound is not None else str(WHILE_BOUND)
    c.emit.line(f"for {counter} in range({limit}):")
    c.emit.line(f"    if not ({c.condition(cond, scope)}): break")
    c.loop_body(body.children, Scope(scope))
    if bound is None:
        where = str(c.pos(s))
        c.emit.line(f"else: check_loop({WHILE_BOUND}, {where!r})")
