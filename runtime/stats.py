"""Statistics for simulations: Wilson intervals and paired differences."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


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
    if se == 0:
        return PairedDifference(mean, (mean, mean), 1.0 if mean == 0 else 0.0, n, discordant)
    p_value = math.erfc(abs(mean / se) / math.sqrt(2))
    return PairedDifference(mean, (mean - z * se, mean + z * se), p_value, n, discordant)


def describe_change(subject: str, before: float, after: float, diff: PairedDifference,
                    variant: str, games: int) -> str:
    """One plain sentence, e.g. 'X raises the USA's win rate from 41.2% to 47.9% ...'."""
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
    return (f"{variant} {change}, 95% CI {lo:+.1f}..{hi:+.1f}, p = {diff.p_value:.3g},"
            f" {significance}) over {games:,} paired games")
