"""Measures a back end: full games between random bots, games/s and decisions/s."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from rulespec.runtime.bots.agents import DEFAULT_MAX_DECISIONS, SEAT_STRIDE, RandomAgent, play_out, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.program import Program
from rulespec.runtime.state import RuleError


@dataclass
class BenchResult:
    """What one back end did in one benchmark run."""

    backend: str
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0  # wall clock, what games/s is based on
    cpu_seconds: float = 0.0  # this process's CPU time: steadier on a busy machine
    errors: int = 0  # games that stopped on a rule error (a dead end)
    lengths: list[int] = field(default_factory=list)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games_per_s": round(self.games_per_s, 3),
            "decisions_per_s": round(self.decisions_per_s, 1),
            "games": self.games, "decisions": self.decisions,
            "seconds": round(self.seconds, 4), "cpu_seconds": round(self.cpu_seconds, 4),
            "errors": self.errors,
        }


def play_one(program: Program, seed: int, params: dict[str, Any] | None = None,
             max_decisions: int = DEFAULT_MAX_DECISIONS) -> tuple[int, bool]:
    """One game between random bots: (decisions made, whether it ended on a rule error)."""
    players = program.meta.seated(params)
    agents = seat_agents(("random",) * len(players), players, seed)
    game: Game | None = None
    try:
        game = Game(program, seed=seed, params=params)
        return play_out(game, agents, max_decisions), False
    except RuleError:
        return (game.decisions if game is not None else 0), True


def run(program: Program, games: int, seed: int = 1, params: dict[str, Any] | None = None,
        on_game: Callable[[], None] | None = None) -> BenchResult:
    """Play `games` games with seeds seed, seed+1, …; time them all."""
    result = BenchResult(program.backend)
    if hasattr(program, "seat_random_games"):  # the native engine plays them whole, in batches
        return _run_batched(program, result, games, seed, params, on_game)
    for k in range(games):
        start, cpu = time.perf_counter(), time.process_time()
        made, failed = play_one(program, seed + k, params)
        result.seconds += time.perf_counter() - start
        result.cpu_seconds += time.process_time() - cpu
        result.games += 1
        result.decisions += made
        result.errors += failed
        result.lengths.append(made)
        if on_game is not None:
            on_game()
    return result


def _run_batched(program, result: BenchResult, games: int, seed: int, params: dict[str, Any] | None,
                 on_game: Callable[[], None] | None, batch: int = 20) -> BenchResult:
    """The same games as `run`, each seat's random bot picking natively (program.py's
    seat_random_games), timed a batch at a time."""
    for first in range(seed, seed + games, batch):
        seated = len(program.meta.seated(params))
        batched = [(k, [RandomAgent(k * SEAT_STRIDE + i).stream_start for i in range(seated)])
                   for k in range(first, min(first + batch, seed + games))]
        start, cpu = time.perf_counter(), time.process_time()
        played = program.seat_random_games(batched, params, DEFAULT_MAX_DECISIONS)
        result.seconds += time.perf_counter() - start
        result.cpu_seconds += time.process_time() - cpu
        for made, _, why in played:
            result.games += 1
            result.decisions += made
            result.errors += why is not None
            result.lengths.append(made)
            if on_game is not None:
                on_game()
    return result


def compare(generated: BenchResult, interpreted: BenchResult) -> dict[str, Any]:
    """The `bench --json` object's numbers: both back ends and their games/s ratio."""
    ratio = (generated.games_per_s / interpreted.games_per_s) if interpreted.games_per_s else None
    return {
        "generated": generated.to_json(),
        "interpreted": interpreted.to_json(),
        "ratio": round(ratio, 2) if ratio is not None else None,
        "same_games": generated.lengths == interpreted.lengths,
    }


def bench_json(game: str, games: int, seed: int, results: dict[str, BenchResult]) -> dict[str, Any]:
    """The keys docs/CLI.md promises for `bench --json`: both back ends side by side and their ratio."""
    out: dict[str, Any] = {"game": game, "games": games, "seed": seed,
                           "generated": None, "interpreted": None, "ratio": None}
    if len(results) == 2:
        out.update(compare(results["generated"], results["interpreted"]))
    else:
        out.update({name: r.to_json() for name, r in results.items()})
    return out
