"""The random bots: a uniform pick among a decision's options, drawn from a stream the match seed fixes. A module of
their own, so that `sim`, which plays the compiled flow without a `Match`, loads no more than they need."""

from __future__ import annotations

import _random
import random
from collections.abc import Callable
from typing import TypeVar

R = TypeVar("R", bound=random.Random)


def seeded(kind: type[R], seed: int) -> R:
    """`kind(seed)` (a `random.Random` or a subclass) for a whole-number seed: the C generator seeded straight
    from it, as `Random.__init__` and `Random.seed` would after two Python calls on the way (the same state)."""
    rng = kind.__new__(kind)
    _random.Random.seed(rng, seed)
    vars(rng)["gauss_next"] = None  # (what Random.seed sets besides)
    return rng


class RandomBot(random.Random):
    """The random bots: a uniform pick among the options, drawn only when there is a choice (so a
    question with one option leaves the bots' draws as they were)."""

    def pick(self, n: int) -> int:
        """An option in 0..n-1."""
        return self._randbelow(n) if n > 1 else 0  # type: ignore[attr-defined]


def random_bot(seed: int) -> RandomBot:
    """The random bots, derived from the match seed (so a seed fixes the whole match)."""
    return seeded(RandomBot, _bots_seed(seed))


def random_bits(seed: int) -> Callable[[int], int]:
    """The `getrandbits` of `random_bot(seed)`, for a loop that writes the bots' picks out (`sim`): the C generator
    itself, made from the seed in one step (a `random.Random` is made first, then seeded: some 3,000 machine
    instructions more)."""
    return _random.Random(_bots_seed(seed)).getrandbits


def _bots_seed(seed: int) -> int:
    """The seed of the random bots' generator: derived from the match seed, apart from its chance's."""
    return seed * 1_000_003 + 7
