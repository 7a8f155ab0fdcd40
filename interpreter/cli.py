"""The `meeple` command: games, validate, test, cards, play, sim, check, replay (see CONTRACT.md for the outside)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__
from .diagnostics import AuthoringError, Diagnostic
from .interrupts import INTERRUPTED, second_ctrl_c_exits
from .limits import MAX_STEPS
from .paths import bundled_games, data_dir
from .run.runtime import RuleError
from .table import WORDS

# Each command imports what it uses, so that `meeple games`, `--version` and `--help` start without the
# DSL parser, the schema checker or Hypothesis.
if TYPE_CHECKING:
    from .check import CheckFailed
    from .game import Game
    from .run.match import Match

class CliError(Exception):
    """A failure the user can fix: printed as one message, exit status 1.

    `located` messages already start with `FILE:LINE:` and are printed as they are.
    """

    def __init__(self, message: str, located: bool = False) -> None:
        super().__init__(message)
        self.located = located


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and a pointer to --help), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


_ASCII_WHOLE = re.compile(r"[0-9]+")
"""A whole number as a person types it: ASCII digits only (`str.isdigit` and `int` take `²` or `٣` too)."""


def _whole(minimum: int, what: str):
    """An argparse type: a whole number of at least `minimum`, in ASCII digits."""

    def parse(text: str) -> int:
        try:
            if not _ASCII_WHOLE.fullmatch(text.strip()):
                raise ValueError(text)
            value = int(text)
        except ValueError:  # also: more digits than Python converts
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {what}, not {value}")
        return value

    return parse


_count = _whole(1, "a whole number of at least 1")  # -n, --workers, --players
_some = _whole(0, "a whole number of at least 0")  # --leaks
_seat = _whole(0, "a seat number (0, 1, …)")


def _seed(text: str) -> int:
    """An argparse type: a whole number from 0, short enough to be written in a match log."""
    from .logfile import MAX_INT_DIGITS

    text = text.strip()
    if not re.fullmatch(r"\+?[0-9]+", text) or len(text.lstrip("+")) > MAX_INT_DIGITS:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0, of at most {MAX_INT_DIGITS} digits, "
                                         f"not {text!r}")
    return int(text)


# ---- shared helpers ---------------------------------------------------------------------------------


def _n(count: int, word: str, plural: str | None = None) -> str:
    """`1 card`, `2 cards`, `0 copies`: a count with its word in the right number."""
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _game(name: str) -> Game:
    """Load a GAME argument; an unknown name is a one-line error, broken content an AuthoringError."""
    from .game import load_game
    from .load.loader import find_game

    try:
        find_game(name)
    except AuthoringError as err:
        d = err.diagnostics[0]
        raise CliError(d.message + (f"; {d.hint}" if d.hint else "")) from None
    return load_game(name)


def _players(game: Game, players: int | None) -> int:
    try:
        return game.check_players(game.default_players if players is None else players)
    except ValueError as err:
        raise CliError(str(err)) from None


# ---- games ------------------------------------------------------------------------------------------


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
    status = 0
    for folder_name in bundled_games():
        listing = _listing(data_dir("cards") / folder_name)
        if listing is None:
            print(f"{folder_name:<14} (broken: run `meeple validate {folder_name}`)")
            status = 1
            continue
        name, title, low, high, default = listing
        counts = f"{low}–{high} players" if low != high else _n(low, "player")
        print(f"{name:<14} {title:<20} {counts} (default {default})")
    return status


# ---- validate ---------------------------------------------------------------------------------------


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
    from .game import load_game

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
    from .load.cards import cards_without_text, check_card_file
    from .load.loader import find_game, unlisted_card_files
    from .scenarios import FOLDER as SCENARIO_FOLDER
    from .scenarios import check_scenarios

    path = Path(raw)
    try:
        exists = path.exists()
    except OSError as err:  # a name the system refuses, e.g. too long
        raise CliError(f"{raw}: {err.strerror or err}") from None
    if not exists:
        try:
            path = find_game(raw)
        except AuthoringError as err:
            hint = err.diagnostics[0].hint
            close = f"; {hint}" if hint and hint.startswith("did you mean") else ""
            raise CliError(f"{raw}: no such file or folder, nor a bundled game{close}") from None
    if path.is_dir():
        if not (path / "game.yaml").is_file():
            raise CliError(f"{raw}: not a game folder (it has no game.yaml)")
        game = _loaded(path, games)
        if isinstance(game, AuthoringError):
            return None, game.diagnostics
        scenarios, found = check_scenarios(game)
        cards = _copies([(c.count, c.each_player) for c in game.model.cards])
        tested = f"; {_n(len(scenarios), 'scenario')}" if scenarios else ""
        return ((f"ok: {raw} ({cards}{tested})" if not found else None),
                found + unlisted_card_files(game.model) + cards_without_text(game.model))
    if path.parent.name == SCENARIO_FOLDER and (path.parent.parent / "game.yaml").is_file():
        game = _loaded(path.parent.parent, games)
        if isinstance(game, AuthoringError):
            return None, game.diagnostics
        scenarios, found = check_scenarios(game, [path])
        return (f"ok: {raw} ({_n(len(scenarios), 'scenario')})" if not found else None), found
    folder = path.parent if (path.parent / "game.yaml").is_file() else None
    if folder is None:
        copies, found = check_card_file(path)
        return (f"ok: {raw} ({_copies(copies)})" if not found else None), found
    game = _loaded(folder, games)
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
            if d.severity == "warning":
                warnings += 1
            else:
                errors += 1
            if as_json:
                listed.append(_as_json(d))
            else:
                print(d.render(), file=sys.stderr)
    if as_json:
        print(json.dumps(listed, ensure_ascii=False))
    elif errors or warnings:
        counted = [_n(errors, "error")] * bool(errors) + [_n(warnings, "warning")] * bool(warnings)
        print(f"{' and '.join(counted)} found", file=sys.stderr)
    return 1 if failed else 0


# ---- test -------------------------------------------------------------------------------------------


def cmd_test(args: argparse.Namespace) -> int:
    """Run the game's scenario files: one line per scenario, failures at file:line, exit 1 on any."""
    from .scenarios import FOLDER as SCENARIO_FOLDER
    from .scenarios import ScenarioFailure, check_scenarios, play, scenario_files, select

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
            print(f"FAIL  {sc.name} — {sc.rule}")
            for pos, text in failure.problems:
                print(f"  {pos.file}:{pos.line}: {text}")
            print(textwrap.indent(failure.story, "    "))
            continue
        print(f"pass  {sc.name} — {sc.rule}")
    elapsed = time.perf_counter() - started
    if failed:
        summary = f"{_n(len(chosen), 'scenario')}: {failed} failed, {len(chosen) - failed} passed"
    else:
        summary = f"{_n(len(chosen), 'scenario')}: all passed" if chosen else "no scenario ran"
    bad = f"; {_n(len(found), 'error')} in scenario files" if found else ""
    print(f"{summary}{bad} ({elapsed:.2f} s)")
    return 1 if failed or found else 0


# ---- cards ------------------------------------------------------------------------------------------


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


def _outputs(game: Game, *named: tuple[str, str | None]) -> None:
    """Refuse, before any work, an output (option, path) that cannot be written, a file named by two options,
    or one of the game's own files."""
    from .files import OutputError, check_targets
    from .logfile import own_files

    try:
        check_targets([(option, path) for option, path in named if path is not None], own_files(game))
    except OutputError as err:
        raise CliError(str(err)) from None


def _write(game: Game, named: tuple[str, str], data: bytes) -> None:
    """Write an output file whole (a device or FIFO: into it); never over a file of the game."""
    from .files import OutputError, write_whole
    from .logfile import own_files

    _outputs(game, named)
    try:
        write_whole(named[1], data, keep=own_files(game))
    except OutputError as err:
        raise CliError(str(err)) from None


def _write_log(path: str, records: list[dict[str, Any]], game: Game) -> None:
    """Write a match log (`logfile.write_log`); a failure is the command's one error message."""
    from .logfile import LogError, write_log

    try:
        write_log(path, records, game)
    except LogError as err:
        raise CliError(str(err)) from None


def cmd_cards(args: argparse.Namespace) -> int:
    """List a game's cards: id, name, count, kind and text, in columns that fit the terminal."""
    game = _game(args.game)
    cards = game.model.cards
    rows = [(c.id, c.name, f"{c.count} each" if c.each_player else str(c.count), c.kind) for c in cards]
    heads = ("id", "name", "count", "kind")
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(heads)]
    lead = sum(widths) + 2 * len(widths)
    columns = shutil.get_terminal_size((100, 24)).columns
    beside = columns - lead - 1 >= 30  # else the text goes under its row, indented
    room = columns - lead - 1 if beside else max(20, columns - 5)

    def line(cells: tuple[str, ...], text: str) -> str:
        front = "  ".join(cell.rjust(w) if i == 2 else cell.ljust(w) for i, (cell, w) in
                          enumerate(zip(cells, widths, strict=True)))
        return f"{front}  {text}".rstrip()

    print(line(heads, "text" if beside else ""))
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
    copies = _copies([(c.count, c.each_player) for c in cards])
    print(f"{game.title}: {copies}")
    if (Path(game.model.root) / "README.md").is_file():
        print(f"The rules: meeple rules {args.game}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """Print the game's rules page."""
    from .rules import NoRulesPage, rules_page

    try:
        print(rules_page(args.game), end="")
    except NoRulesPage as err:
        raise CliError(str(err)) from None
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """The playtest web page (interpreter/web/, docs/serve.md)."""
    from .web.command import run

    return run(args, _game)


def cmd_print(args: argparse.Namespace) -> int:
    """Print-and-play sheets, or card images, of a game (interpreter/printing/command.py)."""
    from .printing import PrintError
    from .printing.command import run

    try:
        return run(args)
    except PrintError as err:
        raise CliError(str(err)) from None


# ---- play -------------------------------------------------------------------------------------------


def _bot_kinds(kinds: str | None) -> list[str]:
    """The bot names of `--bots` (`interpreter.bots`: `random`, `first`, `mc:N`, `ismcts:N`, …), each checked."""
    from .bots import BotNameError
    from .bots.lineup import names_for

    try:
        return names_for(kinds, None)
    except BotNameError as err:
        raise CliError(str(err)) from None


def _bots(names: list[str], players: int, human: int | None) -> list[str]:
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise CliError(f"--bots names {len(names)} seats, but the match has {players} players")
    if human is not None:
        if human >= players:
            raise CliError(f"--human {human}: seats are 0–{players - 1}")
        names[human] = "human"
    return names


def _seat_log(m: Match, seat: int) -> list[dict[str, Any]]:
    """What one seat saw of a match, as JSON lines: a header, its observations, the result."""
    lines: list[dict[str, Any]] = [{"type": "match", "game": m.game.name, "version": m.game.version,
                                    "players": m.players, "seat": seat}]
    lines.extend(m.information_state_json(seat)["observed"])
    if m.over:
        lines.append(m.result())
    return lines


def cmd_play(args: argparse.Namespace) -> int:
    """Play one match: bots (and maybe one human) with a readable running log, or a JSON result."""
    from .bots.lineup import Lineup
    from .table import InputEnded, Quit, Table

    game = _game(args.game).with_max_steps(args.max_steps)
    kinds = _bot_kinds(args.bots)
    players = args.players if args.players is not None else (len(kinds) if len(kinds) > 1 else None)
    players = _players(game, players)
    bots = _bots(kinds, players, args.human)
    log_for: list[tuple[int, str]] = []
    for seat_text, path in args.log_for or []:
        if not _ASCII_WHOLE.fullmatch(seat_text) or int(seat_text) >= players:
            raise CliError(f"--log-for: {seat_text!r} is not a seat of this match (0..{players - 1})")
        log_for.append((int(seat_text), path))
    _outputs(game, ("--log", args.log), *((f"--log-for {seat}", path) for seat, path in log_for))
    words = WORDS[args.lang]
    out = None if args.json else sys.stdout
    human_out = sys.stderr if args.json else sys.stdout
    m, failed = _started(game, players, args.seed, bots)
    assert m.log is not None  # made with its log
    if out is not None:
        print(words["header"].format(title=game.title, n=players, players=_n(players, "player"), seed=args.seed),
              file=out)
    table = Table(m, out, words, args.human, prompt_out=human_out)
    table.catch_up()
    if failed is not None:  # the rules failed before the first decision
        raise _kept(failed, m.log, game, args.log or FAILURE_LOG) from None
    lineup = Lineup(bots, args.seed)
    handles = [m.seat(s) for s in range(players)]
    try:
        while not m.over:
            seats = m.to_act()
            together = m.simultaneous
            for seat in seats:
                if seat == args.human:
                    try:
                        action = table.ask(seat)
                    except Quit:
                        print(words["quit"], file=human_out)
                        return 0
                    except InputEnded:
                        raise CliError(words["eof"]) from None
                else:
                    table.asking(seat)
                    bot = lineup.bots[seat]
                    assert bot is not None
                    thought = bot.stats.seconds
                    action = bot.choose(handles[seat])
                    if out is not None and bot.budget is not None:  # a search bot: how long it thought
                        print(f"  [P{seat} {bot.name} · {bot.stats.seconds - thought:.2f} s]", file=out)
                problem = m.apply(seat, action)
                assert problem is None, problem
                table.catch_up(together)
    except RuleError as err:
        table.catch_up()
        raise _kept(err, m.log, game, args.log or FAILURE_LOG) from None
    if args.log:
        _write_log(args.log, m.log, game)
    for seat, path in log_for:
        _write_log(path, _seat_log(m, seat), game)
    result = {"game": game.name, "seed": args.seed, "players": players, "winners": m.winners,
              "scores": m.scores, "turns": m.result()["turns"], "decisions": m.st.decisions}
    if args.json:
        print(json.dumps(result))
        return 0
    table.final()
    return 0


# ---- sim --------------------------------------------------------------------------------------------


def _progress_bar() -> Callable[[int, int], None] | None:
    """A progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        end = "\r" + " " * (width + 30) + "\r" if done >= total else ""
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}")
        sys.stderr.flush()

    return show


def _cores() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


FAILURE_LOG = "rule-failure.jsonl"


def _started(game: Game, players: int, seed: int, bots: list[str] | None) -> tuple[Match, RuleError | None]:
    """A logged match run up to its first question, and the rules' failure if they failed before it: the
    match and its log so far are in hand either way (a log is written of a failure during set-up too)."""
    from .run.match import Match

    m = Match.__new__(Match)  # made before it runs, so that a failure while it starts leaves it in hand
    try:
        Match.__init__(m, game, players, seed, log=True, bots=bots)
    except RuleError as err:
        return m, err
    return m, None


def _kept(err: RuleError, log: list[dict[str, Any]] | None, game: Game, path: str) -> RuleError:
    """Write the log of a match whose rules failed (up to the failure) and say where it is (or why not)."""
    from .logfile import LogError, write_log

    if log is None:
        return err
    try:
        write_log(path, log, game)
    except LogError as why:
        return RuleError(f"{err}; its log was not written: {why}", err.seed, err.decisions)
    return RuleError(f"{err}; the match up to there is in {path} (`{_replay_command(game, path)}` re-runs it)",
                     err.seed, err.decisions)


def cmd_sim(args: argparse.Namespace) -> int:
    """Many bot matches (random bots through the fast path); print a summary."""
    from .bots.lineup import Lineup
    from .check import CheckFailed
    from .run.sim import Interrupted, Watch, WorkerLost, run_many, seed_ranges

    game = _game(args.game).with_max_steps(args.max_steps)
    players = _players(game, args.players)
    bots = _bots(_bot_kinds(args.bots), players, None)
    workers = min(args.workers, args.n, _cores())
    if args.workers > _cores():
        print(f"meeple sim: --workers {args.workers}: this machine has {_n(_cores(), 'core')}, so "
              f"{_n(workers, 'worker')} run", file=sys.stderr)
    stopped: WorkerLost | Interrupted | None = None
    watch: Watch | None = None
    if args.check:
        from .check import watch_sim as watch
    try:
        summary = run_many(game, players, args.n, args.seed, workers, _progress_bar(), watch, bots)
    except (Interrupted, WorkerLost) as err:
        summary, stopped = err.summary, err
    except CheckFailed as err:
        raise _sim_check_failed(game, players, err) from None
    except RuleError as err:
        if err.seed is None:
            raise
        m, failed = _started(game, players, err.seed, bots)  # the failing match again, with its log
        if failed is None:
            try:
                Lineup(bots, err.seed).play(m)
            except RuleError as again:
                failed = again
        if failed is not None:
            raise _kept(err, m.log, game, FAILURE_LOG) from None
        raise
    if args.json:
        print(json.dumps(summary))
    elif summary["games"]:  # else nothing finished: the message alone says so
        seeds = stopped.seeds if stopped is not None else seed_ranges([(args.seed, args.seed + summary["games"])])
        _print_summary(game, summary, seeds, players)
    if isinstance(stopped, Interrupted):
        raise stopped
    if stopped is not None:
        raise CliError(str(stopped))
    return 0


def _sim_check_failed(game: Game, players: int, err: CheckFailed) -> CliError:
    """The match of a failed `sim --check` again, through the step API with its log: write the log, say why."""
    from .check import failure_log, sim_match

    played = sim_match(game, players, err.seed)
    if played.broken is None:  # not the same match: an engine fault, reported as such
        return CliError(f"check failed in the match of seed {err.seed}: {err}, but not when that match is played "
                        "again through the step API")
    message = played.broken[1]
    _write_log(CHECK_LOG, failure_log(played), game)
    return CliError(f"check failed in the match of seed {err.seed} after {_n(len(played.match.history), 'decision')}: "
                    f"{message}; its log is in {CHECK_LOG} "
                    f"(`{_replay_command(game, CHECK_LOG)}` re-runs it)")


def _print_summary(game: Game, s: dict[str, Any], seeds: str, players: int) -> None:
    """The readable summary of `meeple sim` (`seeds`: those of the matches it sums up, in words)."""
    print(f"{game.title}: {_n(s['games'], 'game')}, {_n(players, 'player')}, {seeds}")
    bots = s.get("bots") or ["random"] * players
    width = max(len(b) for b in bots) + 2 if any(b != "random" for b in bots) else 0  # each seat's bot, if named
    print(f"  {'seat':<6}{'bot' if width else '':<{width}}{'wins':>8}{'win rate':>10}{'mean score':>12}")
    for p in range(players):
        print(f"  {'P' + str(p):<6}{bots[p] if width else '':<{width}}{s['wins_by_seat'][p]:>8}"
              f"{s['win_rate_by_seat'][p]:>10.1%}{s['mean_scores'][p]:>12.2f}")
    print(f"  mean turns {s['mean_turns']:.2f}, mean decisions {s['mean_decisions']:.2f}")
    if s["win_rate_by_group"]:
        print(f"  win rate by {s['report_by']}:")
        for group, rate in s["win_rate_by_group"].items():
            print(f"    {group:<24}{rate:>8.1%}")
    for name, rate in s["per_round"].items():
        print(f"  {name} per round: {rate:.1%}")
    print(f"  ended at the round limit: {s['ended_by_round_limit']:.1%}")
    if s["mean_counters"]:
        means = ", ".join(f"{k} {v:.3f}" for k, v in s["mean_counters"].items())
        print(f"  mean game counters at the end: {means}")
    print(f"  {s['games_per_s']:.0f} games/s, {s['elapsed_s']:.2f} s, {_n(s['workers'], 'worker')}")


# ---- duel -------------------------------------------------------------------------------------------


def cmd_duel(args: argparse.Namespace) -> int:
    """Bot A against bot B, seats rotated: A's win rate and mean score with 95% intervals (bots/duel.py)."""
    from .bots.duel import duel, report

    game = _game(args.game).with_max_steps(args.max_steps)
    players = _players(game, args.players)
    _bot_kinds(f"{args.a},{args.b}")
    workers = min(args.workers, args.n, _cores())
    if args.workers > _cores():
        print(f"meeple duel: --workers {args.workers}: this machine has {_n(_cores(), 'core')}, so "
              f"{_n(workers, 'worker')} run", file=sys.stderr)
    figures = duel(game, args.a.strip(), args.b.strip(), args.n, players, args.seed,
                   None if args.json else _progress_bar(), workers=workers)
    print(json.dumps(figures) if args.json else report(game, figures))
    return 0


# ---- check ------------------------------------------------------------------------------------------


CHECK_LOG = "check-failure.jsonl"


def _replay_command(game: Game, path: str) -> str:
    """The command that re-runs a log of `game` written to `path`."""
    folder = "" if game.bundled else f" --game {game.model.root}"
    return f"meeple replay {path}{folder}"


def cmd_check(args: argparse.Namespace) -> int:
    """Property-test a game with Hypothesis: its invariants, checks and the built-in properties, at every player
    count (or --players); on failure, the shrunk match step by step and a log that replay re-runs."""
    from .check import NotDeterministic, chance_line, check_game, describe, story

    game = _game(args.game).with_max_steps(args.max_steps)
    if args.players is not None:
        _players(game, args.players)
    out = args.out or CHECK_LOG
    _outputs(game, ("--out", out))
    invariants = _n(len(game.invariants), "invariant")
    if game.checks:
        invariants += ", " + _n(len(game.checks), "check")
    print(f"{game.title}: checking {invariants} and the built-in properties, {_n(args.examples, 'match', 'matches')} "
          f"per player count (seed {args.seed})", flush=True)

    def each(run) -> None:
        if run.failure is None:
            print(f"  {_n(run.players, 'player')}: {_n(run.examples, 'example')}, "
                  f"{_n(run.decisions, 'decision')} checked, {run.seconds:.2f} s: every property holds", flush=True)

    try:
        runs = check_game(game, args.players, args.examples, args.seed, each=each)
    except NotDeterministic as err:
        raise CliError(str(err)) from None
    failure = runs[-1].failure
    if failure is None:
        return _check_leaks(game, args)
    run, played = runs[-1], failure.played
    log = failure.log
    _write_log(out, log, game)
    print(f"  {_n(run.players, 'player')}: FAILED (after {_n(run.examples, 'example')}, shrunk, {run.seconds:.2f} s)")
    print(f"property: {describe(failure.check, game)}")
    print(f"failure:  {failure.message}")
    chance = chance_line(played.chance or [])
    print(f"the shrunk match: {_n(len(played.match.history), 'decision')}, {chance}")
    for line in story(game, log):
        print(f"  {line}")
    print(f"its log: {out} (`{_replay_command(game, out)}` re-runs it)")
    return 1


def _check_leaks(game: Any, args: argparse.Namespace) -> int:
    """The leak check, after the other properties: in random matches, a hidden answer or deal replaced
    by another must not change what any other seat is shown, and a determinization must keep it."""
    from .leaks import check_leaks

    if not args.leaks:
        return 0
    counts = game.player_counts(args.players)
    seeds = range(args.seed, args.seed + args.leaks)
    for n in counts:
        started = time.perf_counter()
        try:
            report = check_leaks(game, players=n, seeds=seeds)
        except AssertionError as leak:
            print(f"  {_n(n, 'player')}: FAILED the leak check")
            print("property: no seat is shown what the rules hide from it (a hidden answer or deal replaced by "
                  "another changes nothing it sees)")
            print(f"failure:  {leak}")
            print(f"the match: `meeple play {args.game} --players {n} --seed S` plays it with the same random "
                  f"bots (S and the decisions are above)")
            return 1
        print(f"  {_n(n, 'player')}: leak check of {_n(len(seeds), 'match', 'matches')}, "
              f"{_n(report.points, 'point')} checked, {time.perf_counter() - started:.2f} s: nothing leaks"
              + (f" ({_n(report.no_world, 'determinization')} found no world)" if report.no_world else ""),
              flush=True)
    return 0


# ---- replay -----------------------------------------------------------------------------------------


def _short(line: Any) -> str:
    """A log line (or a description) for a mismatch message, cut short if long."""
    text = line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)
    return text if len(text) <= 400 else text[:399] + "…"


SHOWN_CHARS = 2000
"""The longest line of a seat log `replay` shows (the rest is cut, with `…`)."""


def _show_seat_log(file: str, lines: list[dict[str, Any]], asked: int | None) -> int:
    """A seat log (`play --log-for`) is shown as that seat saw the match: it holds no seed and not what the
    seat did not see, so there is nothing to re-run (the full log of `play --log` replays)."""
    from .load.source import readable
    from .run.information import describe

    header = lines[0]
    seat = header["seat"]
    if asked is not None and asked != seat:
        raise CliError(f"{file}:1: error: this is what P{seat} saw (a seat log); it holds nothing of what P{asked} "
                       f"saw: replay the full log (`play --log`) with --as {asked}", located=True)
    shown = []
    for number, line in enumerate(lines[1:], 2):
        try:
            if line.get("type") == "result":
                shown.append(f"scores {list(line['scores'])}, winners {list(line['winners'])}")
            else:
                shown.append(describe(line, seat))
        except (KeyError, TypeError, AttributeError, ValueError):  # a line of another shape than the engine writes
            raise CliError(f"{file}:{number}: error: not an observation of a seat log: {_short(line)}",
                           located=True) from None
    print(f"{file} is what P{seat} saw of a {readable(header['game'])} match of {_n(header['players'], 'player')} "
          "(a seat log: it has no seed and not what the seat did not see, so it is shown, not re-run):")
    for text in shown:  # the file may come from anyone: no control character of it reaches the terminal
        print("  " + readable(text, SHOWN_CHARS))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-run a logged match from its seed and decisions; every line must come out the same."""
    from .check import Stopped, begin, describe, recheck, stop_where_logged
    from .logfile import LogError, WholeStates, check_record, files_changed, game_to_replay, is_seat_log, read_log
    from .run.information import describe as observed
    from .run.match import ChanceMismatch, Recorded

    file = args.file
    try:
        expected = read_log(file)
        header = expected[0]
        if is_seat_log(header):
            return _show_seat_log(file, expected, args.seat)
        game = _game(game_to_replay(header, args.game, file)).with_max_steps(args.max_steps)
    except LogError as err:
        raise CliError(str(err), located=True) from None
    if header["game"] != game.name:
        raise CliError(f"{file}:1: error: this log is of `{header['game']}`, but --game {args.game} is `{game.name}`",
                       located=True)
    players = header.get("players")
    if args.seat is not None and isinstance(players, int) and args.seat >= players:  # before replaying it all
        raise CliError(f"--as {args.seat}: the match has seats 0..{players - 1}")
    changed = files_changed(header, game)
    chance = header.get("chance")  # a checked match: its chance outcomes were drawn, not seeded
    try:
        m, _ = begin(game, header["players"], header["seed"], log=True, bots=header["bots"],
                     chance=None if chance is None else Recorded(chance), ended=stop_where_logged(game, expected))
        assert m.log is not None  # made with its log
    except ValueError as err:
        raise CliError(f"{file}:1: error: {err}", located=True) from None
    except ChanceMismatch as err:
        raise CliError(f"{file}:1: mismatch: {err}", located=True) from None
    checked: str | None = None  # the message of a property that a check found broken, found again

    def normal(line: dict[str, Any], index: int) -> dict[str, Any]:
        line = json.loads(json.dumps(line))  # tuples → lists, as the file has them
        if index == 0:
            line.pop("bots", None)  # who played a seat does not change the match
            line.pop("path", None)  # nor where the game's folder lies
            line.pop("files", None)  # compared on its own, to say why a replay differs
            line.pop("chance", None)  # fed in, and all of them must be used (below)
        return line

    def mismatch(index: int, got: Any) -> CliError:
        if index < len(expected):
            problems = check_record(expected[index], index + 1, file)  # a malformed line: say how
            if problems:
                return CliError("\n".join(problems), located=True)
        why = " (the game's files changed since this log was written)" if changed else ""
        if index >= len(expected):
            return CliError(f"{file}:{index}: mismatch: the log ends here, but the replay goes on with "
                            f"{_short(got)}{why}", located=True)
        return CliError(f"{file}:{index + 1}: mismatch: expected {_short(expected[index])} got {_short(got)}{why}",
                        located=True)

    states = WholeStates(file)  # a state line of changes is made whole to compare it with the match's

    for i, line in enumerate(expected):
        if line.get("type") == "decision" and len(m.log) == i and not m.over and m.failure is None:
            problems = check_record(line, i + 1, file)
            if problems:
                raise CliError("\n".join(problems), located=True)
            try:
                problem = m.apply(line["who"], line["choice"])
            except (RuleError, Stopped):
                problem = None  # the failure is a line of the log, compared below like any other
                # (a check that failed at the end of a turn or round stops the replay there too)
            except ChanceMismatch as err:
                raise CliError(f"{file}:1: mismatch: {err}", located=True) from None
            if problem is not None:
                raise mismatch(i, f"{problem.code}: {problem.reason}")
        if line["type"] == "error" and "check" in line and len(m.log) == i and m.failure is None:
            checked = recheck(m, line["check"])  # a property `meeple check` found broken here: still broken?
            m.log.append({"type": "error", "message": checked or f"it holds here: {describe(line['check'], game)}",
                          "decisions": len(m.history), "check": line["check"]})
        if i >= len(m.log):
            waiting = ", ".join(m.layout.player_name(p) for p in m.to_act())
            raise mismatch(i, f"a decision of {waiting}" if waiting else "the end of the match")
        if line.get("type") == "state":
            try:
                line = states.line(line, i + 1)
            except LogError as err:
                raise CliError(str(err), located=True) from None
        if m.log[i] != line and normal(m.log[i], i) != normal(line, i):  # (most lines are equal as they are)
            raise mismatch(i, m.log[i])
    if len(m.log) > len(expected):
        raise mismatch(len(expected), m.log[len(expected)])
    if not m.over and m.failure is None and checked is None:
        waiting = ", ".join(m.layout.player_name(p) for p in m.to_act())
        why = " (the game's files changed since this log was written)" if changed else ""
        raise CliError(f"{file}:{len(expected)}: mismatch: the log ends, but the match waits for {waiting}{why}",
                       located=True)
    if chance is not None and m.st.chance_used != len(chance):
        raise CliError(f"{file}:1: mismatch: the header has {_n(len(chance), 'chance outcome')}, but the match "
                       f"used {m.st.chance_used}", located=True)
    events = sum(1 for line in expected if line.get("type") == "event")
    decisions = sum(1 for line in expected if line.get("type") == "decision")
    ending = "result matches" if m.failure is None else f"the rules fail at the same point: {m.failure}"
    if checked is not None:
        ending = f"the check fails at the same point: {checked}"
    note = " (the game's files changed since this log was written, but the match is the same)" if changed else ""
    print(f"replay ok: {_n(events, 'event')}, {_n(decisions, 'decision')}, {ending}{note}")
    if args.seat is not None:
        if args.seat >= m.players:
            raise CliError(f"--as {args.seat}: the match has seats 0..{m.players - 1}")
        print(f"as P{args.seat} saw it:")
        for line in m.information_state_json(args.seat)["observed"]:
            print("  " + observed(line, args.seat))
        if m.over:
            print(f"  scores {m.scores}, winners {m.winners}")
    return 0


# ---- report, compare (interpreter/lab) ---------------------------------------------------------------


def cmd_report(args: argparse.Namespace) -> int:
    """The balance report of a game (interpreter/lab/command.py)."""
    from .lab.command import report

    return _lab(report, args)


def cmd_compare(args: argparse.Namespace) -> int:
    """A paired comparison of two versions of a game (interpreter/lab/command.py)."""
    from .lab.command import compare

    return _lab(compare, args)


def _lab(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    from .files import OutputError
    from .lab.command import LabError

    try:
        return command(args)
    except (LabError, OutputError) as err:
        raise CliError(str(err)) from None


# ---- the command line -------------------------------------------------------------------------------


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "games": cmd_games,
    "validate": cmd_validate,
    "test": cmd_test,
    "cards": cmd_cards,
    "print": cmd_print,
    "serve": cmd_serve,
    "compile": cmd_compile,
    "play": cmd_play,
    "sim": cmd_sim,
    "duel": cmd_duel,
    "replay": cmd_replay,
    "check": cmd_check,
    "report": cmd_report,
    "compare": cmd_compare,
    "rules": cmd_rules,
}


BOTS_HELP = ("bot per seat, or one for all: random, first, mc:N, ismcts:N (N iterations, or a time such as "
             "ismcts:0.5s)")


def build_parser() -> argparse.ArgumentParser:
    """The argparse tree of every subcommand."""
    parser = _Parser(prog="meeple", description="A rules-as-data engine for tabletop card games.")
    parser.add_argument("--version", action="version", version=f"meeple {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    sub.add_parser("games", help="list the bundled games", description="List the bundled games.")

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

    p = sub.add_parser("cards", help="list a game's cards",
                       description="List a game's cards: id, name, count, kind and text.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")

    from .printing.command import add_arguments as print_arguments

    print_arguments(sub.add_parser("print", help="print-and-play sheets of a game's cards (PDF or PNG)",
                                   description="Put every card of a game, in its count of copies, on sheets to "
                                               "print at 100%, cut on the crop marks and play: a PDF of fronts and "
                                               "backs, one card a page for a print shop, or PNG images."))

    from .web.command import add_arguments as serve_arguments

    serve_arguments(sub.add_parser("serve", help="the playtest web page: play any seat against bots or friends",
                                   description="Serve the playtest web page: a table of a game in the browser, "
                                               "each seat a person (by its own link) or a bot."))

    p = sub.add_parser("rules", help="print a game's rules page",
                       description="Print a game's rules page (the README.md in its folder).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")

    p = sub.add_parser("compile", help="print the Python a game compiles to",
                       description="Print the Python a game compiles to, each block headed by the YAML "
                                   "file:line it comes from (a traceback of a failing rule shows these lines).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("-o", "--output", metavar="FILE", help="write it to FILE instead of printing it")

    p = sub.add_parser("play", help="play one match", description="Play one match (all bots by default).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=_seed, default=0, help="the match seed (default 0)")
    p.add_argument("--bots", metavar="KIND,...", help=BOTS_HELP)
    p.add_argument("--human", type=_seat, metavar="SEAT", help="let a person play this seat (0-based)")
    p.add_argument("--log", metavar="FILE", help="write the match log as JSON Lines")
    p.add_argument("--log-for", nargs=2, action="append", metavar=("SEAT", "FILE"),
                   help="also write what SEAT saw of the match (its information state) as JSON Lines")
    p.add_argument("--json", action="store_true", help="print only the result as one JSON object")
    p.add_argument("--lang", choices=sorted(WORDS), default="en", help="language of the CLI's own words")
    _limit_args(p)

    p = sub.add_parser("sim", help="many bot matches, summarised",
                       description="Play many random-bot matches (seeds seed, seed+1, …) and summarise them.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("-n", type=_count, required=True, metavar="N", help="number of matches")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the first match (default 0)")
    p.add_argument("--workers", type=_count, default=1, metavar="W",
                   help="processes to use (default 1; at most one per match and per core)")
    p.add_argument("--bots", metavar="KIND,...", help=BOTS_HELP)
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _limit_args(p)
    p.add_argument("--check", action="store_true",
                   help="check the game's invariants and that every card lies in one zone at every decision, "
                        "and its checks where each says (slower); the first failure is written to "
                        "check-failure.jsonl")

    p = sub.add_parser("duel", help="bot A against bot B, seats rotated",
                       description="Play bot A against bot B: game g has A at seat g %% P and B at the other "
                                   "seats (seed S + g // P); print A's win rate (a shared win counts 1/k; Wilson "
                                   "95%% interval) and mean score (95%% interval).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("a", metavar="A", help="bot A (e.g. ismcts:200)")
    p.add_argument("b", metavar="B", help="bot B (e.g. random)")
    p.add_argument("-n", type=_count, default=100, metavar="N", help="number of games (default 100)")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the first deal (default 0)")
    p.add_argument("--workers", type=_count, default=1, metavar="W",
                   help="processes to use (default 1; at most one per game and per core; same figures)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    _limit_args(p)

    p = sub.add_parser("check", help="property-test a game with Hypothesis",
                       description="Play Hypothesis-drawn matches (every decision and chance outcome drawn, so a "
                                   "failure shrinks) and check the game's invariants at every decision, its "
                                   "checks at the end of each turn, round or match, that no "
                                   "rule fails, that every card lies in exactly one zone, that the match ends, "
                                   "and that it replays the same; on failure print the shrunk match and write "
                                   "its log, exit 1.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--examples", type=_count, default=100, metavar="N",
                   help="matches per player count (default 100)")
    p.add_argument("--players", type=_count, help="check only this player count (default: each the game allows)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of Hypothesis's search (default 0; same seed, same run)")
    p.add_argument("--out", metavar="FILE", help=f"where to write the log of a failure (default {CHECK_LOG})")
    p.add_argument("--leaks", type=_some, default=2, metavar="N",
                   help="then the leak check: N random matches per player count (default 2; 0: none)")
    _limit_args(p)

    p = sub.add_parser("replay", help="re-run a logged match and compare",
                       description="Re-run a match log's decisions; every line must come out the same.")
    p.add_argument("file", metavar="FILE", help="a JSON Lines log written by `meeple play --log`")
    p.add_argument("--game", metavar="FOLDER",
                   help="the game to replay against: a bundled name or a game folder (needed for games outside "
                        "the bundle; a folder named in the log itself is never used)")
    p.add_argument("--as", dest="seat", type=_seat, metavar="SEAT",
                   help="then show the match as that seat saw it (hidden cards by their backs)")
    _limit_args(p)

    from .lab.command import add_parsers  # report, compare

    add_parsers(sub, _count, _seed, _limit_args)
    return parser


def _limit_args(p: argparse.ArgumentParser) -> None:
    """The run-time limits a person may raise for a game they trust (SECURITY.md)."""
    p.add_argument("--max-steps", type=_count, default=MAX_STEPS, metavar="N",
                   help=f"loop rounds and nested calls a match may run (default {MAX_STEPS:,})")


def main(argv: list[str] | None = None) -> int:
    """Run the `meeple` command; returns the exit status (never raises, never prints a traceback)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    with second_ctrl_c_exits(keep=argv is None):  # a program or test calling main keeps its own Ctrl-C
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run the command; every failure is one message and an exit status."""
    try:
        return COMMANDS[args.command](args)
    except CliError as err:
        print(str(err) if err.located else f"meeple {args.command}: error: {err}", file=sys.stderr)
    except AuthoringError as err:
        for d in err.diagnostics:
            print(d.render(), file=sys.stderr)
    except RuleError as err:
        print(f"meeple {args.command}: error: the game's rules failed during play: {err}", file=sys.stderr)
    except KeyboardInterrupt as err:
        print(f"\nmeeple {args.command}: {str(err) or 'interrupted'}", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as err:  # the system refused a file or folder named on the command line
        where = f"{err.filename}: " if err.filename else ""
        print(f"meeple {args.command}: error: {where}{err.strerror or err}", file=sys.stderr)
    except Exception as err:
        print(f"meeple {args.command}: internal error (please report it): {type(err).__name__}: {err}",
              file=sys.stderr)
    return 1
