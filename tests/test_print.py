"""`meeple print`: sheets of every card in its count, crop marks outside the bleed, backs under their fronts,
text fitted to its box, the same bytes for the same input, and one clear error for what cannot be printed."""

import io
import math
import struct
import textwrap
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from interpreter.cli import main
from interpreter.diagnostics import AuthoringError
from interpreter.load.loader import find_game, load_content
from interpreter.paths import bundled_games
from interpreter.printing.faces import BOLD, REGULAR, register_fonts
from interpreter.printing.fit import ELLIPSIS, fit_text, width_of
from interpreter.printing.layout import MM, PAPERS, Rect, crop_marks, parse_size, sheet_layout
from interpreter.printing.sheets import PrintOptions, copies, sheets_pdf
from interpreter.printing.spec import print_spec

RUSSIAN = ("Погрузите груз на осла: если вес больше грузоподъёмности, каждый отказавшийся берёт случайную "
           "карту со стола в свою стопку очков. Съешь же ещё этих мягких французских булок, да выпей чаю.")


@pytest.fixture(scope="module", autouse=True)
def fonts():
    register_fonts()


def printed(game: str, **options):
    content = load_content(find_game(game))
    spec = print_spec(content)
    chosen = options.pop("cards", ())
    todo = copies(content.model.cards, spec, content.model.max_players, chosen)
    return content, todo, sheets_pdf(todo, spec, PrintOptions(**options))


def page_texts(data: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(data)).pages]


# ---- text fitted to its box -------------------------------------------------------------------------


def check_inside(fitted, font, width, height):
    assert all(width_of(line, font, fitted.size) <= width + 1e-6 for line in fitted.lines)
    assert fitted.height <= height + 1e-6


def test_short_text_keeps_the_largest_size_on_one_line():
    fitted = fit_text("Draw 1", REGULAR, 150, 40, 10, 5)
    assert (fitted.size, fitted.lines, fitted.cut) == (10, ("Draw 1",), False)


def test_text_shrinks_then_wraps_and_stays_inside_its_box():
    text = "Your turn, once per turn: move up to the roll, then play cargo; each opponent discards 1"
    for width, height in [(150, 40), (120, 30), (90, 60), (60, 80)]:
        fitted = fit_text(text, REGULAR, width, height, 10, 4)
        assert not fitted.cut and " ".join(fitted.lines).split() == text.split()
        check_inside(fitted, REGULAR, width, height)
    one_line = fit_text(text, REGULAR, 400, 12, 10, 4)
    assert len(one_line.lines) == 1 and one_line.size == 10
    wrapped = fit_text(text, REGULAR, 150, 40, 10, 4)  # room for three lines at the largest size
    assert len(wrapped.lines) == 3 and wrapped.size == 10
    smaller = fit_text(text, REGULAR, 150, 30, 10, 4)
    assert len(smaller.lines) > 1 and smaller.size < 10


def test_a_title_first_shrinks_on_one_line_then_wraps():
    title = "The Extraordinarily Long Title"
    wide = width_of(title, BOLD, 13)
    shrunk = fit_text(title, BOLD, wide * 0.85, 40, 13, 5, one_line_to=9)
    assert shrunk.lines == (title,) and shrunk.size < 13
    wrapped = fit_text(title, BOLD, wide * 0.5, 40, 13, 5, one_line_to=9)
    assert len(wrapped.lines) > 1 and " ".join(wrapped.lines) == title
    check_inside(wrapped, BOLD, wide * 0.5, 40)


def test_text_too_long_for_its_box_is_cut_with_an_ellipsis_never_overflowing():
    text = " ".join(["overflowing"] * 400)
    fitted = fit_text(text, REGULAR, 120, 60, 9, 5)
    assert fitted.cut and fitted.size == 5 and fitted.lines[-1].endswith(ELLIPSIS)
    check_inside(fitted, REGULAR, 120, 60)
    assert fit_text(text, REGULAR, 120, 2, 9, 5).lines == ()  # not even one line fits: nothing is set


def test_a_word_wider_than_its_box_is_broken_not_overflowing():
    fitted = fit_text("Supercalifragilisticexpialidocious" * 3, BOLD, 40, 200, 9, 5)
    assert len(fitted.lines) > 1 and "".join(fitted.lines) == "Supercalifragilisticexpialidocious" * 3
    check_inside(fitted, BOLD, 40, 200)


def test_cyrillic_text_is_measured_in_the_bundled_font_and_fitted():
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(REGULAR).face
    assert all(ord(ch) in face.charToGlyph for ch in set(RUSSIAN) - {" "})  # the font has every letter
    for width, height in [(150, 80), (100, 120), (60, 40)]:
        fitted = fit_text(RUSSIAN, REGULAR, width, height, 10, 4)
        check_inside(fitted, REGULAR, width, height)
        if not fitted.cut:
            assert " ".join(fitted.lines).split() == RUSSIAN.split()
    assert width_of("Жук", REGULAR, 10) > width_of("Ж", REGULAR, 10) > 0


# ---- sheets -------------------------------------------------------------------------------------------


def test_sky_haulers_prints_every_copy_nine_a_sheet_with_a_backs_page_after_each_fronts_page():
    content, todo, pdf = printed("sky-haulers")
    cards = content.model.cards
    assert len(todo) == sum(c.count for c in cards) == 69  # the 53-card deck, 4 Player cards, 12 Locations
    assert sum(c.count for c in cards if c.start == "deck") == 53
    assert (pdf.per_sheet, pdf.sheets, pdf.pages) == (9, 8, 16)
    reader = pypdf.PdfReader(io.BytesIO(pdf.data))
    assert len(reader.pages) == 16
    a4 = tuple(round(v * MM, 1) for v in PAPERS["a4"])
    assert all((round(float(p.mediabox.width), 1), round(float(p.mediabox.height), 1)) == a4 for p in reader.pages)
    texts = page_texts(pdf.data)
    fronts, backs = " ".join(texts[0::2]), " ".join(texts[1::2])
    for card in cards:  # every copy: each face's foot names the card once
        assert fronts.count(f"Sky Haulers · {card.id} ") + fronts.endswith(f"· {card.id}") == card.count, card.id
        assert card.name in fronts
    assert "Print at 100%" in texts[0] and "sheet 1 of 8, fronts" in texts[0] and "sheet 1 of 8, backs" in texts[1]
    assert "50 mm" in texts[0]  # the bar to measure the print's scale by
    assert backs.count("Sky Haulers") == 69 + 8  # a back for each copy, and each backs page's heading
    assert not pdf.warnings


@pytest.mark.parametrize("game", bundled_games())
def test_every_bundled_game_prints_every_card_with_pages_for_fronts_and_backs(game):
    content, todo, pdf = printed(game, backs="none", bleed=1.5)
    n = sum(c.count * (content.model.max_players if c.each_player else 1) for c in content.model.cards)
    assert len(todo) == n and pdf.pages == math.ceil(n / 9) == pdf.sheets
    text = " ".join(page_texts(pdf.data))
    for card in content.model.cards:
        assert card.name in text, card.id
    assert not pdf.warnings, pdf.warnings


def test_cards_each_player_has_are_printed_a_set_a_seat():
    content, todo, _ = printed("overloaded", cards=("cargo-1", "cargo-2", "standard-donkey"))
    seats = [c.seat for c in todo if c.card.each_player]
    assert seats == [s for s in range(content.model.max_players) for _ in range(2)]
    assert sum(1 for c in todo if c.card.id == "standard-donkey") == 8


def test_same_input_same_bytes():
    first = printed("go-fish", cards=("ace", "king"))[2].data
    assert first == printed("go-fish", cards=("ace", "king"))[2].data
    assert first != printed("go-fish", cards=("ace", "queen"))[2].data


# ---- crop marks ---------------------------------------------------------------------------------------


def crosses(line, box: Rect) -> bool:
    """Whether a mark passes through the inside of a box."""
    x1, y1, x2, y2 = line
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    return lo_x < box.right - 1e-6 and hi_x > box.x + 1e-6 and lo_y < box.top - 1e-6 and hi_y > box.y + 1e-6 \
        if lo_x != hi_x and lo_y != hi_y else (box.x < x1 < box.right and lo_y < box.top and hi_y > box.y
                                                if x1 == x2 else box.y < y1 < box.top and lo_x < box.right
                                                and hi_x > box.x)


LAYOUTS = [(paper, size, bleed, backs) for paper in ("a4", "letter") for size in ("poker", "mini", "bridge")
           for bleed in (0, 3) for backs in ("mirrored", "fold")]


@pytest.mark.parametrize(("paper", "size", "bleed", "backs"), LAYOUTS)
def test_crop_marks_lie_outside_every_bleed_and_mark_every_cut_line(paper, size, bleed, backs):
    sheet = sheet_layout(paper, parse_size(size), bleed, backs)
    trims = list(sheet.fronts) + (list(sheet.backs) if sheet.folded else [])
    boxes = [t.grown(sheet.bleed) for t in trims]
    for marks in (sheet.front_marks, sheet.back_marks):
        for mark in marks:
            assert not any(crosses(mark, b) for b in boxes), mark
            assert all(v > 0 for v in mark) and max(mark[0], mark[2]) < sheet.width and max(mark[1], mark[3]) < \
                sheet.height
            length = math.dist(mark[:2], mark[2:])
            assert 1 * MM - 1e-6 <= length <= 3 * MM + 1e-6
    for t in trims:  # each of a card's four cut lines is carried on by a mark somewhere on the sheet
        verticals = {round(m[0], 3) for m in sheet.front_marks if m[0] == m[2]}
        horizontals = {round(m[1], 3) for m in sheet.front_marks if m[1] == m[3]}
        assert {round(t.x, 3), round(t.right, 3)} <= verticals and {round(t.y, 3), round(t.top, 3)} <= horizontals
    assert not any(a.grown(sheet.bleed).x < b.right + sheet.bleed - 1e-6 and b.x - sheet.bleed < a.right + sheet.bleed
                   - 1e-6 and a.y - sheet.bleed < b.top + sheet.bleed - 1e-6 and b.y - sheet.bleed < a.top +
                   sheet.bleed - 1e-6 for i, a in enumerate(trims) for b in trims[i + 1:])  # no two cards overlap


def test_nine_poker_cards_fit_a4_and_letter_and_each_card_keeps_its_marks_where_there_is_room():
    for paper in ("a4", "letter"):
        assert sheet_layout(paper, parse_size("poker"), 0, "mirrored").per_sheet == 9
    a4 = sheet_layout("a4", parse_size("poker"), 0, "none")
    assert len(a4.front_marks) == 9 * 8  # gutters wide enough: every card has all eight marks
    assert len(crop_marks([Rect(100, 100, 180, 252)], 0, 595, 842)) == 8


def test_backs_are_mirrored_for_long_edge_duplex_and_shifted_by_the_offset():
    sheet = sheet_layout("a4", parse_size("poker"), 2, "mirrored", (1.5, -2))
    for front, back in zip(sheet.fronts, sheet.backs, strict=True):
        assert (front.w, front.h) == pytest.approx((63.5 * MM, 88.9 * MM)) and (back.w, back.h) == (front.w, front.h)
        assert back.x == pytest.approx(sheet.width - front.right + 1.5 * MM)
        assert back.y == pytest.approx(front.y - 2 * MM)


def test_fold_layout_puts_each_back_across_the_fold_from_its_front():
    # A4 poker: more cards landscape, folded down the middle (backs upright, left and right swapped)
    down = sheet_layout("a4", parse_size("poker"), 0, "fold")
    assert down.folded and down.width > down.height and not down.backs_turned and down.per_sheet == 4
    fold_x = down.fold[0]
    assert fold_x == pytest.approx(down.width / 2) and down.fold[2] == fold_x
    for front, back in zip(down.fronts, down.backs, strict=True):
        assert front.right < fold_x < back.x and back.y == pytest.approx(front.y)
        assert back.x - fold_x == pytest.approx(fold_x - front.right)
    # Letter mini: more cards portrait, folded across (backs upside down, above and below swapped)
    across = sheet_layout("letter", parse_size("mini"), 0, "fold", (0.5, 0))
    assert across.backs_turned and across.per_sheet == 8
    fold_y = across.fold[1]
    assert fold_y == pytest.approx(across.height / 2)
    for front, back in zip(across.fronts, across.backs, strict=True):
        assert front.y > fold_y > back.top and back.x == pytest.approx(front.x + 0.5 * MM)
        assert fold_y - back.top == pytest.approx(front.y - fold_y)


def pixel(image, x_pt: float, y_pt: float, scale: float) -> tuple[int, int, int]:
    """The colour at a point of a rendered page (PDF points, y up)."""
    data, stride = bytes(image.buffer), image.stride
    px, py = int(x_pt * scale), int(image.height - y_pt * scale)
    at = py * stride + px * 3
    return tuple(data[at:at + 3])


def test_rendered_backs_land_behind_their_fronts():
    """Two cards on a sheet of nine: on the backs page their backs are in the slots that lie behind them once
    the sheet is turned over along its long edge, and the slot behind nothing stays blank."""
    pdf = printed("sky-haulers", cards=("rook-harlan", "dana-vale"))[2]
    sheet = sheet_layout("a4", parse_size("poker"), 0, "mirrored")
    document = pdfium.PdfDocument(pdf.data)
    scale = 20 / 72
    fronts, backs = (document[i].render(scale=scale, rev_byteorder=True) for i in (0, 1))
    blank = (255, 255, 255)
    first, second, third = sheet.fronts[0], sheet.fronts[1], sheet.fronts[2]
    edge = 1.5 * MM  # inside the trim, in the frame's colour
    assert pixel(fronts, first.x + edge, first.y + first.h / 2, scale) != blank
    assert pixel(fronts, third.x + edge, third.y + third.h / 2, scale) == blank
    back_colour = pixel(backs, sheet.backs[0].x + edge, first.y + first.h / 2, scale)
    assert back_colour != blank and sheet.backs[0].x > sheet.width / 2  # the first card's back is on the right
    assert pixel(backs, sheet.backs[1].x + edge, second.y + second.h / 2, scale) == back_colour
    assert pixel(backs, sheet.backs[2].x + edge, third.y + third.h / 2, scale) == blank  # behind the empty slot
    document.close()


def test_print_shop_mode_is_one_card_a_page_at_its_bleed_size_front_then_back():
    _, todo, pdf = printed("go-fish", cards=("ace",), shop=True, bleed=3)
    assert len(todo) == 4 and pdf.pages == 8
    reader = pypdf.PdfReader(io.BytesIO(pdf.data))
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx((63.5 + 6) * MM)
    assert float(page.mediabox.height) == pytest.approx((88.9 + 6) * MM)
    assert float(page.trimbox.left) == pytest.approx(3 * MM) and float(page.trimbox.width) == pytest.approx(63.5 * MM)


# ---- the command --------------------------------------------------------------------------------------


def test_the_command_writes_the_pdf_and_says_what_it_holds(tmp_path, capsys):
    out = tmp_path / "hearts.pdf"
    assert main(["print", "hearts", "-o", str(out), "--paper", "letter", "--cards", "12-spades", "14-hearts"]) == 0
    said = capsys.readouterr().out
    assert "2 cards" in said and "2 pages" in said and "print at 100%" in said
    assert out.read_bytes().startswith(b"%PDF") and len(pypdf.PdfReader(out).pages) == 2
    assert not list(tmp_path.glob(".*.tmp"))


def test_png_format_writes_an_image_per_card_and_back(tmp_path, capsys):
    folder = tmp_path / "images"
    assert main(["print", "low-tide", "--format", "png", "--cards", "kelp-bed", "-o", str(folder)]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["kelp-bed-back.png", "kelp-bed.png"]
    data = (folder / "kelp-bed.png").read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (round(63.5 / 25.4 * 300), round(88.9 / 25.4 * 300))


@pytest.mark.parametrize(("argv", "status", "message"), [
    (["--size", "10x10"], 2, "at least 20 mm a side"),
    (["--size", "huge"], 2, "must be poker, bridge, mini or WIDTHxHEIGHT"),
    (["--bleed", "-1"], 2, "from 0 to 10 mm"),
    (["--offset", "1"], 2, "must be X,Y in mm"),
    (["--paper", "a3"], 2, "invalid choice"),
    (["--size", "300x300"], 1, "does not fit on a4 paper"),
    (["--cards", "rook-harlen"], 1, "no card `rook-harlen`"),
    (["-o", "no/such/folder/x.pdf"], 1, "its folder does not exist"),
])
def test_bad_options_give_one_clear_message_and_no_traceback(argv, status, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["print", "sky-haulers", *argv]) == status
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.pdf"))


def write_game(folder: Path, print_section: str) -> Path:
    folder.mkdir()
    (folder / "game.yaml").write_text(textwrap.dedent("""\
        game: tiny
        title: Tiny
        players: {min: 2, max: 2}
        cards: [cards.yaml]
        properties: {power: 0}
        zones: {deck: {visibility: hidden, face: down}}
        flow: {rounds: 1, round: [main]}
        phases:
          main: |
            shuffle deck
        """) + print_section)
    (folder / "cards.yaml").write_text("cards:\n  - {id: a, name: Ace Card, start: deck, power: 3, count: 2}\n")
    return folder


def test_a_print_section_naming_no_property_is_an_authoring_error_at_its_place(tmp_path, capsys):
    game = write_game(tmp_path / "tiny", "print:\n  corners: [\"{powr}\"]\n")
    with pytest.raises(AuthoringError) as err:
        print_spec(load_content(game))
    d = err.value.diagnostics[0]
    assert (Path(d.pos.file).name, d.pos.line) == ("game.yaml", 12) and "`{powr}`" in d.message
    assert "power" in (d.hint or "")
    assert main(["print", str(game), "-o", str(tmp_path / "x.pdf")]) == 1
    assert "game.yaml:12" in capsys.readouterr().err and not (tmp_path / "x.pdf").exists()


def test_every_wrong_name_in_the_print_section_is_reported_at_once(tmp_path):
    game = write_game(tmp_path / "tiny", "print:\n  title: \"{nam}\"\n  color_by: colour\n  hide: [pwer]\n"
                                         "  labels: {powre: {3: III}}\n  backs: {stock: {label: Stock}}\n")
    with pytest.raises(AuthoringError) as err:
        print_spec(load_content(game))
    found = {(d.pos.line, d.message.split(" is ")[0].split(":")[0]) for d in err.value.diagnostics}
    assert found == {(12, "`{nam}`"), (13, "`colour`"), (14, "`pwer`"), (15, "`powre`"),
                     (16, "no card starts in `stock`")}


def test_the_schema_checks_the_print_section(tmp_path):
    game = write_game(tmp_path / "tiny", "print:\n  colors: {card: red}\n  sizes: poker\n")
    with pytest.raises(AuthoringError) as err:
        load_content(game)
    messages = [d.message for d in err.value.diagnostics]
    assert any("unknown key `sizes` in print" in m for m in messages) and any("'red'" in m for m in messages)


def test_a_game_without_a_print_section_prints_with_defaults(tmp_path):
    game = write_game(tmp_path / "tiny", "")
    content = load_content(game)
    spec = print_spec(content)
    face = spec.face(content.model.cards[0])
    assert (face.title, face.type_line, face.stats, face.corners) == ("Ace Card", "", ("Power: 3",), ())
    assert main(["print", str(game), "-o", str(tmp_path / "tiny.pdf")]) == 0
    assert len(pypdf.PdfReader(tmp_path / "tiny.pdf").pages) == 2


def test_the_type_line_names_the_kind_unless_the_title_already_does():
    content = load_content(find_game("low-tide"))
    spec = print_spec(content)
    faces = {c.id: spec.face(c) for c in content.model.cards}
    assert faces["periwinkle"].type_line == "" and faces["kelp-sprig"].type_line == "Kelp"
    assert faces["kelp-bed"].corners == ("3",) and faces["hermit-crab"].type_line == ""
    assert faces["kelp-bed"].stats == ()  # fronds: in the corner, hidden from the stats


def test_a_folded_sheet_is_one_page_holding_fronts_and_backs():
    _, todo, pdf = printed("go-fish", cards=("ace", "two"), backs="fold")
    assert len(todo) == 8 and pdf.per_sheet == 4 and pdf.pages == pdf.sheets == 2
    text = page_texts(pdf.data)[0]
    assert text.count("Go Fish · ace") == 4 and text.count("Go Fish") >= 8  # four faces, four backs
    assert "fold on the dashed line" in text


def test_russian_card_text_is_printed_in_an_embedded_font(tmp_path):
    game = write_game(tmp_path / "tiny", "")
    (game / "cards.yaml").write_text(f"cards:\n  - {{id: a, name: Туз, start: deck, text: \"{RUSSIAN}\"}}\n",
                                     encoding="utf-8")
    assert main(["print", str(game), "-o", str(tmp_path / "ru.pdf"), "--backs", "none"]) == 0
    reader = pypdf.PdfReader(tmp_path / "ru.pdf")
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Туз" in text and "грузоподъёмности" in text and "булок" in text
    fonts = reader.pages[0]["/Resources"]["/Font"]
    descriptors = [f.get_object()["/FontDescriptor"].get_object() for f in fonts.values()
                   if "/FontDescriptor" in f.get_object()]
    assert descriptors and all("/FontFile2" in d for d in descriptors)  # the TrueType font travels in the PDF
