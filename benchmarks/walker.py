"""The walk the benchmarks take their points from: the answers the random bots gave before their stream was
BLAKE2b's (a Mersenne Twister seeded from the match seed, as `tests/walks.py`'s `walker`). A change to the random bots'
stream leaves these points where they were, and any version of the engine makes the same walk (`RandomBot` is in
every one), so two versions compared with `--against` play the same matches."""

from __future__ import annotations

from interpreter.run.match import RandomBot


def walker(seed: int) -> RandomBot:
    """The walk's answers for the match of `seed`: `pick(n)`, no draw with one option."""
    return RandomBot(seed * 1_000_003 + 7)
