"""The handicap that evens a game: an int param swept over a range, each value on the same seeds.

Every value of the param plays the same seeds, in rounds. A value's split is
the share of its decided games the chosen seat won (the others' share with
it), with a Wilson interval; the target is an even split, 1 / seats. After
each round a value is out when even the nearest end of its 99% interval is
farther from the target than the farthest end of the leading value's (the
one nearest the target so far): wider intervals than the 95% ones reported,
because the rounds look again and again. The sweep stops when one value is
left, when the leading value's 95% interval is within ±precision, or when
every value still in has played the games asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulespec.runtime.analysis.simulate import GamesCap, GameSummary, play_sets
from rulespec.runtime.analysis.stats import wilson

Z99 = 2.5758293035489004
ROUND = 100  # seeds a round plays per value still in
MAX_VALUES = 200  # values a sweep may cover


@dataclass
class Value:
    """One value of the param and its games so far."""

    value: int
    games: list[GameSummary] = field(default_factory=list)
    out_after: int | None = None  # games played when it was dropped

    def split(self, seat: str) -> tuple[int, int]:
        """(games the seat won, decided games)."""
        decided = [g for g in self.games if g.winner is not None]
        return sum(1 for g in decided if g.winner == seat), len(decided)

    def share(self, seat: str) -> float | None:
        won, decided = self.split(seat)
        return won / decided if decided else None

    def interval(self, seat: str, z: float | None = None) -> tuple[float, float]:
        won, decided = self.split(seat)
        return wilson(won, decided) if z is None else wilson(won, decided, z)


def distance(interval: tuple[float, float], target: float) -> tuple[float, float]:
    """The nearest and the farthest an interval's shares are from the target."""
    lo, hi = interval
    near = 0.0 if lo <= target <= hi else min(abs(lo - target), abs(hi - target))
    return near, max(abs(lo - target), abs(hi - target))


@dataclass
class Sweep:
    param: str
    seat: str
    target: float
    values: list[Value]
    stopped_by: str = "games"

    def alive(self) -> list[Value]:
        return [v for v in self.values if v.out_after is None]

    def leader(self) -> Value:
        """The value nearest the target so far (a value with no decided game is farthest)."""
        def gap(v: Value) -> float:
            share = v.share(self.seat)
            return abs(share - self.target) if share is not None else 2.0
        return min(self.alive(), key=lambda v: (gap(v), v.value))

    def drop_clear_losers(self) -> None:
        lead = self.leader()
        bound = distance(lead.interval(self.seat, Z99), self.target)[1]
        for v in self.alive():
            if v is not lead and distance(v.interval(self.seat, Z99), self.target)[0] > bound:
                v.out_after = len(v.games)


class SweepError(ValueError):
    """A sweep that cannot be played as asked: one line."""


def check_sweep(param: str, low: int, high: int, seat: str | None, players: list[str]) -> tuple[list[int], str]:
    """The values to play and the seat whose split is measured (the first player by default)."""
    if high - low + 1 > MAX_VALUES:
        raise SweepError(f"--param {param}={low}..{high} holds {high - low + 1:,} values; balance"
                         f" sweeps at most {MAX_VALUES}")
    seat = seat or players[0]
    if seat not in players:
        raise SweepError(f"unknown seat '{seat}' (players: {', '.join(players)})")
    return list(range(low, high + 1)), seat


def sweep(factory, param: str, values: list[int], seat: str, players: list[str], agents: tuple[str, ...],
          params: dict[str, Any], executor, *, games: int, seed: int, precision: float | None,
          on_done: Callable[[int], None] = lambda n: None, round_size: int = ROUND) -> Sweep:
    """Play the values in rounds on shared seeds until one is left, the leader is precise
    enough (a share, 0..1), or each value still in has played `games` seeds."""
    result = Sweep(param, seat, 1.0 / len(players), [Value(v) for v in values])
    played = 0
    while played < games:
        size = min(round_size, games - played)
        seeds = list(range(seed + played, seed + played + size))
        alive = result.alive()
        sets = [(factory, agents, {**params, param: v.value}) for v in alive]
        for v, more in zip(alive, play_sets(sets, seeds, executor, on_done, close=False)):
            v.games.extend(more)
        played += size
        result.drop_clear_losers()
        if len(result.alive()) == 1:
            result.stopped_by = "one value left"
            break
        lead = result.leader()
        lo, hi = lead.interval(seat)
        if precision is not None and (hi - lo) / 2 <= precision:
            result.stopped_by = "precision"
            break
    return result


def sweep_json(game: str, result: Sweep, agents, variants, seed: int, cap: GamesCap | int,
               precision: float | None) -> dict[str, Any]:
    """The keys docs/CLI.md promises for `balance --json`; `cap` the most seeds a value may play
    (a number: as --games gave it); with --precision (points) the sentence says whether the
    leader's interval settled within it."""
    cap = cap if isinstance(cap, GamesCap) else GamesCap(cap, "--games")
    seat, target = result.seat, result.target
    rows = []
    for v in result.values:
        won, decided = v.split(seat)
        share = v.share(seat)
        rows.append({"value": v.value, "games": len(v.games), "decided": decided, "wins": won,
                     "share": share, "ci95": list(v.interval(seat)), "out_after": v.out_after,
                     "draws": len(v.games) - decided})
    lead = result.leader()
    best = next(r for r in rows if r["value"] == lead.value)
    return {"game": game, "param": result.param, "seat": seat, "target": target,
            "agents": list(agents), "variants": list(variants), "seed": seed, "games_asked": cap.games,
            "games_cap": cap.games, "games_cap_from": cap.source,
            "precision": precision, "stopped_by": result.stopped_by, "values": rows, "best": best,
            "sentence": _sentence(result, best) + (
                cap.clause(precision, result.stopped_by, best["games"], unit="seeds")
                if precision is not None and result.stopped_by != "one value left" else "")}


def _sentence(result: Sweep, best: dict) -> str:
    lo, hi = (x * 100 for x in best["ci95"])
    share = best["share"]
    said = "no decided game" if share is None else f"{share * 100:.1f}% (95% CI {lo:.1f}..{hi:.1f})"
    verdict = ("an even split is inside its interval" if best["ci95"][0] <= result.target <= best["ci95"][1]
               else "no value tried evens it within its interval")
    others = sum(1 for v in result.values if v.out_after is not None)
    return (f"{result.param} = {best['value']} comes nearest an even game: {result.seat} wins {said} of"
            f" {best['decided']:,} decided games; {verdict} ({others} of {len(result.values)} values"
            f" ruled out early, stopped by {result.stopped_by})")


def plot_sweep(out: dict[str, Any], path) -> None:
    """Each value's split with its 95% interval, the even split marked, the leader ringed."""
    from rulespec.runtime.analysis.report import _pyplot, _save
    plt = _pyplot()
    rows = [r for r in out["values"] if r["share"] is not None]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for row in rows:
        share = row["share"] * 100
        lo, hi = (x * 100 for x in row["ci95"])
        colour = "#888" if row["out_after"] is not None else "#3465a4"
        ax.errorbar([row["value"]], [share], yerr=[[share - lo], [hi - share]], fmt="o", capsize=5,
                    color=colour)
    best = out["best"]
    if best["share"] is not None:
        ax.plot([best["value"]], [best["share"] * 100], "o", markersize=14, fillstyle="none",
                color="#1a7f37")
    ax.axhline(out["target"] * 100, color="#555", linewidth=1, linestyle="--")
    ax.set_xticks([r["value"] for r in out["values"]])
    ax.set_xlabel(out["param"])
    ax.set_ylabel(f"{out['seat']}'s share of decided games, %")
    ax.set_title("95% Wilson intervals; grey: ruled out early")
    _save(plt, fig, path)


def write_report(out: dict[str, Any], folder) -> "Path":
    """results.json, balance.png and index.html (templates/balance.html.j2) in `folder`."""
    import json
    import tempfile
    from pathlib import Path
    from jinja2 import Environment, PackageLoader
    from rulespec.runtime.files import make_dirs, write_atomic
    folder = Path(folder)
    make_dirs(folder)
    write_atomic(folder / "results.json", json.dumps(out, indent=2, sort_keys=True) + "\n")
    with tempfile.TemporaryDirectory() as scratch:  # the plot lands whole or not at all
        plot_sweep(out, Path(scratch) / "balance.png")
        write_atomic(folder / "balance.png", (Path(scratch) / "balance.png").read_bytes())
    env = Environment(loader=PackageLoader(__package__, "templates"), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True)
    return write_atomic(folder / "index.html", env.get_template("balance.html.j2").render(out=out))
