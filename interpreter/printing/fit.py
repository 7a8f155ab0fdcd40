"""Text fitted to a box: the largest size at which the wrapped lines fit, else the smallest one, cut with `…`."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth

LEADING = 1.18
"""Line height as a multiple of the font size."""

STEP = 0.25
"""How much smaller each try is, in points."""

ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Fitted:
    """Lines to set at `size` points, `leading` points apart; `cut`: the text did not fit even at the smallest size,
    so its end was left out (the last line ends with `…`)."""

    size: float
    leading: float
    lines: tuple[str, ...]
    cut: bool

    @property
    def height(self) -> float:
        """The height the lines take."""
        return len(self.lines) * self.leading


def width_of(text: str, font: str, size: float) -> float:
    """The width of one line of text, in points."""
    return float(stringWidth(text, font, size))


def _pieces(word: str, font: str, size: float, width: float) -> list[str]:
    """A word too wide for a line, broken into pieces that fit (each at least one character)."""
    out: list[str] = []
    piece = ""
    for ch in word:
        if piece and width_of(piece + ch, font, size) > width:
            out.append(piece)
            piece = ch
        else:
            piece += ch
    if piece:
        out.append(piece)
    return out


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """The text's lines at this size: its own line breaks kept, words wrapped at `width`, a word wider than a line
    broken into pieces."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if width_of(trial, font, size) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            if width_of(word, font, size) <= width:
                line = word
            else:
                *whole, line = _pieces(word, font, size, width)
                lines += whole
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def fit_text(text: str, font: str, width: float, height: float, largest: float, smallest: float,
             one_line_to: float | None = None) -> Fitted:
    """Fit `text` into a `width` × `height` box (points). With `one_line_to` (a title), first shrink it on one line
    from `largest` down to that size; then take the largest size from `largest` to `smallest` at which the text,
    wrapped, fits; if none does, keep the lines that fit at `smallest` and end the last with `…` (`cut`).
    No returned line is wider than `width`, and the lines are never taller than `height` (none if not even one
    line fits)."""
    size = largest
    if one_line_to is not None and "\n" not in text:
        while size >= one_line_to - 1e-9:
            if width_of(text, font, size) <= width and size * LEADING <= height + 1e-6:
                return Fitted(size, size * LEADING, (text,), False)
            size -= STEP
        size = largest
    lines: list[str] = []
    while size >= smallest - 1e-9:
        lines = wrap(text, font, size, width)
        if len(lines) * size * LEADING <= height + 1e-6:
            return Fitted(size, size * LEADING, tuple(lines), False)
        size -= STEP
    size = smallest
    lines = wrap(text, font, size, width)
    room = int((height + 1e-6) // (size * LEADING))
    kept = lines[:room]
    if kept:
        kept[-1] = _with_ellipsis(kept[-1], font, size, width)
    return Fitted(size, size * LEADING, tuple(kept), True)


def _with_ellipsis(line: str, font: str, size: float, width: float) -> str:
    """The line with `…` at its end, words (then characters) dropped until it fits."""
    words = line.split(" ")
    while words:
        trial = " ".join(words) + ELLIPSIS
        if width_of(trial, font, size) <= width:
            return trial
        if len(words) > 1:
            words.pop()
        else:
            words[0] = words[0][:-1]
            if not words[0]:
                break
    return ELLIPSIS if width_of(ELLIPSIS, font, size) <= width else ""
