"""Designer tests: test steps only in tests, dice a die can show, test files holding only tests."""

from __future__ import annotations

from .. import ast
from ..errors import Diagnostic
from ..model import Model

STEPS = (ast.DiceStep, ast.ChooseStep, ast.ExpectOffered, ast.Expect)


def check_tests(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every problem of the designer tests and of test steps out of place."""
    problems: list[Diagnostic] = []
    for decl in model.spec.decls():
        if not isinstance(decl, ast.TestDecl):
            problems += [_misplaced(n) for n in decl.walk() if isinstance(n, STEPS)]
    for file in test_files:
        problems += [_not_a_test(d) for d in file.decls if not isinstance(d, ast.TestDecl)]
    problems += _names(model.tests)
    for test in model.tests:
        problems += [_die(step, v) for step in test.find_all(ast.DiceStep)
                     for v in step.values if not 1 <= v <= 6]
    return problems


def _misplaced(step: ast.Node) -> Diagnostic:
    return Diagnostic("test steps (dice, choose, expect) belong in a 'test' block", step.span)


def _not_a_test(decl: ast.Decl) -> Diagnostic:
    return Diagnostic("a file in tests/ holds only 'test' blocks; move this declaration to the game's "
                      "files", decl.span)


def _die(step: ast.DiceStep, value: int) -> Diagnostic:
    return Diagnostic(f"a die shows 1 to 6, not {value}", step.span)


def _names(tests: list[ast.TestDecl]) -> list[Diagnostic]:
    first: dict[str, ast.Span] = {}
    problems = []
    for test in tests:
        if test.name in first:
            problems.append(Diagnostic(f"duplicate test \"{test.name}\"; first declared at {first[test.name]}",
                                       test.span))
        first.setdefault(test.name, test.span)
    return problems
