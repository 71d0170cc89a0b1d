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

from compiler import backends, native
from compiler.codegen import compile_game
from compiler.native import (MODULES, RUNTIME_MODULES, available, build_native, build_runtime,
                             native_modules, runtime_built)
from runtime.fuzz import FuzzReport, fuzz_game
from support import MINI, REPO, loaded

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


# Plays a few Fox games with a search bot (the runtime's state, values, policy, search, rollout
# and mcts all on the path), prints the runtime modules loaded natively and a digest of the games.
_RUNTIME_GAMES = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from compiler.cli.base import load, program as load_program
from runtime.native import loaded_natively
from runtime.simulate import play_game
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
