"""The checks: small passes that each collect diagnostics; run_checks runs them all."""

from __future__ import annotations

from typing import Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.asserts import check_asserts
from rulespec.compiler.frontend.checks.board import check_board
from rulespec.compiler.frontend.checks.declarations import check_card_zones, check_declarations
from rulespec.compiler.frontend.checks.designer_tests import check_tests
from rulespec.compiler.frontend.checks.divisors import check_divisors
from rulespec.compiler.frontend.checks.flow import check_flow
from rulespec.compiler.frontend.checks.kinds import check_kinds
from rulespec.compiler.frontend.checks.mapcheck import check_map_graph
from rulespec.compiler.frontend.checks.names import check_names
from rulespec.compiler.frontend.checks.nones import check_nones
from rulespec.compiler.frontend.checks.params import check_params
from rulespec.compiler.frontend.checks.returns import check_returns
from rulespec.compiler.frontend.checks.policies import check_policies
from rulespec.compiler.frontend.checks.termination import check_termination
from rulespec.compiler.frontend.checks.tunables import check_tunables
from rulespec.compiler.frontend.checks.typecheck import check_types

Pass = Callable[[Model, list[ast.SpecFile]], list[Diagnostic]]

# In this order: later passes stay quiet about what earlier ones report.
PASSES: tuple[Pass, ...] = (
    check_declarations, check_kinds, check_names, check_types, check_nones, check_divisors, check_params,
    check_flow, check_returns,
    check_map_graph, check_tests,
    check_policies, check_tunables, check_board,
)


def run_checks(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every problem of the spec, from every pass, at once (each reported once)."""
    problems: list[Diagnostic] = []
    seen: set[tuple[str, ast.Span]] = set()
    for check in PASSES:
        for problem in check(model, test_files):
            if (problem.message, problem.span) not in seen:
                seen.add((problem.message, problem.span))
                problems.append(problem)
    if not problems:  # what cannot run or never ends, in a spec sound otherwise
        problems += check_card_zones(model, test_files) or check_termination(model, test_files)
    if not problems:  # only a sound spec that ends can be evaluated
        problems += check_asserts(model)
    return problems
