"""Procedures that give a value: `procedure f(...) -> T { ... return EXPR }`.

A value procedure may stop for a decision, so its value is taken only where a
statement can wait for it: as the whole value of `let`, `set` or `return`.
Every path through its body ends in `return` (or in `win`/`lose`, which end
the game), each `return` gives a T, and no other routine returns a value.
"""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.checks.symbols import name_span
from rulespec.compiler.frontend.checks.types import Type, compatible, type_of_ref

TAKERS = (ast.Let, ast.SetStmt, ast.Return)  # the statements that take a procedure's value


def value_call(model: Model, stmt: ast.Stmt) -> ast.CallExpr | None:
    """The call of a value procedure that is the whole value of `let`, `set` or `return`."""
    if isinstance(stmt, TAKERS):
        value = stmt.value
        if isinstance(value, ast.CallExpr) and value.name in model.procedures:
            return value
    return None


def ends_in_return(body: ast.Block) -> bool:
    """Whether every path through the block ends in `return`, `win` or `lose`."""
    return any(_ends(stmt) for stmt in body.body)


def _ends(stmt: ast.Stmt) -> bool:
    if isinstance(stmt, (ast.Return, ast.Win, ast.Lose)):
        return True
    if isinstance(stmt, ast.If):
        return stmt.otherwise is not None and all(ends_in_return(b) for _, b in stmt.branches) \
            and ends_in_return(stmt.otherwise)
    if isinstance(stmt, ast.Menu):
        return all(ends_in_return(o.body) for o in stmt.options)
    return False  # a loop may run no round, or leave by `break`


class ReturnCheck(ScopedVisitor):
    """Reports misplaced `return`s, values of the wrong type, paths without a value, and
    procedure calls whose value nothing can take."""

    def __init__(self, model: Model):
        super().__init__(model)
        self.returns: Type | None = None  # the value type of the procedure being visited
        self.routine = ""  # what is being visited, for messages
        self.taken: set[int] = set()  # id of each call a `let`, `set` or `return` takes

    def visit_ProcedureDecl(self, decl: ast.ProcedureDecl) -> None:
        saved = self.returns, self.routine
        self.returns = type_of_ref(self.model, decl.returns) if decl.returns is not None else None
        self.routine = f"{decl.role} '{decl.name.name}'" if decl.role != "start" else "`start`"
        try:
            super().visit_ProcedureDecl(decl)
        finally:
            self.returns, self.routine = saved
        if decl.returns is not None and not ends_in_return(decl.body):
            self.report(f"procedure '{decl.name.name}' gives a value ({decl.returns.name}), but a"
                        " path through it ends without `return`: end every branch with `return EXPR`"
                        " (an `if` needs its `else`)", decl.name.span)

    def visit_EntityDecl(self, decl: ast.EntityDecl) -> None:
        self._elsewhere("a card's event", lambda: super(ReturnCheck, self).visit_EntityDecl(decl))

    def visit_EffectDecl(self, decl: ast.EffectDecl) -> None:
        self._elsewhere("a trigger", lambda: super(ReturnCheck, self).visit_EffectDecl(decl))

    def visit_TestDecl(self, decl: ast.TestDecl) -> None:
        self._elsewhere("a test", lambda: super(ReturnCheck, self).visit_TestDecl(decl))

    def _elsewhere(self, what: str, visit) -> None:
        saved = self.returns, self.routine
        self.returns, self.routine = None, what
        try:
            visit()
        finally:
            self.returns, self.routine = saved

    # ------------------------------------------------------------ statements
    def visit_Let(self, stmt: ast.Let) -> None:
        self._take(stmt)
        super().visit_Let(stmt)

    def visit_SetStmt(self, stmt: ast.SetStmt) -> None:
        self._take(stmt)
        self.generic_visit(stmt)

    def visit_Return(self, stmt: ast.Return) -> None:
        self._take(stmt)
        self.visit(stmt.value)
        if self.returns is None:
            hint = (f": declare it `procedure NAME(...) -> TYPE` to give a value" if self.routine.startswith(
                "procedure") else ": only a procedure declared `-> TYPE` gives a value")
            self.report(f"`return` in {self.routine or 'this code'}, which gives no value{hint}", stmt.span)
            return
        actual = self.infer(stmt.value)
        if not compatible(actual, self.returns):
            self.report(f"the value of {self.routine} must be {self.returns}, not {actual}", stmt.value.span)

    def _take(self, stmt: ast.Stmt) -> None:
        call = value_call(self.model, stmt)
        if call is not None:
            self.taken.add(id(call))

    # ------------------------------------------------------------ expressions
    def visit_CallExpr(self, node: ast.CallExpr) -> None:
        decl = self.model.procedures.get(node.name)
        if decl is not None:
            span = name_span(node.span, node.name)
            if decl.returns is not None and id(node) not in self.taken:  # else checks/names.py
                self.report(f"the value of procedure '{node.name}' is taken only as the whole value of"
                            f" `let`, `set` or `return` (it may wait for a decision): write"
                            f" `let v = {node.name}(...)` first, then use v", span)
        self.generic_visit(node)


def check_returns(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every misplaced `return` or value call, value of the wrong type, and path without one."""
    return ReturnCheck(model).run()
