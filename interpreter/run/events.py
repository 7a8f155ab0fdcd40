"""Stage 7, what happens in a match, as events: one catalogue of every kind a watched match records.

Each kind is a typed record (a `NamedTuple`: its fields in the order the watcher keeps them) registered
under the tag that starts its raw tuple and the name its lines carry, with, in one place:
- `seen(e, r)`: its line in a seat's observations, canonical JSON (what that seat may see of it: a card
  it cannot see by its back, a place only where it sees the zone's order); `r` is the `Reader` of one
  seat's rendering (`information.render`), which knows the layout's pieces and keeps what a line needs of
  the lines before it (moves, by far the most frequent, also have `seen_all`: the lines of a run of them
  at once, as a decision that passes hands moves dozens of cards);
- its words, in every language (`WORDS`: a template per form, `{...}` filled from the line), and
  `told(line, t, form)`, which puts a line in them for a `Teller` (who is named how, which card reads how:
  the terminal table tells a match through it with the game's names, card names and its `--lang`);
  `words(line, seat, lang)` is a line of a seat's observations told plainly (`replay --as`, a seat log
  shown by `replay`), every kind the same way;
- its line in the match log, where it has one (the omniscient record, card ids by copy), as the runtime's
  verbs write it: `log(...)` (moves, flips, shuffles, glimpses, rolls, sayings, knock-outs). Questions,
  answers and the table have none: the match writes its decision and state lines itself.

The watcher (`information.Watcher`) keeps each event as a plain tuple, first item the kind's tag, then the
record's fields in order (a tuple is what a watched match can afford per card moved; `Moved(*raw)` reads one
by name). A statement that changes a match does it through the runtime's verbs (`move`, `shuffle`, `flip`,
`show`, `roll`, `say`, `knock_out`): each verb tells the watcher through its typed hook (`Watcher.moved`,
`flipped`, `rolled`, `seats_changed`, …), which records one of these kinds, so a new
statement built on them is tracked, rendered per seat and logged without touching this module. A new kind
of change (one no verb makes) is a new record here, its hook on the watcher and its verb.
"""

from __future__ import annotations

import json
from itertools import compress, repeat
from operator import add, is_, itemgetter
from typing import Any, NamedTuple

from ..load.model import HIDDEN
from .kinds import (
    _DUMP,
    _STR,
    ASK,
    BY_NAME,
    BY_TAG,
    DECIDE,
    FLIP,
    LANGS,
    MOVE,
    ROLL,
    SAY,
    SEATS,
    SHOW,
    SHUFFLE,
    TABLE,
    YOU,
    Kind,
    Plain,
    Reader,
    Teller,
    card_words,
    counter_words,
    kind,
    number,
    place_words,
    said,
    text,
    words_in,
)

# the catalogue, with the kinds' tags and what they share (run/kinds.py), read with it
__all__ = [
    "ASK",
    "BY_NAME",
    "BY_TAG",
    "DECIDE",
    "FLIP",
    "KEPT_AT_MOST",
    "LANGS",
    "MOVE",
    "ROLL",
    "SAY",
    "SEATS",
    "SHOW",
    "SHUFFLE",
    "TABLE",
    "YOU",
    "Asked",
    "Decided",
    "Flipped",
    "Kind",
    "Moved",
    "Plain",
    "Reader",
    "Rolled",
    "Said",
    "SeatsChanged",
    "Shown",
    "Shuffled",
    "TableChanged",
    "Teller",
    "card_words",
    "counter_words",
    "describe",
    "kind",
    "number",
    "place_words",
    "said",
    "text",
    "words_in",
]


# ---- the catalogue ----------------------------------------------------------------------------------


@kind(MOVE, "move", words={
    "en": {"": "{card} moves from {src} to {dst}, face {face}", "up": "up", "down": "down",
           "hidden": "a hidden card",
           "got": "you get {cards} (from {who})", "given": "{who} gets {cards} from you",
           "from_zone": "you get {cards} (from the {zone})",
           "for_you": "your {card} goes to the {zone} (no choice)",
           "many": "{src} → {dst} ({face}): {cards}"},
    "ru": {"": "{card}: из {src} в {dst}, {face}", "up": "лицом вверх", "down": "рубашкой вверх",
           "hidden": "скрытая карта",
           "got": "вы получаете: {cards} (от {who})", "given": "{who} получает от вас: {cards}",
           "from_zone": "вы получаете: {cards} (из: {zone})",
           "for_you": "ваша карта {card} уходит: {zone} (без выбора)",
           "many": "{src} → {dst} ({face}): {cards}"},
})
class Moved(NamedTuple):
    """A card taken from one place to another: from zone `src`, where it lay at `at`, to zone `dst` at `to`
    (`~to`: a place drawn by chance, shown only to the seats that see the card where it went), lying face
    `up` or down; `before`, `after`: who could see the card before and after (bit masks)."""

    tag: str
    card: int
    src: int
    at: int
    dst: int
    to: int
    up: bool
    before: int
    after: int

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        """A move's line: its card as the seat sees it and the rest of its line, kept by its places, side and who saw
        it (`Reader.tails`, as a run of moves keeps it: most moves go between places that moves went between)."""
        tail = r.tails.get(_TAIL_KEY(e))
        if tail is None:
            tail = _kept_tail(r, e)
        return (r.face_open[e[1]] if (e[7] | e[8]) & r.bit else r.back_open[e[1]]) + tail

    @staticmethod
    def seen_all(events: list[tuple], r: Reader) -> list[str]:
        """The lines of many moves at once (a decision that passes hands moves dozens of cards): each is its card
        as the seat sees it, kept by the card and who saw it (`Reader.cards`), and the rest of its line, kept by
        its places, side and who saw it before and after (`Reader.tails`: a pass moves cards between the same
        places again and again); both looked up with no step per move in Python."""
        cards = list(map(r.cards.get, map(_CARD_KEY, events)))
        tails = list(map(r.tails.get, map(_TAIL_KEY, events)))
        try:  # (a piece not kept is None, which fails the sum: no pass over the pieces only to look for it)
            return list(map(add, cards, tails))
        except TypeError:
            _missing(r, events, cards, tails)
            return list(map(add, cards, tails))

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        """A card moved; `got`/`given`: cards handed to or by the teller's seat (`cards`: them in words,
        `who`: the other player); `from_zone`: cards the seat got from a zone no player owns (`zone`); `for_you`: a
        card of the seat's played with no question (`zone`); `many`: cards that went one way together (`cards`)."""
        if form in ("got", "given"):
            return said(t, "move", form, cards=line["cards"], who=t.who(line["who"]))
        if form == "from_zone":
            return said(t, "move", form, cards=line["cards"], zone=line["zone"])
        if form == "for_you":
            return said(t, "move", form, card=t.card(line["card"]), zone=line["zone"])
        if form == "many":
            return said(t, "move", form, cards=line["cards"], src=line["from"], dst=line["to"],
                        face=said(t, "move", line["face"]))
        return said(t, "move", "", card=t.card(line["card"]), src=place_words(line["from"], line.get("from_at")),
                    dst=place_words(line["to"], line.get("to_at")), face=said(t, "move", line["face"]))

    @staticmethod
    def log(t: Any, c: int, src: int, dst: int, up: bool) -> dict[str, Any]:
        """The match log's line of a card moved."""
        return {"type": "event", "event": "move", "card": t.card_ids[c], "from": t.zone_names[src],
                "to": t.zone_names[dst], "face": "up" if up else "down"}

    @staticmethod
    def logs(t: Any, cards: list[int], srcs: list[int], dst: int, up: bool) -> list[dict[str, Any]]:
        """The match log's lines of cards moved one after another into one zone (`log`, card by card)."""
        ids, names = t.card_ids, t.zone_names
        side, to = "up" if up else "down", names[dst]
        return [{"type": "event", "event": "move", "card": ids[c], "from": names[src], "to": to, "face": side}
                for c, src in zip(cards, srcs, strict=True)]


KEPT_AT_MOST = 20_000
"""How many lines (or pieces of lines) a reader's or a layout's table keeps: a full table is emptied, then written
again as lines come."""


def _kept_tail(r: Reader, e: tuple) -> str:
    """A move's line after its card (`_tail`), written and kept (`Moved.seen`)."""
    tails = r.tails
    if len(tails) >= KEPT_AT_MOST:
        tails.clear()
    tail = tails[_TAIL_KEY(e)] = _tail(r, e[2], e[3], e[4], e[5], e[6], e[8])
    return tail


def _tail(r: Reader, src: int, at: int, dst: int, to: int, up: bool, after: int) -> str:
    """A move's line after its card: its side, its places (where the seat sees them) and its kind."""
    side = '"up"' if up else '"down"'
    from_at = f',"from_at":{at + 1}' if r.known[src] else ""
    to_at = f',"to_at":{(to if to >= 0 else ~to) + 1}' if r.ordered[dst] and (to >= 0 or after & r.bit) else ""
    return f',"event":"move","face":{side},"from":{r.zone[src]}{from_at},"to":{r.zone[dst]}{to_at},"type":"event"}}'


def _missing(r: Reader, events: list[tuple], cards: list[str | None], tails: list[str | None]) -> None:
    """The cards and the rests of lines of moves not kept yet (`Moved.seen_all`), written and kept."""
    kept_cards = r.cards
    if len(kept_cards) >= KEPT_AT_MOST:
        kept_cards.clear()
    for i in compress(range(len(cards)), map(is_, cards, repeat(None))):
        e = events[i]
        cards[i] = kept_cards[_CARD_KEY(e)] = r.face_open[e[1]] if (e[7] | e[8]) & r.bit else r.back_open[e[1]]
    for i in compress(range(len(tails)), map(is_, tails, repeat(None))):
        tails[i] = _kept_tail(r, events[i])


_CARD_KEY = itemgetter(1, 7, 8)  # a move's card and who saw it before and after (`Reader.cards`)
# a move's places, side and who saw it before and after (`Reader.tails`, `_kept_tail`): one slice of the event, which
# costs less than picking the six fields the rest of the line is made of, and shares nearly as much (the cards moved
# between the same places were, most of them, seen by the same seats before)
_TAIL_KEY = itemgetter(slice(2, 9))


@kind(FLIP, "flip", words={
    "en": {"": "{card} in {place} turns face {face}", "many": "turned face {face}: {cards}"},
    "ru": {"": "{card} ({place}) переворачивается: {face}", "many": "переворачиваются {face}: {cards}"},
})
class Flipped(NamedTuple):
    """A card turned face `up` or down where it lies (zone `zone`, place `at`); who saw it before and after."""

    tag: str
    card: int
    zone: int
    at: int
    up: bool
    before: int
    after: int

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        _, c, zi, at, up, before, after = e
        card = r.face[c] if (before | after) & r.bit else r.back[c]
        side = '"up"' if up else '"down"'
        if r.known[zi]:  # (each line written in one step: no string made for its parts joined two by two)
            return f'{{"at":{at + 1},"card":{card},"event":"flip","face":{side},"type":"event","zone":{r.zone[zi]}}}'
        return f'{{"card":{card},"event":"flip","face":{side},"type":"event","zone":{r.zone[zi]}}}'

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        """A card turned; `many`: cards turned together (`cards`)."""
        if form == "many":
            return said(t, "flip", form, cards=line["cards"], face=said(t, "move", line["face"]))
        return said(t, "flip", "", card=t.card(line["card"]), place=place_words(line["zone"], line.get("at")),
                    face=said(t, "move", line["face"]))

    @staticmethod
    def log(t: Any, c: int, up: bool) -> dict[str, Any]:
        """The match log's line of card `c` turned face `up` or down."""
        return {"type": "event", "event": "flip", "card": t.card_ids[c], "face": "up" if up else "down"}


@kind(SHUFFLE, "shuffle", words={"en": {"": "{zone} is shuffled"}, "ru": {"": "{zone}: перемешано"}})
class Shuffled(NamedTuple):
    """A zone shuffled; `order`: the order drawn (a determinization draws it anew), seen by nobody."""

    tag: str
    zone: int
    order: tuple

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        return '{"event":"shuffle","type":"event","zone":' + r.zone[e[1]] + '}'

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        return said(t, "shuffle", "", zone=line["zone"])

    @staticmethod
    def log(t: Any, zi: int) -> dict[str, Any]:
        return {"type": "event", "event": "shuffle", "zone": t.zone_names[zi]}


@kind(SHOW, "show", words={
    "en": {"": "{who} sees {card}{where}", "you": "you see {card}{where}", "in": " in {place}",
           "to": "{card} is shown to {who}"},
    "ru": {"": "{who} видит: {card}{where}", "you": "вы видите: {card}{where}", "in": " ({place})",
           "to": "{card} показана: {who}"},
})
class Shown(NamedTuple):
    """A card shown to player `to` where it lies (zone `zone`, place `at`); `before`: who saw it already.
    The others see a look through a pile or a hand, not which cards or how many: the cards of one look come
    in a canonical order (faces by id, then backs), the seat only watching seeing each different card once."""

    tag: str
    card: int
    to: int
    zone: int
    at: int
    before: int

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        c, p, zi, at, before = e[1:6]
        seen = (before | 1 << p) & r.bit
        line = '"card":' + (r.face[c] if seen else r.back[c]) + ',"event":"show","to":' + number(p) + \
            ',"type":"event","zone":' + r.zone[zi] + '}'
        if r.ordered[zi] and (p == r.seat or r.layout.zone_vis[zi] != HIDDEN):
            return '{"at":' + str(at + 1) + ',' + line
        r.glimpse(r.face[c] if seen else r.back_sort[c], '{' + line, r.zone[zi], p)
        return None

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        """A card shown; where it lies, if the line says (a seat's observation does, the log's line not); `to`:
        told as shown to its player (the log's line, in check's story)."""
        if form == "to":
            return said(t, "show", form, card=t.card(line["card"]), who=t.who(line["to"]))
        where = said(t, "show", "in", place=place_words(line["zone"], line.get("at"))) if "zone" in line else ""
        to = line["to"]
        return said(t, "show", "you" if to == t.seat else "", who=t.who(to), card=t.card(line["card"]), where=where)

    @staticmethod
    def log(t: Any, c: int, p: int) -> dict[str, Any]:
        return {"type": "event", "event": "show", "card": t.card_ids[c], "to": p}


@kind(ROLL, "roll", words={
    "en": {"": "a d{sides} rolls {result}", "mark": "[d{sides} = {result}]",
           "alone": "[d{sides} = {result}] (the game says nothing about this roll)"},
    "ru": {"": "бросок к{sides}: {result}", "mark": "[к{sides} = {result}]",
           "alone": "[к{sides} = {result}] (игра ничего не говорит об этом броске)"},
})
class Rolled(NamedTuple):
    """A die of `sides` sides rolled: `result`."""

    tag: str
    sides: int
    result: int

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        return _DUMP({"event": "roll", "sides": e[1], "result": e[2], "type": "event"})

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        """A roll; `mark`: as it is put before the sentence that says it; `alone`: with none to say it."""
        return said(t, "roll", form, sides=line["sides"], result=line["result"])

    @staticmethod
    def log(sides: int, result: int) -> dict[str, Any]:
        return {"type": "event", "event": "roll", "sides": sides, "result": result}


@kind(SAY, "say", words={"en": {"": "{text}"}, "ru": {"": "{text}"}})  # the game's own sentence, as written
class Said(NamedTuple):
    """A sentence the game writes (`say`): everyone reads it."""

    tag: str
    text: str

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        said = e[1]  # (a sentence is a string: written here with no call to `text`)
        return '{"event":"say","text":' + (_STR(said) if said.__class__ is str else _DUMP(said)) + ',"type":"event"}'

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        return said(t, "say", "", text=line["text"])

    @staticmethod
    def log(sentence: str) -> dict[str, Any]:
        return {"type": "event", "event": "say", "text": sentence}


@kind(SEATS, "knock_out", "back_in", words={
    "en": {"out": "{who} is knocked out of the {until}", "out_you": "you are knocked out of the {until}",
           "deal": "deal", "match": "match", "back": "{who} back in for the new deal"},
    "ru": {"out": "{who} выбывает до конца {until}", "out_you": "вы выбываете до конца {until}",
           "deal": "раздачи", "match": "партии", "back": "{who} снова в игре в новой раздаче"},
})
class SeatsChanged(NamedTuple):
    """Who is in changed (public): `what` is `knock_out` (fields: player, until) or `back_in` (players); the
    fields as (name, value) pairs, sorted by name."""

    tag: str
    what: str
    fields: tuple

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        return _DUMP({"type": "event", "event": e[1], **dict(e[2])})

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        if line["event"] == "knock_out":
            p = line["player"]
            return said(t, "knock_out", "out_you" if p == t.seat else "out", who=t.who(p),
                        until=said(t, "knock_out", line["until"]))
        return said(t, "knock_out", "back", who=", ".join(t.who(p) for p in line["players"]))

    @staticmethod
    def log(what: str, fields: tuple) -> dict[str, Any]:
        return {"type": "event", "event": what, **dict(fields)}


@kind(TABLE, "table", words={
    "en": {"": "round {round}, turn {turn}, first P{first}{values}"},
    "ru": {"": "раунд {round}, ход {turn}, первый P{first}{values}"},
})
class TableChanged(NamedTuple):
    """The counters or the turn changed since the last look (looked at before every question, answer,
    saying, roll, shuffle and glimpse): `now` is (round, turn, first, active, game counters, player
    counters). A seat sees the counters it may see; a change it cannot see is no line for it."""

    tag: str
    now: tuple

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        now = e[1]
        around = r.tables.get(now[:4])  # (the line but its counters, the same at every table line of a turn)
        if around is None:
            around = _table_around(r, now[:4])
        line = around[0] + r.counters(now[4], now[5]) + around[1]
        if line == r.last:
            return None
        r.last = line
        return line

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        values = ", ".join(f"{k} {counter_words(v)}" for k, v in line["counters"].items())
        return said(t, "table", "", round=line["round"], turn=line["turn"], first=line["first"],
                    values=f"; {values}" if values else "")


def _table_around(r: Reader, turn: tuple) -> tuple[str, str]:
    """A table line before and after its counters (`TableChanged.seen`), written and kept by its round, turn, first
    player and active player."""
    rnd, at, first, active = turn
    if len(r.tables) >= KEPT_AT_MOST:
        r.tables.clear()
    around = r.tables[turn] = (f'{{"active":{number(active)},"counters":',
                               f',"event":"table","first":{number(first)},"round":{number(rnd)},'
                               f'"turn":{number(at)},"type":"event"}}')
    return around


@kind(ASK, "ask", words={
    "en": {"": "{who} is asked: {prompt}", "you": "you are asked: {prompt} [{options}]"},
    "ru": {"": "вопрос для {who}: {prompt}", "you": "ваш вопрос: {prompt} [{options}]"},
})
class Asked(NamedTuple):
    """A question put to `seat`: its prompt (as `information.prompt_text` reads it to each seat) and its
    options as the asked seat sees them; the others see who is asked and the question as written."""

    tag: str
    seat: int
    question: Any
    kind: int
    options: tuple

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        asked, question, kind, options = e[1:5]  # (a seat is an int: written as `number` would, with no call)
        if asked == r.seat:
            return f'{{"options":[{r.options(kind, options)}],"prompt":{text(r.prompt(question, kind, False))},' \
                f'"type":"ask","who":{asked}}}'
        line = r.asks.get(e[1:4])  # (another seat's question: the same whatever its options)
        if line is None:
            if len(r.asks) >= KEPT_AT_MOST:
                r.asks.clear()
            line = r.asks[e[1:4]] = f'{{"prompt":{text(r.prompt(question, kind, True))},"type":"ask","who":{asked}}}'
        return line

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        if "options" in line:
            return said(t, "ask", "you", prompt=line["prompt"], options=", ".join(line["options"]))
        return said(t, "ask", "", who=t.who(line["who"]), prompt=line["prompt"])


@kind(DECIDE, "decision", words={
    "en": {"": "{who}: {label}", "secret": "{who} answers in secret",
           "hidden": "{who} chose (hidden)", "open": "{who} chose {label}",
           "option": "{who} chooses {label}  (option {number} of {options})"},
    "ru": {"": "{who}: {label}", "secret": "{who} отвечает тайно",
           "hidden": "{who} делает выбор (скрыто)", "open": "{who} выбирает: {label}",
           "option": "{who} выбирает: {label}  (вариант {number} из {options})"},
})
class Decided(NamedTuple):
    """An answer of `seat` (`secret`: a simultaneous choice, which the others do not see): a label, or (zone
    `zone` >= 0) a card with who sees it and where it lies."""

    tag: str
    seat: int
    secret: bool
    answer: Any
    seen_by: int
    zone: int
    at: int

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None:
        _, asked, secret, answer, seen, zi, at = e  # (a seat is an int: written as `number` would, with no call)
        if secret and asked != r.seat:
            return f'{{"type":"decision","who":{asked}}}'
        if zi < 0:
            label = answer
        elif seen & r.bit and (asked == r.seat or r.ordered[zi]):  # which card of a hand: unseen
            label = r.layout.face_ids[answer]
        else:
            label = r.place(answer, zi, at)
        return f'{{"label":{_STR(label) if label.__class__ is str else _DUMP(label)},"type":"decision","who":{asked}}}'

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str:
        """An answer: by its label, or in secret; at the table, `open` (chosen, named) or `hidden`; `option`: the
        log's line, with which of how many options (check's story)."""
        if form == "option":
            return said(t, "decision", form, who=t.who(line["who"]), label=line["label"],
                        number=line["choice"] + 1, options=line["options"])
        if not form and "label" not in line:
            form = "secret"
        return said(t, "decision", form, who=t.who(line["who"]), label=line.get("label", ""))


def describe(line: dict[str, Any], seat: int, lang: str = "en") -> str:
    """One observation of `seat` (a line of its information state's `observed`) in words, in `lang`."""
    record = BY_NAME.get(line.get("event") or line["type"])
    return json.dumps(line, sort_keys=True) if record is None else record.words(line, seat, lang)
