"""Names and references: every name in code and types means something in scope."""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.reuse import VERDICTS
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.checks.symbols import EVENT_LOCALS, RESERVED, Globals, is_type_name, name_span
from rulespec.compiler.frontend.checks.types import BUILTIN_RESULTS, BUILTIN_VALUES, CATEGORIES, PRIMITIVES


class NameCheck(ScopedVisitor):
    """Reports unknown names, locals used before they are bound, and locals hiding globals."""

    def __init__(self, model: Model):
        super().__init__(model)
        self.globals = Globals(model)
        self.cards = [e.name.name for i, e in enumerate(model.entities) if model.entity_category(i) == "card"]

    reuse_as = "names"

    def run(self) -> list[Diagnostic]:
        super().run()
        decls = [*self.model.spec.decls(), *self.model.tests]
        VERDICTS.each("type names", self.model, decls, self.type_refs, self.problems)
        return self.problems

    def type_refs(self, decl: ast.Decl) -> None:
        for node in decl.find_all(ast.TypeRef):
            self.type_ref(node)

    def unknown(self, word: str, name: str, span: ast.Span, candidates) -> None:
        ids = self.model.copies.get(name)
        if ids is not None:  # the bare name of a card with copies names none of them
            self.report(f"'{name}' is {len(ids)} copies of one card (copies {len(ids)}): name one,"
                        f" '{ids[0]}' .. '{ids[-1]}'", span)
            return
        self.report(f"unknown {word} '{name}'{did_you_mean(name, candidates)}", span)

    # ------------------------------------------------------------ bindings
    def on_bind(self, name: str, span: ast.Span, role: str) -> None:
        if name in self.globals.shadowable or name in RESERVED:
            what = self.globals.describe(name)
            self.report(f"'{name}' is already {what}; choose another name for this local", span)
        elif role == "roll" and name in self.env:
            self.report(f"'roll' needs a new name: '{name}' is already a local", span)

    def type_ref(self, ref: ast.TypeRef) -> None:
        if not is_type_name(self.model, ref.name):
            types = list(PRIMITIVES) + list(CATEGORIES) + list(self.model.kinds) + list(self.model.enums)
            self.unknown("type", ref.name, name_span(ref.span, ref.name), types)

    # ------------------------------------------------------------ expressions
    def visit_NameRef(self, node: ast.NameRef) -> None:
        name = node.name
        if name in self.env or name in self.globals.values or name in BUILTIN_VALUES:
            return
        if name in EVENT_LOCALS:
            where = "a card's event or a bot's value" if name == "you" else "a card's event"
            self.report(f"'{name}' is only known inside {where}", node.span)
        elif self.globals.lookup("instance", name) is not None:
            first = self.model.players[0] if self.model.players else "p"
            self.report(f"'{name}' is a card of each player (kind "
                        f"{self.globals.lookup('instance', name).word} is per player): name one, "
                        f"'{name}({first})' or '{name}(owner(c))'", node.span)
        elif name in self.globals.calls or name in BUILTIN_RESULTS:
            self.report(f"'{name}' is {self.globals.describe(name)}: call it with its arguments, "
                        f"'{name}(...)'", node.span)
        else:
            self.unknown("name", name, node.span, self.value_names())

    def value_names(self) -> list[str]:
        return list(self.env) + list(self.globals.values) + list(BUILTIN_VALUES)

    def visit_CallExpr(self, node: ast.CallExpr) -> None:
        name, span = node.name, name_span(node.span, node.name)
        if name in self.globals.calls and self.globals.calls[name].namespace == "procedure":
            decl = self.model.procedures[name]
            if decl.returns is None:  # a value one is placed by checks/returns.py
                hint = (f" (or declare it `procedure {name}(...) -> TYPE` with `return`)"
                        if decl.role == "procedure" else "")
                self.report(f"'{name}' is a {self.globals.calls[name].word} that gives no value: "
                            f"call it as a statement, not in an expression{hint}", span)
        elif name not in self.globals.calls and name not in BUILTIN_RESULTS:
            self.not_callable(name, span, "function")
        elif name == "owner" and name not in self.globals.calls and not self.model.instances:
            self.report("'owner(c)' is the player a card belongs to: it needs a card kind declared "
                        "'per player' (kind name: card(...) per player)", span)
        self.generic_visit(node)

    def not_callable(self, name: str, span: ast.Span, word: str) -> None:
        if name in self.env:
            self.report(f"'{name}' is a local, not a {word}", span)
        elif name in self.globals.values:
            self.report(f"'{name}' is {self.globals.describe(name)}, not a {word}", span)
        else:
            callables = list(self.globals.calls) + list(BUILTIN_RESULTS)
            if word == "procedure":
                callables = list(self.model.procedures)
            self.unknown(word, name, span, callables)

    def visit_Allowed(self, node: ast.Allowed) -> None:
        self.known(node.action, self.model.actions, "action")
        self.generic_visit(node)

    def visit_Active(self, node: ast.Active) -> None:
        self.known(node.effect, self.model.effects, "effect")
        self.generic_visit(node)

    def known(self, ident: ast.Ident, table, word: str) -> bool:
        if ident.name in table:
            return True
        self.unknown(word, ident.name, ident.span, table)
        return False

    # ------------------------------------------------------------ statements and rules
    def visit_CallStmt(self, stmt: ast.CallStmt) -> None:
        name = stmt.name.name
        if name in self.model.defines or name in self.model.quantities:
            self.report(f"'{name}' computes a value: it cannot be a statement; "
                        "call a procedure, phase or setup", stmt.name.span)
        elif name not in self.model.procedures:
            self.not_callable(name, stmt.name.span, "procedure")
        self.generic_visit(stmt)

    def visit_Ref(self, ref: ast.Ref) -> None:
        name = ref.name.name
        if name not in self.env and name not in self.globals.values and name not in self.globals.calls:
            self.unknown("name", name, ref.name.span, self.value_names() + list(self.model.counters))
        self.generic_visit(ref)

    def visit_ActionRef(self, node: ast.ActionRef) -> None:
        self.known(node.name, self.model.actions, "action")
        self.generic_visit(node)

    def visit_ActionPattern(self, node: ast.ActionPattern) -> None:
        self.known(node.action, self.model.actions, "action")

    def visit_Modifier(self, mod: ast.Modifier) -> None:
        name = mod.quantity.name
        if name in self.model.defines:
            self.report(f"'{name}' is a define; only a quantity can be modified", mod.quantity.span)
        else:
            self.known(mod.quantity, self.model.quantities, "quantity")
        super().visit_Modifier(mod)

    def visit_Trigger(self, trigger: ast.Trigger) -> None:
        self.known(trigger.signal, self.model.signals, "signal")
        super().visit_Trigger(trigger)

    def visit_Allow(self, allow: ast.Allow) -> None:
        constraints = {c.name.name: c for c in self.model.constraints}
        actions = {p.action.name for p in allow.patterns}
        for ident in allow.constraints:
            constraint = constraints.get(ident.name)
            if constraint is None:
                self.unknown("constraint", ident.name, ident.span, constraints)
                continue
            forbidden = {p.action.name for f in constraint.forbids for p in f.patterns}
            for action in sorted(actions - forbidden):
                self.report(f"constraint '{ident.name}' forbids no '{action}': nothing to allow; "
                            f"it forbids {', '.join(sorted(forbidden))}", ident.span)
        super().visit_Allow(allow)

    def visit_Ability(self, ability: ast.Ability) -> None:
        for zone in ability.zones:
            if zone.name not in self.model.zones:
                self.unknown("zone", zone.name, zone.span, self.model.zones)
        super().visit_Ability(ability)

    def visit_Emit(self, stmt: ast.Emit) -> None:
        self.known(stmt.signal, self.model.signals, "signal")
        self.generic_visit(stmt)

    def visit_Activate(self, stmt: ast.Activate) -> None:
        self.known(stmt.effect, self.model.effects, "effect")
        if stmt.lifetime is not None:
            self.known(stmt.lifetime, self.model.lifetimes, "lifetime")
        self.generic_visit(stmt)

    def visit_Cancel(self, stmt: ast.Cancel) -> None:
        self.known(stmt.effect, self.model.effects, "effect")
        self.generic_visit(stmt)

    def visit_Expire(self, stmt: ast.Expire) -> None:
        self.known(stmt.lifetime, self.model.lifetimes, "lifetime")

    def visit_CopyCounter(self, stmt: ast.CopyCounter) -> None:
        self.known(stmt.source, self.model.counters, "counter")
        self.known(stmt.dest, self.model.counters, "counter")

    def visit_ClearCounter(self, stmt: ast.ClearCounter) -> None:
        self.known(stmt.counter, self.model.counters, "counter")

    def visit_MoveCard(self, stmt: ast.MoveCard) -> None:
        self.card(stmt.card)
        self.visit(stmt.dest)

    def visit_Resolve(self, stmt: ast.Resolve) -> None:
        self.card(stmt.card)
        self.visit(stmt.player)

    def card(self, expr: ast.Expr) -> None:
        """Visit an expression meant to be a card; an unknown bare name is an unknown card."""
        known = not isinstance(expr, ast.NameRef) or expr.name in self.env or \
            expr.name in self.globals.values or expr.name in BUILTIN_VALUES or \
            self.globals.lookup("instance", expr.name) is not None  # visit_NameRef says which
        if known:
            self.visit(expr)
        else:
            self.unknown("card", expr.name, expr.span, list(self.env) + self.cards)


def check_names(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every unknown or misused name."""
    return NameCheck(model).run()
