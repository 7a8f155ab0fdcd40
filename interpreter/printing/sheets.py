"""The print-and-play PDF: every card in its count of copies, sheet by sheet, fronts then backs; or one card a page
for a print shop; or one PNG image a card."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from ..diagnostics import did_you_mean
from ..load.model import CardDef
from .faces import GREY, REGULAR, draw_back, draw_face, register_fonts
from .fit import fit_text, width_of
from .layout import MM, Line, PrintError, Rect, Sheet, sheet_layout, sheets_needed, shop_layout
from .spec import Face, PrintSpec


@dataclass(frozen=True)
class PrintOptions:
    """What `meeple print` was asked for (lengths in mm)."""

    paper: str = "a4"
    size: tuple[float, float] = (63.5, 88.9)
    bleed: float = 0.0
    backs: str = "mirrored"
    offset: tuple[float, float] = (0.0, 0.0)
    shop: bool = False
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Copy:
    """One card to print: its definition, the seat whose copy it is (a card each player has), how it looks."""

    card: CardDef
    seat: int | None
    face: Face

    @property
    def label(self) -> str:
        """The card's id, with the seat of a card each player has (`card-1-p2`)."""
        return self.card.id if self.seat is None else f"{self.card.id}-p{self.seat + 1}"


@dataclass
class Printed:
    """A finished PDF and what it holds."""

    data: bytes
    pages: int
    copies: int
    sheets: int
    per_sheet: int
    warnings: list[str] = field(default_factory=list)


def copies(cards: list[CardDef], spec: PrintSpec, players: int, chosen: tuple[str, ...] = ()) -> list[Copy]:
    """Every copy to print, in the order of the card files: each card `count` times, and a card each player has
    `count` times for each of `players` seats; only the `chosen` ids if any (PrintError for an unknown one)."""
    ids = [c.id for c in cards]
    for wanted in chosen:
        if wanted not in ids:
            hint = did_you_mean(wanted, ids)
            raise PrintError(f"no card `{wanted}` in the game" + (f"; {hint}" if hint else
                                                                   " (`meeple cards GAME` lists the ids)"))
    out: list[Copy] = []
    each: list[tuple[CardDef, Face]] = []
    at = 0
    for card in cards:
        if chosen and card.id not in chosen:
            continue
        if card.each_player:
            if not each:
                at = len(out)
            each.append((card, spec.face(card)))
        else:
            out += [Copy(card, None, spec.face(card))] * card.count
    # a card each player has: one set a seat, seat by seat, where the first such card is
    out[at:at] = [Copy(card, seat, face) for seat in range(players) for card, face in each for _ in range(card.count)]
    if not out:
        raise PrintError("the game has no card to print")
    return out


def _canvas(buffer: io.BytesIO, width: float, height: float, title: str) -> Canvas:
    register_fonts()
    c = Canvas(buffer, pagesize=(width, height), invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setCreator("meeple print")
    return c


def _note(c: Canvas, text: str, rects: list[Rect], bleed: float, low: bool, height: float) -> None:
    """A line of small print in the margin under (or over) the middle card of the bottom (top) row, between its
    crop marks."""
    if not rects:
        return
    edge = min(r.y - bleed for r in rects) if low else max(r.top + bleed for r in rects)
    row = [r for r in rects if abs((r.y if low else r.top) - (edge + bleed if low else edge - bleed)) < 1e-3]
    row.sort(key=lambda r: r.x)
    middle = row[len(row) // 2]
    room = edge if low else height - edge
    area = Rect(middle.x + 1.5 * MM, 0.0 if low else edge, middle.w - 3 * MM, room)
    fitted = fit_text(text, REGULAR, area.w, min(room - 2 * MM, 9.0), 7.0, 3.0)
    c.setFillColor(GREY)
    c.setFont(REGULAR, fitted.size)
    for i, line in enumerate(fitted.lines):
        c.drawCentredString(area.x + area.w / 2, area.y + room / 2 + fitted.height / 2 - (i + 0.8) * fitted.leading,
                            line)


def _ruler(c: Canvas, rects: list[Rect], bleed: float) -> None:
    """A bar of a round length (50 mm under a poker card) in the margin under the bottom row's first card, to
    measure: a sheet printed at any other scale shows it shorter or longer. Left out with one card in the row
    (the note is there)."""
    edge = min(r.y - bleed for r in rects)
    row = sorted((r for r in rects if abs(r.y - bleed - edge) < 1e-3), key=lambda r: r.x)
    if len(row) < 2:
        return
    card = row[0]
    length = int((card.w / MM - 8) // 10) * 10 * MM
    if length <= 0:
        return
    label = f"{length / MM:.0f} mm"
    size = 6.0
    x0, x1, y = card.x + (card.w - length) / 2, card.x + (card.w + length) / 2, edge / 2
    gap = width_of(label, REGULAR, size) / 2 + 1 * MM
    middle = (x0 + x1) / 2
    c.setStrokeColor(GREY)
    c.setLineWidth(0.5)
    for a, b in ((x0, middle - gap), (middle + gap, x1)):
        c.line(a, y, b, y)
    for x in (x0, x1):
        c.line(x, y - 1 * MM, x, y + 1 * MM)
    c.setFillColor(GREY)
    c.setFont(REGULAR, size)
    c.drawCentredString(middle, y - size * 0.35, label)


def _marks(c: Canvas, marks: tuple[Line, ...] | list[Line]) -> None:
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    for x1, y1, x2, y2 in marks:
        c.line(x1, y1, x2, y2)


def _warn(warnings: list[str], copy: Copy, parts: list[str]) -> None:
    for part in parts:
        line = f"{copy.card.id}: {part} did not fit its space at the smallest size and was cut (…)"
        if line not in warnings:
            warnings.append(line)


def sheets_pdf(todo: list[Copy], spec: PrintSpec, options: PrintOptions) -> Printed:
    """The PDF of every copy: sheet by sheet, a page of fronts then a page of their backs (mirrored for duplex
    along the long edge, shifted by the offset), or fronts and backs on one page to fold, or no backs."""
    if options.shop:
        return _shop_pdf(todo, spec, options)
    sheet = sheet_layout(options.paper, options.size, options.bleed, options.backs, options.offset)
    total = sheets_needed(len(todo), sheet.per_sheet)
    buffer = io.BytesIO()
    c = _canvas(buffer, sheet.width, sheet.height, f"{spec.title_of_game} — print and play")
    warnings: list[str] = []
    how = {"mirrored": "print both sides, flip on the long edge",
           "fold": "fold on the dashed line, glue, then cut",
           "none": "fronts only"}[options.backs]
    for n in range(total):
        batch = todo[n * sheet.per_sheet:(n + 1) * sheet.per_sheet]
        fronts = list(sheet.fronts[:len(batch)])
        for copy, rect in zip(batch, fronts, strict=True):
            _warn(warnings, copy, draw_face(c, copy.face, rect, sheet.bleed, copy.seat))
        backs: list[Rect] = []
        if sheet.folded:
            backs = list(sheet.backs[:len(batch)])
            for copy, rect in zip(batch, backs, strict=True):
                _warn(warnings, copy, draw_back(c, copy.face, rect, sheet.bleed, spec.title_of_game,
                                                sheet.backs_turned))
            if sheet.fold is not None:
                c.setDash(3, 3)
                c.setStrokeColor(GREY)
                c.setLineWidth(0.5)
                c.line(*sheet.fold)
                c.setDash()
        _marks(c, _used_marks(sheet.front_marks, fronts + backs, sheet))
        side = "" if sheet.folded else ", fronts"
        _note(c, f"{spec.title_of_game}: sheet {n + 1} of {total}{side}", fronts, sheet.bleed, False, sheet.height)
        _note(c, f"Print at 100% (actual size, no scaling); {how}", fronts if not sheet.folded else backs,
              sheet.bleed, True, sheet.height)
        _ruler(c, fronts if not sheet.folded else backs, sheet.bleed)
        c.showPage()
        if options.backs == "mirrored":
            backs = list(sheet.backs[:len(batch)])
            for copy, rect in zip(batch, backs, strict=True):
                _warn(warnings, copy, draw_back(c, copy.face, rect, sheet.bleed, spec.title_of_game))
            _marks(c, _used_marks(sheet.back_marks, backs, sheet))
            _note(c, f"{spec.title_of_game}: sheet {n + 1} of {total}, backs", backs, sheet.bleed, False,
                  sheet.height)
            _note(c, "Print at 100% (actual size, no scaling)", backs, sheet.bleed, True, sheet.height)
            c.showPage()
    c.save()
    pages = total * (2 if options.backs == "mirrored" else 1)
    return Printed(buffer.getvalue(), pages, len(todo), total, sheet.per_sheet, warnings)


def _used_marks(marks: tuple[Line, ...], used: list[Rect], sheet: Sheet) -> list[Line]:
    """The marks of the cards a (last, part-filled) sheet holds: a sheet's marks are made for every slot, and those
    of an empty slot would only confuse the cutting."""
    if len(used) == len(sheet.fronts) * (2 if sheet.folded else 1):
        return list(marks)
    from .layout import crop_marks

    return crop_marks(used, sheet.bleed, sheet.width, sheet.height)


def _shop_pdf(todo: list[Copy], spec: PrintSpec, options: PrintOptions) -> Printed:
    """One card a page at its bleed size, each front followed by its back; the trim and bleed boxes are set."""
    sheet = shop_layout(options.size, options.bleed)
    buffer = io.BytesIO()
    c = _canvas(buffer, sheet.width, sheet.height, f"{spec.title_of_game} — cards for print")
    trim = sheet.fronts[0]
    c.setTrimBox((trim.x, trim.y, trim.right, trim.top))
    c.setBleedBox((0, 0, sheet.width, sheet.height))
    warnings: list[str] = []
    for copy in todo:
        _warn(warnings, copy, draw_face(c, copy.face, trim, sheet.bleed, copy.seat))
        c.showPage()
        if options.backs != "none":
            _warn(warnings, copy, draw_back(c, copy.face, trim, sheet.bleed, spec.title_of_game))
            c.showPage()
    c.save()
    pages = len(todo) * (1 if options.backs == "none" else 2)
    return Printed(buffer.getvalue(), pages, len(todo), len(todo), 1, warnings)
