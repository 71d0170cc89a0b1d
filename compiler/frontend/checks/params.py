"""Params: a range suits an int, choices are values of the param's type, the default is allowed,
a seat count (`players … seats D in L..H`) lies within the declared players, and a designer
test's `param` step sets a value the param may take."""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.types import INT, compatible, literal_type, type_of_ref


def check_params(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every param declaration whose values make no sense, and every test step outside them."""
    problems: list[Diagnostic] = []
    for decl in model.spec.decls():
        if isinstance(decl, ast.ParamDecl):
            problems += _declaration(model, decl)
        elif isinstance(decl, ast.PlayersDecl) and decl.seats is not None:
            problems += _seats(decl)
    for test in model.tests:
        for step in test.steps:
            if isinstance(step, ast.ParamStep):
                problems += _step(model, step)
    return problems


def _seats(decl: ast.PlayersDecl) -> list[Diagnostic]:
    """seats D in L..H: 1 <= L <= D <= H, and H is the number of players declared."""
    default, low, high = decl.seats
    d, lo, hi, n = default.value, low.value, high.value, len(decl.players)
    if lo < 1:
        return [Diagnostic(f"a game needs at least 1 seat, not {lo}", low.span)]
    if lo > hi:
        return [Diagnostic(f"the seat range {lo}..{hi} holds no value", low.span)]
    if hi != n:
        return [Diagnostic(f"the seat range ends at {hi} but {n} players are declared;"
                           f" declare one player per seat", high.span)]
    if not lo <= d <= hi:
        return [Diagnostic(f"the default of {d} seats is outside the seat range {lo}..{hi}",
                           default.span)]
    return []


def _declaration(model: Model, decl: ast.ParamDecl) -> list[Diagnostic]:
    name, wanted = decl.name.name, type_of_ref(model, decl.type)
    if decl.low is not None and decl.high is not None:
        if wanted != INT:
            return [Diagnostic(f"a range 'in low..high' suits an int param; '{name}' is {wanted}",
                               decl.low.span)]
        low, high = model.literal(decl.low), model.literal(decl.high)
        if low > high:
            return [Diagnostic(f"the range {low}..{high} of param '{name}' holds no value", decl.low.span)]
        default = model.literal(decl.default)
        if isinstance(default, int) and not low <= default <= high:
            return [Diagnostic(f"the default {default} of param '{name}' is outside its range"
                               f" {low}..{high}", decl.default.span)]
        return []
    problems, seen = [], set()
    for choice in decl.choices:
        actual = literal_type(model, choice)
        value = model.literal(choice)
        if actual is None or not compatible(actual, wanted) or actual.base == "none":
            problems.append(Diagnostic(f"a choice of param '{name}' must be {wanted}, not"
                                       f" {_said(choice)}", choice.span))
        elif value in seen:
            problems.append(Diagnostic(f"{_said(choice)} is a choice of param '{name}' twice",
                                       choice.span))
        seen.add(value)
    if decl.choices and not problems and model.literal(decl.default) not in seen:
        problems.append(Diagnostic(f"the default {_said(decl.default)} of param '{name}' is not one"
                                   f" of its choices", decl.default.span))
    return problems


def _step(model: Model, step: ast.ParamStep) -> list[Diagnostic]:
    decl = model.all_params().get(step.name.name)
    if decl is None:
        return []  # the names pass reports it
    kind, values = model.param_domain(decl)
    value = model.literal(step.value)
    if kind == "range" and isinstance(value, int) and not isinstance(value, bool):
        if not values[0] <= value <= values[1]:
            return [Diagnostic(f"param '{decl.name.name}' takes {values[0]}..{values[1]}, not {value}",
                               step.value.span)]
    elif kind == "choices" and decl.choices and value not in values:
        return [Diagnostic(f"{_said(step.value)} is not one of the choices of param"
                           f" '{decl.name.name}'", step.value.span)]
    return []


def _said(expr: ast.Expr) -> str:
    """A literal as the spec writes it."""
    if isinstance(expr, ast.NameRef):
        return f"'{expr.name}'"
    if isinstance(expr, ast.StrLit):
        return repr(expr.value)
    if isinstance(expr, ast.BoolLit):
        return "true" if expr.value else "false"
    if isinstance(expr, ast.IntLit):
        return str(expr.value)
    return "none" if isinstance(expr, ast.NoneLit) else "this"
