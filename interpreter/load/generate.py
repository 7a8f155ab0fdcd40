"""Generated cards: card definitions made from ranges and lists of values, so a 52-card deck is a few lines.

A card file's `generate:` list holds generators. Each makes one card for every combination of the values
of its variables (`each`; the last variable changes fastest), exactly as if the cards were written out.
Every text of a generator but its abilities is a template: `{rank}` is the value of a variable,
`{rank_name}` its name from the generator's `names:` table (the value itself where the table has none),
`{rank_title}` that name with a capital first letter; `{{` and `}}` are braces. A card property filled in
from a template takes the kind of its default in game.yaml (`value: "{rank}"` gives a whole number when the
default of `value` is one)."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, Pos, did_you_mean
from .model import kind_of
from .source import SourceMap, anchor, readable

# Keys of a generator that are not card fields, and card fields that are not templates.
OWN_KEYS = ("each", "names")
FIXED_KEYS = ("count", "each_player", "start", "back", "abilities")
CARD_ID = re.compile(r"[a-z0-9][a-z0-9-]*(?![\s\S])")
_WHOLE = re.compile(r"-?[0-9]{1,18}(?![\s\S])")
_PLACE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_DERIVED = ("name", "title")


@dataclass(frozen=True, slots=True)
class _Hole:
    """A `{variable}` in a template: its name, and where its `{` is in the template's text."""

    name: str
    offset: int


Template = list[str | _Hole]


def expand(gen: dict, path: tuple, smap: SourceMap, defaults: dict[str, Any] | None,
           default_at: dict[str, Pos], room: tuple[int, int], errors: list[Diagnostic]) -> list[dict]:
    """The cards (as written in a card file: key → value) that the generator `gen` at `path` makes; none,
    and a diagnostic for each mistake, if the generator is broken. `defaults` are the game's property
    defaults (None for a card file checked on its own: values keep their kinds); `room` is how many more
    cards the game may have, and how many it may have in all."""
    found: list[Diagnostic] = []
    variables = _variables(gen, path, smap, room, found)
    if found:
        errors.extend(found)
        return []
    known = [name for v in variables for name in (v, *(f"{v}_{d}" for d in _DERIVED))]
    templates: dict[str, Template] = {}
    for key, value in gen.items():
        if key not in OWN_KEYS and key not in FIXED_KEYS and isinstance(value, str):
            template = _parse(value, (*path, key), smap, known, found)
            if template is not None:
                templates[key] = template
    if found:
        errors.extend(found)
        return []
    fixed = {k: v for k, v in gen.items() if k not in OWN_KEYS and k not in templates}
    cards = _fill(gen, path, smap, variables, templates, fixed, defaults, default_at, found)
    errors.extend(found)
    return [] if found else cards


def _variables(gen: dict, path: tuple, smap: SourceMap, room: tuple[int, int],
               found: list[Diagnostic]) -> dict[str, list[tuple[Any, str]]]:
    """Each variable's values, each with its name (from `names:`, else the value as text)."""
    made, (left, limit) = math.prod(_sizes(gen, path, smap, found)), room
    if made > left:
        whole = made > limit
        found.append(Diagnostic(
            smap.key_pos((*path, "each")),
            f"this generator makes {made:,} cards, " + (f"more than the {limit:,} a game may have" if whole
                                                        else f"and with them the game has more than {limit:,}"),
            "narrow the ranges and lists of `each`" if whole else f"a game has at most {limit:,} cards"))
    if found:
        return {}
    names = gen.get("names", {})
    _check_names(gen, names, path, smap, found)
    return {var: [(v, _text(names.get(var, {}).get(_text(v), v))) for v in _values(spec)]
            for var, spec in gen["each"].items()}


def _sizes(gen: dict, path: tuple, smap: SourceMap, found: list[Diagnostic]) -> list[int]:
    """How many values each variable of `each` takes (an empty range, or a name taken by a derived one, is a
    mistake)."""
    sizes = []
    for var, spec in gen["each"].items():
        if isinstance(spec, dict):
            first, last = spec["from"], spec["to"]
            if first > last:
                found.append(Diagnostic(smap.pos((*path, "each", var)), f"the range of `{var}` is empty: "
                                        f"from {first} to {last}", "`from` is the first value, `to` the last"))
            sizes.append(max(0, last - first + 1))
        else:
            sizes.append(len(spec))
        for derived in _DERIVED:
            base = var.removesuffix(f"_{derived}")
            if base != var and base in gen["each"]:
                found.append(Diagnostic(smap.key_pos((*path, "each", var)), f"variable `{var}` has the name of "
                                        f"`{{{var}}}`, the {derived} of `{base}`", "rename the variable"))
    return sizes


def _check_names(gen: dict, names: dict, path: tuple, smap: SourceMap, found: list[Diagnostic]) -> None:
    """Each table of `names:` is of a variable of `each`, and names only its values."""
    for var, table in names.items():
        if var not in gen["each"]:
            found.append(Diagnostic(smap.key_pos((*path, "names", var)), f"`names` has a table for `{readable(var)}`,"
                                    " which is not a variable of `each`", did_you_mean(var, gen["each"])))
            continue
        spec = gen["each"][var]
        values = {_text(v) for v in _values(spec)}
        for key in table:
            if key not in values:
                close = did_you_mean(key, values) if isinstance(spec, list) else None  # a number is not a typo
                found.append(Diagnostic(smap.key_pos((*path, "names", var, key)),
                                        f"`{readable(key)}` is not a value of `{var}`", close or _listed(spec)))


def _values(spec: dict | list) -> list | range:
    return range(spec["from"], spec["to"] + 1) if isinstance(spec, dict) else spec


def _listed(spec: dict | list) -> str:
    """The values of a variable, in a few words."""
    if isinstance(spec, dict):
        return f"its values are {spec['from']} to {spec['to']}"
    shown = ", ".join(readable(_text(v), 20) for v in spec[:8])
    return f"its values are {shown}" + (", …" if len(spec) > 8 else "")


def _text(value: Any) -> str:
    """A value as it reads in a card's text (true/false as YAML writes them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse(text: str, path: tuple, smap: SourceMap, known: list[str], found: list[Diagnostic]) -> Template | None:
    """A template's literal text and `{variable}` holes; None (and a diagnostic) if it is malformed."""
    parts: Template = []
    at = 0
    for match in _PLACE.finditer(text):
        if match.start() > at:
            parts.append(text[at:match.start()])
        at = match.end()
        token = match.group()
        if token in ("{{", "}}"):
            parts.append(token[0])
        elif token in ("{", "}"):
            what = "`{` is not closed" if token == "{" else "`}` closes nothing"
            found.append(Diagnostic(_place(smap, path, text, match.start()), f"{what} in this template",
                                    "write `{{` or `}}` for a brace itself"))
            return None
        else:
            name = match.group(1).strip()
            if name not in known:
                found.append(Diagnostic(_place(smap, path, text, match.start()),
                                        f"unknown variable `{{{readable(name, 30)}}}` in this template",
                                        did_you_mean(name, known) or f"variables here: {', '.join(known)}"))
                return None
            parts.append(_Hole(name, match.start()))
    if at < len(text):
        parts.append(text[at:])
    return parts


def _place(smap: SourceMap, path: tuple, text: str, offset: int) -> Pos:
    """The file position of the character at `offset` in the text at `path`."""
    before = text[:offset]
    return anchor(smap, path).shifted(before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1)


def _fill(gen: dict, path: tuple, smap: SourceMap, variables: dict[str, list[tuple[Any, str]]],
          templates: dict[str, Template], fixed: dict, defaults: dict[str, Any] | None,
          default_at: dict[str, Pos], found: list[Diagnostic]) -> list[dict]:
    """One card for each combination of the variables' values: the templates filled in and typed."""
    names = list(variables)
    cards: list[dict] = []
    made_by: dict[str, str] = {}  # card id -> the values that made it
    failed: set[str] = set()  # keys already reported: each is reported once, for the first card
    for combination in itertools.product(*variables.values()):
        env: dict[str, Any] = {}
        for var, (value, name) in zip(names, combination, strict=True):
            env[var], env[f"{var}_name"], env[f"{var}_title"] = value, name, name[:1].upper() + name[1:]
        values = ", ".join(f"{var}={readable(_text(value), 20)}" for var, (value, _) in zip(names, combination,
                                                                                           strict=True))
        card = dict(fixed)
        for key, template in templates.items():
            filled = _filled(template, env)
            if key in ("id", "name", "kind", "text"):
                filled = _text(filled)
            elif defaults is not None and key in defaults and any(isinstance(p, _Hole) for p in template):
                typed = _typed(filled, defaults[key])
                if typed is None and key not in failed:
                    failed.add(key)
                    found.append(_untyped(smap.pos((*path, key)), key, defaults[key], default_at[key], values, filled))
                filled = defaults[key] if typed is None else typed
            card[key] = filled
        card_id = card["id"]
        if "id" not in failed:  # one mistake in the id is reported, for the first card that shows it
            wrong = _id_problem(card_id, values, made_by)
            if wrong is not None:
                failed.add("id")
                found.append(Diagnostic(smap.pos((*path, "id")), *wrong))
        made_by[card_id] = values
        cards.append(card)
    return cards


def _untyped(pos: Pos, key: str, default: Any, default_at: Pos, values: str, filled: Any) -> Diagnostic:
    """A template of a typed property that gives no value of its default's kind."""
    return Diagnostic(pos, f"`{key}` must be {kind_of(default)}, like its default; "
                      f"for {values} this template gives `{readable(_text(filled), 30)}`",
                      f"the default of `{key}` ({default_at.file}:{default_at.line}) sets its kind for every card")


def _id_problem(card_id: str, values: str, made_by: dict[str, str]) -> tuple[str, str] | None:
    """What is wrong with the id a generator made for `values` (no card id, or one it made before) and how to
    mend it; else None."""
    if not CARD_ID.match(card_id):
        return (f"for {values} the id is `{readable(card_id)}`, not a valid card id",
                "ids are lowercase letters, digits and -, e.g. `{rank}-{suit}`; use `{suit}`, not `{suit_title}`")
    if card_id in made_by:
        return (f"this generator makes the id `{readable(card_id)}` twice: for {made_by[card_id]} and for {values}",
                "put every variable of `each` in the id")
    return None


def _filled(template: Template, env: dict[str, Any]) -> Any:
    """A template filled in; a template that is one `{variable}` alone gives the value itself."""
    if len(template) == 1 and isinstance(template[0], _Hole):
        return env[template[0].name]
    return "".join(_text(env[part.name]) if isinstance(part, _Hole) else part for part in template)


def _typed(value: Any, default: Any) -> Any:
    """`value` as the kind of `default` (a whole number, true/false or text); None if it has no such form."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        return {"true": True, "false": False}.get(value) if isinstance(value, str) else None
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return int(value) if isinstance(value, str) and _WHOLE.match(value) else None
    return _text(value)
