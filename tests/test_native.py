"""The opt-in native build: Cython-compiled modules, kept in the cache under their source's hash,
load in place of the Python ones and play the same games, move for move (slow: a C compile)."""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys

import pytest

from rulespec.compiler.backends import native
from rulespec.compiler.backends.codegen import compile_game
from rulespec.compiler.backends.native import (MODULES, RUNTIME_MODULES, available, build_native, build_runtime,
                             native_modules, runtime_built)
from support import MINI, REPO, loaded

pytestmark = pytest.mark.slow


# Loads a compiled package in a fresh process (its native build reads the state's native
# build, typed, so both must be what the process imports), fuzzes it against the interpreter,
# and prints the modules loaded natively, the rules module's file and the problems found.
_PACKAGE_GAMES = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from rulespec.compiler.backends import engine
from rulespec.compiler.backends.native import native_modules, state_native
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.analysis.fuzz import FuzzReport, fuzz_game
spec, out = load_spec(Path(sys.argv[2])), Path(sys.argv[3])
program = engine.load_program(spec, "generated", out)
again = engine.load_program(spec, "generated", out)  # an extension initialises once a process
report = FuzzReport()
for seed in range(30):
    fuzz_game(again, engine.load_program(spec, "interpreted"), seed, {}, 20_000, report)
rules = sys.modules[type(program).__module__.rsplit(".", 1)[0] + ".rules"].__file__
print(json.dumps([native_modules(out), state_native(), rules, report.games, report.problems]))
"""


def _package_games(cache, out, native: bool = True):
    env = {**os.environ, "RULESPEC_CACHE": str(cache), "RULESPEC_NATIVE": "1" if native else "0"}
    done = subprocess.run([sys.executable, "-c", _PACKAGE_GAMES, str(REPO), str(MINI), str(out)],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_a_native_package_plays_the_interpreters_games(tmp_path, monkeypatch):
    why = available()
    if why:
        pytest.fail(why)  # the slow suite runs with rulespec[native] installed
    cache = tmp_path / "cache"
    monkeypatch.setenv("RULESPEC_CACHE", str(cache))
    spec = loaded(MINI)
    out = tmp_path / spec.model.game
    compile_game(spec.model, out)
    assert _package_games(cache, out)[:2] == [[], False]
    built = build_native(out)
    assert [p.name.split("-")[0] for p in built] == list(MODULES)
    assert not any(p.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for p in out.iterdir())
    modules, typed_state, rules, games, problems = _package_games(cache, out)
    assert modules == list(MODULES) and typed_state
    assert rules.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert games == 30 and not problems

    # Changed source is another build: the stale one is never loaded, the source runs.
    (out / "rules.py").write_text((out / "rules.py").read_text() + "\n# changed\n")
    modules, _, rules, games, problems = _package_games(cache, out)
    assert modules == ["procedures"] and rules.endswith("rules.py") and not problems
    # Without the state's native build the package's builds are not loaded: they read it typed.
    assert _package_games(cache, out, native=False)[:2] == [[], False]
    monkeypatch.setenv("RULESPEC_NATIVE", "0")
    assert native_modules(out) == [] and not native.enabled()


# Plays a few Fox games with a search bot (the runtime's state, values, policy, search, rollout
# and mcts all on the path), prints the runtime modules loaded natively and a digest of the games.
_RUNTIME_GAMES = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from rulespec.compiler.cli.base import load, program as load_program
from rulespec.runtime.native import loaded_natively
from rulespec.runtime.analysis.simulate import play_game
program = load_program(load("the_fox_in_the_forest"), "generated", None)
games = [play_game(program, s, agents, {}) for s in range(1, 4)
         for agents in (("rollout@2x4x2", "policy"), ("mcts@4x2", "random"))]
summary = [(g.seed, g.winner, g.reason, g.decisions, g.tracks) for g in games]
print(json.dumps([loaded_natively(), hashlib.sha256(repr(summary).encode()).hexdigest()]))
"""


def _runtime_games(cache, native: bool) -> tuple[list[str], str]:
    env = {**os.environ, "RULESPEC_CACHE": str(cache), "RULESPEC_NATIVE": "1" if native else "0"}
    done = subprocess.run([sys.executable, "-c", _RUNTIME_GAMES, str(REPO)], env=env,
                          capture_output=True, text=True, check=True)
    loaded_now, games = json.loads(done.stdout.splitlines()[-1])
    return loaded_now, games


def test_the_runtime_loads_its_native_build_and_plays_the_same_games(tmp_path, monkeypatch):
    why = available()
    if why:
        pytest.fail(why)
    cache = tmp_path / "cache"
    monkeypatch.setenv("RULESPEC_CACHE", str(cache))
    assert _runtime_games(cache, native=True)[0] == []  # nothing built: the sources
    built = build_runtime()
    assert [p.name.split("-")[0] for p in built] == [f"runtime.{m}" for m in RUNTIME_MODULES]
    assert runtime_built()
    loaded_now, native_games = _runtime_games(cache, native=True)
    assert loaded_now == list(RUNTIME_MODULES)
    assert _runtime_games(cache, native=False) == ([], native_games)


def test_a_package_whose_folder_name_is_no_identifier_builds(tmp_path, monkeypatch):
    """A cached package's folder is named game-spechash-...: its build still compiles and loads."""
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    spec = loaded(MINI)
    out = tmp_path / f"{spec.model.game}-0123abcd-4567ef"
    compile_game(spec.model, out)
    assert [p.name.split("-")[0] for p in build_native(out)] == list(MODULES)
    assert _package_games(tmp_path / "cache", out)[0] == list(MODULES)  # a process that may load it
