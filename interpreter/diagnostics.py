"""Authoring errors: one type for every mistake in game content, reported as `file:line:col: error: ...`."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

# Characters a terminal acts on instead of showing (escape sequences, line breaks) and those that reorder
# what is shown (bidirectional overrides): author text echoed in a diagnostic shows them as escapes.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True, slots=True)
class Pos:
    """A place in a source file; line and col are 1-based."""

    file: str
    line: int
    col: int

    def shifted(self, line: int, col: int) -> Pos:
        """The position `line`/`col` (1-based) inside a text that starts at self."""
        if line == 1:
            return Pos(self.file, self.line, self.col + col - 1)
        return Pos(self.file, self.line + line - 1, col)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def __reduce__(self) -> tuple[type[Pos], tuple[str, int, int]]:
        # Unpickled by a call: a frozen dataclass's own state setter costs several times more, and a source map
        # kept in the compiled-game cache holds thousands of places.
        return Pos, (self.file, self.line, self.col)


Places = tuple[tuple[tuple[int, int, int], ...], ...]
"""Where each character of a text was written: for each line of the text, its runs of characters written one
after another in the file, each as (column in the text, line in the file, column in the file), all 1-based."""


@dataclass(frozen=True, slots=True)
class Anchor:
    """Where a DSL text starts in its file; `block` texts (YAML `|`) indent every line alike. A text whose lines
    or escapes were read (a quoted, folded or plain text on several lines) has the `places` of its characters;
    empty places mean they could not be told, and every position in the text is placed at its start."""

    file: str
    line: int
    col: int
    block: bool = False
    places: Places | None = None

    def shifted(self, line: int, col: int) -> Pos:
        """The file position of 1-based `line`/`col` inside the text."""
        if self.places is not None:
            return self._placed(line, col)
        if line == 1 or self.block:
            return Pos(self.file, self.line + line - 1, self.col + col - 1)
        return Pos(self.file, self.line + line - 1, col)

    def _placed(self, line: int, col: int) -> Pos:
        """`shifted` by the places of the text's characters: a column past a line's end goes on from its last
        character; a line the places do not hold is placed at the text's start."""
        places = self.places
        if not places or not 1 <= line <= len(places) or not places[line - 1]:
            return Pos(self.file, self.line, self.col)
        runs = places[line - 1]
        found = runs[0]
        for run in runs:
            if run[0] > col:
                break
            found = run
        return Pos(self.file, found[1], found[2] + col - found[0])


@dataclass(slots=True)
class Diagnostic:
    """One authoring mistake: where, what, and how to fix it."""

    pos: Pos
    message: str
    hint: str | None = None
    severity: str = "error"  # or "warning": reported, but the content still loads

    def render(self, with_source: bool = True) -> str:
        """`file:line:col: error: message`, then the source line with a caret, then the hint; control
        characters of the file, the message or the line are shown escaped, so they cannot act on a terminal."""
        out = [shown(f"{self.pos}: {self.severity}: {self.message}")]
        if with_source:
            line = source_line(self.pos.file, self.pos.line)
            if line is not None:
                text = line.rstrip("\n")
                before = max(0, self.pos.col - 1)
                out.append("    " + shown(text).expandtabs(1))
                out.append("    " + " " * len(shown(text[:before]).expandtabs(1)) + "^")
        if self.hint:
            out.append(shown(f"  hint: {self.hint}"))
        return "\n".join(out)


@dataclass
class AuthoringError(Exception):
    """Raised before play starts when game content is broken; carries every diagnostic found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class DslSyntaxError(AuthoringError):
    """DSL text does not parse."""


_SOURCES: dict[str, list[str]] = {}


def remember_source(file: str, text: str) -> None:
    """Keep a file's text so diagnostics can quote its lines."""
    _SOURCES[file] = text.splitlines()


def source_line(file: str, line: int) -> str | None:
    """The text of one line of a remembered (or readable) file."""
    lines = _SOURCES.get(file)
    if lines is None:
        try:
            lines = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None
        _SOURCES[file] = lines
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def shown(text: str) -> str:
    """`text` with every control character but the tab (and every bidirectional override) as its escape."""
    if text.isprintable():
        return text  # the usual case: nothing to escape
    return "".join(ch.encode("unicode_escape").decode("ascii") if _unsafe(ch) else ch for ch in text)


def _unsafe(ch: str) -> bool:
    return ch != "\t" and (unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in _BIDI)


def did_you_mean(name: str, known) -> str | None:
    """A 'did you mean `x`?' hint when `name` is close to one of `known`."""
    import difflib  # only content with a mistake needs it: a warm start goes without

    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
