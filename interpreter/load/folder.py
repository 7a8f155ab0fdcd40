"""Which folder a GAME argument names: a bundled game's name, a folder, or its game.yaml (no YAML is read, so
that finding a game costs no more than the file system's answers)."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Anchor, AuthoringError, Diagnostic, did_you_mean
from ..paths import bundled_games, data_dir


def find_game(name: str) -> Path:
    """A bundled game's folder by name, or a folder (or its game.yaml) given as a path."""
    p = Path(name)
    if _is_file(p) and p.name == "game.yaml":
        return p.parent
    if _is_file(p / "game.yaml"):
        return p
    bundled = data_dir("cards") / name
    if _is_file(bundled / "game.yaml"):
        return bundled
    known = bundled_games()
    hint = did_you_mean(name, known) or f"bundled games: {', '.join(known)}"
    raise AuthoringError([Diagnostic(Anchor(name, 1, 1).shifted(1, 1),
                                     f"no game `{name}`: not a bundled game nor a folder with game.yaml", hint)])


def _is_file(path: Path) -> bool:
    """`Path.is_file`, where a name the system refuses (too long, say) is no file either."""
    try:
        return path.is_file()
    except OSError:
        return False
