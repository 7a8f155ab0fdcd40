"""A failed match of `meeple check` told step by step (`story`): who chose what, the game's sentences, chance and
where cards went, the failure last; and its chance outcomes in a line (`chance_line`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class _Grouped:
    """Consecutive log events of one kind that read as one line (a deal of several cards), written into
    `lines` once another kind of line comes."""

    def __init__(self, lines: list[str], width: int) -> None:
        self.lines, self.width = lines, width
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
            count = f" ({len(cards)} cards)" if len(cards) > width else ""
            kind, *rest = self.key
            if kind == "move":
                source, target, face = rest
                self.lines.append(f"  {source} → {target} ({face}): {shown}{count}")
            else:
                self.lines.append(f"  turned face {rest[0]}: {shown}{count}")
        self.key, self.cards = (), []


Names = Callable[[int], str]

_EVENT_WORDS: dict[str, Callable[[dict[str, Any], Names], str]] = {
    "say": lambda line, names: str(line.get("text")),
    "shuffle": lambda line, names: f"  chance: {line.get('zone')} is shuffled",
    "roll": lambda line, names: f"  chance: a d{line.get('sides')} rolls {line.get('result')}",
    "show": lambda line, names: f"  {line.get('card')} is shown to {names(line.get('to', -1))}",
}
"""The events told in words of their own; any other event is told by its fields."""


def _in_words(line: dict[str, Any], names: Names) -> str | None:
    """One log line (not a move or a flip) in words; None for a line the story leaves out."""
    kind, event = line.get("type"), line.get("event")
    if kind == "decision":
        return f"{names(line['who'])} chooses {line['label']}  (option {line['choice'] + 1} of {line['options']})"
    if event in _EVENT_WORDS:
        return _EVENT_WORDS[event](line, names)
    if kind == "event":
        rest = ", ".join(f"{k} {v}" for k, v in line.items() if k not in ("type", "event"))
        return f"  {event}: {rest}"
    if kind == "result":
        winners = ", ".join(names(p) for p in line["winners"]) or "nobody"
        return f"the match ends: scores {line['scores']}, won by {winners}"
    if kind == "error":
        return f"FAILS HERE: {line['message']}"
    return None


def story(game: Any, log: list[dict[str, Any]], width: int = 8) -> list[str]:
    """A failed match step by step, in words: who chose what (by the option labels of the log), the
    game's `say` sentences, chance (shuffles, rolls) and where cards went; the failure last."""
    names = game.model.setup(log[0]["players"]).player_name if log else str
    lines: list[str] = []
    group = _Grouped(lines, width)
    for line in log[1:]:
        kind, event = line.get("type"), line.get("event")
        if kind == "event" and event == "move":
            group.add(("move", line.get("from"), line.get("to"), line.get("face")), str(line.get("card")))
        elif kind == "event" and event == "flip":
            group.add(("flip", line.get("face")), str(line.get("card")))
        else:
            group.flush()
            words = _in_words(line, names)
            if words is not None:
                lines.append(words)
    group.flush()
    return lines


def chance_line(outcomes: Sequence[int], width: int = 40) -> str:
    """The chance outcomes of a match, briefly: `3 chance outcomes: 0 2 0`."""
    shown = " ".join(str(k) for k in outcomes[:width]) + (" …" if len(outcomes) > width else "")
    if not outcomes:
        return "no chance outcomes"
    return f"{len(outcomes)} chance outcome{'s' if len(outcomes) != 1 else ''}: {shown}"
