"""The statistics of the balance lab: intervals for rates and means, the chi-square test of equal shares, paired
differences, and how many matches an interval of a given width needs. Standard library only."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

Z95 = NormalDist().inv_cdf(0.975)  # 1.959964…
THIN = 30
"""A figure over fewer matches than this is marked thin (its interval is wide, or the approximation rough)."""


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of k successes in n trials (0–1 for n = 0; a success may count a
    fraction, e.g. a win shared by two)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return round(max(0.0, centre - half), 12), round(min(1.0, centre + half), 12)  # no 4e-19 for a 0


def t_quantile(df: int, z: float = Z95) -> float:
    """Student's t quantile for `df` degrees of freedom at the level of the normal quantile `z` (exact for
    df 1 and 2, else Hill's expansion: 4e-3 off at df = 3, under 3e-4 from df = 5); df < 1 gives infinity."""
    if df < 1:
        return math.inf
    if df == 1:
        return math.tan(math.pi * (NormalDist().cdf(z) - 0.5))
    if df == 2:
        p = 2 * NormalDist().cdf(z) - 1
        return p * math.sqrt(2 / (1 - p * p))
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """The mean of `xs` with its t interval: (mean, low, high); one value or none gives an unbounded interval."""
    n = len(xs)
    if n == 0:
        return 0.0, -math.inf, math.inf
    mean = math.fsum(xs) / n
    if n == 1:
        return mean, -math.inf, math.inf
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def std(xs: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mean = math.fsum(xs) / n
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))


def quantiles(xs: Sequence[float], qs: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)) -> list[float]:
    """The given quantiles of `xs` (nearest rank, so each is a value that occurred); [] for no value."""
    if not xs:
        return []
    ordered = sorted(xs)
    return [ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] for q in qs]


def _upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) (series below a + 1, continued fraction above)."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X chi-square distributed with `df` degrees of freedom."""
    return _upper_gamma(df / 2, x / 2) if df > 0 else 1.0


def equal_shares(counts: Sequence[int]) -> tuple[float, int, float]:
    """The chi-square goodness-of-fit test of "every category equally likely": (statistic, df, p-value)."""
    total = sum(counts)
    k = len(counts)
    if total == 0 or k < 2:
        return 0.0, max(0, k - 1), 1.0
    expected = total / k
    stat = math.fsum((c - expected) ** 2 / expected for c in counts)
    return stat, k - 1, chi2_sf(stat, k - 1)


def n_for_rate_width(p: float, width: float, z: float = Z95) -> int:
    """Matches a rate near `p` needs for a 95% interval `width` wide (low to high)."""
    p = min(max(p, 0.0), 1.0)
    spread = max(p * (1 - p), 0.01)  # a rate seen at 0 or 1 is not known to be exactly that
    return math.ceil((2 * z) ** 2 * spread / (width * width))


def n_for_mean_width(sd: float, width: float, z: float = Z95) -> int:
    """Matches a mean with standard deviation `sd` needs for a 95% interval `width` wide."""
    if sd <= 0:
        return 1
    return math.ceil((2 * z * sd / width) ** 2)


def paired(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """The difference b − a of two paired samples (the same matches' seeds): its mean with a t interval, and
    whether the interval leaves out 0 (`real`); a difference that is 0 in every pair is exactly none."""
    if len(a) != len(b):
        raise ValueError("paired samples must have one value each per match")
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean, low, high = mean_ci(diffs)
    n = len(diffs)
    if n and all(d == diffs[0] for d in diffs):
        low = high = mean
    finite = math.isfinite(low) and math.isfinite(high)
    if not finite:
        p = 1.0
    elif high == low:
        p = 0.0 if mean else 1.0
    else:  # the t statistic's two-sided tail, the normal's for df past 30 (a little small below)
        t = abs(mean) / ((high - low) / (2 * t_quantile(n - 1)))
        p = 2 * (1 - NormalDist().cdf(t))
    return {"a": math.fsum(a) / n if n else None, "b": math.fsum(b) / n if n else None, "diff": mean,
            "ci": [low, high] if finite else None, "n": n, "p": p,
            "real": bool(finite and (low > 0 or high < 0))}


def holm(ps: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Which of several p-values stay significant when all are tested together (Holm's step-down method: the
    chance of calling any true null real stays under `alpha`)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    keep = [False] * len(ps)
    for rank, i in enumerate(order):
        if ps[i] > alpha / (len(ps) - rank):
            break
        keep[i] = True
    return keep
