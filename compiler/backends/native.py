"""An opt-in compiled build of a generated package: Cython on its hot modules, kept in the cache.

`rulespec compile --native` writes the package as usual, then compiles its
rule and procedure modules with Cython into extension modules stored in the
rulespec cache (`native/` in `.rulespec-cache/`), each under a hash of the
exact source text it was compiled from (and of the Python ABI). Importing a
generated package (compiler/backends/packages.py) looks there for each of those
modules: found, the extension module is loaded in its place; not found, the
source runs. The runtime modules every decision passes through are built the
same way, once for all games, and found by runtime/native.py. So a native
build is never committed (generated/ holds sources only), never loaded for a
changed spec or runtime (changed source, so another hash), and pure Python is
always the fallback. `RULESPEC_NATIVE=0` in the environment turns it off. The
code is the same code: `rulespec fuzz` plays both back ends move for move, on
whichever build is loaded.

The builds are typed where that pays: the state is an extension type (runtime/state.pxd), and
a generated module's functions of the state are declared with it (compiler/backends/native_types.py).
A generated module's build therefore loads only beside the state's build it was compiled
against (its key holds the state's declarations), and otherwise the source runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from rulespec.compiler.backends import native_types
from rulespec.runtime.native import (CFLAGS, DIRECTIVES, PACKAGE, RUNTIME, RUNTIME_MODULES, SUFFIX, build_path, enabled,
                            key_source, runtime_build)

# Where the time goes (tables are data built once at import; tests and __init__ stay Python).
MODULES = ("rules", "procedures")

# Run in a child process: setuptools and the C compiler print to the real
# stdout, which `--json` keeps for one JSON object.
_BUILD = """
import json, sys
from Cython.Build import cythonize
from setuptools import Distribution, Extension
work, name, flags, directives, *modules = sys.argv[1:]
exts = [Extension(f"{name}.{m}", [f"{work}/" + f"{name}.{m}".replace(".", "/") + ".py"],
                  extra_compile_args=flags.split())
        for m in modules]
dist = Distribution({"ext_modules": cythonize(exts, quiet=True, include_path=[work],
                                              compiler_directives=json.loads(directives))})
cmd = dist.get_command_obj("build_ext")
cmd.build_lib, cmd.build_temp, cmd.parallel = f"{work}/lib", f"{work}/tmp", 2
dist.run_command("build_ext")
print("\\n".join(f"{e.name} {cmd.get_ext_fullpath(e.name)}" for e in cmd.extensions))
"""


class NativeError(Exception):
    """The compiled build could not be made; the pure Python package stands."""


def available() -> str | None:
    """Why a native build cannot be made here, or None when it can."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        return "a native build needs Cython (pip install 'rulespec[native]')"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"a native build needs a C compiler ({compiler})"
    return None


def module_key(file: Path) -> bytes:
    """What a generated module's build is keyed by: its source, the state's declarations it is
    compiled against, and the version of the declarations read off it."""
    return b"\0".join((file.read_bytes(), (RUNTIME / "state.pxd").read_bytes(),
                        native_types.VERSION.encode()))


def built(module: str, file: Path) -> Path | None:
    """The native build of this generated module's source, when one was made and imports may
    use it: only beside the state's native build, whose fields it reads as typed."""
    if module not in MODULES or not enabled() or not state_native():
        return None
    path = module_build_path(module, file)
    return path if path.is_file() else None


def module_build_path(module: str, file: Path) -> Path:
    """Where the native build of a generated module's source lives (or would)."""
    return build_path(module, module_key(file))


def state_native() -> bool:
    """Whether this process's runtime state is its native build (typed, runtime/state.pxd)."""
    import rulespec.runtime.state

    return getattr(rulespec.runtime.state, "__file__", "").endswith(SUFFIX)


def native_modules(package: Path) -> list[str]:
    """The package's modules that import as native builds (their current source was built)."""
    package = Path(package)
    return [m for m in MODULES
            if (package / f"{m}.py").is_file() and built(m, package / f"{m}.py")]


def runtime_built() -> bool:
    """Whether imports of the runtime use native builds (each hot module's source was built)."""
    return enabled() and all(runtime_build(m) is not None for m in RUNTIME_MODULES)


def build_native(package: Path, modules: tuple[str, ...] = MODULES) -> list[Path]:
    """Compile the package's modules, and the runtime's, into the cache (those not built yet);
    the package's builds."""
    why = available()
    if why:
        raise NativeError(why)
    package = Path(package)
    # a cached package's folder name holds hyphens; the build's package name must be an identifier
    made = _build(re.sub(r"\W", "_", package.name), {m: package / f"{m}.py" for m in modules}, "")
    build_runtime()
    return made


def build_runtime() -> list[Path]:
    """Compile the runtime's hot modules into the cache (those not built yet); the builds."""
    why = available()
    if why:
        raise NativeError(why)
    return _build(PACKAGE, {m: RUNTIME.joinpath(*m.split(".")).with_suffix(".py") for m in RUNTIME_MODULES},
                  "runtime.")


def _build(name: str, files: dict[str, Path], prefix: str) -> list[Path]:
    """The builds of package `name`'s modules (cached under prefix + module), made where missing."""
    keys = {m: key_source(f) if prefix else module_key(f) for m, f in files.items()}
    todo = {m: f for m, f in files.items() if not build_path(prefix + m, keys[m]).is_file()}
    if todo:
        _compile(name, todo, keys, prefix)
    return [build_path(prefix + m, k) for m, k in keys.items()]


def _compile(name: str, files: dict[str, Path], keys: dict[str, bytes], prefix: str) -> None:
    with tempfile.TemporaryDirectory(prefix="rulespec-native-") as work:
        def place(dotted: str) -> Path:
            """The work folder's file for a module, its packages made on the way."""
            *packages, module = dotted.split(".")
            folder = Path(work).joinpath(*packages)
            for depth in range(len(packages)):
                inside = Path(work).joinpath(*packages[:depth + 1])
                inside.mkdir(exist_ok=True)
                (inside / "__init__.py").touch()
            return folder / f"{module}.py"
        # the state's declarations, for cimport
        shutil.copyfile(RUNTIME / "state.pxd", place(f"{PACKAGE}.state").with_suffix(".pxd"))
        for module, file in files.items():
            target = place(f"{name}.{module}")
            shutil.copyfile(file, target)
            if not prefix:  # a generated module: its functions of the state typed
                target.with_suffix(".pxd").write_text(native_types.declarations(file.read_bytes()),
                                                      encoding="utf-8")
            elif file.with_suffix(".pxd").is_file():
                shutil.copyfile(file.with_suffix(".pxd"), target.with_suffix(".pxd"))
        done = subprocess.run([sys.executable, "-c", _BUILD, work, name, " ".join(CFLAGS), json.dumps(DIRECTIVES),
                               *files],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise NativeError("the native build failed: " + " / ".join(last))
        for line in done.stdout.splitlines():
            if not line.startswith(name + "."):
                continue  # setuptools' own words
            full, made = line.split(" ", 1)
            module = full.removeprefix(name + ".")
            target = build_path(prefix + module, keys[module])
            target.parent.mkdir(parents=True, exist_ok=True)
            staged = target.with_name(f".{target.name}.{os.getpid()}.new")
            shutil.copyfile(made, staged)
            os.replace(staged, target)  # complete or absent: a reader never sees half a file
