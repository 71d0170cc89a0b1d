"""A value declared maybe-none (`var x: card?`, a `p: player?` parameter) read where none cannot
stand - an attribute, an argument that may not be none - without a test that it is not none.

A test narrows: in `x != none and f(x)`, `x == none or f(x)`, `if x != none then f(x) else 0`,
and in the block of an `if`, `while`, option or event whose condition says `x != none`, x is
sure. What a program does between the test and the read (a `set x to none` in the block) is
not followed: the run-time check (rulespec.runtime.values.rule_error_of) catches what this one lets by.
"""

from __future__ import annotations

import dataclasses

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.checks.signatures import Signature, call_signature, decl_signature
from rulespec.compiler.frontend.checks.types import BOOL, Type, type_of_ref


def check_nones(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    return NoneCheck(model).run()


class NoneCheck(ScopedVisitor):
    """Reports a declared maybe-none name read where none cannot stand, unless a test narrowed it."""

    reuse_as = "nones"

    def __init__(self, model: Model):
        super().__init__(model)
        self.declared: set[str] = set()  # parameters declared `T?` in the current frame

    def bind(self, name: str, type_: Type, span: ast.Span, role: str = "local") -> None:
        super().bind(name, type_, span, role)
        if role == "param" and type_.optional:
            self.declared.add(name)
        else:
            self.declared.discard(name)

    # ------------------------------------------------------------ what may be none
    def maybe_none(self, expr: ast.Expr) -> str | None:
        """The name of a declared maybe-none value not narrowed here, else None."""
        if not isinstance(expr, ast.NameRef):
            return None
        name = expr.name
        if name in self.env:
            return name if name in self.declared and self.env[name].optional else None
        var = self.model.vars.get(name)
        if var is not None and type_of_ref(self.model, var.type).optional:
            return name
        return None

    def flag(self, expr: ast.Expr, where: str) -> None:
        name = self.maybe_none(expr)
        if name is not None:
            self.report(f"'{name}' may be none here, {where}: test '{name} != none' first", expr.span)

    def visit_Attr(self, node: ast.Attr) -> None:
        self.visit(node.obj)
        self.flag(node.obj, f"and none has no attribute '{node.name}'")

    def arguments(self, name: str, sig: Signature | None, args: tuple[ast.Expr, ...]) -> None:
        for arg in args:
            self.visit(arg)
        if sig is None:
            return
        for i, (arg, param) in enumerate(zip(args, sig.params), start=1):
            if not param.optional and param.base != "unknown":
                self.flag(arg, f"where argument {i} of '{name}' must be {param}")

    def visit_CallExpr(self, node: ast.CallExpr) -> None:
        if node.name == "opponent":
            self.generic_visit(node)  # opponent(none) is none, by design
            return
        self.arguments(node.name, call_signature(self.model, node.name), node.args)

    def visit_CallStmt(self, stmt: ast.CallStmt) -> None:
        sig = decl_signature("procedure", self.model.procedures.get(stmt.name.name), self.model)
        self.arguments(stmt.name.name, sig, stmt.args)

    def visit_Activate(self, stmt: ast.Activate) -> None:
        sig = decl_signature("effect", self.model.effects.get(stmt.effect.name), self.model)
        self.arguments(stmt.effect.name, sig, stmt.args)

    # ------------------------------------------------------------ tests that narrow
    def sure_when(self, test: ast.Expr | None, holds: bool = True) -> set[str]:
        """The names that are not none when `test` is true (holds) or false."""
        if isinstance(test, ast.Compare) and test.op in ("==", "!="):
            sides = (test.left, test.right)
            names = [s.name for s in sides if isinstance(s, ast.NameRef)]
            if names and any(isinstance(s, ast.NoneLit) for s in sides):
                return set(names) if (test.op == "!=") == holds else set()
        if isinstance(test, ast.Not):
            return self.sure_when(test.operand, not holds)
        if isinstance(test, ast.BoolOp) and (test.op == "and") == holds:
            return {n for operand in test.operands for n in self.sure_when(operand, holds)}
        return set()

    def narrow(self, names: set[str]) -> None:
        for name in names:
            found = self.infer(ast.NameRef(ast.Span("", 0, 0, 0, 0), name))
            if found.optional:
                self.env[name] = dataclasses.replace(found, optional=False)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        with self.nested():
            for operand in node.operands:
                self.visit(operand)
                self.narrow(self.sure_when(operand, node.op == "and"))

    def visit_Cond(self, node: ast.Cond) -> None:
        self.visit(node.test)
        for value, holds in ((node.then, True), (node.otherwise, False)):
            with self.nested():
                self.narrow(self.sure_when(node.test, holds))
                self.visit(value)

    def where(self, expr: ast.Expr | None) -> None:
        super().where(expr)
        self.narrow(self.sure_when(expr))

    def visit_If(self, stmt: ast.If) -> None:
        outs, sure = [], set()
        for test, block in stmt.branches:
            with self.nested():
                self.narrow(sure)
                self.expect(test, BOOL, "the 'if' condition")
                self.narrow(self.sure_when(test))
                outs.append(self.branch(block))
            sure |= self.sure_when(test, False)
        with self.nested():
            self.narrow(sure)
            outs.append(self.branch(stmt.otherwise) if stmt.otherwise else self.env)
        self.env = self.merge(outs)

    def visit_While(self, stmt: ast.While) -> None:
        self.expect(stmt.test, BOOL, "the 'while' condition")
        with self.nested():
            self.narrow(self.sure_when(stmt.test))
            self.loop_body(stmt.body)

    def visit_Option(self, option: ast.Option) -> None:
        with self.nested():
            self.where(option.when)
            self.visit(option.body)

    def visit_EventBlock(self, event: ast.EventBlock | ast.ActionBlock) -> None:
        with self.nested():
            self.where(event.when)
            self.visit(event.body)

    visit_ActionBlock = visit_EventBlock

    def visit_Trigger(self, trigger: ast.Trigger) -> None:
        signal = self.model.signals.get(trigger.signal.name)
        names = self.pattern(trigger.names, signal.params if signal else ())
        with self.frame(self.rule_params + names, self.rule_implicit):
            self.where(trigger.when)
            self.visit(trigger.body)
