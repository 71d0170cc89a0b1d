"""Statement placement: 'break' only inside a loop, menu options named once, `unless forced`
only where one option may be all there is."""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.scope import ScopedVisitor


class FlowCheck(ScopedVisitor):
    """Reports a 'break' outside any loop, a menu offering two options of one name, and an
    `unless forced` on a decision that always offers more than one option."""

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

    def visit_Choose(self, stmt: ast.Choose) -> None:
        source = stmt.source
        if (stmt.forced and stmt.where is None and stmt.action is None and isinstance(source, ast.Range)
                and isinstance(source.low, ast.IntLit) and isinstance(source.high, ast.IntLit)
                and source.high.value > source.low.value):
            self.report(f"`unless forced` never applies here: {source.low.value}..{source.high.value} "
                        f"always offers {source.high.value - source.low.value + 1} options", stmt.span)
        super().visit_Choose(stmt)

    def visit_Menu(self, stmt: ast.Menu) -> None:
        always = [o for o in stmt.options if o.when is None]
        if stmt.forced and len(always) > 1:
            self.report(f"`unless forced` never applies here: options {always[0].name.name!r} and "
                        f"{always[1].name.name!r} are always offered (give one a `when`)", stmt.span)
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
