"""A search's copy of a state on the native engine, measured (docs/BENCHMARKS.md (e), issue 41 stage 4).

    python docs/machine_state_copy.py [GAME...] [--decisions 150]

Per game, on the position after DECISIONS random decisions (seed 1, choices from Stream(7), as
docs/machine_copy.py plays them; a game that ends sooner, at its end) played on the native engine:
the bytes one copy of its Machine moves (what the rules read, the lasting effects, and the frames
and options in use: templates/frames.pxi.j2 copy_machine) and the CPU time of one copy, the
least of five runs of a million copies in C (the module's `copies`).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("twilight_struggle", "terraforming_mars", "heldenhain", "risk_balance_of_power",
         "the_fox_in_the_forest")


def main(argv: list[str]) -> None:
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.frontend.loader import load_spec
    from rulespec.runtime.game import Game
    from rulespec.runtime.state import Stream, next_random

    decisions = int(argv[argv.index("--decisions") + 1]) if "--decisions" in argv else 150
    games = [a for a in argv if a in GAMES] or list(GAMES)
    print("| game | decisions | frames | bytes a copy | one copy |\n|---|---|---|---|---|")
    for game in games:
        engine = load_program(load_spec(ROOT / "spec" / game), "machine")
        play = Game(engine, seed=1)
        stream = Stream(7)
        while not play.over and play.state.decisions < decisions:
            ids = play.decision.option_ids
            play.choose(ids[next_random(stream) % len(ids)])
        state, module = play.state, engine.module
        position = module.Position(engine._packed(state), state.params, state.effects)
        module.control_in(position, state.frames, state.pending)
        times, best, moved = 1_000_000, float("inf"), 0
        for _ in range(5):
            start = time.process_time()
            moved = module.copies(position, times)
            best = min(best, (time.process_time() - start) / times * 1e6)
        print(f"| {game} | {state.decisions} | {len(state.frames)} | {moved:,} | {best:.2f} us |")


if __name__ == "__main__":
    main(sys.argv[1:])
