"""compiler/frontend/bindings.py: which locals of each routine hold cards (what a search bot re-deals)."""

from __future__ import annotations

from pathlib import Path

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.bindings import card_bindings
from support import loaded

# A procedure with an int local `c`, then a define and a quantity whose card parameter is
# also `c`: the parameters belong to no routine, so `c` is no card slot of the procedure.
SPEC = """\
game slots "Slots"
players red "Red", blue "Blue"
kind card: card(points: int)
zone hand "Hand" per player owner
card one "One" (points 1)
track score "Score" per player 0..99 start 0
procedure count_up(p: player) {
    let c = 2
    add c to score(p)
    red chooses "Go?" {
        option go "Go" { win red "went" }
    }
}
define worth(c: card) -> int = c.points
quantity value(p: player, c: card) = c.points
procedure hold(p: player) {
    p chooses k in hand(p) "Pick"
    add k.points to score(p)
}
start { count_up(red) }
"""


def _procedure(model, name: str) -> ast.ProcedureDecl:
    return next(d for d in model.spec.decls() if isinstance(d, ast.ProcedureDecl) and d.name.name == name)


def test_a_defines_card_parameters_are_no_slot_of_the_routine_before_it(tmp_path: Path):
    folder = tmp_path / "slots"
    folder.mkdir()
    (folder / "slots.rules").write_text(SPEC)
    model = loaded(folder).model
    found = card_bindings(model)
    assert found.of(_procedure(model, "count_up").body) == set()
    assert found.of(_procedure(model, "hold").body) == {"k"}
