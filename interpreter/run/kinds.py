"""Stage 7, what every kind of event of the catalogue (run/events.py) shares: the tag that starts each kind's raw
tuple, the registry of kinds (`kind`, `BY_TAG`, `BY_NAME`), what a kind's `seen` reads of one seat's rendering
(`Reader`) and whom its `told` tells (`Teller`, `Plain`), the languages of their words, and the helpers of JSON and
words every kind's lines use."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

MOVE, FLIP, SHUFFLE, SHOW, ROLL, SAY, TABLE, ASK, DECIDE, SEATS = "mfswrtcadk"

_DUMP = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
_STR = json.encoder.encode_basestring_ascii  # a string as json.dumps writes it


def text(value: Any) -> str:
    """A string in canonical JSON (anything else in JSON too)."""
    return _STR(value) if value.__class__ is str else _DUMP(value)


def number(value: Any) -> str:
    """A number in canonical JSON (anything else in JSON too)."""
    return str(value) if value.__class__ is int else _DUMP(value)


class Reader(Protocol):
    """What a kind's `seen` reads of one seat's rendering (`information.render` makes it)."""

    seat: int
    bit: int  # 1 << seat
    layout: Any
    face: list[str]  # each card's face in JSON
    back: list[str]  # each card's back in JSON
    back_sort: list[str]  # each card's back as the key that sorts it among cards shown together
    zone: list[str]  # each zone's name in JSON
    ordered: list[bool]  # per zone: the seat sees its order
    known: list[bool]  # per zone: the seat knows which card lies where
    out: list[str]  # the lines so far
    last: str | None  # the last table line the seat saw
    asks: dict[tuple, str]  # the line of a question put to another seat, by (seat, question, kind) (`Asked`)
    tables: dict[tuple, tuple[str, str]]  # a table line before and after its counters, by (round, turn, first, active)
    face_open: list[str]  # each card's line of a move begun, by its face: `{"card":` and the face in JSON
    back_open: list[str]  # the same by its back
    cards: dict[tuple, str]  # a move's line begun, by its card and who saw it before and after (`Moved`)
    tails: dict[tuple, str]  # the rest of a move's line after its card, by its places, side and who saw it (`Moved`)

    def place(self, c: int, zi: int, at: int) -> str: ...

    def option(self, kind: int, option: Any) -> str: ...

    def options(self, kind: int, options: tuple) -> str: ...

    def prompt(self, question: Any, kind: int, written: bool) -> str: ...

    def counters(self, gc: list, pc: list) -> str: ...

    def glimpse(self, key: str, line: str, zone: str, to: int) -> None: ...


class Teller(Protocol):
    """Who a kind's `told` puts a line in words for: the seat whose story it is (None: every seat's), the
    words of its language (`words_in`), how it names a player and a card."""

    seat: int | None
    words: dict[str, str]

    def who(self, p: int) -> str: ...

    def card(self, c: Any) -> str: ...


class Kind(Protocol):
    """A kind of event of the catalogue, as its registered record class is."""

    tag: str
    name: str
    WORDS: dict[str, dict[str, str]]

    @staticmethod
    def seen(e: tuple, r: Reader) -> str | None: ...

    @staticmethod
    def told(line: dict[str, Any], t: Teller, form: str = "") -> str: ...

    @staticmethod
    def words(line: dict[str, Any], seat: int, lang: str = "en") -> str: ...


LANGS = ("en", "ru")
"""The languages every kind's words are written in."""

YOU = {"en": "you", "ru": "вы"}


BY_TAG: dict[str, Any] = {}
"""Each kind's record class by the tag that starts its raw tuple."""
BY_NAME: dict[str, Any] = {}
"""Each kind's record class by the name of its lines (a log event's `event`, else its `type`)."""


def kind(tag: str, *names: str, words: dict[str, dict[str, str]]) -> Callable[[type], type]:
    """Register a record class as the kind of event tagged `tag`, whose lines are named `names` and told in
    `words` (per language, a template per form of its `told`)."""

    def register(cls: type) -> type:
        cls.tag, cls.name, cls.WORDS = tag, names[0], words  # type: ignore[attr-defined]

        def plainly(line: dict[str, Any], seat: int, lang: str = "en") -> str:
            return cls.told(line, Plain(seat, lang))  # type: ignore[attr-defined]

        cls.words = staticmethod(plainly)  # type: ignore[attr-defined]
        BY_TAG[tag] = cls
        for name in names:
            BY_NAME[name] = cls
        return cls

    return register


def words_in(lang: str) -> dict[str, str]:
    """Every kind's words in `lang`, keyed `name.form` (`show.you`), and `you`."""
    kinds = dict.fromkeys(BY_TAG.values())
    return {"you": YOU[lang], **{f"{k.name}.{form}": text for k in kinds for form, text in k.WORDS[lang].items()}}


def said(t: Teller, name: str, form: str, **fields: Any) -> str:
    """The kind `name`'s words of `form` in the teller's language, filled with `fields`."""
    return t.words[f"{name}.{form}"].format(**fields)


class Plain:
    """The teller of a seat's observations: players as `you` and `P1`, cards by face or back."""

    def __init__(self, seat: int, lang: str = "en") -> None:
        self.seat: int | None = seat
        self.words = words_in(lang)

    def who(self, p: int) -> str:
        return self.words["you"] if p == self.seat else f"P{p}"

    def card(self, c: Any) -> str:
        return card_words(c, self.words["move.hidden"])


def card_words(c: Any, hidden: str = "a hidden card") -> str:
    """A card of an observed line in words: its face, or its back."""
    if isinstance(c, str):
        return c
    back = "/".join(str(v) for k, v in c.items() if k != "hidden")
    return f"{hidden} [{back}]" if back else hidden


def place_words(zone: str, at: int | None) -> str:
    return f"{zone} #{at}" if at is not None else zone


def counter_words(value: Any) -> str:
    """A counter as a seat sees it: `?` where it may not see the value."""
    if isinstance(value, list):
        return "[" + ", ".join(counter_words(v) for v in value) + "]"
    return "?" if value is None else str(value)
