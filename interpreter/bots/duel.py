"""`meeple duel GAME A B`: bot A against bot B, seats rotated; A's win rate and mean score with 95% intervals.

Game g is the match of seed `seed + g // players` with A at seat `g % players` and B at every other seat,
so each deal is played with A in every seat in turn. A win shared by k winners counts 1/k, so a bot no
better than B wins 1/players of the games (the `even` rate); the win rate's interval is Wilson's, the
mean score's the normal one (1.96 standard errors).
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..game import load_game
from ..run.sim import stop_pool
from .lineup import play

if TYPE_CHECKING:
    from ..game import Game

Z = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


class WorkerLost(Exception):
    """A worker process of a duel died (killed, out of memory): its games are lost, and so are the figures."""


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval for a rate of `successes` in `n` trials (a success may count a fraction)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """The mean of n values (from their sum and sum of squares) and its normal 95% interval."""
    if n <= 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    if n == 1:
        return mean, mean, mean
    variance = max(squares - n * mean * mean, 0.0) / (n - 1)
    half = Z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def _games(folder: str, max_steps: int | None, players: int, a: str, b: str, seed: int, first: int, stop: int,
           knobs: dict[str, Any]) -> list[tuple[float, float]]:
    """Games first..stop-1 of a duel: (A's share of the win, A's score) of each; loads the game itself (so it
    can run in a worker). Each game's bots are made from its own seed, so the process that plays it does not
    matter."""
    return _play_games(load_game(folder).with_max_steps(max_steps), players, a, b, seed, first, stop, knobs)


def _play_games(game: Game, players: int, a: str, b: str, seed: int, first: int, stop: int,
                knobs: dict[str, Any]) -> list[tuple[float, float]]:
    results = []
    for g in range(first, stop):
        seat = g % players
        names = [b] * players
        names[seat] = a
        m = play(game, players, seed + g // players, names, **knobs)
        assert m.winners is not None and m.scores is not None
        results.append((1 / len(m.winners) if seat in m.winners else 0.0, float(m.scores[seat])))
    return results


def _ignore_interrupt() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _games_args(args: tuple[Any, ...]) -> list[tuple[float, float]]:
    return _games(*args)


def _chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """Game ranges: a few per worker, small enough to balance the workers and to move a progress bar."""
    size = max(1, min(25, -(-n // (workers * 8))))
    return [(g, min(g + size, n)) for g in range(0, n, size)]


def duel(game: Game, a: str, b: str, n: int, players: int, seed: int = 0,
         progress: Callable[[int, int], None] | None = None, workers: int = 1, **knobs: Any) -> dict[str, Any]:
    """Play `n` games of A against B (seats rotated) and return the figures of `meeple duel --json`
    (`workers`: processes to play them, the figures the same whatever their number; `knobs`: passed to the
    search bots, e.g. `payoff="score"`)."""
    game.check_players(players)
    started = time.perf_counter()
    results: list[tuple[float, float]] = [(0.0, 0.0)] * n
    played = 0

    def done(first: int, part: list[tuple[float, float]]) -> None:
        nonlocal played
        results[first:first + len(part)] = part
        played += len(part)
        if progress is not None:
            progress(played, n)

    if workers <= 1 or n <= 1:
        for g in range(n):
            done(g, _play_games(game, players, a, b, seed, g, g + 1, knobs))
    else:
        folder = game.model.root
        load_game(folder)  # the workers find it compiled (fork) or compile it once each
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        pool = ProcessPoolExecutor(min(workers, n), mp_context=context, initializer=_ignore_interrupt)
        try:
            futures = {pool.submit(_games_args, (folder, game.max_steps, players, a, b, seed, first, stop, knobs)):
                       first for first, stop in _chunks(n, workers)}
            for future in as_completed(futures):
                done(futures[future], future.result())
        except BrokenProcessPool:  # a worker was killed: the figures need every game
            stop_pool(pool)
            raise WorkerLost(f"a worker process died after {played} of {n} games (killed, or out of memory?); "
                             "no figures: run again, with fewer --workers if memory is short") from None
        except BaseException:  # Ctrl-C or a failing rule: the other games are of no use
            stop_pool(pool)
            raise
        pool.shutdown()
    credit, total, squares = 0.0, 0.0, 0.0
    by_seat = [0.0] * players
    for g, (won, score) in enumerate(results):  # in game order, so the sums are the same for any workers
        credit += won
        by_seat[g % players] += won
        total += score
        squares += score * score
    low, high = wilson(credit, n)
    mean, mean_low, mean_high = mean_interval(total, squares, n)
    games_at = [len(range(s, n, players)) for s in range(players)]
    return {"game": game.name, "players": players, "games": n, "seed": seed, "a": a, "b": b,
            "a_win_rate": credit / n if n else 0.0, "a_win_rate_ci": [low, high],
            "a_mean_score": mean, "a_mean_score_ci": [mean_low, mean_high],
            "even_rate": 1 / players, "wins": "lowest" if game.lowest_wins else "highest",
            "a_win_rate_by_seat": [w / k if k else 0.0 for w, k in zip(by_seat, games_at, strict=True)],
            "seconds": time.perf_counter() - started}

