"""Where each character of a YAML text was written in its file, whatever the scalar's style: a quoted text folds its
line breaks and reads its escapes (`\\n`, `\\"`, `''`), a plain text folds, `>` folds, `|` drops the indentation.

The places of a text are kept as `Places`: for each line of the text (split at "\\n"), its runs of characters written
one after another in the file, each run as (column in the text, line in the file, column in the file), all 1-based.
The reading follows PyYAML's scanner; the text it gives is compared with PyYAML's own value, and a text read
otherwise (a line break other than "\\n", say) gets no places but `UNKNOWN`: its places are its start."""

from __future__ import annotations

from yaml.scanner import Scanner

from ..diagnostics import Places

Run = tuple[int, int, int]
UNKNOWN: Places = ()
"""The places of a text that could not be read again: every position in it is placed at its start."""

_REPLACEMENTS: dict[str, str] = Scanner.ESCAPE_REPLACEMENTS
_CODES: dict[str, int] = Scanner.ESCAPE_CODES


class _Reader:
    """A cursor over a file's lines (0-based line and column), writing down each character of the text it reads
    together with its place."""

    def __init__(self, lines: list[str], ends_with_break: bool, line: int, col: int) -> None:
        self.lines = lines
        self.ends_with_break = ends_with_break
        self.line = line
        self.col = col
        self.chars: list[str] = []
        self.at: list[tuple[int, int]] = []

    def peek(self, ahead: int = 0) -> str:
        """The character `ahead` of the cursor on its line: "\\n" at the line's end, "\\0" past the file's."""
        if self.line >= len(self.lines):
            return "\0"
        text = self.lines[self.line]
        col = self.col + ahead
        if col < len(text):
            return text[col]
        if col == len(text) and (self.line < len(self.lines) - 1 or self.ends_with_break):
            return "\n"
        return "\0"

    def forward(self, count: int = 1) -> None:
        for _ in range(count):
            if self.peek() == "\n":
                self.line, self.col = self.line + 1, 0
            else:
                self.col += 1

    def here(self) -> tuple[int, int]:
        return self.line, self.col

    def emit(self, chars: str, at: tuple[int, int]) -> None:
        for ch in chars:
            self.chars.append(ch)
            self.at.append(at)

    def take(self) -> None:
        """Write down the character under the cursor as itself, and move on."""
        self.emit(self.peek(), self.here())
        self.forward()

    def blank_lines(self, before: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """Skip the blanks of this line and of the empty lines after it; the places of the empty lines' breaks."""
        breaks: list[tuple[int, int]] = []
        while before is None or self.here() < before:
            while self.peek() in " \t":
                self.forward()
            if self.peek() != "\n":
                break
            breaks.append(self.here())
            self.forward()
        return breaks


def flow_places(lines: list[str], ends_with_break: bool, style: str | None, start: tuple[int, int],
                end: tuple[int, int]) -> tuple[str, list[tuple[int, int]]]:
    """The text of a plain or quoted scalar (`style` None, "'" or '"') whose content runs from `start` up to `end`
    (0-based; for a quoted one `end` is its closing quote), and the place of each of its characters."""
    reader = _Reader(lines, ends_with_break, *start)
    while reader.here() < end and reader.peek() != "\0":
        ch = reader.peek()
        if ch in " \t\n":
            _flow_spaces(reader, end)
        elif style == '"' and ch == "\\":
            _escape(reader, end)
        elif style == "'" and ch == "'" and reader.peek(1) == "'":
            reader.emit("'", reader.here())
            reader.forward(2)
        else:
            reader.take()
    return "".join(reader.chars), reader.at


def _flow_spaces(reader: _Reader, end: tuple[int, int]) -> None:
    """Blanks inside a flow scalar: kept on a line; around a line break folded, one break to a space and
    each further one (an empty line) kept."""
    spaces: list[tuple[int, int]] = []
    while reader.peek() in " \t" and reader.here() < end:
        spaces.append(reader.here())
        reader.take()
    if reader.peek() != "\n" or reader.here() >= end:
        return
    del reader.chars[len(reader.chars) - len(spaces):], reader.at[len(reader.at) - len(spaces):]
    fold = reader.here()
    reader.forward()
    breaks = reader.blank_lines(end)
    for place in breaks:
        reader.emit("\n", place)
    if not breaks:
        reader.emit(" ", fold)


def _escape(reader: _Reader, end: tuple[int, int]) -> None:
    """An escape of a double-quoted scalar: one character placed at its backslash, or an escaped line break."""
    at = reader.here()
    ch = reader.peek(1)
    if ch in _REPLACEMENTS:
        reader.emit(_REPLACEMENTS[ch], at)
        reader.forward(2)
    elif ch in _CODES:
        digits = "".join(reader.peek(2 + i) for i in range(_CODES[ch]))
        reader.emit(chr(int(digits, 16)), at)
        reader.forward(2 + len(digits))
    elif ch == "\n":
        reader.forward(2)
        for place in reader.blank_lines(end):
            reader.emit("\n", place)
    else:
        reader.take()  # not an escape PyYAML reads: the comparison with its value finds it


def block_places(lines: list[str], ends_with_break: bool, header: tuple[int, int], indent: int
                 ) -> tuple[str, list[tuple[int, int]]]:
    """The text of a `|` or `>` scalar whose indicator is at `header` (0-based), its lines indented by `indent`
    columns, and the place of each of its characters (a break's is the end of its line)."""
    text = lines[header[0]][header[1]:].split("#")[0]
    folded, chomping = text.startswith(">"), ("+" in text) or (False if "-" in text else None)
    reader = _Reader(lines, ends_with_break, header[0] + 1, 0)
    breaks = _block_breaks(reader, indent)
    line_break: tuple[str, tuple[int, int]] = ("", reader.here())
    while reader.col == indent and reader.peek() != "\0":
        for place in breaks:
            reader.emit("\n", place)
        leading_non_space = reader.peek() not in " \t"
        while reader.peek() not in "\0\n":
            reader.take()
        line_break = (reader.peek().replace("\0", ""), reader.here())
        reader.forward()
        breaks = _block_breaks(reader, indent)
        if not (reader.col == indent and reader.peek() != "\0"):
            break
        if not (folded and line_break[0] == "\n" and leading_non_space and reader.peek() not in " \t"):
            reader.emit(*line_break)
        elif not breaks:
            reader.emit(" ", line_break[1])
    if chomping is not False:
        reader.emit(*line_break)
    if chomping is True:
        for place in breaks:
            reader.emit("\n", place)
    return "".join(reader.chars), reader.at


def _block_breaks(reader: _Reader, indent: int) -> list[tuple[int, int]]:
    """PyYAML's breaks of a block scalar: its indentation skipped, the places of the empty lines' breaks."""
    breaks: list[tuple[int, int]] = []
    while reader.col < indent and reader.peek() == " ":
        reader.forward()
    while reader.peek() == "\n":
        breaks.append(reader.here())
        reader.forward()
        while reader.col < indent and reader.peek() == " ":
            reader.forward()
    return breaks


def packed(text: str, at: list[tuple[int, int]]) -> Places:
    """The places of `text`'s characters (0-based line and column each) as runs, line by line of the text."""
    lines: list[tuple[Run, ...]] = []
    runs: list[Run] = []
    col, last = 1, (-1, -1)
    for ch, (line, column) in zip(text, at, strict=True):
        if not runs or (line, column) != (last[0], last[1] + 1):
            runs.append((col, line + 1, column + 1))
        last = (line, column)
        if ch == "\n":
            lines.append(tuple(runs))
            runs, col = [], 1
        else:
            col += 1
    if not runs and at:  # after a last line break: just past it
        runs.append((1, last[0] + 1, last[1] + 2))
    lines.append(tuple(runs))
    return tuple(lines)

