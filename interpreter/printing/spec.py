"""A game's `print:` section: what goes where on a card's face and back, with defaults taken from the cards.

Every entry is a template: `{name}` stands for that property of the card (its `id`, `name`, `kind`, `text`,
`count`, or one the game declares under `properties:`). An entry all of whose properties are at their default
(0, "", false) is left off the card, so one list serves cards of every kind; a true/false property prints
nothing itself (`Once per turn{once_per_turn}`) unless `labels:` gives it words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import AuthoringError, Diagnostic, did_you_mean
from ..load.loader import Content
from ..load.model import CardDef

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
BUILTIN = ("id", "name", "kind", "text", "count")

KIND_COLOURS = ("#2e6f9e", "#b03a2e", "#2e8b57", "#7d3c98", "#c0661a", "#138d75", "#5d6d7e", "#9a7d0a",
                "#1f3a5f", "#a04000", "#196f3d", "#6c3483")
"""Colours for the values of `color_by` (the kind, by default), in the order they first appear."""
SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#d4ac0d", "#7d3c98", "#ca6f1e", "#17a589", "#5d6d7e")
"""The colour of each seat's copies of a card every player has (seat 1 first)."""


@dataclass(frozen=True, slots=True)
class BackDesign:
    """The back of the cards that start in one zone (one deck): a label under the game's title, a colour."""

    label: str
    colour: str


@dataclass(frozen=True, slots=True)
class Face:
    """What one card shows: its texts as they are printed, the colour of its frame, its back."""

    title: str
    type_line: str
    corners: tuple[str, ...]  # top left, top right, bottom right, bottom left; "" for an empty corner
    stats: tuple[str, ...]
    text: str
    colour: str
    back: BackDesign
    back_lines: tuple[str, ...]  # properties the card shows on its back (`back:` in its card file)
    footer: str  # the game and the card's id, small, at the foot of the face


@dataclass(frozen=True)
class PrintSpec:
    """The `print:` section with every default filled in."""

    size: str | None
    title: str
    type_line: str
    corners: tuple[str, ...]
    stats: tuple[str, ...] | None  # None: every property the card sets that no other entry shows
    text: str
    labels: dict[str, dict[str, str]]
    colour_by: str
    colours: dict[str, str]
    backs: dict[str, BackDesign]
    hide: frozenset[str]
    title_of_game: str
    defaults: dict[str, Any] = field(default_factory=dict)

    def face(self, card: CardDef) -> Face:
        """The card's face and back as printed."""
        used = self.used()
        corners = tuple(self.fill(t, card) for t in self.corners)
        if self.stats is None:
            stats = tuple(self._auto_stat(name, card) for name in self.defaults
                          if name not in used and name not in card.back and name not in self.hide
                          and not _is_default(self.raw(name, card), self.defaults[name]))
        else:
            stats = tuple(s for s in (self.fill(t, card) for t in self.stats) if s)
        key = str(self.raw(self.colour_by, card))
        back_lines = tuple(self.shown(name, card) for name in card.back
                           if not _is_default(self.raw(name, card), self.defaults.get(name, "")))
        title, type_line = self.fill(self.title, card), self.fill(self.type_line, card)
        if type_line.casefold() == title.casefold():
            type_line = ""  # a kind of one card (`Periwinkle`) says nothing its title does not
        return Face(title, type_line, corners, stats,
                    self.fill(self.text, card), self.colours.get(key, "#5d6d7e"), self.backs[card.start], back_lines,
                    f"{self.title_of_game} · {card.id}")

    def used(self) -> set[str]:
        """The properties the title, type line, corners and text show."""
        return {m for t in (self.title, self.type_line, self.text, *self.corners) for m in PLACEHOLDER.findall(t)}

    def raw(self, name: str, card: CardDef) -> Any:
        """A property's value on the card (its default where the card sets none)."""
        if name in BUILTIN:
            return getattr(card, name)
        return card.props.get(name, self.defaults.get(name, ""))

    def shown(self, name: str, card: CardDef) -> str:
        """A property's value as printed: its label (`labels:`) if it has one, a kind as words, yes for true."""
        raw = self.raw(name, card)
        key = "yes" if raw is True else "no" if raw is False else str(raw)
        label = self.labels.get(name, {}).get(key)
        if label is not None:
            return label
        if name == "kind":
            return words(key)
        return key

    def fill(self, template: str, card: CardDef) -> str:
        """The template with the card's values in it; "" if every property in it is at its default."""
        names = PLACEHOLDER.findall(template)
        if names and all(_is_default(self.raw(n, card), self._default(n)) for n in names):
            return ""
        return PLACEHOLDER.sub(lambda m: self._in_template(m[1], card), template).strip()

    def _in_template(self, name: str, card: CardDef) -> str:
        """A value in a template: a true/false property prints nothing unless it has a label, so that
        `Once per turn{once_per_turn}` shows its words on the cards where it is true."""
        raw = self.raw(name, card)
        if isinstance(raw, bool) and _key(raw) not in self.labels.get(name, {}):
            return ""
        return self.shown(name, card)

    def _default(self, name: str) -> Any:
        return self.defaults.get(name, "" if name in ("text", "id", "name", "kind") else 0)

    def _auto_stat(self, name: str, card: CardDef) -> str:
        raw = self.raw(name, card)
        return words(name) if raw is True else f"{words(name)}: {self.shown(name, card)}"


def words(name: str) -> str:
    """A name as words: `hermit_crab` → `Hermit crab`."""
    text = re.sub(r"[_-]+", " ", name).strip()
    return text[:1].upper() + text[1:]


def _is_default(value: Any, default: Any) -> bool:
    """Whether a value shows nothing: the property's default, no text, false or 0."""
    return value == default or value is None or value == "" or value is False or (type(value) is int and value == 0)


BACK_COLOURS = ("#1b4f72", "#7b241c", "#0e6251", "#4a235a", "#6e2c00", "#2c3e50", "#145a32", "#4d5656")
"""The colour of each deck's backs, in the order the decks' zones first appear among the cards."""


def print_spec(content: Content) -> PrintSpec:
    """The game's `print:` section, defaults filled in; an AuthoringError (each mistake at its place in game.yaml)
    for a name that is no property, zone or colour the game has."""
    data = content.data.get("print") or {}
    model = content.model
    read = _SpecReader(content)
    kinds = list(dict.fromkeys(c.kind for c in model.cards))
    title = data.get("title", "{name}")
    type_line = data.get("type", "{kind}" if len(kinds) > 1 else "")
    corners = tuple(data.get("corners", ()))
    stats = tuple(data["stats"]) if "stats" in data else None
    text = data.get("text", "{text}")
    for path, template in [(("title",), title), (("type",), type_line), (("text",), text),
                           *[(("corners", i), t) for i, t in enumerate(corners)],
                           *[(("stats", i), t) for i, t in enumerate(stats or ())]]:
        read.template(path, template)
    labels = read.labels(data.get("labels") or {})
    hide = read.hide(data.get("hide", ()))
    colour_by, colours = read.colours(data.get("color_by", "kind"), data.get("colors") or {})
    backs = read.backs(data.get("backs") or {})
    if read.errors:
        raise AuthoringError(read.errors)
    return PrintSpec(data.get("size"), title, type_line, corners, stats, text, labels, colour_by, colours, backs,
                     hide, model.title, read.defaults)


class _SpecReader:
    """The parts of a `print:` section read one by one, each mistake kept (at its place in game.yaml)."""

    def __init__(self, content: Content) -> None:
        self.model, self.smap = content.model, content.smap
        self.defaults = dict(self.model.prop_defaults)
        self.known = list(BUILTIN) + list(self.defaults)
        self.errors: list[Diagnostic] = []

    def template(self, path: tuple, template: str) -> None:
        for name in PLACEHOLDER.findall(template):
            if name not in self.known:
                hint = did_you_mean(name, self.known) or "properties: " + ", ".join(self.known)
                self.errors.append(Diagnostic(self.smap.pos(("print", *path)),
                                              f"`{{{name}}}` is no property of the cards", hint))

    def labels(self, given: dict[str, dict]) -> dict[str, dict[str, str]]:
        labels: dict[str, dict[str, str]] = {}
        for name, shown in given.items():
            if name not in self.known:
                self.errors.append(Diagnostic(self.smap.key_pos(("print", "labels", name)),
                                              f"`{name}` is no property of the cards", did_you_mean(name, self.known)))
            labels[name] = {_key(k): str(v) for k, v in shown.items()}
        return labels

    def hide(self, names: Any) -> frozenset[str]:
        for i, name in enumerate(names):
            if name not in self.defaults:
                self.errors.append(Diagnostic(self.smap.pos(("print", "hide", i)), f"`{name}` is no declared property",
                                              did_you_mean(name, list(self.defaults))))
        return frozenset(names)

    def colours(self, colour_by: str, given: dict) -> tuple[str, dict[str, str]]:
        """The property the cards are coloured by, and the colour of each of its values."""
        if colour_by not in self.known:
            self.errors.append(Diagnostic(self.smap.pos(("print", "color_by")),
                                          f"`{colour_by}` is no property of the cards",
                                          did_you_mean(colour_by, self.known)))
            colour_by = "kind"
        values = list(dict.fromkeys(str(card.props.get(colour_by, self.defaults.get(colour_by, "")))
                                    if colour_by not in BUILTIN else str(getattr(card, colour_by))
                                    for card in self.model.cards))
        colours = {v: KIND_COLOURS[i % len(KIND_COLOURS)] for i, v in enumerate(values)}
        colours.update({_key(k): v for k, v in given.items()})
        return colour_by, colours

    def backs(self, given: dict) -> dict[str, BackDesign]:
        """The back of each zone cards start in: its label and colour."""
        starts = list(dict.fromkeys(c.start for c in self.model.cards))
        for zone in given:
            if zone not in starts:
                hint = did_you_mean(zone, starts) or "zones cards start in: " + ", ".join(starts)
                message = f"no card starts in `{zone}`: `backs` names the zones cards start in"
                self.errors.append(Diagnostic(self.smap.key_pos(("print", "backs", zone)), message, hint))
        backs: dict[str, BackDesign] = {}
        for i, zone in enumerate(starts):
            design = given.get(zone) or {}
            label = design.get("label", "" if len(starts) == 1 else words(zone))
            backs[zone] = BackDesign(str(label), design.get("color", BACK_COLOURS[i % len(BACK_COLOURS)]))
        return backs


def _key(value: Any) -> str:
    """A YAML key as the value it names: `true` → yes, `11` → 11."""
    return "yes" if value is True else "no" if value is False else str(value)
