"""Expression evaluation for the interpreter: what a game in play asks besides the data
(compiler/constant.py): `allowed`, `active`, assignments to places, option ids."""

from __future__ import annotations

from typing import Any, Callable

from . import ast
from .constant import Constants
from .locations import location
from .model import Model
from runtime.meta import GameMeta
from runtime.state import State, is_active
from runtime.values import bounded, option_names


class Evaluator(Constants):
    """Evaluates expression nodes against a State and a local environment, in a game in play."""

    def __init__(self, model: Model, meta: GameMeta):
        super().__init__(model, meta)
        self._eval[ast.Allowed] = self._allowed_expr
        self._eval[ast.Active] = self._active

    def assign(self, state: State, env: dict, ref: ast.Ref, update: Callable[[Any], Any]) -> None:
        """set/add/remove: a local, var or counter within the bound of whole numbers, a track
        clamped to its own."""
        name, model, at = ref.name.name, self.model, location(ref.span)
        if ref.args is None and name in env:
            env[name] = bounded(update(env[name]), at)
        elif name in model.var_index:
            i = model.var_index[name]
            state.vars[i] = bounded(update(state.vars[i]), at)
        elif name in model.tracks:
            track = model.tracks[name]
            slot = track.slot + (self.value(state, env, ref.args[0]) if track.per_player else 0)
            state.tracks[slot] = max(track.low, min(track.high, update(state.tracks[slot])))
        else:
            counter = model.counters[name]
            args = [self.value(state, env, a) for a in ref.args]
            slot = counter.slot + (args[0] if counter.per_player else 0)
            cells = state.counters[slot]
            cells[args[-1]] = bounded(max(0, update(cells[args[-1]])), at)

    # ------------------------------------------------------------ option ids
    def option_ids(self, kind: str, values: list) -> tuple[list[str], list[str]]:
        """The ids and labels of a choice's options, named as `Choose.option_kind` says."""
        meta = self.meta
        if kind == "int":
            return option_names(values)
        if kind == "player":
            return option_names(values, meta.players, meta.player_labels)
        return option_names(values, meta.entity_ids, meta.entity_labels)

    def _allowed_expr(self, state, env, node: ast.Allowed):
        return self.allowed(state, node.action.name, [self.value(state, env, a) for a in node.args])

    def allowed(self, state: State, action: str, args: list) -> bool:
        for constraint in self.model.constraints:
            if self._forbids(state, constraint.forbids, action, args, {}):
                return False
        for effect, params, _ in state.effects:
            decl = self.effect_decls[effect]
            if decl.forbids:
                env = {p.name: v for p, v in zip(decl.params, params)}
                if self._forbids(state, decl.forbids, action, args, env):
                    return False
        return True

    def _forbids(self, state, forbids, action, args, base: dict) -> bool:
        for forbid in forbids:
            for pattern in forbid.patterns:
                if pattern.action.name != action:
                    continue
                env = dict(base)
                env.update({n.name: v for n, v in zip(pattern.names, args)})
                if self.value(state, env, forbid.when):
                    return True
        return False

    def _active(self, state, env, node: ast.Active):
        args = None if node.args is None else [self.value(state, env, a) for a in node.args]
        return is_active(state, self.model.effect_index[node.effect.name], args)
