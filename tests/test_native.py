"""The opt-in native build: Cython-compiled modules load in place of the Python ones and play
the same games, move for move (slow: a C compile)."""

from __future__ import annotations

import importlib.machinery

import pytest

from compiler import backends
from compiler.codegen import compile_game
from compiler.native import MODULES, available, build_native, native_modules
from runtime.fuzz import FuzzReport, fuzz_game
from support import MINI, loaded

pytestmark = pytest.mark.slow


def test_a_native_package_plays_the_interpreters_games(tmp_path):
    why = available()
    if why:
        pytest.fail(why)  # the slow suite runs with rulespec[native] installed
    spec = loaded(MINI)
    out = tmp_path / spec.model.game
    compile_game(spec.model, out)
    built = build_native(out)
    assert sorted(p.name.split(".")[0] for p in built) == sorted(MODULES) == sorted(
        p.name.split(".")[0] for p in native_modules(out))
    program = backends.load_program(spec, "generated", out)
    module = importlib.import_module(type(program).__module__.rsplit(".", 1)[0] + ".rules")
    assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    report = FuzzReport()
    for seed in range(30):
        fuzz_game(program, backends.load_program(spec, "interpreted"), seed, {}, 20_000, report)
    assert report.games == 30 and not report.problems
