"""A failed match of `meeple check` told step by step (`story`): who chose what, the game's sentences, chance and
where cards went, the failure last; and its chance outcomes in a line (`chance_line`). Each event is told in the
words of its kind in the catalogue (run/events.py), the story's own frame in the command line's (i18n.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .i18n import Words, counted
from .run import events

Names = Callable[[int], str]


class _Teller:
    """The omniscient teller of a match log (events.Teller): players by the game's names, cards by their ids."""

    def __init__(self, names: Names, lang: str) -> None:
        self.seat: int | None = None
        self.words = events.words_in(lang)
        self.names = names

    def who(self, p: int) -> str:
        return self.names(p)

    def card(self, c: Any) -> str:
        return str(c)


class _Grouped:
    """Consecutive log events of one kind that read as one line (a deal of several cards), written into
    `lines` once another kind of line comes."""

    def __init__(self, lines: list[str], width: int, t: _Teller, w: Words) -> None:
        self.lines, self.width, self.t, self.w = lines, width, t, w
        self.key: tuple = ()
        self.cards: list[str] = []

    def add(self, key: tuple, card: str) -> None:
        if key != self.key:
            self.flush()
            self.key = key
        self.cards.append(card)

    def flush(self) -> None:
        if self.cards:
            width, cards = self.width, self.cards
            shown = ", ".join(cards[:width]) + (", …" if len(cards) > width else "")
            if len(cards) > width:
                shown += " " + self.w("story.cards", count=self.w.n(len(cards), "card"))
            kind, *rest = self.key
            if kind is events.Moved:
                source, target, face = rest
                line = {"from": source, "to": target, "face": face, "cards": shown}
            else:
                line = {"face": rest[0], "cards": shown}
            self.lines.append("  " + kind.told(line, self.t, "many"))
        self.key, self.cards = (), []


_CHANCE = (events.Shuffled, events.Rolled)
"""The kinds told as chance in the story."""


def _in_words(line: dict[str, Any], t: _Teller, w: Words) -> str | None:
    """One log line (not a move or a flip) in words; None for a line the story leaves out."""
    kind, event = line.get("type"), line.get("event")
    if kind == "decision":
        return events.Decided.told(line, t, "option")
    if kind == "event":
        record = events.BY_NAME.get(str(event))
        if record is events.Said:
            return record.told(line, t)
        if record in _CHANCE:
            return "  " + w("story.chance", what=record.told(line, t))
        if record is events.Shown:
            return "  " + record.told(line, t, "to")
        if record is not None:
            return "  " + record.told(line, t)
        rest = ", ".join(f"{k} {v}" for k, v in line.items() if k not in ("type", "event"))
        return f"  {event}: {rest}"
    if kind == "result":
        winners = ", ".join(t.who(p) for p in line["winners"]) or w("story.nobody")
        return w("story.ends", scores=line["scores"], winners=winners)
    if kind == "error":
        return w("story.fails", message=line["message"])
    return None


def story(game: Any, log: list[dict[str, Any]], width: int = 8, lang: str = "en") -> list[str]:
    """A failed match step by step, in words (`lang`): who chose what (by the option labels of the log), the
    game's `say` sentences, chance (shuffles, rolls) and where cards went; the failure last."""
    names = game.model.setup(log[0]["players"]).player_name if log else str
    t, w = _Teller(names, lang), Words(lang)
    lines: list[str] = []
    group = _Grouped(lines, width, t, w)
    for line in log[1:]:
        kind, event = line.get("type"), line.get("event")
        record = events.BY_NAME.get(str(event)) if kind == "event" else None
        if record is events.Moved:
            group.add((record, line.get("from"), line.get("to"), line.get("face")), str(line.get("card")))
        elif record is events.Flipped:
            group.add((record, line.get("face")), str(line.get("card")))
        else:
            group.flush()
            words = _in_words(line, t, w)
            if words is not None:
                lines.append(words)
    group.flush()
    return lines


def chance_line(outcomes: Sequence[int], width: int = 40, lang: str = "en") -> str:
    """The chance outcomes of a match, briefly: `3 chance outcomes: 0 2 0`."""
    w = Words(lang)
    shown = " ".join(str(k) for k in outcomes[:width]) + (" …" if len(outcomes) > width else "")
    if not outcomes:
        return w("check.no_chance")
    return f"{counted(len(outcomes), w('check.chance_count'))}: {shown}"
