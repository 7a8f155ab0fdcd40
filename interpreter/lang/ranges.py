"""The least and greatest value a number can take, worked out on the typed nodes before play: where a number a
counter, a name or the score keeps cannot pass MAX_NUMBER either way, the generated code does not test it
(docs/dsl.md, Limits), and where it can only grow (or only shrink) it tests one side.

Card properties never change during a match, so a property's values are those the game's cards give it; a
stored number (a counter, a `let` name) is already within the limit; the rest follows the arithmetic."""

from __future__ import annotations

from ..limits import MAX_NUMBER
from ..load.model import GameModel
from . import nodes as n

Span = tuple[int, int] | None
"""(least, greatest), or None: not known."""

STORED: tuple[int, int] = (-MAX_NUMBER, MAX_NUMBER)


class Ranges:
    """The span of each kind of number node (`span_<Class>`, None for any other)."""

    def __init__(self, model: GameModel, cards: int) -> None:
        self.cards = cards  # the most cards the game has (at its largest player count)
        self.players = model.max_players
        self.props: dict[int, tuple[int, int]] = {}  # a number property's index → its span over the cards
        for name, index in model.prop_index.items():
            if name not in model.prop_defaults:
                continue
            values = [d.props.get(name, model.prop_defaults[name]) for d in model.cards]
            values.append(model.prop_defaults[name])  # (the value of "no card")
            if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                self.props[index] = (min(values), max(values))

    def span(self, value: n.Expr) -> Span:
        if value.type not in ("num", "bool"):
            return None
        method = getattr(self, f"span_{type(value).__name__}", None)
        return None if method is None else method(value)

    def within(self, value: n.Expr) -> bool:
        """Can the value never pass the limit either way?"""
        s = self.span(value)
        return s is not None and s[0] >= -MAX_NUMBER and s[1] <= MAX_NUMBER

    def span_Const(self, v: n.Const) -> Span:
        return (int(v.value), int(v.value)) if isinstance(v.value, int) else None

    def span_PlayerCount(self, v: n.PlayerCount) -> Span:
        return (0, self.players)

    def span_Length(self, v: n.Length) -> Span:
        if v.items.type == "players":
            return (0, self.players)
        return (0, self.cards) if n.bounded(v.items) else None

    def span_CardProp(self, v: n.CardProp) -> Span:
        return self.props.get(v.index)

    def span_GameCounter(self, v: n.GameCounter) -> Span:
        return STORED

    def span_PlayerCounter(self, v: n.PlayerCounter) -> Span:
        return STORED

    def span_Ref(self, v: n.Ref) -> Span:
        return STORED if v.var.kind == "let" else None  # (a `let` is tested as it is stored)

    def span_Retyped(self, v: n.Retyped) -> Span:
        return (0, 1) if v.value.type == "bool" else self.span(v.value)

    def span_Compare(self, v: n.Compare) -> Span:
        return (0, 1)

    def span_Logic(self, v: n.Logic) -> Span:
        a, b = self.span(v.left), self.span(v.right)
        return None if a is None or b is None else (min(a[0], b[0], 0), max(a[1], b[1], 1))

    def span_Not(self, v: n.Not) -> Span:
        return (0, 1)

    def span_Neg(self, v: n.Neg) -> Span:
        s = self.span(v.value)
        return None if s is None else (-s[1], -s[0])

    def span_Arith(self, v: n.Arith) -> Span:
        a, b = self.span(v.left), self.span(v.right)
        if a is None or b is None:
            return None
        if v.op == "+":
            return (a[0] + b[0], a[1] + b[1])
        if v.op == "-":
            return (a[0] - b[1], a[1] - b[0])
        ends = [x * y for x in a for y in b]
        return (min(ends), max(ends))

    def span_Cond(self, v: n.Cond) -> Span:
        a, b = self.span(v.then), self.span(v.other)
        return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))

    def span_Helper(self, v: n.Helper) -> Span:
        spans = [self.span(a) for a in v.args]
        if any(s is None for s in spans):
            return None
        known = [s for s in spans if s is not None]
        if v.name in ("max", "min") and len(known) == 2:
            pick = max if v.name == "max" else min
            return (pick(known[0][0], known[1][0]), pick(known[0][1], known[1][1]))
        if v.name == "abs":
            lo, hi = known[0]
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
        if v.name == "floordiv":  # no larger than what is divided, either way (a division by zero fails)
            top = max(abs(known[0][0]), abs(known[0][1]))
            return (-top, top)
        if v.name == "mod":  # smaller than the divisor, on its side
            top = max(abs(known[1][0]), abs(known[1][1]))
            return (-top, top)
        if v.name == "roll":
            return (1, known[0][1])
        return None

    def span_Aggregate(self, v: n.Aggregate) -> Span:
        if v.pool.type == "players":
            most = self.players
        elif n.bounded(v.pool):
            most = self.cards
        else:
            return None
        if v.kind in ("count", "any"):
            return (0, most)
        each = self.span(v.value)
        if each is None or v.kind not in ("sum", "max", "min"):
            return None
        lo, hi = min(each[0], 0), max(each[1], 0)  # (an empty list: 0)
        return (lo * most, hi * most) if v.kind == "sum" else (lo, hi)
