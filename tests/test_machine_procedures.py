"""The native procedures (compiler/backends/machine/procedures.py, issue 41 stage 3): every plain
procedure the Cython dialect compiles does, over a packed position, what the generated package's
procedure does over the State: the same machine part after it (pack.py's bytes), the same log
lines, the same result when it ends the game, the same value, and an error where Python fails.
And every game's coverage list names each procedure it does not compile, where and why."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends.machine.defines import DefineCompiler, argument_tuples
from rulespec.compiler.backends.machine.layout import machine_layout
from rulespec.compiler.backends.machine.pack import pack
from rulespec.compiler.backends.machine.procedures import native_procedures
from rulespec.compiler.frontend.checks.types import type_of_ref
from rulespec.runtime.state import GameOver

from support import machine_module, random_positions, MINI, REPO, TESTS, loaded, program

GAMES = [MINI] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir())
TEST_SPECS = sorted(p for p in (TESTS / "specs").iterdir() if any(p.glob("*.rules")))
CALLS = 40  # argument tuples of one procedure at one position, at most


def positions(folder: Path, seed: int, count: int, every: int = 5, params: dict | None = None):
    return random_positions(folder, seed, count, every, params)


def procedures_of(folder: Path):
    """The generated package's procedures module, pure Python (conftest sets RULESPEC_NATIVE=0)."""
    package = sys.modules[type(program(folder, "generated")).__module__]
    return importlib.import_module(package.__name__ + ".procedures")


def native_module(folder: Path):
    return machine_module(folder)


def run_python(function, state, args):
    """(what it gave or raised, the state after)."""
    try:
        return ("gave", function(state, *args)), state
    except GameOver:
        return ("over", state.result), state
    except Exception as error:  # noqa: BLE001 - a RuleError, or Python's own
        return ("error", type(error).__name__), state


def run_native(module, name, position, args):
    objects = module.Objects()
    try:
        return ("gave", module.procedure(name, position, objects, *args)), objects
    except GameOver:
        return ("over", objects.result), objects
    except Exception as error:  # noqa: BLE001
        return ("error", type(error).__name__), objects


def as_python(value, typ):
    """A native procedure's value as the generated package gives it."""
    if typ is None or typ.base == "int":
        return value
    if typ.base == "bool":
        return bool(value)
    return None if value == -1 else value


def agree(folder: Path, seeds: range, count: int) -> int:
    """Runs every compiled procedure at `count` positions of each seed's game on both; the runs."""
    module, defines = native_module(folder)
    model, python = loaded(folder).model, procedures_of(folder)
    layout, runs = defines.layout, 0
    for seed in seeds:
        for state in positions(folder, seed, count):
            for made in defines.procedures.compiled:
                decl = model.procedures[made.name]
                gives = type_of_ref(model, decl.returns) if decl.returns is not None else None
                for args in argument_tuples(model, decl, CALLS):
                    runs += 1
                    before = state.copy()
                    (kind, expected), after = run_python(getattr(python, made.function), before, args)
                    position = module.Position(pack(layout, state), state.params, state.effects)
                    (got_kind, got), objects = run_native(module, made.name, position, args)
                    where = f"{model.game} seed {seed}: {made.name}{args}"
                    assert got_kind == kind, f"{where}: native {got_kind} {got!r}, Python {kind} {expected!r}"
                    if kind == "error":
                        continue
                    if kind == "gave" and made.gives:
                        assert as_python(got, gives) == expected, f"{where} gives {got!r}, Python {expected!r}"
                    if kind == "over":
                        assert got == expected, f"{where} ends {got!r}, Python {expected!r}"
                    assert module.packed(position) == pack(layout, after), f"{where}: the states differ"
                    assert objects.log == after.log[len(state.log):], f"{where}: the logs differ"
                    assert objects.log_at == after.log_at[len(state.log_at):]
                    assert objects.log_marks == after.log_marks[len(state.log_marks):]
                    assert module.effects_out(position) == after.effects, f"{where}: the effects differ"
    return runs


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_procedures_agree_with_the_generated_package(folder):
    module, defines = native_module(folder)
    if not defines.procedures.compiled:
        pytest.skip(f"{folder.name} has no procedure the native engine compiles")
    assert agree(folder, range(1), 3) > 0


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(folder=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_native_procedures_agree_on_random_seeds(folder, seed):
    agree(folder, range(seed, seed + 1), 2)


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_procedures_agree_over_many_positions(folder):
    agree(folder, range(8), 20)


@pytest.mark.parametrize("folder", GAMES + TEST_SPECS, ids=lambda p: p.name)
def test_every_plain_procedure_is_compiled_or_refused_by_name(folder):
    model = loaded(folder).model
    compiler = DefineCompiler(model, machine_layout(model))
    compiler.all()
    made = native_procedures(compiler)
    plain = [name for name in model.procedures
             if compiler.gen.by_key[f"procedure {name}"].plain_name is not None]
    assert sorted(p.name for p in made.compiled + made.refused) == sorted(plain)
    for refused in made.refused:
        assert str(refused).startswith(f"{refused.location}: procedure `{refused.name}` ")
        assert refused.location.count(":") == 2 and refused.reason
