"""Expression evaluation for the interpreter: what a game in play asks besides the data
(compiler/frontend/constant.py): `allowed`, `active`, assignments to places, option ids."""

from __future__ import annotations

from typing import Any, Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.constant import Constants
from rulespec.compiler.frontend.locations import location
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.meta import GameMeta
from rulespec.runtime.state import State, is_active
from rulespec.runtime.values import INT_HIGH, INT_LOW, bounded, option_names


class Evaluator(Constants):
    """Evaluates expression nodes against a State and a local environment, in a game in play."""

    def __init__(self, model: Model, meta: GameMeta):
        super().__init__(model, meta)
        del self._eval[ast.Allowed], self._eval[ast.Active]  # answered here, in play
        self._builders[ast.Allowed] = self._build_allowed
        self._builders[ast.Active] = self._build_active
        # Per action, what may forbid it: the constraints' patterns, then per effect its own.
        self._forbidden_by: dict[str, list[tuple[tuple[str, ...], ast.Expr, str]]] = {}
        for constraint in model.constraints:
            for names, when in _patterns(constraint.forbids):
                self._forbidden_by.setdefault(names[0], []).append(
                    (names[1:], when, constraint.name.name))
        self._forbid_runs: dict[str, tuple[list, dict, list]] = {}  # by action, as _forbidding gives them
        self._effect_forbids: dict[str, dict[int, list]] = {}
        for index, decl in enumerate(self.effect_decls):
            params = tuple(p.name for p in decl.params)
            for names, when in _patterns(decl.forbids):
                self._effect_forbids.setdefault(names[0], {}).setdefault(index, []).append(
                    (params, names[1:], when))

    def assign(self, state: State, env: dict, ref: ast.Ref, update: Callable[[Any], Any]) -> None:
        """set/add/remove: a local, var or counter within the bound of whole numbers, a track
        clamped to its own."""
        name, model = ref.name.name, self.model
        if ref.args is None and name in env:
            env[name] = _bounded(update(env[name]), ref)
        elif name in model.var_index:
            i = model.var_index[name]
            state.vars[i] = _bounded(update(state.vars[i]), ref)
        elif name in model.tracks:
            slot = self.track_slot(name, [self.value(state, env, a) for a in ref.args or ()])
            if name in model.flags:  # a truth, kept as 0 or 1
                state.tracks[slot] = 1 if update(state.tracks[slot]) else 0
                return
            low, high = model.track_bounds_at(name, slot)
            state.tracks[slot] = max(low, min(high, update(state.tracks[slot])))
        else:
            counter = model.counters[name]
            args = [self.value(state, env, a) for a in ref.args]
            slot = counter.slot + (args[0] if counter.per_player else 0)
            cells = state.counters[slot]
            if name in model.flags:  # a truth, kept as 0 or 1
                cells[args[-1]] = 1 if update(cells[args[-1]]) else 0
            else:
                cells[args[-1]] = _bounded(max(0, update(cells[args[-1]])), ref)

    # ------------------------------------------------------------ option ids
    def option_ids(self, kind: str, values: list) -> tuple[list[str], list[str]]:
        """The ids and labels of a choice's options, named as `Choose.option_kind` says."""
        meta = self.meta
        if kind == "int":
            return option_names(values)
        if kind == "player":
            return option_names(values, meta.players, meta.player_labels)
        return option_names(values, meta.entity_ids, meta.entity_labels)

    def _build_allowed(self, node: ast.Allowed):
        action, args = node.action.name, tuple(self.closure(a) for a in node.args)
        return lambda s, e: self.allowed(s, action, [a(s, e) for a in args])

    def allowed(self, state: State, action: str, args: list) -> bool:
        """No constraint, and no active effect, forbids `action` with these arguments: the
        constraints first, then the effects in the order they were activated."""
        found = self._forbid_runs.get(action)
        if found is None:
            found = self._forbid_runs[action] = self._forbidding(action)
        constraints, by_effect, abilities = found
        for names, when, despite in constraints:
            if when(state, dict(zip(names, args))) and not (despite and _despite(state, despite, args)):
                return False
        if by_effect:
            for effect, params, _ in self.in_force(state, abilities):
                if effect not in by_effect:
                    continue
                for names, given, when in by_effect[effect]:
                    env = dict(zip(names, params))
                    env.update(zip(given, args))
                    if when(state, env):
                        return False
        return True

    def _forbidding(self, action: str) -> tuple[list, dict, list]:
        """What may forbid `action`, with the tests as closures (built on its first ask): the
        constraints, the effects', and the abilities among those effects."""
        closure = self.closure
        by_effect = {effect: [(names, given, closure(when)) for names, given, when in found]
                     for effect, found in self._effect_forbids.get(action, {}).items()}
        allows = self.model.allows
        return ([(names, closure(when), [(card, slots, given, closure(test)) for card, slots, given, test
                                         in allows.get((action, constraint), ())])
                 for names, when, constraint in self._forbidden_by.get(action, ())],
                by_effect, self.abilities_of(by_effect))

    def _build_active(self, node: ast.Active):
        effect = self.model.effect_index[node.effect.name]
        if node.args is None:
            return lambda s, e: is_active(s, effect, None)
        args = tuple(self.closure(a) for a in node.args)
        return lambda s, e: is_active(s, effect, [a(s, e) for a in args])


def _despite(state: State, despite: list, args: list) -> bool:
    """A card's `allow ... despite` the constraint holds: the card lies where it holds, is not
    blanked, and its condition is true for these arguments."""
    location = state.location
    for card, slots, given, test in despite:
        if location[card] in slots and card not in state.blanked:
            env = dict(zip(given, args))
            env["this"] = card
            if test(state, env):
                return True
    return False


def _patterns(forbids) -> list[tuple[tuple[str, ...], ast.Expr]]:
    """Each pattern of a list of `forbid`s as (action, its names...) and the test, in order."""
    return [((pattern.action.name, *(n.name for n in pattern.names)), forbid.when)
            for forbid in forbids for pattern in forbid.patterns]


def _bounded(value: Any, ref: ast.Ref) -> Any:
    """bounded(value, the ref's location), the location worked out only for a value past it."""
    if type(value) is int and not INT_LOW <= value <= INT_HIGH:
        bounded(value, location(ref.span))
    return value
