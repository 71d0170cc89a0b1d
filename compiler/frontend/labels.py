"""Where a player is shown by its label: `p.label`, and a player written by `log` or named
in a prompt's braces; the entities a prompt names (shown by label, the decision's subject);
and the sides of a test's `expect` comparisons that hold players or entities (a failure
prints them by label).

A player's value is its seat number, like an entity's is its index, so the back
ends cannot tell `p.label` from `c.label`, or a player from a number in `log`,
by the value: the types tell. This walk finds those places once per model, for
both back ends alike. It is not a check pass: the checks are skipped when the
spec passed them before, and the back ends need it every time.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.reuse import VERDICTS
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.model import Model


@dataclass(frozen=True)
class PlayerLabels:
    """The `.label` reads of a player value, the `log` and prompt parts that are players, and
    the entities a prompt names: a part of entity type, or the entity of a part `c.label`."""

    attributes: frozenset[ast.Attr]
    logged: frozenset[ast.Expr]
    entities: frozenset[ast.Expr] = frozenset()
    # An expect's compared sides that are players (or collections of them), and entities
    compared_players: frozenset[ast.Expr] = frozenset()
    compared_entities: frozenset[ast.Expr] = frozenset()

    def side_shown(self, side: ast.Expr | None) -> str:
        """How a test failure shows a compared side's value: 'player', 'entity' or '' (as is)."""
        if side in self.compared_players:
            return "player"
        return "entity" if side in self.compared_entities else ""


def player_labels(model: Model) -> PlayerLabels:
    """The model's places that show a player by label (found on first use, then kept)."""
    if model.player_labels_found is None:
        finder = _Finder(model)
        decls = [d for d in model.spec.decls() if not isinstance(d, ast.TestDecl)] + list(model.tests)
        found = VERDICTS.gather("player labels", model, decls, finder.found_in)  # (checks/reuse.py)
        model.player_labels_found = PlayerLabels(*(frozenset(n for kind, n in found if kind == k)
                                                   for k in ("attribute", "logged", "entity",
                                                             "compared player", "compared entity")))
    return model.player_labels_found


class _Finder(ScopedVisitor):
    def __init__(self, model: Model):
        super().__init__(model)
        self.attributes: set[ast.Attr] = set()
        self.logged: set[ast.Expr] = set()
        self.entities: set[ast.Expr] = set()
        self.compared: list[tuple[str, ast.Expr]] = []

    def found_in(self, decl: ast.Decl) -> list[tuple[str, ast.Expr]]:
        """What one declaration holds: ("attribute", a p.label), ("logged", a player logged or
        in a prompt) and ("entity", an entity a prompt names)."""
        self.attributes, self.logged, self.entities, self.compared = set(), set(), set(), []
        self.visit(decl)
        return ([("attribute", n) for n in self.attributes] + [("logged", n) for n in self.logged]
                + [("entity", n) for n in self.entities] + self.compared)

    def is_player(self, expr: ast.Expr) -> bool:
        return self.infer(expr).base == "player"  # `player?` too: none shows as none

    def visit_Attr(self, node: ast.Attr) -> None:
        self.visit(node.obj)
        if node.name == "label" and self.is_player(node.obj):
            self.attributes.add(node)

    def shown(self, expr: ast.Expr) -> None:
        self.visit(expr)
        if self.is_player(expr):
            self.logged.add(expr)
        elif self.infer(expr).base == "entity":
            self.entities.add(expr)
        elif isinstance(expr, ast.Attr) and self.infer(expr.obj).base == "entity":
            self.entities.add(expr.obj)

    def visit_Expect(self, step: ast.Expect) -> None:
        self.visit(step.test)
        for part in conjuncts(step.test):
            if isinstance(part, ast.Compare):
                for side in (part.left, part.right):
                    found = self.infer(side)
                    base = found.elem.base if found.base == "collection" and found.elem else found.base
                    if base in ("player", "entity"):
                        self.compared.append((f"compared {base}", side))

    def visit_Log(self, stmt: ast.Log) -> None:
        if stmt.to is not None:
            self.visit(stmt.to)
        for part in stmt.parts:
            self.shown(part)  # a card it names is kept as seen (runtime/logview.py)


def conjuncts(expr: ast.Expr) -> list[ast.Expr]:
    """a and b and c: three parts, so a failed `expect` can say which one failed."""
    if isinstance(expr, ast.BoolOp) and expr.op == "and":
        return [part for operand in expr.operands for part in conjuncts(operand)]
    return [expr]
