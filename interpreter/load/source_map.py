"""Stage 1's map of a YAML file: where each value of its data was written, looked up by data path. Apart from the
reading of YAML (load/yaml_reader.py), so that a file taken back from the compiled-game cache needs no YAML parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..diagnostics import Places, Pos

if TYPE_CHECKING:
    from yaml.error import Mark

DataPath = tuple[str | int, ...]


@dataclass(slots=True)
class Entry:
    """What the source map knows about one value node."""

    pos: Pos
    key_pos: Pos | None = None
    text_start: Pos | None = None
    style: str | None = None
    places: Places | None = None  # of a text's characters, where they are not simply one after another


@dataclass
class SourceMap:
    """Positions in one YAML file, looked up by data path such as ('cards', 3, 'abilities', 'effect')."""

    file: str
    _entries: dict[DataPath, Entry] = field(default_factory=dict)

    def _nearest(self, path: DataPath) -> Entry | None:
        """The entry for `path`, or for its nearest recorded parent."""
        path = tuple(path)
        for end in range(len(path), -1, -1):
            entry = self._entries.get(path[:end])
            if entry is not None:
                return entry
        return None

    def pos(self, path: DataPath) -> Pos:
        """Where the value at `path` starts; falls back to the nearest known parent, then to line 1."""
        entry = self._nearest(path)
        return entry.pos if entry else Pos(self.file, 1, 1)

    def key_pos(self, path: DataPath) -> Pos:
        """Where the mapping key naming the value at `path` starts; falls back to pos(path)."""
        entry = self._entries.get(tuple(path))
        if entry is not None and entry.key_pos is not None:
            return entry.key_pos
        return self.pos(path)

    def text_start(self, path: DataPath) -> Pos:
        """Where the scalar text at `path` begins: after a quote; on the next line for `|` and `>`."""
        entry = self._entries.get(tuple(path))
        if entry is not None and entry.text_start is not None:
            return entry.text_start
        return self.pos(path)

    def places(self, path: DataPath) -> Places | None:
        """Where each character of the text at `path` was written, for a text on several lines or with escapes;
        None for a text written as it reads, on one line."""
        entry = self._entries.get(tuple(path))
        return entry.places if entry else None

    def style(self, path: DataPath) -> str | None:
        """The style of the value at `path`: of a scalar plain, single-quoted, double-quoted, literal or
        folded; of a list or mapping flow (`[a, b]`) or block; None if none is recorded."""
        entry = self._entries.get(tuple(path))
        return entry.style if entry else None


def readable(text: str, limit: int = 60) -> str:
    """Author text as it may appear inside a one-line message: what is not printable (a line break, a
    control character) as its escape, and a long text cut short."""
    text = str(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def position(file: str, mark: Mark) -> Pos:
    """A 1-based Pos from a 0-based PyYAML mark."""
    return Pos(file, mark.line + 1, mark.column + 1)
