"""The commands for a game's author: games, validate, test, cards, rules, compile; print and serve registered."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import AuthoringError, Diagnostic
from ..i18n import Words
from ..paths import bundled_games, data_dir
from .common import CliError, Subcommands, _game, _n, _write, add_lang

# Each command imports what it uses, so that `meeple games`, `--version` and `--help` start without the
# DSL parser, the schema checker or Hypothesis.
if TYPE_CHECKING:
    from ..game import Game



def _listing(folder: Path) -> tuple[str, str, int, int, int] | None:
    """A game's name, title and player counts (min, max, default) from its game.yaml alone, nothing
    compiled (None if they cannot be read: `meeple validate` says why)."""
    import yaml

    try:
        reader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)((folder / "game.yaml").read_text(encoding="utf-8"))
        try:
            data = reader.get_single_data()
        finally:
            reader.dispose()
        players = data["players"]
        name, title, low, high = data["game"], data["title"], players["min"], players["max"]
        default = players.get("default", low)
    except (OSError, UnicodeError, yaml.YAMLError, TypeError, KeyError, AttributeError):
        return None
    if not (isinstance(name, str) and isinstance(title, str)
            and all(type(n) is int for n in (low, high, default)) and low <= default <= high):
        return None
    return name, title, low, high, default


def cmd_games(args: argparse.Namespace) -> int:
    """List the bundled games with their player counts (read from each game.yaml, nothing compiled)."""
    w = Words(args.lang)
    status = 0
    for folder_name in bundled_games():
        listing = _listing(data_dir("cards") / folder_name)
        if listing is None:
            print(f"{folder_name:<14} {w('games.broken', game=folder_name)}")
            status = 1
            continue
        name, title, low, high, default = listing
        counts = w("games.range", low=low, high=high) if low != high else w.n(low, "player")
        print(f"{name:<14} {title:<20} {w('games.counts', counts=counts, default=default)}")
    return status



def _copies(cards: list[tuple[int, bool]]) -> str:
    """`23 cards, 20 copies + 10 per player`: the cards, and their copies ((count, each player) pairs)."""
    shared = sum(count for count, each in cards if not each)
    each = sum(count for count, each in cards if each)
    if not each:
        return f"{_n(len(cards), 'card')}, {_n(shared, 'copy', 'copies')}"
    if not shared:
        return f"{_n(len(cards), 'card')}, {_n(each, 'copy', 'copies')} per player"
    return f"{_n(len(cards), 'card')}, {_n(shared, 'copy', 'copies')} + {each} per player"


def _loaded(folder: Path, games: dict[Path, Game | AuthoringError]) -> Game | AuthoringError:
    """A game folder, loaded once however many of its files are named."""
    from ..game import load_game

    key = folder.resolve()
    if key not in games:
        try:
            games[key] = load_game(key)
        except AuthoringError as err:
            games[key] = err
    return games[key]


def _validate_one(raw: str, games: dict[Path, Game | AuthoringError]) -> tuple[str | None, list[Diagnostic]]:
    """Validate one PATH (a folder, a game.yaml, a card or scenario file, or a bundled game's name):
    ("ok: …" line or None, diagnostics)."""
    from ..load.cards import check_card_file
    from ..scenarios import FOLDER as SCENARIO_FOLDER

    path = _validated_path(raw)
    if path.is_dir():
        if not (path / "game.yaml").is_file():
            raise CliError(f"{raw}: not a game folder (it has no game.yaml)")
        return _validate_folder(raw, path, games)
    if path.parent.name == SCENARIO_FOLDER and (path.parent.parent / "game.yaml").is_file():
        return _validate_scenario(raw, path, games)
    if not (path.parent / "game.yaml").is_file():
        copies, found = check_card_file(path)
        return (f"ok: {raw} ({_copies(copies)})" if not found else None), found
    return _validate_game_file(raw, path, games)


def _validated_path(raw: str) -> Path:
    """The file or folder a PATH argument names (a bundled game's name: its folder)."""
    from ..load.folder import find_game

    path = Path(raw)
    try:
        exists = path.exists()
    except OSError as err:  # a name the system refuses, e.g. too long
        raise CliError(f"{raw}: {err.strerror or err}") from None
    if exists:
        return path
    try:
        return find_game(raw)
    except AuthoringError as err:
        hint = err.diagnostics[0].hint
        close = f"; {hint}" if hint and hint.startswith("did you mean") else ""
        raise CliError(f"{raw}: no such file or folder, nor a bundled game{close}") from None


def _validate_folder(raw: str, path: Path, games: dict[Path, Game | AuthoringError]
                     ) -> tuple[str | None, list[Diagnostic]]:
    """A game folder: the game, its scenarios, its unlisted card files, its cards without text."""
    from ..load.cards import cards_without_text
    from ..load.loader import unlisted_card_files
    from ..scenarios import check_scenarios

    game = _loaded(path, games)
    if isinstance(game, AuthoringError):
        return None, game.diagnostics
    scenarios, found = check_scenarios(game)
    cards = _copies([(c.count, c.each_player) for c in game.model.cards])
    tested = f"; {_n(len(scenarios), 'scenario')}" if scenarios else ""
    return ((f"ok: {raw} ({cards}{tested})" if not found else None),
            found + unlisted_card_files(game.model) + cards_without_text(game.model))


def _validate_scenario(raw: str, path: Path, games: dict[Path, Game | AuthoringError]
                       ) -> tuple[str | None, list[Diagnostic]]:
    """A scenario file of a game folder, run against its game."""
    from ..scenarios import check_scenarios

    game = _loaded(path.parent.parent, games)
    if isinstance(game, AuthoringError):
        return None, game.diagnostics
    scenarios, found = check_scenarios(game, [path])
    return (f"ok: {raw} ({_n(len(scenarios), 'scenario')})" if not found else None), found


def _validate_game_file(raw: str, path: Path, games: dict[Path, Game | AuthoringError]
                        ) -> tuple[str | None, list[Diagnostic]]:
    """game.yaml or a card file of a game folder (one game.yaml does not list: its shape only)."""
    from ..load.cards import cards_without_text, check_card_file
    from ..load.loader import unlisted_card_files

    game = _loaded(path.parent, games)
    if isinstance(game, AuthoringError):
        return None, game.diagnostics
    if path.name == "game.yaml":
        return f"ok: {raw} ({_copies([(c.count, c.each_player) for c in game.model.cards])})", []
    mine = [(c.count, c.each_player) for c in game.model.cards if Path(c.pos.file).resolve() == path.resolve()]
    if mine:
        return f"ok: {raw} ({_copies(mine)})", [d for d in cards_without_text(game.model)
                                                 if Path(d.pos.file).resolve() == path.resolve()]
    copies, found = check_card_file(path)  # in the folder but not listed in game.yaml: check its shape only
    unlisted = [d for d in unlisted_card_files(game.model) if Path(d.pos.file).resolve() == path.resolve()]
    return (f"ok: {raw} ({_copies(copies)}; not listed in game.yaml)" if not found else None), found + unlisted


def _as_json(d: Diagnostic | None, file: str = "", message: str = "") -> dict[str, Any]:
    """One diagnostic as an object for editors and CI (line and col are null when a path is wrong)."""
    if d is None:
        return {"file": file, "line": None, "col": None, "severity": "error", "message": message, "hint": None}
    return {"file": d.pos.file, "line": d.pos.line, "col": d.pos.col, "severity": d.severity, "message": d.message,
            "hint": d.hint}


def _show(d: Diagnostic, listed: list[dict[str, Any]] | None) -> None:
    """One diagnostic on stderr, or into the JSON list."""
    if listed is not None:
        listed.append(_as_json(d))
    else:
        print(d.render(), file=sys.stderr)


def cmd_validate(args: argparse.Namespace) -> int:
    """Check game folders, card and scenario files; print every diagnostic of every path (each once)."""
    games: dict[Path, Game | AuthoringError] = {}
    seen: set[tuple[str, str]] = set()
    listed: list[dict[str, Any]] = []
    errors = warnings = 0
    failed = False
    as_json = args.format == "json"
    for raw in args.paths:
        try:
            ok, found = _validate_one(raw, games)
        except CliError as err:
            failed = True
            if as_json:
                listed.append(_as_json(None, raw, str(err).removeprefix(f"{raw}: ")))
            else:
                print(f"meeple validate: error: {err}", file=sys.stderr)
            continue
        if ok and not as_json:
            print(ok)
        failed = failed or not ok
        for d in found:
            if (str(d.pos), d.message) in seen:
                continue
            seen.add((str(d.pos), d.message))
            warnings += d.severity == "warning"
            errors += d.severity != "warning"
            _show(d, listed if as_json else None)
    if as_json:
        print(json.dumps(listed, ensure_ascii=False))
    elif errors or warnings:
        counted = [_n(errors, "error")] * bool(errors) + [_n(warnings, "warning")] * bool(warnings)
        print(f"{' and '.join(counted)} found", file=sys.stderr)
    return 1 if failed else 0


def cmd_test(args: argparse.Namespace) -> int:
    """Run the game's scenario files: one line per scenario, failures at file:line, exit 1 on any."""
    import textwrap

    from ..scenarios import FOLDER as SCENARIO_FOLDER
    from ..scenarios import ScenarioFailure, check_scenarios, play, scenario_files, select

    w = Words(args.lang)
    game = _game(args.game)
    folder = Path(game.model.root)
    if not scenario_files(folder):
        raise CliError(f"{game.name} has no scenarios: write them in {folder / SCENARIO_FOLDER}/*.yaml")
    started = time.perf_counter()
    scenarios, found = check_scenarios(game)
    for d in found:
        print(d.render(), file=sys.stderr)
    sys.stderr.flush()
    chosen = select(scenarios, args.k)
    if not chosen and not found:
        raise CliError(f"no scenario of {game.name} matches `{args.k}`")
    failed = 0
    for sc in chosen:
        try:
            play(sc)
        except ScenarioFailure as failure:
            failed += 1
            print(f"{w('test.fail'):<5} {sc.name} — {sc.rule}")
            for pos, text in failure.problems:
                print(f"  {pos.file}:{pos.line}: {text}")
            print(textwrap.indent(failure.story, "    "))
            continue
        print(f"{w('test.pass'):<5} {sc.name} — {sc.rule}")
    elapsed = time.perf_counter() - started
    if failed:
        summary = w("test.failed", scenarios=w.n(len(chosen), "scenario"), failed=failed, passed=len(chosen) - failed)
    else:
        summary = w("test.passed", scenarios=w.n(len(chosen), "scenario")) if chosen else w("test.none_ran")
    bad = w("test.bad_files", errors=w.n(len(found), "error")) if found else ""
    print(summary + bad + w("test.time", seconds=elapsed))
    return 1 if failed or found else 0



def _card_words(card) -> list[str]:
    """What a card says: its `text`, else each ability as `ability: DSL text` (lines kept)."""
    if card.text:
        return [" ".join(str(card.text).split())]
    lines = []
    for ability, (text, _, _) in card.abilities.items():
        body = [line.rstrip() for line in str(text).strip().splitlines()]
        lines.append(f"{ability}: {body[0] if body else ''}")
        lines += [f"  {line}" for line in body[1:]]
    return lines


def _indent(text: str) -> int:
    """How far a line of DSL text is indented, so that its wrapped rest lines up with it."""
    return len(text) - len(text.lstrip(" "))


def cmd_compile(args: argparse.Namespace) -> int:
    """Print (or write) the Python a game compiles to, each block headed by the YAML line it comes from."""
    game = _game(args.game)
    if args.output is None:
        sys.stdout.write(game.python_source)
        return 0
    _write(game, ("-o", args.output), game.python_source.encode("utf-8"))
    print(f"wrote {args.output}: {game.python_source.count(chr(10))} lines of Python for {game.name}")
    return 0



def cmd_cards(args: argparse.Namespace) -> int:
    """List a game's cards: id, name, count, kind and text, in columns that fit the terminal."""
    import shutil
    import textwrap

    w = Words(args.lang)
    game = _game(args.game)
    cards = game.model.cards
    rows = [(c.id, c.name, w("cards.each", count=c.count) if c.each_player else str(c.count), c.kind) for c in cards]
    heads = (w("cards.id"), w("cards.name"), w("cards.count"), w("cards.kind"))
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(heads)]
    lead = sum(widths) + 2 * len(widths)
    columns = shutil.get_terminal_size((100, 24)).columns
    beside = columns - lead - 1 >= 30  # else the text goes under its row, indented
    room = columns - lead - 1 if beside else max(20, columns - 5)

    def line(cells: tuple[str, ...], text: str) -> str:
        front = "  ".join(cell.rjust(w) if i == 2 else cell.ljust(w) for i, (cell, w) in
                          enumerate(zip(cells, widths, strict=True)))
        return f"{front}  {text}".rstrip()

    print(line(heads, w("cards.text") if beside else ""))
    for card, cells in zip(cards, rows, strict=True):
        wrapped = [part for text in _card_words(card)
                   for part in textwrap.wrap(text, room, subsequent_indent=" " * _indent(text)) or [""]]
        if beside:
            print(line(cells, wrapped[0] if wrapped else ""))
            wrapped = wrapped[1:]
        else:
            print(line(cells, ""))
        for more in wrapped:
            print(" " * (lead if beside else 4) + more)
    print(f"{game.title}: {_copies_in(w, [(c.count, c.each_player) for c in cards])}")
    if (Path(game.model.root) / "README.md").is_file():
        print(w("cards.rules", game=args.game))
    return 0


def _copies_in(w: Words, cards: list[tuple[int, bool]]) -> str:
    """`_copies` in the words of a language."""
    shared = sum(count for count, each in cards if not each)
    each = sum(count for count, each in cards if each)
    if not each:
        return w("cards.copies", cards=w.n(len(cards), "card"), copies=w.n(shared, "copy"))
    if not shared:
        return w("cards.copies_each", cards=w.n(len(cards), "card"), copies=w.n(each, "copy"))
    return w("cards.copies_both", cards=w.n(len(cards), "card"), copies=w.n(shared, "copy"), each=each)


def cmd_rules(args: argparse.Namespace) -> int:
    """Print the game's rules page (in the language asked where the game has one in it)."""
    from ..rules import NoRulesPage, rules_page

    try:
        page, lang = rules_page(args.game, args.lang)
    except NoRulesPage as err:
        raise CliError(str(err)) from None
    if lang != args.lang:
        print(Words(args.lang)("rules.other_lang"), file=sys.stderr, flush=True)
    print(page, end="")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """The playtest web page (interpreter/web/, docs/serve.md)."""
    from ..web.command import serve

    return serve(args.games, _game, host=args.host, port=args.port, lang=args.lang)


def cmd_print(args: argparse.Namespace) -> int:
    """Print-and-play sheets, or card images, of a game (interpreter/printing/command.py)."""
    from ..printing import PrintError
    from ..printing.command import print_game

    try:
        return print_game(args.game, output=args.output, paper=args.paper, size=args.size, bleed=args.bleed,
                          backs=args.backs, offset=args.offset, images=args.format == "png", shop=args.shop,
                          cards=args.cards)
    except PrintError as err:
        raise CliError(str(err)) from None


def add_parsers(sub: Subcommands) -> None:
    """games, validate, test, cards, print, serve, rules, compile."""
    add_lang(sub.add_parser("games", help="list the bundled games", description="List the bundled games."))

    p = sub.add_parser("validate", help="check game folders and card files",
                       description="Check game folders, game.yaml files and card files; exit 1 on any error.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="a game folder or bundled game name, a game.yaml, a card file or a scenario file")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: print the diagnostics as one JSON list (file, line, col, severity, message, hint)")

    p = sub.add_parser("test", help="run a game's rule scenarios",
                       description="Run the scenario files in GAME/scenarios/*.yaml; exit 1 on any failure.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("-k", metavar="TEXT", help="only the scenarios whose name or file name contains TEXT")
    add_lang(p, "language of the command's own words (a scenario's failure story stays in English)")

    p = sub.add_parser("cards", help="list a game's cards",
                       description="List a game's cards: id, name, count, kind and text.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    add_lang(p, "language of the list's headings (card names and texts stay as the game wrote them)")

    _add_print_and_serve(sub)

    p = sub.add_parser("rules", help="print a game's rules page",
                       description="Print a game's rules page (the README.md in its folder; with --lang L, its "
                                   "README.L.md if it has one).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    add_lang(p, "the page's language, where the game has a page in it (README.L.md)")

    p = sub.add_parser("compile", help="print the Python a game compiles to",
                       description="Print the Python a game compiles to, each block headed by the YAML "
                                   "file:line it comes from (a traceback of a failing rule shows these lines).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("-o", "--output", metavar="FILE", help="write it to FILE instead of printing it")


def _add_print_and_serve(sub: Subcommands) -> None:
    """print and serve (their modules, in interpreter/printing/ and interpreter/web/, loaded only to run them)."""
    p = sub.add_parser("print", help="print-and-play sheets of a game's cards (PDF or PNG)",
                       description="Put every card of a game, in its count of copies, on sheets to print at 100%, cut "
                                   "on the crop marks and play: a PDF of fronts and backs, one card a page for a print "
                                   "shop, or PNG images.")
    if sub.wants("print"):
        _print_arguments(p)

    p = sub.add_parser("serve", help="the playtest web page: play any seat against bots or friends",
                       description="Serve the playtest web page: a table of a game in the browser, each seat a person "
                                   "(by its own link) or a bot.")
    if sub.wants("serve"):
        p.add_argument("games", nargs="*", metavar="GAME",
                       help="bundled game names or game folders to serve (default: every bundled game)")
        p.add_argument("--port", type=_port, default=8000,
                       help="the port to listen on (default 8000; 0: any free one)")
        p.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this computer only)")
        add_lang(p, "language of the command's own words (the pages stay in English)")


def _print_arguments(p: argparse.ArgumentParser) -> None:
    """The options of `meeple print`."""
    from ..printing.layout import BACKS, PAPERS, parse_bleed, parse_offset, parse_size

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


def _option(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type whose ValueError message is the one shown."""

    def parse_option(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return parse_option


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return port
