"""A game's rules page (`meeple rules GAME`): the README.md in its folder, for a reader at a terminal."""

from __future__ import annotations

import re
from pathlib import Path

from .diagnostics import AuthoringError
from .load.loader import find_game

PAGE = "README.md"


class NoRulesPage(Exception):
    """The game has no rules page, or it cannot be read; the message says which."""


def rules_path(name: str) -> Path:
    """Where the game's rules page is (it may not exist): README.md in the game's folder."""
    return find_game(name) / PAGE


def _in(path: Path, lang: str) -> tuple[Path, str]:
    """The page in `lang` beside the page `path` (`README.ru.md`) where there is one, else `path` (English)."""
    other = path.with_name(f"{path.stem}.{lang}{path.suffix}")
    return (other, lang) if lang != "en" and other.is_file() else (path, "en")


def rules_page(name: str, lang: str = "en") -> tuple[str, str]:
    """The game's rules page as plain text: Markdown's emphasis marks taken out, the rest as written; in `lang`
    where the game has a page in it (`README.ru.md`), else its page; and the language of the page given."""
    try:
        path, lang = _in(rules_path(name), lang)
    except AuthoringError as err:
        d = err.diagnostics[0]
        raise NoRulesPage(d.message + (f"; {d.hint}" if d.hint else "")) from None
    if not path.is_file():
        raise NoRulesPage(f"the game `{name}` has no rules page: write one as {PAGE} in its folder")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise NoRulesPage(f"{path}: cannot be read ({err})") from None
    return re.sub(r"\*\*(.+?)\*\*", r"\1", text, flags=re.S), lang
