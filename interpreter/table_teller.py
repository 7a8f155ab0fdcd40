"""What every part of the terminal table shares: the match, the reader's seat, the words, the players'
names and the cards, where the table prints and how wide and bold, and the small helpers that name a player
or wrap a line. It is the `Teller` the catalogue of event kinds (run/events.py) tells a match's lines through."""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import Any, TextIO

from .run.runtime import seen_by
from .table_cards import Cards

_CHANGE = re.compile(r" \((?:[+-]\d+|← [^)]*)\)")


def unmarked(block: list[str]) -> str:
    """A screen block without its change marks (`(+4)`): unchanged since the last screen if equal."""
    return _CHANGE.sub("", "\n".join(block))


def seat_of(zone: str) -> tuple[str, int | None]:
    """`hand@2` → (`hand`, 2); a shared zone → (its name, None)."""
    name, _, seat = zone.partition("@")
    return name, int(seat) if seat else None


_GLUE = "\u00a0"  # a space a line does not break at


def glued_whole(part: str, room: int) -> str:
    """A part of a line kept whole on one line (its spaces unbreakable) where it fits in `room`; a longer one (a
    pile of many cards) breaks between its items only, never inside a card's name that fits."""
    if len(part) <= room:
        return part.replace(" ", _GLUE)
    return ", ".join(item.replace(" ", _GLUE) if len(item) <= room else item for item in part.split(", "))


def wrapped(t: Teller, text: str, indent: str = "", hang: str = "    ", room: int | None = None) -> list[str]:
    """A text wrapped to the table's width (or `room`), each card (an item between commas) whole on its line
    where it fits."""
    fits = (room or t.width) - len(indent) - len(hang)
    glued = ", ".join(item if _GLUE in item else glued_whole(item, fits) for item in text.split(", "))
    return [line.replace(_GLUE, " ") for line in t.wrap(glued, indent, hang, room)]


class Style:
    """Bold headings on a terminal that wants them; plain text in a pipe (or with NO_COLOR set)."""

    def __init__(self, out: TextIO | None) -> None:
        tty = out is not None and hasattr(out, "isatty") and out.isatty()
        self.on = tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"

    def bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.on else text


class Teller:
    """One match told at the terminal to a reader: `human`, the seat a person plays (None: bots only, the
    story omniscient). Players by the game's names (`P0 (you)`), cards by their names."""

    def __init__(self, m: Any, out: TextIO | None, words: dict[str, str], human: int | None,
                 prompt_out: TextIO | None = None) -> None:
        self.m, self.out, self.words, self.human = m, out, words, human
        self.seat = human  # whose story (events.Teller)
        self.prompt_out = prompt_out or out or sys.stdout
        self.cards = Cards(m)
        self.style = Style(self.prompt_out)
        self.width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 120))
        self.names = [m.layout.player_name(p) for p in range(m.players)]
        self.whose = [words["yours"] if p == human else name for p, name in enumerate(self.names)]  # a card's owner

    def print(self, text: str = "", out: TextIO | None = None) -> None:
        out = out or self.out
        if out is not None:
            print(text, file=out)

    def wrap(self, text: str, indent: str = "", hang: str = "    ", room: int | None = None) -> list[str]:
        return textwrap.wrap(text, room or self.width, initial_indent=indent, subsequent_indent=indent + hang,
                             break_on_hyphens=False) or [indent]

    def who(self, p: int) -> str:
        if p < 0:
            return self.words["nobody"]
        return f"{self.names[p]} ({self.words['you']})" if p == self.human else self.names[p]

    def card(self, c: Any) -> str:
        """A card of the match log (by id) by its name."""
        return self.cards.name(c)

    def named(self, text: str, p: int) -> bool:
        """Does the sentence name player `p`?"""
        return re.search(rf"(?<![\w]){re.escape(self.names[p])}(?![\w])", text) is not None

    def sees(self, seat: int, cid: str) -> bool:
        """Does `seat` see the card the full log names `cid` (that copy, not another with its face)?"""
        return seen_by(self.m.st, self.cards.index[cid]) >> seat & 1 == 1

    def seen_by_all(self, cid: str) -> bool:
        return all(self.sees(p, cid) for p in range(self.m.players))
