"""Cards as the terminal table names them: by name, with their key numbers and text, in the game's own
order, a hidden one by its back (`[Red] (P2)`)."""

from __future__ import annotations

import re
from typing import Any

from .table_words import spoken


class Cards:
    """Cards by name, with their key numbers and text, from the game's card definitions."""

    def __init__(self, m: Any) -> None:
        t, model = m.layout, m.game.model
        # by card id (the full log's names) and by face (what a seat is shown: copies alike)
        self.index = {cid: c for c, cid in enumerate(t.card_ids)}
        for c, face in enumerate(t.face_ids):
            self.index.setdefault(face, c)
        self.defs = [model.cards[d] for d in t.card_def]
        self.card_order = list(t.card_def)
        self.owners = list(t.props[model.prop_index["owner"]])
        self.defaults = model.prop_defaults

    def order(self, cid: str) -> tuple[int, str]:
        """Where the card comes in the game's own order: the order its card files declare the cards in
        (a generated deck: as generated, `2-clubs` … `14-spades`)."""
        return (self.card_order[self.index[cid]], cid) if cid in self.index else (len(self.card_order), cid)

    def filled(self, template: str, cid: str) -> str:
        """A card by the game's template of its properties: `{slot} {name} ({receiving})` → `2 Cape Mist (3)`."""
        card = self.defs[self.index[cid]]
        given = {"id": card.id, "name": card.name, "kind": card.kind, **self.defaults, **card.props}
        return re.sub(r"{([^{}]*)}", lambda m: str(given.get(m.group(1), "")), template)

    def owner(self, cid: str) -> int:
        """The seat whose card it is (a card dealt to each player), else -1."""
        return self.owners[self.index[cid]] if cid in self.index else -1

    def is_card(self, label: str) -> bool:
        return label in self.index

    def name(self, cid: str) -> str:
        return self.defs[self.index[cid]].name if cid in self.index else cid

    def numbers(self, cid: str) -> str:
        """The properties that set this card apart (`Parry 8, speed 2, heavy`), in the game's
        order; a text property and the number after it that share a first word read as one (`Parry 8`)."""
        card = self.defs[self.index[cid]]
        shown = [(k, card.props[k]) for k in self.defaults if k in card.props and card.props[k] != self.defaults[k]]
        parts: list[str] = []
        i = 0
        while i < len(shown):
            key, value = shown[i]
            if isinstance(value, str) and i + 1 < len(shown):
                after, number = shown[i + 1]
                if after.split("_")[0] == key.split("_")[0] and type(number) is int:
                    parts.append(f"{value} {number}")
                    i += 2
                    continue
            if value is True:
                parts.append(spoken(key))
            elif value is not False:
                parts.append(f"{spoken(key)} {value}")
            i += 1
        return ", ".join(parts)

    def text(self, cid: str) -> str:
        return " ".join(str(self.defs[self.index[cid]].text).split())

    def line(self, cid: str) -> str:
        """`Knight — Parry 8, speed 2 · When played: …` on one line."""
        numbers, text = self.numbers(cid), self.text(cid)
        tail = " · ".join(part for part in (numbers, text) if part)
        return f"{self.name(cid)} — {tail}" if tail else self.name(cid)

    def full(self, cid: str, words: dict[str, str]) -> list[str]:
        """Everything a card says to a player: name, kind, key numbers and its text (never its effect as
        the rules write it: `validate` warns of a card with an effect and no text)."""
        card = self.defs[self.index[cid]]
        lines = [f"{card.name} ({words['kind']}: {spoken(card.kind)})"]
        if self.numbers(cid):
            lines.append(f"  {self.numbers(cid)}")
        if card.text:
            lines.append(f"  {self.text(cid)}")
        return lines


def back_text(card: dict[str, Any], names: list[str]) -> str:
    """A hidden card as its back shows it: `[Red]`, `[Red] (P2)` when the back shows whose it is, or
    `[?]` when the back says nothing."""
    shown = [str(v) for k, v in card.items() if k not in ("hidden", "owner")]
    owner = card.get("owner", -1)
    whose = f" ({names[owner]})" if isinstance(owner, int) and 0 <= owner < len(names) else ""
    return "[" + ("/".join(shown) or "?") + "]" + whose


HIDDEN_LABEL = re.compile(r"hidden card(?: (\d+))? of (\S+?)((?:, \w+ [^,]+)*)")
