"""Where the generated engine spends its CPU: cProfile of random games (docs/BENCHMARKS.md, issue 24).

    RULESPEC_NATIVE=0 python docs/engine_profile.py GAME GAMES [ROWS] [SORT]

Plays GAMES random games from seed 1 as `rulespec bench` does, profiled by CPU time
(time.process_time: a busy machine does not inflate it), and prints the ROWS (30)
costliest functions by SORT (tottime; or cumulative).
"""

import cProfile
import pstats
import sys
import time

from rulespec.compiler.cli.base import load, program as load_program
from rulespec.runtime.analysis import bench

game, games = sys.argv[1], int(sys.argv[2])
rows = int(sys.argv[3]) if len(sys.argv) > 3 else 30
order = sys.argv[4] if len(sys.argv) > 4 else "tottime"
program = load_program(load(game), "generated", None)
profile = cProfile.Profile(time.process_time)
profile.enable()
result = bench.run(program, games, 1, {})
profile.disable()
print(f"{result.decisions} decisions")
pstats.Stats(profile).sort_stats(order).print_stats(rows)
