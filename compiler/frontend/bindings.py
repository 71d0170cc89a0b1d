"""Which locals of each routine hold cards: what a search bot re-deals in suspended frames.

A bot that re-deals the cards it cannot see (runtime/bots/search.py) must re-deal
what is bound to them too; a frame waiting for a decision may hold such a card
in a local or in the items of a loop. Both back ends read these facts to find
them in their own frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.checks.types import Type
from rulespec.compiler.frontend.model import Model


@dataclass
class CardBindings:
    """Per routine body (by node id): the card-typed names; and the loops over cards."""

    names: dict[int, set[str]] = field(default_factory=dict)
    loops: set[int] = field(default_factory=set)  # id() of `for` statements over cards

    def of(self, body: ast.Block) -> set[str]:
        return self.names.get(id(body), set())


def card_bindings(model: Model) -> CardBindings:
    """The card-typed locals of every procedure, event and trigger of a checked model."""
    walk = _Walk(model)
    walk.run()
    return walk.found


def _is_card(t: Type) -> bool:
    return t.base == "entity" and t.category == "card"


class _Walk(ScopedVisitor):
    """Records each binding of a card-typed name under the routine it happens in."""

    def __init__(self, model: Model):
        super().__init__(model)
        self.found = CardBindings()
        self.current: set[str] | None = None

    def run(self):  # designer tests never wait under a bot
        for decl in self.model.spec.decls():
            if not isinstance(decl, ast.TestDecl):
                self.current = None  # a define's or quantity's parameters belong to no routine
                self.visit(decl)
        return self.problems

    def routine(self, body: ast.Block) -> set[str]:
        self.current = self.found.names.setdefault(id(body), set())
        return self.current

    def _within(self, body: ast.Block, visit, node, names=()) -> None:
        """Visit a routine's node recording under its body; what follows it in the same
        declaration (a card's conditions after its event) belongs to no routine."""
        self.routine(body).update(names)
        visit(node)
        self.current = None

    def bind(self, name: str, type_: Type, span: ast.Span, role: str = "local") -> None:
        super().bind(name, type_, span, role)
        if self.current is not None and _is_card(type_):
            self.current.add(name)

    def visit_ProcedureDecl(self, decl: ast.ProcedureDecl) -> None:
        self._within(decl.body, super().visit_ProcedureDecl, decl)

    def visit_EventBlock(self, event: ast.EventBlock) -> None:
        own = [n for n in ("this", "you") if n in self.env and _is_card(self.env[n])]
        self._within(event.body, super().visit_EventBlock, event, own)

    def visit_ActionBlock(self, action: ast.ActionBlock) -> None:
        own = [n for n in ("this", "you") if n in self.env and _is_card(self.env[n])]
        self._within(action.body, super().visit_ActionBlock, action, own)

    def visit_Trigger(self, trigger: ast.Trigger) -> None:
        self._within(trigger.body, super().visit_Trigger, trigger)

    def visit_Modifier(self, mod: ast.Modifier) -> None:
        self.current = None

    def visit_Forbid(self, forbid: ast.Forbid) -> None:
        self.current = None

    def visit_For(self, stmt: ast.For) -> None:
        if _is_card(self.element_of(stmt.source)):
            self.found.loops.add(id(stmt))
        super().visit_For(stmt)
