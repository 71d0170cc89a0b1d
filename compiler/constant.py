"""Expressions on a state, without a game running: names, builtins, collections, operators.

What the checks evaluate on the initial state (asserts, tallies) and the
interpreter's evaluator builds on (compiler/evaluate.py adds what only a game
in play asks: `allowed`, `active`, assignments, option ids). It sits below both,
so the checks use no back end."""

from __future__ import annotations

from typing import Any, Callable

from . import ast
from .locations import location
from .model import Model
from runtime.meta import GameMeta
from .errors import InternalError
from runtime.state import State
from runtime.values import (RULE_FAILURES, attr_of, bounded, collection_of, deciding_of, end_reason_of,
                            in_zone, int_range, is_zone, losers_of, opponent_of, reachable,
                            rule_error_of, unknown_function, unknown_name, winner_of, zone_slot, zone_value)

ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a // b, "%": lambda a, b: a % b,
}
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
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
        from .labels import player_labels  # the checks' scope walk imports this module
        self.player_label_reads = player_labels(model).attributes
        self.modifiers: dict[str, list[tuple[int, ast.Modifier]]] = {}
        for index, decl in enumerate(self.effect_decls):
            for mod in decl.modifiers:
                self.modifiers.setdefault(mod.quantity.name, []).append((index, mod))
        self._eval: dict[type, Callable[[State, dict, Any], Any]] = {
            ast.IntLit: lambda s, e, n: n.value, ast.StrLit: lambda s, e, n: n.value,
            ast.BoolLit: lambda s, e, n: n.value, ast.NoneLit: lambda s, e, n: None,
            ast.NameRef: self._name, ast.CallExpr: self._call, ast.Attr: self._attr,
            ast.Not: lambda s, e, n: not self.value(s, e, n.operand),
            ast.Negate: lambda s, e, n: -self.value(s, e, n.operand),
            ast.BinOp: self._binop, ast.BoolOp: self._boolop, ast.Compare: self._compare,
            ast.Member: self._member, ast.Cond: self._cond, ast.Quantifier: self._quantifier,
            ast.SumOf: self._sum, ast.Range: lambda s, e, n: self.collection(s, e, n),
            ast.Allowed: _in_play, ast.Active: _in_play,  # the interpreter's Evaluator answers them
            ast.Reachable: self._reachable,
        }

    # ------------------------------------------------------------ entry points
    def value(self, state: State, env: dict, node: ast.Expr) -> Any:
        try:
            evaluate = self._eval[type(node)]
        except KeyError:
            raise InternalError(f"{type(self).__name__} does not handle {type(node).__name__} at {node.span}") from None
        try:
            return evaluate(state, env, node)
        except RULE_FAILURES as err:  # none where a value is needed, a divisor of 0
            raise rule_error_of(err, location(node.span)) from None

    def handles(self, node_class: type) -> bool:
        return node_class in self._eval

    def truth(self, state: State, env: dict, node: ast.Expr) -> bool:
        return bool(self.value(state, env, node))

    def members(self, state: State, env: dict, var: str, source: ast.Expr,
                where: ast.Expr | None) -> list:
        """The items of a collection that satisfy `where` (bound as `var`)."""
        items = self.collection(state, env, source)
        if where is None:
            return list(items)
        kept = []
        saved = env.get(var, _MISSING)
        for item in items:
            env[var] = item
            if self.value(state, env, where):
                kept.append(item)
        if saved is _MISSING:
            env.pop(var, None)
        else:
            env[var] = saved
        return kept

    def collection(self, state: State, env: dict, node: ast.Expr) -> list:
        model = self.model
        if isinstance(node, ast.Range):
            return list(int_range(self.value(state, env, node.low), self.value(state, env, node.high),
                                  location(node.span)))
        if isinstance(node, ast.Reachable):
            return self._reachable(state, env, node)
        if isinstance(node, ast.NameRef) and node.name not in env:
            if node.name in model.kinds:
                return model.kind_members.get(node.name, [])
            if node.name == "players":
                return list(range(self.seat_count(state)))
            if node.name == "losers":
                return losers_of(state)
            if node.name in model.zones:
                return list(state.zones[self.zone(state, env, node)])
        if isinstance(node, ast.CallExpr):
            if node.name in model.zones:
                return list(state.zones[self.zone(state, env, node)])
            if node.name == "adjacent":
                return model.adjacency[self.value(state, env, node.args[0])]
        return collection_of(state, self.value(state, env, node), model.region_members, location(node.span))

    def zone(self, state: State, env: dict, node: ast.Expr) -> int:
        """The slot of a zone written directly (deck, hand(p)) or held in a local."""
        if isinstance(node, ast.NameRef) and node.name not in env and node.name in self.model.zones:
            return self.model.zones[node.name].slot
        if isinstance(node, ast.CallExpr) and node.name in self.model.zones:
            zone = self.model.zones[node.name]
            return zone.slot + self.value(state, env, node.args[0])
        return zone_slot(self.value(state, env, node), location(node.span))

    def kept_args(self, state: State, env: dict, nodes: tuple[ast.Expr, ...]) -> list:
        """Arguments a routine or an effect keeps, each within the bound of whole numbers."""
        return [bounded(self.value(state, env, a), location(a.span)) for a in nodes]

    # ------------------------------------------------------------ names and calls
    # How each name no local binds reads, and what each called name does with its
    # arguments: worked out on first use (a table, not a chain of `in` tests per visit).
    _globals: dict[str, Callable[[State], Any]] | None = None
    _calls: dict[str, Callable[[State, ast.CallExpr, list], Any]] | None = None

    def _global_names(self) -> dict[str, Callable[[State], Any]]:
        """A track, var, param, player, entity, enum value, zone, or what the game's result
        says (the first of these wins)."""
        model, out = self.model, {}
        for name, track in model.tracks.items():
            out.setdefault(name, lambda s, slot=track.slot: s.tracks[slot])
        for name, index in model.var_index.items():
            out.setdefault(name, lambda s, i=index: s.vars[i])
        for name in model.params:
            out.setdefault(name, lambda s, n=name: s.params[n])
        for name in model.players:
            out.setdefault(name, lambda s, v=model.players.index(name): v)
        for name, index in model.entity_index.items():
            out.setdefault(name, lambda s, v=index: v)
        for name in model.enum_of_value:
            out.setdefault(name, lambda s, v=name: v)
        for name, zone in model.zones.items():
            out.setdefault(name, lambda s, v=zone_value(zone.slot): v)
        for name, read in (("game_over", lambda s: s.result is not None), ("winner", winner_of),
                           ("losers", losers_of), ("deciding", deciding_of), ("end_reason", end_reason_of)):
            out.setdefault(name, read)
        return out

    def _name(self, state: State, env: dict, node: ast.NameRef) -> Any:
        name = node.name
        if name in env:
            return env[name]
        if self._globals is None:
            self._globals = self._global_names()
        read = self._globals.get(name)
        if read is not None:
            return read(state)
        unknown_name(name, location(node.span))

    def _functions(self) -> dict[str, Callable[[State, ast.CallExpr, list], Any]]:
        """A define, a quantity, a counter, a track or a zone of a player, a builtin (the
        first of these wins)."""
        model, out = self.model, {}
        for name, decl in model.defines.items():
            names, body = tuple(p.name for p in decl.params), decl.body
            out.setdefault(name, lambda s, n, a, names=names, body=body: self.value(s, dict(zip(names, a)), body))
        for name in model.quantities:
            out.setdefault(name, lambda s, n, a, name=name: self._quantity(s, name, a))
        for name, counter in model.counters.items():
            if counter.per_player:
                out.setdefault(name, lambda s, n, a, slot=counter.slot: s.counters[slot + a[0]][a[-1]])
            else:
                out.setdefault(name, lambda s, n, a, slot=counter.slot: s.counters[slot][a[-1]])
        for name, track in model.tracks.items():
            out.setdefault(name, lambda s, n, a, slot=track.slot: s.tracks[slot + a[0]])
        for name, zone in model.zones.items():
            out.setdefault(name, lambda s, n, a, slot=zone.slot: zone_value(slot + a[0]))
        for name, builtin in _BUILTINS.items():
            out.setdefault(name, lambda s, n, a, builtin=builtin: builtin(self, s, n, a))
        return out

    def _call(self, state: State, env: dict, node: ast.CallExpr) -> Any:
        name = node.name
        if name in ZONE_BUILTINS:
            cards = state.zones[self.zone(state, env, node.args[0])]
            if name == "size":
                return len(cards)
            return cards[-1] if cards else None
        value = self.value
        args = [value(state, env, a) for a in node.args]
        if self._calls is None:
            self._calls = self._functions()
        call = self._calls.get(name)
        if call is not None:
            return call(state, node, args)
        unknown_function(name, location(node.span))

    def _quantity(self, state: State, name: str, args: list) -> Any:
        decl = self.model.quantities[name]
        value = self.value(state, {p.name: v for p, v in zip(decl.params, args)}, decl.body)
        mods = self.modifiers.get(name)
        if not mods:
            return value
        for effect, params, _ in state.effects:
            for index, mod in mods:
                if index != effect:
                    continue
                env = {p.name: v for p, v in zip(self.effect_decls[index].params, params)}
                env.update({n.name: v for n, v in zip(mod.names, args)})
                if mod.when is not None and not self.value(state, env, mod.when):
                    continue
                value += self.value(state, env, mod.delta)
                if mod.low is not None:
                    value = max(value, self.value(state, env, mod.low))
                if mod.high is not None:
                    value = min(value, self.value(state, env, mod.high))
        return value

    def _attr(self, state: State, env: dict, node: ast.Attr) -> Any:
        entity = self.value(state, env, node.obj)
        if node.name == "label":
            labels = self.meta.player_labels if node in self.player_label_reads else self.meta.entity_labels
            return attr_of(labels, entity, node.name, location(node.span))
        return attr_of(self.model.entity_attrs, entity, node.name, location(node.span))[node.name]

    # ------------------------------------------------------------ operators
    def _binop(self, state, env, node: ast.BinOp):
        return ARITHMETIC[node.op](self.value(state, env, node.left), self.value(state, env, node.right))

    def _boolop(self, state, env, node: ast.BoolOp):
        value = self.value
        if node.op == "and":
            for operand in node.operands:
                if not value(state, env, operand):
                    return False
            return True
        for operand in node.operands:
            if value(state, env, operand):
                return True
        return False

    def _compare(self, state, env, node: ast.Compare):
        return COMPARISONS[node.op](self.value(state, env, node.left), self.value(state, env, node.right))

    def seat_count(self, state: State) -> int:
        """The players taking part: the seat param's value, else every declared player."""
        return state.params[self.seats_param] if self.seats_param else self.players

    def _member(self, state, env, node: ast.Member):
        item = self.value(state, env, node.element)
        coll = node.collection
        if self._is_zone(env, coll):
            found = in_zone(state, item, self.zone(state, env, coll))
        else:
            found = item in self._membership(state, env, coll)
        return found != node.negated

    def _is_zone(self, env: dict, node: ast.Expr) -> bool:
        if isinstance(node, (ast.NameRef, ast.CallExpr)) and node.name in self.model.zones:
            return not (isinstance(node, ast.NameRef) and node.name in env)
        if isinstance(node, ast.NameRef) and node.name in env:
            return is_zone(env[node.name])
        return False

    def _membership(self, state, env, coll: ast.Expr):
        if isinstance(coll, ast.NameRef) and coll.name not in env and coll.name in self.kind_sets:
            return self.kind_sets[coll.name]
        if isinstance(coll, ast.NameRef) and coll.name not in env and coll.name in self.model.entity_index:
            region = self.model.entity_index[coll.name]
            if region in self.region_sets:
                return self.region_sets[region]
        return self.collection(state, env, coll)

    def _cond(self, state, env, node: ast.Cond):
        branch = node.then if self.value(state, env, node.test) else node.otherwise
        return self.value(state, env, branch)

    def _quantifier(self, state, env, node: ast.Quantifier):
        if node.kind == "count":
            return len(self.members(state, env, node.var.name, node.source, node.where))
        items = self.collection(state, env, node.source)
        if node.where is None:
            return bool(items) if node.kind == "any" else True
        # any stops at the first member that fits, all at the first that does not
        # (as the generated any()/all() do): the rest need not be evaluated.
        wanted, var = node.kind == "any", node.var.name
        saved = env.get(var, _MISSING)
        try:
            for item in items:
                env[var] = item
                if bool(self.value(state, env, node.where)) == wanted:
                    return wanted
            return not wanted
        finally:
            if saved is _MISSING:
                env.pop(var, None)
            else:
                env[var] = saved

    def _sum(self, state, env, node: ast.SumOf):
        var = node.var.name
        saved = env.get(var, _MISSING)
        total = 0
        for item in self.members(state, env, var, node.source, node.where):
            env[var] = item
            total += self.value(state, env, node.value)
        if saved is _MISSING:
            env.pop(var, None)
        else:
            env[var] = saved
        return total

    def _reachable(self, state, env, node: ast.Reachable) -> list:
        start = self.value(state, env, node.start)
        where, var = node.where, node.var.name
        if where is None:
            return reachable(start, self.model.adjacency, lambda space: True, location(node.span))

        def passable(space: int) -> bool:
            return self.truth(state, {**env, var: space}, where)
        return reachable(start, self.model.adjacency, passable, location(node.span))


_MISSING = object()


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
    "event_allowed": lambda ev, s, n, a: _event_allowed(ev, s, a[0], a[1]),
}


def _event_allowed(ev: Constants, state: State, card: int, player: int) -> bool:
    event = ev.model.event_of(card)
    if event is None or event.when is None:
        return True
    return ev.truth(state, {"you": player, "this": card}, event.when)
