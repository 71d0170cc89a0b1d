"""Expressions on a state, without a game running: names, builtins, collections, operators.

What the checks evaluate on the initial state (asserts, tallies) and the
interpreter's evaluator builds on (compiler/backends/evaluate.py adds what only a game
in play asks: `allowed`, `active`, assignments, option ids). It sits below both,
so the checks use no back end. It stays whole: one handler per expression node, the
exhaustive visitor the code generator's expr.py mirrors.

Each expression node is turned once into a closure `(state, env) -> value` (its
children's closures and its names looked up when it is built), kept by the node,
so a visit calls what was built instead of asking the node's kind and its names
again. To teach it a new kind of node, either
  - add a plain handler `(state, env, node) -> value` to `self._eval` (it reads its
    children through `self.value`): nothing else is needed; or, where it is hot,
  - add a builder `node -> closure` to `self._builders` (built once; children by
    `self.closure(child)`; a closure that can fail on the spec's values catches
    RULE_FAILURES and raises `rule_error_of(err, its location)`, as `_plain` does).
One home per kind: a kind has a builder or a plain handler, not both."""

from __future__ import annotations

import operator
from typing import Any, Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.locations import location
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.meta import GameMeta
from rulespec.compiler.frontend.errors import InternalError
from rulespec.runtime.state import State, known_in, knows
from rulespec.runtime.values import (INT_HIGH, INT_LOW, RULE_FAILURES, attr_of, bounded, collection_of, deciding_of, end_reason_of, extreme_of,
                            in_zone, int_range, is_zone, losers_of, opponent_of, owner_of, reachable,
                            rule_error_of, union_of, unknown_function, unknown_name, winner_of, zone_slot,
                            zone_value)

Closure = Callable[[State, dict], Any]

ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod,
}
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


class Constants:
    """Evaluates expression nodes against a State and a local environment."""

    def __init__(self, model: Model, meta: GameMeta):
        self.model = model
        self.meta = meta
        self.players = len(model.players)
        self.seats_param = meta.seats_param  # "" when every declared player plays
        self.region_sets = {r: frozenset(s) for r, s in model.region_members.items()}
        self.kind_sets = {k: frozenset(m) for k, m in model.kind_members.items()}
        self.effect_decls = list(model.effects.values())  # by effect index
        from rulespec.compiler.frontend.labels import player_labels  # the checks' scope walk imports this module
        self.player_label_reads = player_labels(model).attributes
        # The cards' `while in` abilities: (effect index, instance, zone slots), in entity order.
        self.abilities = [(model.effect_index[name], entity, slots)
                          for name, entity, slots in model.abilities]
        self.modifiers: dict[str, list[tuple[int, ast.Modifier]]] = {}
        for index, decl in enumerate(self.effect_decls):
            for mod in decl.modifiers:
                self.modifiers.setdefault(mod.quantity.name, []).append((index, mod))
        # Plain handlers: evaluated at every visit (kinds seldom met, and new ones).
        self._eval: dict[type, Callable[[State, dict, Any], Any]] = {
            ast.Allowed: _in_play, ast.Active: _in_play,  # the interpreter's Evaluator answers them
            ast.Reachable: self._reachable,
        }
        # Builders: a node -> its closure, once.
        self._builders: dict[type, Callable[[Any], Closure]] = {
            ast.IntLit: _literal, ast.StrLit: _literal, ast.BoolLit: _literal, ast.NoneLit: _literal,
            ast.NameRef: self._build_name, ast.CallExpr: self._build_call, ast.Attr: self._build_attr,
            ast.AttrAt: self._build_attr_at,
            ast.Not: self._build_not, ast.Negate: self._build_negate,
            ast.BinOp: self._build_binop, ast.BoolOp: self._build_boolop, ast.Compare: self._build_compare,
            ast.Member: self._build_member, ast.Cond: self._build_cond, ast.Quantifier: self._build_quantifier,
            ast.SumOf: self._build_sum, ast.Extreme: self._build_extreme, ast.Range: self._build_range_value,
            ast.ListOf: self._build_range_value,
        }
        self._closures: dict[int, Closure] = {}      # by id() of the node ...
        self._collections: dict[int, Closure] = {}   # ... read as a collection ...
        self._zones: dict[int, Closure] = {}         # ... or as a zone's slot
        self._kept: list[ast.Node] = []  # the nodes those ids name, kept alive so no id is reused

    # ------------------------------------------------------------ entry points
    def value(self, state: State, env: dict, node: ast.Expr) -> Any:
        run = self._closures.get(id(node))
        if run is None:
            run = self.closure(node)
        return run(state, env)

    def closure(self, node: ast.Expr) -> Closure:
        """The node's closure, built on first use."""
        run = self._closures.get(id(node))
        if run is not None:
            return run
        build = self._builders.get(type(node))
        if build is not None:
            run = build(node)
        else:
            plain = self._eval.get(type(node))
            if plain is None:
                raise InternalError(f"{type(self).__name__} does not handle {type(node).__name__} at {node.span}")
            run = _plain(plain, node)
        self._kept.append(node)
        self._closures[id(node)] = run
        return run

    def handles(self, node_class: type) -> bool:
        return node_class in self._builders or node_class in self._eval

    def truth(self, state: State, env: dict, node: ast.Expr) -> bool:
        return bool(self.value(state, env, node))

    def members(self, state: State, env: dict, var: str, source: ast.Expr,
                where: ast.Expr | None) -> list:
        """The items of a collection that satisfy `where` (bound as `var`)."""
        items = self.collection(state, env, source)
        if where is None:
            return list(items)
        return _kept(state, env, var, items, self.closure(where))

    def collection(self, state: State, env: dict, node: ast.Expr) -> list:
        run = self._collections.get(id(node))
        if run is None:
            run = self._collection_closure(node)
        return run(state, env)

    def zone(self, state: State, env: dict, node: ast.Expr) -> int:
        """The slot of a zone written directly (deck, hand(p)) or held in a local."""
        run = self._zones.get(id(node))
        if run is None:
            run = self._zone_closure(node)
        return run(state, env)

    def kept_args(self, state: State, env: dict, nodes: tuple[ast.Expr, ...]) -> list:
        """Arguments a routine or an effect keeps, each within the bound of whole numbers."""
        out = [self.value(state, env, a) for a in nodes]
        for value, node in zip(out, nodes):
            if type(value) is int and not INT_LOW <= value <= INT_HIGH:
                bounded(value, location(node.span))
        return out

    def seat_count(self, state: State) -> int:
        """The players taking part: the seat param's value, else every declared player."""
        return state.params[self.seats_param] if self.seats_param else self.players

    # ------------------------------------------------------------ collections and zones
    # Read where a statement or an expression needs them: a failure is named by that
    # statement or expression, so these closures catch nothing.
    def _collection_closure(self, node: ast.Expr) -> Closure:
        run = self._build_collection(node)
        self._kept.append(node)
        self._collections[id(node)] = run
        return run

    def _build_collection(self, node: ast.Expr) -> Closure:
        model, regions, at = self.model, self.model.region_members, location(node.span)
        if isinstance(node, ast.Range):
            low, high = self.closure(node.low), self.closure(node.high)
            return lambda s, e: list(int_range(low(s, e), high(s, e), at))
        if isinstance(node, ast.Reachable):
            return lambda s, e: self._reachable(s, e, node)
        if isinstance(node, ast.BinOp) and node.op == "+":  # a union: checks/typecheck.py
            left, right = self._collection_closure(node.left), self._collection_closure(node.right)
            return lambda s, e: union_of(left(s, e), right(s, e))
        if isinstance(node, ast.ListOf):  # [a, b, c]: the items' values, in order
            items = [self.closure(item) for item in node.items]
            return lambda s, e: [item(s, e) for item in items]
        held = self.closure(node)
        if isinstance(node, ast.NameRef):
            name, fixed = node.name, None
            if name in model.kinds:
                members = model.kind_members.get(name, [])
                fixed = lambda s, e: members  # noqa: E731
            elif name in model.enums:
                values = [v.name for v in model.enums[name].values]
                fixed = lambda s, e: values  # noqa: E731
            elif name == "players":
                fixed = lambda s, e: list(range(self.seat_count(s)))  # noqa: E731
            elif name == "losers":
                fixed = lambda s, e: losers_of(s)  # noqa: E731
            elif name in model.zones:
                slot = model.zones[name].slot
                fixed = lambda s, e: list(s.zones[slot])  # noqa: E731
            if fixed is not None:
                return lambda s, e: collection_of(s, e[name], regions, at) if name in e else fixed(s, e)
        if isinstance(node, ast.CallExpr):
            if node.name in model.zones:
                slot_of = self._zone_closure(node)
                return lambda s, e: list(s.zones[slot_of(s, e)])
            if node.name == "adjacent":
                space, adjacency = self.closure(node.args[0]), model.adjacency
                return lambda s, e: adjacency[space(s, e)]
            if node.name == "known_in" and node.name not in model.defines:  # a fresh list
                return held
        return lambda s, e: collection_of(s, held(s, e), regions, at)

    def _zone_closure(self, node: ast.Expr) -> Closure:
        run = self._build_zone(node)
        self._kept.append(node)
        self._zones[id(node)] = run
        return run

    def _build_zone(self, node: ast.Expr) -> Closure:
        zones, at = self.model.zones, location(node.span)
        if isinstance(node, ast.NameRef) and node.name in zones:
            name, slot = node.name, zones[node.name].slot
            return lambda s, e: zone_slot(e[name], at) if name in e else slot
        if isinstance(node, ast.CallExpr) and node.name in zones:
            first, player = zones[node.name].slot, self.closure(node.args[0])
            return lambda s, e: first + player(s, e)
        held = self.closure(node)
        return lambda s, e: zone_slot(held(s, e), at)

    # ------------------------------------------------------------ names and calls
    def _global_names(self) -> dict[str, tuple[bool, Any]]:
        """A track, var, param, player, entity, enum value, zone, or what the game's result
        says (the first of these wins): (True, its value) for a constant, else (False, a
        reader of the state)."""
        model, out = self.model, {}
        for name, track in model.tracks.items():
            out.setdefault(name, (False, lambda s, slot=track.slot: s.tracks[slot]))
        for name, index in model.var_index.items():
            out.setdefault(name, (False, lambda s, i=index: s.vars[i]))
        for name in model.params:
            out.setdefault(name, (False, lambda s, n=name: s.params[n]))
        for name in model.players:
            out.setdefault(name, (True, model.players.index(name)))
        for name, index in model.entity_index.items():
            out.setdefault(name, (True, index))
        for name in model.enum_of_value:
            out.setdefault(name, (True, name))
        for name, zone in model.zones.items():
            out.setdefault(name, (True, zone_value(zone.slot)))
        for name, read in (("game_over", lambda s: s.result is not None), ("winner", winner_of),
                           ("losers", losers_of), ("deciding", deciding_of), ("end_reason", end_reason_of)):
            out.setdefault(name, (False, read))
        return out

    _globals: dict[str, tuple[bool, Any]] | None = None

    def _local(self, node: ast.Expr) -> str | None:
        """The name `node` reads if it is a local that no global could stand for: a parent may
        read it as env[name] itself, a call fewer (unbound, that is a KeyError the parent names
        as a failure at its own location; the checks see that every local is bound)."""
        if type(node) is not ast.NameRef:
            return None
        if self._globals is None:
            self._globals = self._global_names()
        return None if node.name in self._globals else node.name

    def _build_name(self, node: ast.NameRef) -> Closure:
        """A local first (the env), else the global the name says."""
        if self._globals is None:
            self._globals = self._global_names()
        name, found = node.name, self._globals.get(node.name)
        if found is None:
            at = node.span

            def local_or_unknown(s, e):
                try:
                    return e[name]
                except KeyError:
                    unknown_name(name, location(at))
            return local_or_unknown
        constant, it = found
        if constant:
            return lambda s, e: e[name] if name in e else it
        return lambda s, e: e[name] if name in e else it(s)

    def _build_call(self, node: ast.CallExpr) -> Closure:
        """A zone builtin, a define, a quantity, a counter, a track or a zone of a player, a
        builtin (the first of these wins)."""
        model, name, span = self.model, node.name, node.span
        if name in ZONE_BUILTINS:
            slot_of = self._zone_closure(node.args[0])
            if name == "size":
                return _guarded(lambda s, e: len(s.zones[slot_of(s, e)]), span)
            return _guarded(lambda s, e: _top(s.zones[slot_of(s, e)]), span)
        args = tuple(self.closure(a) for a in node.args)
        first = args[0] if args else None
        if name in model.defines:
            decl = model.defines[name]
            return self._routine(tuple(p.name for p in decl.params), args, decl.body, node.args)
        if name in model.quantities:
            return self._build_quantity(name, args, span, node.args)
        if name in model.counters and name in model.flags:  # kept as 0 or 1, read as a truth
            cell_of = self._counter_closure(node, args, span, model.counters[name])
            return lambda s, e: cell_of(s, e) == 1
        if name in model.counters:
            return self._counter_closure(node, args, span, model.counters[name])
        if name in model.track_values:
            return _guarded(lambda s, e: s.tracks[self.track_slot(name, [a(s, e) for a in args])], span)
        if name in model.tracks and name in model.flags:  # kept as 0 or 1, read as a truth
            slot = model.tracks[name].slot
            return _guarded(lambda s, e: s.tracks[slot + first(s, e)] == 1, span)
        if name in model.tracks:
            slot = model.tracks[name].slot
            return _guarded(lambda s, e: s.tracks[slot + first(s, e)], span)
        if name in model.zones:
            slot = model.zones[name].slot
            return _guarded(lambda s, e: zone_value(slot + first(s, e)), span)
        if name in model.instances:  # card(p): p's instance of the card
            instances = model.instances[name]
            return _guarded(lambda s, e: instances[first(s, e)], span)
        builtin = _BUILTINS.get(name)
        if builtin is None:
            return lambda s, e: unknown_function(name, location(span))
        if name == "opponent" and len(args) == 1:
            def opponent(s, e):
                try:
                    return opponent_of(first(s, e), self.seat_count(s))
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return opponent
        if name in ("min", "max") and len(args) == 2:
            pick, second = (min if name == "min" else max), args[1]
            return _guarded(lambda s, e: pick([first(s, e), second(s, e)]), span)
        return _guarded(lambda s, e: builtin(self, s, node, [a(s, e) for a in args]), span)

    def track_slot(self, name: str, args: list) -> int:
        """The slot of a track's cell: `t(p)` per player; on an enum `t(p, value)` or `t(value)`."""
        track, model = self.model.tracks[name], self.model
        if name not in model.track_values:
            return track.slot + (args[0] if track.per_player else 0)
        width = len(model.players) if track.per_player else 1
        return (track.slot + model.track_values[name].index(args[-1]) * width
                + (args[0] if track.per_player else 0))

    def _routine(self, names: tuple[str, ...], args: tuple[Closure, ...], body_expr: ast.Expr,
                 arg_nodes: tuple[ast.Expr, ...]) -> Closure:
        """A call of a define: its body on a fresh env of its parameters (the body's closure
        built on its first call, so a define may call itself)."""
        if len(names) != len(args):  # zip() cuts the longer short, as the plain path did
            names, args = names[:len(args)], args[:len(names)]
        run = None  # the body's failures are named by the body

        def body(s, env):
            nonlocal run
            if run is None:
                run = self.closure(body_expr)
            return run(s, env)
        if len(args) == 1:
            (name,), (arg,), local = names, args, self._local(arg_nodes[0])
            if local is not None:
                return lambda s, e: (run or body)(s, {name: e[local]})
            return lambda s, e: (run or body)(s, {name: arg(s, e)})
        locals_ = tuple(self._local(a) for a in arg_nodes)
        if len(args) == 2:
            (one, two), (arg1, arg2) = names, args
            if None not in locals_:  # f(x, y) of two locals: the commonest call
                (local1, local2) = locals_
                return lambda s, e: (run or body)(s, {one: e[local1], two: e[local2]})
            return lambda s, e: (run or body)(s, {one: arg1(s, e), two: arg2(s, e)})
        if args and None not in locals_:
            read = operator.itemgetter(*locals_)
            return lambda s, e: (run or body)(s, dict(zip(names, read(e))))
        return lambda s, e: (run or body)(s, dict(zip(names, [a(s, e) for a in args])))

    def in_force(self, state: State, abilities: list | None = None) -> list:
        """Every effect in force, in the order it applies: first the abilities of the cards
        lying where they hold (their one argument: the card), then the active effects.
        `abilities`: only these may matter to the caller (abilities_of), not all. A blanked
        card's abilities do nothing (`rulespec worth --as blank`), as in the generated code."""
        abilities = self.abilities if abilities is None else abilities
        if not abilities:
            return state.effects
        location, blanked = state.location, state.blanked
        held = [(effect, [card], None) for effect, card, slots in abilities
                if location[card] in slots and card not in blanked]
        return held + state.effects

    def abilities_of(self, effects) -> list:
        """The abilities of those `effects` (a caller that heeds only them gives in_force these)."""
        return [ability for ability in self.abilities if ability[0] in effects]

    def _build_quantity(self, name: str, args: tuple[Closure, ...], span: ast.Span,
                        arg_nodes: tuple[ast.Expr, ...]) -> Closure:
        decl = self.model.quantities[name]
        names = tuple(p.name for p in decl.params)
        mods = self.modifiers.get(name)
        if not mods:
            return self._routine(names, args, decl.body, arg_nodes)
        value, body, closure = self.value, decl.body, self.closure
        by_effect: dict[int, list[tuple]] | None = None  # built on the first call: a modifier may call this quantity
        abilities: list = []  # the abilities among them

        def modifiers() -> dict[int, list[tuple]]:
            """effect index -> (its params, the names, the modifier's when, delta, low, high)."""
            out: dict[int, list[tuple]] = {}
            for index, mod in mods:
                out.setdefault(index, []).append(
                    (tuple(p.name for p in self.effect_decls[index].params), tuple(n.name for n in mod.names),
                     *(None if part is None else closure(part) for part in (mod.when, mod.delta, mod.low, mod.high))))
            return out

        def modified(s, e):
            """The body's value, then each modifier of an active effect in the order the
            effects were activated."""
            nonlocal by_effect, abilities
            given = [a(s, e) for a in args]
            total = value(s, dict(zip(names, given)), body)
            if by_effect is None:
                by_effect = modifiers()
                abilities = self.abilities_of(by_effect)
            effects = self.in_force(s, abilities)
            if not effects:
                return total
            for effect, params, _ in effects:
                if effect not in by_effect:  # most active effects modify something else
                    continue
                for effect_params, mod_names, when, delta, low, high in by_effect[effect]:
                    env = dict(zip(effect_params, params))
                    env.update(zip(mod_names, given))
                    if when is not None and not when(s, env):
                        continue
                    total += delta(s, env)
                    if low is not None:
                        total = max(total, low(s, env))
                    if high is not None:
                        total = min(total, high(s, env))
            return total
        return _guarded(modified, span)

    def _build_attr(self, node: ast.Attr) -> Closure:
        entity, name, at = self.closure(node.obj), node.name, location(node.span)
        if name == "label":
            labels = self.meta.player_labels if node in self.player_label_reads else self.meta.entity_labels
            return _guarded(lambda s, e: attr_of(labels, entity(s, e), name, at), node.span)
        if name in self.model.enum_attrs:  # data on an enum's values: a table by value
            table, span = self.model.enum_attrs[name], node.span
            return _guarded(lambda s, e: attr_of(table, entity(s, e), name, at), span)
        attrs, span, local = self.model.entity_attrs, node.span, self._local(node.obj)
        if local is not None:
            def attribute_of_local(s, e):
                try:
                    held = e[local]
                    return (attrs[held] if held is not None else attr_of(attrs, held, name, at))[name]
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return attribute_of_local

        def attribute(s, e):
            try:
                return attr_of(attrs, entity(s, e), name, at)[name]
            except RULE_FAILURES as err:
                raise _failure(err, span) from None
        return attribute

    def _build_attr_at(self, node: ast.AttrAt) -> Closure:
        entity, key, name, at = self.closure(node.obj), self.closure(node.key), node.name, location(node.span)
        attrs, span = self.model.entity_attrs, node.span
        enum = self.model.attr_enums.get(name)
        places = {v.name: i for i, v in enumerate(self.model.enums[enum].values)} if enum else {}

        def attribute_at(s, e):
            try:
                return attr_of(attrs, entity(s, e), name, at)[name][places[key(s, e)]]
            except RULE_FAILURES as err:
                raise _failure(err, span) from None
        return attribute_at

    # ------------------------------------------------------------ operators
    def _build_not(self, node: ast.Not) -> Closure:
        operand = self.closure(node.operand)
        return lambda s, e: not operand(s, e)

    def _build_negate(self, node: ast.Negate) -> Closure:
        operand = self.closure(node.operand)
        return _guarded(lambda s, e: -operand(s, e), node.span)

    def _build_binop(self, node: ast.BinOp) -> Closure:
        left, right, apply, span = self.closure(node.left), self.closure(node.right), ARITHMETIC[node.op], node.span

        def arithmetic(s, e):
            try:
                return apply(left(s, e), right(s, e))
            except RULE_FAILURES as err:
                raise _failure(err, span) from None
        return arithmetic

    def _build_boolop(self, node: ast.BoolOp) -> Closure:
        operands = tuple(self.closure(o) for o in node.operands)
        if len(operands) == 2:
            one, two = operands
            if node.op == "and":
                return lambda s, e: bool(one(s, e)) and bool(two(s, e))
            return lambda s, e: bool(one(s, e)) or bool(two(s, e))
        if node.op == "and":
            def every(s, e):
                for operand in operands:
                    if not operand(s, e):
                        return False
                return True
            return every

        def some(s, e):
            for operand in operands:
                if operand(s, e):
                    return True
            return False
        return some

    def _build_compare(self, node: ast.Compare) -> Closure:
        left, right, apply, span = self.closure(node.left), self.closure(node.right), COMPARISONS[node.op], node.span
        local = self._local(node.left)
        if isinstance(node.right, _LITERALS):  # the commonest shapes: `x == 3`, `f(x) >= 2`
            fixed = node.right.value
            if local is not None:
                def compare_local_with_literal(s, e):
                    try:
                        return apply(e[local], fixed)
                    except RULE_FAILURES as err:
                        raise _failure(err, span) from None
                return compare_local_with_literal

            def compare_with_literal(s, e):
                try:
                    return apply(left(s, e), fixed)
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return compare_with_literal
        if local is not None:
            def compare_local(s, e):
                try:
                    return apply(e[local], right(s, e))
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return compare_local

        def compare(s, e):
            try:
                return apply(left(s, e), right(s, e))
            except RULE_FAILURES as err:
                raise _failure(err, span) from None
        return compare

    def _build_member(self, node: ast.Member) -> Closure:
        """`x in C`: a zone by the card's location, a kind or region by a set, anything else
        by its collection."""
        item, coll, negated, model = self.closure(node.element), node.collection, node.negated, self.model
        at, span, element = location(coll.span), node.span, self._local(node.element)
        if isinstance(coll, ast.CallExpr) and coll.name in model.zones:  # `c in hand(p)`
            slot_of, first, owner = self._zone_closure(coll), model.zones[coll.name].slot, self._local(coll.args[0])

            def member_of_zone(s, e):
                try:
                    x = e[element] if element is not None else item(s, e)
                    return in_zone(s, x, first + e[owner] if owner is not None else slot_of(s, e)) != negated
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return member_of_zone
        listed = self._collection_closure(coll)
        if not isinstance(coll, ast.NameRef):
            return _guarded(lambda s, e: (item(s, e) in listed(s, e)) != negated, span)
        # what the name says when no local binds it: a zone, a kind or a region's set, or else
        # its collection
        name, regions = coll.name, model.region_members
        slot = model.zones[name].slot if name in model.zones else None
        members = (None if slot is not None else self.kind_sets[name] if name in self.kind_sets
                   else self.region_sets.get(model.entity_index.get(name)))

        region_sets = self.region_sets

        def member(s, e):
            try:
                x = e[element] if element is not None else item(s, e)
                if name not in e:
                    if slot is not None:
                        found = in_zone(s, x, slot)
                    elif members is not None:
                        found = x in members
                    else:
                        found = x in listed(s, e)
                elif is_zone(e[name]):
                    found = in_zone(s, x, zone_slot(e[name], at))
                elif e[name] in region_sets:  # a region held in a local: by its set
                    found = x in region_sets[e[name]]
                else:
                    found = x in collection_of(s, e[name], regions, at)
                return found != negated
            except RULE_FAILURES as err:
                raise _failure(err, span) from None
        return member

    def _build_cond(self, node: ast.Cond) -> Closure:
        test, then, otherwise = self.closure(node.test), self.closure(node.then), self.closure(node.otherwise)
        return lambda s, e: then(s, e) if test(s, e) else otherwise(s, e)

    def _counter_closure(self, node: ast.CallExpr, args: list, span, counter) -> Closure:
        """A counter's cell: `name(p, x)` or `name(x)` (a flag's too: 0 or 1)."""
        first = args[0]
        slot, cell = counter.slot, args[-1]
        owner, place = self._local(node.args[0]), self._local(node.args[-1])
        if counter.per_player and owner is not None and place is not None:
            def per_player_counter_of_locals(s, e):
                try:
                    return s.counters[slot + e[owner]][e[place]]
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return per_player_counter_of_locals
        if counter.per_player:
            def per_player_counter(s, e):
                try:
                    return s.counters[slot + first(s, e)][cell(s, e)]
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return per_player_counter

        def counter_cell(s, e):
            try:
                return s.counters[slot][cell(s, e)]
            except RULE_FAILURES as err:
                raise _failure(err, span) from None
        return counter_cell

    def _build_range_value(self, node: ast.Range | ast.ListOf) -> Closure:
        return _guarded(self._collection_closure(node), node.span)

    def _build_quantifier(self, node: ast.Quantifier) -> Closure:
        items, var, span = self._collection_closure(node.source), node.var.name, node.span
        if node.where is None:
            if node.kind == "count":
                return _guarded(lambda s, e: len(items(s, e)), span)
            if node.kind == "any":
                return _guarded(lambda s, e: bool(items(s, e)), span)
            return _guarded(lambda s, e: items(s, e) is None or True, span)  # read, for its failures
        where = self.closure(node.where)
        if node.kind == "count":
            def count(s, e):
                try:
                    return len(_kept(s, e, var, items(s, e), where))
                except RULE_FAILURES as err:
                    raise _failure(err, span) from None
            return count
        # any stops at the first member that fits, all at the first that does not
        # (as the generated any()/all() do): the rest need not be evaluated.
        wanted = node.kind == "any"

        def quantifier(s, e):
            saved = e.get(var, _MISSING)
            try:
                for x in items(s, e):
                    e[var] = x
                    if bool(where(s, e)) == wanted:
                        return wanted
                return not wanted
            except RULE_FAILURES as err:
                raise _failure(err, span) from None
            finally:
                if saved is _MISSING:
                    e.pop(var, None)
                else:
                    e[var] = saved
        return quantifier

    def _build_sum(self, node: ast.SumOf) -> Closure:
        items, var, value = self._collection_closure(node.source), node.var.name, self.closure(node.value)
        where = None if node.where is None else self.closure(node.where)

        def total(s, e):
            chosen = items(s, e)
            chosen = list(chosen) if where is None else _kept(s, e, var, chosen, where)
            saved = e.get(var, _MISSING)
            out = 0
            for x in chosen:
                e[var] = x
                out += value(s, e)
            if saved is _MISSING:
                e.pop(var, None)
            else:
                e[var] = saved
            return out
        return _guarded(total, node.span)

    def _build_extreme(self, node: ast.Extreme) -> Closure:
        """max / min of the values (the default read after them, as Python's default= is);
        argmax / argmin: the member, the first on a tie (extreme_of, as generated code)."""
        items, var, value = self._collection_closure(node.source), node.var.name, self.closure(node.value)
        where = None if node.where is None else self.closure(node.where)
        default = None if node.default is None else self.closure(node.default)
        pick, member, highest = (max if node.highest else min), node.member, node.highest

        def extreme(s, e):
            chosen = items(s, e)
            chosen = list(chosen) if where is None else _kept(s, e, var, chosen, where)
            saved = e.get(var, _MISSING)
            pairs = []
            for x in chosen:
                e[var] = x
                pairs.append((value(s, e), x))
            if saved is _MISSING:
                e.pop(var, None)
            else:
                e[var] = saved
            if member:
                return extreme_of(pairs, highest)
            return pick([v for v, _ in pairs], default=default(s, e))
        return _guarded(extreme, node.span)

    def _reachable(self, state, env, node: ast.Reachable) -> list:
        start = self.value(state, env, node.start)
        where, var = node.where, node.var.name
        if where is None:
            return reachable(start, self.model.adjacency, lambda space: True, location(node.span))

        def passable(space: int) -> bool:
            return self.truth(state, {**env, var: space}, where)
        return reachable(start, self.model.adjacency, passable, location(node.span))


_MISSING = object()
_LITERALS = (ast.IntLit, ast.StrLit, ast.BoolLit)


def _literal(node) -> Closure:
    value = node.value if not isinstance(node, ast.NoneLit) else None
    return lambda s, e: value


def _top(cards: list):
    return cards[-1] if cards else None


def _plain(handler: Callable[[State, dict, Any], Any], node: ast.Expr) -> Closure:
    """A plain handler as a closure: the node's kind has no builder."""
    def run(s, e):
        try:
            return handler(s, e, node)
        except RULE_FAILURES as err:  # none where a value is needed, a divisor of 0
            raise rule_error_of(err, location(node.span)) from None
    return run


def _failure(err: Exception, span: ast.Span) -> Exception:
    return rule_error_of(err, location(span))


def _guarded(run: Closure, span: ast.Span) -> Closure:
    """`run`, its failures on the spec's values (none where a value is needed, a divisor of 0)
    named by the node at `span`."""
    def guarded(s, e):
        try:
            return run(s, e)
        except RULE_FAILURES as err:
            raise rule_error_of(err, location(span)) from None
    return guarded


def _kept(state: State, env: dict, var: str, items, where: Closure) -> list:
    """The items for which `where` holds with `var` bound to each."""
    kept = []
    saved = env.get(var, _MISSING)
    for item in items:
        env[var] = item
        if where(state, env):
            kept.append(item)
    if saved is _MISSING:
        env.pop(var, None)
    else:
        env[var] = saved
    return kept


def _in_play(state: State, env: dict, node: ast.Expr) -> Any:
    word = "allowed" if isinstance(node, ast.Allowed) else "active"
    raise ValueError(f"'{word}' asks about a game in play, not the spec's data on the initial state")

ZONE_BUILTINS = ("size", "top")
_BUILTINS: dict[str, Callable[[Constants, State, ast.CallExpr, list], Any]] = {
    "opponent": lambda ev, s, n, a: opponent_of(a[0], ev.seat_count(s)),
    "adjacent": lambda ev, s, n, a: ev.model.adjacency[a[0]],
    "min": lambda ev, s, n, a: min(a),
    "max": lambda ev, s, n, a: max(a),
    "abs": lambda ev, s, n, a: abs(a[0]),
    "has_event": lambda ev, s, n, a: bool(ev.model.entities[a[0]].events),
    "owner": lambda ev, s, n, a: owner_of(ev.model.entity_owner, a[0], location(n.span)),
    "event_allowed": lambda ev, s, n, a: _event_allowed(ev, s, a[0], a[1]),
    "has_action": lambda ev, s, n, a: bool(ev.model.entities[a[0]].actions),
    "action_allowed": lambda ev, s, n, a: _action_allowed(ev, s, a[0], a[1]),
    "known": lambda ev, s, n, a: knows(s, a[0], a[1]),
    "known_in": lambda ev, s, n, a: known_in(s, a[0], zone_slot(a[1], location(n.args[1].span))),
}


def _action_allowed(ev: Constants, state: State, card: int, player: int) -> bool:
    """The card has an action and its `when` holds for the player (false without an action)."""
    action = ev.model.action_of(card)
    if action is None:
        return False
    return action.when is None or ev.truth(state, {"you": player, "this": card}, action.when)


def _event_allowed(ev: Constants, state: State, card: int, player: int) -> bool:
    event = ev.model.event_of(card)
    if event is None or event.when is None:
        return True
    return ev.truth(state, {"you": player, "this": card}, event.when)
