"""`meeple print GAME`: the options as argparse reads them, and the command itself."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .layout import BACKS, PAPERS, PrintError, parse_bleed, parse_offset, parse_size


def _option(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type whose ValueError message is the one shown."""

    def parse_option(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return parse_option


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of `meeple print`."""
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="the PDF to write (default GAME.pdf); with --format png, the folder for the images "
                        "(default GAME-cards)")
    p.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="paper size (default a4)")
    p.add_argument("--size", type=_option(parse_size), metavar="poker|bridge|mini|WxH",
                   help="card size: poker (63.5x88.9 mm), bridge (57.2x88.9), mini (44.5x63.5) or WIDTHxHEIGHT in "
                        "mm (default: the game's print: size, else poker)")
    p.add_argument("--bleed", type=_option(parse_bleed), default=0.0, metavar="MM",
                   help="how far each card's colours run past its cut line, in mm (default 0; a print shop "
                        "asks for 3)")
    p.add_argument("--backs", choices=BACKS, default="mirrored",
                   help="mirrored: a page of backs after each page of fronts, for duplex printing flipped on the "
                        "long edge (default); fold: fronts and backs on one page, to fold and glue; none: no backs")
    p.add_argument("--offset", type=_option(parse_offset), default=(0.0, 0.0), metavar="X,Y",
                   help="shift the backs X mm right and Y mm up as seen on their side, for a printer whose duplex "
                        "is off (negative values: --offset=-1,0.5)")
    p.add_argument("--format", choices=("pdf", "png"), default="pdf",
                   help="pdf: sheets to print (default); png: one image per card and per back, 300 dpi")
    p.add_argument("--shop", action="store_true",
                   help="for a print shop: one card a page at its bleed size, each front followed by its back")
    p.add_argument("--cards", nargs="+", metavar="ID", default=(), help="print only these cards (all their copies)")


def run(args: argparse.Namespace) -> int:
    """Make the PDF (or the PNG images) and write it whole; PrintError or AuthoringError for what cannot be."""
    from ..files import OutputError
    from .sheets import PrintOptions, copies
    from .spec import print_spec

    content = _content(args.game)
    spec = print_spec(content)
    try:
        size = args.size or parse_size(spec.size or "poker")
    except ValueError as err:
        raise PrintError(f"{content.smap.pos(('print', 'size'))}: print: size: {err}") from None
    options = PrintOptions(args.paper, size, args.bleed, args.backs, args.offset, args.shop or args.format == "png",
                           tuple(args.cards))
    model = content.model
    own = [Path(model.root) / "game.yaml", *(Path(model.root) / f for f in model.card_files)]
    todo = copies(model.cards, spec, model.max_players, options.cards)
    try:
        if args.format == "pdf":
            _pdf(todo, spec, options, args.output or f"{model.name}.pdf", own)
        else:
            _images(todo, spec, options, Path(args.output or f"{model.name}-cards"), own)
    except OutputError as err:
        raise PrintError(str(err)) from None
    return 0


def _pdf(todo: list, spec: Any, options: Any, output: str, own: list[Path]) -> None:
    """Write the PDF and say what it holds."""
    from ..files import check_target, write_whole
    from .sheets import sheets_pdf

    check_target(output, own)  # before the work
    printed = sheets_pdf(todo, spec, options)
    write_whole(output, printed.data, own)
    for warning in printed.warnings:
        print(f"meeple print: warning: {warning}", file=sys.stderr)
    w, h = options.size
    if options.shop:
        layout = "one card a page" + (", each front then its back" if options.backs != "none" else "")
    else:
        backs = {"mirrored": "a backs page after each fronts page (flip on the long edge)",
                 "fold": "backs beside their fronts, to fold", "none": "no backs"}[options.backs]
        layout = f"{printed.per_sheet} a sheet on {options.paper}; {backs}"
    print(f"wrote {output}: {printed.copies} cards ({w:g}x{h:g} mm, {options.bleed:g} mm bleed), "
          f"{printed.pages} pages, {layout}")
    print("print at 100% (actual size): a page scaled to fit comes out smaller than the cards")


def _content(name: str) -> Any:
    """The game's content (stages 1–2: YAML, schema, cards): printing needs no compiled rules."""
    from ..diagnostics import AuthoringError
    from ..load.loader import find_game, load_content

    try:
        folder = find_game(name)
    except AuthoringError as err:
        d = err.diagnostics[0]
        raise PrintError(d.message + (f"; {d.hint}" if d.hint else "")) from None
    content = load_content(folder)
    if content.errors:
        raise AuthoringError(content.errors)
    return content


def _images(todo: list, spec: Any, options: Any, folder: Path, own: list[Path]) -> None:
    """One PNG a card (each seat's copy of a card each player has) and one a back, in `folder`."""
    from dataclasses import replace

    from ..files import write_whole
    from .images import DPI, pages_as_png
    from .sheets import sheets_pdf

    if folder.exists() and not folder.is_dir():
        raise PrintError(f"cannot write images into {folder}: it is not a folder")
    unique = list({copy.label: copy for copy in todo}.values())
    printed = sheets_pdf(unique, spec, replace(options, shop=True))
    images = pages_as_png(printed.data)
    names = []
    for copy in unique:
        names.append(f"{copy.label}.png")
        if options.backs != "none":
            names.append(f"{copy.label}-back.png")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise PrintError(f"cannot make the folder {folder}: {err.strerror or err}") from None
    for name, data in zip(names, images, strict=True):
        write_whole(folder / name, data, own)
    for warning in printed.warnings:
        print(f"meeple print: warning: {warning}", file=sys.stderr)
    print(f"wrote {len(names)} images to {folder}/ ({DPI} dpi, {options.bleed:g} mm bleed)")
