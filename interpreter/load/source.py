"""Stage 1 of the pipeline: YAML text → plain data + a source map from data paths to file positions.

Game folders come from other people, so a file is read within fixed limits (see SECURITY.md): its size,
its line lengths, how deep its values nest and how many values it holds once aliases are expanded, the
size of its whole numbers, and the characters an escape may produce."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import cache
from ..diagnostics import Anchor, AuthoringError, Diagnostic, Pos, remember_source
from .source_map import DataPath as DataPath  # the source map's names, where stage 1 always offered them
from .source_map import SourceMap, position
from .source_map import readable as readable

if TYPE_CHECKING:
    from yaml.error import Mark

MAX_FILE_BYTES = 524_288
"""The largest YAML file read (512 KiB); the bundled games' largest is about 13 KB."""
MAX_GAME_BYTES = 1_048_576
"""The most bytes a game's YAML files may have together (1 MiB); the bundled games have about 30 KB."""
MAX_LINE_CHARS = 2_000
"""The longest line of a YAML file, in characters."""
MAX_DEPTH = 32
"""How deep lists and mappings may nest (aliases expanded); content needs about 6."""
MAX_VALUES = 50_000
"""The most values (scalars, lists, mappings, keys) one file may contain once every alias is expanded;
the bundled games' largest has about 400."""
MAX_GAME_VALUES = 100_000
"""The most values a game's YAML files may contain together."""
MAX_DIGITS = 18
"""The most digits of a whole number in a YAML file."""
MAX_REPORTED = 100
"""The most errors reported for one file (the rest are counted): a broken file reports quickly."""


@dataclass(slots=True)
class Budget:
    """What the YAML files of one game may still use together; each file read takes its share."""

    bytes: int = MAX_GAME_BYTES
    values: int = MAX_GAME_VALUES

    def limits(self) -> tuple[int, int, str]:
        """The bytes and values the next file may have, and whose limit they are ("file" or "game")."""
        if self.bytes >= MAX_FILE_BYTES and self.values >= MAX_VALUES:
            return MAX_FILE_BYTES, MAX_VALUES, "file"
        return min(self.bytes, MAX_FILE_BYTES), min(self.values, MAX_VALUES), "game"


def load_yaml(path: str | Path, budget: Budget | None = None) -> tuple[Any, SourceMap]:
    """Read a YAML file into plain data (dict/list/str/int/float/bool/None) and its SourceMap; within
    the file limits, and within `budget` if given (the rest of a game's allowance, which it reduces). A file
    read whole before (the same path and text, the same engine) is taken from the compiled-game cache."""
    file = str(path)
    budget = budget or Budget()
    max_bytes, max_values, whose = budget.limits()
    try:
        raw_size, text = _read(Path(path), file, max_bytes, whose)
    except AuthoringError:
        if whose == "game":
            budget.bytes = 0  # the game's allowance is spent: later files are not read
        raise
    name = cache.value_key("yaml", file, text)
    kept = cache.read_value(name)
    if kept is not None and kept[2] <= max_values:  # read before, whole: its data, source map and values
        remember_source(file, text)
        data, smap, values = kept
        budget.bytes -= raw_size
        budget.values -= values
        return data, smap
    data, smap, values = _parse(file, text, budget, max_values, whose)
    budget.bytes -= raw_size
    budget.values -= values
    cache.write_value(name, (data, smap, values))
    return data, smap


def _parse(file: str, text: str, budget: Budget, max_values: int, whose: str) -> tuple[Any, SourceMap, int]:
    """The data and source map of a YAML file's text, and how many values it holds."""
    from . import yaml_reader  # PyYAML: only for a file not read before

    lines = text.splitlines()
    _check_lines(file, lines)
    remember_source(file, text)
    loader = None
    try:
        loader = yaml_reader.Loader(text, max_values, MAX_DEPTH)  # which reads the text and refuses a special character
        root = loader.get_single_node()
    except yaml_reader.MarkedYAMLError as exc:
        raise AuthoringError([yaml_reader.syntax_diagnostic(file, exc)]) from None
    except yaml_reader.ReaderError as exc:
        line, col = _line_col(text, exc.position)
        message = f"special character U+{exc.character:04X} is not allowed in a YAML file"
        raise AuthoringError([Diagnostic(Pos(file, line, col), message)]) from None
    except yaml_reader.Limit as exc:
        if not exc.too_deep and whose == "game":
            budget.values = 0
        problem = _too_deep(file, exc.mark) if exc.too_deep else _too_many(file, exc.mark, max_values, whose)
        raise AuthoringError([problem]) from None
    finally:
        if loader is not None:
            loader.dispose()
    values = loader.values
    if root is not None and loader.anchored:  # else every value was composed, and counted, once
        try:
            values = yaml_reader.expanded_values(root, max_values, MAX_DEPTH)
        except yaml_reader.Limit as exc:
            problem = (_too_deep(file, exc.mark) if exc.too_deep
                       else _too_many(file, exc.mark, max_values, whose, through_aliases=True))
            raise AuthoringError([problem]) from None
    builder = yaml_reader.Builder(file, lines, MAX_DIGITS, text.endswith(("\n", "\r")))
    data = builder.build(root, (), -1) if root is not None else None
    if builder.diagnostics:
        unique = {(d.pos, d.message): d for d in builder.diagnostics}
        raise AuthoringError(capped(sorted(unique.values(), key=lambda d: (d.pos.line, d.pos.col)), file))
    return data, builder.smap, values


def anchor(smap: SourceMap, path: DataPath) -> Anchor:
    """Where the text at `path` starts, for shifting positions inside it into the file."""
    start = smap.text_start(path)
    return Anchor(start.file, start.line, start.col, smap.style(path) in ("literal", "folded"), smap.places(path))


def capped(diagnostics: list[Diagnostic], file: str) -> list[Diagnostic]:
    """The first MAX_REPORTED diagnostics, then one saying how many more there are."""
    if len(diagnostics) <= MAX_REPORTED:
        return diagnostics
    rest = len(diagnostics) - MAX_REPORTED
    last = diagnostics[MAX_REPORTED].pos
    note = Diagnostic(Pos(file, last.line, last.col), f"… and {rest:,} more errors in this file",
                      "fix the ones above first")
    return [*diagnostics[:MAX_REPORTED], note]


def _read(path: Path, file: str, max_bytes: int, whose: str) -> tuple[int, str]:
    """The file's size and UTF-8 text, or an AuthoringError saying why it cannot be read."""
    try:
        with path.open("rb") as f:
            raw = f.read(max_bytes + 1)  # no more than that, even from a file that never ends
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise AuthoringError([Diagnostic(Pos(file, 1, 1), f"cannot read file: {reason}")]) from None
    if len(raw) > max_bytes:
        if whose == "file":
            problem = Diagnostic(Pos(file, 1, 1), f"file is larger than {MAX_FILE_BYTES:,} bytes",
                                 "split its cards over several card files")
        else:
            problem = Diagnostic(Pos(file, 1, 1), f"with this file the game's files are larger than "
                                 f"{MAX_GAME_BYTES:,} bytes", "a game's YAML files may not be larger together")
        raise AuthoringError([problem]) from None
    try:
        return len(raw), raw.decode("utf-8-sig")  # PyYAML does not count a byte-order mark as a column
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8")
        line, col = _line_col(before, len(before))
        problem = Diagnostic(Pos(file, line, col), "file is not valid UTF-8 text", "save the file as UTF-8")
        raise AuthoringError([problem]) from None


def _check_lines(file: str, lines: list[str]) -> None:
    """Refuse a file with an over-long line (it would also be quoted whole under every error on it)."""
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            remember_source(file, "\n".join(shown[:80] for shown in lines[:number]))  # quote a short start
            problem = Diagnostic(Pos(file, number, 1),
                                 f"line is longer than {MAX_LINE_CHARS:,} characters",
                                 "break it up: a `|` block keeps a long text on several lines")
            raise AuthoringError([problem])


def _too_deep(file: str, mark: Mark) -> Diagnostic:
    return Diagnostic(position(file, mark), f"values nest more than {MAX_DEPTH} levels deep",
                      "content needs only a few levels; check the brackets and indentation")


def _too_many(file: str, mark: Mark, max_values: int, whose: str, through_aliases: bool = False) -> Diagnostic:
    if whose == "game":
        return Diagnostic(position(file, mark), f"the game's files have more than {MAX_GAME_VALUES:,} values by here",
                          "a game's YAML files may not have more together")
    if through_aliases:
        return Diagnostic(position(file, mark), f"this value contains more than {max_values:,} values "
                          "once its aliases (`*name`) are expanded", "write the values out, or use fewer aliases")
    return Diagnostic(position(file, mark), f"the file has more than {max_values:,} values by here",
                      "split its cards over several card files")


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in `text`."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1
