"""`compare --set NAME=VALUE`: a game with some of its declared values changed, as a copy of its folder.

NAME is a counter's name (its initial value changes: `--set start=2`) or a dotted path to a value game.yaml
already declares (`--set flow.rounds=6`, `--set properties.consolation=1`, `--set players.default=3`). VALUE is
read as YAML (a number, true/false, a text). The copy is loaded and checked like any game folder, so a value the
rules cannot take is reported as the game's own error.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

from ..load.loader import find_game


class OverrideError(ValueError):
    """A `--set` that names nothing the game declares, or is not NAME=VALUE."""


def parse_sets(texts: list[str]) -> list[tuple[str, Any]]:
    """`NAME=VALUE` texts as (name, value) pairs; VALUE read as a YAML scalar."""
    out = []
    for text in texts:
        name, eq, value = text.partition("=")
        name = name.strip()
        if not eq or not name:
            raise OverrideError(f"--set {text!r}: write NAME=VALUE (a counter, or a path such as flow.rounds)")
        try:
            parsed = yaml.safe_load(value) if value.strip() else ""
        except yaml.YAMLError:
            parsed = value
        if isinstance(parsed, (dict, list)) or parsed is None:
            raise OverrideError(f"--set {text!r}: VALUE must be a number, true/false or a text")
        out.append((name, parsed))
    return out


def _place(data: dict[str, Any], name: str) -> tuple[dict[str, Any], str]:
    """The mapping and key that `name` sets in game.yaml's data."""
    counters = data.get("counters") or {}
    for scope in ("game", "player"):
        table = counters.get(scope) or {}
        if isinstance(table, dict) and name in table:
            spec = table[name]
            if isinstance(spec, dict):
                return spec, "initial"
            return table, name
    node: Any = data
    parts = name.split(".")
    for part in parts[:-1]:
        if not isinstance(node, dict) or part not in node:
            node = None
            break
        node = node[part]
    if isinstance(node, dict) and parts[-1] in node and not isinstance(node[parts[-1]], (dict, list)):
        return node, parts[-1]
    names = [n for scope in ("game", "player") for n in (counters.get(scope) or {})]
    raise OverrideError(f"--set {name}: the game declares no counter nor value of that name "
                        f"(counters: {', '.join(names) or 'none'}; or a path such as flow.rounds)")


_KEPT: list[tempfile.TemporaryDirectory] = []


def overridden(game_name: str, sets: list[tuple[str, Any]]) -> Path:
    """A copy of the game's folder with `sets` applied to its game.yaml (removed when the process ends)."""
    folder = find_game(game_name)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise OverrideError(f"{folder / 'game.yaml'} is not a mapping")
    for name, value in sets:
        table, key = _place(data, name)
        table[key] = value
    keep = tempfile.TemporaryDirectory(prefix="meeple-set-")
    _KEPT.append(keep)
    copy = Path(keep.name) / folder.name
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return copy


@atexit.register
def _clean_up() -> None:
    for kept in _KEPT:
        kept.cleanup()


def describe(sets: list[tuple[str, Any]]) -> str:
    """`flow.rounds=6, start=2`."""
    return ", ".join(f"{name}={value}" for name, value in sets)
