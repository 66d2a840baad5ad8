"""The tests behind the sweep's claims, and the correction for making many of them.

Everything here is plain arithmetic on counts (``math`` and
``statistics.NormalDist``, both exact to the last bit on every IEEE machine),
so a p-value is the same wherever the sweep ran.

* :func:`binomial_test`: a seat's wins against its fair share, exact when the
  wins are whole (no shared wins), a score test otherwise;
* :func:`two_proportions` and :func:`two_means`: an option value's cell against
  the default value's cell;
* :func:`beyond_bound`: how sure we are that a rate lies beyond a limit;
* :func:`holm`: Holm's step-down adjustment, so that the chance of one false
  claim among all a report makes stays under 5 %;
* :func:`detectable`: the smallest gap a test of this size would find 80 % of
  the time, which the report states when it finds nothing.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Sequence

ALPHA = 0.05
POWER = 0.8
EXACT_LIMIT = 20_000  # trials up to which an exact binomial test is summed term by term
_NORMAL = NormalDist()


def normal_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def binomial_test(successes: float, trials: int, p0: float) -> float:
    """Two-sided p-value of ``successes`` in ``trials`` against the rate ``p0``.

    Exact (the probability of every outcome no likelier than the one seen) when
    ``successes`` is whole; with shared wins a seat's credit has halves and thirds,
    and the score test is used, which is conservative there: fractional credit
    varies less than whole wins.
    """
    if trials <= 0 or p0 <= 0 or p0 >= 1:
        return 1.0
    whole = float(successes).is_integer()
    if whole and trials <= EXACT_LIMIT:
        return _exact_binomial(int(successes), trials, p0)
    z = (successes - trials * p0) / math.sqrt(trials * p0 * (1 - p0))
    return min(1.0, normal_two_sided(z))


def _exact_binomial(k: int, n: int, p: float) -> float:
    log_p, log_q = math.log(p), math.log1p(-p)
    base = math.lgamma(n + 1)

    def log_pmf(i: int) -> float:
        return base - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q

    observed = log_pmf(k)
    slack = 1e-7  # outcomes as likely as the observed one, up to rounding, count as extreme
    total = math.fsum(math.exp(value) for value in map(log_pmf, range(n + 1)) if value <= observed + slack)
    return min(1.0, total)


def two_proportions(x1: float, n1: int, x2: float, n2: int) -> float:
    """Two-sided p-value that two rates differ (pooled z-test)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if spread == 0:
        return 1.0
    return min(1.0, normal_two_sided((x1 / n1 - x2 / n2) / spread))


def difference_interval(x1: float, n1: int, x2: float, n2: int) -> tuple[float, float]:
    """95 % interval of ``x1/n1 - x2/n2`` (Newcombe's hybrid of two Wilson intervals)."""
    from cardgen.simulation.statistics import wilson_interval

    p1, p2 = (x1 / n1 if n1 else 0.0), (x2 / n2 if n2 else 0.0)
    low1, high1 = wilson_interval(x1, n1)
    low2, high2 = wilson_interval(x2, n2)
    d = p1 - p2
    return (d - math.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2),
            d + math.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2))


def two_means(mean1: float, var1: float, n1: int, mean2: float, var2: float, n2: int) -> tuple[float, tuple[float, float]]:
    """Two-sided p-value that two means differ (Welch, normal reference: the samples are hundreds
    of games) and the 95 % interval of ``mean1 - mean2``."""
    if n1 < 2 or n2 < 2:
        return 1.0, (-math.inf, math.inf)
    spread = math.sqrt(var1 / n1 + var2 / n2)
    d = mean1 - mean2
    z95 = _NORMAL.inv_cdf(1 - ALPHA / 2)
    if spread == 0:
        return (1.0 if d == 0 else 0.0), (d, d)
    return min(1.0, normal_two_sided(d / spread)), (d - z95 * spread, d + z95 * spread)


def beyond_bound(successes: float, trials: int, bound: float, above: bool) -> float:
    """One-sided p-value that the true rate is on the allowed side of ``bound``: small when the
    rate is surely above it (``above``) or surely below it."""
    if trials <= 0:
        return 1.0
    if bound <= 0 or bound >= 1:
        return 0.0 if (successes / trials > bound if above else successes / trials < bound) else 1.0
    z = (successes - trials * bound) / math.sqrt(trials * bound * (1 - bound))
    return _NORMAL.cdf(-z) if above else _NORMAL.cdf(z)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given: a claim is made when its adjusted value is
    below :data:`ALPHA`, and then the chance of any false claim among them all is below it."""
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def detectable(trials: int, p0: float, claims: int) -> float:
    """The smallest departure from ``p0`` (as a rate of ``trials``) that a two-sided test at the
    first Holm step among ``claims`` claims finds with :data:`POWER`; ``inf`` with no trials."""
    if trials <= 0 or not 0 < p0 < 1:
        return math.inf
    z = _NORMAL.inv_cdf(1 - ALPHA / (2 * max(1, claims))) + _NORMAL.inv_cdf(POWER)
    return z * math.sqrt(p0 * (1 - p0) / trials)
