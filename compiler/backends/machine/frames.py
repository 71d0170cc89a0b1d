"""The frames and the pending decision as machine data (docs/NATIVE.md, stage 4): how the native
engine's code pushes a frame, and the rooms the Machine's `Control` gives them
(templates/frames.pxi.j2).

A frame is a `Frame` struct (its step, block, answer and where its locals lie) over one stack of
`int64_t` slots, the locals of every frame one after the other: a push is a few stores, a copy of
the Machine copies the frames with it. A frame's slots are the generated package's locals in the
same order, then the members of each loop that suspends (steps.py: the loop's own slot holds
their count). The pending decision is the options' values in a C array with the player and the
site (each place a decision is asked, numbered: its location and the ids of its options).

No spec bounds how deep frames nest or how many members a suspending loop walks, so the rooms are
stated constants: FRAME_ROOM frames, SLOT_ROOM slots; one more is a RuleError naming the room.
"""

from __future__ import annotations

FRAME_ROOM = 64  # frames at once (random play of the five games nests 12 at most)
SLOT_ROOM = 2048  # slots of all of them at once (at least four of the largest frame)


def pushed_frame(step: int, args: list[str]) -> str:
    """The code pushing a new frame of step `step` given its arguments (its other locals
    unbound). It gives 1 (an emit counts its pushes)."""
    return f"push_{len(args)}(state, {step}{''.join(', ' + a for a in args)})"
