"""An opt-in compiled build of a generated package: Cython on its hot modules, kept in the cache.

`rulespec compile --native` writes the package as usual, then compiles its
rule and procedure modules with Cython into extension modules stored in the
rulespec cache (`native/` in `.rulespec-cache/`), each under a hash of the
exact source text it was compiled from (and of the Python ABI). Importing a
generated package (compiler/packages.py) looks there for each of those
modules: found, the extension module is loaded in its place; not found, the
source runs. So a native build is never committed (generated/ holds sources
only), never loaded for a changed spec (changed rules are changed source, so
another hash), and pure Python is always the fallback. `RULESPEC_NATIVE=0`
in the environment turns it off. The code is the same code: `rulespec fuzz`
plays both back ends move for move, on whichever build is loaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from .cache import cache_root, digest

# Where the time goes (tables are data built once at import; tests and __init__ stay Python).
MODULES = ("rules", "procedures")
# C compiler flags after Python's own (-O3 -g): the biggest spec's modules are 6-9 MB of C
# each; with Python's flags the build never finished on the shared machine, with these it
# takes about 85 s of CPU (docs/BENCHMARKS.md; whether -O3 would run faster is not measured).
CFLAGS = ("-O1", "-g0")
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"

# Run in a child process: setuptools and the C compiler print to the real
# stdout, which `--json` keeps for one JSON object.
_BUILD = """
import sys
from Cython.Build import cythonize
from setuptools import Distribution, Extension
work, name, flags, *modules = sys.argv[1:]
exts = [Extension(f"{name}.{m}", [f"{work}/{name}/{m}.py"], extra_compile_args=flags.split())
        for m in modules]
dist = Distribution({"ext_modules": cythonize(exts, quiet=True,
                                             compiler_directives={"language_level": 3})})
cmd = dist.get_command_obj("build_ext")
cmd.build_lib, cmd.build_temp, cmd.parallel = f"{work}/lib", f"{work}/tmp", 2
dist.run_command("build_ext")
print("\\n".join(cmd.get_outputs()))
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


def enabled() -> bool:
    """Whether imports use native builds (RULESPEC_NATIVE=0 says no)."""
    return os.environ.get("RULESPEC_NATIVE", "1") != "0"


def build_path(module: str, source: bytes) -> Path:
    """Where the native build of a module with this source text lives (or would)."""
    key = digest("native", SUFFIX, " ".join(CFLAGS), source)
    return cache_root() / "native" / f"{module}-{key}{SUFFIX}"


def built(module: str, source: bytes) -> Path | None:
    """The native build of this module source, when one was made and imports may use it."""
    if module not in MODULES or not enabled():
        return None
    path = build_path(module, source)
    return path if path.is_file() else None


def native_modules(package: Path) -> list[str]:
    """The package's modules that import as native builds (their current source was built)."""
    package = Path(package)
    return [m for m in MODULES
            if (package / f"{m}.py").is_file() and built(m, (package / f"{m}.py").read_bytes())]


def build_native(package: Path, modules: tuple[str, ...] = MODULES) -> list[Path]:
    """Compile the package's modules into the cache (those not built yet); the builds."""
    why = available()
    if why:
        raise NativeError(why)
    package = Path(package)
    sources = {m: (package / f"{m}.py").read_bytes() for m in modules}
    todo = [m for m in modules if not build_path(m, sources[m]).is_file()]
    if todo:
        _compile(package.name, {m: sources[m] for m in todo})
    return [build_path(m, sources[m]) for m in modules]


def _compile(name: str, sources: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory(prefix="rulespec-native-") as work:
        (Path(work) / name).mkdir()
        (Path(work) / name / "__init__.py").write_text("", encoding="utf-8")
        for module, source in sources.items():
            (Path(work) / name / f"{module}.py").write_bytes(source)
        done = subprocess.run([sys.executable, "-c", _BUILD, work, name, " ".join(CFLAGS), *sources],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise NativeError("the native build failed: " + " / ".join(last))
        for made in done.stdout.split():
            module = Path(made).name.split(".")[0]
            target = build_path(module, sources[module])
            target.parent.mkdir(parents=True, exist_ok=True)
            staged = target.with_name(f".{target.name}.{os.getpid()}.new")
            shutil.copyfile(made, staged)
            os.replace(staged, target)  # complete or absent: a reader never sees half a file
