"""Stage 1's parser: a YAML file's text into plain data and its source map, by PyYAML, within the limits it is given.
Imported only for a file not read before: one taken back from the compiled-game cache needs none of it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import yaml
from yaml import MarkedYAMLError as MarkedYAMLError  # what `source` catches: a syntax error …
from yaml.constructor import SafeConstructor
from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError as ReaderError  # … and a character a YAML file may not contain

from ..diagnostics import Diagnostic, Places, Pos
from . import scalar_places
from .source_map import DataPath, Entry, SourceMap, position, readable

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


class Limit(Exception):
    """Raised at the first value past the depth or the number of values allowed (`through_aliases`: found once the
    aliases of a document are expanded)."""

    def __init__(self, mark: Mark, too_deep: bool, through_aliases: bool = False) -> None:
        super().__init__(str(mark))
        self.mark = mark
        self.too_deep = too_deep
        self.through_aliases = through_aliases


class Loader(yaml.SafeLoader):
    """PyYAML's safe loader, stopping before its recursive composer nests past `max_depth`, and as soon
    as it has composed more than `max_values` values (so a huge file costs no more than that)."""

    def __init__(self, stream: str, max_values: int, max_depth: int) -> None:
        super().__init__(stream)
        self.max_values = max_values
        self.max_depth = max_depth
        self.depth = 0
        self.values = 0
        self.anchored = False  # whether a list or mapping has an anchor (`&name`), so aliases can repeat it

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self.values += 1
        if self.values > self.max_values:
            raise Limit(self.peek_event().start_mark, False)
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
            if self.depth >= self.max_depth:  # its items would be one level deeper still
                raise Limit(self.peek_event().start_mark, True)
            return compose(anchor)
        finally:
            self.depth -= 1


def expanded_values(root: Node, max_values: int, max_depth: int) -> int:
    """The values a document stands for once its aliases are expanded; `Limit` if it nests too deep or holds too
    many (a few lines of `*alias` can stand for billions of values). Each node is measured once."""
    measured: dict[int, tuple[int, int]] = {}  # id of a node -> (values, levels) it stands for

    def measure(node: Node, depth: int) -> int:
        known = measured.get(id(node))
        if known is not None:
            values, levels = known
            if depth + levels - 1 > max_depth:
                raise Limit(node.start_mark, True)
            return values
        if depth > max_depth:
            raise Limit(node.start_mark, True)
        measured[id(node)] = (1, 1)  # a value that contains itself is reported by the builder
        children: list[Node] = []
        if isinstance(node, SequenceNode):
            children = node.value
        elif isinstance(node, MappingNode):
            children = [part for pair in node.value for part in pair]
        values = 1 + sum(measure(child, depth + 1) for child in children)
        levels = 1 + max((measured[id(child)][1] for child in children), default=0)
        if values > max_values:
            raise Limit(node.start_mark, False, through_aliases=True)
        measured[id(node)] = (values, levels)
        return values

    return measure(root, 1)


def syntax_diagnostic(file: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    """One Diagnostic at the problem mark of a PyYAML error."""
    mark = exc.problem_mark or exc.context_mark
    pos = position(file, mark) if mark else Pos(file, 1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    if exc.context and problem.startswith("but "):
        problem = f"{exc.context}, {problem}"
    hint = next((h for needle, h in _SYNTAX_HINTS.items() if needle in problem), None)
    if hint is None and exc.context and exc.context not in problem and exc.context_mark is not None:
        hint = f"{exc.context} at line {exc.context_mark.line + 1}"
    return Diagnostic(pos, f"YAML syntax: {problem}", hint)


class Builder:
    """Turns composed nodes into plain data, recording every node's position in a SourceMap."""

    def __init__(self, file: str, lines: list[str], max_digits: int, ends_with_break: bool = True) -> None:
        self.file = file
        self.lines = lines
        self.ends_with_break = ends_with_break
        self.max_digits = max_digits
        self.smap = SourceMap(file)
        self.diagnostics: list[Diagnostic] = []
        self.constructor = SafeConstructor()
        self.active: set[int] = set()

    def build(self, node: Node, path: DataPath, parent_indent: int, key_node: Node | None = None) -> Any:
        """The plain value of `node` at `path`; `parent_indent` is the enclosing block's 0-based column."""
        entry = Entry(position(self.file, node.start_mark))
        if key_node is not None:
            entry.key_pos = position(self.file, key_node.start_mark)
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
                    position(self.file, key_node.start_mark), f"duplicate key `{readable(key)}`",
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
                    position(self.file, source.start_mark), "`<<` can only merge a mapping or a list of mappings"
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
            position(self.file, node.start_mark), "a mapping key must be a plain name, not a list or mapping"
        ))
        return None

    def _scalar(self, node: ScalarNode, entry: Entry, parent_indent: int) -> Any:
        """The resolved value of a scalar; records its style and where its text starts."""
        entry.style = _STYLE_NAMES.get(node.style, "plain")
        entry.text_start = self._text_start(node, parent_indent)
        if node.tag in _TEXT_TAGS:
            self._check_escapes(node)
            entry.places = self._places(node, entry.text_start)
            return node.value
        if node.tag == _INT_TAG:
            return self._whole_number(node, entry)
        if node.tag in _CONSTRUCTED_TAGS:
            return self.constructor.construct_object(node)
        self._unsupported_tag(node, entry)
        return None

    def _places(self, node: ScalarNode, start: Pos) -> Places | None:
        """Where each character of a text was written, if not one after another from its start on one line (a text
        on several lines, or with escapes) and not a `|` text (its lines are its file's, less their indentation);
        UNKNOWN for one read otherwise than PyYAML read it."""
        first, last = node.start_mark, node.end_mark
        begin = (start.line - 1, start.col - 1)
        quoted = node.style in ("'", '"')
        as_written = begin[0] == last.line and len(node.value) == last.column - begin[1] - quoted
        if as_written or node.style == "|":
            return None
        if node.style == ">":
            header = self._skip_properties(first.line, first.column)
            text, at = scalar_places.block_places(self.lines, self.ends_with_break, header, begin[1])
        else:
            end = (last.line, last.column - quoted)  # a quoted text ends before its quote
            text, at = scalar_places.flow_places(self.lines, self.ends_with_break, node.style, begin, end)
        return scalar_places.packed(text, at) if text == node.value else scalar_places.UNKNOWN

    def _check_escapes(self, node: ScalarNode) -> None:
        """Refuse a character in "…" text that the file could not contain raw (e.g. `\\ud800`, `\\x1b`)."""
        if node.style != '"' or node.value.isprintable():  # printable text has none (and is the usual case)
            return
        bad = re.search(_NOT_PRINTABLE, node.value)  # compiled on first use: it takes milliseconds
        if bad is not None:
            code = ord(bad.group())
            what = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a control character"
            self.diagnostics.append(Diagnostic(
                position(self.file, node.start_mark), f"an escape in this text gives {what} (U+{code:04X})",
                "remove the escape; texts may contain printable characters only",
            ))

    def _whole_number(self, node: ScalarNode, entry: Entry) -> int | None:
        """A YAML integer of at most `max_digits` digits (a huge one would cost time, then fail later)."""
        # Converting text of a few dozen characters costs nothing; a longer one is too large anyway.
        digits = self.max_digits
        value = self.constructor.construct_object(node) if len(node.value) <= 2 * digits + 8 else None
        if value is None or abs(value) >= 10 ** digits:
            shown = node.value if len(node.value) <= 24 else f"{node.value[:12]}…"
            self.diagnostics.append(Diagnostic(entry.pos, f"the number {shown} is too large",
                                               f"whole numbers have at most {digits} digits"))
            return None
        return value

    def _unsupported_tag(self, node: Node, entry: Entry) -> None:
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
