"""docs/BENCHMARKS.md (b), "Rollout playouts natively": the CPU of a whole rollout-bot self-play game
on the generated package (every rollout decision by decision in Python) and on the native engine
(each rollout one call: NativeProgram.policy_playout), the same seeds interleaved, and whether both
made the same decisions and ended the same.

    RULESPEC_NATIVE=0 python docs/machine_rollout_bench.py [GAME] [GAMES] [AGENT] [FIRST_SEED]

(defaults: twilight_struggle 3 rollout@6x3x3x1 1). Run from the checkout with its venv; under
RULESPEC_NATIVE=0 the generated package is pure Python, as the other rows of (b) measure it.
"""

from __future__ import annotations

import statistics
import sys
import time


def one_game(program, seed: int, agent: str):
    from rulespec.runtime.bots.agents import play_out, seat_agents
    from rulespec.runtime.game import Game
    game = Game(program, seed=seed, params={})
    start = time.process_time()
    play_out(game, seat_agents((agent,) * len(program.meta.players), program.meta.players, seed), 10**6)
    return time.process_time() - start, game.choices, game.state.result


def main(game: str = "twilight_struggle", games: str = "3", agent: str = "rollout@6x3x3x1",
         first: str = "1") -> None:
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.cli.base import load
    loaded = load(game)
    python, machine = load_program(loaded, "generated"), load_program(loaded, "machine")
    if not hasattr(machine, "policy_playout"):
        sys.exit(f"{game} does not run on the native engine")
    ratios, spent = [], {"generated": 0.0, "machine": 0.0}
    for seed in range(int(first), int(first) + int(games)):
        runs = {}
        for name, program in (("generated", python), ("machine", machine)):
            runs[name] = one_game(program, seed, agent)
            spent[name] += runs[name][0]
        (cg, choices_g, result_g), (cm, choices_m, result_m) = runs["generated"], runs["machine"]
        ratios.append(cg / cm)
        same = choices_g == choices_m and result_g == result_m
        print(f"{game} {agent} seed {seed}: {len(choices_g)} decisions (same: {same}); generated {cg:.1f} CPU-s,"
              f" native rollouts {cm:.1f} CPU-s: {cg / cm:.1f}x", flush=True)
    print(f"{game} {agent}: {games} games, generated {spent['generated'] / int(games):.1f} CPU-s a game,"
          f" native rollouts {spent['machine'] / int(games):.1f}: {spent['generated'] / spent['machine']:.1f}x"
          f" (median game {statistics.median(ratios):.1f}x)", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
