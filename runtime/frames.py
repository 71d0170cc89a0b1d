"""The generated engine's frames: plain data, so a waiting game saves and copies.

A frame is [step, pc, locals, answer]: STEPS[step](state, frame) runs it from
block pc, its locals are a list by slot, and a decision's answer arrives in
frame[3]. The interpreter keeps frames of its own (compiler/backends/interpret.py).
"""

from __future__ import annotations

from typing import Any

from rulespec.runtime.state import GameOver
from rulespec.runtime.values import RULE_FAILURES, rule_error_of

# A local not bound yet (plain data, so frames stay JSON).
UNBOUND = "\x00unbound"


def new_frame(step: int, local_values: list[Any]) -> list[Any]:
    """A frame that runs STEPS[step] from its first block."""
    return [step, 0, local_values, None]


def run_steps(state, steps) -> None:
    """Run the top frame's step until a decision is pending or the game is over: the generated
    engine's loop, here to be compiled with the runtime (runtime/native.py)."""
    frames = state.frames
    try:
        while frames and state.pending is None:
            frame = frames[-1]
            steps[frame[0]](state, frame)
    except GameOver:
        pass
    except RULE_FAILURES as err:  # none where a value is needed, a divisor of 0
        raise rule_error_of(err) from None


def resume_steps(state, index: int, steps) -> None:
    """Answer the pending decision with option `index`, then run on."""
    pending = state.pending
    state.pending = None
    state.decisions += 1
    state.frames[-1][3] = pending["values"][index]
    run_steps(state, steps)
