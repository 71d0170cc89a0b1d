"""The native engine's figures in docs/BENCHMARKS.md (b), "The native engine: every game".

    python docs/machine_engine_bench.py random [GAME...]   # bench: pure Python vs --backend machine (also on 20x the games), 3 interleaved rounds
    python docs/machine_engine_bench.py policy GAME N      # N policy-bot games: pure Python vs natively, 2 rounds
    python docs/machine_engine_bench.py build GAME...      # the native engine's build CPU, into a fresh cache
    python docs/machine_engine_bench.py pairs N            # N paired base / Chinese Civil War games of the default bot natively

Run from the checkout with its venv; pure Python runs under RULESPEC_NATIVE=0.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MACHINE_SCALE = 20
RANDOM_GAMES = {"the_fox_in_the_forest": 1000, "risk_balance_of_power": 100, "heldenhain": 60,
                "terraforming_mars": 20, "twilight_struggle": 40}


def random_play(games: list[str]) -> None:
    env = dict(os.environ, RULESPEC_NATIVE="0")
    for game in games or list(RANDOM_GAMES):
        ratios = []
        for r in range(3):
            rates = {}
            games_of = RANDOM_GAMES.get(game, 20)
            # the machine's side also on MACHINE_SCALE times the games: its time on the same games
            # is a few milliseconds, too short to measure
            for backend, games in (("generated", games_of), ("machine", games_of),
                                   ("machine", games_of * MACHINE_SCALE)):
                out = subprocess.run([sys.executable, "-m", "rulespec", "bench", game, "--backend", backend,
                                      "--games", str(games), "--json"],
                                     capture_output=True, text=True, env=env, check=True)
                o = json.loads(out.stdout)[backend]
                rates[backend, games] = (o["decisions"], o["cpu_seconds"], o["errors"])
            (dg, cg, eg), (dm, _, em) = rates["generated", games_of], rates["machine", games_of]
            dl, cl, el = rates["machine", games_of * MACHINE_SCALE]
            ratios.append((dl / cl) / (dg / cg))
            print(f"{game} round {r + 1}: {dg} decisions (errors {eg}/{em}/{el}, same: {dg == dm}); pure Python"
                  f" {dg / cg:,.0f}/CPU-s, machine {dl / cl:,.0f}/CPU-s over {dl} decisions:"
                  f" {ratios[-1]:.1f}x", flush=True)
        print(f"{game}: median {statistics.median(ratios):.1f}x", flush=True)


def seat_streams(meta, seeds, agent: str = "policy") -> list[tuple[int, list[int]]]:
    from rulespec.runtime.bots.agents import seat_agents
    return [(seed, [bot.stream.rng for bot in seat_agents((agent,) * len(meta.players), meta.players,
                                                          seed).values()]) for seed in seeds]


def policy_games(game: str, count: int) -> None:
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.cli.base import load
    from rulespec.runtime.bots.agents import play_out, seat_agents
    from rulespec.runtime.game import Game
    loaded = load(game)
    python, machine = load_program(loaded, "generated"), load_program(loaded, "machine")
    seeds = range(1, count + 1)
    for r in range(2):
        start, made = time.process_time(), 0
        for seed in seeds:
            made += play_out(Game(python, seed=seed), seat_agents(("policy",) * len(python.meta.players),
                                                                  python.meta.players, seed))
        spent = time.process_time() - start
        seated = seat_streams(machine.meta, seeds)
        start = time.process_time()
        games = machine.policy_games(seated, {}, None, 10**6, quiet=True)
        native = time.process_time() - start
        same = sum(g[0] for g in games) == made
        print(f"{game} round {r + 1}: {made} decisions (same: {same}); pure Python {made / spent:,.0f}/CPU-s,"
              f" native {made / native:,.0f}/CPU-s: {spent / native:.1f}x", flush=True)


def build(games: list[str]) -> None:
    """The CPU of each game's build (Cython and the C compiler, in their child process) into a
    fresh cache, so that nothing built before is found."""
    from rulespec.compiler.backends.machine.build import build_engine
    from rulespec.compiler.backends.machine.engine import native_engine
    from rulespec.compiler.backends.machine.pyx import CFLAGS
    from rulespec.compiler.cli.base import load
    print(f"C flags after Python's own: {' '.join(CFLAGS)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="rulespec-build-bench-") as cache:
        os.environ["RULESPEC_CACHE"] = cache
        for game in games:
            made = native_engine(load(game).model)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            build_engine(made)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            print(f"{game}: build {cpu:.1f} s of CPU", flush=True)


def pairs(count: int) -> None:
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.frontend.loader import load_spec
    for variants in ((), ("chinese_civil_war",)):
        program = load_program(load_spec(Path("spec/twilight_struggle"), variants=variants), "machine")
        seated = seat_streams(program.meta, range(1, count + 1))
        wall, cpu = time.time(), time.process_time()
        games = program.policy_games(seated, {}, None, 20_000, quiet=True)
        wall, cpu = time.time() - wall, time.process_time() - cpu
        won = sum(1 for g in games if g[1] and g[1]["winner"] == 1)
        print(f"{' + '.join(variants) or 'base'}: {count} games, {sum(g[0] for g in games)} decisions,"
              f" {cpu:.1f} CPU-s, {wall:.1f} s wall, {sum(1 for g in games if g[2])} stopped,"
              f" {program.meta.players[1]} won {won}", flush=True)


if __name__ == "__main__":
    what, rest = sys.argv[1], sys.argv[2:]
    if what == "random":
        random_play(rest)
    elif what == "policy":
        policy_games(rest[0], int(rest[1]))
    elif what == "build":
        build(rest)
    elif what == "pairs":
        pairs(int(rest[0]))
    else:
        sys.exit(__doc__)
