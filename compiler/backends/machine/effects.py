"""Lasting effects natively (issue 41, stage 4): the effects in play are machine data, a
fixed-capacity C array of `Effect` structs in the Machine beside the state (templates/
defines.pyx.j2: a copy of the Machine copies them), each the effect's index, its arguments as
int64_t in the native form (none NONE, an enum value its place, a truth 0 or 1) with their count,
and its lifetime as its place among the spec's lifetimes (NONE: until cancelled), in the order
runtime/state.py's `state.effects` keeps them. templates/effects.pxi.j2 holds `activate`,
`cancel`, `expire` and `is_active` over it, the conversion from and to the generated package's
form at the boundary (`effects_in`, `effects_out`), and the quantities.

How many may be in play has no bound in the spec (an `activate` in a loop, or one without a
lifetime, adds one each time it runs), so the room is a stated constant, EFFECT_ROOM: one past it
is a RuleError naming it. An effect's arguments have the room of the most any effect declares.

A quantity is written from the same view as the generated package's (codegen/view.py
`ViewBuilder.quantity`, given the native emitter and in-force test): its base, what each card's
ability in force adds, then what each effect in play adds. An effect's arguments are read into
C locals (`EFFECT_ARG`) before its pieces run, so the loops inside them take them as any local.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rulespec.compiler.backends.codegen.code import P_ATOM, Code
from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.codegen.view import AbilityGroup, EffectGroup, ViewBuilder
from rulespec.compiler.backends.machine.allowed import native_in_force
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.frontend import ast

# An effect's argument as its pieces read it natively: a C local (loops.py passes `c_` locals on);
# no spec name mangles to it (a spec's names never begin with `_`).
EFFECT_ARG = "c__arg{}"
KIND = "quantity"  # how a refusal names a quantity
# The lasting effects one position holds in play at most: the five games' random play holds 11 at
# most (the largest game), a lifetime's end or a cancel drops them; one more is a RuleError.
EFFECT_ROOM = 64


@dataclass(frozen=True)
class EffectsInPlay:
    """The shape of the Machine's effects in play: their room, the arguments each has room
    for (the most an effect declares, at least one), and the spec's lifetimes in order (an
    effect's lifetime is held as its place among them)."""

    room: int
    arity: int
    lifetimes: tuple[str, ...]


def effects_in_play(model) -> EffectsInPlay:
    arity = max([len(e.params) for e in model.effects.values()] + [1])
    return EffectsInPlay(EFFECT_ROOM, arity, tuple(model.lifetimes))


class NativeView(ViewBuilder):
    """The generated package's views, an effect's arguments read from C locals."""

    effect_arg = EFFECT_ARG


@dataclass
class NativeQuantity:
    """A compiled quantity: its C function, typed parameters and pieces."""

    name: str  # the spec's
    function: str  # the generated package's name for it
    params: list[tuple[str, str, str]]  # (C name, C type, the checker's base type)
    base: str
    effects: list[EffectGroup]
    abilities: list[AbilityGroup]
    spec: str
    width: int  # the most arguments of an effect it reads: the C locals c__arg0...

    @property
    def call(self) -> str:
        args = "".join(f", index_of({n})" if c == "int" else f", {n}" for n, c, _ in self.params)
        return f"{self.function}(&position.run{args})"

    @property
    def arg_locals(self) -> list[str]:
        return [EFFECT_ARG.format(i) for i in range(self.width)]


def active_test(ex, index: int, node: ast.Active) -> Code:
    """`active e(args)` as a test of the Machine's effects in play (effects.pxi.j2 is_active): the
    arguments given (their count, -1 for none: any instance) padded to the room, no list made."""
    arity = effects_in_play(ex.model).arity
    given = [] if node.args is None else ex.args(node.args)
    if len(given) > arity:
        raise Unsupported(f"asks about {len(given)} arguments of an effect, which has room for {arity}", node)
    count = -1 if node.args is None else len(given)
    padded = ", ".join(given + ["0"] * (arity - len(given)))
    return Code(f"{ex.ref('is_active')}(state, {index}, {count}, {padded})", P_ATOM, True)


def arg_kinds(compiler) -> dict[int, tuple[str, ...] | None]:
    """Each effect's arguments as effects_out turns them back into the generated package's values:
    "int", "bool", "value" (a player or entity: NONE is None), or an enum's name; None for an
    effect with an argument that has no machine form."""
    kinds: dict[int, tuple[str, ...] | None] = {}
    for index, effect in enumerate(compiler.model.effects.values()):
        types = compiler.types.param_types(effect.params)
        found = []
        for p in effect.params:
            typ = types[p.name]
            if typ.base in ("player", "entity"):
                found.append("value")
            elif typ.base == "enum":
                found.append(typ.name)
            elif typ.base in ("int", "bool") and not typ.optional:
                found.append(typ.base)
            else:
                found = None
                break
        kinds[index] = None if found is None else tuple(found)
    return kinds


def group_width(compiler, groups: list[EffectGroup]) -> int:  # DefineCompiler.effect_width
    """The most arguments among the groups' effects; Unsupported for an effect whose arguments
    have no machine form."""
    effects = list(compiler.model.effects.values())
    width = 0
    for group in groups:
        effect = effects[group.index]
        if compiler.effect_kinds[group.index] is None:
            raise Unsupported(f"reads effect {group.name}, whose arguments have no machine form"
                              " (a number, a truth, a player, an entity or an enum value)", effect)
        width = max(width, len(effect.params))
    return width


def read_by(model, name: str) -> list[ast.Expr]:
    """What quantity `name` evaluates: its base and the pieces of every modifier of it."""
    found = [model.quantities[name].body]
    for effect in model.effects.values():
        for mod in effect.modifiers:
            if mod.quantity.name == name:
                found += [e for e in (mod.delta, mod.low, mod.high, mod.when) if e is not None]
    return found


def write_quantity(compiler, name: str, emitter: Callable) -> NativeQuantity:
    """A quantity in the Cython dialect, `compiler` a DefineCompiler (defines.py); Unsupported,
    with the node and the reason in words, when the dialect cannot write it."""
    model, gen = compiler.model, compiler.gen
    decl = model.quantities[name]
    types = compiler.types.param_types(decl.params)
    params = [(mangle("local", p.name), compiler.c_type(types[p.name], f"takes `{p.name}` as", optional=True),
               types[p.name].base) for p in decl.params]
    before = set(gen.uses["rules"])
    gen.uses["rules"] = set()
    try:  # what its pieces name: each a rule compiled natively or a helper the module has
        made = NativeView(model, gen).quantity(decl, emitter, native_in_force)
        compiler.check_names(gen.uses["rules"], read_by(model, name))
    finally:
        gen.uses["rules"] |= before
    return NativeQuantity(name, made["name"], params, made["base"], made["effects"], made["abilities"],
                          gen.where(decl), group_width(compiler, made["effects"]))
