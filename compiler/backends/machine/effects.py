"""Lasting effects natively (issue 41, before stage 4 makes them structs): the effects in play
are the Objects' `effects` list (templates/objects.pxi.j2), each [effect index, arguments,
lifetime or None] exactly as runtime/state.py's `state.effects`, the arguments in the native form
(none NONE, an enum value its place). templates/effects.pxi.j2 holds `activate`, `cancel`,
`expire` and `is_active` over it, the conversion from and to the generated package's form
(`effects_in`, `effects_out`), and the quantities.

A quantity is written from the same view as the generated package's (codegen/view.py
`ViewBuilder.quantity`, given the native emitter and in-force test): its base, what each card's
ability in force adds, then what each effect in play adds. An effect's arguments are read into
C locals (`EFFECT_ARG`) before its pieces run, so the loops inside them take them as any local.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.codegen.view import AbilityGroup, EffectGroup, ViewBuilder
from rulespec.compiler.backends.machine.allowed import native_in_force
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.frontend import ast

# An effect's argument as its pieces read it natively: a C local (loops.py passes `c_` locals on);
# no spec name mangles to it (a spec's names never begin with `_`).
EFFECT_ARG = "c__arg{}"
KIND = "quantity"  # how a refusal names a quantity


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
