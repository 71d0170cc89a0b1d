"""The native constraints (issue 41, stage 3): each `allowed_<action>` the generated package has,
written from the same forbids (codegen/view.py's ViewBuilder.allowed, the one home of what such a
check tests) by the native emitter, as a typed C function of the game's machine state
(templates/allowed.pxi.j2): the constraints' forbids, each lifted by the cards' `allow ...
despite` where the card lies, and the forbids of cards' abilities in force.

Forbids inside lasting effects are an `effects` group walking the Objects' effects (machine/
effects.py: each effect's arguments read into C locals first). defines.py compiles the checks in
dependency order with the defines (a define may ask whether an action is allowed; a check may
call defines) and keeps the refusals; this module writes one check, or says why it cannot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.codegen.view import AbilityGroup, Check, EffectGroup, forbids_of
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.frontend import ast

KIND = "check of action"  # how a refusal names an allowed check: "check of action `play` ..."


@dataclass
class NativeAllowed:
    """A compiled allowed check: its C function, typed parameters and what it tests."""

    action: str
    function: str  # allowed_<action>, the generated package's name for it
    params: list[tuple[str, str, str]]  # (C name, C type, the checker's base type): v_x0, v_x1, ...
    checks: list[Check]  # the constraints' forbids: `when`, lifted by fields["despite"] if any
    abilities: list[AbilityGroup]  # cards' abilities: their in-force test and their forbids
    spec: str  # where the action is declared
    effects: list[EffectGroup] = field(default_factory=list)  # effects in play: their forbids
    width: int = 0  # the most arguments of an effect it reads: the C locals c__arg0...

    @property
    def name(self) -> str:
        return self.action

    @property
    def call(self) -> str:
        """The C function called from its Python wrapper (templates/allowed.pxi.j2)."""
        args = "".join(f", index_of({n})" if c == "int" else f", {n}" for n, c, _ in self.params)
        return f"bool({self.function}(&position.run{args}))"


def native_in_force(card: str, slots: tuple[int, ...]) -> str:
    """codegen/view.py's in_force_test over the struct: the card lies in one of `slots` and is
    not blanked."""
    if not slots:
        return "False"
    lies = " or ".join(f"in_zone(state, {card}, {slot})" for slot in slots)
    return f"{lies if len(slots) == 1 else f'({lies})'} and not is_blanked(state, {card})"


def anchor(model, action: str) -> ast.Node:
    """Where a check of `action` is named: the action's declaration, else its first forbid."""
    if action in model.actions:
        return model.actions[action]
    forbids = [f for c in model.constraints for f in c.forbids]
    forbids += [f for e in model.effects.values() for f in e.forbids]
    return forbids_of(forbids, action)[0][0]


def read_by(model, action: str) -> list[ast.Expr]:
    """What a check of `action` evaluates: its forbids' conditions (of constraints and of cards'
    abilities) and the cards' `allow ... despite` conditions; the rules they call are compiled
    before it."""
    found = [forbid.when for c in model.constraints for forbid, _ in forbids_of(c.forbids, action)]
    found += [test for (allowed, _), allows in model.allows.items() if allowed == action
              for _, _, _, test in allows]
    found += [forbid.when for name, _, _ in model.abilities
              for forbid, _ in forbids_of(model.effects[name].forbids, action)]
    found += [forbid.when for effect in model.effects.values() if effect.name.name not in model.ability_effects
              for forbid, _ in forbids_of(effect.forbids, action)]
    return found


def write_allowed(compiler, action: str, emitter: Callable[[list], Any]) -> NativeAllowed:
    """allowed_<action> in the Cython dialect, `compiler` a DefineCompiler (defines.py) and
    `emitter(bindings)` its native emitter; Unsupported, with the node and the reason in words,
    when the dialect cannot write it."""
    model, gen = compiler.model, compiler.gen
    declared = model.actions.get(action)
    if declared is None or len(declared.params) < gen.forbidden[action]:
        raise Unsupported("takes more arguments than the action declares, which have no type to be"
                          " given natively")
    types = compiler.types.param_types(declared.params)
    params = [(mangle("local", f"x{i}"), compiler.c_type(types[p.name], f"takes `{p.name}` as", optional=True),
               types[p.name].base) for i, p in enumerate(declared.params)]
    before = set(gen.uses["rules"])
    gen.uses["rules"] = set()
    try:  # what the checks name: each a rule compiled natively or a helper the module has
        made = compiler.view().allowed(action, emitter, native_in_force, [name for name, _, _ in params])
        compiler.check_names(gen.uses["rules"], read_by(model, action))
    finally:
        gen.uses["rules"] |= before
    return NativeAllowed(action, made["name"], params, made["checks"], made["abilities"],
                         gen.where(declared), made["effects"], compiler.effect_width(made["effects"]))

