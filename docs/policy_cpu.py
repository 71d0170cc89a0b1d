"""CPU per policy game of generated packages, compared in one process (docs/history/BENCHMARKS-journal.md,
"Cost and the 10,000-pair timing").

    python docs/policy_cpu.py GAME GAMES ROUNDS PACKAGE... [--native]

Each round plays seeds 1..GAMES with the spec's balance bot on every package in turn (the
same runtime, interleaved, so a busy machine slows all alike); it prints the lowest and the
median CPU milliseconds a game over the rounds, and a digest of the games' summaries (equal
digests: the same games, move for move). --native loads each package twice: as pure Python
(RULESPEC_NATIVE=0) and with its native build (rulespec compile --native), if the cache has one.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

from rulespec.compiler.backends.engine import import_program
from rulespec.compiler.backends.native import native_modules
from rulespec.runtime.bots.agents import default_agent
from rulespec.runtime.analysis.simulate import play_game


def main(argv: list[str]) -> None:
    native = "--native" in argv
    game, games, rounds, *packages = [a for a in argv if a != "--native"]
    programs = {}
    for package in packages:
        for flag in (("0", "1") if native else ("0",)):
            os.environ["RULESPEC_NATIVE"] = flag
            built = native_modules(Path(package)) if flag == "1" else []
            name = f"{package} ({'native: ' + ', '.join(built) if built else 'pure Python'})"
            programs[name] = import_program(Path(package), game)
    first = next(iter(programs.values()))
    agents = (default_agent(first.meta),) * len(first.meta.players)
    times: dict[str, list[float]] = {name: [] for name in programs}
    digests = {}
    for _ in range(int(rounds)):
        for name, program in programs.items():
            start = time.process_time()
            games_played = [play_game(program, s, agents, {}) for s in range(1, int(games) + 1)]
            times[name].append((time.process_time() - start) / int(games) * 1000)
            digests[name] = hashlib.sha256(json.dumps(
                [(g.seed, g.winner, g.reason, g.decisions, g.tracks, g.events, g.uses)
                 for g in games_played], sort_keys=True, default=repr).encode()).hexdigest()[:16]
    base = min(times[next(iter(times))])
    for name, spent in times.items():
        print(f"{name}: lowest {min(spent):.1f}, median {statistics.median(spent):.1f} ms a game"
              f" ({min(spent) / base:.2f} of the first), games digest {digests[name]}")


if __name__ == "__main__":
    main(sys.argv[1:])
