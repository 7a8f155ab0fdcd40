"""A `say` sentence reads the same whether or not anyone watches: a `{…}` part that needs a card or a player
that may be none (`{c.value}`, `{hand of p}`) reads `nothing` (`nobody`, a player's) where it is none.

A quiet match (`sim`'s, the bots' play-outs) writes no sentence, so a part that failed on none would stop a
logged match (`play`, `replay`, `--log`) where the same match played quietly goes on. A part that is worked out
in a quiet match too (one that calls a game function or may fail on its own, a division) is left as it is: it
fails alike in both."""

from __future__ import annotations

from . import nodes as n

NOTHING = {"player": "nobody", "players": "nobody"}  # how a part of each type reads where what it needs is none


def narrated(text: n.Text) -> n.Text:
    """`text` with each part that needs a card or a player that may be none guarded: worked out where what it
    needs is there, else `nothing`."""
    parts = [_guarded(p) if isinstance(p, n.Format) else p for p in text.parts]
    return text if all(a is b for a, b in zip(parts, text.parts, strict=True)) else n.Text(parts, text.written,
                                                                                            at=text.at)


def _guarded(part: n.Format) -> n.Format:
    value = part.value
    if value.risky:  # worked out in a quiet match too: it fails alike in both
        return part
    test = workable(value)
    if test is None:
        return part
    fallback = n.Const(NOTHING.get(value.type, "nothing"), "str", at=part.at)
    return n.Format(n.Cond(test, part, fallback, "str", at=part.at), at=part.at)


def workable(value: n.Expr) -> n.Expr | None:
    """A test that holds where working out `value` needs no card or player that is none (None: it never
    does). Only what working it out runs is tested: the branch taken of `A if T else B`, the right of
    `and`/`or` where it is worked out, each member's value of a list worked over."""
    if isinstance(value, n.Cond):
        then, other = workable(value.then), workable(value.other)
        branch = None if then is None and other is None else \
            n.Cond(value.test, then or _TRUE, other or _TRUE, "bool")
        return _all(workable(value.test), branch)
    if isinstance(value, n.Logic):
        right = workable(value.right)
        # `A and B` works out B where A holds, `A or B` where it does not
        taken = None if right is None else \
            n.Logic("or", n.Not(value.left) if value.op == "and" else value.left, right)
        return _all(workable(value.left), taken)
    pool, var, each = _per_member(value)
    tests: list[n.Expr | None] = [workable(c) for c in value.children() if c is not each]
    if each is not None and var is not None and (member := workable(each)) is not None:
        tests.append(n.Not(n.Aggregate("any", pool, var, n.Not(member), "bool")))
    for name in ("card", "who"):
        needed = getattr(value, name, None)
        if isinstance(needed, n.Expr) and needed.maybe_none:
            tests.append(n.IsSome(needed))
    return _all(*tests)


def _per_member(value: n.Expr) -> tuple[n.Expr, n.Var | None, n.Expr | None]:
    """(the list, its `it`, the part worked out for each member) of a value worked over a list; else no part."""
    if isinstance(value, n.Aggregate):
        return value.pool, value.var, value.value
    if isinstance(value, n.Filter):
        return value.base, value.var, value.test
    if isinstance(value, n.Groups):
        return value.pool, value.var, value.key
    return value, None, None


_TRUE = n.Const(True, "bool")


def _all(*tests: n.Expr | None) -> n.Expr | None:
    """The tests joined by `and`, in order (each worked out only where those before it hold)."""
    out: n.Expr | None = None
    for t in tests:
        if t is not None:
            out = t if out is None else n.Logic("and", out, t)
    return out
