"""The checks: small passes that each collect diagnostics; run_checks runs them all."""

from __future__ import annotations

from .. import ast
from ..errors import Diagnostic
from ..model import Model


def run_checks(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every problem of the spec, from every pass, at once."""
    problems: list[Diagnostic] = []
    return problems
