"""Picks the back end that runs a loaded spec: the generated package or the interpreter."""

from __future__ import annotations

import hashlib
import importlib
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable

from rulespec.compiler.frontend.cache import cache_root, compiler_version
from rulespec.compiler.backends.packages import import_package
from rulespec.runtime.home import CHECKOUT, GENERATED, SPECS

if TYPE_CHECKING:  # light to import: the command line's quick answers need BACKENDS only
    from rulespec.compiler.frontend.loader import LoadedSpec
    from rulespec.runtime.program import Program

BACKENDS = ("generated", "interpreted")
# The generated package run as its native build only (compiler/backends/native.py): `fuzz` and
# `test` name it beside the two; a process holding it runs "generated" from the package's sources.
NATIVE = "native"
# The native engine (compiler/backends/machine, issue 41): the game's rules over its state as C
# data, for a game whose every step compiles natively; a BackendError says why not in one line.
MACHINE = "machine"
GENERATED_ROOT = GENERATED
SPEC_ROOT = SPECS  # the specs whose packages GENERATED_ROOT holds: rulespec's own


class BackendError(Exception):
    """A back end cannot run this spec: missing, stale or broken generated code."""


KEPT_BUILDS = 3  # cached builds kept per variant set; older ones are pruned


def default_package(game: str, variants: tuple[str, ...] = ()) -> Path:
    """Where rulespec's own spec of `game` has its package: generated/<game>, with variants
    generated/<game>__<v1>__<v2> (names sorted, as the loader sorts them).

    Only base games are committed; a variant set runs from the build cache
    unless someone compiled it here on purpose."""
    return GENERATED_ROOT / "__".join((game,) + tuple(sorted(variants)))


def committed_package(loaded: LoadedSpec) -> Path | None:
    """The generated/ package of this spec, when it is one of rulespec's own (spec/<game>);
    None for any other folder, even a copy of a shipped game: its package is its own."""
    if loaded.folder.resolve().parent != SPEC_ROOT.resolve():
        return None
    return default_package(loaded.model.game, loaded.variants)


def compile_target(loaded: LoadedSpec) -> Path:
    """Where `rulespec compile` writes without -o: a checkout's own spec into its generated/;
    any other spec, or any spec of an installed rulespec, into the cache (cached_build's place),
    so a game never lands in the installed package nor over another game of its name."""
    committed = committed_package(loaded)
    return committed if committed is not None and CHECKOUT else _cache_target(loaded)


def load_program(loaded: LoadedSpec, backend: str, package: Path | str | None = None,
                 for_tests: bool = False, on_note=None, sources: bool = False) -> Program:
    """The Program for `backend`; `package` overrides where the generated code is.

    for_tests: the generated package must also hold the current designer
    tests. A stale or missing package (other than one named by `package`) is
    built into the cache, and on_note(message) says so in one line. "native" is the package
    imported as its native build, a BackendError saying how to build it when it cannot be;
    sources: "generated" from the package's Python sources even where a native build exists."""
    if backend == "interpreted":
        from rulespec.compiler.backends.interpret import Interpreter
        return Interpreter(loaded.model)
    if backend == MACHINE:
        return _machine(loaded, load_program(loaded, "generated", package, for_tests, on_note, sources=True))
    if backend not in (*BACKENDS, NATIVE):
        raise BackendError(f"unknown back end '{backend}' (known: {', '.join((*BACKENDS, NATIVE, MACHINE))})")
    where = Path(package) if package is not None else current_package(loaded, for_tests, on_note)
    if backend == NATIVE:
        _natively(loaded, where, on_note)
    return _checked(loaded, where, for_tests, explicit=package is not None,
                    sources=sources and backend != NATIVE)


def _machine(loaded: LoadedSpec, python: Program) -> Program:
    """The native engine over `python` (which answers what it does not run yet), built into the
    cache when missing; a BackendError saying why in one line when it cannot run this game."""
    from rulespec.compiler.backends import native
    from rulespec.compiler.backends.machine.program import NotNative, load_native_program
    why = native.available()
    if why:
        raise BackendError(f"no native engine here: {why}")
    try:
        return load_native_program(loaded.model, python)
    except (NotNative, native.NativeError) as err:
        raise BackendError(str(err)) from None


def machine_built(loaded: LoadedSpec) -> bool:
    """Whether this spec's native engine is in the cache (nothing is built here)."""
    from rulespec.compiler.backends.machine.build import target
    from rulespec.compiler.backends.machine.defines import render_module
    from rulespec.compiler.backends.machine.engine import native_engine
    made = native_engine(loaded.model)
    return target(render_module(made), made.layout.game)[0].is_file()


def compile_command(loaded: LoadedSpec) -> str:
    return f"rulespec compile {_shown(loaded.folder)}"


def _natively(loaded: LoadedSpec, where: Path, on_note=None) -> None:
    """The package loads as its native build in this process (built first under
    RULESPEC_NATIVE=wait), or a BackendError says how to get one."""
    from rulespec.compiler.backends import native, native_jobs
    name = " + ".join((loaded.model.game, *loaded.variants))
    if native_jobs.mode() == "wait" and (where / "__init__.py").is_file():
        native_jobs.prepare(where, name, on_note or (lambda line: None))
    if (where / "__init__.py").is_file() and native_jobs.loads_natively(where):
        return
    variants = "".join(f" --variant {v}" for v in loaded.variants)
    build = f"`rulespec compile --native {_shown(loaded.folder)}{variants}`"
    why = native.available()
    if not native.enabled():
        why = "RULESPEC_NATIVE=0 turns native builds off"
    elif why is None and native_jobs.ready(where):
        why = "its build was made after this process imported the runtime: run the command again"
    elif why is None:
        why = f"it is not built: {build} builds it (or RULESPEC_NATIVE=wait before this command)"
    raise BackendError(f"no native engine for {name} here: {why}")


# ------------------------------------------------------------------ generated


def current_package(loaded: LoadedSpec, for_tests: bool = False, on_note=None) -> Path:
    """A package made from exactly this spec: the committed one when current, else a cached build."""
    committed = committed_package(loaded)
    if committed is not None:
        why = _staleness(loaded, committed, for_tests)
        if why is None:
            return committed
        if on_note is not None and (committed / "__init__.py").is_file():
            on_note(f"{_shown(committed)} is stale ({why}): running a fresh build from the cache")
    if not for_tests:  # any build of these rules will do, whatever tests it holds
        for build in sorted(_builds(loaded, loaded.model.spec_hash), key=_mtime, reverse=True):
            if build.name.endswith(compiler_version()[:12]) and _staleness(loaded, build, False) is None:
                return build
    return cached_build(loaded)


def _set_name(loaded: LoadedSpec) -> str:
    """A variant set's builds' name: game__v1__v2, and its reprinted cards (worth --param-of),
    so that the builds of one reprint never prune another's."""
    name = "__".join((loaded.model.game,) + tuple(loaded.variants))
    if loaded.attributes:
        from rulespec.compiler.frontend.card_overlays import settings_text
        name += "__" + hashlib.sha256(settings_text(loaded.attributes).encode()).hexdigest()[:8]
    return name


def _builds(loaded: LoadedSpec, spec_hash: str = "") -> list[Path]:
    """The cache's builds of this variant set (of one spec hash, if given)."""
    root = cache_root() / "packages"
    return list(root.glob(f"{_set_name(loaded)}-{spec_hash}*")) if root.is_dir() else []


def _staleness(loaded: LoadedSpec, package: Path, for_tests: bool) -> str | None:
    """Why a package does not fit the loaded spec, or None when it does."""
    if not (package / "__init__.py").is_file():
        return "missing"
    made = _hashes_of(package)
    if made.get("SPEC_HASH") != loaded.model.spec_hash:
        return "the rules changed"
    if for_tests and made.get("TESTS_HASH") != loaded.model.tests_hash:
        return "the designer tests changed"
    return None


def cached_build(loaded: LoadedSpec) -> Path:
    """The cache's build of this exact spec (and tests), compiled once when missing.

    A new build reuses what it can from the newest earlier build of the same
    variant set, or from the committed package, so it costs little after an edit;
    the committed package's seed file lends black's output even to an empty cache."""
    model = loaded.model
    root = cache_root() / "packages"
    name = _set_name(loaded)
    target = _cache_target(loaded)
    if _staleness(loaded, target, for_tests=True) is None:
        return target
    from rulespec.compiler.backends.codegen import compile_game
    earlier = sorted(_builds(loaded), key=_mtime, reverse=True)
    previous = next((p for p in earlier if (p / "__init__.py").is_file()), None)
    if previous is None:
        previous = default_package(model.game)
    try:
        compile_game(model, target, previous=previous, seeds=(default_package(model.game),))
    except OSError as err:
        raise BackendError(f"cannot build {name} into the cache {_shown(root)}:"
                           f" {err.strerror or err}") from None
    for old in earlier[KEPT_BUILDS:]:
        shutil.rmtree(old, ignore_errors=True)
    return target


def _cache_target(loaded: LoadedSpec) -> Path:
    """The cache's place for a build of this exact spec and tests. The compiler's own version
    is in the name too: a new code generator builds anew."""
    model = loaded.model
    return cache_root() / "packages" / f"{_set_name(loaded)}-{model.spec_hash}-{model.tests_hash}-{compiler_version()[:12]}"


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _checked(loaded: LoadedSpec, where: Path, for_tests: bool, explicit: bool = False,
             sources: bool = False) -> Program:
    """Import a package and make sure it was made from this spec."""
    shown = _shown(where)
    if where.is_file():
        raise BackendError(f"{shown} is a file, not a generated package (a folder with __init__.py):"
                           f" name the folder `rulespec compile` wrote")
    if where.is_dir() and not (where / "__init__.py").is_file():
        raise BackendError(f"{shown} is a folder but not a generated package (no __init__.py):"
                           f" run `{compile_command(loaded)}`")
    if not (where / "__init__.py").is_file():
        raise BackendError(f"{shown} is missing: run `{compile_command(loaded)}`")
    made = _hashes_of(where)
    if made.get("SPEC_HASH") is None:
        raise BackendError(f"{shown} is not a generated package (no SPEC_HASH):"
                           f" run `{compile_command(loaded)}`")
    why = _staleness(loaded, where, for_tests)
    if why is not None:
        raise BackendError(f"{shown} is stale ({why}; spec hash {loaded.model.spec_hash}, generated"
                           f" from {made.get('SPEC_HASH')}): run `{compile_command(loaded)}`")
    return import_program(where, loaded.model.game, default=not explicit and not sources and where == default_package(
        loaded.model.game), sources=sources)


def import_program(where: Path, game: str, default: bool = False, sources: bool = False) -> Program:
    """The package's PROGRAM, imported afresh; sources: from its Python sources, never a native build."""
    shown = _shown(where)
    module = _import(where, default, game, shown, sources)
    program = getattr(module, "PROGRAM", None)
    if program is None:
        raise BackendError(f"{shown} is not a generated package (no PROGRAM): recompile it")
    return program


def _hashes_of(package: Path) -> dict[str, str]:
    """SPEC_HASH and TESTS_HASH of a generated package, read without importing it."""
    found: dict[str, str] = {}
    try:
        text = (package / "__init__.py").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return found
    for line in text.splitlines():
        for key in ("SPEC_HASH", "TESTS_HASH"):
            if line.startswith(key + " ="):
                found[key] = line.split("=", 1)[1].strip().strip("'\"")
    return found


class ProgramRef:
    """A picklable recipe for a Program, so worker processes can load their own.

    A generated program is imported from its package alone (checked by spec
    hash): workers never parse the spec. The interpreter needs the model."""

    def __init__(self, folder: str, variants: tuple[str, ...], backend: str,
                 package: str | None = None, spec_hash: str | None = None, game: str = "",
                 attributes: tuple[tuple[str, str, int], ...] = (), machine=None):
        self.folder, self.variants, self.backend = folder, tuple(variants), backend
        self.package, self.spec_hash, self.game = package, spec_hash, game
        self.attributes = tuple(attributes)  # reprinted cards (worth --param-of)
        self.machine = machine  # the native engine over the package (machine/jobs.py EngineRef), or None

    @classmethod
    def of(cls, loaded: LoadedSpec, backend: str, natively: Callable[[str], None] | None = None) -> "ProgramRef":
        """A recipe for this loaded spec; a generated package is found (or built) now, once.
        natively: its games run on the native engine over the package where it is built (else
        it is started as RULESPEC_NATIVE says, machine/jobs.py), natively(line) told why not."""
        package = str(current_package(loaded)) if backend == "generated" else None
        machine = None
        # (a reprinted card's spec, worth --param-of, plays on its package: one build a reprint
        # would cost more than its games save)
        if natively is not None and backend == "generated" and not loaded.attributes:
            from rulespec.compiler.backends.machine.jobs import engine_ref
            machine = engine_ref(loaded, natively)
        return cls(str(loaded.folder), loaded.variants, backend, package, loaded.model.spec_hash,
                   loaded.model.game, loaded.attributes, machine)

    def load(self) -> Program:
        if self.backend == "generated" and self.package is not None:
            program = import_program(Path(self.package), self.game)
            if program.meta.spec_hash != self.spec_hash:
                raise BackendError(f"{self.package} changed while the simulation ran")
            return program if self.machine is None else self.machine.load(program)
        from rulespec.compiler.frontend.loader import load_spec
        return load_program(load_spec(Path(self.folder), self.variants, attributes=self.attributes),
                            self.backend)

    def native_modules(self) -> list[str]:
        """The modules a process loading this program on this machine imports as native builds
        (the package's, and "runtime" for the runtime's hot modules)."""
        if self.backend != "generated" or self.package is None:
            return []
        from rulespec.compiler.backends.native import native_modules, runtime_built
        return native_modules(Path(self.package)) + (["runtime"] if runtime_built() else [])

    def __repr__(self) -> str:
        return (f"ProgramRef({self.folder!r}, {self.variants!r}, {self.backend!r}, {self.package!r}"
                f"{', ' + repr(self.attributes) if self.attributes else ''}"
                f"{', machine=' + repr(self.machine.name) if self.machine else ''})")


def _import(where: Path, default: bool, game: str, shown: str, sources: bool = False) -> ModuleType:
    """Import afresh (a recompiled package must not come from the module cache); the
    modules' compiled code comes from the cache when their text is known (packages.py)."""
    if default:
        name = f"rulespec.generated.{game}"
    else:
        digest = hashlib.sha256(str(where.resolve()).encode()).hexdigest()[:12]
        name = f"_rulespec_generated_{game}_{digest}{'_sources' if sources else ''}"
    importlib.invalidate_caches()
    try:
        if default:
            importlib.import_module("rulespec.generated")
        module = import_package(name, where, natively=not sources)
        if default:
            setattr(sys.modules["rulespec.generated"], game, module)
        return module
    except Exception as err:  # a broken package: say which, not a traceback
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise BackendError(f"{shown} cannot be imported ({type(err).__name__}: {first}):"
                           f" recompile it") from err


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
