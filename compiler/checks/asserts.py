"""`assert` declarations: rules about the spec's own data, evaluated at check time."""

from __future__ import annotations

from ..errors import Diagnostic
from ..model import Model


def check_asserts(model: Model) -> list[Diagnostic]:
    """Evaluate every assert on the game's initial state; a false one is an error."""
    if not model.asserts:
        return []
    from runtime.game import new_state

    from ..interpret import Interpreter

    evaluator = Interpreter(model).ev
    state = new_state(evaluator.meta, seed=0, params={})
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
