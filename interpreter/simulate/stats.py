"""Small statistics for simulation summaries, with no dependency beyond the standard library.

>>> lo, hi = wilson(30, 100)
>>> round(lo, 3), round(hi, 3)
(0.219, 0.396)
>>> round(two_proportion_p(30, 100, 30, 100), 3)
1.0
>>> round(student_t_sf(2.0, 10) * 2, 4)   # two-sided p for t=2 with 10 degrees of freedom
0.0734
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "Z95",
    "describe",
    "benjamini_hochberg",
    "holm",
    "quantile",
    "student_t_sf",
    "two_proportion_p",
    "welch_p",
    "wilson",
]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (good near 0 and 1).

    ``k`` may be fractional: wins with ties shared (a tie of two counts 1/2 to each). Each
    game then scores 0, 1/k or 1 rather than 0 or 1, a spread no wider than a whole win's of
    the same mean, so the interval stays at least 95%.

    >>> [round(x, 3) for x in wilson(40.5, 100)]
    [0.314, 0.503]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default, "type 7")."""
    n = len(sorted_values)
    if n == 0:
        return math.nan
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    frac = pos - lo
    return sorted_values[lo] * (1 - frac) + sorted_values[hi] * frac


def describe(values: Sequence[float]) -> dict[str, float | int]:
    """n, mean, sample sd, min, quantiles (10/25/50/75/90%) and max, rounded for JSON.

    >>> describe([1, 2, 3, 4])["median"]
    2.5
    """
    xs = sorted(float(v) for v in values)
    n = len(xs)
    if n == 0:
        return {"n": 0}
    mean = math.fsum(xs) / n
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    out: dict[str, float | int] = {"n": n, "mean": mean, "sd": math.sqrt(var), "min": xs[0]}
    for name, q in (("q10", 0.1), ("q25", 0.25), ("median", 0.5), ("q75", 0.75), ("q90", 0.9)):
        out[name] = quantile(xs, q)
    out["max"] = xs[-1]
    return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in out.items()}


def _normal_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def two_proportion_p(k1: float, n1: int, k2: float, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (1.0 when it cannot tell); the
    counts may be shared wins, as for :func:`wilson`."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = abs(k1 / n1 - k2 / n2) / se
    return min(1.0, 2 * _normal_sf(z))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-12:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (t >= 0)."""
    if df <= 0 or math.isnan(df):
        return 0.5
    if math.isinf(df):
        return _normal_sf(t)
    x = df / (df + t * t)
    return 0.5 * _betainc(df / 2, 0.5, x)


def welch_p(m1: float, s1: float, n1: int, m2: float, s2: float, n2: int) -> float:
    """Two-sided p-value of Welch's t-test from means, sample sds and sizes."""
    if n1 < 2 or n2 < 2:
        return 1.0
    v1, v2 = s1 * s1 / n1, s2 * s2 / n2
    se2 = v1 + v2
    if se2 == 0:
        return 1.0 if m1 == m2 else 0.0
    t = abs(m1 - m2) / math.sqrt(se2)
    df = se2 * se2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    return min(1.0, 2 * student_t_sf(t, df))


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm-Bonferroni: which hypotheses are rejected with family-wise error at most ``alpha``.

    >>> holm([0.001, 0.04, 0.03, 0.5])
    [True, False, False, False]
    """
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    rejected = [False] * len(pvalues)
    m = len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] <= alpha / (m - rank):
            rejected[i] = True
        else:
            break
    return rejected


def benjamini_hochberg(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Benjamini-Hochberg: which hypotheses are rejected with false discovery rate ``alpha``.

    When no hypothesis is false, the chance of rejecting any is at most ``alpha`` (as with
    Holm); when some are, it finds far more of them among dozens of metrics.

    >>> benjamini_hochberg([0.001, 0.04, 0.03, 0.5])
    [True, False, False, False]
    >>> benjamini_hochberg([0.01, 0.02, 0.03, 0.04])
    [True, True, True, True]
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    cutoff = -1
    for rank, i in enumerate(order):
        if pvalues[i] <= alpha * (rank + 1) / m:
            cutoff = rank
    rejected = [False] * m
    for rank in range(cutoff + 1):
        rejected[order[rank]] = True
    return rejected
