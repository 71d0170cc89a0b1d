"""A divisor that is 0 by its spec text - `1 / 0`, `x % (2 - 2)` - is an error at the divisor,
not a crash when the rules run. A divisor that is 0 only when the rules run (a count, a param)
is a rule error at its spec line on both back ends (rulespec.runtime.values.rule_error_of)."""

from __future__ import annotations

import operator
from typing import Iterator

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model

# The language's arithmetic on whole numbers (docs/LANGUAGE.md: `/` rounds down).
_FOLD = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv,
         "%": operator.mod}


def check_divisors(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    problems = []
    for node in _divisions(model, test_files):
        if constant_int(node.right) == 0:
            said = "" if isinstance(node.right, ast.IntLit) else ", whatever the game"
            problems.append(Diagnostic(f"'{node.op}' by a divisor that is always 0{said}:"
                                       f" divide by a number that cannot be 0", node.right.span))
    return problems


def _divisions(model: Model, test_files: list[ast.SpecFile]) -> Iterator[ast.BinOp]:
    seen: set[int] = set()
    roots = list(model.spec.decls()) + [d for f in test_files for d in f.decls]
    for root in roots:
        for node in root.find_all(ast.BinOp):
            if node.op in ("/", "%") and id(node) not in seen:
                seen.add(id(node))
                yield node


def constant_int(expr: ast.Expr) -> int | None:
    """The value of a whole-number expression written with literals only, else None."""
    if isinstance(expr, ast.IntLit):
        return expr.value
    if isinstance(expr, ast.Negate):
        value = constant_int(expr.operand)
        return None if value is None else -value
    if isinstance(expr, ast.BinOp):
        left, right = constant_int(expr.left), constant_int(expr.right)
        if left is None or right is None or (expr.op in ("/", "%") and right == 0):
            return None
        return _FOLD[expr.op](left, right)
    return None
