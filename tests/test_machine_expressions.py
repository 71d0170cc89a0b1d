"""The native dialect's ranges, reachable walks, unions, argmax/argmin, membership, top and
labels compared (compiler/backends/machine/dialect.py, loops.py, templates/expressions.pxi.j2):
planted defines over mini's map and zones compile natively and give, at seeded positions, what
the generated package's give (errors where Python errors); a statement walking a range keeps to
its room."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespec.compiler.backends.machine.defines import native_defines
from rulespec.compiler.backends.machine.dialect import RANGE_ROOM
from rulespec.compiler.backends.machine.layout import machine_layout
from rulespec.compiler.backends.machine.pack import pack
from rulespec.runtime.state import RuleError

from support import MINI, TESTS, loaded
from test_machine_defines import agree, native_module, positions

PLANTED = """
define planted_upto(p: player) -> int = count(n in 0..score(p) where n > 1) + sum(n for n in 1..round)
define planted_within(p: player) -> bool = round in 1..score(p) + 1
define planted_outside(p: player) -> bool = score(p) not in 2..4
define planted_huge(p: player) -> bool = score(p) in 0..round * 1000000
define planted_seated(p: player) -> bool = opponent(p) in players
define planted_joined(p: player, f: field, g: field) -> bool = g in reachable(h from f where marks(p, h) == 0)
define planted_reach(p: player, f: field) -> int =
    count(g in reachable(h from f where marks(p, h) > 0) where g != f)
define planted_best(p: player) -> card? = argmax(c.points for c in hand(p) + discard)
define planted_least(p: player) -> card? = argmin(c.points for c in discard + hand(p) where c.points > 1)
define planted_either(p: player, c: card) -> bool = c in hand(p) + hand(opponent(p))
define planted_both(p: player) -> int = count(c in hand(p) + hand(p) + deck)
define planted_top() -> card? = top(deck)
define planted_same_label(f: field, g: field) -> bool = f.label == g.label or f.label != f.label
define planted_label_of_top(c: card) -> bool = top(deck).label == c.label
"""
NAMES = [line.split("(")[0].split()[1] for line in PLANTED.splitlines() if line.startswith("define ")]


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("expressions")
    (folder / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + PLANTED,
                                       encoding="utf-8")
    return folder


def test_the_planted_expressions_compile_natively(planted):
    model = loaded(planted).model
    made = native_defines(model, machine_layout(model))
    refused = {r.name: str(r) for r in made.refused}
    assert not [name for name in NAMES if name in refused], refused
    assert set(NAMES) <= {d.name for d in made.compiled}


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_the_planted_expressions_agree_with_the_generated_package(planted):
    assert agree(planted, range(3), 6) > 0


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_a_range_past_the_bound_fails_natively_as_in_python(planted):
    module, made = native_module(planted)
    state = positions(planted, 1, 1)[0]  # round is at least 1: 0..round * 1000000 is too long
    position = module.Position(pack(made.layout, state), state.params)
    with pytest.raises(RuleError, match="more than the 1,000,000 a range may hold"):
        module.define("planted_huge", position, 0)


SEATED = """
define planted_seated_in(p: player) -> bool = p in players and opponent(p) in players
define planted_seated_count(p: player) -> int = count(q in players where q != p)
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_membership_in_the_seated_players_agrees(tmp_path):
    """`p in players` where seats are declared: the seats param's first players (the run's
    params given: two and four seated)."""
    (tmp_path / "seats.rules").write_text((TESTS / "specs" / "seats" / "seats.rules").read_text(encoding="utf-8")
                                          + SEATED, encoding="utf-8")
    model = loaded(tmp_path).model
    assert {"planted_seated_in", "planted_seated_count"} <= {d.name for d in native_defines(model).compiled}
    assert agree(tmp_path, range(2), 3) > 0
    assert agree(tmp_path, range(1), 3, params={"players": 4}) > 0


def test_a_statement_walking_a_range_known_when_it_runs_has_room_for_it(planted):
    """A statement's C array of a range's numbers: RANGE_ROOM when its ends are known only when
    it runs (range_end_within fails, in words, past it), its numbers when they are known."""
    from rulespec.compiler.backends.codegen.code import Code
    from rulespec.compiler.backends.machine.dialect import CythonDialect, Span

    model = loaded(planted).model
    dialect = CythonDialect(model, machine_layout(model))
    known = Code("range(0, 100)", table=Span("range", "", None, "0", "99"))
    clause, room = dialect.members_clause("c_n", known, 10)
    assert (clause, room) == ("c_n in range(0, 100)", 100)
    running = Code("", table=Span("range", "", None, "v_low", "v_high", "'here'"))
    clause, room = dialect.members_clause("c_n", running, 10)
    assert room == RANGE_ROOM and f"range_end_within(v_low, v_high, 'here', {RANGE_ROOM})" in clause
