"""Statement placement: 'break' only inside a loop, menu options named once."""

from __future__ import annotations

from .. import ast
from ..errors import Diagnostic
from ..model import Model
from .scope import ScopedVisitor


class FlowCheck(ScopedVisitor):
    """Reports a 'break' outside any loop and a menu offering two options of one name."""

    reuse_as = "flow"

    def visit_Break(self, stmt: ast.Break) -> None:
        if self.loops == 0:
            self.report("'break' outside a loop: only 'for', 'repeat' and 'while' can be left", stmt.span)

    def visit_TestDecl(self, decl: ast.TestDecl) -> None:
        for step in decl.steps:
            if isinstance(step, (ast.Choose, ast.PickRandom)) and step.skip:
                self.report("`or skip` skips the rest of a block, and a test's steps are none: "
                            "put the choice in a procedure, or test that options exist with "
                            "`expect any(...)`", step.span)
        super().visit_TestDecl(decl)

    def visit_Menu(self, stmt: ast.Menu) -> None:
        seen: dict[str, ast.Span] = {}
        for option in stmt.options:
            name = option.name.name
            if name in seen:
                self.report(f"duplicate option '{name}'; first declared at {seen[name]}", option.name.span)
            seen.setdefault(name, option.name.span)
        super().visit_Menu(stmt)


def check_flow(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every misplaced statement."""
    return FlowCheck(model).run()
