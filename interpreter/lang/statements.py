"""The statements of the DSL: one class per grammar rule, registered in one table (`STATEMENTS`).

Each class is a typed node of the intermediate form and says everything about its statement:
- `resolve(r, tree, scope)`: check names and types in the rule's lark tree, return the node (stage 4);
- `emit(w)`: write the node as Python through the code writer (stage 5);
- `effects`: what running it can do to a match by itself (some of `nodes.EFFECTS`: asks, moves, reorders…);
  lang/analysis.py collects them over the program (a statement that asks makes its routine a generator).
The compound statements (if, loops) are in blocks.py. How to add one: docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from lark import Tree

from ..diagnostics import did_you_mean
from ..limits import MAX_OPTIONS, UNCHARGED
from . import nodes as n
from .asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT
from .expressions import Scope, plain_string, ref, token

if TYPE_CHECKING:
    from .compiler import Writer
    from .resolve import Resolver

STATEMENTS: dict[str, type[n.Stmt]] = {}


def statement(rule: str):
    """Register the node class of one grammar rule (one statement, one class)."""

    def register(cls: type[n.Stmt]) -> type[n.Stmt]:
        assert rule not in STATEMENTS, f"statement {rule} registered twice"
        STATEMENTS[rule] = cls
        return cls

    return register


# ---- names and counters --------------------------------------------------------------------------------


@statement("let")
@dataclass(eq=False)
class Let(n.Stmt):
    var: n.Var
    value: n.Expr

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Let:
        name, value = s.children
        v = r.expr(value, scope)
        return cls(r.local(scope, str(name), v.type), v)

    def sets(self) -> list[n.Var]:
        return [self.var]

    def emit(self, w: Writer) -> None:
        name = w.bind(self.var)
        w.line(f"{name} = {self.value.emit(w)}")
        w.bound(name, self.value)


# ---- what a choice offers (always a list of its own: the ask keeps it) ------------------------------------


@dataclass(eq=False)
class Options(n.Expr):
    """The members of `items`; with -1 ("none") first when the choice may be declined, or alone when
    there is nothing to choose (the player is asked all the same)."""

    items: n.Expr
    decline: bool = False
    type: ClassVar[str] = "list"

    def emit(self, w: Writer) -> str:
        items = self.items.emit(w)
        if self.decline:
            return f"[-1, *{items}]"
        return f"({items} or [-1])" if self.items.FRESH else f"(list({items}) or [-1])"


@dataclass(eq=False)
class FixedOptions(n.Expr):
    """Options known when the game is compiled (yes/no, texts)."""

    values: list
    type: ClassVar[str] = "list"

    def emit(self, w: Writer) -> str:
        return repr(list(self.values))


@dataclass(eq=False)
class GuardedOptions(n.Expr):
    """Texts offered only when their `if` holds (a test of None: always); -1 ("none") alone when
    none holds."""

    options: list[tuple[str, n.Expr | None]]
    type: ClassVar[str] = "list"

    def children(self) -> list[n.Expr]:
        return [t for _, t in self.options if t is not None]

    def emit(self, w: Writer) -> str:
        offered = " + ".join(f"([{o!r}] if {t.emit(w)} else [])" if t is not None else f"[{o!r}]"
                             for o, t in self.options)
        return f"({offered} or [-1])"


@dataclass(eq=False)
class NumberRange(n.Expr):
    """The numbers from `low` to `high`; an empty range is a content bug (a number has no "none")."""

    low: n.Expr
    high: n.Expr
    type: ClassVar[str] = "list"

    def emit(self, w: Writer) -> str:  # the options, refused past MAX_OPTIONS
        return f"numbers({self.low.emit(w)}, {self.high.emit(w)}, {w.place(self.at)})"



@dataclass(eq=False)
class Choice:
    """The parts of one choice: who, the options, how to label them."""

    who: n.Expr
    options: n.Expr
    kind: int
    prompt: str | n.Text | None  # a Text: a question with `{…}` parts, worked out when it is asked
    type: str
    count: n.Expr | None = None  # several cards: how many (asked one at a time)
    up_to: bool = False  # several cards: fewer may be chosen


def _choice(r: Resolver, s: Tree, scope: Scope) -> Choice:
    _, chooser, choice, question = s.children
    who = r.me(scope) if chooser.data == "chooser_me" else r.expect(chooser.children[0], scope, "player")
    prompt = r.question(token(question), scope) if question is not None else None
    return _CHOICES[choice.data](r, choice, scope, who, prompt)


def _choose_cards(r: Resolver, choice: Tree, scope: Scope, who: n.Expr, prompt: Any) -> Choice:
    """`up to N cards from …`, `N cards from …` (up to one: a card or none)."""
    ch, up_to = choice.children, choice.data == "choose_up_to"
    count = r.expect(ch[0], scope, "num")
    cards = r.expect(ch[-1], scope, "cards")
    if up_to and isinstance(count, n.Const) and count.value == 1:
        return Choice(who, Options(cards, decline=True), K_CARD, prompt, "card")
    return Choice(who, Options(cards), K_CARD, prompt, "cards", count, up_to)


def _choose_option(r: Resolver, choice: Tree, scope: Scope, who: n.Expr, prompt: Any) -> Choice:
    """`one of "a", "b" if …`: texts, each maybe offered only when its condition holds."""
    guarded = [(plain_string(token(o.children[0])),
                r.condition(o.children[1], scope) if len(o.children) > 1 and o.children[1] is not None else None)
               for o in choice.children]
    if all(test is None for _, test in guarded):  # known when the game is compiled
        return Choice(who, FixedOptions([o for o, _ in guarded]), K_TEXT, prompt, "str")
    return Choice(who, GuardedOptions(guarded), K_TEXT, prompt, "str")


def _choose_number(r: Resolver, choice: Tree, scope: Scope, who: n.Expr, prompt: Any) -> Choice:
    """`a number from LOW to HIGH`."""
    ch = choice.children
    low, high = (r.expect(x, scope, "num") for x in ch[:2])
    if isinstance(low, n.Const) and isinstance(high, n.Const) and high.value - low.value >= MAX_OPTIONS:
        r.fail(r.pos(ch[0]), f"`a number from {low.value} to {high.value}` offers {high.value - low.value + 1:,} "
               f"options, more than the {MAX_OPTIONS:,} a choice may have")
    return Choice(who, NumberRange(low, high, at=r.pos(ch[0])), K_NUMBER, prompt, "num")


# What a player may be asked to choose, by grammar rule: the choice it makes.
_CHOICES: dict[str, Callable[[Resolver, Tree, Scope, n.Expr, Any], Choice]] = {
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


@statement("let_choice")
@dataclass(eq=False)
class LetChoice(n.Stmt):
    """`let x = P chooses …`: asks a player (one card at a time when several are chosen)."""

    var: n.Var
    choice: Choice
    effects = frozenset({n.ASKS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> LetChoice:
        choice = _choice(r, s, scope)
        return cls(r.local(scope, str(s.children[0]), choice.type), choice)

    def sets(self) -> list[n.Var]:
        return [self.var]

    def emit(self, w: Writer) -> None:
        c = self.choice
        if c.count is not None:  # several cards, asked one at a time
            who = w.some(c.who, "the player who chooses")
            args = f"{who}, {c.options.emit(w)}, {c.count.emit(w)}, {c.up_to}, {w.prompt(c.prompt)}, {w.place(w.at)}"
            w.line(f"{w.bind(self.var)} = yield from choose_cards({args})")
            return
        who = w.some(c.who, "the player who chooses")
        w.ask(who, c.options.emit(w), c.kind, w.prompt(c.prompt), w.bind(self.var))


def _counter_target(r: Resolver, t: Tree, scope: Scope) -> tuple[n.Expr, int | None]:
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


@statement("set")
@dataclass(eq=False)
class Assign(n.Stmt):
    """`set T to V` (and, through its subclasses, `add`/`subtract`): a counter kept at its floor."""

    target: n.Expr  # a Ref, a counter or the first player
    value: n.Expr
    floor: int | None = None
    effects = frozenset({n.COUNTS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Assign:
        t, value = s.children
        target, floor = _counter_target(r, t, scope)
        return cls(target, r.expect(value, scope, target.type), floor)

    def sets(self) -> list[n.Var]:
        return [self.target.var] if isinstance(self.target, n.Ref) else []

    def emit(self, w: Writer) -> None:
        t, value = self.target, self.value
        lhs = w.bind(t.var) if isinstance(t, n.Ref) else t.emit(w)
        if isinstance(t, n.StateField):  # the first player: the seat whose turn order the rounds follow
            w.line(f"{lhs} = {w.some(value, 'the first player')}")
        elif self.floor is not None:
            w.line(f"{lhs} = max({self.floor}, {value.emit(w)})")
        elif isinstance(value, n.Arith) and value.left is t:  # `add`/`subtract`: changed in place
            w.line(f"{lhs} {value.op}= {value.right.emit(w)}")
        else:
            w.line(f"{lhs} = {value.emit(w)}")
        if not isinstance(t, n.StateField):
            w.bound(lhs, value, self.floor)


def _change(cls, r: Resolver, s: Tree, scope: Scope, op: str) -> Assign:
    value, t = s.children
    if t.data == "target_first_player":
        r.fail(r.pos(t), "`first player` is a player, not a number", "use `set first player to …`")
    target, floor = _counter_target(r, t, scope)
    if target.type == "str":
        r.fail(r.pos(t), "a text counter holds a text: `add` and `subtract` change numbers",
               f"use `set {t.children[0]!s} to \"…\"`")
    return cls(target, n.Arith(op, target, r.expect(value, scope, "num")), floor)


@statement("add")
class Add(Assign):
    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Assign:
        return _change(cls, r, s, scope, "+")


@statement("subtract")
class Subtract(Assign):
    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Assign:
        return _change(cls, r, s, scope, "-")


# ---- cards -----------------------------------------------------------------------------------------------

_PLACES = {"place_top": 0, "place_bottom": -1, "place_random": -2}


def _facing(f: Tree | None) -> int:
    """-1: the zone's own facing; 1 face up; 0 face down."""
    if f is None:
        return -1
    return 1 if f.data == "face_up" else 0


@statement("move")
@dataclass(eq=False)
class Move(n.Stmt):
    """`move CARDS to [PLACE of] ZONE [face up|down]`."""

    cards: n.Expr | None  # None: moved straight from `source` (`all Z`, `the top N cards of Z`)
    zone: n.Expr
    place: int | n.Expr  # 0 top, -1 bottom, -2 random, or a 0-based position
    facing: int
    source: n.Expr | None = None
    count: n.Expr | None = None  # of `source`: how many (-1 all)
    limit: int | None = None  # the destination's limit (-1: none), when the zone is named
    face_up: bool = True  # the destination's facing, when the zone is named
    effects = frozenset({n.MOVES})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Move:
        what, dest = s.children[:2]
        facing = s.children[2] if len(s.children) > 2 else None
        zone = r.expect(dest.children[-1], scope, "zone")
        place: int | n.Expr = 0
        if dest.data == "dest_place":
            p = dest.children[0]
            known = _PLACES.get(p.data)
            if known is not None:
                place = known
            else:
                place = n.Helper("max", [n.Const(0, "num"), n.Arith("-", r.expect(p.children[0], scope, "num"),
                                                                    n.Const(1, "num"))], "num")
        named = r.model.zone(zone.zone) if isinstance(zone, n.GameZone | n.PlayerZone) else None
        move = cls(None, zone, place, _facing(facing), limit=named.limit if named else None,
                   face_up=named.face_up if named else True)
        if what.data == "all_cards" or (what.data == "pick_n" and what.children[0].data == "end_top"):
            source = r.expr(what.children[-1], scope)
            if source.type == "zone":
                move.source = source
                move.count = (n.Const(-1, "num") if what.data == "all_cards" else
                              n.Helper("max", [n.Const(0, "num"), r.expect(what.children[1], scope, "num")], "num"))
                return move
        cards = r.expr(what, scope)
        move.cards = cards if cards.type in ("card", "none") else r.coerce(cards, "cards", what)
        return move

    def emit(self, w: Writer) -> None:
        place = self.place if isinstance(self.place, int) else self.place.emit(w)
        zone = self.zone.emit(w)
        if self.source is not None:
            assert self.count is not None  # given with its source
            w.line(f"move_cards(st, {self.source.emit(w)}, {self.count.emit(w)}, {zone}, {place}, {self.facing})")
            return
        assert self.cards is not None  # without a source, the cards are given
        if self.cards.type == "card" and self.limit is not None and self.limit < 0 and place in (0, -1):
            self.inline(w, place)
        elif self.cards.type in ("card", "none"):
            w.line(f"move(st, {self.cards.emit(w)}, {zone}, {place}, {self.facing})")
        else:
            w.line(f"move_all(st, {self.cards.emit(w)}, {zone}, {place}, {self.facing})")

    def inline(self, w: Writer, place: int) -> None:
        """The common case written out in place (one card, a zone without a limit, an end): the
        same steps as runtime.move, without a call."""
        assert self.cards is not None and isinstance(self.zone, n.GameZone | n.PlayerZone)  # a named zone
        up = self.face_up if self.facing < 0 else self.facing == 1
        ZO, Z, KN, F = (w.alias(a) for a in ("ZO", "Z", "KN", "F"))
        if isinstance(self.cards, n.Ref):
            c = self.cards.emit(w)
        else:
            c = w.fresh("c")
            w.line(f"{c} = {self.cards.emit(w)}")
        src = w.fresh("s")
        w.line(f"if {c} >= 0:")
        with w.indent():
            if isinstance(self.zone, n.GameZone):
                dst = self.zone.emit(w)
                w.line(f"{src} = {ZO}[{c}]")
            else:
                dst = w.fresh("d")
                w.line(f"{src} = {ZO}[{c}]; {dst} = {self.zone.emit(w)}")
            if up:
                w.line(f"if st.log is not None: leaving(st, {c}, {src}); {KN}[{c}] = 0")
            else:
                owner = self.zone.owner
                mine = f" | (1 << {owner.emit(w)})" if owner is not None else ""
                w.line(f"if st.log is not None: leaving(st, {c}, {src}); {KN}[{c}] = kept_sight(st, {c}){mine}")
            w.line(f"{Z}[{src}].remove({c})")
            w.line(f"{Z}[{dst}].insert(0, {c})" if place == 0 else f"{Z}[{dst}].append({c})")
            w.line(f"{ZO}[{c}] = {dst}; {F}[{c}] = {up}")
            w.line(f"if st.log is not None: moved(st, {c}, {src}, {dst})")


@statement("shuffle")
@dataclass(eq=False)
class Shuffle(n.Stmt):
    zone: n.Expr
    effects = frozenset({n.REORDERS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Shuffle:
        return cls(r.expect(s.children[0], scope, "zone"))

    def emit(self, w: Writer) -> None:
        w.line(f"shuffle(st, {self.zone.emit(w)})")


@statement("flip")
@dataclass(eq=False)
class Flip(n.Stmt):
    """`flip CARDS face up|down` (and `reveal CARDS`): turn cards where they lie."""

    cards: n.Expr
    up: bool
    effects = frozenset({n.FLIPS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Flip:
        what, facing = s.children
        return cls._of(r, what, scope, facing.data == "face_up")

    @classmethod
    def _of(cls, r: Resolver, what: Tree, scope: Scope, up: bool) -> Flip:
        v = r.expr(what, scope)
        return cls(v if v.type == "card" else r.coerce(v, "cards", what), up)

    def emit(self, w: Writer) -> None:
        cards = self.cards.emit(w)
        if self.cards.type == "card":
            w.line(f"flip(st, {cards}, {self.up})")
        elif self.up:
            # Turning face up needs no bookkeeping of who knows what: written out in place. Turning
            # moves no card, so the list is read as it is.
            c, F, KN = w.fresh("c"), w.alias("F"), w.alias("KN")
            w.line(f"for {c} in {w.charge(cards, self.at) if w.may_be_long(self.cards, True) else cards}:")
            w.line(f"    if not {F}[{c}]:")
            w.line(f"        {F}[{c}] = True; {KN}[{c}] = 0")
            w.line(f"        if st.log is not None: st.event('flip', card=st.layout.card_ids[{c}], face='up')")
        else:
            w.line(f"flip_all(st, {cards}, {self.up})")


@statement("reveal")
class Reveal(Flip):
    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Flip:
        return cls._of(r, s.children[0], scope, True)


@statement("show")
@dataclass(eq=False)
class Show(n.Stmt):
    cards: n.Expr
    who: n.Expr
    effects = frozenset({n.SHOWS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Show:
        what, who = s.children
        player = r.expect(who, scope, "player")
        v = r.expr(what, scope)
        return cls(v if v.type == "card" else r.coerce(v, "cards", what), player)

    def emit(self, w: Writer) -> None:
        player = w.some(self.who, "the player to show to")
        if self.cards.type == "card":
            w.line(f"show(st, {self.cards.emit(w)}, {player})")
        else:
            c = w.fresh("c")
            cards = self.cards.emit(w)
            w.line(f"for {c} in {w.charge(cards, self.at) if w.may_be_long(self.cards, True) else cards}: "
                   f"show(st, {c}, {player})")


# ---- the log and the flow ---------------------------------------------------------------------------------


@statement("say")
@dataclass(eq=False)
class Say(n.Stmt):
    text: n.Text
    effects = frozenset({n.SAYS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Say:
        return cls(r.interpolate(token(s.children[0]), scope))

    def emit(self, w: Writer) -> None:
        # A value that may fail is worked out whether or not the match is logged (a sentence must not
        # change the match: it fails either way; chance in a text is refused before play), and so are
        # the steps of the lists it runs over (in a game of more than UNCHARGED cards); the text waits
        # for a log.
        parts: list[n.Expr] = []
        for part in self.text.parts:
            zones = n.zones_run_over(part.value) if isinstance(part, n.Format) and w.cards > UNCHARGED else []
            if zones:  # what it runs over charged as a quiet match would (without working out the text)
                for zone, at in zones:
                    code = zone.emit(w)
                    w.line(f"if len({code}) > {UNCHARGED}: {w.charge(code, at)}")
            if isinstance(part, n.Format) and (part.value.risky or n.nests(part.value) or zones is None):
                name = w.fresh("t")
                w.line(f"{name} = {part.value.emit(w)}")
                part = n.Format(_Worked(name, part.value.type), at=part.at)
            parts.append(part)
        w.free = True  # the rest is worked out in a logged match only: charged, it would make it run otherwise
        try:
            w.line(f"if st.log is not None: say(st, {n.Text(parts).emit(w)})")
        finally:
            w.free = False


@dataclass(eq=False)
class _Worked(n.Expr):
    """A value already worked out into a local of the generated code."""

    name: str
    type: str

    def emit(self, w: Writer) -> str:
        return self.name


@statement("nothing")
@dataclass(eq=False)
class Nothing(n.Stmt):
    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Nothing:
        return cls()

    def emit(self, w: Writer) -> None:
        w.line("pass")


@statement("stop")
@dataclass(eq=False)
class Stop(n.Stmt):
    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Stop:
        if not r.loops:
            r.fail(r.pos(s), "`stop` must be inside a loop (while, repeat, for each) of the same text")
        return cls()

    def emit(self, w: Writer) -> None:
        w.line("break")


@statement("end_game")
@dataclass(eq=False)
class EndGame(n.Stmt):
    winners: n.Expr | None  # a player or players; None: rank by score
    effects = frozenset({n.ENDS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> EndGame:
        who = [x for x in s.children if isinstance(x, Tree)]
        if not who:
            return cls(None)
        v = r.expr(who[0], scope)
        return cls(v if v.type == "player" else r.coerce(v, "players", who[0]))

    def emit(self, w: Writer) -> None:
        if self.winners is None:
            w.line("raise GameOver(None)")
        elif self.winners.type == "player":
            w.line(f"raise GameOver([{w.some(self.winners, 'the winner')}])")
        else:
            w.line(f"raise GameOver(list({self.winners.emit(w)}))")


def _the_deal(r: Resolver, word, what: str) -> None:
    """`…the deal`: the word after `the` must be `deal` (a name, so that games may still use it)."""
    if str(word) != "deal":
        r.fail(r.pos(word), f"expected `{what} the deal` here, not `{what} the {word}`",
               "`end the game` ends the match; `end the deal` ends the current deal" if what == "end" else None)


@statement("end_deal")
@dataclass(eq=False)
class EndDeal(n.Stmt):
    """`end the deal`: the current deal's rounds end now; the flow goes on with `after_deal`."""

    effects = frozenset({n.ENDS})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> EndDeal:
        _the_deal(r, s.children[0], "end")
        return cls()

    def emit(self, w: Writer) -> None:
        w.line("raise DealOver()")


@statement("knock_out")
@dataclass(eq=False)
class KnockOut(n.Stmt):
    """`knock out P [for the deal]`: P takes no more turns and leaves every list of players, for the
    rest of the match (or of the deal); when one player is left in, the deal ends."""

    who: n.Expr
    for_deal: bool
    effects = frozenset({n.KNOCKS_OUT})

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> KnockOut:
        word, who, *until = s.children
        if str(word) != "out":
            r.fail(r.pos(word), f"expected `knock out` here, not `knock {word}`")
        if until:
            _the_deal(r, until[0], "for")
        return cls(r.expect(who, scope, "player"), bool(until))

    def emit(self, w: Writer) -> None:
        w.line(f"knock_out(st, {w.some(self.who, 'the player to knock out')}, {self.for_deal})")


@statement("call")
@dataclass(eq=False)
class Call(n.Stmt):
    """`VERB args`, `P VERBs args`, `each player VERBs args`: run a game procedure."""

    proc: str
    args: list[n.Expr]
    who: n.Expr  # the player it runs for; with `each`, the pool of players
    each: bool = False

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Call:
        kids = list(s.children)
        subject = kids.pop(0) if isinstance(kids[0], Tree) and kids[0].data.startswith("subject") else None
        verb = kids.pop(0)
        name = r.verbs[str(verb)]
        proc = r.procedures[name]
        args = [a for a in kids if a is not None]
        if len(args) != len(proc.params):
            want = ", ".join(proc.params) or "nothing"
            r.fail(r.pos(verb), f"`{verb}` takes {len(proc.params)} value(s) ({want}), got {len(args)}")
        values = [r.expect(a, scope, ty) for a, ty in zip(args, proc.param_types, strict=False)]
        if subject is None:
            return cls(name, values, r.me(scope))
        if subject.data == "subject_player":
            return cls(name, values, r.expect(subject.children[0], scope, "player"))
        return cls(name, values, r.player_kind(subject.children[0], scope), each=True)

    def procedures(self) -> list[str]:
        return [self.proc]

    def emit(self, w: Writer) -> None:
        if not self.each:
            w.invoke(self.proc, self.who, self.args)
            return
        p, seats = w.fresh("p"), w.fresh("seats")
        w.line(f"{seats} = {self.who.emit(w)}")
        w.spend(f"len({seats})", self.at)
        w.line(f"for {p} in {seats}:")
        with w.indent():
            w.invoke(self.proc, p, self.args)


@statement("resolve")
@dataclass(eq=False)
class Resolve(n.Stmt):
    """`resolve ABILITY of CARD`: run that card's version of the ability (nothing if it has none)."""

    ability: str
    index: int
    card: n.Expr
    me: n.Expr

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Resolve:
        name, card = s.children
        ability = str(name)
        if ability not in r.model.abilities:
            r.fail(r.pos(name), f"unknown ability `{ability}`",
                   did_you_mean(ability, r.model.abilities) or "declare it under abilities: in game.yaml")
        return cls(ability, r.model.abilities.index(ability), r.expect(card, scope, "card"), r.me(scope))

    def abilities(self) -> list[str]:
        return [self.ability]

    def emit(self, w: Writer) -> None:
        c, f = w.fresh("c"), w.fresh("f")
        w.line(f"{c} = {self.card.emit(w)}")
        w.line(f"{f} = ABILITIES[{w.constant('ability', self.index)}][{w.alias('CD')}[{c}]] if {c} >= 0 else None")
        head = "yield from " if w.ability_asks(self.ability) else ""
        if w.kind != "ability":
            w.line(f"if {f} is not None: {head}{f}(st, {self.me.emit(w)}, {c})")
            return
        w.line(f"if {f} is not None:")  # an ability resolving one may reach itself: counted, and its depth
        w.line(f"    enter(st, {w.place(self.at)})")
        w.line(f"    {head}{f}(st, {self.me.emit(w)}, {c})")
        w.line("    st.depth -= 1")
