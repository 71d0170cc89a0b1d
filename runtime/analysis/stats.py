"""Statistics for simulations: Wilson intervals and paired differences."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
Z80_POWER = 0.8416212335729143  # one-sided normal quantile for 80% power
LOPSIDED = 0.60  # a side winning this share of base games makes the bots' game lopsided


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class PairedDifference:
    """Mean of per-seed differences (variant − base), its 95% CI and p-value."""

    difference: float
    ci95: tuple[float, float]
    p_value: float
    pairs: int
    discordant: int
    sd: float = 0.0  # standard deviation of the per-seed differences

    @property
    def half_width(self) -> float:
        """Half the 95% interval: how sure the difference is, in win-rate units."""
        return (self.ci95[1] - self.ci95[0]) / 2

    def pairs_to_settle(self, effect: float | None = None) -> int | None:
        """Paired games needed to tell a difference of this size (or `effect`) from none,
        at 95% confidence with 80% power; None when nothing varies or the size is 0."""
        size = abs(self.difference if effect is None else effect)
        if size == 0 or self.sd == 0:
            return None
        return math.ceil(((Z95 + Z80_POWER) * self.sd / size) ** 2)


def paired_difference(variant: list[float], base: list[float], z: float = Z95) -> PairedDifference:
    """Common random numbers: the same seed under both rule sets, differenced.

    The normal approximation on the mean difference; with no variation at all
    the difference is exact and the p-value is 1 (no evidence of a change).
    """
    if len(variant) != len(base) or not variant:
        raise ValueError("paired samples must be non-empty and of equal length")
    n = len(variant)
    diffs = [v - b for v, b in zip(variant, base)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    discordant = sum(1 for d in diffs if d != 0)
    sd = math.sqrt(var)
    if se == 0:
        return PairedDifference(mean, (mean, mean), 1.0 if mean == 0 else 0.0, n, discordant, sd)
    p_value = math.erfc(abs(mean / se) / math.sqrt(2))
    return PairedDifference(mean, (mean - z * se, mean + z * se), p_value, n, discordant, sd)


def two_proportions(a: int, n: int, b: int, m: int, z: float = Z95) -> tuple[float, tuple[float, float]]:
    """a/n - b/m with its 95% interval (Newcombe's method from two Wilson intervals)."""
    if n == 0 or m == 0:
        return 0.0, (-1.0, 1.0)
    p, q = a / n, b / m
    (l1, u1), (l2, u2) = wilson(a, n, z), wilson(b, m, z)
    d = p - q
    return d, (d - math.sqrt((p - l1) ** 2 + (u2 - q) ** 2), d + math.sqrt((u1 - p) ** 2 + (q - l2) ** 2))


def describe_change(subject: str, before: float, after: float, diff: PairedDifference,
                    variant: str, games: int) -> str:
    """One plain sentence, e.g. 'V raises P's win rate from 41.2% to 47.9% ...' (V a variant, P a player)."""
    points = diff.difference * 100
    lo, hi = diff.ci95[0] * 100, diff.ci95[1] * 100
    shown = round(points, 1)
    significance = "significant" if diff.p_value < 0.05 else "not significant"
    if shown == 0:
        change = f"leaves {subject}'s win rate at {after * 100:.1f}% ({points:+.2f} points"
    else:
        verb = "raises" if shown > 0 else "lowers"
        change = (f"{verb} {subject}'s win rate from {before * 100:.1f}% to {after * 100:.1f}%"
                  f" ({shown:+.1f} points")
    sentence = (f"{variant} {change}, 95% CI {lo:+.1f}..{hi:+.1f}, p = {diff.p_value:.3g},"
                f" {significance}) over {games:,} paired games")
    needed = diff.pairs_to_settle()
    if diff.p_value >= 0.05 and needed is not None and shown != 0:
        sentence += f"; about {needed:,} paired games would settle a change of this size"
    return sentence


def lopsided(win_rates: dict[str, float]) -> str | None:
    """A warning when the bots' own base game favours one side heavily."""
    side, rate = max(win_rates.items(), key=lambda kv: kv[1])
    if rate >= LOPSIDED:
        return (f"with these bots the base game is lopsided: {side} wins {rate * 100:.1f}% of"
                f" base games, so the change is measured on an unbalanced game")
    return None
