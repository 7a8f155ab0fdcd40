"""Hand-written, plain-Python implementation of "Overloaded" with uniformly random players.

Used only as a speed yardstick for the interpreted engine: it does the same work the rules require
(shuffle the 20 donkeys and keep 8, simultaneous face-down load, drover advantages, contracts,
Second Thoughts flips, Moody die, reveal and scoring) and makes the same random choices an engine
with random bots makes, in this order each round:

1. every player loads a uniformly random card from hand (simultaneous; drawn in seat order);
2. unless the donkey is Sleepy, each player in turn order from the first player picks uniformly among
   [no advantage] + [each card in hand], if an advantage is still allowed (fewer than 2 used and the
   hand left afterwards still covers every later round); Scout then picks one other player uniformly;
3. each player in turn order picks accept/refuse uniformly (Blindfolded: same draws, "simultaneous");
4. each Second-Thoughts player in turn order picks uniformly whether to flip;
then the Moody die (if any), then (if overloaded) the shuffle of the loaded cards.

Rules: the Overloaded rulebook (games/overloaded.md beside this repository).  Standard library only.

    python benchmarks/handwritten_overloaded.py -n 20000 --players 4 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time

ROUNDS = 8
HAND_SIZE = 10
MAX_ADVANTAGES = 2

# Donkey kinds.
STANDARD, STRONG, WEAK, MULE, FOAL, STUBBORN, NERVOUS, SLEEPY, BLINDFOLDED, SHOWOFF, MOODY, OLD, GENEROUS = range(13)
DONKEY_NAMES = (
    "Standard donkey", "Strong Donkey", "Weak Donkey", "Mule", "Foal", "Stubborn Donkey",
    "Nervous Donkey", "Sleepy Donkey", "Blindfolded Donkey", "Show-off Donkey", "Moody Donkey",
    "Old Donkey", "Generous Donkey",
)
# The 20 donkey cards: 8 Standard + one of each of the 12 others.
DONKEY_CARDS = (STANDARD,) * 8 + tuple(range(1, 13))

# Drover advantages, by (value - 1) % 5 of the card played advantage side up.
SCOUT, EXTRA_HARNESS, LOOSE_STRAP, SECOND_THOUGHTS, DOUBLE_STAKE = range(5)
ADVANTAGE_OF_VALUE = (None, *((v - 1) % 5 for v in range(1, 11)))  # index by value 1..10


def play(players: int, rng: random.Random, state: dict | None = None) -> tuple[list[int], list[int]]:
    """Play one full match with uniformly random choices.

    Returns (scores, winners) where winners are seat indices.  If ``state`` is a dict, it is filled
    with the end-of-match zones (for tests): hands, piles, bonus, discard, box_donkeys, donkeys,
    advantages_used, rounds_played.
    """
    n = players
    rr = rng.randrange
    adv_of = ADVANTAGE_OF_VALUE

    # Setup.
    hands = [list(range(1, HAND_SIZE + 1)) for _ in range(n)]
    piles: list[list[int]] = [[] for _ in range(n)]
    bonus = [0] * n
    used = [0] * n
    discard: list[int] = []
    donkeys = list(DONKEY_CARDS)
    rng.shuffle(donkeys)
    deck = donkeys[:ROUNDS]
    box = donkeys[ROUNDS:]
    first = 0
    seats = list(range(n))
    base_cap = 5 * n

    for rnd in range(ROUNDS):
        # 0. Reveal the donkey; set its capacity.
        donkey = deck[rnd]
        if donkey == STANDARD:
            cap = base_cap
        elif donkey == STRONG:
            cap = base_cap + 3
        elif donkey == WEAK:
            cap = base_cap - 3
        elif donkey == MULE:
            cap = 6 * n
        elif donkey in (FOAL, MOODY):
            cap = 4 * n
        else:
            cap = base_cap
        order = seats[first:] + seats[:first]

        # 1. Load: every player plays one card face down (Show-off: face up; no state difference).
        loaded = [hands[p].pop(rr(len(hands[p]))) for p in range(n)]

        # 2. Drover advantages, in turn order.
        second = None
        double = None
        if donkey != SLEEPY:
            later = ROUNDS - rnd - 1  # rounds still to load after this one
            for p in order:
                if used[p] < MAX_ADVANTAGES:
                    hand = hands[p]
                    if len(hand) - 1 >= later:
                        k = rr(len(hand) + 1)
                        if k:
                            card = hand.pop(k - 1)
                            discard.append(card)  # discarded at the end of the round
                            used[p] += 1
                            adv = adv_of[card]
                            if adv == SCOUT:
                                other = rr(n - 1)
                                other += other >= p
                                _seen = loaded[other]  # only p learns it
                            elif adv == EXTRA_HARNESS:
                                cap += n
                            elif adv == LOOSE_STRAP:
                                cap -= n
                                cap = max(cap, 0)
                            elif adv == SECOND_THOUGHTS:
                                if second is None:
                                    second = [p]
                                else:
                                    second.append(p)
                            else:  # DOUBLE_STAKE
                                if double is None:
                                    double = {p}
                                else:
                                    double.add(p)

        # 3. Contracts (openly in turn order; Blindfolded: secretly and simultaneously — same draws).
        accept = [False] * n
        for p in order:
            accept[p] = rr(2) == 0
        # Second Thoughts: flips at the end of step 3, in turn order.
        if second is not None:
            for p in second:
                if rr(2):
                    accept[p] = not accept[p]

        # Moody: die rolled after contracts, before the reveal.
        if donkey == MOODY:
            cap += (rr(6) + 1) * (n // 2)

        # 4. Reveal.
        load = sum(loaded)
        if donkey == STUBBORN:
            load -= max(loaded)
        elif donkey == NERVOUS:
            load += min(loaded)
        elif donkey == OLD:
            for v in loaded:
                if v >= 8:
                    cap -= 1

        if load <= cap:
            for p in order:
                v = loaded[p]
                if accept[p]:
                    piles[p].append(v)
                    if double is not None and p in double:
                        bonus[p] += v
                else:
                    discard.append(v)
                    if donkey == GENEROUS:
                        bonus[p] += 1
        else:
            rng.shuffle(loaded)
            for p in order:
                if not accept[p]:
                    v = loaded.pop()
                    piles[p].append(v)
                    if double is not None and p in double:
                        bonus[p] += v
            discard.extend(loaded)

        # 5. First-player card passes clockwise.
        first = (first + 1) % n

    scores = [sum(piles[p]) + bonus[p] for p in range(n)]
    best = max(zip(scores, map(len, piles), strict=False))
    winners = [p for p in range(n) if scores[p] == best[0] and len(piles[p]) == best[1]]

    if state is not None:
        state.update(
            hands=hands, piles=piles, bonus=bonus, discard=discard, box_donkeys=box, donkeys=deck,
            advantages_used=used, rounds_played=ROUNDS,
        )
    return scores, winners


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Hand-written Overloaded speed yardstick (random players).")
    ap.add_argument("-n", "--games", type=int, default=20000, help="number of matches (default 20000)")
    ap.add_argument("--players", type=int, default=4, help="players per match, 3..6 (default 4)")
    ap.add_argument("--seed", type=int, default=0, help="RNG seed (default 0)")
    args = ap.parse_args(argv)
    if not 3 <= args.players <= 6:
        ap.error("--players must be between 3 and 6")

    rng = random.Random(args.seed)
    wins = [0] * args.players
    t0 = time.perf_counter()
    for _ in range(args.games):
        _, winners = play(args.players, rng)
        for w in winners:
            wins[w] += 1
    dt = time.perf_counter() - t0
    print(
        f"handwritten overloaded: {args.games} games, {args.players} players, seed {args.seed}: "
        f"{dt:.3f} s, {args.games / dt:.0f} games/s"
    )
    print(f"wins by seat: {wins}")


if __name__ == "__main__":
    main()
