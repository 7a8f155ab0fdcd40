"""A person's question at the terminal table: the screen (folded where unchanged), the options in words, and
the answer read until it fits — a number, a card's name, `?`/`info` for a card's text, `t` for the whole
table, `q` to leave."""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

from .load.model import OWNER
from .table_cards import HIDDEN_LABEL, back_text
from .table_screen import Screen
from .table_teller import Teller, seat_of, unmarked
from .table_words import spoken


class Quit(Exception):
    """The person at the prompt asked to end the match."""


class InputEnded(Exception):
    """Standard input ended while the person was being asked."""


class Prompt:
    """Asks the person; keeps the blocks of the last screen shown, to fold those unchanged."""

    def __init__(self, t: Teller, screen: Screen) -> None:
        self.t, self.screen = t, screen
        self.last_blocks: list[list[str]] = []

    def ask(self, seat: int, read: Callable[[], str] | None = None) -> int:
        """Show the seat its screen and options; read a choice until it fits. Raises Quit or InputEnded."""
        t = self.t
        out, w = t.prompt_out, t.words
        read = read or sys.stdin.readline
        labels = t.m.action_labels(seat)
        blocks = self._show(seat)
        shown, copies = self._option_order(seat, labels)  # shown[i]: the action of the i-th option on the screen
        # a question with one option is asked all the same (being asked tells the others nothing):
        # say so, and let Enter take it
        only = "" if len(shown) > 1 else " " + w["nothing" if labels[0] in ("none", "nobody") else "only"]
        digits = len(str(len(shown)))
        for i, k in enumerate(shown, 1):
            text = self.option_text(labels[k], seat)
            if copies[i - 1] > 1:  # `Periwinkle ×3 — …`: copies in hand are one choice
                name = t.cards.name(labels[k])
                text = f"{name} ×{copies[i - 1]}{text[len(name):]}"
            room = t.width - digits - 6 - len(only)
            if len(text) > room:
                text = text[: room - 1] + "…"
            print(f"  {i:>{digits}}) {text}{only}", file=out)
        while True:
            print(w["ask_one" if only else "ask"].format(k=len(shown)), end="", file=out, flush=True)
            line = read()
            if not line:
                raise InputEnded
            text = line.strip()
            if not (hasattr(sys.stdin, "isatty") and sys.stdin.isatty()):
                print(text, file=out)  # typed input is not echoed from a pipe: show it, so the story reads on
            if (text.isdigit() and 1 <= int(text) <= len(shown)) or (only and not text):
                return shown[int(text or 1) - 1]
            chosen = self._answer(text, seat, labels, shown, blocks)
            if chosen is not None:
                return chosen

    def _show(self, seat: int) -> list[list[str]]:
        """Print the heading, the blocks changed since the last screen, and the question; the blocks."""
        t = self.t
        title, blocks = self.screen.screen(seat)
        before, self.last_blocks = self.last_blocks, blocks
        print("\n" + title, file=t.prompt_out)
        seen = {unmarked(block) for block in before}
        kept = [block for block in blocks if unmarked(block) not in seen]
        for block in kept:
            print("\n".join(block), file=t.prompt_out)
        if len(kept) < len(blocks):
            print("  " + t.words["as_before"].format(n=len(blocks) - len(kept)), file=t.prompt_out)
        print(t.style.bold(t.m.prompt(seat)), file=t.prompt_out)
        return blocks

    def _answer(self, text: str, seat: int, labels: list[str], shown: list[int], blocks: list[list[str]]) -> int | None:
        """What a typed line (not an option's number) asks for: an option by label or card name, else None
        once the help, a card's text, the table or an error is printed. Raises Quit."""
        t = self.t
        low = text.lower()
        if low in t.words["quit_words"].split("|"):
            raise Quit
        if self._looked(low, seat, labels, shown, blocks):
            return None
        if text in labels:
            return labels.index(text)
        by_name = [i for i, label in enumerate(labels) if t.cards.is_card(label) and t.cards.name(label).lower() == low]
        if by_name:  # copies of one card are the same choice
            return by_name[0]
        print(t.words["bad_choice"].format(k=len(shown)), file=t.prompt_out)
        return None

    def _looked(self, low: str, seat: int, labels: list[str], shown: list[int], blocks: list[list[str]]) -> bool:
        """Print what a typed line (lower-cased) asks to see, if it asks: the table, the help with the options'
        cards, a card's text by its option's number or by its name. Whether it asked."""
        t = self.t
        out, w = t.prompt_out, t.words
        infos = "|".join(re.escape(x) for x in w["info_words"].split("|"))
        asked = re.fullmatch(rf"(?:\?|{infos})\s*(\d+)", low)
        named = re.fullmatch(rf"(?:{infos})\s+(.+)", low)
        if low in w["table_words"].split("|"):
            for block in blocks:
                print("\n".join(block), file=out)
        elif low in ("?", "help", "h"):
            print(w["help"], file=out)
            for i, k in enumerate(shown, 1):
                if t.cards.is_card(labels[k]):
                    self._info(labels[k], f"{i}) ")
        elif asked:
            self._info_of_option(int(asked.group(1)), labels, shown)
        elif named:
            self._info_by_name(named.group(1), seat)
        else:
            return False
        return True

    def _info_of_option(self, n: int, labels: list[str], shown: list[int]) -> None:
        """The text of the card of the `n`-th option on the screen, or that it has none."""
        if 1 <= n <= len(shown) and self.t.cards.is_card(labels[shown[n - 1]]):
            self._info(labels[shown[n - 1]])
        else:
            print(self.t.words["no_card"].format(n=n), file=self.t.prompt_out)

    def option_text(self, label: str, seat: int) -> str:
        """An option as the person reads it: a card by name, numbers and text; a hidden card by its back and
        where it lies; a player by name; `none` in the table's words."""
        t = self.t
        if t.cards.is_card(label):
            return t.cards.line(label)
        hidden = HIDDEN_LABEL.fullmatch(label)
        if hidden:  # `hidden card 2 of table, colour Red, owner 1`: `[Red] (P1) — card 2 of table`
            at, zone, written = hidden.groups()
            back: dict[str, Any] = {}
            for part in written.split(", ")[1:]:
                key, _, value = part.partition(" ")
                back[key] = int(value) if key == "owner" and value.lstrip("-").isdigit() else value
            name, owner = seat_of(zone)
            where = spoken(name) if owner is None else t.words["your"].format(zone=spoken(name)) \
                if owner == seat else f"{spoken(name)} {t.who(owner)}"
            place = t.words["card_of"].format(n=at, zone=where) if at else where
            return f"{back_text(back, t.whose)} — {place}"
        if label in t.names:
            return t.who(t.names.index(label)) if t.names.index(label) == seat else label
        return t.words[label] if label in ("none", "nobody") else label

    def _option_order(self, seat: int, labels: list[str]) -> tuple[list[int], list[int]]:
        """The options as the screen lists them, and how many copies each stands for: cards all from the
        seat's own private zones (a hand) in the game's card order, after the options that are not cards,
        copies of a card (alike to the seat: one label) once; any other question as asked, one by one (a
        row, a chain: where a card lies is part of the choice)."""
        t = self.t
        private: set[str] = set()
        for zone, cards in t.m.view(seat)["zones"].items():
            name, owner = seat_of(zone)
            zone_def = t.m.game.model.zone(name)
            if owner == seat and zone_def is not None and zone_def.visibility == OWNER and isinstance(cards, list):
                private.update(c for c in cards if isinstance(c, str))
        cards = [i for i, label in enumerate(labels) if t.cards.is_card(label)]
        if not cards or any(labels[i] not in private for i in cards):
            return list(range(len(labels))), [1] * len(labels)
        others = [i for i in range(len(labels)) if i not in set(cards)]
        first: dict[str, int] = {}
        for i in sorted(cards, key=lambda i: t.cards.order(labels[i])):
            first.setdefault(labels[i], i)
        copies = Counter(labels[i] for i in cards)
        return others + list(first.values()), [1] * len(others) + [copies[label] for label in first]

    def _info(self, cid: str, lead: str = "") -> None:
        for i, line in enumerate(self.t.cards.full(cid, self.t.words)):
            print((lead if i == 0 else " " * len(lead)) + line, file=self.t.prompt_out)

    def _info_by_name(self, name: str, seat: int) -> None:
        t = self.t
        visible = {c for cards in t.m.view(seat)["zones"].values() if isinstance(cards, list)
                   for c in cards if isinstance(c, str)}
        found = sorted({cid for cid in visible if t.cards.name(cid).lower() == name.strip()}, key=t.cards.name)
        if not found:
            print(t.words["no_such_card"].format(name=name.strip()), file=t.prompt_out)
            return
        self._info(found[0])
