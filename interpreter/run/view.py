"""Stage 7, a seat's view: the zones as it sees them now (`zone_view`, `shown_cards`), the counters and its question,
as a dict (`view`) or one canonical JSON line (`view_json`), written again only for the zones that changed."""

from __future__ import annotations

from itertools import compress, repeat
from operator import and_, is_not, ne, not_
from typing import Any

from .events import (  # the kinds of event (raw tuples, first item the tag: see run/events.py)
    KEPT_AT_MOST,
)
from .events import number as _int
from .look import _BLIND, _HAND, _STR, Seen, _counters, _ints, _Look, _look, _values_json
from .runtime import HIDDEN, K_CARD, State, seen_by
from .sight import (
    back_key,
    back_of,
    card_ranks,
    faces,
    ordered_for,
    visible_counters,
)

# ---- a seat's view ----------------------------------------------------------------------------------


def shown_cards(st: State, zi: int, seat: int) -> tuple[list[int], list[int]] | None:
    """Zone `zi` as `seat` sees it: its cards in the order shown, and for each whether the seat sees its
    face (else only its back); another player's hand in a canonical order (the faces the seat knows
    sorted, then the backs sorted), never in the order kept. None for a hidden zone of which the seat
    sees no face: it sees only how many cards it holds."""
    t = st.layout
    bit = 1 << seat
    cards = st.zones[zi]
    if not ordered_for(t, zi, seat):
        known = st.known
        by_face, by_back = card_ranks(t)
        faced = sorted([c for c in cards if known[c] & bit], key=by_face.__getitem__)
        if by_back is not None:
            backs = sorted([c for c in cards if not known[c] & bit], key=by_back.__getitem__)
        else:
            backs = [c for _, c in sorted([(back_key(t, c), c) for c in cards if not known[c] & bit])]
        cards, seen = faced + backs, [1] * len(faced) + [0] * len(backs)
    else:
        seen = [seen_by(st, c) & bit for c in cards]
    if t.zone_vis[zi] == HIDDEN and not any(seen):
        return None
    return cards, seen


def zone_view(game, st: State, zi: int, seat: int) -> Any:
    """One zone as `seat` sees it (see `shown_cards`): the faces of the cards it can see (copies alike),
    backs of the others; of a hidden zone where it sees no face, the count."""
    shown = shown_cards(st, zi, seat)
    if shown is None:
        return {"count": len(st.zones[zi])}
    t = st.layout
    face = faces(t)
    return [face[c] if seen else back_of(game, t, c) for c, seen in zip(*shown, strict=True)]


def view(match, seat: int) -> dict[str, Any]:
    """`Match.view(seat)` (the same as `view_json` writes it)."""
    st, t, game = match.st, match.layout, match.game
    zones = {t.zone_names[zi]: zone_view(game, st, zi, seat) for zi in range(len(st.zones))}
    return {"seat": seat, "deal": st.deal, "round": st.round, "turn": st.turn, "first": st.first,
            "active": st.active, "out": [p for p in range(st.n) if st.out >> p & 1], "zones": zones,
            "counters": visible_counters(game.model, st, seat), "to_act": match.to_act(),
            "options": match.action_labels(seat)}


def view_json(match, seat: int) -> str:
    """`json.dumps(view(match, seat), sort_keys=True, separators=(",", ":"))`, written again only where
    the state changed since the seat's last call: the zones whose cards, or whose cards' sides or who
    knows them, changed, the counters if they changed, the view's own values if they changed."""
    return _view_json(match, seat, _look(match.game, match.layout), match._seen[seat])


def _view_json(match, seat: int, look: _Look, cache: Seen) -> str:
    """`view_json`. What the seat's last call wrote is kept (`Seen.view`, a tuple shared with the copies made
    since, never changed in place): the zones' cards and their JSON, the cards' sides and who knew them, each
    card as the seat sees it in a zone shown as it lies (`shown`), the table and the counters' JSON, the view's
    own values and the pieces written around them."""
    st = match.st
    kept = cache.view
    zones, face, known = st.zones, st.face, st.known
    if kept is None or kept[0] is not look:
        bit, face_json, back_json = 1 << seat, look.face, look.back
        shown = [face_json[c] if face[c] or known[c] & bit else back_json[c] for c in range(len(face))]
        cards, parts, table, counters, head = [None] * len(zones), [""] * len(zones), None, "", None
        pieces: tuple[str, ...] = ()
        dirty: Any = range(len(zones))
        old_face, old_known, written = face[:], known[:], ""
    else:
        _, cards, parts, old_face, old_known, table, counters, written, head, pieces, shown = kept
        dirty = list(compress(range(len(zones)), map(ne, zones, cards)))  # the zones whose cards changed
        if known != old_known or face != old_face:  # and the zones of the cards turned or known since
            # (a zone shows the seat a card by its side and the seat's bit of who knows it: the cards whose
            # knowledge changed, few, are looked at for the seat's bit one by one; found by `is not`, which
            # never misses a change and finds none where the values are the same small ints, as they are
            # up to 8 seats)
            bit = 1 << seat
            turned = {c for c in compress(range(len(known)), map(is_not, known, old_known))
                      if (known[c] ^ old_known[c]) & bit} if known != old_known else set()
            if face != old_face:
                turned.update(compress(range(len(face)), map(is_not, face, old_face)))
            if turned:  # (each turned card as the seat now sees it: its face if face up or known to the seat)
                shown, face_json, back_json = shown[:], look.face, look.back
                for c in turned:
                    shown[c] = face_json[c] if face[c] or known[c] & bit else back_json[c]
                dirty = sorted(set(map(st.zone_of.__getitem__, turned)).union(dirty))
    if dirty:
        cards, parts = cards[:], parts[:]  # (`parts`: each zone's key and JSON, in the order of the keys)
        written = _zones_written(look, st, seat, shown, dirty, cards, parts)
        face, known = face[:], known[:]
    else:
        face, known = old_face, old_known
    if table is None or table[0] != st.gc or table[1] != st.pc:
        table = (st.gc[:], list(map(list, st.pc)))
        counters = _counters(look, match.game, st.n, seat, st.gc, st.pc)
    now_values = (st.active, st.deal, st.first, st.out, st.round, st.turn)
    if now_values != head:  # the view's own values, written around the counters, options, seats to act and zones
        head = now_values
        pieces = look.heads.get((seat, now_values)) or _pieces(look, seat, now_values)
    cache.view = (look, cards, parts, face, known, table, counters, written, head, pieces, shown)
    options = _options_json(match, seat, look, shown)
    to_act = repr(match.to_act()).replace(" ", "")  # (seats to act, ints: their list in JSON, in two calls)
    return f"{pieces[0]}{counters}{pieces[1]}[{options}]{pieces[2]}{to_act}{pieces[3]}{{{written}}}}}"


def _zones_written(look: _Look, st: State, seat: int, shown: list[str], dirty: Any, cards: list, parts: list) -> str:
    """The view's zones in JSON (without the braces), the `dirty` ones written again into `parts` (each zone's key
    and JSON, in the order of the keys), their cards kept in `cards`."""
    zones, known = st.zones, st.known
    keyed_at, opened, card_json, hands = look.keyed_at, look.opened[seat], shown.__getitem__, look.hands[seat]
    for zi in dirty:
        now = cards[zi] = zones[zi][:]
        start = opened[zi]  # (the zone's key and "[" where the seat sees it card by card as it lies)
        if start:  # (`_zone_json`'s first case, the most common, written here: each card as the seat sees it)
            parts[keyed_at[zi]] = start + ",".join(map(card_json, now)) + "]"
        elif hands[zi] and not any(map(and_, map(known.__getitem__, now), repeat(1 << seat))):
            parts[keyed_at[zi]] = hands[zi] + look.hand(now)  # type: ignore[misc]  # (another's hand, none known)
        else:
            parts[keyed_at[zi]] = look.key[zi] + _zone_json(look, st, zi, seat)
    return ",".join(parts)


def _options_json(match, seat: int, look: _Look, shown: list[str]) -> str:
    """The seat's options as `match.action_labels(seat)` names them, in JSON (without the brackets). A card the seat
    sees where it lies is named by its face: where every option is a card lying in a zone the seat sees card by card
    (its own, or the table's; `_OPEN`) and shown to it by its face (`shown`, the view's cards as the seat sees them
    now), the labels are those faces, each already in JSON; options that are not cards are written once per layout
    by their kind and values. Anything else (a card named by its place, `none`) is the match's labels."""
    ask = match._ask_of(seat)
    if ask is None:
        return ""
    values, kind = ask[1], ask[2]
    if kind == K_CARD:
        if values and min(values) >= 0 and all(map(look.open_seen[seat].__getitem__,
                                                   map(match.st.zone_of.__getitem__, values))):
            labels = ",".join(map(shown.__getitem__, values))
            if "{" not in labels:  # (each a face: a back in JSON is an object; a face with a brace is looked at below)
                return labels
            if labels == ",".join(map(look.face.__getitem__, values)):
                return labels
        return ",".join(map(_STR, match.action_labels(seat)))
    written = _values_json(look, match.layout, kind, values)
    return written if written is not None else ",".join(map(_STR, match.action_labels(seat)))  # (an option with no key)


def _pieces(look: _Look, seat: int, values: tuple) -> tuple[str, ...]:
    """The view's own values (`view_json`'s `now_values`) written around the counters, options, seats to act
    and zones (kept per layout)."""
    active, deal, first, out, rnd, turn = values
    if len(look.heads) >= KEPT_AT_MOST:
        look.heads.clear()
    gone = _ints([p for p in range(look.n) if out >> p & 1])
    pieces = look.heads[seat, values] = (
        f'{{"active":{_int(active)},"counters":', f',"deal":{_int(deal)},"first":{_int(first)},"options":',
        f',"out":{gone},"round":{_int(rnd)},"seat":{_int(seat)},"to_act":', f',"turn":{_int(turn)},"zones":')
    return pieces


def _zone_json(look: _Look, st: State, zi: int, seat: int) -> str:
    """`zone_view` in JSON (the cards as `shown_cards` shows them), with no call per card, for a zone the seat
    does not see card by card as it lies (`view_json` writes those, `_OPEN`, itself)."""
    cards, known, bit, face, back = st.zones[zi], st.known, 1 << seat, look.face, look.back
    mode = look.modes[seat][zi]
    knows = list(map(and_, map(known.__getitem__, cards), repeat(bit)))  # (per card: the seat knows its face)
    if mode == _HAND:  # another player's hand: the faces the seat knows, then the backs, sorted
        if not any(knows) and look.hand is not None:  # (none: every back alike, or backs ranked)
            return look.hand(cards)
        if any(knows):  # (faces in order of their ids, copies alike)
            items = list(map(look.face_named.__getitem__, sorted(map(look.face_rank.__getitem__,
                                                                     compress(cards, knows)))))
            hidden = list(compress(cards, map(not_, knows)))
        else:
            items, hidden = [], cards
        if look.one_back is not None:  # every card's back alike (most games): only how many
            items += [look.one_back] * len(hidden)
        elif look.back_rank is not None:  # (backs in order of their values, one JSON each)
            items += map(look.back_named.__getitem__, sorted(map(look.back_rank.__getitem__, hidden)))
        elif look.by_back is not None:
            items += map(back.__getitem__, sorted(hidden, key=look.by_back.__getitem__))
        else:
            t = st.layout
            items += [back[c] for _, c in sorted([(back_key(t, c), c) for c in hidden])]
        return "[" + ",".join(items) + "]"
    if mode == _BLIND and not any(knows):  # (it sees only the cards it knows)
        return f'{{"count":{len(cards)}}}'
    return "[" + ",".join([face[c] if knows[i] else back[c] for i, c in enumerate(cards)]) + "]"
