"""A walk over every piece of code of a spec, knowing the locals in scope at each point.

Locals follow definite assignment: a name bound inside a branch is visible after
the `if` only when every branch binds it; names bound in a loop body stay inside.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.reuse import VERDICTS
from rulespec.compiler.frontend.checks.symbols import name_span
from rulespec.compiler.frontend.checks.types import BOOL, INT, PLAYER, SPACE, STR, UNKNOWN, Type, TypeInfer, element, entity, type_of_ref
from rulespec.compiler.frontend.checks.visitor import Visitor

Binding = tuple[str, Type, ast.Span]


class ScopedVisitor(Visitor):
    """Visits code with `self.env` (local name -> type); subclasses add the checks."""

    def __init__(self, model: Model):
        self.model = model
        self.types = TypeInfer(model)
        self.env: dict[str, Type] = {}
        self.loops = 0
        self.rule_params: list[Binding] = []
        self.rule_implicit: dict[str, Type] = {}  # `this` in a card's `while in` block
        self.problems: list[Diagnostic] = []

    # A pass whose verdict on a declaration rests on it and the names in it (checks/reuse.py)
    # names itself here: declarations that passed it in an equal context are not visited again.
    reuse_as: str | None = None

    def run(self) -> list[Diagnostic]:
        decls = [d for d in self.model.spec.decls() if not isinstance(d, ast.TestDecl)]
        decls += self.model.tests
        if self.reuse_as is None:
            for decl in decls:
                self.visit(decl)
        else:
            VERDICTS.each(self.reuse_as, self.model, decls, self.visit, self.problems)
        return self.problems

    def report(self, message: str, span: ast.Span) -> None:
        self.problems.append(Diagnostic(message, span))

    def infer(self, expr: ast.Expr) -> Type:
        return self.types.infer(expr, self.env)

    def generic_visit(self, node: ast.Node) -> None:
        if not isinstance(node, ast.Decl):  # declarations without code hold only literals
            super().generic_visit(node)

    # ------------------------------------------------------------ scopes
    def on_bind(self, name: str, span: ast.Span, role: str) -> None:
        """Hook: a local is about to be bound (role: param, local or roll)."""

    def bind(self, name: str, type_: Type, span: ast.Span, role: str = "local") -> None:
        self.on_bind(name, span, role)
        self.env[name] = type_

    @contextmanager
    def frame(self, bindings: list[Binding], implicit: dict[str, Type] | None = None) -> Iterator[None]:
        """Fresh locals for a procedure, a rule or an event: `you`/`this`, then the parameters."""
        saved, loops = self.env, self.loops
        self.env, self.loops = dict(implicit or {}), 0
        try:
            for name, type_, span in bindings:
                self.bind(name, type_, span, "param")
            yield
        finally:
            self.env, self.loops = saved, loops

    @contextmanager
    def nested(self) -> Iterator[None]:
        """Locals bound inside stay inside: a loop body, a quantifier, one branch."""
        saved = self.env
        self.env = dict(saved)
        try:
            yield
        finally:
            self.env = saved

    def params(self, params: tuple[ast.Param, ...]) -> list[Binding]:
        return [(p.name, type_of_ref(self.model, p.type), name_span(p.span, p.name)) for p in params]

    def pattern(self, names: tuple[ast.Ident, ...], params: tuple[ast.Param, ...]) -> list[Binding]:
        """The names of a modify/forbid/on pattern, typed by the declaration they match."""
        types = [type_of_ref(self.model, p.type) for p in params]
        return [(n.name, types[i] if i < len(types) else UNKNOWN, n.span) for i, n in enumerate(names)]

    def expect(self, expr: ast.Expr, wanted: Type, what: str) -> None:
        """Visit an expression that should be of type `wanted`; the types pass checks it."""
        self.visit(expr)

    def source(self, expr: ast.Expr, what: str) -> None:
        """Visit an expression that should be a collection; the types pass checks it."""
        self.visit(expr)

    def shown(self, expr: ast.Expr) -> None:
        """Visit a value a prompt names in braces; the types pass checks it is one value."""
        self.visit(expr)

    def element_of(self, source: ast.Expr) -> Type:
        return element(self.infer(source)) or UNKNOWN

    def merge(self, outs: list[dict[str, Type] | None]) -> dict[str, Type]:
        """The locals every path that goes on binds."""
        going = [o for o in outs if o is not None] or [self.env]
        return {k: v for k, v in going[0].items() if all(k in o for o in going[1:])}

    # ------------------------------------------------------------ declarations with code
    def visit_DefineDecl(self, decl: ast.DefineDecl) -> None:
        with self.frame(self.params(decl.params)):
            self.expect(decl.body, type_of_ref(self.model, decl.type), f"the value of '{decl.name.name}'")

    def visit_QuantityDecl(self, decl: ast.QuantityDecl) -> None:
        with self.frame(self.params(decl.params)):
            self.expect(decl.body, INT, f"quantity '{decl.name.name}'")

    def visit_ProcedureDecl(self, decl: ast.ProcedureDecl) -> None:
        with self.frame(self.params(decl.params)):
            self.visit(decl.body)

    def visit_InvariantDecl(self, decl: ast.InvariantDecl) -> None:
        with self.frame([]):
            self.expect(decl.test, BOOL, "an invariant")

    def visit_TallyDecl(self, decl: ast.TallyDecl) -> None:
        with self.frame([]):
            self.expect(decl.value, INT, "a tally")

    def visit_AssertDecl(self, decl: ast.AssertDecl) -> None:
        with self.frame([]):
            self.expect(decl.test, BOOL, "an assert")

    def visit_BotDecl(self, decl: ast.BotDecl) -> None:
        with self.frame([], {"you": PLAYER}):
            self.expect(decl.value, INT, "a bot's value")

    # A policy's rules read its tunables (its own and its bases') as ints, beside `you`.
    policy_locals: dict[str, Type] = {}

    def visit_PolicyDecl(self, decl: ast.PolicyDecl) -> None:
        saved = self.policy_locals
        self.policy_locals = {"you": PLAYER, **{t.name.name: INT
                                               for t in self.model.policy_tunables(decl.name.name)}}
        try:
            for rule in decl.rules:
                self.visit(rule)
        finally:
            self.policy_locals = saved

    def visit_ChoiceRule(self, rule: ast.ChoiceRule) -> None:
        option = type_of_ref(self.model, rule.type)
        with self.frame([(rule.var.name, option, rule.var.span)], self.policy_locals or {"you": PLAYER}):
            for pref in rule.prefs:
                if pref.never:  # marks the options where it holds: a truth, not a score
                    self.expect(pref.value, BOOL, "a `never` line")
                else:
                    self.score(pref.value, "a preference")
                self.weight(pref.weight)

    def visit_MenuRule(self, rule: ast.MenuRule) -> None:
        with self.frame([], self.policy_locals or {"you": PLAYER}):
            for pref in rule.prefs:
                if pref.when is not None:
                    self.expect(pref.when, BOOL, "the 'when' condition")
                self.weight(pref.weight)

    def weight(self, weight: ast.Weight | None) -> None:
        if weight is not None:
            self.expect(weight.value, INT, "a weight")

    def score(self, expr: ast.Expr, what: str) -> None:
        """Visit an expression that should be an int or a bool; the types pass checks it."""
        self.visit(expr)

    def visit_TestDecl(self, decl: ast.TestDecl) -> None:
        with self.frame([]):
            for step in decl.steps:
                self.visit(step)

    def visit_EntityDecl(self, decl: ast.EntityDecl) -> None:
        category = self.model.category(decl.kind.name)
        this = entity(category, decl.kind.name) if category else UNKNOWN
        for block in decl.events + decl.actions:
            with self.frame([], {"you": PLAYER, "this": this}):
                self.visit(block)
        for ability in decl.abilities:
            self.rule_implicit = {"this": this}
            self.visit(ability)
            self.rule_implicit = {}

    def visit_Ability(self, ability: ast.Ability) -> None:
        for item in ability.items():
            self.visit(item)

    def visit_EventBlock(self, event: ast.EventBlock) -> None:
        if event.when is not None:
            self.expect(event.when, BOOL, "the event's 'when' condition")
        self.visit(event.body)

    def visit_ActionBlock(self, action: ast.ActionBlock) -> None:
        if action.when is not None:
            self.expect(action.when, BOOL, "the action's 'when' condition")
        self.visit(action.body)

    def visit_Expect(self, step: ast.Expect) -> None:
        self.expect(step.test, BOOL, "what a test expects")

    def visit_ConstraintDecl(self, decl: ast.ConstraintDecl) -> None:
        self.rule_params = []
        for forbid in decl.forbids:
            self.visit(forbid)

    def visit_EffectDecl(self, decl: ast.EffectDecl) -> None:
        self.rule_params = self.params(decl.params)
        for item in decl.modifiers + decl.forbids + decl.triggers:
            self.visit(item)
        self.rule_params = []

    def visit_Modifier(self, mod: ast.Modifier) -> None:
        quantity = self.model.quantities.get(mod.quantity.name)
        names = self.pattern(mod.names, quantity.params if quantity else ())
        with self.frame(self.rule_params + names, self.rule_implicit):
            self.expect(mod.delta, INT, "the 'modify' amount")
            for expr, what in ((mod.low, "the 'min' bound"), (mod.high, "the 'max' bound")):
                if expr is not None:
                    self.expect(expr, INT, what)
            if mod.when is not None:
                self.expect(mod.when, BOOL, "the 'when' condition")

    def visit_Forbid(self, forbid: ast.Forbid) -> None:
        for pattern in forbid.patterns:
            action = self.model.actions.get(pattern.action.name)
            names = self.pattern(pattern.names, action.params if action else ())
            with self.frame(self.rule_params + names, self.rule_implicit):
                self.visit(pattern)
                self.expect(forbid.when, BOOL, "the 'when' condition")

    def visit_Allow(self, allow: ast.Allow) -> None:
        for pattern in allow.patterns:
            action = self.model.actions.get(pattern.action.name)
            names = self.pattern(pattern.names, action.params if action else ())
            with self.frame(self.rule_params + names, self.rule_implicit):
                self.visit(pattern)
                self.expect(allow.when, BOOL, "the 'when' condition")

    def visit_Trigger(self, trigger: ast.Trigger) -> None:
        signal = self.model.signals.get(trigger.signal.name)
        names = self.pattern(trigger.names, signal.params if signal else ())
        with self.frame(self.rule_params + names, self.rule_implicit):
            if trigger.when is not None:
                self.expect(trigger.when, BOOL, "the 'when' condition")
            self.visit(trigger.body)

    # ------------------------------------------------------------ statements that bind
    def visit_Block(self, block: ast.Block) -> None:
        """After a choice `or skip` the rest of the block may not run: what it binds is bound at
        the block's end only when every way through binds it."""
        skipped = []
        for stmt in block.body:
            if isinstance(stmt, (ast.Choose, ast.PickRandom)) and stmt.skip:
                skipped.append(dict(self.env))
            self.visit(stmt)
        if skipped:
            self.env = self.merge(skipped + [self.env])

    def visit_Let(self, stmt: ast.Let) -> None:
        self.visit(stmt.value)
        self.bind(stmt.name.name, self.infer(stmt.value), stmt.name.span)

    def visit_Roll(self, stmt: ast.Roll) -> None:
        self.bind(stmt.name.name, INT, stmt.name.span, "roll")

    def visit_RollDice(self, stmt: ast.RollDice) -> None:
        self.expect(stmt.count, INT, "the number of dice")
        for name in stmt.names:
            self.bind(name.name, INT, name.span, "roll")

    def visit_For(self, stmt: ast.For) -> None:
        self.source(stmt.source, "'for'")
        with self.nested():
            self.bind(stmt.var.name, self.element_of(stmt.source), stmt.var.span)
            self.where(stmt.where)
            self.loop_body(stmt.body)

    def where(self, expr: ast.Expr | None) -> None:
        if expr is not None:
            self.expect(expr, BOOL, "the 'where' condition")

    def visit_Repeat(self, stmt: ast.Repeat) -> None:
        self.expect(stmt.count, INT, "the 'repeat' count")
        with self.nested():
            self.loop_body(stmt.body)

    def visit_While(self, stmt: ast.While) -> None:
        self.expect(stmt.test, BOOL, "the 'while' condition")
        with self.nested():
            self.loop_body(stmt.body)

    def loop_body(self, body: ast.Block) -> None:
        self.loops += 1
        self.visit(body)
        self.loops -= 1

    def visit_If(self, stmt: ast.If) -> None:
        outs = []
        for test, block in stmt.branches:
            self.expect(test, BOOL, "the 'if' condition")
            outs.append(self.branch(block))
        outs.append(self.branch(stmt.otherwise) if stmt.otherwise else self.env)
        self.env = self.merge(outs)

    def branch(self, node: ast.Node) -> dict[str, Type] | None:
        """Visit one path; return the locals bound at its end (None if it never gets there)."""
        with self.nested():
            self.visit(node)
            body = node.body.body if isinstance(node, ast.Option) else getattr(node, "body", ())
            return None if body and isinstance(body[-1], (ast.Win, ast.Lose, ast.Break)) else self.env

    def visit_Menu(self, stmt: ast.Menu) -> None:
        self.expect(stmt.chooser, PLAYER, "the chooser")
        if stmt.asked is not None:
            self.expect(stmt.asked, STR, "a menu's prompt")
        for part in stmt.shows:
            self.shown(part)
        self.env = self.merge([self.branch(option) for option in stmt.options])

    def visit_Option(self, option: ast.Option) -> None:
        if option.when is not None:
            self.expect(option.when, BOOL, "the 'when' condition")
        self.visit(option.body)

    def visit_Choose(self, stmt: ast.Choose) -> None:
        self.expect(stmt.chooser, PLAYER, "the chooser")
        self.source(stmt.source, "'chooses'")
        for part in stmt.shows:  # asked before the choice: its variable is not bound yet
            self.shown(part)
        elem = self.element_of(stmt.source)
        with self.nested():
            self.bind(stmt.var.name, elem, stmt.var.span)
            self.where(stmt.where)
            if stmt.action is not None:
                self.visit(stmt.action)
        self.bind(stmt.var.name, elem, stmt.var.span)

    def visit_PickRandom(self, stmt: ast.PickRandom) -> None:
        self.source(stmt.source, "'pick'")
        elem = self.element_of(stmt.source)
        with self.nested():
            self.bind(stmt.var.name, elem, stmt.var.span)
            self.where(stmt.where)
        self.bind(stmt.var.name, elem, stmt.var.span)

    def visit_MoveAll(self, stmt: ast.MoveAll) -> None:
        self.source(stmt.source, "'move all'")
        with self.nested():
            self.bind(stmt.var.name, self.element_of(stmt.source), stmt.var.span)
            self.where(stmt.where)
        self.visit(stmt.dest)

    # ------------------------------------------------------------ expressions that bind
    def visit_Quantifier(self, expr: ast.Quantifier) -> None:
        self.source(expr.source, f"'{expr.kind}'")
        with self.nested():
            self.bind(expr.var.name, self.element_of(expr.source), expr.var.span)
            self.where(expr.where)

    def visit_Reachable(self, expr: ast.Reachable) -> None:
        self.expect(expr.start, SPACE, "where 'reachable' starts")
        with self.nested():
            self.bind(expr.var.name, SPACE, expr.var.span)
            self.where(expr.where)

    def visit_SumOf(self, expr: ast.SumOf) -> None:
        self.source(expr.source, "'sum'")
        with self.nested():
            self.bind(expr.var.name, self.element_of(expr.source), expr.var.span)
            self.where(expr.where)
            self.expect(expr.value, INT, "the value of 'sum'")

    def visit_Extreme(self, expr: ast.Extreme) -> None:
        self.source(expr.source, f"'{expr.op}'")
        with self.nested():
            self.bind(expr.var.name, self.element_of(expr.source), expr.var.span)
            self.where(expr.where)
            self.expect(expr.value, INT, f"the value of '{expr.op}'")
        if expr.default is not None and not expr.member:
            self.expect(expr.default, INT, f"the value of '{expr.op}' when nothing is there")
