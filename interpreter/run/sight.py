"""Stage 7, how a seat sees a match, rule by rule: which zones' order it sees and where it knows which card
lies, a card by its face (copies alike) or by its back, the counters it may read, and the words of questions,
options and cards it cannot see. The view and the information state (run/information.py) are rendered by
these rules.
"""

from __future__ import annotations

from typing import Any

from .runtime import HIDDEN, K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT, OWNER, PUBLIC, State

_CARD_INDEX: dict[int, tuple[Any, dict[str, int]]] = {}


def card_index(layout) -> dict[str, int]:
    """Card id -> index for a layout (built once per layout)."""
    hit = _CARD_INDEX.get(id(layout))
    if hit is None or hit[0] is not layout:
        hit = (layout, {cid: c for c, cid in enumerate(layout.card_ids)})
        _CARD_INDEX[id(layout)] = hit
    return hit[1]



# ---- counters: who sees them ------------------------------------------------------------------------

_RULES: dict[int, tuple[Any, tuple]] = {}


def counter_rules(model) -> tuple[list[tuple], list[tuple]]:
    """For game and player counters: (index, name, visibility, flag) where flag is None or
    (per_player, index) of the counter that makes it public while it is not 0."""
    hit = _RULES.get(id(model))
    if hit is not None and hit[0] is model:
        return hit[1]
    if True:
        by_index = sorted(model.counters.values(), key=lambda c: (c.per_player, c.index))
        rules: tuple[list[tuple], list[tuple]] = ([], [])
        for c in by_index:
            flag = model.counters[c.public_while] if c.public_while else None
            rules[c.per_player].append((c.index, c.name, c.visibility,
                                        None if flag is None else (flag.per_player, flag.index)))
        _RULES[id(model)] = (model, rules)
    return rules


def visible_counters(model, st: State, seat: int) -> dict[str, Any]:
    """Every counter by name as `seat` sees it: a player counter is a list by seat; a value the seat
    may not see is None."""
    game, player = counter_rules(model)
    out: dict[str, Any] = {}
    for i, name, vis, flag in game:
        shown = vis == PUBLIC or (flag is not None and st.gc[flag[1]] != 0)
        out[name] = st.gc[i] if shown else None
    for i, name, vis, flag in player:
        values = st.pc[i]
        row = []
        for p in range(st.n):
            shown = vis == PUBLIC or (vis == OWNER and p == seat) or (
                flag is not None and (st.pc[flag[1]][p] if flag[0] else st.gc[flag[1]]) != 0)
            row.append(values[p] if shown else None)
        out[name] = row
    return out


# ---- how a seat sees cards --------------------------------------------------------------------------


def ordered_for(layout, zi: int, seat: int) -> bool:
    """Can `seat` see the order of zone `zi`? Cards on the table lie where everyone sees them; the
    order of another player's hand is theirs alone."""
    return layout.zone_vis[zi] != OWNER or layout.zone_owner[zi] == seat


def order_known(layout, zi: int, seat: int) -> bool:
    """Does `seat` know which card lies where in zone `zi` (so that a card's place there tells nothing
    new)? Not in another player's hand, and in a hidden zone nobody does, shuffled or not: its order
    was never seen (before a shuffle it is the order of the card files). A card taken from such a zone
    (at random, say) shows no place it was taken from."""
    return layout.zone_vis[zi] == PUBLIC or (layout.zone_vis[zi] == OWNER and layout.zone_owner[zi] == seat)


def glimpse_at(layout, zi: int, p: int, seat: int) -> bool:
    """Does `seat` see where a card shown to `p` lies? Never in a hand it does not hold (looking at a
    hand shows its cards, not the order its player keeps them in); in a hidden zone only the looker."""
    return ordered_for(layout, zi, seat) and (p == seat or layout.zone_vis[zi] != HIDDEN)


def faces(layout) -> list[str]:
    """What a seat sees of each card, by index: its face (copies of one card alike), never its copy id."""
    return layout.face_ids


def back_of(game, layout, c: int) -> dict[str, Any]:
    """A hidden card as a seat sees it: its back."""
    return {"hidden": True, **{game.prop_names[k]: layout.props[k][c] for k in layout.back[c]}}


def back_key(layout, c: int) -> tuple:
    return tuple(layout.props[k][c] for k in layout.back[c])


def hidden_label(game, st: State, c: int, viewer: int) -> str:
    """The label of a card `viewer` cannot see: its place (the position only where the viewer sees the
    order) and its back."""
    zi = st.zone_of[c]
    return card_place_label(game, st.layout, c, zi, st.zones[zi].index(c), viewer)


def prompt_text(game, question: Any, kind: int, written: bool = False) -> str:
    """What a question asks, in words: as the asked seat reads it, or (`written`) as the rules write it,
    which is what the other seats see of a question with `{…}` parts; without a prompt, one by the kind
    of its options. `question`: the index of a fixed question, or (index as written, the sentence made)."""
    if question.__class__ is tuple:
        text = game.prompts[question[0]] if written else question[1]
    else:
        text = game.prompts[question]
    return text or _PROMPTS.get(kind, "choose one")


_PROMPTS = {K_CARD: "choose a card", K_PLAYER: "choose a player", K_BOOL: "yes or no", K_NUMBER: "choose a number"}


def value_label(t, kind: int, value: Any) -> str:
    """The readable name of an option that is not a card."""
    if kind == K_PLAYER:
        return t.player_name(value)
    if kind == K_BOOL:
        return "yes" if value else "no"
    return "none" if value == -1 and kind == K_TEXT else str(value)  # a text choice with nothing to offer


def option_label(game, t, kind: int, option: Any, viewer: int) -> str:
    """An option of a recorded question as `viewer` (the asked seat) saw it: a card's id (or `none`)
    when the seat saw it, else its place (card, zone, position) named by `card_place_label`."""
    if kind != K_CARD:
        return value_label(t, kind, option)
    if isinstance(option, str):
        return option  # the card's face, or `none`
    c, zi, at = option
    return card_place_label(game, t, c, zi, at, viewer)


def card_place_label(game, t, c: int, zi: int, at: int, viewer: int) -> str:
    """A card `viewer` cannot see, by its place and back: with its position only where the viewer knows
    the zone's order (on the table; never in a hidden zone, whose order nobody knows, nor in another
    player's hand)."""
    back = "".join(f", {game.prop_names[k]} {t.props[k][c]}" for k in t.back[c])
    if order_known(t, zi, viewer):
        return f"hidden card {at + 1} of {t.zone_names[zi]}{back}"
    return f"hidden card of {t.zone_names[zi]}{back}"


_CARD_RANKS: dict[int, tuple] = {}


def card_ranks(layout) -> tuple[list[int], list[int] | None]:
    """Each card's place among all the cards of a layout by face id, and by back (then index): the
    canonical order of another player's hand is theirs (None where backs of different kinds of value
    cannot be ordered together)."""
    hit = _CARD_RANKS.get(id(layout))
    if hit is None or hit[0] is not layout:
        cards = range(len(layout.face_ids))
        by_face = [0] * len(cards)
        for r, c in enumerate(sorted(cards, key=layout.face_ids.__getitem__)):
            by_face[c] = r
        by_back: list[int] | None = [0] * len(cards)
        try:
            for r, (_, c) in enumerate(sorted((back_key(layout, c), c) for c in cards)):
                by_back[c] = r  # type: ignore[index]
        except TypeError:
            by_back = None
        hit = (layout, by_face, by_back)
        _CARD_RANKS[id(layout)] = hit
    return hit[1], hit[2]
