"""Picks the back end that runs a loaded spec: the generated package or the interpreter."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from .loader import REPO_ROOT, LoadedSpec
from runtime.program import Program

BACKENDS = ("generated", "interpreted")
GENERATED_ROOT = REPO_ROOT / "generated"


class BackendError(Exception):
    """A back end cannot run this spec: missing, stale or broken generated code."""


CACHE_ROOT = REPO_ROOT / ".rulespec-cache"


def default_package(game: str, variants: tuple[str, ...] = ()) -> Path:
    """Where `rulespec compile` writes a game's package and `play` looks for it.

    The base game lives in generated/<game>; a variant set in
    generated/<game>__<v1>__<v2> (names sorted, as the loader sorts them).
    """
    return GENERATED_ROOT / "__".join((game,) + tuple(sorted(variants)))


def load_program(loaded: LoadedSpec, backend: str, package: Path | str | None = None) -> Program:
    """The Program for `backend`; `package` overrides where the generated code is."""
    if backend == "interpreted":
        from .interpret import Interpreter
        return Interpreter(loaded.model)
    if backend == "generated":
        return _generated(loaded, Path(package) if package is not None else None)
    raise BackendError(f"unknown back end '{backend}' (known: {', '.join(BACKENDS)})")


def codegen_available() -> bool:
    """Whether the code generator (compiler.codegen.compile_game) is installed."""
    try:
        from .codegen import compile_game  # noqa: F401
    except ImportError:
        return False
    return True


def compile_command(loaded: LoadedSpec) -> str:
    return f"rulespec compile {_shown(loaded.folder)}"


# ------------------------------------------------------------------ generated


def _generated(loaded: LoadedSpec, package: Path | None) -> Program:
    game = loaded.model.game
    if package is None and loaded.variants:
        package = variant_package(loaded)
    where = package if package is not None else default_package(game)
    shown = _shown(where)
    if not (where / "__init__.py").is_file():
        hint = (f": run `{compile_command(loaded)}`" if codegen_available()
                else ": the code generator (compiler.codegen) is not available yet;"
                     " use --backend interpreted")
        raise BackendError(f"{shown} is missing{hint}")
    module = _import(where, package is None, game, shown)
    made_from = getattr(module, "SPEC_HASH", None)
    program = getattr(module, "PROGRAM", None)
    if made_from is None or program is None:
        raise BackendError(f"{shown} is not a generated package (no SPEC_HASH or PROGRAM):"
                           f" run `{compile_command(loaded)}`")
    if made_from != loaded.model.spec_hash:
        raise BackendError(f"{shown} is stale (spec hash {loaded.model.spec_hash}, generated from"
                           f" {made_from}): run `{compile_command(loaded)}`")
    return program


def variant_package(loaded: LoadedSpec) -> Path:
    """A variant set's package: the committed one when current, else a cached compile.

    Combinations nobody committed are compiled once into .rulespec-cache,
    keyed by spec hash, so they can never be stale.
    """
    committed = default_package(loaded.model.game, loaded.variants)
    if (committed / "__init__.py").is_file() and _hash_of(committed) == loaded.model.spec_hash:
        return committed
    cached = CACHE_ROOT / f"{loaded.model.game}-{loaded.model.spec_hash}"
    if not (cached / "__init__.py").is_file():
        if not codegen_available():
            raise BackendError("the code generator is not available; use --backend interpreted")
        from .codegen import compile_game
        compile_game(loaded.model, cached)
    return cached


def _hash_of(package: Path) -> str | None:
    """The SPEC_HASH a generated package was made from, read without importing it."""
    for line in (package / "__init__.py").read_text(encoding="utf-8").splitlines():
        if line.startswith("SPEC_HASH"):
            return line.split("=", 1)[1].strip().strip("'\"")
    return None


class ProgramRef:
    """A picklable recipe for a Program, so worker processes can load their own."""

    def __init__(self, folder: str, variants: tuple[str, ...], backend: str):
        self.folder, self.variants, self.backend = folder, tuple(variants), backend

    def load(self) -> Program:
        from .loader import load_spec
        return load_program(load_spec(Path(self.folder), self.variants), self.backend)

    def __repr__(self) -> str:
        return f"ProgramRef({self.folder!r}, {self.variants!r}, {self.backend!r})"


def _import(where: Path, default: bool, game: str, shown: str) -> ModuleType:
    """Import afresh (a recompiled package must not come from the module cache)."""
    if default:
        name = f"generated.{game}"
        root = str(REPO_ROOT)
        if root not in sys.path:
            sys.path.insert(0, root)
    else:
        digest = hashlib.sha256(str(where.resolve()).encode()).hexdigest()[:12]
        name = f"_rulespec_generated_{game}_{digest}"
    for loaded_name in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded_name]
    importlib.invalidate_caches()
    try:
        if default:
            return importlib.import_module(name)
        return _import_from(name, where)
    except Exception as err:  # a broken package: say which, not a traceback
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise BackendError(f"{shown} cannot be imported ({type(err).__name__}: {first}):"
                           f" recompile it") from err


def _import_from(name: str, where: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        name, where / "__init__.py", submodule_search_locations=[str(where)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
