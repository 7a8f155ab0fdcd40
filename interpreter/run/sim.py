"""Many bot matches, fast: drive the compiled flow directly (no Match, no log) and tally on the fly."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from .failures import RULE_FAILURES, rule_error
from .flow import TURN, Cursor, finish, run_flow
from .playable import Game
from .random_bots import LIMITS, bot_bytes, random_bot, rare_pick
from .runtime import State
from .tracebacks import places_of_game, show_rules_lines

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor


class Outcome(NamedTuple):
    """What `simulate` learns of one match."""

    scores: list[int]
    winners: list[int]
    turns: int
    decisions: int
    counters: list[int]  # the game counters at the end
    capped: bool  # stopped by a safety cap of the flow (`at_most` rounds or deals), not by the game's own end
    rounds: int
    groups: list[str]  # each seat's value of the game's `report: by:` expression ("" if none)


START = Cursor()
"""The start of a match's flow (a flow reads its cursor, never changes it: one serves every match)."""

Watch = Callable[..., None]
"""`watch(game, state, seed, decisions, at="decision")`, run before every decision, at the end of every
turn and round when the game declares checks for them (`at`: "turn_end", "round_end") and at the end
("end") (`sim --check`): raises to stop the match."""


def simulate(game: Game, players: int, seed: int, watch: Watch | None = None,
             bots: list[str] | None = None) -> Outcome:
    """One match, fast: the game's one compiled flow driven by a bare loop (no Match object, no labels,
    no history, no log).

    Random bots pick as `play_random`'s do (`random_bot(seed).pick` for every decision, the seats of a
    simultaneous choice in the order they are asked), so both give the same match. `bots` (one name per
    seat, `interpreter.bots`) other than all random play the match through the step API, each choosing
    from its seat's handle; their decisions are then run again here, to tally the match as any other.
    `watch`, if given, looks at the state before every decision and at the end.
    """
    game.check_players(players)
    choose = _lineup_choices(game, players, seed, bots)
    st = State(game.model.setup(players), players, seed, None, game.max_steps)
    st.table_counters = game.counter_names
    if watch is None and choose is None:
        declared, capped = _play_random(game, st, seed)
    else:
        declared, capped = _play_watched(game, st, seed, watch, choose)
    if watch is not None:
        watch(game, st, seed, st.decisions, "end")
    try:
        scores, winners = finish(game, st, declared)
        groups = [str(game.report_by(st, p)) for p in range(players)] if game.report_by else [""] * players
    except RULE_FAILURES as err:
        raise rule_error(game, err, seed, st.decisions) from err
    return Outcome(scores, winners, st.turn or st.rounds_played, st.decisions, list(st.gc), capped, st.rounds_played,
                   groups)


def _lineup_choices(game: Game, players: int, seed: int, bots: list[str] | None) -> Callable[[int], int] | None:
    """For bots other than all random: the match played through the step API by the lineup, its decisions
    handed out again in order by the `choose(n)` returned. None for random bots."""
    if bots is None or all(name == "random" for name in bots):
        return None
    from ..bots.lineup import Lineup  # the bots stand above this stage: asked for only when named
    from .match import Match

    decided = iter(Lineup(bots, seed).play(Match(game, players, seed)).history)
    return lambda n: next(decided)[1]


def _play_random(game: Game, st: State, seed: int) -> tuple[list[int] | None, bool]:
    """Play the flow to its end with random bots and nothing watching: the hot loop of `sim`. Returns what
    `run_flow` returns; the decisions made are left in `st.decisions`.

    Each pick is `random_bot(seed).pick(n)` written out: among 2 to 256 options, a byte of the bots' stream
    (`bot_bytes`) until below `LIMITS[n]`, taken mod n; any other number of options is `rare_pick`'s (`RandomBots.pick`
    either way), so the picks are those `play_random` makes."""
    stream, draw, limits = bot_bytes(seed), next, LIMITS
    flow = run_flow(game, st, START)
    send = flow.send
    decisions = 0
    try:
        ask = next(flow)
        while True:
            options = ask[1]
            if ask[0] == -1:  # a simultaneous choice: every seat answers, in the order asked
                answers: list = []
                answer = answers.append
                for one in options:
                    choices = one[1]
                    n = len(choices)
                    if n < 257 and (limit := limits[n]):
                        while (b := draw(stream)) >= limit:
                            pass
                        answer(choices[b % n])
                    else:
                        answer(choices[rare_pick(stream, n)])
                decisions += len(answers)
                ask = send(answers)
                continue
            decisions += 1
            n = len(options)
            if n < 257 and (limit := limits[n]):  # (LIMITS[n] is 0 for one option: `rare_pick` draws none)
                while (b := draw(stream)) >= limit:
                    pass
                ask = send(options[b % n])
            else:  # (one option: no byte drawn, no call)
                ask = send(options[rare_pick(stream, n)] if n > 1 else options[0])
    except StopIteration as stop:
        st.decisions = decisions
        return stop.value
    except RULE_FAILURES as err:
        raise rule_error(game, err, seed, decisions) from err


def _play_watched(game: Game, st: State, seed: int, watch: Watch | None,
                  choose: Callable[[int], int] | None) -> tuple[list[int] | None, bool]:
    """Play the flow to its end with `watch` looking at every decision (and at the ends of turns and rounds the
    game's checks ask for), the decisions from `choose` if given, else from random bots; see `_play_random`."""
    pick = random_bot(seed).pick if choose is None else choose  # as `play_random` picks
    ended = None
    if watch is not None and any(c.at != "end" for c in game.checks.values()):
        def ended(st: State, part: int) -> None:
            watch(game, st, seed, st.decisions, "turn_end" if part == TURN else "round_end")
    flow = run_flow(game, st, START, None, None, ended)
    try:
        ask = next(flow)
        while True:
            if watch is not None:
                watch(game, st, seed, st.decisions)
            if ask[0] == -1:  # a simultaneous choice: every seat answers, in the order asked
                asks = ask[1]
                st.decisions += len(asks)
                ask = flow.send([a[1][pick(len(a[1]))] for a in asks])
            else:
                st.decisions += 1
                ask = flow.send(ask[1][pick(len(ask[1]))])
    except StopIteration as stop:
        return stop.value
    except RULE_FAILURES as err:
        raise rule_error(game, err, seed, st.decisions) from err


@dataclass(slots=True)
class Tally:
    """Running sums over many matches (no per-match data is kept)."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    score_sums: list[int] = field(default_factory=list)
    turn_sum: int = 0
    decision_sum: int = 0
    counter_sums: list[int] = field(default_factory=list)
    capped: int = 0
    round_sum: int = 0
    group_games: dict[str, int] = field(default_factory=dict)
    group_wins: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.score_sums = self.score_sums or [0] * self.players

    def add(self, scores: list[int], winners: list[int], turns: int, decisions: int,
            counters: list[int], capped: bool = False, rounds: int = 0, groups: list[str] | None = None) -> None:
        """Count one match; a shared win counts for each winner."""
        self.games += 1
        self.round_sum += rounds
        self.capped += capped
        for p, group in enumerate(groups or []):
            if group:
                self.group_games[group] = self.group_games.get(group, 0) + 1
                self.group_wins[group] = self.group_wins.get(group, 0) + (p in winners)
        for p in winners:
            self.wins[p] += 1
        for p, s in enumerate(scores):
            self.score_sums[p] += s
        self.turn_sum += turns
        self.decision_sum += decisions
        if not self.counter_sums:
            self.counter_sums = [0] * len(counters)
        for i, v in enumerate(counters):
            self.counter_sums[i] += 0 if isinstance(v, str) else v  # a text counter has no mean

    def merge(self, other: Tally) -> None:
        """Fold another tally (e.g. a worker's chunk) into this one."""
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.score_sums = [a + b for a, b in zip(self.score_sums, other.score_sums, strict=True)]
        self.turn_sum += other.turn_sum
        self.decision_sum += other.decision_sum
        if not self.counter_sums:
            self.counter_sums = [0] * len(other.counter_sums)
        self.counter_sums = [a + b for a, b in zip(self.counter_sums, other.counter_sums, strict=True)]
        self.capped += other.capped
        self.round_sum += other.round_sum
        for group, count in other.group_games.items():
            self.group_games[group] = self.group_games.get(group, 0) + count
            self.group_wins[group] = self.group_wins.get(group, 0) + other.group_wins.get(group, 0)


def run_chunk(game: Game, players: int, start: int, stop: int, watch: Watch | None = None,
              bots: list[str] | None = None) -> Tally:
    """Play seeds start..stop-1 and tally them. In a worker process, `game` is the game its pickle names (a
    compiled game pickles as its folder and step limit: the worker takes the one loaded there, found loaded
    when the worker is forked). Each match's bots are made from its own seed (`Lineup`), so the worker that
    plays it does not matter."""
    tally = Tally(players)
    for seed in range(start, stop):
        tally.add(*simulate(game, players, seed, watch, bots))
    return tally


def _run_chunk_args(args: tuple[Game, int, int, int, Watch | None, list[str] | None]) -> Tally:
    """`run_chunk(*args)`, as a worker process runs it. A fault of the engine gets the rules' lines in its traceback
    here (`show_rules_lines`): a worker's traceback reaches the parent only as the text it formats of it."""
    try:
        return run_chunk(*args)
    except Exception as err:
        with contextlib.suppress(Exception):  # (the fault goes on with the rules' lines or without them)
            show_rules_lines(err, places_of_game(args[0]))
        raise


def _ignore_interrupt() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(seed: int, n: int, workers: int) -> list[tuple[int, int]]:
    """Seed ranges small enough to balance the workers and to move a progress bar."""
    size = max(1, min(250, -(-n // (workers * 20))))  # small enough that Ctrl-C loses little
    return [(s, min(s + size, seed + n)) for s in range(seed, seed + n, size)]


def run_many(game: Game, players: int, n: int, seed: int = 0, workers: int = 1,
             progress: Callable[[int, int], None] | None = None, watch: Watch | None = None,
             bots: list[str] | None = None) -> dict[str, Any]:
    """Play `n` matches with seeds seed, seed+1, … and return the summary dict of `meeple sim`
    (`watch`: see `simulate`; a module-level function, so that it reaches worker processes; `bots`: one
    name per seat, random bots by default).

    Ctrl-C raises `Interrupted` and a dead worker `WorkerLost`, each with the summary of the matches that
    finished; the workers are stopped at once either way."""
    game.check_players(players)
    tally = Tally(players)
    chunks = [(game, players, a, b, watch, bots) for a, b in _chunks(seed, n, workers)]
    finished: list[tuple[int, int]] = []
    started = time.perf_counter()

    def done(result: Tally, seeds: tuple[int, int]) -> None:
        tally.merge(result)
        finished.append(seeds)
        if progress:
            progress(tally.games, n)

    def partial() -> dict[str, Any]:
        return summary(game, tally, seed, workers, time.perf_counter() - started, bots)

    try:
        if workers <= 1:
            for args in chunks:
                done(_run_chunk_args(args), (args[2], args[3]))
        else:
            _run_pooled(chunks, workers, done)
    except _PoolBroken:  # a worker was killed (out of memory, kill -9): report what the others finished
        raise WorkerLost(partial(), finished, n) from None
    except KeyboardInterrupt:
        raise Interrupted(partial(), finished, n) from None
    return partial()


class _PoolBroken(Exception):
    """A worker process of `_run_pooled` died (the pool's `BrokenProcessPool`, whose module a run of one worker
    never loads)."""


def _run_pooled(chunks: list[tuple], workers: int, done: Callable[[Tally, tuple[int, int]], None]) -> None:
    """Run `chunks` in a pool of `workers` processes, `done(tally, seeds)` as each finishes. Whatever stops it
    (a dead worker, Ctrl-C, a rule failing: the other chunks are then of no use) stops the pool at once; a dead
    worker is raised as `_PoolBroken`. The pool's modules are loaded here, by a run of several workers alone."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupt)
    try:
        futures = {pool.submit(_run_chunk_args, args): (args[2], args[3]) for args in chunks}
        for future in as_completed(futures):
            done(future.result(), futures[future])
    except BaseException as err:
        stop_pool(pool)
        if isinstance(err, BrokenProcessPool):
            raise _PoolBroken from err
        raise
    pool.shutdown()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: the chunks not started are cancelled and the workers terminated (`shutdown` alone
    would wait for the chunks under way: minutes, for a slow game). A Ctrl-C meanwhile is ignored: it would
    leave workers running, and this takes well under a second.

    The executor's own thread may fail while its workers are terminated under it (`shutdown(wait=False)` clears
    the executor's queues and processes while that thread still reads them: CPython issues 94440 and 132969);
    nothing is lost then, the pool being stopped, so that failure is not printed: the thread is waited for here
    with its failures kept quiet, and any other thread's failure is printed as before."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    manager = getattr(pool, "_executor_manager_thread", None)  # (the executor offers no public handle on it)
    hook = threading.excepthook
    threading.excepthook = lambda args: None if args.thread is manager else hook(args)
    try:
        workers = list((getattr(pool, "_processes", None) or {}).values())  # nor on its workers
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(STOP_SECONDS)
        if manager is not None:  # it ends once its workers are gone (`shutdown(wait=False)` let go of it)
            manager.join(2 * STOP_SECONDS)
    finally:
        threading.excepthook = hook
        if before is not None:
            signal.signal(signal.SIGINT, before)


STOP_SECONDS = 1.0
"""How long a worker is given to end once terminated, before it is killed."""


def seed_ranges(finished: list[tuple[int, int]]) -> str:
    """Seed ranges (start, stop) as words: `seeds 0–199, 400–599`, `seed 3`, `no seed`."""
    merged: list[list[int]] = []
    for start, stop in sorted(finished):
        if merged and merged[-1][1] == start:
            merged[-1][1] = stop
        else:
            merged.append([start, stop])
    if not merged:
        return "no seed"
    if len(merged) == 1 and merged[0][1] - merged[0][0] == 1:
        return f"seed {merged[0][0]}"
    return "seeds " + ", ".join(f"{a}–{b - 1}" if b - a > 1 else str(a) for a, b in merged)


class _Stopped:
    """What a stopped `run_many` knows: the summary and the seeds of the matches that finished."""

    def _record(self, partial: dict[str, Any], finished: list[tuple[int, int]], n: int) -> str:
        self.summary = partial
        self.seeds = seed_ranges(finished)
        self.n = n
        games = partial["games"]
        rest = f"{n - games} did not"
        return f"{games} matches finished ({self.seeds}; {rest})" if games else f"0 matches finished ({rest})"


class WorkerLost(_Stopped, Exception):
    """A worker process of `run_many` died; `summary` holds the matches the others finished."""

    def __init__(self, partial: dict[str, Any], finished: list[tuple[int, int]], n: int) -> None:
        super().__init__(f"a worker process died (killed, or out of memory); {self._record(partial, finished, n)}")


class Interrupted(_Stopped, KeyboardInterrupt):
    """Ctrl-C stopped `run_many`; `summary` holds the matches that finished (a KeyboardInterrupt still)."""

    def __init__(self, partial: dict[str, Any], finished: list[tuple[int, int]], n: int) -> None:
        super().__init__(f"interrupted; {self._record(partial, finished, n)}")


def summary(game: Game, tally: Tally, seed: int, workers: int, elapsed: float,
            bots: list[str] | None = None) -> dict[str, Any]:
    """The summary dict of `meeple sim` for the matches of a tally (`bots`: each seat's bot, random by default)."""
    players = tally.players
    games = tally.games
    counters = game.model.counters
    # a mean only of number counters: a text has none, a seat's number is no quantity
    names = {i: k for i, k in game.counter_names[0] if counters[k].type == "num"}
    return {
        "game": game.name,
        "games": games,
        "seed": seed,
        "players": players,
        "bots": list(bots) if bots is not None else ["random"] * players,
        "wins_by_seat": tally.wins,
        "win_rate_by_seat": [w / games for w in tally.wins] if games else [0.0] * players,
        "mean_scores": [s / games for s in tally.score_sums] if games else [0.0] * players,
        "mean_turns": tally.turn_sum / games if games else 0.0,
        "mean_decisions": tally.decision_sum / games if games else 0.0,
        "mean_counters": {names[i]: v / games for i, v in enumerate(tally.counter_sums) if i in names},
        "per_round": {names[i]: v / tally.round_sum for i, v in enumerate(tally.counter_sums)
                      if names.get(i) in game.report_per_round and tally.round_sum},
        "ended_by_round_limit": tally.capped / games if games else 0.0,
        "wins": "lowest" if game.lowest_wins else "highest",
        "report_by": game.report_title,
        "win_rate_by_group": {g: tally.group_wins[g] / c for g, c in sorted(tally.group_games.items())},
        "games_per_s": games / elapsed if elapsed > 0 else 0.0,
        "elapsed_s": elapsed,
        "workers": workers,
    }
