"""The opt-in native build: Cython-compiled modules, kept in the cache under their source's hash,
load in place of the Python ones and play the same games, move for move (slow: a C compile)."""

from __future__ import annotations

import importlib
import importlib.machinery

import pytest

from compiler import backends, native
from compiler.codegen import compile_game
from compiler.native import MODULES, available, build_native, native_modules
from runtime.fuzz import FuzzReport, fuzz_game
from support import MINI, loaded

pytestmark = pytest.mark.slow


def _module_file(program, module: str) -> str:
    return importlib.import_module(type(program).__module__.rsplit(".", 1)[0] + "." + module).__file__


def test_a_native_package_plays_the_interpreters_games(tmp_path, monkeypatch):
    why = available()
    if why:
        pytest.fail(why)  # the slow suite runs with rulespec[native] installed
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    spec = loaded(MINI)
    out = tmp_path / spec.model.game
    compile_game(spec.model, out)
    assert native_modules(out) == []
    built = build_native(out)
    assert [p.name.split("-")[0] for p in built] == list(MODULES) == native_modules(out)
    assert not any(p.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for p in out.iterdir())
    program = backends.load_program(spec, "generated", out)
    assert _module_file(program, "rules").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    again = backends.load_program(spec, "generated", out)  # an extension initialises once a process
    assert again.meta.spec_hash == program.meta.spec_hash
    report = FuzzReport()
    for seed in range(30):
        fuzz_game(again, backends.load_program(spec, "interpreted"), seed, {}, 20_000, report)
    assert report.games == 30 and not report.problems

    # Changed source is another build: the stale one is never loaded, the source runs.
    (out / "rules.py").write_text((out / "rules.py").read_text() + "\n# changed\n")
    assert native_modules(out) == ["procedures"]
    assert _module_file(backends.load_program(spec, "generated", out), "rules").endswith("rules.py")
    monkeypatch.setenv("RULESPEC_NATIVE", "0")
    assert native_modules(out) == [] and not native.enabled()
