"""How many cards may ever lie in each zone: the cards of the kinds some statement moves there.

A zone holds the cards the spec moves into it (`move`, `move all`, by the moved value's declared
kind), and the first zone holds every card at the start. A move to a zone held in a value (a
procedure's `dest: zone`) may reach any zone; a moved value of no known kind may be any card.
Designer tests count too: they run on the same engine. A search bot's re-deal (runtime/bots/
search.py) swaps cards between zones but keeps each zone's count, so the bound holds there too.
"""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.checks.types import Type
from rulespec.compiler.frontend.model import Model

ANY_CARD = ""  # a moved value whose kind is not known: any card
ANY_ZONE = ""  # a destination held in a value: any zone


class CardFlow(ScopedVisitor):
    """Collects, per destination zone, the kinds of the cards moved into it."""

    def __init__(self, model: Model):
        super().__init__(model)
        self.into: dict[str, set[str]] = {}

    def visit_MoveCard(self, stmt: ast.MoveCard) -> None:
        self.moved(self.infer(stmt.card), stmt.dest)
        self.generic_visit(stmt)

    def visit_MoveAll(self, stmt: ast.MoveAll) -> None:
        self.moved(self.element_of(stmt.source), stmt.dest)
        super().visit_MoveAll(stmt)

    def moved(self, card: Type, dest: ast.Expr) -> None:
        kind = card.name if card.base == "entity" and card.name in self.model.kinds else ANY_CARD
        self.into.setdefault(self.zone_named(dest), set()).add(kind)

    def zone_named(self, dest: ast.Expr) -> str:
        """The zone a destination names, or ANY_ZONE when a value holds it."""
        name = dest.name if isinstance(dest, (ast.NameRef, ast.CallExpr)) else None
        if name in self.model.zones and name not in self.env:
            return name
        return ANY_ZONE


def zone_capacities(model: Model) -> dict[str, int]:
    """Per zone, the number of cards that may ever lie in one of its slots."""
    flow = CardFlow(model)
    flow.run()
    cards = model.cards()
    everywhere = flow.into.get(ANY_ZONE, set())
    first = next(iter(model.zones), None)
    out = {}
    for name in model.zones:
        kinds = flow.into.get(name, set()) | everywhere
        if name == first or ANY_CARD in kinds:
            out[name] = len(cards)
        else:
            out[name] = sum(1 for c in cards if model.entities[c].kind.name in kinds)
    return out
