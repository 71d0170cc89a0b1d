"""The frames and the pending decision as machine data (compiler/backends/machine/frames.py,
templates/frames.pxi.j2; issue 41 stage 4): at every decision of seeded games, the State's frames
and pending decision (the generated package's forms) go into a position's Control and come back
equal, a suspending loop's members included; the rooms refuse one frame more in one line."""

from __future__ import annotations

import pytest

from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError

from test_machine_games import GAMES, machine


def crossed(engine, state):
    """The State's frames and pending decision through a position's Control and back."""
    module = engine.module
    position = module.Position(engine._packed(state), state.params, state.effects)
    module.control_in(position, state.frames, state.pending)
    quiet = module.Objects()  # no loud dict: the pending decision comes back from the struct alone
    return module.frames_out(position), module.pending_out(position, quiet)


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_frames_and_decisions_cross_into_the_machine_and_back_unchanged(folder):
    engine = machine(folder)
    kept_lists = 0
    for seed in (1, 2):
        for game in random_walk(Game(engine, seed=seed), seed):
            state = game.state
            if state.pending is None:
                continue
            frames, pending = crossed(engine, state)
            assert frames == state.frames, f"{folder.name} seed {seed} decision {state.decisions}"
            assert pending == {key: state.pending[key] for key in ("player", "values", "at")}
            kept_lists += sum(isinstance(v, list) for frame in frames for v in frame[2])
    if folder.name in ("heldenhain", "twilight_struggle"):  # each has a loop that waits for decisions
        assert kept_lists, "no suspending loop's members were seen crossing"


def room_check(folder, frames_of):
    engine = machine(folder)
    game = Game(engine, seed=1)
    module = engine.module
    position = module.Position(engine._packed(game.state), game.state.params, game.state.effects)
    module.control_in(position, frames_of(game.state, module), None)


def test_frames_nested_past_the_room_are_refused_naming_it():
    def smallest(state, module):  # a frame keeping no members: 65 of them fit the slots
        frame = min((f for f in state.frames if f[0] not in module.STEP_KEPT), key=lambda f: len(f[2]))
        return [list(frame) for _ in range(65)]
    with pytest.raises(RuleError, match="FRAME_ROOM"):
        room_check(GAMES[-1], smallest)  # Twilight Struggle


def test_locals_past_the_room_are_refused_naming_it():
    def widest(state, module):  # the step keeping the most members: its frames outgrow the slots first
        step = max(module.STEP_KEPT, key=lambda s: max(module.STEP_KEPT[s].values()))
        return [[step, 0, [], None] for _ in range(60)]
    with pytest.raises(RuleError, match="SLOT_ROOM"):
        room_check(next(f for f in GAMES if f.name == "heldenhain"), widest)


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_a_copy_of_a_machine_holds_the_same_state_frames_and_decision(folder):
    """copy_machine (a search's copy natively) copies what the rules read and the frames and
    options in use: the copy packs to the same bytes and crosses out the same frames and decision."""
    engine = machine(folder)
    module = engine.module
    for game in random_walk(Game(engine, seed=3), 3):
        state = game.state
        if state.pending is None or state.decisions % 7:
            continue
        position = module.Position(engine._packed(state), state.params, state.effects)
        module.control_in(position, state.frames, state.pending)
        copy = module.copy_of(position)
        assert module.packed(copy) == module.packed(position)
        assert module.frames_out(copy) == state.frames
        assert module.pending_out(copy, module.Objects()) == module.pending_out(position, module.Objects())
        assert module.effects_out(copy) == module.effects_out(position)
