"""The native engine as commands that play many games use it (simulate, balance, worth, ladders):
the one home of "is this game's native engine built, and if not, start building it".

`engine_ref(loaded, say)` is asked once, in the process that hands out the games. RULESPEC_NATIVE
says what happens when the game's module is not in the cache, as for the generated package's
native build (compiler/backends/native_jobs.py, whose locks and priority it shares):

- unset or 1 (the default): a detached child builds it in the background, at the lowest CPU
  priority; this run plays on the generated package and says so in one line; a later run uses it.
- wait: it is built first (or a build under way awaited), then this run uses it.
- 0: no native engine: nothing built, nothing loaded.

What a worker needs to load it comes back as an `EngineRef` (the module's name and path, the
layout, the `start` step): picklable, so a worker process never parses the spec. A game whose
rules do not all compile natively, or a machine without Cython or a C compiler, gets None and one
line saying why; its games run on the generated package exactly as before.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rulespec.compiler.backends import native, native_jobs
from rulespec.compiler.backends.machine.build import build_engine, target
from rulespec.compiler.backends.machine.defines import NativeDefines, render_module
from rulespec.compiler.backends.machine.engine import native_engine
from rulespec.compiler.backends.machine.layout import Layout

# CPU a build costs, to say "about N s" (measured 2026-12-07 on the 2-core machine, docs/BENCHMARKS.md
# (b): 14.6 s for a module of about 190 KB, 68 s for the largest game's 818 KB)
BUILD_CPU_S, BUILD_CPU_S_PER_KB = 2.0, 0.08


@dataclass(frozen=True)
class EngineRef:
    """What a process needs to load a game's native engine over its generated package."""

    name: str  # the extension module's name
    path: str  # its build in the cache
    layout: Layout
    start: tuple[int, int] | None  # the `start` routine's step and frame size

    def load(self, python: Any) -> Any:
        """`python` (the generated package's program) with the native engine playing its whole
        games (whole.py)."""
        from rulespec.compiler.backends.machine.program import NativeProgram
        from rulespec.compiler.backends.machine.whole import WholeGames
        from rulespec.compiler.backends.machine.pyx import load_module
        native = NativeProgram(load_module(self.name, Path(self.path)), self.layout, self.start, python)
        return WholeGames(python, native)


def engine_ref(loaded, say: Callable[[str], None]) -> EngineRef | None:
    """The native engine this run plays on, or None (said why in one line, once a game)."""
    game = loaded.model.game
    if native_jobs.mode() == "off" or native.available() is not None:
        return None  # the generated package's own note says why, once
    made = native_engine(loaded.model)
    if made.steps.refused:
        native_jobs.once(say, f"{game} does not run on the native engine (state in C) yet:"
                               f" {made.steps.refused[0]}", key=f"machine {game}")
        return None
    source = render_module(made)
    path, name = target(source, game)
    failed = _failure(name)
    if failed is not None and not path.is_file():
        native_jobs.once(say, f"the native engine (state in C) for {game} failed to build ({failed});"
                              f" this run plays on the generated package", key=f"machine {game}")
        return None
    if not path.is_file():
        if native_jobs.mode() == "wait":
            native_jobs.once(say, f"building the native engine (state in C) for {game} first"
                                   f" ({shown_cpu(source)}), as RULESPEC_NATIVE=wait asks", key=f"machine {game}")
            try:
                build_now(made)
            except native.NativeError as err:
                native_jobs.once(say, f"{err}; this run plays on the generated package", key=f"machine {game} failed")
                return None
        else:
            start_background(loaded, made)
            native_jobs.once(say, f"the native engine (state in C) for {game} is being built in the"
                                   f" background ({shown_cpu(source)}); this run plays on the generated"
                                   f" package", key=f"machine {game}")
            return None
    return EngineRef(name, str(path), made.layout, made.steps.start)


def shown_cpu(source: str) -> str:
    return native_jobs.shown_cpu(BUILD_CPU_S + BUILD_CPU_S_PER_KB * len(source.encode()) / 1000)


def build_now(made: NativeDefines) -> Path:
    """The module built into the cache (its path), waiting for a build of it under way (its
    job's lock); NativeError when it cannot be built."""
    path, name = target(render_module(made), made.layout.game)
    with native_jobs.locked(native_jobs.jobs() / f"machine-{name}.lock", wait=True):
        if not path.is_file():
            build_engine(made)
    return path


def _failed_marker(name: str) -> Path:
    return native_jobs.jobs() / f"machine-{name}.failed"


def _failure(name: str) -> str | None:
    """Why a background build of this module failed (not tried again by commands), or None."""
    try:
        return _failed_marker(name).read_text(encoding="utf-8").strip() or "no reason given"
    except OSError:
        return None


def start_background(loaded, made: NativeDefines) -> bool:
    """A detached child building the module at the lowest priority, unless it is built or being
    built: whether one was started (or is under way)."""
    path, name = target(render_module(made), made.layout.game)
    if path.is_file():
        return False
    lock = native_jobs.jobs() / f"machine-{name}.lock"
    with native_jobs.locked(lock, wait=False) as free:
        if not free:
            return True  # being built
    log = native_jobs.jobs() / f"machine-{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as out:
        subprocess.Popen([sys.executable, "-m", __name__, str(Path(loaded.folder).resolve()), *loaded.variants],
                         stdin=subprocess.DEVNULL, stdout=out, stderr=out, close_fds=True,
                         start_new_session=True)
    return True


def _child(folder: str, variants: list[str]) -> int:
    """The background build: at the lowest priority, one background build on the machine at a time."""
    from rulespec.compiler.frontend.loader import load_spec
    native_jobs.lowest_priority()
    made = native_engine(load_spec(Path(folder), tuple(variants)).model)
    with native_jobs.machine_turn():
        try:
            build_now(made)
            done = "built"
        except native.NativeError as err:
            done = f"not built: {err}"
            _failed_marker(target(render_module(made), made.layout.game)[1]).write_text(f"{err}\n", encoding="utf-8")
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {folder} {' '.join(variants)}: {done}", flush=True)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(_child(sys.argv[1], sys.argv[2:]))
