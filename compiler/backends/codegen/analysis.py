"""Static facts about routines: which may suspend, which names they bind.

A routine is a body the engine runs: a procedure (phases, setups and `start`
included), a card's event, an effect's trigger, or the statements of a
designer test. A routine *suspends* when it may stop for a decision: it
holds a choice or a menu, or calls, resolves or emits something that does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.model import Model


@dataclass
class Routine:
    """One body the generated engine runs, with everything needed to call it."""

    key: str
    kind: str  # procedure | start | event | trigger | test
    label: str
    span: ast.Span
    params: list[str]
    nonnull_params: set[str]
    body: ast.Block
    suspends: bool = False
    plain_name: str | None = None  # the plain function, when it never suspends
    step_name: str | None = None  # the step function of its frames
    step_id: int | None = None  # its index in STEPS, when it runs in frames
    locals: list[str] = field(default_factory=list)
    slots: dict[str, int] = field(default_factory=dict)
    nonnull: set[str] = field(default_factory=set)  # locals that never hold none
    hidden: dict[int, int] = field(default_factory=dict)  # id(loop) -> its first hidden slot
    hidden_doc: list[str] = field(default_factory=list)  # what the hidden slots hold
    size: int = 0  # slots of its frames


def blocks_of(stmt: ast.Stmt) -> Iterator[ast.Block]:
    """The statement blocks directly inside a statement."""
    if isinstance(stmt, ast.If):
        for _, block in stmt.branches:
            yield block
        if stmt.otherwise is not None:
            yield stmt.otherwise
    elif isinstance(stmt, (ast.For, ast.Repeat, ast.While)):
        yield stmt.body
    elif isinstance(stmt, ast.Menu):
        for option in stmt.options:
            yield option.body


def statements(body: ast.Block) -> Iterator[ast.Stmt]:
    """Every statement of a body, nested ones included, in source order."""
    for stmt in body.body:
        yield stmt
        for block in blocks_of(stmt):
            yield from statements(block)


def bound_names(body: ast.Block) -> list[str]:
    """Names a body binds as locals (let, roll, for, choose), in first-occurrence order."""
    names: list[str] = []
    for stmt in statements(body):
        name = None
        if isinstance(stmt, (ast.Let, ast.Roll)):
            name = stmt.name.name
        elif isinstance(stmt, (ast.For, ast.Choose, ast.PickRandom)):
            name = stmt.var.name
        elif isinstance(stmt, ast.RollDice):
            names += [n.name for n in stmt.names if n.name not in names]
        if name is not None and name not in names:
            names.append(name)
    return names


def nonnull_names(body: ast.Block, params: set[str]) -> set[str]:
    """Locals that can never hold none: loop and choice variables, rolls, trusted params."""
    safe = set(params)
    unsafe: set[str] = set()
    for stmt in statements(body):
        if isinstance(stmt, ast.Roll):
            safe.add(stmt.name.name)
        elif isinstance(stmt, ast.RollDice):
            safe.update(n.name for n in stmt.names)
        elif isinstance(stmt, (ast.For, ast.Choose, ast.PickRandom)):
            safe.add(stmt.var.name)
        elif isinstance(stmt, ast.Let):
            unsafe.add(stmt.name.name)
        elif isinstance(stmt, (ast.SetStmt, ast.AddStmt, ast.RemoveStmt)) and stmt.target.args is None:
            unsafe.add(stmt.target.name.name)
    return safe - unsafe


class Suspension:
    """Which procedures, events, triggers and signals may stop for a decision."""

    def __init__(self, model: Model):
        self.model = model
        self.procedures = {name: False for name in model.procedures}
        self.events = {i: False for i, e in enumerate(model.entities) if e.events}
        self.actions = {i: False for i, e in enumerate(model.entities) if e.actions}
        self.triggers: dict[tuple[str, int], bool] = {}
        self.signal_triggers: dict[str, list[tuple[str, int]]] = {}
        for effect in model.effects.values():
            for i, trigger in enumerate(effect.triggers):
                self.triggers[(effect.name.name, i)] = False
                self.signal_triggers.setdefault(trigger.signal.name, []).append((effect.name.name, i))
        self._solve()

    def _solve(self) -> None:
        changed = True
        while changed:
            changed = False
            for name, decl in self.model.procedures.items():
                changed |= self._mark(self.procedures, name, decl.body)
            for index in self.events:
                changed |= self._mark(self.events, index, self.model.event_of(index).body)
            for index in self.actions:
                changed |= self._mark(self.actions, index, self.model.action_of(index).body)
            for effect in self.model.effects.values():
                for i, trigger in enumerate(effect.triggers):
                    changed |= self._mark(self.triggers, (effect.name.name, i), trigger.body)

    def _mark(self, table: dict, key, body: ast.Block) -> bool:
        if table[key] or not self.block(body):
            return False
        table[key] = True
        return True

    @property
    def any_event(self) -> bool:
        return any(self.events.values())

    @property
    def any_action(self) -> bool:
        return any(self.actions.values())

    def signal(self, name: str) -> bool:
        return any(self.triggers[t] for t in self.signal_triggers.get(name, ()))

    def block(self, body: ast.Block) -> bool:
        return any(self.stmt(s) for s in body.body)

    def stmt(self, stmt: ast.Stmt) -> bool:
        if isinstance(stmt, (ast.Choose, ast.Menu)):
            return True
        if isinstance(stmt, ast.CallStmt):
            return self.procedures.get(stmt.name.name, False)
        if isinstance(stmt, (ast.Let, ast.SetStmt, ast.Return)) and isinstance(stmt.value, ast.CallExpr):
            return self.procedures.get(stmt.value.name, False)  # a procedure's value (checks/returns.py)
        if isinstance(stmt, ast.Resolve):
            return self.any_action if stmt.action else self.any_event
        if isinstance(stmt, ast.Emit):
            return self.signal(stmt.signal.name)
        return any(self.block(b) for b in blocks_of(stmt))


def may_grow(model: Model, expr: ast.Expr) -> bool:
    """Whether a whole number `expr` gives may lie past the language's bound although every
    value it reads lies within it: it does arithmetic, or calls a define or quantity (which may).
    Only such values are bound-checked where a rule keeps them (rulespec.runtime.values.bounded); a
    literal, a read, a count or a comparison never needs it, so the hot paths pay nothing."""
    for node in expr.walk():
        if isinstance(node, (ast.BinOp, ast.Negate, ast.SumOf, ast.Extreme)):
            return True
        if isinstance(node, ast.CallExpr) and (node.name in model.defines or node.name in model.quantities
                                               or node.name == "abs"):
            return True
    return False
