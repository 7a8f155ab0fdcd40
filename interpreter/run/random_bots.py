"""The random bots: a uniform pick among a decision's options, drawn from a stream the match seed fixes. A module of
their own, so that `sim`, which plays the compiled flow without a `Match`, loads no more than they need.

The bots' stream is BLAKE2b in counter mode: block i of a match's stream is the 64-byte digest of
`"meeple bots <seed>:<i>"`, read a byte at a time from a C iterator. A match so seeds one
Mersenne Twister (its chance) and hashes a block or two for its bots, where seeding a second Twister cost some 30,000
machine instructions; chance and the bots stay apart (whoever decides, chance draws the same). A pick among n options
(2 to 256) is one byte b, drawn again while b is at or above the largest multiple of n a byte holds, taken as b mod n:
uniform, and almost always one byte. More options read several bytes as one number (`rare_pick`)."""

from __future__ import annotations

import _random
import random
from collections.abc import Iterator
from hashlib import blake2b
from itertools import chain as joined  # (named apart from a game's word: see tests/test_content_purity.py)
from itertools import count, islice, repeat
from typing import TypeVar

R = TypeVar("R", bound=random.Random)

LIMITS = (0, 0, *(256 - 256 % n for n in range(2, 257)))
"""`LIMITS[n]` for 2 <= n <= 256: a byte below it is taken (mod n), one at or above it drawn again; 0 for 0 or 1
option (no byte is drawn)."""


def seeded(kind: type[R], seed: int) -> R:
    """`kind(seed)` (a `random.Random` or a subclass) for a whole-number seed: the C generator seeded straight
    from it, as `Random.__init__` and `Random.seed` would after two Python calls on the way (the same state)."""
    rng = kind.__new__(kind)
    _random.Random.seed(rng, seed)
    vars(rng)["gauss_next"] = None  # (what Random.seed sets besides)
    return rng


class RandomBot(random.Random):
    """A bot's own generator (the search bots', and a random bot seated with a seed of its own): a uniform pick
    among the options, drawn only when there is a choice (so a question with one option leaves its draws as they
    were)."""

    def pick(self, n: int) -> int:
        """An option in 0..n-1."""
        return self._randbelow(n) if n > 1 else 0  # type: ignore[attr-defined]


class RandomBots:
    """The random bots of a match: its seed's stream of bytes (`bot_bytes`, see the module's note), `pick(n)` an
    option in 0..n-1 (no byte drawn for one option). A copy or pickle goes on from the same byte: it is made again
    from the seed and the bytes drawn so far (not by copying the C iterator, whose pickling Python is retiring)."""

    __slots__ = ("drawn", "seed", "stream")

    def __init__(self, seed: int, drawn: int = 0) -> None:
        self.seed, self.drawn, self.stream = seed, drawn, bot_bytes(seed)
        if drawn:
            next(islice(self.stream, drawn - 1, None))

    def pick(self, n: int) -> int:
        """An option in 0..n-1, uniformly."""
        stream = self.stream
        if n <= 1:
            return 0
        if n > 256:
            size, limit = _wide(n)
            while True:
                self.drawn += size
                if (r := int.from_bytes(bytes(islice(stream, size)), "little")) < limit:
                    return r % n
        limit = LIMITS[n]
        self.drawn += 1
        while (b := next(stream)) >= limit:
            self.drawn += 1
        return b % n

    __call__ = pick  # (a pick function too: `rollout(m, random_bot(seed))` answers with it)

    def __reduce__(self) -> tuple:
        return RandomBots, (self.seed, self.drawn)


def random_bot(seed: int) -> RandomBots:
    """The random bots, derived from the match seed (so a seed fixes the whole match)."""
    return RandomBots(seed)


def bot_bytes(seed: int) -> Iterator[int]:
    """The random bots' stream of the match of `seed`: the bytes of its blocks, one after another, without end."""
    return joined.from_iterable(map(_block, repeat(b"meeple bots %d:" % seed), count()))


def _block(head: bytes, i: int) -> bytes:
    """Block `i` of the bots' stream whose blocks' text begins with `head`."""
    return blake2b(head + b"%d" % i).digest()  # (64 bytes: BLAKE2b's own digest size)


def rare_pick(stream: Iterator[int], n: int) -> int:
    """A pick among fewer than 2 or more than 256 options: 0 for one option, no byte drawn; for more than 256, as many
    bytes of `stream` as n needs and one more (little-endian), drawn again at or above the largest multiple of n they
    hold, mod n."""
    if n <= 1:
        return 0
    size, limit = _wide(n)
    while (r := int.from_bytes(bytes(islice(stream, size)), "little")) >= limit:
        pass
    return r % n


def _wide(n: int) -> tuple[int, int]:
    """The bytes a pick among n > 256 options reads at a time, and the bound below which it takes them (mod n)."""
    size = (n.bit_length() + 15) // 8
    whole = 1 << (8 * size)
    return size, whole - whole % n
