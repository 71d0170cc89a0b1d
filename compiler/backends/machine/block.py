"""The machine block's native build (block.pyx): compiled with Cython into the rulespec cache,
keyed by its source like every native build (runtime/native.py), and loaded from there.

A block is a game's machine part in one C allocation, copied by one memcpy; it holds no rules
and exists to measure that copy honestly beside State.copy() (docs/BENCHMARKS.md (e)). Without
Cython or a C compiler there is no block: `available()` says why, and callers skip.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from rulespec.compiler.backends.machine.pyx import build_module, cache_path, load_module

SOURCE = Path(__file__).resolve().with_name("block.pyx")
MODULE = "rulespec_machine_block"  # the extension's own name: its init function is named by it


def built_path() -> Path:
    return cache_path("machine.block", SOURCE.read_bytes())


def build() -> Path:
    """The block's build in the cache, compiled first when missing; NativeError when it cannot be."""
    return build_module(SOURCE.read_text(encoding="utf-8"), MODULE, built_path(), "the block's native build")


def load() -> ModuleType:
    """The block's extension module (built when missing); NativeError when it cannot be."""
    return load_module(MODULE, build())
