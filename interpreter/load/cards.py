"""Stage 2 for card files: a card file's data → the game's CardDefs, each card checked against game.yaml.

A card file has `defaults`, `cards` (written out one by one) and `generate` (cards made from ranges and
lists: load/generate.py); cards are taken in the order the file gives `cards` and `generate`, and a
generated card is the same CardDef as the card written out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..diagnostics import AuthoringError, Diagnostic, Pos, did_you_mean
from .generate import expand
from .model import BUILTIN_PROPS, CardDef, GameModel, kind_of
from .schema import validate
from .source import Budget, SourceMap, anchor, load_yaml, readable

CARD_KEYS = {"id", "name", "kind", "count", "each_player", "start", "back", "text", "abilities"}
MAX_CARDS = 10_000
"""The most cards a game may have at its largest player count (copies and each player's cards counted):
the layout of a match is built for every card."""
SECTIONS = ("cards", "generate")


def load_card_file(path: Path, model: GameModel, errors: list[Diagnostic], cited: Pos,
                   default_at: dict[str, Pos], budget: Budget) -> None:
    """Add the cards of the card file at `path` (cited at `cited` in game.yaml) to the model."""
    if not path.is_file():
        errors.append(Diagnostic(cited, f"card file `{readable(path.name)}` not found in {path.parent}"))
        return
    try:
        data, smap = load_yaml(path, budget)
    except AuthoringError as err:
        errors.extend(err.diagnostics)
        return
    found = validate(data, smap, "cards.schema.json", str(path))
    if found:
        errors.extend(found)
        return
    defaults = data.get("defaults", {})
    ids = {c.id: c.pos for c in model.cards}
    said: set[tuple[Pos, str]] = set()
    for raw, where in written_and_generated(data, smap, model.prop_defaults, default_at,
                                            MAX_CARDS - len(model.cards), errors):
        mine: list[Diagnostic] = []
        model.cards.append(_card(raw, where, defaults, smap, model, default_at, ids, mine))
        for d in mine:  # a mistake in a generator or in defaults is made by many cards: say it once
            if (d.pos, d.message) not in said:
                said.add((d.pos, d.message))
                errors.append(d)


def written_and_generated(data: dict, smap: SourceMap, prop_defaults: dict[str, Any] | None,
                          default_at: dict[str, Pos], room: int, errors: list[Diagnostic]):
    """Each card of a schema-checked card file, as written (a generated one filled in), with the data
    path of what wrote it: ("cards", i) or ("generate", i)."""
    for section in (key for key in data if key in SECTIONS):
        for i, raw in enumerate(data[section]):
            if section == "cards":
                room -= 1
                yield raw, ("cards", i)
                continue
            made = expand(raw, ("generate", i), smap, prop_defaults, default_at, (room, MAX_CARDS), errors)
            room -= len(made)
            for card in made:
                yield card, ("generate", i)


def _card(raw: dict, where: tuple, defaults: dict, smap: SourceMap, model: GameModel,
          default_at: dict[str, Pos], ids: dict[str, Pos], errors: list[Diagnostic]) -> CardDef:
    """One card as the game will hold it; its mistakes added to `errors`."""
    card: dict[str, Any] = {**defaults, **raw}

    def origin(key: str) -> tuple:
        return (*where, key) if key in raw else ("defaults", key)

    _claim(card["id"], smap.pos((*where, "id")), ids, errors)
    props = {k: v for k, v in card.items() if k not in CARD_KEYS}
    for k, value in props.items():
        errors += _property_mistakes(k, value, smap.key_pos(origin(k)), smap.pos(origin(k)), model, default_at)
    for k in card.get("back", []):
        if k not in model.prop_defaults and k not in BUILTIN_PROPS:
            errors.append(Diagnostic(smap.pos(origin("back")), f"unknown card property `{readable(k)}` in back",
                                     did_you_mean(k, model.prop_defaults)))
    start = card.get("start")
    each = bool(card.get("each_player", False))
    start_at = smap.pos(origin("start")) if start is not None else None
    errors += _start_mistakes(card, start, each, smap.pos(where), start_at, model)
    abilities = {}
    merged = {**defaults.get("abilities", {}), **raw.get("abilities", {})}  # a card adds to defaults
    for name, text in merged.items():
        apath = (where if name in raw.get("abilities", {}) else ("defaults",)) + ("abilities", name)
        if name not in model.abilities and name not in model.conditions:
            errors.append(Diagnostic(smap.key_pos(apath), f"unknown ability `{readable(name)}`",
                                     did_you_mean(name, model.abilities + list(model.conditions)) or
                                     "declare it under abilities: (or conditions:) in game.yaml"))
        abilities[name] = (text, anchor(smap, apath), f"{card['id']}.{name}")
    return CardDef(
        id=card["id"], name=card.get("name", card["id"]), kind=card.get("kind", ""),
        count=card.get("count", 1), each_player=each, start=start or "", back=list(card.get("back", [])),
        props=props, abilities=abilities, pos=smap.pos(where), text=card.get("text", ""),
    )


def _property_mistakes(k: str, value: Any, key_at: Pos, at: Pos, model: GameModel,
                       default_at: dict[str, Pos]) -> list[Diagnostic]:
    """What is wrong with a card's property `k` (its key at `key_at`, its value at `at`): unknown, or of another
    kind than its default."""
    if k not in model.prop_defaults:
        return [Diagnostic(key_at, f"unknown card property `{readable(k)}`",
                           did_you_mean(k, model.prop_defaults) or
                           "declare it with a default under properties: in game.yaml")]
    kind = kind_of(model.prop_defaults[k])
    if kind_of(value) == kind:
        return []
    where = default_at[k]
    hint = f"the default of `{k}` ({where.file}:{where.line}) sets its kind for every card"
    if isinstance(value, list):
        hint = f"a card property holds one value, not a list; {hint}"
    return [Diagnostic(at, f"`{k}` must be {kind}, like its default, not {kind_of(value)}", hint)]


def _start_mistakes(card: dict, start: Any, each: bool, card_at: Pos, start_at: Pos | None,
                    model: GameModel) -> list[Diagnostic]:
    """What is wrong with a card's start zone: none, unknown, or a player's zone for a card not each player's."""
    if start is None or start_at is None:
        return [Diagnostic(card_at, f"card `{readable(card['id'])}` has no start zone",
                           "add `start: <zone>` to the card or to defaults")]
    if start not in model.game_zones and start not in model.player_zones:
        return [Diagnostic(start_at, f"unknown zone `{readable(start)}`",
                           did_you_mean(start, list(model.game_zones) + list(model.player_zones)))]
    if start in model.player_zones and not each:
        return [Diagnostic(start_at, f"`{readable(start)}` belongs to each player, but this card is not `each_player`",
                           "start it in a shared zone, or set each_player: true")]
    return []


def _claim(card_id: str, at: Pos, ids: dict[str, Pos], errors: list[Diagnostic]) -> None:
    """Take a card id for the card at `at`, or report that another card has it."""
    first = ids.get(card_id)
    if first is None:
        ids[card_id] = at
    else:
        errors.append(Diagnostic(at, f"card id `{readable(card_id)}` is used twice",
                                 f"the card at {first.file}:{first.line} has it already"))


def count_cards(model: GameModel, errors: list[Diagnostic]) -> None:
    """Refuse a game with more than MAX_CARDS cards at its largest player count; point at the card
    that goes past it."""
    total = 0
    for card in model.cards:
        total += card.count * (model.max_players if card.each_player else 1)
        if total > MAX_CARDS:
            players = f" at {model.max_players} players" if card.each_player else ""
            errors.append(Diagnostic(card.pos, f"with this card the game has more than {MAX_CARDS:,} cards{players}",
                                     "lower the counts of the cards"))
            return


def check_card_file(path: Path) -> tuple[list[tuple[int, bool]], list[Diagnostic]]:
    """A card file on its own, without its game: its shape, its generators and its ids; the (count,
    each player) of each of its cards."""
    try:
        data, smap = load_yaml(path)
    except AuthoringError as err:
        return [], err.diagnostics
    found = validate(data, smap, "cards.schema.json", str(path))
    if found:
        return [], found
    defaults = data.get("defaults", {})
    cards: list[tuple[int, bool]] = []
    ids: dict[str, Pos] = {}
    for raw, where in written_and_generated(data, smap, None, {}, MAX_CARDS, found):
        card = {**defaults, **raw}
        _claim(card["id"], smap.pos((*where, "id")), ids, found)
        cards.append((card.get("count", 1), bool(card.get("each_player", False))))
    unique = {(d.pos, d.message): d for d in found}
    return cards, list(unique.values())


def cards_without_text(model: GameModel) -> list[Diagnostic]:
    """A warning at each card that has an ability but no `text:`: a player is shown the card's text, never
    its rules as written in the effect language."""
    return [Diagnostic(card.pos, f"card `{card.id}` has an effect but no `text:` for the players to read",
                       "add a `text:` that says what the card does, in the players' words", severity="warning")
            for card in model.cards if card.abilities and not str(card.text).strip()]
