"""What every callable takes: defines, quantities, counters, tracks, zones, builtins and the rest."""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.types import CARD, INT, PLAYER, SPACE, ZONE, Type, resolve_type, type_of_ref

BUILTIN_PARAMS: dict[str, tuple[Type, ...]] = {
    "size": (ZONE,), "top": (ZONE,), "opponent": (PLAYER,), "adjacent": (SPACE,),
    "min": (INT, INT), "max": (INT, INT), "abs": (INT,),
    "has_event": (CARD,), "event_allowed": (CARD, PLAYER), "owner": (CARD,),
    "has_action": (CARD,), "action_allowed": (CARD, PLAYER),
    "known": (PLAYER, CARD), "known_in": (PLAYER, ZONE),
}
VARIADIC = ("min", "max")


@dataclass(frozen=True)
class Signature:
    """A callee's word for messages, its parameter types, and whether more may follow."""

    word: str
    params: tuple[Type, ...]
    variadic: bool = False

    def arity(self) -> str:
        n = len(self.params)
        text = f"{n} argument{'s' if n != 1 else ''}"
        return f"at least {text}" if self.variadic else text


def param_types(model: Model, params: tuple[ast.Param, ...]) -> tuple[Type, ...]:
    return tuple(type_of_ref(model, p.type) for p in params)


def call_signature(model: Model, name: str) -> Signature | None:
    """The signature of `name(...)` in an expression, resolved as the evaluator does."""
    if name in ("size", "top"):
        return Signature("builtin", BUILTIN_PARAMS[name])
    for word, table in (("define", model.defines), ("quantity", model.quantities)):
        if name in table:
            return Signature(word, param_types(model, table[name].params))
    procedure = model.procedures.get(name)
    if procedure is not None and procedure.returns is not None:  # taken by let, set or return
        return Signature("procedure", param_types(model, procedure.params))
    if name in model.counters:
        kind = resolve_type(model, model.counter_kinds.get(name, ""))
        per = (PLAYER,) if model.counters[name].per_player else ()
        return Signature("counter", per + (kind,))
    for word, table in (("track", model.tracks), ("zone", model.zones)):
        if name in table:
            per = (PLAYER,) if table[name].per_player else ()
            on = model.track_decls[name].on if word == "track" and name in model.track_decls else None
            return Signature(word, per + ((resolve_type(model, on.name),) if on is not None else ()))
    if name in model.instances:  # a card of a kind `per player`: name(p) is p's instance
        return Signature(model.entities[model.instances[name][0]].kind.name, (PLAYER,))
    if name in BUILTIN_PARAMS:
        return Signature("builtin", BUILTIN_PARAMS[name], name in VARIADIC)
    return None


def decl_signature(word: str, decl: ast.Node | None, model: Model) -> Signature | None:
    """The signature of a procedure, action, signal or effect declaration."""
    if decl is None:
        return None
    return Signature(word, param_types(model, getattr(decl, "params", ())))
