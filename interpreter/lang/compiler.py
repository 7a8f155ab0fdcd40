"""Stage 5: write the typed nodes of a program as one Python module.

Every phase, procedure, function and card ability becomes one Python function, headed by a comment
with the YAML `file:line` it comes from; every DSL statement is headed by its own line of DSL. A
function that can ask a player something is a generator: it yields an ask `(seat, options, kind,
prompt)` (or `(-1, [asks])` for a simultaneous choice) and receives the chosen option. Beside the
source, the writer keeps which DSL place each generated line was written for (`Compiled.anchors`).

The code is written by a visitor over the nodes, as jinja2's CodeGenerator writes its templates: a
`visit_<Class>` method per statement class here, per expression class in write_expressions.py, on the
writer's craft in writer.py; the nodes are data.
"""

from __future__ import annotations

from contextlib import ExitStack

from ..limits import MAX_LOOP, UNCHARGED
from . import nodes as n
from .analysis import Plan
from .blocks import ForCards, ForPlayers, If, Repeat, Visit, While
from .compiled import Compiled
from .program import Program
from .statements import (
    Assign,
    Call,
    EndDeal,
    EndGame,
    Flip,
    KnockOut,
    Let,
    LetChoice,
    Move,
    Nothing,
    Resolve,
    Say,
    Show,
    Shuffle,
    Stop,
)
from .write_expressions import ExpressionWriter, Worked

WHILE_BOUND = MAX_LOOP


class CodeGenerator(ExpressionWriter):
    """Writes each kind of statement node as Python lines (and, through ExpressionWriter, each value)."""

    def visit_Let(self, node: Let) -> None:
        name = self.bind(node.var)
        self.line(f"{name} = {self.expr(node.value)}")
        self.bound(name, node.value)

    def visit_LetChoice(self, node: LetChoice) -> None:
        c = node.choice
        if c.count is not None:  # several cards, asked one at a time
            who = self.some(c.who, "the player who chooses")
            args = f"{who}, {self.expr(c.options)}, {self.expr(c.count)}, {c.up_to}, {self.prompt(c.prompt)}, " \
                f"{self.place(self.at)}"
            self.line(f"{self.bind(node.var)} = yield from choose_cards({args})")
            return
        who = self.some(c.who, "the player who chooses")
        self.ask(who, self.expr(c.options), c.kind, self.prompt(c.prompt), self.bind(node.var))

    def visit_Assign(self, node: Assign) -> None:
        t, value = node.target, node.value
        lhs = self.bind(t.var) if isinstance(t, n.Ref) else self.expr(t)
        if isinstance(t, n.StateField):  # the first player: the seat whose turn order the rounds follow
            self.line(f"{lhs} = {self.some(value, 'the first player')}")
        elif node.floor is not None:
            self.line(f"{lhs} = max({node.floor}, {self.expr(value)})")
        elif isinstance(value, n.Arith) and value.left is t:  # `add`/`subtract`: changed in place
            self.line(f"{lhs} {value.op}= {self.expr(value.right)}")
        else:
            self.line(f"{lhs} = {self.expr(value)}")
        if not isinstance(t, n.StateField):
            self.bound(lhs, value, node.floor)

    def visit_Move(self, node: Move) -> None:
        place = node.place if isinstance(node.place, int) else self.expr(node.place)
        zone = self.expr(node.zone)
        if node.source is not None:
            assert node.count is not None  # given with its source
            source = self.expr(node.source)
            if isinstance(node.count, n.Const) and node.count.value < 0 and node.limit is not None \
                    and node.limit < 0 and place in (0, -1):  # a whole zone to an end of a named zone without limit
                up = node.face_up if node.facing < 0 else node.facing == 1
                if self.logged or not isinstance(node.source, n.GameZone) or not isinstance(node.zone, n.GameZone) \
                        or node.source.index == node.zone.index:
                    self.line(f"move_zone(st, {source}, {zone}, {place}, {up})")
                else:
                    self._inline_move_zone(source, zone, place, up)
                return
            self.line(f"move_cards(st, {source}, {self.expr(node.count)}, {zone}, {place}, {node.facing})")
            return
        assert node.cards is not None  # without a source, the cards are given
        if node.cards.type == "card" and node.limit is not None and node.limit < 0 and place in (0, -1):
            self._inline_Move(node, place)
        elif node.cards.type in ("card", "none"):
            self.line(f"move(st, {self.expr(node.cards)}, {zone}, {place}, {node.facing})")
        else:
            self.line(f"move_all(st, {self.expr(node.cards)}, {zone}, {place}, {node.facing})")

    def _inline_Move(self, node: Move, place: int) -> None:
        """The common case written out in place (one card, a zone without a limit, an end): in a quiet match,
        the steps of runtime.move without a call (nobody's knowledge is kept); a logged or watched one calls it."""
        assert node.cards is not None and isinstance(node.zone, n.GameZone | n.PlayerZone)  # a named zone
        up = node.face_up if node.facing < 0 else node.facing == 1
        ZO, Z, F = (self.alias(a) for a in ("ZO", "Z", "F"))
        if isinstance(node.cards, n.Ref):
            c = self.expr(node.cards)
        else:
            c = self.fresh("c")
            self.line(f"{c} = {self.expr(node.cards)}")
        if isinstance(node.zone, n.GameZone):
            dst = self.expr(node.zone)
            self.line(f"if st.log is not None: move(st, {c}, {dst}, {place}, {int(up)})")
            self.line(f"elif {c} >= 0:")
            quiet = self.indent()
        else:  # a player's zone, worked out only for a card to move (the player may be none otherwise)
            dst = self.fresh("d")
            self.line(f"if {c} >= 0:")
            with self.indent():
                self.line(f"{dst} = {self.expr(node.zone)}")
                self.line(f"if st.log is not None: move(st, {c}, {dst}, {place}, {int(up)})")
                self.line("else:")
            quiet = self.indent(2)
        with quiet:
            self.line(f"{Z}[{ZO}[{c}]].remove({c})")
            self.line(f"{Z}[{dst}].insert(0, {c})" if place == 0 else f"{Z}[{dst}].append({c})")
            self.line(f"{ZO}[{c}] = {dst}; {F}[{c}] = {up}")

    def _inline_move_zone(self, source: str, zone: str, place: int, up: bool) -> None:
        """`move_zone` between two named zones (not the same one) written out for a quiet match: a zone often
        empty (a discard pile, a zone of cards played this round) costs one test, a short one no call."""
        Z, ZO, F = (self.alias(a) for a in ("Z", "ZO", "F"))
        cards, c = self.fresh("z"), self.fresh("c")
        self.line(f"{cards} = {Z}[{source}]")
        self.line(f"if {cards}:")
        with self.indent():
            long = "" if self.cards <= UNCHARGED else f" or len({cards}) > {UNCHARGED}"  # (charged one a card)
            self.line(f"if st.log is not None{long}: move_zone(st, {source}, {zone}, {place}, {up})")
            self.line("else:")
            with self.indent():
                self.line(f"{Z}[{zone}].extend({cards})" if place else f"{Z}[{zone}][0:0] = {cards}[::-1]")
                self.line(f"for {c} in {cards}: {ZO}[{c}] = {zone}; {F}[{c}] = {up}")
                self.line(f"{cards}.clear()")

    def visit_Shuffle(self, node: Shuffle) -> None:
        self.line(f"shuffle(st, {self.expr(node.zone)})")

    def visit_Flip(self, node: Flip) -> None:
        cards = self.expr(node.cards)
        if node.cards.type == "card":
            self.line(f"flip(st, {cards}, {node.up})")
        elif node.up:
            # Turning face up needs no bookkeeping of who knows what: written out in place. Turning
            # moves no card, so the list is read as it is.
            if isinstance(node.cards, n.Copy):
                cards = self.expr(node.cards.items)
            c, F = self.fresh("c"), self.alias("F")
            cards = self.charge(cards, node.at) if self.may_be_long(node.cards, True) else cards
            if not self.logged:  # a quiet match keeps no knowledge: each card set face up, with no test
                self.line("if st.log is None:")
                self.line(f"    for {c} in {cards}: {F}[{c}] = True")
                self.line("else:")
            with self.indent(0 if self.logged else 1):
                self.line(f"for {c} in {cards}:")
                self.line(f"    if not {F}[{c}]:")
                self.line(f"        {F}[{c}] = True; st.known[{c}] = 0; st.flipped({c}, True)")
        else:
            self.line(f"flip_all(st, {cards}, {node.up})")

    def visit_Show(self, node: Show) -> None:
        player = self.some(node.who, "the player to show to")
        if node.cards.type == "card":
            self.line(f"show(st, {self.expr(node.cards)}, {player})")
        else:
            c = self.fresh("c")
            cards = self.expr(node.cards)
            self.line(f"for {c} in {self.charge(cards, node.at) if self.may_be_long(node.cards, True) else cards}: "
                   f"show(st, {c}, {player})")

    def visit_Say(self, node: Say) -> None:
        sentence = self.sentence(node.text)
        self.line(f"say(st, {sentence})" if self.logged else f"if st.log is not None: say(st, {sentence})")

    def prompt(self, text: str | n.Text | None) -> str:
        """A question with `{…}` parts carries its sentence in a logged match only (a quiet one, `sim`'s, shows
        no player anything): its index as written there, as a fixed question's is."""
        if not isinstance(text, n.Text):
            return super().prompt(text)
        written = super().prompt(text.written)
        return f"(({written}, {self.sentence(text, strict=True)}) if st.log is not None else {written})"

    def sentence(self, text: n.Text, strict: bool = False) -> str:
        """The code of a sentence worked out in a logged match only (a `say`, a question). A value that may
        fail is worked out before it whether or not the match is logged (a sentence must not change the
        match: it fails either way; chance in a text is refused before play), and so are the steps of the
        lists it runs over (in a game of more than UNCHARGED cards); the text waits for a log. `strict` (a
        question, which was always worked out): a value that needs a card or a player that may be none counts
        as one that may fail."""
        parts: list[n.Expr] = []
        for part in text.parts:
            zones = n.zones_run_over(part.value) if isinstance(part, n.Format) and self.cards > UNCHARGED else []
            if zones:  # what it runs over charged as a quiet match would (without working out the text)
                for zone, at in zones:
                    code = self.expr(zone)
                    self.line(f"if len({code}) > {UNCHARGED}: {self.charge(code, at)}")
            if isinstance(part, n.Format) and (part.value.risky or n.nests(part.value) or zones is None
                                               or (strict and n.needs_some(part.value))):
                name = self.fresh("t")
                self.line(f"{name} = {self.expr(part.value)}")
                part = n.Format(Worked(name, part.value.type), at=part.at)
            parts.append(part)
        self.free = True  # the rest is worked out in a logged match only: charged, it would make it run otherwise
        try:
            return self.expr(n.Text(parts))
        finally:
            self.free = False

    def visit_Nothing(self, node: Nothing) -> None:
        self.line("pass")

    def visit_Stop(self, node: Stop) -> None:
        self.line("break")

    def visit_EndGame(self, node: EndGame) -> None:
        if node.winners is None:
            self.line("raise GameOver(None)")
        elif node.winners.type == "player":
            self.line(f"raise GameOver([{self.some(node.winners, 'the winner')}])")
        else:
            self.line(f"raise GameOver(list({self.expr(node.winners)}))")

    def visit_EndDeal(self, node: EndDeal) -> None:
        self.line("raise DealOver()")

    def visit_KnockOut(self, node: KnockOut) -> None:
        self.line(f"knock_out(st, {self.some(node.who, 'the player to knock out')}, {node.for_deal})")

    def visit_Call(self, node: Call) -> None:
        if not node.each:
            self.invoke(node.proc, node.who, node.args)
            return
        p, seats = self.fresh("p"), self.fresh("seats")
        self.line(f"{seats} = {self.expr(node.who)}")
        self.spend(self.seat_count(seats, node.who, None), node.at)
        self.line(f"for {p} in {seats}:")
        with self.indent():
            self.invoke(node.proc, p, node.args)

    def visit_Resolve(self, node: Resolve) -> None:
        f = self.fresh("f")
        if isinstance(node.card, n.Ref):  # a name already: read as it is
            c = self.expr(node.card)
        else:
            c = self.fresh("c")
            self.line(f"{c} = {self.expr(node.card)}")
        self.line(f"{f} = {self.alias('AC')}[{self.constant('ability', node.index)}][{c}]")  # (None at -1: no card)
        call = f"{f}(st, {self.expr(node.me)}, {c})"
        asks = self.ability_asks(node.ability)
        if asks:  # a card's version that asks is a generator; one that does not is a plain call, which gives None
            g = self.fresh("g")
            call = f"if ({g} := {call}) is not None: yield from {g}"
        if self.kind != "ability":
            self.line(f"if {f} is not None:" if asks else f"if {f} is not None: {call}")
            if asks:
                self.line(f"    {call}")
            return
        self.line(f"if {f} is not None:")  # an ability resolving one may reach itself: counted, and its depth
        self.line(f"    enter(st, {self.place(node.at)})")
        self.line(f"    {call}")
        self.line("    st.depth -= 1")

    def visit_If(self, node: If) -> None:
        if not self.logged and _for_the_log([node]):  # nothing to do in a quiet match
            self.line("if st.log is not None:")
            with self.indent(), self.for_the_log():
                self.visit_If(node)
            return
        for i, (cond, body) in enumerate(node.branches):
            self.line(f"{'if' if i == 0 else 'elif'} {self.expr(cond)}:")
            self.suite(body)
        if node.orelse is not None:
            self.line("else:")
            self.suite(node.orelse)

    def visit_ForPlayers(self, node: ForPlayers) -> None:
        if node.simultaneous:
            if not self._choice_first(node) and not self._branch_first(node):
                self._each_a_generator(node)
            return
        v, seats = self.bind(node.var), self.fresh("seats")
        self.line(f"{seats} = {self.expr(node.pool)}")
        self.spend(self.seat_count(seats, node.pool, node.where), node.at)
        if not self.logged and (node.where is None or _inert(node.where)) and _for_the_log(node.body):
            self.line("if st.log is not None:")  # the loop's rounds charged, its sentences left to a logged match
            with self.indent(), self.for_the_log():
                self._each_seat(node, v, seats)
            return
        self._each_seat(node, v, seats)

    def _each_seat(self, node: ForPlayers, v: str, seats: str) -> None:
        self.line(f"for {v} in {seats}:")
        if node.where is not None:
            self.line(f"    if not ({self.expr(node.where)}): continue")
        self.suite(node.body)

    def visit_ForCards(self, node: ForCards) -> None:
        cards, own = self.expr(node.cards), self.fresh("cards")  # a copy unless made for the loop: the body may move
        # its cards
        self.line(f"{own} = {cards if node.cards.FRESH else f'[*{cards}]'}")
        self.spend(f"len({own})", node.at)
        self.line(f"for {self.bind(node.var)} in {own}:")
        self.suite(node.body)

    def visit_Visit(self, node: Visit) -> None:
        var, seen, zv = self.bind(node.var), self.fresh("seen"), self.fresh("z")
        self.line(f"{seen} = set(); {zv} = {self.alias('Z')}[{self.expr(node.zone)}]")
        self.spend(f"len({zv})", node.at)
        self.line("while True:")  # the first card of the zone not seen yet, found by a loop (no generator made)
        self.line(f"    for {var} in {zv}:")
        self.line(f"        if {var} not in {seen}: break")
        self.line("    else:")
        self.line(f"        {var} = -1")
        self.line("        break")
        self.line(f"    {seen}.add({var})")
        self.suite(node.body)

    def visit_Repeat(self, node: Repeat) -> None:
        if isinstance(node.count, n.Const):  # checked before play
            if node.count.value > 0:
                self.spend(str(node.count.value), node.at)
            self.line(f"for _ in range({node.count.value}):")
            self.suite(node.body)
            return
        times = self.fresh("n")
        self.line(f"{times} = {self.expr(node.count)}")
        self.line(f"if {times} > {MAX_LOOP}: too_many_rounds({times}, {self.place(node.at)})")
        self.line(f"if {times} > 0:")
        with self.indent():
            self.spend(times, node.at)
            self.line(f"for _ in range({times}):")
            self.suite(node.body)

    def visit_While(self, node: While) -> None:
        limit = self.expr(node.bound) if node.bound is not None else str(WHILE_BOUND)
        self.line(f"for {self.fresh('w')} in range({limit}):")
        self.line(f"    if not ({self.expr(node.cond)}): break")
        with self.indent():
            self.spend("1", node.at)
        self.suite(node.body)
        if node.bound is None:
            self.line(f"else: check_loop({WHILE_BOUND}, {self.place(node.at)})")


    def _choice_plan(self, each: ForPlayers) -> tuple[list, LetChoice, list[n.Stmt]] | None:
        """When each body *starts* with its choice (maybe inside inlined procedures whose player and
        values cannot change meanwhile): the procedures on the way in (each with the statements that
        follow it), the choice, and what follows the choice."""
        route: list[tuple[Call, object, list[n.Stmt]]] = []
        body = each.body
        while body and isinstance(body[0], Call):
            call = body[0]
            if call.each or not self.inlined(call.proc) or not all(x.steady for x in [call.who, *call.args]):
                return None
            proc = self.procedure(call.proc)
            route.append((call, proc, body[1:]))
            body = proc.body or []  # (an inlined procedure is resolved: it has one)
        if not body or not isinstance(body[0], LetChoice) or body[0].choice.count is not None:
            return None
        return route, body[0], body[1:]


    def _choice_first(self, each: ForPlayers) -> bool:
        """The common case, without nested generators: collect every player's options, ask once, then
        run the bodies in turn order (each player's procedure values computed again, to the same)."""
        plan = self._choice_plan(each)
        if plan is None:
            return False
        route, let, rest = plan
        var = self.bind(each.var)
        names = tuple(self.fresh(x) for x in ("seats", "asks", "ans", "a"))  # (`_ask_all` takes them apart)
        seats = names[0]
        pool = self.expr(each.pool)  # (a list of seats is never changed in place)
        self.line(f"{seats} = {pool if each.where is None else self.kept(each.var, pool, each.where)}")
        self.spend(self.seat_count(seats, each.pool, each.where), each.at)
        if each.where is None:
            return self._ask_all(each, route, let, rest, var, names)
        self.line(f"if {seats}:")  # a list of the seats that pass a test: often empty, nobody asked, nothing done
        with self.indent():
            return self._ask_all(each, route, let, rest, var, names)

    def _ask_all(self, each: ForPlayers, route: list, let: LetChoice, rest: list[n.Stmt], var: str,
                 names: tuple[str, ...]) -> bool:
        """`_choice_first` from its list of seats on: every seat's ask collected, one yield, the answers."""
        seats, asks, answers, answer = names
        self.line(f"{asks} = []")
        self.line(f"for {var} in {seats}:")
        layers = []
        with self.indent(), ExitStack() as inside:
            for call, proc, _ in route:
                layer = self.inline_layer(proc, call.who, call.args)
                layers.append(layer)
                for text in layer.bindings:
                    self.line(text)
                inside.enter_context(self.entered(layer))
            c = let.choice
            who = self.some(c.who, "the player who chooses")
            self.line(f"{asks}.append(({who}, {self.expr(c.options)}, {c.kind}, {self.prompt(c.prompt)}))")
        if not _own_choice(each, route, let):
            self.line(f"if {asks}: one_ask_each({asks}, {self.place(let.at)})")
        self.line(f"{answers} = (yield (-1, {asks})) if {asks} else ()")  # every seat of the loop is asked
        if not route:  # the answer goes straight to the choice's variable
            self.line(f"for {var}, {self.bind(let.var)} in zip({seats}, {answers}):")
            self.suite(rest)
            return True
        self.line(f"for {var}, {answer} in zip({seats}, {answers}):")
        with self.indent():
            self._then(route, layers, 0, lambda: self._answered(let, rest, answer))
        return True


    def _branch_first(self, each: ForPlayers) -> bool:
        """A body that starts with `if … elif … else`, each branch starting with its choice: the branch each
        seat takes is found as its first choice is collected (as a generator of its own would find it, run to
        its ask), then, answered, each seat finishes its branch and the body in turn order."""
        head = each.body[0] if each.body else None
        if not isinstance(head, If) or head.orelse is None:
            return False
        branches = [*(body for _, body in head.branches), head.orelse]
        lets = [b[0] for b in branches if b and isinstance(b[0], LetChoice) and b[0].choice.count is None]
        if len(lets) < len(branches):
            return False
        var = self.bind(each.var)
        seats, asks, took, answers, answer, k = (self.fresh(x) for x in ("seats", "asks", "took", "ans", "a", "k"))
        if each.where is not None:
            self.line(f"{seats} = {self.kept(each.var, self.expr(each.pool), each.where)}")
        else:
            self.line(f"{seats} = {self.expr(each.pool)}")
        self.spend(self.seat_count(seats, each.pool, each.where), each.at)
        self.line(f"{asks} = []; {took} = []")
        self.line(f"for {var} in {seats}:")
        saved = self.at
        with self.indent():
            for i, let in enumerate(lets):
                self.at = head.at
                if i < len(head.branches):
                    self.comment(head.at if i == 0 else head.branches[i][0].at)
                    self.line(f"{'if' if i == 0 else 'elif'} {self.expr(head.branches[i][0])}:")
                else:
                    self.line("else:")
                self.at = let.at
                with self.indent():
                    self.comment(let.at)
                    c = let.choice
                    who = self.some(c.who, "the player who chooses")
                    self.line(f"{asks}.append(({who}, {self.expr(c.options)}, {c.kind}, {self.prompt(c.prompt)}))"
                              f"; {took}.append({i})")
        self.at = saved
        if not all(_own_choice(each, [], let) for let in lets):
            self.line(f"if {asks}: one_ask_each({asks}, {self.place(each.at)})")
        self.line(f"{answers} = (yield (-1, {asks})) if {asks} else ()")  # every seat of the loop is asked
        self.line(f"for {var}, {answer}, {k} in zip({seats}, {answers}, {took}):")
        with self.indent():
            for i, (let, branch) in enumerate(zip(lets, branches, strict=True)):
                self.line(f"{'if' if i == 0 else 'elif' if i < len(lets) - 1 else 'else'}"
                          f"{f' {k} == {i}' if i < len(lets) - 1 else ''}:")
                with self.indent():
                    self._answered(let, branch[1:], answer)
            if each.body[1:]:
                self.block(each.body[1:])
        return True

    def _then(self, route: list, layers: list, i: int, innermost) -> None:
        """The second pass, from the `i`-th procedure in: set its player and values, write what follows
        inside it, then what follows its call (outside it)."""
        if i == len(route):
            innermost()
            return
        _, proc, after = route[i]
        for text in layers[i].bindings:
            self.line(text)
        with self.entered(layers[i]):
            self.heading(proc)
            self._then(route, layers, i + 1, innermost)
        if after:
            self.block(after)


    def _answered(self, let: LetChoice, rest: list[n.Stmt], answer: str) -> None:
        self.line(f"{self.bind(let.var)} = {answer}")
        if rest:
            self.block(rest)


    def _each_a_generator(self, each: ForPlayers) -> None:
        """The general case: each player's body is a generator of its own, run to its first ask; the
        first asks go out together; then each body is finished in turn order (asking on its own)."""
        var = self.bind(each.var)
        fn, gens, asks, g, a = (self.fresh(x) for x in ("simul", "gens", "asks", "g", "a"))
        with self.function(f"def {fn}({var}):", [each.var]):
            self.block(each.body)
            self.line("if False: yield")
        seats = self.fresh("seats")
        self.line(f"{seats} = {self.expr(each.pool)}")
        self.spend(self.seat_count(seats, each.pool, each.where), each.at)
        self.line(f"{gens} = []; {asks} = []")
        self.line(f"for {var} in {seats}:")
        if each.where is not None:
            self.line(f"    if not ({self.expr(each.where)}): continue")
        self.line(f"    {g} = {fn}({var})")
        self.line("    try:")
        self.line(f"        {asks}.append(next({g})); {gens}.append({g})")
        self.line("    except StopIteration: pass")
        self.line(f"if {gens}:")
        self.line(f"    one_ask_each({asks}, {self.place(each.at)})")
        self.line(f"    {a} = yield (-1, {asks})")
        self.line(f"    for {g}, {a} in zip({gens}, {a}):")
        self.line("        try:")
        self.line("            while True:")
        self.line(f"                {a} = yield {g}.send({a})")
        self.line("        except StopIteration: pass")




def _for_the_log(body: list[n.Stmt]) -> bool:
    """Whether a block only writes sentences of the log (`say`, under tests that cannot fail, draw chance or run
    over a list): a quiet match, which writes none, skips it whole and nothing else changes."""
    for s in body:
        if isinstance(s, Say):
            if not all(_inert(p.value) for p in s.text.parts if isinstance(p, n.Format)):
                return False
        elif isinstance(s, If):
            if not all(_inert(test) and _for_the_log(b) for test, b in s.branches) or \
                    not _for_the_log(s.orelse or []):
                return False
        elif not isinstance(s, Nothing):
            return False
    return True


def _inert(value: n.Expr) -> bool:
    """Whether working out a value cannot fail, draw chance, charge steps or run over cards (so it may be left
    out of a quiet match)."""
    if value.risky or n.needs_some(value) or n.iterates(value):
        return False
    return not isinstance(value, n.ZoneCards | n.OwnedCards) and all(_inert(c) for c in value.children())


def _own_choice(each: ForPlayers, route: list, let: LetChoice) -> bool:
    """Is the chooser each seat of the loop itself (through the procedures on the way in)? Then no
    seat can be asked twice (a list of seats never repeats one)."""
    seat = each.var
    for call, proc, _ in route:
        if not (isinstance(call.who, n.Ref) and call.who.var is seat):
            return False
        seat = proc.me
    return isinstance(let.choice.who, n.Ref) and let.choice.who.var is seat




INLINED_SITES = 3
"""The most places a procedure is written into; one run from more is written once and called."""


def _shared(program: Program) -> set[str]:
    """The procedures run from more than INLINED_SITES places of the game's texts."""
    sites: dict[str, int] = {}
    for r in [*program.functions.values(), *program.extras, *program.conditions, *program.actions()]:
        for s in n.walk(r.body or []):
            for name in s.procedures():
                sites[name] = sites.get(name, 0) + 1
    return {name for name, count in sites.items() if count > INLINED_SITES}


def generate(program: Program, plan: Plan) -> tuple[Compiled, list]:
    """The Python module of a resolved, analysed program (and the errors of texts too deep to write). A
    procedure written into its callers is not written on its own (nothing would call it); it is still
    worked through, for the mistakes only writing finds."""
    w = CodeGenerator(program, plan, _shared(program))
    order = [*program.functions.values(), *program.extras, *program.conditions, *program.actions()]
    for r in order:
        if r.body is None and r.value is None:
            continue
        if r.kind == "proc" and w.inlined(r.label):
            w.rehearse(r)
        else:
            w.routine(r)
    return w.compiled(), w.errors
