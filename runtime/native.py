"""Native builds found in the rulespec cache: where the cache is, how a build is keyed, and the
runtime's own hot modules imported from their builds.

`rulespec compile --native` (compiler/backends/native.py) compiles a generated package's rule and
procedure modules with Cython, and the runtime modules every game's decisions pass through
(RUNTIME_MODULES), each into the cache under a hash of its exact source text, the Python ABI
and the C flags. Importing `runtime` puts a finder first on `sys.meta_path` that loads such a
build in place of a runtime module's source while that source is unchanged; an edited module
has another hash, so its source runs. The compiled code is the same code: the games are the
same, move for move (tests/test_native.py). `RULESPEC_NATIVE=0` turns every native build off.

This module stays pure Python: it is what finds the others.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
from pathlib import Path

from rulespec.runtime.home import cache_root

RUNTIME = Path(__file__).resolve().parent
# The runtime modules on the path of every decision: the state and its primitives, the values'
# helpers the generated code calls, the driver, the bots and their searches.
# Named from rulespec.runtime: "bots.search" is rulespec.runtime.bots.search.
RUNTIME_MODULES = ("state", "values", "frames", "game", "policy", "bots.agents", "bots.search",
                   "bots.mcts", "bots.rollout")
PACKAGE = "rulespec.runtime"
# C compiler flags after Python's own (-O3 -g): full optimisation, no debug information. The
# biggest spec's modules are 6-9 MB of C each; with -g the build never finished on the shared
# machine, without it that build takes about 140 s of CPU, and its games run 1.05-1.1x
# faster than with -O1 (docs/history/BENCHMARKS-journal.md, "the C compiler's full optimisation").
CFLAGS = ("-O3", "-g0")
# Cython's settings: Python 3, and annotations read as Python reads them (hints, not checks: a
# `list` annotation would otherwise refuse a dict where the source takes any sequence).
DIRECTIVES = {"language_level": 3, "annotation_typing": False}
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def digest(*parts: str | bytes) -> str:
    """A short content hash of several parts, unambiguous in how they split."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()[:32]


def enabled() -> bool:
    """Whether imports use native builds (RULESPEC_NATIVE=0 says no)."""
    return os.environ.get("RULESPEC_NATIVE", "1") != "0"


def build_path(module: str, source: bytes) -> Path:
    """Where the native build of a module with this source text lives (or would)."""
    key = digest("native", SUFFIX, " ".join(CFLAGS), repr(sorted(DIRECTIVES.items())), source)
    return cache_root() / "native" / f"{module}-{key}{SUFFIX}"


def key_source(file: Path) -> bytes:
    """What a module's build is keyed by: its source and the declarations beside it (a `.pxd`
    of the same name, such as the state's)."""
    pxd = file.with_suffix(".pxd")
    return file.read_bytes() + b"\0" + (pxd.read_bytes() if pxd.is_file() else b"")


def runtime_build_path(module: str) -> Path:
    """Where the native build of a runtime module's current source lives (or would); OSError
    when its source cannot be read."""
    return build_path(f"runtime.{module}", key_source(RUNTIME.joinpath(*module.split(".")).with_suffix(".py")))


def runtime_build(module: str) -> Path | None:
    """The native build of a runtime module's current source, when one was made."""
    try:
        path = runtime_build_path(module)
    except OSError:
        return None
    return path if path.is_file() else None


def loaded_natively() -> list[str]:
    """The runtime modules this process imported from native builds."""
    return [m for m in RUNTIME_MODULES
            if getattr(sys.modules.get(f"{PACKAGE}.{m}"), "__file__", "").endswith(SUFFIX)]


class _RuntimeFinder(importlib.abc.MetaPathFinder):
    """Finds a runtime module's native build, when its current source was built."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, module = fullname.partition(PACKAGE + ".")
        if package or module not in RUNTIME_MODULES or not enabled():
            return None
        made = runtime_build(module)
        if made is None:
            return None
        return importlib.util.spec_from_file_location(
            fullname, made, loader=importlib.machinery.ExtensionFileLoader(fullname, str(made)))


def install() -> None:
    """Put the finder first on sys.meta_path (once a process)."""
    if not any(isinstance(f, _RuntimeFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _RuntimeFinder())
