"""The same games on three back ends (issue 41, item 5): seeded random and policy games give the
same choices, logs and results on the interpreter, the generated Python and the native build,
compared by their fingerprints (runtime/analysis/fingerprints.py).

Each back end plays in a process of its own: the generated Python with RULESPEC_NATIVE=0 (pure
Python throughout), the native build with RULESPEC_NATIVE=1, after building the package's native
build in the foreground into the cache (compiler/backends/native_jobs.py: its lock, so never
twice). The default suite builds only small specs, and only where the runtime's native build is
already in the cache (CI makes it first); the slow test builds the five games of spec/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulespec.compiler.backends import engine, native, native_jobs
from support import REPO, TESTS, loaded

# Prints the fingerprints of one back end's games: {"prints": {...}} (building the native one first).
_PLAY = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from rulespec.compiler.backends import engine, native_jobs
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.analysis.fingerprints import fingerprints
spec, backend = load_spec(Path(sys.argv[2])), sys.argv[3]
if backend == "native":
    failed = native_jobs.build_now(engine.current_package(spec))
    if failed:
        sys.exit("the native build failed: " + failed)
program = engine.load_program(spec, backend)
if backend == "native" and not native_jobs.running_natively(program):
    sys.exit("the native build did not load")
print(json.dumps(fingerprints(program, sys.argv[4].split(";"), int(sys.argv[5]))))
"""

BACKENDS = ("interpreted", "generated", "native")


def _runtime_built() -> bool:
    """The runtime's native build is in the cache (whatever this process, RULESPEC_NATIVE=0, loads)."""
    return all(p.is_file() for p in native_jobs.targets(Path("no-package")))


def _fingerprints(folder: Path, agents: str, seeds: int) -> dict[str, dict]:
    """Each back end's fingerprints, the three processes run side by side and all waited for."""
    running = {}
    for backend in BACKENDS:
        env = {**os.environ, "RULESPEC_NATIVE": "1" if backend == "native" else "0"}
        running[backend] = subprocess.Popen(
            [sys.executable, "-c", _PLAY, str(REPO), str(folder), backend, agents, str(seeds)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    done = {backend: process.communicate() for backend, process in running.items()}
    for backend, (out, err) in done.items():
        assert running[backend].returncode == 0, f"{backend}: {err.strip().splitlines()[-1:]}"
    return {backend: json.loads(out.splitlines()[-1]) for backend, (out, _) in done.items()}


def _same(prints: dict[str, dict]) -> None:
    reference = prints["interpreted"]
    assert reference
    for backend in BACKENDS[1:]:
        differ = sorted(k for k in reference if prints[backend].get(k) != reference[k])
        assert set(prints[backend]) == set(reference) and not differ, f"{backend} differs: {differ[:10]}"


def _skip_unless_buildable(runtime_needed: bool) -> None:
    why = native.available()
    if why:
        pytest.skip(why)
    if runtime_needed and not _runtime_built():
        pytest.skip("the runtime's native build is not in the cache (about 40 s of CPU, once:"
                    " `rulespec compile --native spec/the_fox_in_the_forest`, or any simulate makes it"
                    " in the background)")


@pytest.mark.parametrize("spec, agents", [("mini", "random"), ("priest", "random;policy")])
def test_a_small_spec_plays_the_same_games_on_three_back_ends(spec: str, agents: str) -> None:
    _skip_unless_buildable(runtime_needed=True)
    prints = _fingerprints(TESTS / "specs" / spec, agents, seeds=4)
    _same(prints)
    assert len(prints["native"]) == 4 * len(agents.split(";"))


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(p.name for p in (REPO / "spec").iterdir() if any(p.glob("*.rules"))))
def test_every_game_plays_the_same_200_games_on_three_back_ends(game: str) -> None:
    _skip_unless_buildable(runtime_needed=False)
    package = engine.current_package(loaded(REPO / "spec" / game))
    failed = native_jobs.build_now(package)  # the runtime too, when missing
    assert failed is None, failed
    _same(_fingerprints(REPO / "spec" / game, "random;policy", seeds=200))
