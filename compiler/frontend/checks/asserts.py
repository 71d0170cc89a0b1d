"""`assert` and `tally` declarations: rules and figures about the spec's own data, evaluated
on the initial state at check time (a tally's value is what `rulespec info` reports)."""

from __future__ import annotations

from rulespec.runtime.game import new_state

from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.constant import Constants
from rulespec.compiler.frontend.model import Model


def tallies(model: Model) -> tuple[dict[str, int], list[Diagnostic]]:
    """Every tally's value on the game's initial state, and those that cannot be evaluated."""
    if not model.tallies:
        return {}, []
    meta = model.meta()
    evaluator, state = Constants(model, meta), new_state(meta, seed=0, params={})
    values, problems = {}, []
    for decl in model.tallies:
        try:
            values[decl.name.name] = evaluator.value(state, {}, decl.value)
        except Exception as err:  # noqa: BLE001 - any failure is the spec's: report it there
            problems.append(Diagnostic(f"tally '{decl.name.name}' cannot be evaluated: {err}", decl.span))
    return values, problems


def check_asserts(model: Model) -> list[Diagnostic]:
    """Evaluate every assert on the game's initial state; a false one is an error. A tally
    that cannot be evaluated is one too."""
    problems = tallies(model)[1]
    if not model.asserts:
        return problems
    meta = model.meta()
    evaluator = Constants(model, meta)
    state = new_state(meta, seed=0, params={})
    for decl in model.asserts:
        try:
            holds = evaluator.truth(state, {}, decl.test)
        except Exception as err:  # noqa: BLE001 - any failure is the spec's: report it there
            problems.append(Diagnostic(f"assert '{decl.name.name}' cannot be evaluated: {err}", decl.span))
            continue
        if not holds:
            problems.append(Diagnostic(f"{decl.label} (assert '{decl.name.name}' does not hold)", decl.span))
    return problems
