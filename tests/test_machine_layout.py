"""The state as machine data (compiler/backends/machine): every spec's layout, its C header, and
the exact conversion of every position random games reach, to bytes and back."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends import native
from rulespec.compiler.backends.machine.header import render_header
from rulespec.compiler.backends.machine.layout import CTYPES, machine_layout, signed_for
from rulespec.compiler.backends.machine.pack import PackError, machine_values, pack, unpack
from rulespec.compiler.cli import main
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.game import Game
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.state import State

from support import MINI, REPO, TESTS, loaded, one_file_spec, program

GAMES = [MINI] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir())
TEST_SPECS = sorted(p for p in (TESTS / "specs").iterdir() if any(p.glob("*.rules")))


def layout_of(folder: Path):
    return machine_layout(loaded(folder).model)


@pytest.mark.parametrize("folder", GAMES + TEST_SPECS, ids=lambda p: p.name)
def test_every_spec_has_a_layout_whose_fields_follow_each_other(folder):
    layout = layout_of(folder)
    offset = 0
    for field in layout.fields:
        assert field.offset == offset, field.name
        assert field.offset % CTYPES[field.ctype][0] == 0, f"{field.name} is misaligned"
        offset += field.size
    assert layout.size >= offset and layout.size % layout.align == 0
    assert {o.name for o in layout.objects} >= {"effects", "frames", "pending", "log", "shown"}
    assert "knowledge" not in {o.name for o in layout.objects}  # machine data: a slot per seat and card
    json.dumps(layout.to_json())


def test_a_track_takes_the_smallest_signed_type_that_holds_its_range():
    assert [signed_for(*r) for r in ((1, 5), (-99, 99), (0, 9999), (-5, 40_000), (0, 2**40))] == \
        ["int8_t", "int8_t", "int16_t", "int32_t", "int64_t"]
    layout = layout_of(MINI)
    assert layout.field("track_score").ctype == "int8_t" and layout.field("track_score").dims == (2,)
    assert layout.field("var_current").none == 255


# A var of each shape: text and an int that may be none stay objects, the others fit a field.
VAR_SHAPES = """\
game shapes "Var shapes"
players red "Red", blue "Blue"
enum colour { light, dark }
zone deck "Deck" hidden ordered
track score "Score" per player 0..20 start 0
var note: str = "none yet"
var best: int? = none
var shade: colour = dark
var where: zone? = none
var counted: int = 3
kind card: card()
card c1 "C1"

start {
    red chooses n in 1..2 "Pick"
    set note to "picked"
    set best to n
    set shade to light
    set where to deck
    win red "done"
}
"""


def test_a_var_with_no_machine_form_is_named_in_the_object_part(tmp_path_factory):
    folder = one_file_spec(tmp_path_factory, "shapes", VAR_SHAPES)
    layout = machine_layout(loaded(folder).model)
    assert {o.name for o in layout.objects} >= {"var note", "var best"}
    assert {"var_shade", "var_where", "var_counted"} <= {f.name for f in layout.fields}
    prog = program(folder, "interpreted")
    game = Game(prog, seed=1)
    game.choose_index(1)
    other = State(prog.meta, 0, {})
    unpack(layout, pack(layout, game.state), other)
    assert machine_values(layout, other) == machine_values(layout, game.state)
    assert other.vars[layout.field("var_shade").slot] == "light" and other.vars[layout.field("var_where").slot]


def play_and_round_trip(folder: Path, seed: int, decisions: int) -> int:
    """Plays a random game, packing every position and unpacking it into a fresh state: the
    machine part comes back equal, and packs to the same bytes. The positions checked."""
    layout, prog = layout_of(folder), program(folder, "generated")
    checked = 0
    for game in random_walk(Game(prog, seed=seed), seed):
        if checked == decisions:
            break
        data = pack(layout, game.state)
        other = State(prog.meta, 0, {})
        unpack(layout, data, other)
        assert machine_values(layout, other) == machine_values(layout, game.state)
        assert pack(layout, other) == data
        checked += 1
    return checked


@settings(max_examples=6)
@given(folder=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_every_position_of_a_random_game_packs_and_unpacks_exactly(folder, seed):
    assert play_and_round_trip(folder, seed, 120) > 0


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_whole_random_games_pack_and_unpack_exactly(folder):
    for seed in range(20):
        play_and_round_trip(folder, seed, 100_000)


def test_a_value_outside_its_field_is_refused_naming_the_field():
    layout, state = layout_of(MINI), Game(program(MINI, "generated"), seed=1).state
    cases = [
        (lambda s: s.tracks.__setitem__(layout.field("track_round").slot, 200), "track_round"),
        (lambda s: s.counters[0].__setitem__(layout.field("counter_marks").members[0], 2**31), "counter_marks"),
        (lambda s: s.counters[0].__setitem__(0, 1), "counter_marks"),  # a cell outside its kind
        (lambda s: s.vars.__setitem__(layout.field("var_current").slot, 7), "var_current"),
        (lambda s: s.vars.__setitem__(layout.field("var_current").slot, "x"), "var_current"),
        (lambda s: setattr(s, "revealed", [2] * len(s.revealed)), "revealed"),
        (lambda s: setattr(s, "blanked", (0,)), "blanked"),  # entity 0 is no card
        (lambda s: s.zones[0].append(0), "zone_box"),
    ]
    for spoil, name in cases:
        spoilt = state.copy()
        spoil(spoilt)
        with pytest.raises(PackError, match=name):
            pack(layout, spoilt)


def test_a_zone_past_its_capacity_is_refused():
    """A zone whose kinds bound its cards (Risk's missions) refuses one card too many."""
    folder = REPO / "spec" / "risk_balance_of_power"
    layout = layout_of(folder)
    small = next(f for f in layout.fields if f.part == "zone_cards" and f.dims[-1] < len(layout.cards))
    state = State(program(folder, "generated").meta, 1, {})
    state.zones[small.slot] = list(layout.cards[:small.dims[-1] + 1])
    with pytest.raises(PackError, match=f"{small.name}.*room for {small.dims[-1]}"):
        pack(layout, state)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_every_header_is_valid_c_with_the_offsets_the_layout_gives(tmp_path):
    for folder in GAMES:
        layout = layout_of(folder)
        header = tmp_path / f"{layout.game}.h"
        header.write_text(render_header(layout), encoding="utf-8")
        source = tmp_path / f"{layout.game}.c"
        source.write_text(f'#include "{header.name}"\nint main(void) {{ return 0; }}\n', encoding="utf-8")
        done = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-fsyntax-only", str(source)],
                              capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr  # the header asserts every offset and the size


def test_the_same_spec_gives_the_same_header_bytes():
    folder = REPO / "spec" / "twilight_struggle"
    first = render_header(machine_layout(load_spec(folder).model))
    again = render_header(machine_layout(load_spec(folder).model))
    assert first == again and "typedef struct" in first


def test_the_block_copies_a_packed_state_whole():
    why = native.available()
    if why:
        pytest.skip(why)
    from rulespec.compiler.backends.machine import block

    layout = layout_of(MINI)
    data = pack(layout, Game(program(MINI, "generated"), seed=3).state)
    made = block.load().Block.of(data)
    copied = made.copy()
    assert copied.to_bytes() == data and copied.size == layout.size


def test_info_layout_prints_the_header_or_its_fields():
    runner = CliRunner()
    text = runner.invoke(main, ["info", str(MINI), "--layout"])
    assert text.exit_code == 0 and "} mini_state;" in text.output
    as_json = json.loads(runner.invoke(main, ["info", str(MINI), "--layout", "--json"]).output)
    assert as_json["bytes"] == layout_of(MINI).size
    assert {"name", "ctype", "dims", "count", "offset", "bytes"} <= set(as_json["fields"][0])
