"""Programs that never end: recursion the spec shows, and `while` loops nothing in them can stop.

What this pass cannot see (events that resolve each other through card values,
loops whose end depends on the dice) both back ends stop alike at run time
(runtime/state.py: MAX_ROUNDS, MAX_NESTING).
"""

from __future__ import annotations

from typing import Iterable, Iterator

import networkx as nx

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.reuse import found_under

Key = tuple[str, str]  # ("procedure" | "define" | "quantity" | "allowed" | "signal", name)
ANY = ("any",)  # an effect this pass does not follow (an event resolved by value)
ZONES, EFFECTS, RESULT, PENDING = ("zones",), ("effects",), ("result",), ("pending",)
CALLS = (ast.CallStmt, ast.CallExpr, ast.Allowed, ast.Choose, ast.Emit)
WRITERS = (ast.SetStmt, ast.AddStmt, ast.RemoveStmt, ast.Let, ast.Roll, ast.For, ast.Choose, ast.RollDice,
           ast.PickRandom,
           ast.MoveCard, ast.MoveAll, ast.Shuffle, ast.Reveal, ast.Show, ast.CopyCounter,
           ast.ClearCounter,
           ast.Activate, ast.Cancel, ast.Expire, ast.Resolve, ast.Menu, ast.CallStmt, ast.Emit,
           ast.Return)
VALUE_TAKERS = (ast.Let, ast.SetStmt, ast.Return)  # may take a procedure's value (checks/returns.py)
WORDS = {"procedure": "procedure", "define": "define", "quantity": "quantity",
         "allowed": "the constraints on", "signal": "the triggers of"}


def check_termination(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Recursion among procedures, defines, quantities, constraints and triggers; endless loops."""
    rules = RuleGraph(model)
    return rules.recursion() + rules.endless_loops()


class RuleGraph:
    """What each named rule runs (the call graph) and what it reads and writes."""

    def __init__(self, model: Model):
        self.model = model
        self.bodies: dict[Key, list[ast.Node]] = {}
        for name, decl in model.procedures.items():
            self.bodies[("procedure", name)] = [decl.body]
        for name, decl in model.defines.items():
            self.bodies[("define", name)] = [decl.body]
        for name, decl in model.quantities.items():
            self.bodies[("quantity", name)] = [decl.body]
        for effect in model.effects.values():
            for mod in effect.modifiers:
                parts = [p for p in (mod.delta, mod.low, mod.high, mod.when) if p is not None]
                self.bodies.setdefault(("quantity", mod.quantity.name), []).extend(parts)
            for trigger in effect.triggers:
                parts = [p for p in (trigger.when, trigger.body) if p is not None]
                self.bodies.setdefault(("signal", trigger.signal.name), []).extend(parts)
        for forbid in self._forbids():
            for pattern in forbid.patterns:
                self.bodies.setdefault(("allowed", pattern.action.name), []).append(forbid.when)
        for (action, _), found in model.allows.items():  # a card's `allow ... despite`
            self.bodies.setdefault(("allowed", action), []).extend(test for *_, test in found)
        self._writes: dict[Key, frozenset] = {}
        self._reads: dict[Key, frozenset] = {}
        # A card's `while in` ability holds where the card lies: what it modifies or forbids
        # reads the zones too.
        held = [model.effects[name] for name in model.ability_effects]
        self.zone_quantities = {m.quantity.name for e in held for m in e.modifiers}
        self.zone_actions = {p.action.name for e in held for f in e.forbids for p in f.patterns}
        self.zone_actions |= {action for action, _ in model.allows}

    def _forbids(self) -> Iterator[ast.Forbid]:
        for constraint in self.model.constraints:
            yield from constraint.forbids
        for effect in self.model.effects.values():
            yield from effect.forbids

    # ------------------------------------------------------------ recursion
    def recursion(self) -> list[Diagnostic]:
        graph = nx.DiGraph()
        for key, parts in self.bodies.items():
            graph.add_node(key)
            for part in parts:
                for target, node in self.calls(part):
                    if target in self.bodies and not graph.has_edge(key, target):
                        graph.add_edge(key, target, at=node)
        problems = []
        for group in nx.strongly_connected_components(graph):
            start = min(group, key=lambda k: self._first_span(k))
            cycle = self._cycle(graph, start, group)
            if cycle is None:
                continue
            path = " -> ".join(f"'{k[1]}'" for k in cycle)
            word = WORDS[start[0]]
            problems.append(Diagnostic(
                f"{word} '{start[1]}' runs itself again ({path}): recursion has no end a"
                f" decision could stop; write it as a loop", graph.edges[cycle[0], cycle[1]]["at"].span))
        return problems

    def _first_span(self, key: Key) -> tuple:
        span = self.bodies[key][0].span
        return (span.file, span.line, span.column)

    @staticmethod
    def _cycle(graph: nx.DiGraph, start: Key, group: set) -> list[Key] | None:
        if graph.has_edge(start, start):
            return [start, start]
        if len(group) < 2:
            return None
        for succ in sorted(graph.successors(start)):
            if succ in group:
                return [start] + nx.shortest_path(graph.subgraph(group), succ, start)
        return None

    def calls(self, node: ast.Node) -> Iterator[tuple[Key, ast.Node]]:
        """The named rules a piece of code runs, with the node that runs each."""
        model = self.model
        for n in found_under(node, CALLS):
            if isinstance(n, ast.CallStmt):
                yield ("procedure", n.name.name), n
            elif isinstance(n, ast.CallExpr):
                if n.name in model.procedures:
                    yield ("procedure", n.name), n
                elif n.name in model.defines:
                    yield ("define", n.name), n
                elif n.name in model.quantities:
                    yield ("quantity", n.name), n
            elif isinstance(n, ast.Allowed):
                yield ("allowed", n.action.name), n
            elif isinstance(n, ast.Choose) and n.action is not None:
                yield ("allowed", n.action.name.name), n.action
            elif isinstance(n, ast.Emit):
                yield ("signal", n.signal.name), n

    # ------------------------------------------------------------ endless loops
    def endless_loops(self) -> list[Diagnostic]:
        problems = []
        roots = list(self.model.spec.decls()) + list(self.model.tests)
        for loop in (n for root in roots for n in found_under(root, (ast.While,))):
            if isinstance(loop.test, ast.BoolLit) and not loop.test.value:
                continue
            if _leaves(loop.body) or self.may_end_game(loop.body):
                continue
            writes = self.writes(loop.body)
            if ANY in writes:
                continue
            reads = self.reads(loop.test)
            if not reads:
                problems.append(Diagnostic(
                    "this 'while' condition depends on nothing that can change: the loop runs"
                    " never or forever (add a 'break' or test something the loop changes)",
                    loop.test.span))
            elif not reads & writes:
                names = ", ".join(sorted(_shown(a) for a in reads))
                problems.append(Diagnostic(
                    f"nothing in this 'while' loop changes what its condition reads ({names}):"
                    f" once it holds, it holds forever (change one of them, or 'break')",
                    loop.test.span))
        return problems

    def may_end_game(self, node: ast.Node, seen: frozenset = frozenset()) -> bool:
        for n in found_under(node, (ast.Win, ast.Lose, ast.CallStmt) + VALUE_TAKERS):
            if isinstance(n, (ast.Win, ast.Lose)):
                return True
            called = self._called(n)
            if called is not None:
                key = ("procedure", called)
                if key in self.bodies and key not in seen:
                    if any(self.may_end_game(b, seen | {key}) for b in self.bodies[key]):
                        return True
        return False

    def writes(self, node: ast.Node) -> frozenset:
        """What running `node` may change: names, zones, effects; ANY when not followed."""
        out: set = set()
        for n in found_under(node, WRITERS):
            if isinstance(n, (ast.SetStmt, ast.AddStmt, ast.RemoveStmt)):
                out.add(("name", n.target.name.name))
            elif isinstance(n, (ast.Let, ast.Roll)):
                out.add(("name", n.name.name))
            elif isinstance(n, (ast.For, ast.Choose, ast.PickRandom)):
                out.add(("name", n.var.name))
            elif isinstance(n, ast.RollDice):
                out.update(("name", name.name) for name in n.names)
            elif isinstance(n, (ast.MoveCard, ast.MoveAll, ast.Shuffle, ast.Reveal)):
                out.add(ZONES)
            elif isinstance(n, (ast.CopyCounter,)):
                out.add(("name", n.dest.name))
            elif isinstance(n, ast.ClearCounter):
                out.add(("name", n.counter.name))
            elif isinstance(n, (ast.Activate, ast.Cancel, ast.Expire)):
                out.add(EFFECTS)
            elif isinstance(n, ast.Resolve):
                out.add(ANY)
            if isinstance(n, (ast.Choose, ast.Menu)):
                out.add(PENDING)
            if isinstance(n, ast.Emit):
                out |= self._rule_writes(("signal", n.signal.name))
            elif self._called(n) is not None:
                out |= self._rule_writes(("procedure", self._called(n)))
        return frozenset(out)

    def _called(self, stmt: ast.Node) -> str | None:
        """The procedure a statement calls: as a statement, or for the value it gives."""
        if isinstance(stmt, ast.CallStmt):
            return stmt.name.name
        if isinstance(stmt, VALUE_TAKERS) and isinstance(stmt.value, ast.CallExpr) \
                and stmt.value.name in self.model.procedures:
            return stmt.value.name
        return None

    def _rule_writes(self, key: Key) -> frozenset:
        if key not in self._writes:
            self._writes[key] = frozenset({ANY})  # while it is worked out (recursion is reported)
            found: set = set()
            for part in self.bodies.get(key, ()):
                found |= self.writes(part)
            self._writes[key] = frozenset(found)
        return self._writes[key]

    def reads(self, node: ast.Node) -> frozenset:
        """What the value of `node` depends on: names, zones, effects, the result."""
        model, out = self.model, set()
        for n in found_under(node, (ast.NameRef, ast.CallExpr, ast.Active, ast.Allowed)):
            if isinstance(n, ast.NameRef):
                out |= self._name(n.name)
            elif isinstance(n, ast.CallExpr):
                if n.name in model.zones:
                    out.add(ZONES)
                elif n.name in model.defines:
                    out |= self._rule_reads(("define", n.name))
                elif n.name in model.quantities:
                    out |= self._rule_reads(("quantity", n.name)) | {EFFECTS}
                    if n.name in self.zone_quantities:
                        out.add(ZONES)
                elif n.name in model.tracks or n.name in model.counters:
                    out.add(("name", n.name))
            elif isinstance(n, ast.Active):
                out.add(EFFECTS)
            elif isinstance(n, ast.Allowed):
                out |= self._rule_reads(("allowed", n.action.name)) | {EFFECTS}
                if n.action.name in self.zone_actions:
                    out.add(ZONES)
        return frozenset(out)

    def _name(self, name: str) -> set:
        model = self.model
        if name in model.zones:
            return {ZONES}
        if name in ("game_over", "winner", "losers", "end_reason"):
            return {RESULT}
        if name == "deciding":
            return {PENDING}
        if name in model.params or name in model.players or name in model.entity_index:
            return set()
        if name in model.enum_of_value or name in ("players",) or name in model.kinds:
            return set()
        return {("name", name)}

    def _rule_reads(self, key: Key) -> frozenset:
        if key not in self._reads:
            self._reads[key] = frozenset()  # while it is worked out (recursion is reported)
            found: set = set()
            for part in self.bodies.get(key, ()):
                found |= self.reads(part)
            self._reads[key] = frozenset(found)
        return self._reads[key]


def _leaves(body: ast.Block) -> bool:
    """Whether a `break` in the body (not in a loop nested in it) can leave the loop."""
    return any(_breaks(stmt) for stmt in body.body)


def _breaks(stmt: ast.Stmt) -> bool:
    if isinstance(stmt, ast.Break):
        return True
    if isinstance(stmt, (ast.For, ast.Repeat, ast.While)):
        return False
    return any(_breaks(s) for block in _blocks(stmt) for s in block.body)


def _blocks(stmt: ast.Stmt) -> Iterable[ast.Block]:
    if isinstance(stmt, ast.If):
        yield from (block for _, block in stmt.branches)
        if stmt.otherwise is not None:
            yield stmt.otherwise
    elif isinstance(stmt, ast.Menu):
        yield from (option.body for option in stmt.options)


def _shown(atom: tuple) -> str:
    return f"'{atom[1]}'" if atom[0] == "name" else {"zones": "the zones", "effects": "the effects",
                                                      "result": "the result", "pending": "the decision"}[atom[0]]
