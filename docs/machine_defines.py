"""The native defines, measured (docs/BENCHMARKS.md (b), "Stage 2: defines over machine data").

    python docs/machine_defines.py [GAME…] [--seeds 2] [--positions 8] [--rounds 3] [--json]

Per game: how many defines compile natively (compiler/backends/machine/defines.py) and the
commonest reasons for the rest; then the CPU time of evaluating every compiled define, with
every argument tuple of its parameters (at most 300 a define, as tests/test_machine_defines.py
calls them), at each of POSITIONS positions of SEEDS seeded random games: natively (the Cython
module over the packed position, called from Python one define at a time; and its bodies alone,
each call worked out REPEAT times in C and divided, what a native caller would pay), on the generated
package's Cython build where the cache holds it (`rulespec compile --native`), and on pure
Python (a child process with RULESPEC_NATIVE=0). Rounds alternate the three; the least of
ROUNDS is kept. Each round starts every position with no kept values (state.memo cleared).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("twilight_struggle", "terraforming_mars", "heldenhain", "risk_balance_of_power",
         "the_fox_in_the_forest")
CALLS = 300
REPEAT = 200  # evaluations of each call in C, for the native body's own cost


def workload(game: str, seeds: int, positions: int):
    """The positions (States) and, per compiled define, its argument tuples."""
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.backends.machine.defines import argument_tuples, native_defines
    from rulespec.compiler.frontend.loader import load_spec
    from rulespec.runtime.analysis.fuzz import random_walk
    from rulespec.runtime.game import Game

    loaded = load_spec(ROOT / "spec" / game)
    defines = native_defines(loaded.model)
    states = []
    for seed in range(seeds):
        for taken, play in enumerate(random_walk(Game(load_program(loaded, "generated"), seed=seed), seed)):
            if taken % 7 == 0:
                states.append(play.state.copy())
                if len(states) == (seed + 1) * positions:
                    break
    calls = [(d, argument_tuples(loaded.model, loaded.model.defines[d.name], CALLS)) for d in defines.compiled]
    return loaded, defines, states, calls


def python_seconds(rules, states, calls) -> float:
    """CPU seconds of every call on a generated package's rules module (errors count as calls)."""
    for state in states:
        state.memo.clear()
    start = time.process_time()
    for state in states:
        for made, tuples in calls:
            function = getattr(rules, made.function)
            for args in tuples:
                try:
                    function(state, *args)
                except Exception:  # noqa: BLE001 - the native run fails at the same calls
                    pass
    return time.process_time() - start


def native_seconds(module, blocks, calls, times: int = 0) -> float:
    """CPU seconds of every call through the module's define(); times > 0: each call works the
    define out `times` times in C (repeat()), and the seconds are per time."""
    define, repeat = module.define, module.repeat
    start = time.process_time()
    for position in blocks:
        for made, tuples in calls:
            name = made.name
            for args in tuples:
                try:
                    if times:
                        repeat(name, times, position, *args)
                    else:
                        define(name, position, *args)
                except Exception:  # noqa: BLE001
                    pass
    return (time.process_time() - start) / max(times, 1)


def generated_rules(game: str, natively: bool):
    """The rules module of generated/GAME, from its sources or its native build; None when the
    cache holds no build of it."""
    from rulespec.compiler.backends import native
    from rulespec.compiler.backends.packages import import_package

    where = ROOT / "generated" / game
    if natively and "rules" not in native.native_modules(where):
        return None
    name = f"_measured_{game}_{'native' if natively else 'pure'}"
    import_package(name, where, natively=natively)
    return sys.modules[name + ".rules"]


def pure_round(games: list[str], seeds: int, positions: int) -> dict[str, float]:
    """One round on pure Python (this process runs with RULESPEC_NATIVE=0)."""
    out = {}
    for game in games:
        _, _, states, calls = workload(game, seeds, positions)
        out[game] = python_seconds(generated_rules(game, False), states, calls)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pure-round", action="store_true", help=argparse.SUPPRESS)  # a child's run
    args = parser.parse_args()
    if args.pure_round:
        print(json.dumps(pure_round(args.games, args.seeds, args.positions)))
        return
    from rulespec.compiler.backends.machine.build import load_defines
    from rulespec.compiler.backends.machine.pack import pack

    rows, work = {}, {}
    for game in args.games:
        loaded, defines, states, calls = workload(game, args.seeds, args.positions)
        module, _ = load_defines(loaded.model)
        blocks = [module.Position(pack(defines.layout, s), s.params) for s in states]
        reasons = collections.Counter("calls a define not compiled natively" if r.reason.startswith("calls define")
                                      else r.reason for r in defines.refused)
        rows[game] = {"game": game, "defines": len(loaded.model.defines), "compiled": len(defines.compiled),
                      "top_reasons": reasons.most_common(3), "positions": len(states),
                      "calls": sum(len(t) for _, t in calls) * len(states),
                      "native_s": [], "native_body_s": [], "pure_s": [], "cython_build_s": []}
        work[game] = (module, blocks, states, calls, generated_rules(game, True))
    load = [os.getloadavg()]
    for _ in range(args.rounds):
        for game, (module, blocks, states, calls, built) in work.items():
            rows[game]["native_s"].append(native_seconds(module, blocks, calls))
            rows[game]["native_body_s"].append(native_seconds(module, blocks, calls, REPEAT))
            if built is not None:
                rows[game]["cython_build_s"].append(python_seconds(built, states, calls))
        child = subprocess.run([sys.executable, __file__, *args.games, "--seeds", str(args.seeds),
                                "--positions", str(args.positions), "--pure-round"],
                               env={**os.environ, "RULESPEC_NATIVE": "0"}, capture_output=True, text=True,
                               check=True)
        for game, seconds in json.loads(child.stdout.strip().splitlines()[-1]).items():
            rows[game]["pure_s"].append(seconds)
        load.append(os.getloadavg())
    for row in rows.values():
        for key in ("native_s", "native_body_s", "pure_s", "cython_build_s"):
            row[key] = min(row[key]) if row[key] else None
    if args.json:
        print(json.dumps({"rows": list(rows.values()), "load": load}, indent=1))
        return
    print("| game | defines compiled natively | top reasons for the rest | calls | pure Python |"
          " Cython build of the package | native, called from Python | native over pure |"
          " native bodies alone | bodies over pure |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows.values():
        reasons = "; ".join(f"{why} ({n})" for why, n in r["top_reasons"]) or "-"
        built = "-" if r["cython_build_s"] is None else f"{r['cython_build_s']:.3f} s"
        print(f"| {r['game']} | {r['compiled']} of {r['defines']} | {reasons} | {r['calls']:,} |"
              f" {r['pure_s']:.3f} s | {built} | {r['native_s']:.3f} s | {r['pure_s'] / r['native_s']:.1f}x |"
              f" {r['native_body_s'] * 1000:.2f} ms | {r['pure_s'] / r['native_body_s']:.0f}x |")
    print(f"load (1, 5, 15 min) before and after each round: {load}")


if __name__ == "__main__":
    main()
