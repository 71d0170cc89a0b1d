"""Does a variant's effect hold across bot strength? The same comparison with two rungs of bots.

Each rung plays the variant and its base on the same seeds; its effect is the
paired change in a player's win rate (runtime/analysis/simulate.py). The two rungs
play the same seeds too, so per seed the difference of the two changes is a
paired sample as well: its mean and 95% interval say whether the rungs
disagree (the interval leaves out zero) or agree within what was measured.
"""

from __future__ import annotations

from typing import Any, Callable

from rulespec.runtime.analysis.simulate import BATCH, GamesCap, GameSummary, ProgramFactory, play_until
from rulespec.runtime.analysis.stats import paired_difference


def _changes(player: str, results: list[GameSummary], base: list[GameSummary]) -> list[float]:
    """Per seed: the player's win under the variant minus under the base (-1, 0 or 1)."""
    return [float(v.winner == player) - float(b.winner == player) for v, b in zip(results, base)]


def ladder_until(factories: list[ProgramFactory], rungs: list[tuple[str, ...]], games: int, seed: int,
                 params: dict[str, Any], executor, players: list[str], precision: float,
                 on_done: Callable[[int], None] = lambda n: None, batch_size: int = BATCH):
    """Both rungs' games of the variant and its base on the same seeds, in rounds until every
    player's 95% interval of the difference between the rungs' effects is within ±precision (a
    win-rate fraction), or `games` pairs: per rung (variant games, base games), and why it stopped."""
    sets = [(f, agents, params) for agents in rungs for f in factories]

    def widest(per_set: list[list[GameSummary]]) -> tuple[float, float]:
        found = [paired_difference(_changes(p, per_set[0], per_set[1]), _changes(p, per_set[2], per_set[3]))
                 for p in players]
        return max(d.half_width for d in found), max(d.sd for d in found)
    per_set, stopped = play_until(sets, games, seed, executor, precision, widest, on_done, batch_size)
    return [(per_set[0], per_set[1]), (per_set[2], per_set[3])], stopped


def ladder_json(player: str, variant: str, rungs: list[str],
                games: list[tuple[list[GameSummary], list[GameSummary]]],
                precision: float | None = None, stopped: str = "games",
                cap: GamesCap | None = None) -> dict[str, Any]:
    """The effect on `player` with each rung, and the difference of the two, with intervals;
    with --precision (points) the sentence says whether the difference settled within the cap."""
    pairs = min(len(r) for r, _ in games)
    changes = [_changes(player, r[:pairs], b[:pairs]) for r, b in games]
    effects = [paired_difference(c, [0.0] * pairs) for c in changes]
    between = paired_difference(changes[0], changes[1])
    agree = between.ci95[0] <= 0 <= between.ci95[1]
    return {
        "player": player, "rungs": list(rungs), "pairs": pairs,
        "effects": [{"agents": rung, "difference": e.difference, "ci95": list(e.ci95),
                     "p_value": e.p_value} for rung, e in zip(rungs, effects)],
        "difference": between.difference, "ci95": list(between.ci95), "p_value": between.p_value,
        "half_width": between.half_width, "agree": agree, "stopped_by": stopped,
        "sentence": _sentence(player, variant, rungs, effects, between, agree)
        + (cap.clause(precision, stopped, pairs) if precision is not None and cap is not None else ""),
    }


def _sentence(player, variant, rungs, effects, between, agree) -> str:
    first, second = (e.difference * 100 for e in effects)
    lo, hi = (x * 100 for x in between.ci95)
    said = (f"{variant} gives {player} {first:+.1f} points with {rungs[0]} and {second:+.1f} with"
            f" {rungs[1]}")
    gap = f"the difference, {between.difference * 100:+.1f} points, 95% CI {lo:+.1f}..{hi:+.1f}"
    if agree:
        return f"{said}; the two agree ({gap}, includes 0, over {between.pairs:,} paired seeds)"
    return (f"{said}; the two disagree ({gap}, over {between.pairs:,} paired seeds): the effect"
            f" depends on how well the bots play")
