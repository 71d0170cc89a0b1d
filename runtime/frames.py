"""The generated engine's frames: plain data, so a waiting game saves and copies.

A frame is [step, pc, locals, answer]: STEPS[step](state, frame) runs it from
block pc, its locals are a list by slot, and a decision's answer arrives in
frame[3]. The interpreter keeps frames of its own (compiler/interpret.py).
"""

from __future__ import annotations

from typing import Any

# A local not bound yet (plain data, so frames stay JSON).
UNBOUND = "\x00unbound"


def new_frame(step: int, local_values: list[Any]) -> list[Any]:
    """A frame that runs STEPS[step] from its first block."""
    return [step, 0, local_values, None]
