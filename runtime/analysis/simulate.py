"""Balance testing by simulation: paired seeds, many games, any executor.

Game i of every variant set uses seed `seed + i`, so a variant and its base
meet the same dice and bots (common random numbers). Results are ordered by
seed, which makes the numbers independent of worker count and executor.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import sys
from array import array
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Iterable, Protocol

from rulespec.runtime.bots.agents import DecisionLimit, play_out, seat_agents
from rulespec.runtime.analysis.card_uses import FALSE_DISCOVERY_RATE, MIN_CARD_GAMES, CardNames, card_movers, card_table
from rulespec.runtime.game import Game, new_state
from rulespec.runtime.policy import PolicyAgent, resolve
from rulespec.runtime.state import DRAWN, RuleError
from rulespec.runtime.analysis.stats import Z95, describe_change, lopsided, paired_difference, wilson

MAX_DECISIONS = 200_000


class ProgramFactory(Protocol):
    """Loads a Program in whatever process runs the games (picklable)."""

    variants: tuple[str, ...]

    def load(self) -> Any: ...


class Tally(Mapping):
    """A game's counts by key ("event CARD" -> 3), read-only and small: simulate keeps one
    summary per game until the end (10,000 pairs: 20,000 of them), and as two dicts of a
    few hundred keys each they came to 43 KB a game. Keys are interned (every game shares
    one copy of each), counts an array; compared equal to a dict with the same items."""

    __slots__ = ("_keys", "_counts")

    def __init__(self, items: Mapping[str, int] | None = None):
        pairs = sorted((items or {}).items())
        self._keys = tuple(sys.intern(k) for k, _ in pairs)
        self._counts = array("q", [v for _, v in pairs])

    def __getitem__(self, key: str) -> int:
        i = bisect.bisect_left(self._keys, key)
        if i < len(self._keys) and self._keys[i] == key:
            return self._counts[i]
        raise KeyError(key)

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def items(self):
        return zip(self._keys, self._counts)

    def __repr__(self) -> str:
        return f"Tally({dict(self.items())!r})"

    def __reduce__(self):  # unpickled in the parent: interned there too
        return (Tally, (dict(self.items()),))


@dataclass(frozen=True)
class GameSummary:
    """What one simulated game contributes to the statistics."""

    seed: int
    winner: str | None
    reason: str | None
    decisions: int
    tracks: dict[str, Any]
    events: Mapping[str, int] = field(default_factory=dict)
    uses: Mapping[str, int] = field(default_factory=dict)  # "use card player" -> times
    losers: tuple[str, ...] = ()  # the players a `lose` named (then winner is None)
    reached: frozenset[str] = frozenset()  # spec coverage: the lines and arms it reached, if counted
    drawn: frozenset[str] = frozenset()  # the cards (ids) drawn into a hand (runtime/state.py note_drawn)
    whole: bool = field(default=False, compare=False)  # played whole by the native engine (play_whole)
    searched: bool = field(default=False, compare=False)  # a search's seats on the native engine (run_batch)


def play_game(program, seed: int, agents: tuple[str, ...], params: dict[str, Any]) -> GameSummary:
    counting = getattr(program, "spec_coverage", None)  # compiler/backends/coverage.py CountedRef
    if counting is not None:
        counting.begin()
    game = Game(program, seed=seed, params=params, traced=True)
    bots = seat_agents(agents, game.players, seed)
    decisions = play_out(game, bots, MAX_DECISIONS)
    reached = counting.end() if counting is not None else frozenset()
    return summary_of(game, seed, decisions, reached)


def summary_of(game: Game, seed: int, decisions: int, reached: frozenset[str] = frozenset(),
               whole: bool = False) -> GameSummary:
    """What a traced game that ended contributes."""
    meta, trace = game.meta, game.state.trace
    events, uses = readable_trace(meta, trace)
    return GameSummary(seed, game.winner, game.reason, decisions, game.tracks(), Tally(events),
                       Tally(uses), tuple(game.losers), reached, drawn_cards(meta, trace), whole)


def play_whole(program, seeds: list[int], agents: tuple[str, ...],
               params: dict[str, Any]) -> list[GameSummary] | None:
    """The games of `seeds` played whole by the native engine (compiler/backends/machine), none
    crossing back per decision, when it can play them: every seat the same policy bot (the
    default bot) and every rule of that policy native. Else None: they are played one by one."""
    whole = getattr(program, "traced_policy_games", None)
    if whole is None:
        return None
    players = program.meta.seated(new_state(program.meta, 0, params).params)
    seated = [list(seat_agents(agents, players, seed).values()) for seed in seeds]
    policies = {_policy_of(program.meta, bot) for bots in seated for bot in bots}
    if len(policies) != 1 or None in policies:
        return None
    played = whole([(seed, [bot.stream.rng for bot in bots]) for seed, bots in zip(seeds, seated)],
                   params, seated[0][0].policy, MAX_DECISIONS)
    if played is None:
        return None
    out = []
    for seed, (decisions, state, why) in zip(seeds, played):
        if why is not None:
            raise (DecisionLimit if why.startswith("the game did not end within") else RuleError)(why)
        out.append(summary_of(Game(program, seed=seed, params=params, state=state), seed, decisions,
                              whole=True))
    return out


def _policy_of(meta, bot) -> Any:
    """A seat's policy as the native engine plays it (its name and tunables), or None for a bot
    that is not exactly the policy bot."""
    if type(bot) is not PolicyAgent or not meta.policies:
        return None
    name, tunables = resolve(meta, bot.policy)
    return name, tuple(sorted(tunables.items()))


def readable_trace(meta, trace: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """'event 12' -> 'event CARD'; 'event 12 by 1' -> uses['event CARD PLAYER'] (the spec's ids).
    Draws are left out (drawn_cards): the tables of uses and events count what cards did."""
    events, uses = {}, {}
    readings = _readings(meta)
    for key, count in sorted(trace.items()):
        kind, name = readings.get(key) or _read_key(meta, readings, key)
        if kind is _USE:
            uses[name] = count
        elif kind is _EVENT:
            events[name] = count
    return events, uses


def drawn_cards(meta, trace: dict[str, int]) -> frozenset[str]:
    """The ids of the cards drawn into a hand in a traced game."""
    readings = _readings(meta)
    return frozenset(name for kind, name in (readings.get(key) or _read_key(meta, readings, key) for key in trace)
                     if kind is _DRAW)


# A trace key's reading: what it counts (_EVENT, _USE: by a player, _DRAW: a card drawn, _DRAWN_BY)
# and its name in the spec's ids; the same few hundred keys recur game after game (a simulation
# reads tens of thousands of traces), so each is read once a process and game.
_EVENT, _USE, _DRAW, _DRAWN_BY = "event", "use", "draw", "drawn by"
_READINGS: dict[int, tuple[Any, dict[str, tuple[str, str]]]] = {}


def _readings(meta) -> dict[str, tuple[str, str]]:
    found = _READINGS.get(id(meta))
    if found is None or found[0] is not meta:
        found = _READINGS[id(meta)] = (meta, {})
    return found[1]


def _read_key(meta, readings: dict[str, tuple[str, str]], key: str) -> tuple[str, str]:
    what, by, player = key.partition(" by ")
    if what.startswith(DRAWN):
        reading = (_DRAWN_BY if by else _DRAW, sys.intern(meta.entity_ids[int(what[len(DRAWN):])]))
    else:
        use, card = what.rsplit(" ", 1)
        name = f"{use} {meta.entity_ids[int(card)]}"
        reading = (_USE, sys.intern(f"{name} {meta.players[int(player)]}")) if by else (_EVENT, sys.intern(name))
    readings[key] = reading
    return reading


_LOADED: dict[Any, Any] = {}


def run_batch(factory: ProgramFactory, seeds: list[int], agents: tuple[str, ...],
              params: dict[str, Any]) -> list[GameSummary]:
    """Play a batch of seeds in this process (the program is loaded once)."""
    key = repr(factory)
    if key not in _LOADED:
        _LOADED[key] = factory.load()
    program = _LOADED[key]
    whole = play_whole(program, seeds, agents, params)
    if whole is not None:
        return whole
    searching = getattr(program, "searching", None) if any(_plays_out(name) for name in agents) else None
    if searching is not None:
        return [replace(play_game(searching, s, agents, params), searched=True) for s in seeds]
    return [play_game(program, s, agents, params) for s in seeds]


def _plays_out(agent: str) -> bool:
    """Whether a seat's bot plays policy playouts (rollout, mcts: runtime/bots/mcts.py
    policy_play_out), which the native engine plays in one call each."""
    return agent.partition(":")[0].partition("@")[0].partition("(")[0] in ("rollout", "mcts")


def batches(seeds: list[int], size: int) -> list[list[int]]:
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


BATCH = 25  # games a worker plays per job


def job_count(games: int, sets: int, batch_size: int = BATCH) -> int:
    """How many batches `simulate` hands out: the most workers that can be busy at once."""
    return sets * -(-games // batch_size)


WORKERS_PER_CPU = 2  # processes beyond this only wait for a CPU


def worker_cap(jobs: int, cpus: int | None = None) -> int:
    """The most workers that can help: one per batch, at most WORKERS_PER_CPU per CPU."""
    cpus = cpus or os.cpu_count() or 1
    return max(1, min(jobs, cpus * WORKERS_PER_CPU))


def choose_workers(asked: int, games: int, sets: int, executor: str = "local",
                   cpus: int | None = None) -> tuple[int, str | None]:
    """The workers a run uses, and a note when fewer than asked: never more than there are
    batches, and on this machine at most WORKERS_PER_CPU per CPU (a cluster has its own)."""
    jobs = job_count(games, sets)
    cap = jobs if executor != "local" else worker_cap(jobs, cpus)
    if asked <= cap:
        return asked, None
    cpus = cpus or os.cpu_count() or 1
    why = f"{jobs} batch{'es' if jobs != 1 else ''} of up to {BATCH} games"
    if executor == "local" and cap < jobs:
        why = f"{cpus} CPU{'s' if cpus != 1 else ''} x {WORKERS_PER_CPU}"
    return cap, f"--workers {asked} capped at {cap} ({why})"


class LocalExecutor:
    """This machine: in-process for one worker, a process pool otherwise."""

    def __init__(self, workers: int = 1):
        self.workers = max(1, workers)

    def map(self, jobs: list[tuple], on_done: Callable[[int], None],
            work: Callable[..., Any] = run_batch) -> list:
        """work(*job) of every job, in order (a job's seeds are its second item); `work` is a
        module-level function, so a worker can reduce its games before sending them back."""
        workers = min(self.workers, len(jobs))
        if workers <= 1:
            out = []
            for job in jobs:
                out.append(work(*job))
                on_done(len(job[1]))
            return out
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(work, *job) for job in jobs]
            out = []
            for job, future in zip(jobs, futures):
                out.append(future.result())
                on_done(len(job[1]))
            return out

    def close(self) -> None:
        """Nothing to stop: the pool ends with each map."""


class RayExecutor:
    """Ray (the optional extra `rulespec[ray]`): the same batches as remote tasks.

    With an address (or RAY_ADDRESS in the environment) it joins that running
    cluster and uses the CPUs the cluster has (Ray refuses a CPU count when it
    joins). Otherwise it starts a Ray of its own on this machine, listening on
    127.0.0.1 only, with `workers` CPUs, and stops it when done; a cluster that
    happens to run here already is left alone. docs/SCALING.md says what a
    cluster run exposes.
    """

    LOOPBACK = "127.0.0.1"

    def __init__(self, workers: int = 0, address: str | None = None, ray_module=None):
        ray = ray_module or _import_ray()
        self.ray = ray
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.started = False
        if not ray.is_initialized():
            try:
                if self.address:
                    ray.init(address=self.address, log_to_driver=False)
                else:
                    with _loopback_only(ray):
                        ray.init(address="local", num_cpus=workers or None, include_dashboard=False,
                                 log_to_driver=False, _node_ip_address=self.LOOPBACK)
                    self.started = True
            except Exception as err:  # noqa: BLE001 - Ray's own errors, in one line
                where = f"join the Ray cluster at {self.address}" if self.address else "start Ray"
                first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                raise RuntimeError(f"cannot {where}: {first}") from None
        self._remotes: dict[Callable[..., Any], Any] = {}  # a worker's function -> its Ray task

    def map(self, jobs: list[tuple], on_done: Callable[[int], None],
            work: Callable[..., Any] = run_batch) -> list:
        """As LocalExecutor.map, each job a remote task."""
        if work not in self._remotes:
            self._remotes[work] = self.ray.remote(work)
        refs = [self._remotes[work].remote(*job) for job in jobs]
        out = []
        for job, ref in zip(jobs, refs):
            out.append(self.ray.get(ref))
            on_done(len(job[1]))
        return out

    def close(self) -> None:
        """Stop the Ray this executor started (a cluster it joined keeps running)."""
        if self.started:
            self.ray.shutdown()
            self.started = False


# Ray on Linux takes this machine's network address as a node's and listens on
# every interface; with "cluster support" off (as Ray does on macOS and Windows)
# a node is 127.0.0.1 and every server it starts listens there only.
_RAY_CLUSTER_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


@contextlib.contextmanager
def _loopback_only(ray):
    """While a private Ray starts: its node address is loopback, in this process and its own."""
    saved = os.environ.get(_RAY_CLUSTER_SWITCH)
    os.environ[_RAY_CLUSTER_SWITCH] = "0"
    constants = getattr(getattr(ray, "_private", None), "ray_constants", None)
    was = getattr(constants, "ENABLE_RAY_CLUSTER", None)
    if was is not None:
        constants.ENABLE_RAY_CLUSTER = False  # read at import; ray may be imported already
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(_RAY_CLUSTER_SWITCH, None)
        else:
            os.environ[_RAY_CLUSTER_SWITCH] = saved
        if was is not None:
            constants.ENABLE_RAY_CLUSTER = was


def _import_ray():
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray executor needs Ray: pip install 'rulespec[ray]'") from None
    return ray


def simulate(factories: list[ProgramFactory], games: int, seed: int, agents: tuple[str, ...],
             params: dict[str, Any], executor, on_done: Callable[[int], None] = lambda n: None,
             batch_size: int = BATCH) -> list[list[GameSummary]]:
    """The games of every variant set, each list ordered by seed."""
    return play_sets([(f, agents, params) for f in factories], list(range(seed, seed + games)),
                     executor, on_done, batch_size)


def play_sets(sets: list[tuple[ProgramFactory, tuple[str, ...], dict[str, Any]]], seeds: list[int],
              executor, on_done: Callable[[int], None] = lambda n: None,
              batch_size: int = BATCH, close: bool = True) -> list[list[GameSummary]]:
    """The games of every (program, seat agents, params) set on the same seeds, each list ordered
    by seed: one map over the executor for all of them (close=False keeps it for another)."""
    jobs = [(f, chunk, agents, params) for f, agents, params in sets
            for chunk in batches(seeds, batch_size)]
    try:
        results = executor.map(jobs, on_done)
    finally:
        stop = getattr(executor, "close", None)
        if close and stop is not None:
            stop()
    per_set, chunks = [], len(batches(seeds, batch_size))
    for k in range(len(sets)):
        per_set.append([g for chunk in results[k * chunks:(k + 1) * chunks] for g in chunk])
    return per_set


FIRST_ROUND = 200  # paired games before the first look at the interval
PRECISION_CAP = 20_000  # pairs `--precision` plays at most when --games is not given


@dataclass(frozen=True)
class GamesCap:
    """The most games per set a run may play, and whence: `--games` as given, PRECISION_CAP
    when --precision asks for an answer and --games is not given (an answer asked for is an
    answer given, not the stop of the default --games), else the command's default."""

    games: int
    source: str  # "--games", "precision" or "default"

    @classmethod
    def of(cls, given: int | None, default: int, precision: float | None) -> GamesCap:
        if given is not None:
            return cls(given, "--games")
        return cls(PRECISION_CAP, "precision") if precision is not None else cls(default, "default")

    def clause(self, precision: float, stopped: str, played: int, unit: str = "pairs") -> str:
        """What --precision (in points) came to, for the end of a sentence: settled, or the cap."""
        limit = (f"--games {self.games:,}" if self.source == "--games" else
                 f"the cap of {self.games:,} {unit} without --games")
        if stopped == "precision":
            return f"; the interval is within ±{precision:g} points after {played:,} {unit} (at most {limit})"
        return (f"; the interval did not narrow to ±{precision:g} points within {played:,} {unit},"
                f" {limit} (raise --games to play more)")


def play_until(sets: list[tuple[ProgramFactory, tuple[str, ...], dict[str, Any]]], games: int,
               seed: int, executor, precision: float,
               widest: Callable[[list[list[GameSummary]]], tuple[float, float]],
               on_done: Callable[[int], None] = lambda n: None,
               batch_size: int = BATCH) -> tuple[list[list[GameSummary]], str]:
    """The sets' games on shared seeds in rounds, until `widest` of the games so far (the
    half-width of the interval that must narrow, and its standard deviation) is at most
    `precision`, or `games` seeds are played: the games and "precision" or "games". Seeds run
    on from round to round, so the games are those of one longer run."""
    per_set: list[list[GameSummary]] = [[] for _ in sets]
    done, size = 0, min(FIRST_ROUND, games)
    while True:
        seeds = list(range(seed + done, seed + done + size))
        for played, more in zip(per_set, play_sets(sets, seeds, executor, on_done, batch_size)):
            played.extend(more)
        done += size
        half_width, sd = widest(per_set)
        if half_width <= precision:
            return per_set, "precision"
        if done >= games:
            return per_set, "games"
        needed = int((Z95 * sd / precision) ** 2) + 1
        size = min(games - done, max(100, min(done, needed - done)))


def simulate_until(factories: list[ProgramFactory], games: int, seed: int, agents: tuple[str, ...],
                   params: dict[str, Any], executor, players: list[str], precision: float | None,
                   on_done: Callable[[int], None] = lambda n: None,
                   batch_size: int = 25) -> tuple[list[list[GameSummary]], str]:
    """Paired games in rounds until every player's 95% interval of the difference is at
    most ±precision (a win-rate fraction), or `games` pairs are played (play_until)."""
    if precision is None or len(factories) < 2:
        return simulate(factories, games, seed, agents, params, executor, on_done, batch_size), "games"

    def widest(per_set: list[list[GameSummary]]) -> tuple[float, float]:
        diffs = [_paired(p, per_set[0], per_set[1]) for p in players]
        return max(d.half_width for d in diffs), max(d.sd for d in diffs)
    return play_until([(f, agents, params) for f in factories], games, seed, executor, precision,
                      widest, on_done, batch_size)


def _paired(player: str, results: list[GameSummary], base: list[GameSummary]):
    return paired_difference([1.0 if g.winner == player else 0.0 for g in results],
                             [1.0 if g.winner == player else 0.0 for g in base])


def summarise(players: Iterable[str], variants: tuple[str, ...], results: list[GameSummary],
              names: CardNames | None = None) -> dict:
    """Win and loss rates with Wilson intervals, draws, lengths, end reasons, tracks, events.

    A loss is a game a `lose` ended for that player; a draw ended with neither a winner nor
    a loser."""
    n = len(results)
    players = list(players)
    wins = Counter(g.winner for g in results)
    losses = Counter(p for g in results for p in g.losers)
    tracks: dict[str, list] = {}
    for g in results:
        for name, value in g.tracks.items():
            if isinstance(value, int):
                tracks.setdefault(name, []).append(value)
    events = Counter()
    for g in results:
        events.update(g.events)
    per_player: dict[str, dict[str, list]] = {}
    for g in results:
        for name, value in g.tracks.items():
            if isinstance(value, dict):
                for p, v in value.items():
                    if isinstance(v, int):
                        per_player.setdefault(name, {}).setdefault(p, []).append(v)
    return {
        "variants": list(variants),
        "games": n,
        "win_rate": {p: wins[p] / n if n else 0.0 for p in players},
        "win_ci95": {p: list(wilson(wins[p], n)) for p in players},
        "loss_rate": {p: losses[p] / n if n else 0.0 for p in players},
        "loss_ci95": {p: list(wilson(losses[p], n)) for p in players},
        "draws": sum(1 for g in results if g.winner is None and not g.losers),
        "mean_length": sum(g.decisions for g in results) / n if n else 0.0,
        "end_reasons": dict(sorted(Counter(g.reason for g in results).items())),
        "final_tracks": {name: _distribution(values) for name, values in sorted(tracks.items())},
        "final_player_tracks": {name: {p: _distribution(v) for p, v in by.items()}
                                for name, by in sorted(per_player.items())},
        "lengths": _distribution([g.decisions for g in results]) if results else {},
        "events_fired": dict(sorted(events.items())),
        "cards": card_table(results, names),
    }


def _distribution(values: list[int]) -> dict[str, Any]:
    counts = Counter(values)
    ordered = sorted(values)
    return {"mean": sum(values) / len(values), "min": ordered[0], "max": ordered[-1],
            "median": ordered[len(ordered) // 2],
            "p10": ordered[len(ordered) // 10], "p90": ordered[(len(ordered) * 9) // 10],
            "histogram": {str(k): counts[k] for k in sorted(counts)}}


def compare(players: list[str], variant: tuple[str, ...], results: list[GameSummary],
            base: list[GameSummary], names: CardNames | None = None) -> dict:
    """The paired difference in each player's win rate; the side that gains leads."""
    name = " + ".join(variant) or "the base game"
    by_player = {}
    for p in players:
        rate, base_rate, diff = _paired_change(lambda g, p=p: g.winner == p, results, base)
        sentence = describe_change(p, base_rate, rate, diff, name, len(results))
        by_player[p] = {"difference": diff.difference, "ci95": list(diff.ci95),
                        "half_width": diff.half_width, "p_value": diff.p_value,
                        "discordant_pairs": diff.discordant, "pairs": diff.pairs,
                        "pairs_to_settle": diff.pairs_to_settle(), "sentence": sentence}
    # The gaining side leads; with no gain (say, only more draws), the largest change.
    lead = max(players, key=lambda p: (by_player[p]["difference"] > 0,
                                       abs(by_player[p]["difference"]), -players.index(p)))
    base_rates = {p: sum(1 for g in base if g.winner == p) / len(base) for p in players}
    warning = lopsided(base_rates)
    out = {"player": lead, **by_player[lead], "by_player": by_player, "warnings": [],
           "cards": card_movers(results, base, names), "cards_min_games": MIN_CARD_GAMES,
           "cards_false_discovery_rate": FALSE_DISCOVERY_RATE}
    if warning:
        out["warnings"].append(warning)
    if any(g.losers for g in (*results, *base)):
        out["losses"] = {p: _loss_change(p, results, base) for p in players}
    return out


def _paired_change(hit, results: list[GameSummary], base: list[GameSummary]):
    """How often `hit(game)` held with the variant and in the base game, and the paired
    difference of the two (the same seeds pair the games)."""
    after = [1.0 if hit(g) else 0.0 for g in results]
    before = [1.0 if hit(g) else 0.0 for g in base]
    return sum(after) / len(after), sum(before) / len(before), paired_difference(after, before)


def _loss_change(player: str, results: list[GameSummary], base: list[GameSummary]) -> dict:
    """The paired change in how often `lose` ended a game with this player losing."""
    rate, base_rate, diff = _paired_change(lambda g: player in g.losers, results, base)
    return {"rate": rate, "base_rate": base_rate,
            "difference": diff.difference, "ci95": list(diff.ci95), "half_width": diff.half_width,
            "p_value": diff.p_value, "pairs_to_settle": diff.pairs_to_settle()}


def summary_dict(summary: GameSummary) -> dict:
    return {**asdict(summary), "events": dict(summary.events), "uses": dict(summary.uses),
            "reached": sorted(summary.reached), "drawn": sorted(summary.drawn)}


def results_json(game: str, players: list[str], sets: list[tuple[str, ...]],
                 results: list[list[GameSummary]], *, games_asked: int, seed: int,
                 agents: tuple[str, ...], precision: float | None, stopped: str, backend: str,
                 executor: str, workers: int, workers_asked: int,
                 names: CardNames | None = None, cap: GamesCap | None = None,
                 settles: str = "comparison") -> dict[str, Any]:
    """The keys docs/CLI.md promises for `simulate --json`: each variant set summarised, and
    with a base (the second set) the comparison, its sentence saying how far --precision got
    (unless `settles` names the ladder: then the ladder's sentence says it)."""
    played = len(results[0])
    cap = cap or GamesCap(games_asked, "--games")
    out: dict[str, Any] = {
        "game": game, "games": played, "games_asked": games_asked, "seed": seed,
        "agents": list(agents), "precision": precision, "stopped_by": stopped,
        "games_cap": cap.games, "games_cap_from": cap.source,
        "backend": backend, "executor": executor, "workers": workers, "workers_asked": workers_asked,
        "variants": [summarise(players, s, r, names) for s, r in zip(sets, results)],
    }
    if len(sets) > 1:
        out["comparison"] = compare(players, sets[0], results[0], results[1], names)
        out["comparison"]["against"] = list(sets[1]) or ["base"]
        if precision is not None and settles == "comparison":
            out["comparison"]["sentence"] += cap.clause(precision, stopped, played)
    return out
