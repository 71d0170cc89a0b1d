"""The native pack and unpack (compiler/backends/machine/packing.py, templates/packing.pxi.j2): at
positions of seeded random games of every game, the game's module packs a State to pack.py's bytes
and unpacks them to pack.py's State; where a value has no room, the same PackError as pack.py's."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends.machine.pack import PackError, machine_values, pack, unpack
from rulespec.compiler.backends.machine.packing import pack_state, unpack_state
from rulespec.runtime.game import Game
from rulespec.runtime.state import State

from support import MINI, REPO, machine_module, program, random_positions

GAMES = [MINI] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir())
RISK = REPO / "spec" / "risk_balance_of_power"


@functools.cache
def built(folder: Path):
    """The game's native module and layout (a skip where nothing native can be built)."""
    module, made = machine_module(folder)
    return module, made.layout


def agree_at(folder: Path, seed: int, count: int, every: int) -> None:
    """At each position, the native pack gives pack.py's bytes (never falling back to it), and
    the native unpack of them into another game's State gives pack.py's unpack's machine part,
    which is the position's."""
    module, layout = built(folder)
    for position in random_positions(folder, seed, count, every):
        data = pack(layout, position)
        assert module.pack_state(position) == data, f"{folder.name} seed {seed}: packed differently"
        python, native = (Game(program(folder, "generated"), seed=seed + 1).state for _ in range(2))
        unpack(layout, data, python)
        unpack_state(module, data, native)
        assert machine_values(layout, native) == machine_values(layout, python) == \
            machine_values(layout, position), f"{folder.name} seed {seed}: unpacked differently"
        assert pack_state(module, layout, native) == data


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_pack_and_unpack_are_pack_py_s_at_random_positions(folder):
    for seed in (1, 2):
        agree_at(folder, seed, 6, 9)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(folder=st.sampled_from([MINI, REPO / "spec" / "the_fox_in_the_forest"]), seed=st.integers(0, 2**32))
def test_native_pack_and_unpack_on_random_seeds(folder, seed):
    agree_at(folder, seed, 4, 5)


def test_the_native_unpack_of_a_wrong_size_says_so_as_pack_py():
    module, layout = built(MINI)
    state = Game(program(MINI, "generated"), seed=1).state
    with pytest.raises(ValueError) as python:
        unpack(layout, b"\0" * (layout.size - 1), state)
    with pytest.raises(ValueError, match=str(python.value)):
        unpack_state(module, b"\0" * (layout.size - 1), state)


def spoilt_states(layout, state: State):
    """A state spoilt each way pack.py refuses, with the field its PackError names."""
    cases = [
        (lambda s: s.tracks.__setitem__(layout.field("track_round").slot, 200), "track_round"),
        (lambda s: s.tracks.__setitem__(layout.field("track_round").slot, True), "track_round"),
        (lambda s: s.tracks.__setitem__(layout.field("track_round").slot, 2**70), "track_round"),
        (lambda s: s.counters[0].__setitem__(layout.field("counter_marks").members[0], 2**31), "counter_marks"),
        (lambda s: s.counters[0].__setitem__(layout.field("counter_marks").members[0], 1.5), "counter_marks"),
        (lambda s: s.counters[0].__setitem__(0, 1), "counter_marks"),  # a cell outside its kind
        (lambda s: s.vars.__setitem__(layout.field("var_current").slot, 7), "var_current"),
        (lambda s: s.vars.__setitem__(layout.field("var_current").slot, "x"), "var_current"),
        (lambda s: setattr(s, "revealed", [2] * len(s.revealed)), "revealed"),
        (lambda s: setattr(s, "blanked", (0,)), "blanked"),  # entity 0 is no card
        (lambda s: s.zones[0].append(0), "zone_box"),  # entity 0 is no card
        (lambda s: s.location.__setitem__(0, 1), "location"),  # nor lies anywhere
        (lambda s: s.location.__setitem__(layout.cards[0], 10**4), "location"),
        (lambda s: s.knowledge[0].__setitem__(layout.cards[0], -1), "knowledge"),
        (lambda s: s.knowledge[0].__setitem__(0, 1), "knowledge"),
        (lambda s: setattr(s, "knowledge", s.knowledge[:1]), "knowledge"),
        (lambda s: setattr(s, "decisions", -1), "decisions"),
        (lambda s: setattr(s, "dice_strict", 2), "dice_strict"),
    ]
    for spoil, name in cases:
        spoilt = state.copy()
        spoil(spoilt)
        yield spoilt, name


def same_error(module, layout, state: State) -> PackError:
    """The native pack finds no room (None) and pack_state raises pack.py's PackError."""
    assert module.pack_state(state) is None
    with pytest.raises(PackError) as python:
        pack(layout, state)
    with pytest.raises(PackError) as native:
        pack_state(module, layout, state)
    assert str(native.value) == str(python.value)
    return native.value


def test_a_value_with_no_room_is_pack_py_s_pack_error_naming_its_field():
    module, layout = built(MINI)
    for spoilt, name in spoilt_states(layout, Game(program(MINI, "generated"), seed=1).state):
        assert same_error(module, layout, spoilt).field.name == name


def test_a_zone_past_its_capacity_is_pack_py_s_pack_error():
    """A zone whose kinds bound its cards (Risk's missions) refuses one card too many."""
    module, layout = built(RISK)
    small = next(f for f in layout.fields if f.part == "zone_cards" and f.dims[-1] < len(layout.cards))
    state = State(program(RISK, "generated").meta, 1, {})
    state.zones[small.slot] = list(layout.cards[:small.dims[-1] + 1])
    assert f"room for {small.dims[-1]}" in str(same_error(module, layout, state))
