"""The state as machine data, measured (docs/BENCHMARKS.md (e), issue 41 stage 1).

    python docs/machine_copy.py [GAME…] [--decisions 150] [--json]

Per game, on the position after DECISIONS random decisions (seed 1, choices from Stream(7), as
bench_all.py's (e) plays them; a game that ends sooner, at its end): the bytes of the machine
part (compiler/backends/machine), the Python objects its object part holds, and the CPU time of
one copy of the machine block (compiler/backends/machine/block.pyx: a new block and one memcpy;
and the memcpy alone into a block made before) against one State.copy(), on the native build
of the runtime when it is built and on pure Python (a child process with RULESPEC_NATIVE=0),
with the share of that copy the object part takes (State.copy() of the state with its tracks,
counters, zones, locations and revealed flags emptied): what a copy still costs while the object
part stays Python objects.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("twilight_struggle", "terraforming_mars", "heldenhain", "risk_balance_of_power",
         "the_fox_in_the_forest")


def per_call_us(call, seconds: float = 0.4, repeats: int = 5) -> float:
    """The least CPU time of one call over `repeats` runs of about `seconds` each, in us."""
    best = float("inf")
    for _ in range(repeats):
        n, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(100):
                call()
            n += 100
        best = min(best, (time.process_time() - start) / n * 1e6)
    return best


def objects_in(value, seen: set[int]) -> int:
    """How many Python objects a value holds, itself included, each counted once."""
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, dict):
        return 1 + sum(objects_in(k, seen) + objects_in(v, seen) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return 1 + sum(objects_in(v, seen) for v in value)
    return 1


def position(game: str, decisions: int):
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.frontend.loader import load_spec
    from rulespec.runtime.game import Game
    from rulespec.runtime.state import Stream, next_random

    loaded = load_spec(ROOT / "spec" / game)
    play = Game(load_program(loaded, "generated"), seed=1)
    stream = Stream(7)
    while not play.over and play.state.decisions < decisions:
        ids = play.decision.option_ids
        play.choose(ids[next_random(stream) % len(ids)])
    return loaded, play.state


def measure(game: str, decisions: int) -> dict:
    from rulespec.compiler.backends.machine import block
    from rulespec.compiler.backends.machine.layout import machine_layout
    from rulespec.compiler.backends.machine.pack import pack
    from rulespec.runtime import native

    loaded, state = position(game, decisions)
    layout = machine_layout(loaded.model)
    data = pack(layout, state)
    # The object part's share of a copy: State.copy() of the state with its machine part emptied.
    hollow = state.copy()
    hollow.tracks, hollow.counters, hollow.zones, hollow.location, hollow.revealed = [], [], [], [], []
    copies = {"state_copy_us": per_call_us(state.copy), "object_part_copy_us": per_call_us(hollow.copy),
              "state_native": bool(native.loaded_natively())}
    try:
        made = block.load().Block.of(data)
        other = made.copy()
        copies.update(block_copy_us=per_call_us(made.copy),
                      memcpy_us=per_call_us(lambda: made.copy_into(other)))
    except block.NativeError as err:
        copies.update(block_copy_us=None, memcpy_us=None, block_missing=str(err))
    slots = [o.name for o in layout.objects if not o.name.startswith("var ")]
    slots = [s for s in slots if s != "sight"]  # shared by every copy, never copied
    held = {s: objects_in(getattr(state, s), set()) for s in slots}
    return {"game": game, "decisions": state.decisions, "machine_bytes": layout.size,
            "fields": len(layout.fields), "object_part_objects": sum(held.values()),
            "largest_object_slots": sorted(held.items(), key=lambda kv: -kv[1])[:3], **copies}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--decisions", type=int, default=150)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child's run
    args = parser.parse_args()
    rows = [measure(g, args.decisions) for g in args.games]
    if args.one:
        print(json.dumps(rows))
        return
    pure = subprocess.run([sys.executable, __file__, *args.games, "--decisions", str(args.decisions), "--one"],
                          env={**os.environ, "RULESPEC_NATIVE": "0"}, capture_output=True, text=True, check=True)
    for row, plain in zip(rows, json.loads(pure.stdout)):
        row["state_copy_pure_us"] = plain["state_copy_us"]
        row["object_part_copy_pure_us"] = plain["object_part_copy_us"]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| game | decisions | machine part | object part | block copy (memcpy alone) |"
          " State.copy() native (its object part's share) | pure (its object part's share) |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        block_copy = "-" if r["block_copy_us"] is None else f"{r['block_copy_us']:.2f} us ({r['memcpy_us']:.2f} us)"
        native_copy = (f"{r['state_copy_us']:.1f} us ({r['object_part_copy_us']:.1f} us)"
                       if r["state_native"] else "not built")
        print(f"| {r['game']} | {r['decisions']} | {r['machine_bytes']:,} bytes | "
              f"{r['object_part_objects']:,} objects | {block_copy} | {native_copy} | "
              f"{r['state_copy_pure_us']:.1f} us ({r['object_part_copy_pure_us']:.1f} us) |")


if __name__ == "__main__":
    main()
