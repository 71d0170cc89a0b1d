"""A policy's tunables searched by play: CMA-ES, each candidate against the current best.

The search runs in the unit cube (each tunable's range scaled to 0..1) and
plays each candidate, rounded to whole numbers, as `policy:NAME(values)`
against the incumbent on paired, seat-swapped seeds (runtime/analysis/duel.py); a
generation's seeds are fresh and the same for all its candidates. CMA-ES
(Hansen's `cma`) ranks the candidates by their gain; a candidate whose gain's
95% interval lies above zero becomes the incumbent. When the search is done,
the last incumbent plays the spec's values on seeds the search never saw: that
gain, with its interval, is the answer (the search's own best is biased up by
the selection).
"""

from __future__ import annotations

import math
import resource
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from rulespec.runtime.analysis.duel import Duel, play_duels
from rulespec.runtime.analysis.stats import PairedDifference

MAX_GAMES = 10_000  # seeds a candidate plays per generation, at most
MAX_BUDGET = 86_400.0  # CPU seconds, at most (a day)
MAX_GENERATIONS = 1_000
SIGMA = 0.3  # the first step, as a share of each range


def cpu_seconds() -> float:
    """CPU used by this process and the worker processes it waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Generation:
    number: int
    candidates: list[dict[str, int]]
    gains: list[float]  # each candidate's gain over the incumbent, points
    incumbent: dict[str, int]
    promoted: bool


@dataclass
class TuneResult:
    policy: str
    start: dict[str, int]
    best: dict[str, int]
    generations: list[Generation] = field(default_factory=list)
    final: Duel | None = None  # the tuned values against the spec's, on fresh seeds
    stopped_by: str = "generations"
    cpu_seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return self.best != self.start

    @property
    def clearly_better(self) -> bool:
        return self.final is not None and self.changed and self.final.gain.ci95[0] > 0


def agent_name(policy: str, values: dict[str, int], budget: str = "") -> str:
    """The agent that plays the policy with these values: `policy:NAME(a=1,b=2)`."""
    inner = ",".join(f"{k}={v}" for k, v in values.items())
    return f"policy:{policy}({inner}){budget}"


class Space:
    """Whole-number tunables in their ranges <-> points of the unit cube.

    The cube has two dimensions at least: `cma` fails to update a one-dimensional search
    (cma 4.5: "not yet initialized (dimension needed)"), so a lone tunable gets a second
    coordinate that nothing reads."""

    def __init__(self, tunables):
        self.names = [t.name for t in tunables]
        self.low = [t.low for t in tunables]
        self.high = [t.high for t in tunables]

    def to_unit(self, values: dict[str, int]) -> list[float]:
        point = [(values[n] - lo) / (hi - lo) for n, lo, hi in zip(self.names, self.low, self.high)]
        return point + [0.5] * (2 - len(point))

    def to_values(self, x) -> dict[str, int]:
        out = {}
        for n, lo, hi, v in zip(self.names, self.low, self.high, x):
            out[n] = min(hi, max(lo, int(math.floor(lo + float(v) * (hi - lo) + 0.5))))
        return out


def tune(factory, policy: str, tunables, players: list[str], params: dict[str, Any], executor, *,
         games: int, budget: float, generations: int, final_games: int, seed: int,
         popsize: int | None = None, on_generation: Callable[[Generation], None] = lambda g: None,
         on_done: Callable[[int], None] = lambda n: None) -> TuneResult:
    """Search the tunables (rulespec.runtime.meta.TunableMeta, each with a range) of `policy`."""
    import cma
    space = Space(tunables)
    start = {t.name: t.default for t in tunables}
    options = {"bounds": [0, 1], "seed": seed, "verbose": -9}
    if popsize:
        options["popsize"] = popsize
    es = cma.CMAEvolutionStrategy(space.to_unit(start), SIGMA, options)
    result = TuneResult(policy, start, dict(start))
    began = cpu_seconds()
    next_seed = seed
    for number in range(1, generations + 1):
        if cpu_seconds() - began >= budget:
            result.stopped_by = "budget"
            break
        points = es.ask()
        candidates = [space.to_values(x) for x in points]
        seeds = list(range(next_seed, next_seed + games))
        next_seed += games
        duels = _play(factory, policy, candidates, result.best, players, seeds, params, executor, on_done)
        gains = [d.points for d in duels]
        es.tell(points, [-g for g in gains])
        top = max(range(len(duels)), key=lambda k: (duels[k].gain.ci95[0], gains[k]))
        promoted = duels[top].gain.ci95[0] > 0 and candidates[top] != result.best
        if promoted:
            result.best = dict(candidates[top])
        generation = Generation(number, candidates, gains, dict(result.best), promoted)
        result.generations.append(generation)
        on_generation(generation)
    final_seeds = list(range(next_seed, next_seed + final_games))
    if result.changed:
        result.final = _play(factory, policy, [result.best], start, players, final_seeds, params,
                             executor, on_done)[0]
    result.cpu_seconds = cpu_seconds() - began
    return result


def _play(factory, policy, candidates, incumbent, players, seeds, params, executor, on_done) -> list[Duel]:
    """Each candidate against the incumbent; a candidate equal to it gains nothing (not played)."""
    names = {agent_name(policy, c) for c in candidates if c != incumbent}
    order = sorted(names)
    played = dict(zip(order, play_duels(factory, order, agent_name(policy, incumbent), players, seeds,
                                        params, executor, on_done))) if order else {}
    even = _even(len(seeds), len(players))
    return [played.get(agent_name(policy, c)) or even for c in candidates]


def _even(seeds: int, seats: int) -> Duel:
    """The incumbent against itself: no gain, exactly."""
    share = 1.0 / max(seats, 1)
    return Duel(share, share, PairedDifference(0.0, (0.0, 0.0), 1.0, seeds, 0))


def shown(values: dict[str, int]) -> str:
    """a=1, b=2: values as the progress lines and the sentence write them."""
    return ", ".join(f"{k}={v}" for k, v in values.items())


def tune_json(game: str, result, metas, where: dict[str, str], games: int, seed: int,
              written: list[str], dry_run: bool) -> dict:
    """The keys docs/CLI.md promises for `tune --json`; `where` locates each tunable's default."""
    final = result.final
    tuned = shown({k: v for k, v in result.best.items() if v != result.start[k]}) or "unchanged"
    if final is None:
        sentence = f"the spec's values stay: no candidate clearly beat them ({shown(result.start)})"
    else:
        said = final.sentence("the tuned policy", "the spec's values")
        if result.clearly_better:
            verb = "kept, not written (--dry-run)" if dry_run else "written"
            sentence = f"tuned {tuned} ({verb}): {said}"
        else:
            sentence = f"the spec's values stay: {tuned} is not clearly better ({said})"
    return {
        "game": game, "policy": result.policy, "seed": seed, "games": games,
        "tunables": [{"name": t.name, "low": t.low, "high": t.high, "start": result.start[t.name],
                      "tuned": result.best[t.name], "policy": t.policy, "location": where[t.name]}
                     for t in metas],
        "generations": [{"number": g.number, "candidates": g.candidates, "gains": g.gains,
                         "incumbent": g.incumbent, "promoted": g.promoted} for g in result.generations],
        "stopped_by": result.stopped_by,
        "final": None if final is None else {
            "tuned_score": final.challenger_score, "spec_score": final.incumbent_score,
            "difference": final.gain.difference, "ci95": list(final.gain.ci95),
            "p_value": final.gain.p_value, "pairs": final.gain.pairs},
        "clearly_better": result.clearly_better, "written": written, "dry_run": dry_run,
        "sentence": sentence, "cpu_seconds": result.cpu_seconds,
    }
