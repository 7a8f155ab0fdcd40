"""Where cards go on a sheet: papers and card sizes, the grid, the backs (mirrored or folded), the crop marks.

Lengths are given in millimetres and kept in PDF points (1/72 in) from here on; `y` grows upwards, as in PDF.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

MM = 72 / 25.4
"""Points in a millimetre."""

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
SIZES = {"poker": (63.5, 88.9), "bridge": (57.15, 88.9), "mini": (44.45, 63.5)}
"""Card sizes in mm: poker 2.5 × 3.5 in, bridge 2.25 × 3.5 in, mini 1.75 × 2.5 in."""

BACKS = ("mirrored", "fold", "none")

MARGIN = 5.0
"""mm from the paper's edge to any card's bleed: most printers cannot print nearer."""
FOLD_GAP = 4.0
"""mm from a fold line to any card's bleed."""
GUTTER = 8.0
"""The widest gap between two cards, in mm: room for both cards' crop marks."""
MARK_GAP = 1.0
"""mm between a card's bleed and its crop marks."""
MARK_LENGTH = 3.0
"""mm: a crop mark's full length."""
SHORTEST_MARK = 1.0
"""mm: a mark with less room than this is left out (the cut line is marked at the sheet's edge)."""

SMALLEST_CARD = 20.0
LARGEST_BLEED = 10.0
LARGEST_OFFSET = 20.0


class PrintError(Exception):
    """Options or content that cannot be printed; the message says why (one line)."""


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle in points: lower left corner, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grown(self, d: float) -> Rect:
        """The rectangle `d` points larger on every side."""
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


Line = tuple[float, float, float, float]
"""A crop mark: from (x1, y1) to (x2, y2), in points."""


# ---- the options -------------------------------------------------------------------------------------


_NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def parse_size(text: str) -> tuple[float, float]:
    """A card size: `poker`, `bridge`, `mini` or `WxH` in mm (`63x88`, `63.5x88.9mm`); ValueError says why."""
    word = text.strip().lower()
    if word in SIZES:
        return SIZES[word]
    found = re.fullmatch(rf"({_NUMBER})\s*[x×]\s*({_NUMBER})\s*(?:mm)?", word)
    if not found:
        raise ValueError(f"must be poker, bridge, mini or WIDTHxHEIGHT in mm (63x88), not {text!r}")
    w, h = float(found[1]), float(found[2])
    if min(w, h) < SMALLEST_CARD:
        raise ValueError(f"a card must be at least {SMALLEST_CARD:g} mm a side, not {w:g}x{h:g}")
    return w, h


def parse_bleed(text: str) -> float:
    """A bleed in mm, from 0 to LARGEST_BLEED; ValueError says why."""
    found = re.fullmatch(rf"\s*(-?{_NUMBER})\s*(?:mm)?\s*", text)
    if not found:
        raise ValueError(f"must be a length in mm (3 or 0.5), not {text!r}")
    value = float(found[1])
    if value < 0 or value > LARGEST_BLEED:
        raise ValueError(f"must be from 0 to {LARGEST_BLEED:g} mm, not {value:g}")
    return value


def parse_offset(text: str) -> tuple[float, float]:
    """`X,Y` in mm (each may be negative, at most LARGEST_OFFSET); ValueError says why."""
    found = re.fullmatch(rf"\s*([+-]?{_NUMBER})\s*,\s*([+-]?{_NUMBER})\s*", text)
    if not found:
        raise ValueError(f"must be X,Y in mm (0.5,-1), not {text!r}")
    x, y = float(found[1]), float(found[2])
    if max(abs(x), abs(y)) > LARGEST_OFFSET:
        raise ValueError(f"each part must be within ±{LARGEST_OFFSET:g} mm, not {text.strip()}")
    return x, y


# ---- sheets ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sheet:
    """The layout of one sheet: its page size, each card's trim rectangle on the fronts page and where that card's
    back goes (on the backs page, or on the same page when folded), the crop marks of each side."""

    width: float
    height: float
    bleed: float
    fronts: tuple[Rect, ...]
    backs: tuple[Rect, ...]  # empty: no backs
    backs_turned: bool  # each back drawn upside down (a sheet folded along a horizontal line)
    folded: bool  # the backs are on the fronts' page, beyond the fold line
    fold: Line | None
    front_marks: tuple[Line, ...]
    back_marks: tuple[Line, ...]

    @property
    def per_sheet(self) -> int:
        return len(self.fronts)


def _grid(cell: float, room: float) -> tuple[int, float]:
    """How many cells of `cell` points fit in `room` points, and the gap between them (up to GUTTER)."""
    count = int((room + 1e-6) // cell)
    if count <= 1:
        return count, 0.0
    return count, min(GUTTER * MM, (room - count * cell) / (count - 1))


def _slots(x0: float, top: float, cols: int, rows: int, cell_w: float, cell_h: float, gx: float, gy: float,
           bleed: float) -> list[Rect]:
    """Trim rectangles of a grid whose first bleed box has its top left corner at (x0, top), row by row from the
    top."""
    out = []
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (cell_w + gx)
            y = top - (r + 1) * cell_h - r * gy
            out.append(Rect(x + bleed, y + bleed, cell_w - 2 * bleed, cell_h - 2 * bleed))
    return out


def too_small(paper: str, size: tuple[float, float], bleed: float) -> PrintError:
    w, h = size
    return PrintError(f"a {w:g}x{h:g} mm card with {bleed:g} mm bleed does not fit on {paper} paper "
                      f"(the sheet keeps {MARGIN:g} mm margins); choose a smaller --size or --bleed")


def sheet_layout(paper: str, size: tuple[float, float], bleed_mm: float, backs: str,
                 offset: tuple[float, float] = (0.0, 0.0)) -> Sheet:
    """The layout of every sheet for these options: as many cards as fit (9 poker cards on A4 or Letter), centred;
    PrintError if not even one fits."""
    pw, ph = (v * MM for v in PAPERS[paper])
    bleed = bleed_mm * MM
    cell_w, cell_h = size[0] * MM + 2 * bleed, size[1] * MM + 2 * bleed
    dx, dy = offset[0] * MM, offset[1] * MM
    margin = MARGIN * MM
    if backs == "fold":
        return _fold_layout(paper, size, bleed_mm, pw, ph, cell_w, cell_h, dx, dy)
    cols, gx = _grid(cell_w, pw - 2 * margin)
    rows, gy = _grid(cell_h, ph - 2 * margin)
    if cols == 0 or rows == 0:
        raise too_small(paper, size, bleed_mm)
    used_w, used_h = cols * cell_w + (cols - 1) * gx, rows * cell_h + (rows - 1) * gy
    fronts = _slots((pw - used_w) / 2, (ph + used_h) / 2, cols, rows, cell_w, cell_h, gx, gy, bleed)
    marks = crop_marks(fronts, bleed, pw, ph)
    if backs == "none":
        return Sheet(pw, ph, bleed, tuple(fronts), (), False, False, None, tuple(marks), ())
    # printed on the other side and turned over along the long edge: left and right change places
    back_slots = [Rect(pw - r.right + dx, r.y + dy, r.w, r.h) for r in fronts]
    return Sheet(pw, ph, bleed, tuple(fronts), tuple(back_slots), False, False, None, tuple(marks),
                 tuple(crop_marks(back_slots, bleed, pw, ph)))


def _fold_layout(paper: str, size: tuple[float, float], bleed_mm: float, pw: float, ph: float, cell_w: float,
                 cell_h: float, dx: float, dy: float) -> Sheet:
    """Fronts on one half of the page, backs on the other, mirrored across the fold line: folded along it and
    glued, each back lies under its front. Of the two ways (portrait, folded across; landscape, folded down the
    middle) the one holding more cards."""
    margin, gap = MARGIN * MM, FOLD_GAP * MM
    across_cols, across_gx = _grid(cell_w, pw - 2 * margin)
    across_rows, across_gy = _grid(cell_h, ph / 2 - margin - gap)
    down_cols, down_gx = _grid(cell_w, ph / 2 - margin - gap)
    down_rows, down_gy = _grid(cell_h, pw - 2 * margin)
    bleed = bleed_mm * MM
    if max(across_cols * across_rows, down_cols * down_rows) == 0:
        raise too_small(paper, size, bleed_mm)
    if across_cols * across_rows >= down_cols * down_rows:
        cols, rows, gx, gy = across_cols, across_rows, across_gx, across_gy
        used_w, used_h = cols * cell_w + (cols - 1) * gx, rows * cell_h + (rows - 1) * gy
        fronts = _slots((pw - used_w) / 2, ph - margin - (ph / 2 - margin - gap - used_h) / 2, cols, rows,
                        cell_w, cell_h, gx, gy, bleed)
        back_slots = [Rect(r.x + dx, ph - r.top + dy, r.w, r.h) for r in fronts]
        fold: Line = (0.0, ph / 2, pw, ph / 2)
        turned, width, height = True, pw, ph
    else:
        width, height = ph, pw  # landscape
        cols, rows, gx, gy = down_cols, down_rows, down_gx, down_gy
        used_w, used_h = cols * cell_w + (cols - 1) * gx, rows * cell_h + (rows - 1) * gy
        fronts = _slots(margin + (width / 2 - margin - gap - used_w) / 2, (height + used_h) / 2, cols, rows,
                        cell_w, cell_h, gx, gy, bleed)
        back_slots = [Rect(width - r.right + dx, r.y + dy, r.w, r.h) for r in fronts]
        fold = (width / 2, 0.0, width / 2, height)
        turned = False
    marks = crop_marks(fronts + back_slots, bleed, width, height)
    return Sheet(width, height, bleed, tuple(fronts), tuple(back_slots), turned, True, fold, tuple(marks), ())


def shop_layout(size: tuple[float, float], bleed_mm: float) -> Sheet:
    """One card a page, the page its bleed size: for a print shop (no marks; the PDF's trim box says where to
    cut)."""
    bleed = bleed_mm * MM
    w, h = size[0] * MM, size[1] * MM
    card = Rect(bleed, bleed, w, h)
    return Sheet(w + 2 * bleed, h + 2 * bleed, bleed, (card,), (card,), False, False, None, (), ())


def crop_marks(trims: list[Rect], bleed: float, width: float, height: float) -> list[Line]:
    """Every card's crop marks: each trim line carried on past the card's bleed (MARK_GAP away, MARK_LENGTH long),
    shortened where another card's bleed or the paper's edge comes first, and left out if shorter than
    SHORTEST_MARK (the same cut line is then marked at the sheet's edge)."""
    boxes = [t.grown(bleed) for t in trims]
    marks: list[Line] = []
    for trim, own in zip(trims, boxes, strict=True):
        for x in (trim.x, trim.right):
            marks += _line_marks(own, boxes, x, True, height)
        for y in (trim.y, trim.top):
            marks += _line_marks(own, boxes, y, False, width)
    return marks


def _line_marks(own: Rect, boxes: list[Rect], at: float, vertical: bool, size: float) -> list[Line]:
    """The marks of one trim line of the card whose bleed box is `own` (`at`: the x of a vertical line, the y of a
    horizontal one; `size`: the paper's size along it): down from under the card and up from over it (left of it
    and right of it)."""
    gap, longest, shortest = MARK_GAP * MM, MARK_LENGTH * MM, SHORTEST_MARK * MM
    edge = 1.0 * MM  # no mark nearer the paper's edge than this
    low, high = (own.y, own.top) if vertical else (own.x, own.right)
    marks: list[Line] = []
    for start, sign in ((low - gap, -1), (high + gap, 1)):
        room = (start - edge) if sign < 0 else (size - edge - start)
        for b in boxes:
            along, across = ((b.y, b.top), (b.x, b.right)) if vertical else ((b.x, b.right), (b.y, b.top))
            if b is not own and across[0] - gap <= at <= across[1] + gap:
                room = min(room, _free(start, sign, along[0], along[1], gap))
        length = min(longest, room)
        if length >= shortest:
            end = start + sign * length
            marks.append((at, start, at, end) if vertical else (start, at, end, at))
    return marks


def _free(start: float, sign: int, low: float, high: float, gap: float) -> float:
    """How far a mark may run from `start` (down if `sign` < 0, else up) before it comes within `gap` of a box
    spanning `low`..`high` along its line (no limit if the box is behind it; 0 if the start is already too near)."""
    if sign < 0:
        if low >= start:
            return math.inf
        return 0.0 if high > start - 1e-6 else start - high - gap
    if high <= start:
        return math.inf
    return 0.0 if low < start + 1e-6 else low - gap - start


def sheets_needed(copies: int, per_sheet: int) -> int:
    """How many sheets `copies` cards take."""
    return max(1, math.ceil(copies / per_sheet))
