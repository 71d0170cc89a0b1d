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

from dataclasses import dataclass, field

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.policies import Visibility
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
    # The `log` parts a seat may not read (log_readers): part -> the player locals whose
    # seats may; none of them: no seat may. A part not here every seat may read.
    secret: dict[ast.Expr, tuple[str, ...]] = field(default_factory=dict)

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
                                                             "compared player", "compared entity")),
                                                 secret=log_readers(model, decls))
    return model.player_labels_found


def log_readers(model: Model, decls: list[ast.Decl]) -> dict[ast.Expr, tuple[str, ...]]:
    """The `log` parts that read what some seat may not see, as a policy may not (a hidden
    track, another player's `owner` track, the cards of a zone hidden from it, also through
    defines and quantities), each with the player locals it names whose seat may read it.
    Not kept per declaration (checks/reuse.py): what a part reads lies in other declarations'
    bodies."""
    finder = _LogReaders(model)
    for decl in decls:
        finder.visit(decl)
    return finder.secret


class _LogReaders(ScopedVisitor):
    """A value carried to the line by a `let` (so a procedure's result) or a `for` is read by
    no seat when what it was made of is hidden from any (its reader is not followed that far)."""

    def __init__(self, model: Model):
        super().__init__(model)
        self.sight = Visibility(model)
        self.secret: dict[ast.Expr, tuple[str, ...]] = {}
        self.carried: set[str] = set()  # the locals of this declaration a `let` made of a secret
        self.procedures: dict[str, bool] = {}  # whether a procedure's result may be made of one

    def visit(self, node: ast.Node) -> None:
        if isinstance(node, ast.Decl):
            self.carried = set()
        super().visit(node)

    def visit_Let(self, stmt: ast.Let) -> None:
        if self.hidden(stmt.value):
            self.carried.add(stmt.name.name)
        super().visit_Let(stmt)

    def visit_For(self, stmt: ast.For) -> None:
        """A loop's value made of a secret (not a card: a card is logged as it was seen)."""
        if self.element_of(stmt.source).base != "entity" and self.hidden(stmt.source):
            self.carried.add(stmt.var.name)
        super().visit_For(stmt)

    def visit_Log(self, stmt: ast.Log) -> None:
        for part in stmt.parts:
            if isinstance(part, (ast.StrLit, ast.IntLit)) or not self.hidden(part):
                continue
            if self.carries(part):
                self.secret[part] = ()
                continue
            names = dict.fromkeys(n.name for n in part.walk() if isinstance(n, ast.NameRef)
                                  and n.name in self.env and self.env[n.name].base == "player")
            self.secret[part] = tuple(n for n in names if not self.sight.reads(part, frozenset({n})))

    def hidden(self, expr: ast.Expr) -> bool:
        return bool(self.sight.reads(expr, frozenset())) or self.carries(expr)

    def carries(self, expr: ast.Expr) -> bool:
        """Whether `expr` reads a local or a procedure's result made of a secret."""
        return any(isinstance(n, ast.NameRef) and n.name in self.carried and n.name in self.env
                   or isinstance(n, ast.CallExpr) and self.procedure(n.name) for n in expr.walk())

    def procedure(self, name: str) -> bool:
        decl = self.model.procedures.get(name)
        if decl is None:
            return False
        if name not in self.procedures:
            self.procedures[name] = False  # a procedure that calls itself adds nothing
            self.procedures[name] = any(
                isinstance(n, ast.Expr) and (self.sight.reads(n, frozenset())
                                             or isinstance(n, ast.CallExpr) and self.procedure(n.name))
                for n in decl.body.walk())
        return self.procedures[name]


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
