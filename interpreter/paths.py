"""Where the bundled data folders (grammar, schemas, cards) live, in a checkout or an installed wheel."""

from __future__ import annotations

from pathlib import Path

DATA_FOLDERS = ("grammar", "schemas", "cards")


def data_dir(name: str) -> Path:
    """The folder holding bundled `grammar`, `schemas` or `cards`."""
    assert name in DATA_FOLDERS, f"unknown data folder {name!r}"
    # A wheel installs these folders as subpackages interpreter.grammar etc.; a checkout has them at the root.
    package = Path(__file__).resolve().parent
    installed = package / name
    return installed if installed.is_dir() else package.parent / name


def bundled_games() -> list[str]:
    """Names of the games shipped under cards/."""
    root = data_dir("cards")
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())
