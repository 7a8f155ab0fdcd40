"""Drawing one card's face or back into its place on a page (a reportlab canvas), laid out by what it shows."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .fit import Fitted, fit_text
from .layout import MM, Rect
from .spec import SEAT_COLOURS, Face

FONT_FOLDER = Path(__file__).resolve().parent / "fonts"
REGULAR, BOLD = "DejaVuSansCondensed", "DejaVuSansCondensed-Bold"
"""The fonts every card is set in: DejaVu Sans Condensed covers Latin, Greek and Cyrillic (and ♠ ♥ ♦ ♣)."""

PAPER = HexColor("#fbfaf6")
INK = HexColor("#1c1c1c")
GREY = HexColor("#6b6b6b")


def register_fonts() -> None:
    """Register the bundled fonts with reportlab (once a process)."""
    names = set(pdfmetrics.getRegisteredFontNames())
    for name in (REGULAR, BOLD):
        if name not in names:
            pdfmetrics.registerFont(TTFont(name, str(FONT_FOLDER / f"{name}.ttf")))


def tint(colour: Color, share: float) -> Color:
    """The colour mixed with white, `share` of it kept."""
    return Color(1 - share * (1 - colour.red), 1 - share * (1 - colour.green), 1 - share * (1 - colour.blue))


def _lines(c: Canvas, fitted: Fitted, font: str, area: Rect, colour: Color, centred: bool = True) -> None:
    """Set fitted lines in an area, centred on it (or from its left edge)."""
    c.setFillColor(colour)
    c.setFont(font, fitted.size)
    top = area.y + (area.h + fitted.height) / 2
    for i, line in enumerate(fitted.lines):
        baseline = top - (i + 1) * fitted.leading + fitted.leading * 0.22
        if centred:
            c.drawCentredString(area.x + area.w / 2, baseline, line)
        else:
            c.drawString(area.x, baseline, line)


def _badge(c: Canvas, x: float, y: float, r: float, value: str, colour: Color) -> list[str]:
    """A round corner value centred at (x, y)."""
    c.setFillColor(colour)
    c.setStrokeColor(PAPER)
    c.setLineWidth(0.8)
    c.circle(x, y, r, stroke=1, fill=1)
    fitted = fit_text(value, BOLD, 1.6 * r, 1.5 * r, r * 1.15, 4.0)
    _lines(c, fitted, BOLD, Rect(x - r, y - r, 2 * r, 2 * r), PAPER)
    return ["a corner value"] if fitted.cut else []


def draw_face(c: Canvas, face: Face, trim: Rect, bleed: float, seat: int | None = None) -> list[str]:
    """Draw a card's face with its trim rectangle at `trim` (the frame's colour runs `bleed` past it); returns what
    had to be cut to fit (`["the text"]`), for a warning."""
    cut: list[str] = []
    unit = min(trim.w / (63.5 * MM), trim.h / (88.9 * MM), 1.3)
    colour = HexColor(SEAT_COLOURS[seat % len(SEAT_COLOURS)]) if seat is not None else HexColor(face.colour)
    c.setFillColor(colour)
    outer = trim.grown(bleed)
    c.rect(outer.x, outer.y, outer.w, outer.h, stroke=0, fill=1)
    safe = 3 * MM * unit
    panel = trim.grown(-safe)
    c.setFillColor(PAPER)
    c.roundRect(panel.x, panel.y, panel.w, panel.h, 2.5 * MM * unit, stroke=0, fill=1)
    pad = 1.4 * MM * unit
    r = 4 * MM * unit
    corners = list(face.corners) + [""] * (4 - len(face.corners))
    # the title row, between the top corners
    row = 2 * r + 2 * pad
    side = (2 * r + pad) if corners[0] or corners[1] else 0.0
    title_area = Rect(panel.x + pad + side, panel.top - row, panel.w - 2 * (pad + side), row)
    fitted = fit_text(face.title, BOLD, title_area.w, title_area.h - pad, 13 * unit, 5.0, one_line_to=9 * unit)
    _lines(c, fitted, BOLD, title_area, INK)
    if fitted.cut:
        cut.append("the title")
    for i, (x, y) in enumerate([(panel.x + pad + r, panel.top - pad - r), (panel.right - pad - r, panel.top - pad - r),
                                (panel.right - pad - r, panel.y + pad + r), (panel.x + pad + r, panel.y + pad + r)]):
        if corners[i]:
            cut += _badge(c, x, y, r, corners[i], colour)
    top = panel.top - row
    # the type line, with the seat of a card each player has
    band_text = " · ".join(t for t in (face.type_line, f"P{seat + 1}" if seat is not None else "") if t)
    if band_text:
        band = Rect(panel.x, top - 5 * MM * unit, panel.w, 5 * MM * unit)
        c.setFillColor(tint(colour, 0.85))
        c.rect(band.x, band.y, band.w, band.h, stroke=0, fill=1)
        fitted = fit_text(band_text, BOLD, band.w - 2 * pad, band.h, 8 * unit, 4.5)
        _lines(c, fitted, BOLD, band, PAPER)
        if fitted.cut:
            cut.append("the type line")
        top = band.y
    # the foot: the game and the card's id, between the bottom corners
    foot_h = (2 * r + 2 * pad) if corners[2] or corners[3] else 4 * MM * unit
    foot_side = (2 * r + pad) if corners[2] or corners[3] else 0.0
    foot = Rect(panel.x + pad + foot_side, panel.y, panel.w - 2 * (pad + foot_side), foot_h)
    _lines(c, fit_text(face.footer, REGULAR, foot.w, foot.h, 5.5 * unit, 3.0), REGULAR, foot, GREY)
    middle = Rect(panel.x + 1.5 * pad, panel.y + foot_h, panel.w - 3 * pad, top - panel.y - foot_h - pad)
    cut += _middle(c, face, middle, colour, unit)
    return cut


def _middle(c: Canvas, face: Face, area: Rect, colour: Color, unit: float) -> list[str]:
    """The stats, then the card's text, in the space between the type line and the foot; a card with neither
    shows its first corner value large."""
    cut: list[str] = []
    if not face.stats and not face.text:
        big = next((v for v in face.corners if v), "")
        if big:
            fitted = fit_text(big, BOLD, area.w * 0.8, area.h * 0.7, 72 * unit, 10.0)
            _lines(c, fitted, BOLD, area, tint(colour, 0.35))
        return cut
    stats_h = 0.0
    if face.stats:
        room = area.h * (0.4 if face.text else 1.0)
        fitted = fit_text("\n".join(face.stats), BOLD, area.w, room, 9 * unit, 4.5)
        stats_h = fitted.height + 1.5 * MM
        _lines(c, fitted, BOLD, Rect(area.x, area.top - stats_h, area.w, stats_h), colour)
        if fitted.cut:
            cut.append("the stats")
    if face.text:
        rest = Rect(area.x, area.y, area.w, area.h - stats_h)
        fitted = fit_text(face.text, REGULAR, rest.w, rest.h, 10 * unit, 5.0)
        _lines(c, fitted, REGULAR, rest, INK)
        if fitted.cut:
            cut.append("the text")
    return cut


def draw_back(c: Canvas, face: Face, trim: Rect, bleed: float, title: str, turned: bool = False) -> list[str]:
    """Draw a card's back (its deck's design, and any properties the card shows on its back) at `trim`; turned
    upside down for a sheet that is folded across."""
    cut: list[str] = []
    unit = min(trim.w / (63.5 * MM), trim.h / (88.9 * MM), 1.3)
    colour = HexColor(face.back.colour)
    c.saveState()
    if turned:
        c.translate(trim.x + trim.w / 2, trim.y + trim.h / 2)
        c.rotate(180)
        c.translate(-(trim.x + trim.w / 2), -(trim.y + trim.h / 2))
    outer = trim.grown(bleed)
    c.setFillColor(colour)
    c.rect(outer.x, outer.y, outer.w, outer.h, stroke=0, fill=1)
    safe = 3 * MM * unit
    c.setStrokeColor(tint(colour, 0.25))
    c.setLineWidth(1.2)
    inner = trim.grown(-safe)
    c.roundRect(inner.x, inner.y, inner.w, inner.h, 2.5 * MM * unit, stroke=1, fill=0)
    c.setLineWidth(0.5)
    circle_r = min(inner.w, inner.h) * 0.42
    c.circle(trim.x + trim.w / 2, trim.y + trim.h / 2, circle_r, stroke=1, fill=0)
    heading = Rect(trim.x + trim.w / 2 - circle_r * 0.8, trim.y + trim.h / 2, circle_r * 1.6, circle_r * 0.7)
    fitted = fit_text(title, BOLD, heading.w, heading.h, 17 * unit, 6.0, one_line_to=11 * unit)
    _lines(c, fitted, BOLD, heading, PAPER)
    if fitted.cut:
        cut.append("the back's title")
    if face.back.label:
        label = Rect(inner.x + 2 * MM, trim.y + trim.h / 2 - 7 * MM * unit, inner.w - 4 * MM, 6 * MM * unit)
        _lines(c, fit_text(face.back.label, REGULAR, label.w, label.h, 10 * unit, 5.0), REGULAR, label, PAPER)
    if face.back_lines:
        panel = Rect(inner.x + 2 * MM, inner.y + 2 * MM, inner.w - 4 * MM, inner.h * 0.22)
        c.setFillColor(PAPER)
        c.roundRect(panel.x, panel.y, panel.w, panel.h, 1.5 * MM, stroke=0, fill=1)
        fitted = fit_text("\n".join(face.back_lines), BOLD, panel.w - 2 * MM, panel.h - MM, 11 * unit, 5.0)
        _lines(c, fitted, BOLD, panel, INK)
        if fitted.cut:
            cut.append("the back's text")
    c.restoreState()
    return cut

