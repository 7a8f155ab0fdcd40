"""The `meeple` command: games, validate, play, sim, replay (see CONTRACT.md for the outside)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TextIO

from .diagnostics import AuthoringError, Diagnostic
from .game import Game, load_game
from .load.loader import bundled_games, find_game
from .load.schema import validate as schema_validate
from .load.source import load_yaml
from .run.match import Match, random_bot
from .run.runtime import RuleError, seen_by

BOT_KINDS = ("random",)

# The CLI's own fixed words; the game's `say` sentences are printed as the game wrote them.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "header": "{title}: {n} players, seed {seed}",
        "chose": "{who} chose (hidden)",
        "you": "you",
        "scores": "Scores",
        "winner": "Winner",
        "shared": "Shared win",
        "no_winner": "No winner",
        "turn_of": "{who} ({you}), round {round}: {prompt}",
        "cards": "cards",
        "counters": "counters",
        "ask": "choice [1-{k}, q to quit]: ",
        "bad_choice": "not an option: type a number from 1 to {k}",
        "eof": "input ended before the match did; the match is abandoned",
        "quit": "the match is abandoned",
    },
    "ru": {
        "header": "{title}: игроков {n}, зерно {seed}",
        "chose": "{who} делает выбор (скрыто)",
        "you": "вы",
        "scores": "Очки",
        "winner": "Победитель",
        "shared": "Общая победа",
        "no_winner": "Победителя нет",
        "turn_of": "{who} ({you}), раунд {round}: {prompt}",
        "cards": "карт",
        "counters": "счётчики",
        "ask": "выбор [1-{k}, q — выйти]: ",
        "bad_choice": "такого варианта нет: введите число от 1 до {k}",
        "eof": "ввод закончился раньше партии; партия прервана",
        "quit": "партия прервана",
    },
}


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


def _whole(minimum: int, what: str):
    """An argparse type: a whole number of at least `minimum`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {what}, not {value}")
        return value

    return parse


_count = _whole(1, "a whole number of at least 1")  # -n, --workers, --players
_seat = _whole(0, "a seat number (0, 1, …)")


# ---- shared helpers ---------------------------------------------------------------------------------


def _game(name: str) -> Game:
    """Load a GAME argument; an unknown name is a one-line error, broken content an AuthoringError."""
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


def _write_whole(path: str, lines: list[dict[str, Any]]) -> None:
    """Write JSON Lines all at once: a temp file in the same folder, then an atomic rename."""
    target = Path(path)
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        os.replace(temp, target)
    except OSError as err:
        Path(temp).unlink(missing_ok=True)
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


# ---- games ------------------------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    """List the bundled games with their player counts."""
    status = 0
    for name in bundled_games():
        try:
            g = load_game(name)
        except AuthoringError:
            print(f"{name:<14} (broken: run `meeple validate {name}`)")
            status = 1
            continue
        print(f"{g.name:<14} {g.title:<20} {g.min_players}–{g.max_players} players "
              f"(default {g.default_players})")
    return status


# ---- validate ---------------------------------------------------------------------------------------


def _card_entries(path: Path) -> tuple[int, list[Diagnostic]]:
    """Check a lone card file against the card schema: (number of cards, diagnostics)."""
    try:
        data, smap = load_yaml(path)
    except AuthoringError as err:
        return 0, err.diagnostics
    found = schema_validate(data, smap, "cards.schema.json", str(path))
    cards = data.get("cards") if isinstance(data, dict) else None
    return (len(cards) if isinstance(cards, list) else 0), found


def _validate_one(raw: str, games: dict[Path, Game | AuthoringError]
                  ) -> tuple[str | None, list[Diagnostic], Path]:
    """Validate one PATH: ("ok: …" line or None, diagnostics, the folder or file they come from).

    A game is loaded once per folder, however many of its files are named.
    """
    path = Path(raw)
    if path.is_dir():
        folder, card_file = path, None
        if not (path / "game.yaml").is_file():
            raise CliError(f"{raw}: not a game folder (it has no game.yaml)")
    elif path.is_file():
        folder = path.parent if (path.parent / "game.yaml").is_file() else None
        card_file = None if path.name == "game.yaml" else path
    else:
        raise CliError(f"{raw}: no such file or folder")
    if folder is None:
        n, found = _card_entries(path)
        return (f"ok: {raw} ({n} cards)" if not found else None), found, path.resolve()
    key = folder.resolve()
    if key not in games:
        try:
            games[key] = load_game(key)
        except AuthoringError as err:
            games[key] = err
    game = games[key]
    if isinstance(game, AuthoringError):
        return None, game.diagnostics, key
    if card_file is None:
        return f"ok: {raw} ({len(game.model.cards)} cards)", [], key
    mine = card_file.resolve()
    n = sum(1 for c in game.model.cards if Path(c.pos.file).resolve() == mine)
    if n:
        return f"ok: {raw} ({n} cards)", [], key
    n, found = _card_entries(card_file)  # in the folder but not listed in game.yaml: check its shape only
    return (f"ok: {raw} ({n} cards; not listed in game.yaml)" if not found else None), found, mine


def cmd_validate(args: argparse.Namespace) -> int:
    """Check game folders and card files; print every diagnostic of every path (each broken game once)."""
    games: dict[Path, Game | AuthoringError] = {}
    reported: set[Path] = set()
    errors = 0
    failed = False
    for raw in args.paths:
        try:
            ok, found, source = _validate_one(raw, games)
        except CliError as err:
            print(f"meeple validate: error: {err}", file=sys.stderr)
            failed = True
            continue
        if ok:
            print(ok)
        else:
            failed = True
        if source in reported:
            continue
        reported.add(source)
        for d in found:
            print(d.render(), file=sys.stderr)
        errors += len(found)
    if errors:
        print(f"{errors} error{'s' if errors != 1 else ''} found", file=sys.stderr)
    return 1 if failed else 0


# ---- play -------------------------------------------------------------------------------------------


def _bot_kinds(kinds: str | None) -> list[str]:
    """The bot kinds of `--bots`, each checked."""
    names = [k.strip() for k in kinds.split(",")] if kinds else ["random"]
    for k in names:
        if k not in BOT_KINDS:
            raise CliError(f"unknown bot kind `{k}`; kinds: {', '.join(BOT_KINDS)}")
    return names


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


def _card_text(card: str | dict[str, Any]) -> str:
    """A card as a player sees it: its id, or its back in brackets when it is hidden."""
    if isinstance(card, str):
        return card
    back = [str(v) for k, v in card.items() if k != "hidden"]
    return "[" + ("/".join(back) or "?") + "]"


def _brief_view(m: Match, seat: int, words: dict[str, str]) -> list[str]:
    """A few lines of what `seat` sees: non-empty zones (hidden cards by their backs) and counters."""
    view = m.view(seat)
    lines = []
    for zone, cards in view["zones"].items():
        if isinstance(cards, dict):
            if cards["count"]:
                lines.append(f"  {zone}: {cards['count']} {words['cards']}")
        elif cards:
            lines.append(f"  {zone}: {', '.join(_card_text(c) for c in cards)}")
    counters = ", ".join(f"{k} {v}" for k, v in view["counters"].items())
    if counters:
        lines.append(f"  {words['counters']}: {counters}")
    return lines


def _ask_human(m: Match, seat: int, words: dict[str, str], out: TextIO) -> int:
    """Show the seat its view and options; read a number (or an option's label) until it fits."""
    labels = m.action_labels(seat)
    name = m.layout.player_name(seat)
    heading = words["turn_of"].format(who=name, you=words["you"], round=m.st.round, prompt=m.prompt(seat))
    print(heading, file=out)
    for line in _brief_view(m, seat, words):
        print(line, file=out)
    for i, label in enumerate(labels, 1):
        print(f"    {i}) {label}", file=out)
    while True:
        print(words["ask"].format(k=len(labels)), end="", file=out, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise CliError(words["eof"])
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            raise CliError(words["quit"])
        if text.isdigit() and 1 <= int(text) <= len(labels):
            return int(text) - 1
        if text in labels:
            return labels.index(text)
        print(words["bad_choice"].format(k=len(labels)), file=out)


class _Narrator:
    """Prints the match as it goes: `say` sentences, decisions (hidden ones without their content)."""

    def __init__(self, m: Match, out: TextIO | None, words: dict[str, str], human: int | None) -> None:
        self.m, self.out, self.words, self.human = m, out, words, human
        self.printed = 0
        self.card_index = {cid: c for c, cid in enumerate(m.layout.card_ids)}
        self.everyone = (1 << m.players) - 1

    def catch_up(self, together: bool = False) -> None:
        """Print the log lines added since the last call; `together`: the decision was simultaneous."""
        if self.out is None:
            return
        m = self.m
        for line in m.log[self.printed:]:
            if line["type"] == "event" and line["event"] == "say":
                print(line["text"], file=self.out)
            elif line["type"] == "decision":
                who = line["who"]
                card = self.card_index.get(line["label"])
                hidden = together or (card is not None and seen_by(m.st, card) != self.everyone)
                name = m.layout.player_name(who)
                if hidden and who != self.human:
                    print("  " + self.words["chose"].format(who=name), file=self.out)
                else:
                    print(f"  {name}: {line['label']}", file=self.out)
        self.printed = len(m.log)
        self.out.flush()


def cmd_play(args: argparse.Namespace) -> int:
    """Play one match: bots (and maybe one human) with a readable running log, or a JSON result."""
    game = _game(args.game)
    kinds = _bot_kinds(args.bots)
    players = args.players if args.players is not None else (len(kinds) if len(kinds) > 1 else None)
    players = _players(game, players)
    bots = _bots(kinds, players, args.human)
    if args.log and not Path(args.log).resolve().parent.is_dir():
        raise CliError(f"cannot write {args.log}: its folder does not exist")
    if args.log and Path(args.log).is_dir():
        raise CliError(f"cannot write {args.log}: it is a folder")
    words = WORDS[args.lang]
    out = None if args.json else sys.stdout
    human_out = sys.stderr if args.json else sys.stdout
    m = Match(game, players, args.seed, log=True, bots=bots)
    if out is not None:
        print(words["header"].format(title=game.title, n=players, seed=args.seed), file=out)
    narrator = _Narrator(m, out, words, args.human)
    narrator.catch_up()
    rng = random_bot(args.seed)
    while not m.over:
        seats = m.to_act()
        together = m.simultaneous
        for seat in seats:
            if seat == args.human:
                action = _ask_human(m, seat, words, human_out)
            else:
                action = rng._randbelow(len(m.legal_actions(seat)))
            problem = m.apply(seat, action)
            assert problem is None, problem
            narrator.catch_up(together)
    if args.log:
        _write_whole(args.log, m.log)
    result = {"game": game.name, "seed": args.seed, "players": players, "winners": m.winners,
              "scores": m.scores, "turns": m.result()["turns"], "decisions": m.st.decisions}
    if args.json:
        print(json.dumps(result))
        return 0
    names = [m.layout.player_name(p) for p in range(players)]
    print(f"{words['scores']}: " + ", ".join(f"{names[p]} {s}" for p, s in enumerate(m.scores)))
    winners = [names[p] for p in m.winners]
    if not winners:
        print(words["no_winner"])
    elif len(winners) == 1:
        print(f"{words['winner']}: {winners[0]}")
    else:
        print(f"{words['shared']}: {', '.join(winners)}")
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


def cmd_sim(args: argparse.Namespace) -> int:
    """Many random-bot matches through the fast path; print a summary."""
    from .run.sim import run_many

    game = _game(args.game)
    players = _players(game, args.players)
    summary = run_many(game, players, args.n, args.seed, args.workers, _progress_bar())
    if args.json:
        print(json.dumps(summary))
        return 0
    s = summary
    last = args.seed + s["games"] - 1
    print(f"{game.title}: {s['games']} games, {players} players, seeds {args.seed}–{last}")
    print(f"  {'seat':<6}{'wins':>8}{'win rate':>10}{'mean score':>12}")
    for p in range(players):
        print(f"  {'P' + str(p):<6}{s['wins_by_seat'][p]:>8}{s['win_rate_by_seat'][p]:>10.1%}"
              f"{s['mean_scores'][p]:>12.2f}")
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
    print(f"  {s['games_per_s']:.0f} games/s, {s['elapsed_s']:.2f} s, {args.workers} "
          f"worker{'s' if args.workers != 1 else ''}")
    return 0


# ---- replay -----------------------------------------------------------------------------------------


def _read_log(file: str) -> list[dict[str, Any]]:
    """Parse and schema-check every line of a JSONL match log; every bad line is reported."""
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CliError(f"cannot read {file}: {reason}") from None
    lines, problems = [], []
    for no, raw in enumerate(text.splitlines(), 1):
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as err:
            problems.append(f"{file}:{no}: error: not a JSON line: {err.msg} (column {err.colno})")
            continue
        for d in schema_validate(obj, None, "log.schema.json", file):
            message = d.message.replace("the top level", "the line", 1)
            problems.append(f"{file}:{no}: error: {message}" + (f" ({d.hint})" if d.hint else ""))
        lines.append(obj)
    if problems:
        raise CliError("\n".join(problems), located=True)
    if not lines:
        raise CliError(f"{file}: error: the log is empty", located=True)
    if lines[0].get("type") != "match":
        raise CliError(f"{file}:1: error: the first line must be the `match` header", located=True)
    return lines


def _short(line: Any) -> str:
    """A log line (or a description) for a mismatch message."""
    return line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-run a logged match from its seed and decisions; every line must come out the same."""
    file = args.file
    expected = _read_log(file)
    header = expected[0]
    game = _game(args.game or header.get("path") or header["game"])
    try:
        m = Match(game, header["players"], header["seed"], log=True, bots=header["bots"])
    except ValueError as err:
        raise CliError(f"{file}:1: error: {err}", located=True) from None

    def normal(line: dict[str, Any], index: int) -> dict[str, Any]:
        line = json.loads(json.dumps(line))  # tuples → lists, as the file has them
        if index == 0:
            line.pop("bots", None)  # who played a seat does not change the match
            line.pop("path", None)  # nor where the game's folder lies
        return line

    def mismatch(index: int, got: Any) -> CliError:
        if index >= len(expected):
            return CliError(f"{file}:{index}: mismatch: the log ends here, but the replay goes on with "
                            f"{_short(got)}", located=True)
        return CliError(f"{file}:{index + 1}: mismatch: expected {_short(expected[index])} got {_short(got)}",
                        located=True)

    for i, line in enumerate(expected):
        if line["type"] == "decision" and len(m.log) == i and not m.over:
            problem = m.apply(line["who"], line["choice"])
            if problem is not None:
                raise mismatch(i, f"{problem.code}: {problem.reason}")
        if i >= len(m.log):
            waiting = ", ".join(m.layout.player_name(p) for p in m.to_act())
            raise mismatch(i, f"a decision of {waiting}" if waiting else "the end of the match")
        if normal(m.log[i], i) != normal(line, i):
            raise mismatch(i, m.log[i])
    if len(m.log) > len(expected):
        raise mismatch(len(expected), m.log[len(expected)])
    if not m.over:
        waiting = ", ".join(m.layout.player_name(p) for p in m.to_act())
        raise CliError(f"{file}:{len(expected)}: mismatch: the log ends, but the match waits for {waiting}",
                       located=True)
    events = sum(1 for line in expected if line["type"] == "event")
    decisions = sum(1 for line in expected if line["type"] == "decision")
    print(f"replay ok: {events} events, {decisions} decisions, result matches")
    return 0


# ---- the command line -------------------------------------------------------------------------------


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "games": cmd_games,
    "validate": cmd_validate,
    "play": cmd_play,
    "sim": cmd_sim,
    "replay": cmd_replay,
}


def build_parser() -> argparse.ArgumentParser:
    """The argparse tree of every subcommand."""
    parser = _Parser(prog="meeple", description="A rules-as-data engine for tabletop card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    sub.add_parser("games", help="list the bundled games", description="List the bundled games.")

    p = sub.add_parser("validate", help="check game folders and card files",
                       description="Check game folders, game.yaml files and card files; exit 1 on any error.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a game folder, a game.yaml or a card file")

    p = sub.add_parser("play", help="play one match", description="Play one match (all bots by default).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    p.add_argument("--bots", metavar="KIND,...", help="bot kind per seat, or one for all (kinds: random)")
    p.add_argument("--human", type=_seat, metavar="SEAT", help="let a person play this seat (0-based)")
    p.add_argument("--log", metavar="FILE", help="write the match log as JSON Lines")
    p.add_argument("--json", action="store_true", help="print only the result as one JSON object")
    p.add_argument("--lang", choices=sorted(WORDS), default="en", help="language of the CLI's own words")

    p = sub.add_parser("sim", help="many bot matches, summarised",
                       description="Play many random-bot matches (seeds seed, seed+1, …) and summarise them.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("-n", type=_count, required=True, metavar="N", help="number of matches")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match (default 0)")
    p.add_argument("--workers", type=_count, default=1, metavar="W", help="processes to use (default 1)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    p = sub.add_parser("replay", help="re-run a logged match and compare",
                       description="Re-run a match log's decisions; every line must come out the same.")
    p.add_argument("file", metavar="FILE", help="a JSON Lines log written by `meeple play --log`")
    p.add_argument("--game", metavar="PATH", help="the game folder, for games outside the bundle")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the `meeple` command; returns the exit status (never raises, never prints a traceback)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    try:
        return COMMANDS[args.command](args)
    except CliError as err:
        print(str(err) if err.located else f"meeple {args.command}: error: {err}", file=sys.stderr)
    except AuthoringError as err:
        for d in err.diagnostics:
            print(d.render(), file=sys.stderr)
    except RuleError as err:
        print(f"meeple {args.command}: error: the game's rules failed during play: {err}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"\nmeeple {args.command}: interrupted", file=sys.stderr)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as err:
        print(f"meeple {args.command}: internal error (please report it): {type(err).__name__}: {err}",
              file=sys.stderr)
    return 1
