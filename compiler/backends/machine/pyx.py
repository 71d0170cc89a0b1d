"""Building and loading one standalone Cython module (a `.pyx` text) into the rulespec cache: the
one home of that for the machine package's builds (block.py, build.py).

The module is compiled in a child process (setuptools and the C compiler print to the real
stdout), with the flags and directives below, and copied into the cache atomically: a reader
finds the build complete or not at all.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from rulespec.compiler.backends.native import NativeError, available
from rulespec.runtime.native import CFLAGS as NATIVE_CFLAGS
from rulespec.runtime.native import DIRECTIVES as NATIVE_DIRECTIVES
from rulespec.runtime.native import build_path

# C compiler flags: the native builds' (-O3, no debug information) without the analysis behind
# the uninitialised-variable warnings, a twentieth of a game module's C compiling, for warnings
# nobody reads (the build's output is shown only when it fails). -O2 would build Twilight
# Struggle's module in a fifth less CPU, but its games run 3-7% slower (docs/BENCHMARKS.md (b)).
# Cython's code run once (the module's init, its constants and code objects: CYTHON_SMALL_CODE)
# at -O1 rather than only optimised for size, and no C line numbers kept for tracebacks (shown
# only when asked for at run time; a distinct store at every error check): a tenth less CPU.
# (Compiling the test surfaces, the call_/run_/repeat_ wrappers, at -O0 or -O1 saved a fifth but
# moved gcc's inlining of the rules enough to slow one game's play 3-6%: docs/BENCHMARKS.md (b).)
CFLAGS = NATIVE_CFLAGS + ("-Wno-maybe-uninitialized", "-Wno-uninitialized", "-DCYTHON_CLINE_IN_TRACEBACK=0",
                          '-DCYTHON_SMALL_CODE=__attribute__((cold,optimize("O1")))')
# Cython's settings: the native builds' without the comments that quote each source line in the
# C (a third of its bytes, read by the compiler for nothing).
DIRECTIVES = dict(NATIVE_DIRECTIVES, emit_code_comments=False)

_BUILD = """
import json, sys
from Cython.Build import cythonize
from setuptools import Distribution, Extension
work, name, flags, directives = sys.argv[1:]
ext = Extension(name, [f"{work}/{name}.pyx"], extra_compile_args=flags.split())
dist = Distribution({"ext_modules": cythonize([ext], quiet=True, compiler_directives=json.loads(directives))})
cmd = dist.get_command_obj("build_ext")
cmd.build_lib, cmd.build_temp = f"{work}/lib", f"{work}/tmp"
dist.run_command("build_ext")
print(cmd.get_ext_fullpath(name))
"""


def cache_path(module: str, source: str | bytes) -> Path:
    """Where the build of a module with this source lives in the cache (or would): keyed, as
    every native build, by its source and how it is built."""
    text = source.encode("utf-8") if isinstance(source, str) else source
    how = " ".join(CFLAGS) + json.dumps(DIRECTIVES, sort_keys=True)
    return build_path(module, how.encode() + b"\0" + text)


def build_module(source: str, name: str, target: Path, what: str) -> Path:
    """`target` holding the build of module `name` from `source`, compiled first when missing;
    NativeError ("<what> failed to build: ...") when it cannot be."""
    if target.is_file():
        return target
    why = available()
    if why:
        raise NativeError(why)
    with tempfile.TemporaryDirectory(prefix="rulespec-pyx-") as work:
        (Path(work) / f"{name}.pyx").write_text(source, encoding="utf-8")
        done = subprocess.run([sys.executable, "-c", _BUILD, work, name, " ".join(CFLAGS),
                               json.dumps(DIRECTIVES)], capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise NativeError(f"{what} failed to build: " + " / ".join(last))
        made = done.stdout.strip().splitlines()[-1]
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_name(f".{target.name}.{os.getpid()}.new")
        shutil.copyfile(made, staged)
        os.replace(staged, target)  # complete or absent: a reader never sees half a file
    return target


def load_module(name: str, path: Path) -> ModuleType:
    """The extension module `name` built at `path`, loaded once a process."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, path, loader=importlib.machinery.ExtensionFileLoader(name, str(path)))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]
