"""Reload on save: the served games' folders are watched, and a game whose YAML files changed is loaded again.

New tables then use the new rules; each open table of the game is told (its designer's page offers to play
the same decisions again on them); broken content is told as `file:line:col: error: …` (the file named
within the game's folder) and the tables play on by the rules they had. Only the folders of the games
served are read (those named on the command line, or the bundled ones).
"""

from __future__ import annotations

import contextlib
import threading
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import AuthoringError
from ..game import load_game
from ..run.tracebacks import show_rules_lines

if TYPE_CHECKING:
    from ..game import Game
    from .tables import Tables


def _stamps(folder: Path) -> tuple:
    """What tells that a YAML file of the folder changed, appeared or went."""
    found = []
    for path in folder.rglob("*"):
        if path.suffix in (".yaml", ".yml"):
            try:
                st = path.stat()
            except OSError:
                continue
            found.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(sorted(found))


def _relative(text: str, folder: Path) -> str:
    """A diagnostic's lines with the game's folder left out of its file names."""
    return text.replace(str(folder) + "/", "").replace(str(folder), ".")


def errors_of(err: Exception, folder: Path) -> list[str]:
    """What is wrong with a game's content, one `file:line:col: error: message` a mistake; any exception but an
    authoring error is a fault of the engine, not of the content: said so, to be reported."""
    if isinstance(err, AuthoringError):
        return [_relative(d.render(with_source=False), folder) for d in err.diagnostics
                if d.severity == "error"] or [_relative(str(err), folder)]
    return [_relative(f"internal error (please report it): {type(err).__name__}: {err}", folder)]


def _print_fault(err: Exception) -> None:
    """An engine fault's traceback, printed with the rules' lines before the generated ones it passes through."""
    with contextlib.suppress(Exception):  # (printed with the rules' lines or without them)
        show_rules_lines(err)
    traceback.print_exception(err)


class Watcher:
    """Looks at the served games' folders (`check`, or every `every` seconds from `start`)."""

    def __init__(self, games: dict[str, Game], tables: Tables) -> None:
        self.games = games
        self.tables = tables
        self.errors: dict[str, list[str]] = {}  # a game whose files are broken now: what is wrong
        self._folders = {name: Path(game.model.root) for name, game in games.items()}
        self._seen = {name: _stamps(folder) for name, folder in self._folders.items()}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self) -> list[str]:
        """Load again each game whose files changed since the last look; the names of those."""
        changed = []
        for name, folder in self._folders.items():
            now = _stamps(folder)
            if now == self._seen[name]:
                continue
            self._seen[name] = now
            changed.append(name)
            try:
                game: Game | None = load_game(folder)
                errors = None
            except Exception as err:  # broken content, or a file gone: told, and the old rules kept
                game, errors = None, errors_of(err, folder)
                if not isinstance(err, AuthoringError):  # the engine's fault: its traceback on the server's console
                    _print_fault(err)
            if game is not None:
                self.games[name] = game
                self.errors.pop(name, None)
            else:
                assert errors is not None
                self.errors[name] = errors
            for table in self.tables.of_folder(str(folder)):
                with table.lock:
                    table.rules_changed(game, errors)
        return changed

    def start(self, every: float) -> None:
        self._thread = threading.Thread(target=self._run, args=(every,), name="meeple-watch", daemon=True)
        self._thread.start()

    def _run(self, every: float) -> None:
        while not self._stop.wait(every):
            self.check()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
