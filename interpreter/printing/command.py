"""`meeple print GAME` as a library call: `print_game(GAME, …)` writes the sheets (or the card images) and says
what it wrote. The command line (`interpreter/cli/authoring.py`) parses the options into its arguments."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .layout import PrintError, parse_size


def print_game(game: str, *, output: str | None = None, paper: str = "a4", size: tuple[float, float] | None = None,
               bleed: float = 0.0, backs: str = "mirrored", offset: tuple[float, float] = (0.0, 0.0),
               images: bool = False, shop: bool = False, cards: Sequence[str] = ()) -> int:
    """Make the PDF of a game's cards (`images`: a PNG image of each card and back instead, in the folder `output`)
    and write it whole; 0, or PrintError or AuthoringError for what cannot be. `size` (mm): the game's `print:` size
    if None; `bleed`, `offset` in mm; `backs`: one of `layout.BACKS`; `shop`: one card a page; `cards`: only these
    card ids."""
    from ..files import OutputError
    from .sheets import PrintOptions, copies
    from .spec import print_spec

    content = _content(game)
    spec = print_spec(content)
    try:
        size = size or parse_size(spec.size or "poker")
    except ValueError as err:
        raise PrintError(f"{content.smap.pos(('print', 'size'))}: print: size: {err}") from None
    options = PrintOptions(paper, size, bleed, backs, offset, shop or images, tuple(cards))
    model = content.model
    own = [Path(model.root) / "game.yaml", *(Path(model.root) / f for f in model.card_files)]
    todo = copies(model.cards, spec, model.max_players, options.cards)
    try:
        if images:
            _images(todo, spec, options, Path(output or f"{model.name}-cards"), own)
        else:
            _pdf(todo, spec, options, output or f"{model.name}.pdf", own)
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
