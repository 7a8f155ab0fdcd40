"""Stage 2 of the pipeline: plain data + source map → JSON Schema check → diagnostics for card authors."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import cache as kept
from ..diagnostics import Diagnostic, Pos, did_you_mean
from ..paths import data_dir
from .source import SourceMap, capped, readable

_TYPE_NAMES = {
    "integer": "a whole number", "number": "a number", "string": "text", "boolean": "true/false",
    "object": "a mapping (key: value)", "array": "a list", "null": "empty",
}
_BRANCHING = ("oneOf", "anyOf")
# At one position, keep the message of the most telling keyword.
_RANK = {"required": 0, "additionalProperties": 0, "enum": 1, "const": 1, "not": 1, "oneOf": 2, "anyOf": 2,
         "type": 3}


DataPath = tuple[str | int, ...]

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

    class _Failed(ValidationError):
        """An error as the validator reports it: the rule's schema (a mapping for every rule described
        here), its value and the instance are set; the stubs allow them unset, as on an error made by hand."""

        schema: Mapping[str, Any]
        validator_value: Any
        instance: Any
        # Its sub-errors come from the validator too (a list is invariant: the narrower item is declared).
        context: list[_Failed]  # type: ignore[assignment]


class Found(NamedTuple):
    """One described error: where, about which value, what, and how to fix it."""

    pos: Pos
    path: DataPath
    message: str
    hint: str | None


@dataclass(frozen=True, slots=True)
class _Where:
    """Turns data paths into positions: through the source map, or line 1 of `file` when there is none."""

    smap: SourceMap | None
    file: str

    def at(self, path: DataPath, message: str, hint: str | None = None, on_key: bool = False) -> Found:
        """A finding about the value at `path`, placed at the value or at the key that names it."""
        if self.smap is None:
            pos = Pos(self.file, 1, 1)
        else:
            pos = self.smap.key_pos(path) if on_key else self.smap.pos(path)
        return Found(pos, path, message, hint)


def validate(data: Any, smap: SourceMap | None, schema_name: str, file: str) -> list[Diagnostic]:
    """Every way `data` breaks schemas/<schema_name>.schema.json, in file order (at `file`:1:1 if no smap). Data
    read from a file (given with its source map) that passed is kept as passing in the compiled-game cache: the
    same data is not checked again (nor the schema checker loaded) by a later process."""
    if smap is None:
        return _validate(data, smap, schema_name, file)
    name = kept.value_key("valid", schema_name, repr(data))
    if kept.read_value(name) is True:
        return []
    found = _validate(data, smap, schema_name, file)
    if not found:
        kept.write_value(name, True)
    return found


def _validate(data: Any, smap: SourceMap | None, schema_name: str, file: str) -> list[Diagnostic]:
    where = _Where(smap, file)
    best: dict[tuple[Pos, DataPath], tuple[int, Found]] = {}
    validator = _validator(schema_name)
    tag = data.get("type") if isinstance(data, dict) else None
    if isinstance(tag, str):  # a schema of tagged forms checks only the form the data names (any other: all)
        validator = _tagged_forms(schema_name).get(tag, validator)
    for error in validator.iter_errors(data):
        for leaf in _leaves(error):
            rank = _RANK.get(str(leaf.validator), len(_RANK))
            for item in _DESCRIBERS.get(str(leaf.validator), _describe_other)(leaf, where):
                # Several keywords can fail on one value (e.g. type and enum): keep the most telling one.
                key = (item.pos, item.path)
                if key not in best or rank < best[key][0]:
                    best[key] = (rank, item)
    ordered = sorted((item for _, item in best.values()), key=lambda item: (item.pos.line, item.pos.col))
    return capped([Diagnostic(item.pos, item.message, item.hint) for item in ordered], file)


@cache
def _tagged_forms(schema_name: str) -> dict[Any, Any]:
    """For a schema that is a `oneOf` of forms told apart by a constant `type` (a log line): a validator
    per form, by that constant. Checking one form instead of all is several times faster."""
    validator = _validator(schema_name)
    forms = validator.schema.get("oneOf", [])
    tags = [form.get("properties", {}).get("type", {}).get("const") for form in forms]
    if not forms or None in tags or '"$ref"' in json.dumps(forms):  # a form alone cannot resolve a $ref
        return {}
    return {tag: validator.evolve(schema=form) for tag, form in zip(tags, forms, strict=True)}


def breaks_a_pattern(data: Any, schema_name: str) -> bool:
    """Whether some text of `data` (a name, mostly) has a shape its schema forbids."""

    def patterns(error: ValidationError) -> bool:
        return error.validator == "pattern" or any(patterns(sub) for sub in error.context or ())

    return any(patterns(error) for error in _validator(schema_name).iter_errors(data))


def _is_whole(checker: Any, instance: Any) -> bool:
    """JSON Schema's `integer` also takes 3.0, and Python's int takes True: a whole number is neither."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _canonical(value: Any) -> str:
    """One text per distinct JSON value (true and 1 differ), to compare list items in linear time."""
    return json.dumps(value, sort_keys=True)


def _unique_items(validator: Any, unique: bool, instance: Any, schema: dict) -> Iterable[ValidationError]:
    """`uniqueItems` by hashing: jsonschema's own compares every pair of unsortable items."""
    from jsonschema.exceptions import ValidationError

    if unique and validator.is_type(instance, "array"):
        seen: set[str] = set()
        for item in instance:
            key = _canonical(item)
            if key in seen:
                yield ValidationError(f"{_shown(item)} is listed twice")
                return
            seen.add(key)


@cache
def _strict() -> Any:
    """Draft 2020-12 with whole numbers strictly whole and `uniqueItems` by hashing (jsonschema is loaded only
    when some data is checked: a command whose files were all checked before does without it)."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, validators={"uniqueItems": _unique_items},
                             type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole))


@cache
def _validator(schema_name: str) -> Any:
    """The compiled validator for one bundled schema, loaded once; whole numbers are strictly whole.
    (The bundled schemas are checked against the metaschema by the tests, not at every start: that
    check costs more than loading a game's files.)"""
    file_name = schema_name if schema_name.endswith(".json") else f"{schema_name}.schema.json"
    schema = json.loads((data_dir("schemas") / file_name).read_text(encoding="utf-8"))
    return _strict()(schema)


def _leaves(error: _Failed) -> list[_Failed]:
    """The errors worth reporting: for oneOf/anyOf, those of the alternative the author most likely meant."""
    if error.validator not in _BRANCHING or not error.context:
        return [error]
    branches = _branches(error)
    if all(_wrong_kind(errors) for errors in branches.values()) or _missing_one_of(error):
        return [error]
    chosen = min(branches.values(), key=lambda errors: (
        _wrong_kind(errors), -max(len(e.path) for e in errors), len(errors)))
    return [leaf for sub in chosen for leaf in _leaves(sub)]


def _branches(error: _Failed) -> dict[Any, list[_Failed]]:
    """The context errors of a oneOf/anyOf error, grouped by alternative."""
    branches: dict[Any, list[_Failed]] = defaultdict(list)
    for sub in error.context or ():
        branches[sub.relative_schema_path[0]].append(sub)
    return branches


def _missing_one_of(error: _Failed) -> bool:
    """Whether each alternative of a oneOf/anyOf only lacks keys (at least one of them is needed)."""
    return all(e.validator == "required" and not e.path for e in error.context or ())


def _wrong_kind(errors: Iterable[_Failed]) -> bool:
    """Whether an alternative failed at its root type or a `const` tag: the author meant another one."""
    return any((e.validator == "type" and not e.path) or e.validator == "const" for e in errors)


def _subject(path: Sequence[str | int]) -> str:
    """A readable name for the value at `path`, e.g. zones.hand.visibility or cards[3].count."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{readable(part, 40)}" if out else readable(part, 40))
    return out or "the top level"


def _shown(value: Any) -> str:
    """A value as an author would write it, for `..., not X`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "empty"
    if isinstance(value, str):
        return f"'{readable(value, 40)}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _either(words: Sequence[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _expected_types(value: Any) -> list[str]:
    """The readable names of a `type` keyword's value."""
    types = [value] if isinstance(value, str) else list(value)
    return [_TYPE_NAMES.get(t, t) for t in types]


def _is_key_error(error: _Failed) -> bool:
    """Whether the error is about a mapping key (it came through `propertyNames`)."""
    return "propertyNames" in error.absolute_schema_path


def _describe_additional(error: _Failed, where: _Where) -> list[Found]:
    """An unknown key: point at the key, suggest the closest allowed one."""
    allowed = list(error.schema.get("properties", {}))
    path = tuple(error.absolute_path)
    inside = f" in {_subject(path)}" if path else ""
    found = []
    for key in error.instance:
        if key not in allowed:
            listed = f"allowed keys here: {', '.join(allowed)}" if allowed else None
            hint = did_you_mean(str(key), allowed) or listed
            found.append(where.at((*path, key), f"unknown key `{readable(key)}`{inside}", hint, on_key=True))
    return found


def _describe_required(error: _Failed, where: _Where) -> list[Found]:
    """Missing keys, all in one message at the key (or start) of the mapping that lacks them."""
    missing = [key for key in error.validator_value if key not in error.instance]
    path = tuple(error.absolute_path)
    keys = ", ".join(f"`{readable(key)}`" for key in missing)
    plural = "keys" if len(missing) > 1 else "key"
    return [where.at(path, f"{_subject(path)} is missing required {plural} {keys}", on_key=True)]


def _describe_enum(error: _Failed, where: _Where) -> list[Found]:
    """A value outside a fixed set."""
    choices = [str(choice) for choice in error.validator_value]
    path = tuple(error.absolute_path)
    message = f"{_subject(path)} must be one of {', '.join(choices)}, not {_shown(error.instance)}"
    return [where.at(path, message, did_you_mean(str(error.instance), choices))]


def _describe_const(error: _Failed, where: _Where) -> list[Found]:
    """A value that must be exactly one thing."""
    path = tuple(error.absolute_path)
    message = f"{_subject(path)} must be {_shown(error.validator_value)}, not {_shown(error.instance)}"
    return [where.at(path, message)]


def _describe_type(error: _Failed, where: _Where) -> list[Found]:
    """A value of the wrong kind; explains YAML reading unquoted numbers and yes/no as non-text."""
    path = tuple(error.absolute_path)
    expected = _expected_types(error.validator_value)
    hint = None
    if where.smap is not None and "text" in expected and isinstance(error.instance, (bool, int, float)):
        hint = "YAML read this as a number or true/false; put it in quotes to keep it as text"
    elif "text" in expected and isinstance(error.instance, dict) and len(error.instance) == 1:
        [(key, value)] = error.instance.items()
        key, value = readable(key, 30), readable(str(value), 30)
        hint = f'YAML read `{key}: {value}` as a mapping; put it in quotes: "{key}: {value}"'
    message = f"{_subject(path)} must be {_either(expected)}, not {_shown(error.instance)}"
    return [where.at(path, message, hint)]


def _describe_pattern(error: _Failed, where: _Where) -> list[Found]:
    """Text of the wrong shape, e.g. a name with capitals; for keys, point at the key."""
    title = error.schema.get("title", "value")
    hint = error.schema.get("description") or f"it must match {error.validator_value}"
    path = tuple(error.absolute_path)
    if _is_key_error(error):
        key = error.instance
        return [where.at((*path, key), f"`{readable(key)}` is not a valid {title}", hint, on_key=True)]
    return [where.at(path, f"{_subject(path)} {_shown(error.instance)} is not a valid {title}", hint)]


def _bound(word: str) -> Callable[[_Failed, _Where], list[Found]]:
    """A describer for a numeric bound, e.g. 'must be at least 1'."""

    def describe(error: _Failed, where: _Where) -> list[Found]:
        path = tuple(error.absolute_path)
        message = f"{_subject(path)} must be {word} {error.validator_value}, not {_shown(error.instance)}"
        return [where.at(path, message)]

    return describe


def _describe_size(error: _Failed, where: _Where) -> list[Found]:
    """A list or text that is too short (usually: empty)."""
    path = tuple(error.absolute_path)
    if error.validator_value == 1:
        return [where.at(path, f"{_subject(path)} must not be empty")]
    units: dict[type, str] = {list: "items", dict: "keys"}
    unit = units.get(type(error.instance), "characters")
    message = f"{_subject(path)} must have at least {error.validator_value} {unit}, not {len(error.instance)}"
    return [where.at(path, message)]


def _describe_unique(error: _Failed, where: _Where) -> list[Found]:
    """A list that names the same thing twice: point at the second one."""
    path = tuple(error.absolute_path)
    seen: set[str] = set()
    for index, item in enumerate(error.instance):
        key = _canonical(item)
        if key in seen:
            return [where.at((*path, index), f"{_subject(path)} lists {_shown(item)} twice")]
        seen.add(key)
    return [where.at(path, f"{_subject(path)} has repeated items")]


def _describe_not(error: _Failed, where: _Where) -> list[Found]:
    """A key that is forbidden here; the schema's description says why."""
    path = tuple(error.absolute_path)
    why = error.schema.get("description")
    return [where.at(path, f"{_subject(path)} is not allowed here", why, on_key=True)]


def _describe_branching(error: _Failed, where: _Where) -> list[Found]:
    """A value matching none of several forms, where no single form looks intended."""
    path = tuple(error.absolute_path)
    branches = list(_branches(error).values())
    roots = [e for errors in branches for e in errors if e.validator == "type" and not e.path]
    if len(roots) == len(branches):
        expected = list(dict.fromkeys(name for e in roots for name in _expected_types(e.validator_value)))
        return [where.at(path, f"{_subject(path)} must be {_either(expected)}, not {_shown(error.instance)}")]
    if _missing_one_of(error):
        keys = [f"`{readable(key)}`" for e in error.context for key in e.validator_value if key not in e.instance]
        keys = list(dict.fromkeys(keys))
        wanted = f"{keys[0]} or {keys[1]} (or both)" if len(keys) == 2 else f"at least one of {', '.join(keys)}"
        return [where.at(path, f"{_subject(path)} needs {wanted}", on_key=True)]
    tags = [e for errors in branches for e in errors if e.validator == "const"]
    if len(tags) == len(branches) and len({tuple(e.absolute_path) for e in tags}) == 1:
        tag_path = tuple(tags[0].absolute_path)
        choices = [str(e.validator_value) for e in tags]
        message = f"{_subject(tag_path)} must be one of {', '.join(choices)}, not {_shown(tags[0].instance)}"
        return [where.at(tag_path, message, did_you_mean(str(tags[0].instance), choices))]
    return [where.at(path, f"{_subject(path)} does not match any allowed form")]


def _describe_other(error: _Failed, where: _Where) -> list[Found]:
    """Any other keyword: jsonschema's own message, at the value."""
    path = tuple(error.absolute_path)
    return [where.at(path, f"{_subject(path)}: {error.message}")]


_DESCRIBERS: dict[str, Callable[[_Failed, _Where], list[Found]]] = {
    "additionalProperties": _describe_additional,
    "required": _describe_required,
    "enum": _describe_enum,
    "const": _describe_const,
    "type": _describe_type,
    "pattern": _describe_pattern,
    "minimum": _bound("at least"),
    "maximum": _bound("at most"),
    "minItems": _describe_size,
    "minLength": _describe_size,
    "minProperties": _describe_size,
    "uniqueItems": _describe_unique,
    "not": _describe_not,
    "oneOf": _describe_branching,
    "anyOf": _describe_branching,
}
