"""`assert` declarations: rules about the spec's own data, evaluated at check time."""

from __future__ import annotations

from runtime.game import new_state

from ..errors import Diagnostic
from ..evaluate import Evaluator
from ..model import Model


def check_asserts(model: Model) -> list[Diagnostic]:
    """Evaluate every assert on the game's initial state; a false one is an error."""
    if not model.asserts:
        return []
    meta = model.meta()
    evaluator = Evaluator(model, meta)
    state = new_state(meta, seed=0, params={})
    problems = []
    for decl in model.asserts:
        try:
            holds = evaluator.truth(state, {}, decl.test)
        except Exception as err:  # noqa: BLE001 - any failure is the spec's: report it there
            problems.append(Diagnostic(f"assert '{decl.name.name}' cannot be evaluated: {err}", decl.span))
            continue
        if not holds:
            problems.append(Diagnostic(f"{decl.label} (assert '{decl.name.name}' does not hold)", decl.span))
    return problems
