"""The compiled-game cache: a game folder is compiled once and kept between processes (jinja2's bytecode cache).

An entry is named by a digest of all a compiled game depends on: the engine (its version, the Python running it,
and the bytes of its own modules, grammar and schemas: never trusted across versions, nor across edits of a
checkout), the game folder's path and the name and bytes of each of its YAML files. It holds what compiling made
(pickled) and the module's code object (marshalled). An entry is written whole or not at all (`files.write_whole`);
one that cannot be read, or holds another key, is ignored and written again. The cache lives in `$MEEPLE_CACHE`
(`off`: no cache), else in the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`) under `meeple/`; deleting
it is always safe. It keeps the `MAX_ENTRIES` newest entries.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any

from .files import OutputError, write_whole
from .paths import data_dir

ENV = "MEEPLE_CACHE"
MAX_ENTRIES = 200
_MAGIC = b"meeple compiled game 1\n"


def folder() -> Path | None:
    """Where entries are kept (None: the cache is off)."""
    chosen = os.environ.get(ENV, "")
    if chosen.lower() in ("off", "0", "no", "false"):
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA") or str(Path.home() / ".cache")
    return Path(base) / "meeple"


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """What names this engine: the Python running it, the bytes of its modules (its version among them: the
    package's `__init__.py`), grammar and schemas."""
    h = hashlib.sha256(f"{sys.version}\n{sys.implementation.cache_tag}\n".encode())
    package = Path(__file__).resolve().parent
    files = sorted(package.rglob("*.py")) + sorted(data_dir("grammar").glob("*.lark")) + \
        sorted(data_dir("schemas").glob("*.json"))
    for path in files:
        h.update(f"\0{path.relative_to(path.parent.parent)}\0".encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def key(game: Path, files: list[Path]) -> str:
    """The name of a game folder's entry: the engine, the folder, and each file's name and bytes."""
    h = hashlib.sha256(f"{engine_digest()}\0{game}\0".encode())
    for path in sorted(files):
        h.update(f"\0{path.relative_to(game)}\0".encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def read(name: str) -> tuple[Any, CodeType] | None:
    """The entry `name` (what was compiled, the code), or None if there is none or it cannot be read."""
    where = folder()
    if where is None:
        return None
    try:
        data = (where / f"{name}.pickle").read_bytes()
        if not data.startswith(_MAGIC):
            return None
        stored, built, code = pickle.loads(data[len(_MAGIC):])
        if stored != name:
            return None
        loaded = marshal.loads(code)
    except Exception:  # a missing, truncated or foreign entry: compiled again, and written again
        return None
    return (built, loaded) if isinstance(loaded, CodeType) else None


def write(name: str, built: Any, code: CodeType) -> None:
    """Keep `built` and `code` as entry `name` (silently not, where the folder cannot be written)."""
    where = folder()
    if where is None:
        return
    try:
        data = _MAGIC + pickle.dumps((name, built, marshal.dumps(code)), protocol=pickle.HIGHEST_PROTOCOL)
        where.mkdir(parents=True, exist_ok=True)
        write_whole(where / f"{name}.pickle", data)
        _prune(where)
    except (OSError, OutputError, pickle.PicklingError, ValueError):
        pass  # a cache that cannot be written only costs the next process a compile


def _prune(where: Path) -> None:
    """Remove all but the MAX_ENTRIES newest entries."""
    entries = []
    for path in where.glob("*.pickle"):
        try:
            entries.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue
    for _, path in sorted(entries, reverse=True)[MAX_ENTRIES:]:
        path.unlink(missing_ok=True)
