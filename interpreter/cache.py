"""The compiled-game cache: a game folder is compiled once and kept between processes (jinja2's bytecode cache).

An entry is named by a digest of all a compiled game depends on: the engine (its version, the Python running it,
and the bytes of its own modules, grammar and schemas: never trusted across versions, nor across edits of a
checkout), the game folder's path and the name and bytes of each of its YAML files. It holds what compiling made
(pickled) and the module's code object (marshalled). Beside compiled games it keeps values a command would
otherwise work out again each time (`read_value`, `write_value`: a YAML file read into data and its source map,
a file's data found to pass its schema), each named by the engine and all it was made from. An entry is written
whole or not at all (`files.write_whole`); one that cannot be read, or holds another key, is ignored and written
again. The cache lives in `$MEEPLE_CACHE` (`off`: no cache), else in the user's cache folder (`$XDG_CACHE_HOME`,
else `~/.cache`) under `meeple/` (kept values under `meeple/values/`); deleting it is always safe. It keeps the
`MAX_ENTRIES` newest compiled games and the `MAX_VALUES` newest values (an eighth more before it prunes).
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
MAX_VALUES = 1000
_MAGIC = b"meeple compiled game 1\n"
_VALUE_MAGIC = b"meeple kept value 1\n"


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
    package's `__init__.py`), grammar and schemas. Worked out from the bytes once for a given set of those files
    as they stand (each one's path, size and time of last change, as Python's own bytecode cache tells a source
    changed) and kept: a later process only looks at them."""
    head = f"{sys.version}\n{sys.implementation.cache_tag}\n"
    files = _engine_files()
    stand = hashlib.sha256(head.encode())
    for path in files:
        st = os.stat(path)
        stand.update(f"\0{path}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    name = stand.hexdigest()
    kept = read_value(name)
    if isinstance(kept, str):
        return kept
    h = hashlib.sha256(head.encode())
    for path in files:
        h.update(f"\0{os.path.basename(os.path.dirname(path))}/{os.path.basename(path)}\0".encode())
        with open(path, "rb") as f:
            h.update(f.read())
    digest = h.hexdigest()
    write_value(name, digest)
    return digest


def _engine_files() -> list[str]:
    """The engine's modules, grammar and schemas (plain paths, sorted: walking and sorting `Path`s cost more
    than hashing their bytes)."""
    files = sorted(_modules(os.path.dirname(os.path.abspath(__file__))))
    for kind, suffix in (("grammar", ".lark"), ("schemas", ".json")):
        where = str(data_dir(kind))
        files += sorted(os.path.join(where, name) for name in os.listdir(where) if name.endswith(suffix))
    return files


def _modules(folder: str) -> list[str]:
    """The paths of the `.py` files in `folder` and its subfolders, bytecode folders left out (read with
    `os.scandir`: a third of what `os.walk` costs, which lists the bytecode too)."""
    found: list[str] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir():
                if entry.name != "__pycache__":
                    found += _modules(entry.path)
            elif entry.name.endswith(".py"):
                found.append(entry.path)
    return found


def key(game: Path, files: list[Path]) -> str:
    """The name of a game folder's entry: the engine, the folder, and each file's name and bytes."""
    h = hashlib.sha256(f"{engine_digest()}\0{game}\0".encode())
    for path in sorted(files):
        h.update(f"\0{path.relative_to(game)}\0".encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def read(name: str) -> tuple[Any, CodeType] | None:
    """The entry `name` (what was compiled, the code), or None if there is none or it cannot be read."""
    kept = _read(folder(), name, _MAGIC)
    if kept is None:
        return None
    try:
        built, code = kept[1:]
        loaded = marshal.loads(code)
    except Exception:  # a foreign entry: compiled again, and written again
        return None
    return (built, loaded) if isinstance(loaded, CodeType) else None


def write(name: str, built: Any, code: CodeType) -> None:
    """Keep `built` and `code` as entry `name` (silently not, where the folder cannot be written)."""
    _write(folder(), name, _MAGIC, (name, built, marshal.dumps(code)), MAX_ENTRIES)


def value_key(kind: str, *parts: str | bytes) -> str:
    """The name of a kept value: the engine, what kind of value it is, and all it was made from."""
    h = hashlib.sha256(f"{engine_digest()}\0{kind}".encode())
    for part in parts:
        h.update(b"\0")
        h.update(part if isinstance(part, bytes) else part.encode())
    return h.hexdigest()


def read_value(name: str) -> Any | None:
    """A value kept by `write_value` (a file read into data, a check it passed), or None."""
    kept = _read(_values(), name, _VALUE_MAGIC)
    return None if kept is None else kept[1]


def write_value(name: str, value: Any) -> None:
    """Keep `value` as entry `name`, for a later process to read instead of working it out again."""
    _write(_values(), name, _VALUE_MAGIC, (name, value), MAX_VALUES)


def _values() -> Path | None:
    """Where kept values are: a folder of their own in the cache."""
    where = folder()
    return None if where is None else where / "values"


def _read(where: Path | None, name: str, magic: bytes) -> tuple | None:
    """Entry `name` of the folder: the tuple it holds (its name first), or None."""
    if where is None:
        return None
    try:
        data = (where / f"{name}.pickle").read_bytes()
        if not data.startswith(magic):
            return None
        kept = pickle.loads(data[len(magic):])
    except Exception:  # a missing, truncated or foreign entry: worked out again, and written again
        return None
    return kept if isinstance(kept, tuple) and kept and kept[0] == name else None


def _write(where: Path | None, name: str, magic: bytes, entry: tuple, keep: int) -> None:
    """Write `entry` (its name first) as entry `name` of the folder, keeping its `keep` newest."""
    if where is None:
        return
    try:
        data = magic + pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        where.mkdir(parents=True, exist_ok=True)
        write_whole(where / f"{name}.pickle", data)
        _prune(where, keep)
    except (OSError, OutputError, pickle.PicklingError, ValueError, TypeError, AttributeError):
        pass  # a cache that cannot be written only costs the next process the work


def _prune(where: Path, keep: int) -> None:
    """Remove all but the `keep` newest entries once the folder holds more than `keep` and an eighth. Entries are
    counted by name alone; only in a folder past that slack are their times looked at: a write to a cache under it
    stats no entry, and a full cache pays for the stats once in `keep // 8` writes, not at each one."""
    with os.scandir(where) as found:
        entries = [entry for entry in found if entry.name.endswith(".pickle")]
    if len(entries) <= keep + keep // 8:
        return
    dated = []
    for entry in entries:
        try:
            dated.append((entry.stat().st_mtime_ns, entry.path))
        except OSError:
            continue
    for _, path in sorted(dated, reverse=True)[keep:]:
        Path(path).unlink(missing_ok=True)
