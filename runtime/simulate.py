"""Balance testing by simulation: paired seeds, many games, any executor.

Game i of every variant set uses seed `seed + i`, so a variant and its base
meet the same dice and bots (common random numbers). Results are ordered by
seed, which makes the numbers independent of worker count and executor.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Protocol

from .agents import play_out, seat_agents
from .game import Game
from .stats import describe_change, paired_difference, wilson

MAX_DECISIONS = 200_000


class ProgramFactory(Protocol):
    """Loads a Program in whatever process runs the games (picklable)."""

    variants: tuple[str, ...]

    def load(self) -> Any: ...


@dataclass(frozen=True)
class GameSummary:
    """What one simulated game contributes to the statistics."""

    seed: int
    winner: str | None
    reason: str | None
    decisions: int
    tracks: dict[str, Any]
    events: dict[str, int] = field(default_factory=dict)


def play_game(program, seed: int, agents: tuple[str, ...], params: dict[str, Any]) -> GameSummary:
    game = Game(program, seed=seed, params=params)
    game.state.trace = {}
    bots = seat_agents(agents, program.meta.players, seed)
    decisions = play_out(game, bots, MAX_DECISIONS)
    events = readable_trace(program.meta, game.state.trace)
    return GameSummary(seed, game.winner, game.reason, decisions, game.tracks(), events)


def readable_trace(meta, trace: dict[str, int]) -> dict[str, int]:
    """'event 12' -> 'event korean_war': trace keys with entity ids."""
    out = {}
    for key, count in sorted(trace.items()):
        what, card = key.rsplit(" ", 1)
        out[f"{what} {meta.entity_ids[int(card)]}"] = count
    return out


_LOADED: dict[Any, Any] = {}


def run_batch(factory: ProgramFactory, seeds: list[int], agents: tuple[str, ...],
              params: dict[str, Any]) -> list[GameSummary]:
    """Play a batch of seeds in this process (the program is loaded once)."""
    key = repr(factory)
    if key not in _LOADED:
        _LOADED[key] = factory.load()
    program = _LOADED[key]
    return [play_game(program, s, agents, params) for s in seeds]


def batches(seeds: list[int], size: int) -> list[list[int]]:
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


class LocalExecutor:
    """This machine: in-process for one worker, a process pool otherwise."""

    def __init__(self, workers: int = 1):
        self.workers = max(1, workers)

    def map(self, jobs: list[tuple], on_done: Callable[[int], None]) -> list[list[GameSummary]]:
        if self.workers == 1:
            out = []
            for job in jobs:
                out.append(run_batch(*job))
                on_done(len(job[1]))
            return out
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(self.workers) as pool:
            futures = [pool.submit(run_batch, *job) for job in jobs]
            out = []
            for job, future in zip(jobs, futures):
                out.append(future.result())
                on_done(len(job[1]))
            return out


class RayExecutor:
    """A Ray cluster (optional extra): the same batches as remote tasks."""

    def __init__(self, workers: int = 0, address: str | None = None):
        try:
            import ray
        except ImportError:
            raise RuntimeError("the ray executor needs Ray: pip install 'rulespec[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, num_cpus=workers or None, include_dashboard=False,
                     log_to_driver=False)
        self.remote = ray.remote(run_batch)

    def map(self, jobs: list[tuple], on_done: Callable[[int], None]) -> list[list[GameSummary]]:
        refs = [self.remote.remote(*job) for job in jobs]
        out = []
        for job, ref in zip(jobs, refs):
            out.append(self.ray.get(ref))
            on_done(len(job[1]))
        return out


def simulate(factories: list[ProgramFactory], games: int, seed: int, agents: tuple[str, ...],
             params: dict[str, Any], executor, on_done: Callable[[int], None] = lambda n: None,
             batch_size: int = 25) -> list[list[GameSummary]]:
    """The games of every variant set, each list ordered by seed."""
    seeds = list(range(seed, seed + games))
    jobs = [(f, chunk, agents, params) for f in factories for chunk in batches(seeds, batch_size)]
    results = executor.map(jobs, on_done)
    per_set, chunks = [], len(batches(seeds, batch_size))
    for k in range(len(factories)):
        per_set.append([g for chunk in results[k * chunks:(k + 1) * chunks] for g in chunk])
    return per_set


def summarise(players: Iterable[str], variants: tuple[str, ...], results: list[GameSummary]) -> dict:
    """Win rates with Wilson intervals, draws, lengths, end reasons, tracks, events."""
    n = len(results)
    players = list(players)
    wins = Counter(g.winner for g in results)
    tracks: dict[str, list] = {}
    for g in results:
        for name, value in g.tracks.items():
            if isinstance(value, int):
                tracks.setdefault(name, []).append(value)
    events = Counter()
    for g in results:
        events.update(g.events)
    return {
        "variants": list(variants),
        "games": n,
        "win_rate": {p: wins[p] / n if n else 0.0 for p in players},
        "win_ci95": {p: list(wilson(wins[p], n)) for p in players},
        "draws": wins[None],
        "mean_length": sum(g.decisions for g in results) / n if n else 0.0,
        "end_reasons": dict(sorted(Counter(g.reason for g in results).items())),
        "final_tracks": {name: _distribution(values) for name, values in sorted(tracks.items())},
        "events_fired": dict(sorted(events.items())),
    }


def _distribution(values: list[int]) -> dict[str, Any]:
    counts = Counter(values)
    return {"mean": sum(values) / len(values), "min": min(values), "max": max(values),
            "histogram": {str(k): counts[k] for k in sorted(counts)}}


def compare(players: list[str], variant: tuple[str, ...], results: list[GameSummary],
            base: list[GameSummary]) -> dict:
    """The paired difference in each player's win rate; the largest change leads."""
    name = " + ".join(variant) or "the base game"
    by_player = {}
    for p in players:
        after = [1.0 if g.winner == p else 0.0 for g in results]
        before = [1.0 if g.winner == p else 0.0 for g in base]
        diff = paired_difference(after, before)
        sentence = describe_change(p, sum(before) / len(before), sum(after) / len(after),
                                   diff, name, len(results))
        by_player[p] = {"difference": diff.difference, "ci95": list(diff.ci95),
                        "p_value": diff.p_value, "discordant_pairs": diff.discordant,
                        "sentence": sentence}
    lead = max(players, key=lambda p: (abs(by_player[p]["difference"]), -players.index(p)))
    return {"player": lead, **by_player[lead], "by_player": by_player}


def summary_dict(summary: GameSummary) -> dict:
    return asdict(summary)
