"""Lasting effects natively (compiler/backends/machine/effects.py, templates/effects.pxi.j2): the
effects in play cross into the native form and back unchanged; every compiled quantity and every
compiled allowed check with forbids inside effects gives, over a packed position and its effects,
what the generated package's gives over the State, at seeded positions with effects of every kind
planted at random; and `activate`, `cancel`, `expire` and `active` in random sequences of a planted
spec's procedures (and a signal whose trigger the effect holds) leave the same effects, state and
answers as the generated package's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulespec.compiler.backends.machine.defines import DefineCompiler, argument_tuples, argument_values
from rulespec.compiler.backends.machine.layout import machine_layout
from rulespec.compiler.backends.machine.pack import pack
from rulespec.compiler.frontend.checks.types import TypeInfer
from rulespec.runtime.state import GameOver, RuleError

from support import MINI, REPO, TESTS, loaded
from test_machine_allowed import action_tuples
from test_machine_defines import native_module, positions, rules_of
from test_machine_procedures import procedures_of

SPEC = REPO / "spec"
FOLDERS = [MINI, TESTS / "specs" / "injection", SPEC / "heldenhain", SPEC / "terraforming_mars",
           SPEC / "twilight_struggle"]
CALLS = 60  # argument tuples of one quantity or check at one position, at most


def planted_effects(model, picker: random.Random, count: int) -> list[list]:
    """`count` effects the spec declares (never a card's ability), each with arguments of its
    parameters' types (none among them where a value may be none) and a lifetime or None."""
    effects = [(i, e) for i, e in enumerate(model.effects.values()) if e.name.name not in model.ability_effects]
    if not effects:
        return []
    types, lifetimes = TypeInfer(model), [None, *model.lifetimes]
    out = []
    for _ in range(count):
        index, effect = picker.choice(effects)
        kinds = types.param_types(effect.params)
        args = [picker.choice(argument_values(model, kinds[p.name])) for p in effect.params]
        out.append([index, args, picker.choice(lifetimes)])
    return out


def states_with_effects(folder: Path, seed: int, count: int):
    """Seeded positions of random play, each with some effects planted beside its own."""
    picker, model = random.Random(seed), loaded(folder).model
    out = []
    for state in positions(folder, seed, count):
        state.effects = state.effects + planted_effects(model, picker, picker.randrange(4))
        out.append(state)
    return out


def outcome(call, *args):
    try:
        return ("gave", call(*args))
    except Exception as error:  # noqa: BLE001 - a RuleError, or Python's own
        return ("error", type(error).__name__)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_effects_cross_into_the_native_form_and_back_unchanged(folder):
    module, defines = native_module(folder)
    for state in states_with_effects(folder, 1, 3):
        position = module.Position(pack(defines.layout, state), state.params, state.effects)
        assert module.effects_out(position) == state.effects


def test_effects_past_the_room_are_a_rule_error_naming_it():
    module, defines = native_module(MINI)
    state = positions(MINI, 0, 1)[0]
    room = defines.lasting.room
    module.Position(pack(defines.layout, state), state.params, [[0, [1], "turn"]] * room)
    with pytest.raises(RuleError, match=f"more than {room} lasting effects in play"):
        module.Position(pack(defines.layout, state), state.params, [[0, [1], "turn"]] * (room + 1))


def test_a_lifetime_the_spec_does_not_declare_is_refused():
    module, defines = native_module(MINI)
    state = positions(MINI, 0, 1)[0]
    with pytest.raises(ValueError, match="'forever', which the spec does not declare"):
        module.Position(pack(defines.layout, state), state.params, [[0, [1], "forever"]])


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_native_quantities_agree_with_the_generated_package(folder):
    module, defines = native_module(folder)
    model, rules = loaded(folder).model, rules_of(folder)
    if not model.quantities:
        pytest.skip(f"{folder.name} has no quantity")
    assert defines.quantities, f"{folder.name}: no quantity compiles natively ({defines.refused_quantities})"
    calls = 0
    for seed in range(2):
        for state in states_with_effects(folder, seed, 3):
            position = module.Position(pack(defines.layout, state), state.params, state.effects)
            for made in defines.quantities:
                for args in argument_tuples(model, model.quantities[made.name], CALLS):
                    calls += 1
                    expected = outcome(getattr(rules, made.function), state, *args)
                    got = outcome(module.quantity, made.name, position, *args)
                    assert got == expected, f"{model.game} seed {seed}: {made.name}{args} with {state.effects}"
    assert calls > 0


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_native_checks_with_forbids_inside_effects_agree(folder):
    module, defines = native_module(folder)
    model, rules = loaded(folder).model, rules_of(folder)
    checks = [a for a in defines.allowed if a.effects]
    if not checks:
        pytest.skip(f"{folder.name} has no check with a forbid inside an effect")
    for seed in range(2):
        for state in states_with_effects(folder, seed, 3):
            position = module.Position(pack(defines.layout, state), state.params, state.effects)
            for made in checks:
                for args in action_tuples(model, made.action, CALLS):
                    expected = outcome(getattr(rules, made.function), state, *args)
                    got = outcome(module.allowed, made.action, position, *args)
                    assert got == expected, f"{model.game} seed {seed}: {made.action}{args} with {state.effects}"


def test_twilight_struggle_s_checks_with_forbids_inside_effects_compile():
    model = loaded(SPEC / "twilight_struggle").model
    made = DefineCompiler(model, machine_layout(model)).all()
    assert {"coup", "realign", "place_influence"} <= {a.action for a in made.allowed if a.effects}


# Procedures starting, ending and asking about effects, planted on mini (doubled(who: player)).
PLANTED = """
procedure planted_start(p: player) { activate doubled(p) until turn }
procedure planted_forever(p: player) { activate doubled(p) }
procedure planted_end(p: player) { cancel doubled(p) }
procedure planted_end_all() { cancel doubled }
procedure planted_expire() { expire turn }
procedure planted_emit(p: player) { emit played(p, three) }
procedure planted_ask(p: player) -> int {
    if active doubled(p) { return worth(p, three) }
    if active doubled { return 1 }
    return 0
}
define planted_active(p: player) -> bool = active doubled(p)
define planted_worth(p: player) -> int = worth(p, three) + worth(p, one)
"""


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("effects")
    (folder / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + PLANTED,
                                       encoding="utf-8")
    return folder


def test_planted_effect_statements_compile(planted):
    module, defines = native_module(planted)
    compiled = {p.name for p in defines.procedures.compiled}
    assert {"planted_start", "planted_forever", "planted_end", "planted_end_all", "planted_expire",
            "planted_ask", "planted_emit"} <= compiled, defines.procedures.refused
    assert [e.signal for e in defines.procedures.emits] == ["played"]  # its trigger: signals.py
    assert {"planted_active", "planted_worth"} <= {d.name for d in defines.compiled}


@pytest.mark.parametrize("seed", range(3))
def test_random_sequences_of_effect_statements_agree(planted, seed):
    """The same sequence of procedures on the State (the generated package) and on the position
    with its Objects: the same effects, values and struct bytes after every step."""
    module, defines = native_module(planted)
    model, python, rules = loaded(planted).model, procedures_of(planted), rules_of(planted)
    names = ["planted_start", "planted_forever", "planted_end", "planted_end_all", "planted_expire",
             "planted_ask", "planted_emit"]
    procedures = {p.name: p for p in defines.procedures.compiled}
    functions = {d.name: d.function for d in defines.compiled}
    picker = random.Random(seed)
    state = positions(planted, seed, 1)[0]
    position = module.Position(pack(defines.layout, state), state.params, state.effects)
    objects = module.Objects()
    for step in range(40):
        name = picker.choice(names)
        args = [picker.choice([0, 1])] if model.procedures[name].params else []
        try:
            expected = ("gave", getattr(python, procedures[name].function)(state, *args))
        except GameOver:
            expected = ("over", state.result)
        got = outcome(module.procedure, name, position, objects, *args)
        where = f"seed {seed} step {step}: {name}{args}"
        assert got[0] == expected[0], where
        if model.procedures[name].returns is not None:
            assert got == expected, where
        assert module.effects_out(position) == state.effects, where
        assert module.packed(position) == pack(defines.layout, state), where
        check = module.Position(pack(defines.layout, state), state.params, state.effects)
        for p in (0, 1):
            for define in ("planted_active", "planted_worth"):
                assert module.define(define, check, p) == getattr(rules, functions[define])(state, p), where
