"""The native defines' build: a game's Cython module (defines.py) compiled into the rulespec cache,
keyed by its source like every native build (runtime/native.py, compiler/backends/native.py), and
loaded from there. Without Cython or a C compiler there is no build: NativeError says why in one
line, and callers fall back or skip.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from rulespec.compiler.backends.machine.defines import NativeDefines, render_module
from rulespec.compiler.backends.machine.engine import native_engine
from rulespec.compiler.backends.machine.pyx import build_module, cache_path, load_module
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.native import digest


def module_name(source: str, game: str) -> str:
    """The extension's own name (its init function is named by it): one per game and source, so
    two builds of a game can be loaded side by side."""
    return f"rulespec_defines_{game}_{digest(source)[:12]}"


def target(source: str, game: str) -> tuple[Path, str]:
    """Where the module's build lives in the cache (or would), and its name."""
    return cache_path(f"machine.defines.{game}", source), module_name(source, game)


def build(source: str, game: str) -> tuple[Path, str]:
    """The module's build in the cache (compiled first when missing) and its name; NativeError
    when it cannot be built."""
    path, name = target(source, game)
    return build_module(source, name, path, f"{game}'s native defines"), name


def load_defines(model: Model) -> tuple[ModuleType, NativeDefines]:
    """A game's native module (built when missing) and what it compiles and refuses."""
    made = native_engine(model)
    return build_engine(made), made


def build_engine(made: NativeDefines) -> ModuleType:
    """The module of what native_engine compiled, built when missing, loaded."""
    path, name = build(render_module(made), made.layout.game)
    return load_module(name, path)
