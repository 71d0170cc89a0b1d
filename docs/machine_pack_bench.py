"""Crossing into the native engine: docs/BENCHMARKS.md (b), "Crossing into the native engine".

    python docs/machine_pack_bench.py pack [GAME...]      # µs a pack and an unpack: pack.py against the native ones
    python docs/machine_pack_bench.py play GAME GAMES     # random games through the decision protocol, 3 rounds

`pack`: at the position 30 random decisions into a seeded game (seeds 1-5), the mean µs of a call of
pack.py's pack and unpack against the game's module's (packing.py), each timed over a second's
worth of calls. `play`: the same random games (random_walk: Game.choose_index a decision at a
time) on the generated package, on NativeProgram crossing with pack.py and packing afresh each
decision (as before the native pack) and on NativeProgram crossing natively (a decision taken on
the state just reached reuses its packed bytes), interleaved; CPU seconds, the same decisions.
Run from the checkout with its venv; pure Python under RULESPEC_NATIVE=0.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

GAMES = ("twilight_struggle", "terraforming_mars", "the_fox_in_the_forest")


def position(program, seed: int, decisions: int = 30):
    from rulespec.runtime.analysis.fuzz import random_walk
    from rulespec.runtime.game import Game
    for taken, game in enumerate(random_walk(Game(program, seed=seed), seed)):
        if taken == decisions or game.over:
            return game.state


def per_call(work, *args) -> float:
    """Mean µs of work(*args) over about a second of calls."""
    calls, start = 1, time.perf_counter()
    while True:
        for _ in range(calls):
            work(*args)
        spent = time.perf_counter() - start
        if spent > 1.0:
            return spent / calls * 1e6
        calls, start = calls * 2, time.perf_counter()


def pack_times(games: list[str]) -> None:
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.backends.machine.pack import pack, unpack
    from rulespec.compiler.cli.base import load
    for game in games or GAMES:
        loaded = load(game)
        machine = load_program(loaded, "machine")
        module, layout = machine.module, machine.layout
        times = {"pack": [], "unpack": [], "native pack": [], "native unpack": []}
        for seed in range(1, 6):
            state = position(load_program(loaded, "generated"), seed)
            data, other = pack(layout, state), state.copy()
            assert module.pack_state(state) == data
            times["pack"].append(per_call(pack, layout, state))
            times["unpack"].append(per_call(unpack, layout, data, other))
            times["native pack"].append(per_call(module.pack_state, state))
            times["native unpack"].append(per_call(module.unpack_state, data, other))
        mean = {what: sum(t) / len(t) for what, t in times.items()}
        print(f"{game} ({layout.size} bytes): pack {mean['pack']:,.1f} µs -> {mean['native pack']:,.1f} µs"
              f" ({mean['pack'] / mean['native pack']:.0f}x), unpack {mean['unpack']:,.1f} µs ->"
              f" {mean['native unpack']:,.1f} µs ({mean['unpack'] / mean['native unpack']:.0f}x)", flush=True)


@contextmanager
def crossing_with_pack_py(layout):
    """NativeProgram crossing as before the native pack: pack.py's pack and unpack, and every
    crossing in packing afresh (no memo of the state it crossed out as)."""
    from rulespec.compiler.backends.machine import pack, program
    saved = program.pack_state, program.unpack_state, program._unchanged
    program.pack_state = lambda module, layout, state: pack.pack(layout, state)
    program.unpack_state = lambda module, data, state: pack.unpack(layout, data, state)
    program._unchanged = lambda state: (object(),)  # equal to nothing kept
    try:
        yield
    finally:
        program.pack_state, program.unpack_state, program._unchanged = saved


def play(game: str, count: int) -> None:
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.cli.base import load
    from rulespec.runtime.analysis.fuzz import random_walk
    from rulespec.runtime.game import Game
    loaded = load(game)
    python, machine = load_program(loaded, "generated"), load_program(loaded, "machine")

    def games(program) -> tuple[int, float]:
        start, made = time.process_time(), 0
        for seed in range(1, count + 1):
            for made_here, _ in enumerate(random_walk(Game(program, seed=seed), seed)):
                pass
            made += made_here
        return made, time.process_time() - start

    for r in range(3):
        made, generated = games(python)
        with crossing_with_pack_py(machine.layout):
            before_made, before = games(machine)
        after_made, after = games(machine)
        print(f"{game} round {r + 1}: {made} decisions (same: {made == before_made == after_made});"
              f" generated {made / generated:,.0f}/CPU-s, native crossing with pack.py {made / before:,.0f}/CPU-s,"
              f" native crossing natively {made / after:,.0f}/CPU-s: {before / after:.1f}x the pack.py crossing,"
              f" {generated / after:.2f}x the generated package", flush=True)


if __name__ == "__main__":
    what, *rest = sys.argv[1:] or ["pack"]
    if what == "pack":
        pack_times(rest)
    elif what == "play":
        play(rest[0], int(rest[1]) if len(rest) > 1 else 20)
    else:
        sys.exit(__doc__)
