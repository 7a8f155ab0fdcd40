"""Stage 1 of the pipeline: YAML text → plain data + a source map from data paths to file positions.

Game folders come from other people, so a file is read within fixed limits (see SECURITY.md): its size,
its line lengths, how deep its values nest and how many values it holds once aliases are expanded, the
size of its whole numbers, and the characters an escape may produce."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from yaml.constructor import SafeConstructor
from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .. import cache
from ..diagnostics import Anchor, AuthoringError, Diagnostic, Pos, remember_source

DataPath = tuple[str | int, ...]

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

_TAG = "tag:yaml.org,2002:"
_N = TypeVar("_N", SequenceNode, MappingNode)
_CONSTRUCTED_TAGS = {_TAG + name for name in ("null", "bool", "int", "float")}
_INT_TAG = _TAG + "int"
# Dates and YAML's `=` value stay text: card content has no use for datetime objects.
_TEXT_TAGS = {_TAG + name for name in ("str", "timestamp", "value")}
_MERGE_TAG = _TAG + "merge"
_COLLECTION_TAGS = {_TAG + "map", _TAG + "seq"}
_STYLE_NAMES = {None: "plain", "'": "single-quoted", '"': "double-quoted", "|": "literal", ">": "folded"}
# What a YAML file may not contain raw (PyYAML's rule), and so what an escape in "…" may not produce:
# control characters, lone surrogates (they cannot be written as UTF-8) and the non-characters U+FFFE/U+FFFF.
_NOT_PRINTABLE = r"[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]"
_SYNTAX_HINTS = {
    "'\\t'": "indent with spaces, not tabs",
    "mapping values are not allowed here": "quote a value that contains `: `, or fix this line's indentation",
    "could not find expected ':'": "a key is missing its `:`, or a line is mis-indented",
    "expected <block end>": "check the indentation of this line against the lines above it",
}


@dataclass(slots=True)
class _Entry:
    """What the source map knows about one value node."""

    pos: Pos
    key_pos: Pos | None = None
    text_start: Pos | None = None
    style: str | None = None


@dataclass
class SourceMap:
    """Positions in one YAML file, looked up by data path such as ('cards', 3, 'abilities', 'effect')."""

    file: str
    _entries: dict[DataPath, _Entry] = field(default_factory=dict)

    def _nearest(self, path: DataPath) -> _Entry | None:
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

    def style(self, path: DataPath) -> str | None:
        """The style of the value at `path`: of a scalar plain, single-quoted, double-quoted, literal or
        folded; of a list or mapping flow (`[a, b]`) or block; None if none is recorded."""
        entry = self._entries.get(tuple(path))
        return entry.style if entry else None


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
    lines = text.splitlines()
    _check_lines(file, lines)
    remember_source(file, text)
    loader = None
    try:
        loader = _Loader(text, max_values)  # which reads the text and refuses a special character in it
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise AuthoringError([_syntax_diagnostic(file, exc)]) from None
    except yaml.reader.ReaderError as exc:
        line, col = _line_col(text, exc.position)
        message = f"special character U+{exc.character:04X} is not allowed in a YAML file"
        raise AuthoringError([Diagnostic(Pos(file, line, col), message)]) from None
    except _Limit as exc:
        if not exc.too_deep and whose == "game":
            budget.values = 0
        problem = _too_deep(file, exc.mark) if exc.too_deep else _too_many(file, exc.mark, max_values, whose)
        raise AuthoringError([problem]) from None
    finally:
        if loader is not None:
            loader.dispose()
    values = loader.values
    if root is not None and loader.anchored:  # else every value was composed, and counted, once
        values = _check_expansion(file, root, max_values, whose)
    builder = _Builder(file, lines)
    data = builder.build(root, (), -1) if root is not None else None
    if builder.diagnostics:
        unique = {(d.pos, d.message): d for d in builder.diagnostics}
        raise AuthoringError(capped(sorted(unique.values(), key=lambda d: (d.pos.line, d.pos.col)), file))
    return data, builder.smap, values


def anchor(smap: SourceMap, path: DataPath) -> Anchor:
    """Where the text at `path` starts, for shifting positions inside it into the file."""
    start = smap.text_start(path)
    return Anchor(start.file, start.line, start.col, smap.style(path) in ("literal", "folded"))


def readable(text: str, limit: int = 60) -> str:
    """Author text as it may appear inside a one-line message: what is not printable (a line break, a
    control character) as its escape, and a long text cut short."""
    text = str(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


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


class _Limit(Exception):
    """Raised while composing, at the first value past MAX_DEPTH or the values allowed."""

    def __init__(self, mark: Mark, too_deep: bool) -> None:
        super().__init__(str(mark))
        self.mark = mark
        self.too_deep = too_deep


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, stopping before its recursive composer nests past MAX_DEPTH, and as soon
    as it has composed more than `max_values` values (so a huge file costs no more than that)."""

    def __init__(self, stream: str, max_values: int) -> None:
        super().__init__(stream)
        self.max_values = max_values
        self.depth = 0
        self.values = 0
        self.anchored = False  # whether a list or mapping has an anchor (`&name`), so aliases can repeat it

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self.values += 1
        if self.values > self.max_values:
            raise _Limit(self.peek_event().start_mark, False)
        return super().compose_node(parent, index)

    # `anchor` is the anchor's name or None (the stubs declare it as a dict of nodes: hence Any).
    def compose_sequence_node(self, anchor: Any) -> SequenceNode:
        return self._nested(super().compose_sequence_node, anchor)

    def compose_mapping_node(self, anchor: Any) -> MappingNode:
        return self._nested(super().compose_mapping_node, anchor)

    def _nested(self, compose: Callable[[Any], _N], anchor: str | None) -> _N:
        """Compose a list or mapping one level deeper (only these nest: scalars cost no depth)."""
        self.anchored = self.anchored or anchor is not None
        self.depth += 1
        try:
            if self.depth >= MAX_DEPTH:  # its items would be one level deeper still
                raise _Limit(self.peek_event().start_mark, True)
            return compose(anchor)
        finally:
            self.depth -= 1


def _too_deep(file: str, mark: Mark) -> Diagnostic:
    return Diagnostic(_pos(file, mark), f"values nest more than {MAX_DEPTH} levels deep",
                      "content needs only a few levels; check the brackets and indentation")


def _too_many(file: str, mark: Mark, max_values: int, whose: str, through_aliases: bool = False) -> Diagnostic:
    if whose == "game":
        return Diagnostic(_pos(file, mark), f"the game's files have more than {MAX_GAME_VALUES:,} values by here",
                          "a game's YAML files may not have more together")
    if through_aliases:
        return Diagnostic(_pos(file, mark), f"this value contains more than {max_values:,} values "
                          "once its aliases (`*name`) are expanded", "write the values out, or use fewer aliases")
    return Diagnostic(_pos(file, mark), f"the file has more than {max_values:,} values by here",
                      "split its cards over several card files")


def _check_expansion(file: str, root: Node, max_values: int, whose: str) -> int:
    """The values a document stands for once its aliases are expanded; refuse it if it nests too deep
    or holds too many (a few lines of `*alias` can stand for billions of values). Each node is
    measured once."""
    measured: dict[int, tuple[int, int]] = {}  # id of a node -> (values, levels) it stands for

    def measure(node: Node, depth: int) -> int:
        known = measured.get(id(node))
        if known is not None:
            values, levels = known
            if depth + levels - 1 > MAX_DEPTH:
                raise AuthoringError([_too_deep(file, node.start_mark)])
            return values
        if depth > MAX_DEPTH:
            raise AuthoringError([_too_deep(file, node.start_mark)])
        measured[id(node)] = (1, 1)  # a value that contains itself is reported by the builder
        children: list[Node] = []
        if isinstance(node, SequenceNode):
            children = node.value
        elif isinstance(node, MappingNode):
            children = [part for pair in node.value for part in pair]
        values = 1 + sum(measure(child, depth + 1) for child in children)
        levels = 1 + max((measured[id(child)][1] for child in children), default=0)
        if values > max_values:
            raise AuthoringError([_too_many(file, node.start_mark, max_values, whose, through_aliases=True)])
        measured[id(node)] = (values, levels)
        return values

    return measure(root, 1)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in `text`."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _syntax_diagnostic(file: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    """One Diagnostic at the problem mark of a PyYAML error."""
    mark = exc.problem_mark or exc.context_mark
    pos = _pos(file, mark) if mark else Pos(file, 1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    if exc.context and problem.startswith("but "):
        problem = f"{exc.context}, {problem}"
    hint = next((h for needle, h in _SYNTAX_HINTS.items() if needle in problem), None)
    if hint is None and exc.context and exc.context not in problem and exc.context_mark is not None:
        hint = f"{exc.context} at line {exc.context_mark.line + 1}"
    return Diagnostic(pos, f"YAML syntax: {problem}", hint)


def _pos(file: str, mark: Mark) -> Pos:
    """A 1-based Pos from a 0-based PyYAML mark."""
    return Pos(file, mark.line + 1, mark.column + 1)


class _Builder:
    """Turns composed nodes into plain data, recording every node's position in a SourceMap."""

    def __init__(self, file: str, lines: list[str]) -> None:
        self.file = file
        self.lines = lines
        self.smap = SourceMap(file)
        self.diagnostics: list[Diagnostic] = []
        self.constructor = SafeConstructor()
        self.active: set[int] = set()

    def build(self, node: Node, path: DataPath, parent_indent: int, key_node: Node | None = None) -> Any:
        """The plain value of `node` at `path`; `parent_indent` is the enclosing block's 0-based column."""
        entry = _Entry(_pos(self.file, node.start_mark))
        if key_node is not None:
            entry.key_pos = _pos(self.file, key_node.start_mark)
        self.smap._entries[path] = entry
        if id(node) in self.active:
            self.diagnostics.append(Diagnostic(entry.pos, "this alias refers to a value that contains it"))
            return None
        if isinstance(node, ScalarNode):
            return self._scalar(node, entry, parent_indent)
        assert isinstance(node, (SequenceNode, MappingNode))  # what a node that is not a scalar is
        if node.tag not in _COLLECTION_TAGS:
            self._unsupported_tag(node, entry)
        entry.style = "flow" if node.flow_style else "block"  # `[a, b]` / `{a: 1}`, or one item a line
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                indent = node.start_mark.column
                return [self.build(item, (*path, i), indent) for i, item in enumerate(node.value)]
            return {
                key: self.build(value, (*path, key), knode.start_mark.column, knode)
                for key, knode, value in self._pairs(node)
            }
        finally:
            self.active.discard(id(node))

    def _pairs(self, node: MappingNode) -> list[tuple[str, Node, Node]]:
        """The (key, key node, value node) entries of a mapping, with `<<` merges applied."""
        explicit: dict[str, tuple[Node, Node]] = {}
        merged: list[tuple[str, Node, Node]] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                merged.extend(self._merge_sources(value_node))
                continue
            key = self._key(key_node)
            if key is None:
                continue
            if key in explicit:
                first = explicit[key][0].start_mark.line + 1
                self.diagnostics.append(Diagnostic(
                    _pos(self.file, key_node.start_mark), f"duplicate key `{readable(key)}`",
                    f"`{readable(key)}` is already given at line {first}; keep only one of them",
                ))
                continue
            explicit[key] = (key_node, value_node)
        pairs = [(key, knode, vnode) for key, (knode, vnode) in explicit.items()]
        taken = set(explicit)
        for key, knode, vnode in merged:
            if key not in taken:
                taken.add(key)
                pairs.append((key, knode, vnode))
        return pairs

    def _merge_sources(self, node: Node) -> list[tuple[str, Node, Node]]:
        """The entries a `<<:` key merges in: from one mapping or a list of mappings, earlier ones first."""
        sources = node.value if isinstance(node, SequenceNode) else [node]
        entries: list[tuple[str, Node, Node]] = []
        for source in sources:
            if not isinstance(source, MappingNode):
                self.diagnostics.append(Diagnostic(
                    _pos(self.file, source.start_mark), "`<<` can only merge a mapping or a list of mappings"
                ))
                continue
            entries.extend(self._pairs(source))
        return entries

    def _key(self, node: Node) -> str | None:
        """A mapping key as written in the file (always text, so `yes:` or `1:` keep their spelling)."""
        if isinstance(node, ScalarNode):
            self._check_escapes(node)
            return node.value
        self.diagnostics.append(Diagnostic(
            _pos(self.file, node.start_mark), "a mapping key must be a plain name, not a list or mapping"
        ))
        return None

    def _scalar(self, node: ScalarNode, entry: _Entry, parent_indent: int) -> Any:
        """The resolved value of a scalar; records its style and where its text starts."""
        entry.style = _STYLE_NAMES.get(node.style, "plain")
        entry.text_start = self._text_start(node, parent_indent)
        if node.tag in _TEXT_TAGS:
            self._check_escapes(node)
            return node.value
        if node.tag == _INT_TAG:
            return self._whole_number(node, entry)
        if node.tag in _CONSTRUCTED_TAGS:
            return self.constructor.construct_object(node)
        self._unsupported_tag(node, entry)
        return None

    def _check_escapes(self, node: ScalarNode) -> None:
        """Refuse a character in "…" text that the file could not contain raw (e.g. `\\ud800`, `\\x1b`)."""
        if node.style != '"' or node.value.isprintable():  # printable text has none (and is the usual case)
            return
        bad = re.search(_NOT_PRINTABLE, node.value)  # compiled on first use: it takes milliseconds
        if bad is not None:
            code = ord(bad.group())
            what = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a control character"
            self.diagnostics.append(Diagnostic(
                _pos(self.file, node.start_mark), f"an escape in this text gives {what} (U+{code:04X})",
                "remove the escape; texts may contain printable characters only",
            ))

    def _whole_number(self, node: ScalarNode, entry: _Entry) -> int | None:
        """A YAML integer of at most MAX_DIGITS digits (a huge one would cost time, then fail later)."""
        # Converting text of a few dozen characters costs nothing; a longer one is too large anyway.
        value = self.constructor.construct_object(node) if len(node.value) <= 2 * MAX_DIGITS + 8 else None
        if value is None or abs(value) >= 10 ** MAX_DIGITS:
            shown = node.value if len(node.value) <= 24 else f"{node.value[:12]}…"
            self.diagnostics.append(Diagnostic(entry.pos, f"the number {shown} is too large",
                                               f"whole numbers have at most {MAX_DIGITS} digits"))
            return None
        return value

    def _unsupported_tag(self, node: Node, entry: _Entry) -> None:
        """Report a tag outside plain data (e.g. `!!python/object`, `!!set`, a custom `!tag`)."""
        self.diagnostics.append(Diagnostic(
            entry.pos, f"unsupported YAML tag `{node.tag.replace(_TAG, '!!')}`",
            "remove the tag; write plain text, numbers, true/false, lists and mappings",
        ))

    def _text_start(self, node: ScalarNode, parent_indent: int) -> Pos:
        """The 1-based position of the first character of the scalar's content."""
        line, col = self._skip_properties(node.start_mark.line, node.start_mark.column)
        if node.style in ("'", '"'):
            return Pos(self.file, line + 1, col + 2)
        if node.style not in ("|", ">"):
            return Pos(self.file, line + 1, col + 1)
        header = self.lines[line][col + 1:] if line < len(self.lines) else ""
        digits = [int(ch) for ch in header.split("#")[0].strip() if ch.isdigit()]
        min_indent = max(parent_indent + 1, 1)
        # PyYAML's rule: an explicit indentation digit counts from the parent block, else the text decides.
        indent = min_indent + digits[0] - 1 if digits else max(min_indent, self._auto_indent(line + 1))
        return Pos(self.file, line + 2, indent + 1)

    def _auto_indent(self, first: int) -> int:
        """A block scalar's detected indentation: the most leading spaces up to its first non-blank line."""
        widest = 0
        for text in self.lines[first:]:
            widest = max(widest, len(text) - len(text.lstrip(" ")))
            if text.strip(" "):
                break
        return widest

    def _skip_properties(self, line: int, col: int) -> tuple[int, int]:
        """Step past an anchor (`&a`) or tag (`!t`) that PyYAML counts as the start of the node."""
        if line >= len(self.lines) or self.lines[line][col:col + 1] not in ("&", "!"):
            return line, col
        while line < len(self.lines):
            text = self.lines[line]
            while col < len(text) and text[col] == " ":
                col += 1
            if col >= len(text) or text[col] == "#":
                line, col = line + 1, 0
                continue
            if text[col] not in "&!":
                break
            while col < len(text) and text[col] != " ":
                col += 1
        return line, col
