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
import re
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
# only when asked for at run time, and each a distinct store at every error check).
CFLAGS = NATIVE_CFLAGS + ("-Wno-maybe-uninitialized", "-Wno-uninitialized", "-DCYTHON_CLINE_IN_TRACEBACK=0",
                          '-DCYTHON_SMALL_CODE=__attribute__((cold,optimize("O1")))')
# Cython's settings: the native builds' without the comments that quote each source line in the
# C (a third of its bytes, read by the compiler for nothing).
DIRECTIVES = dict(NATIVE_DIRECTIVES, emit_code_comments=False)
# The module's `def` functions that only tests and measures call, by their names' beginnings
# (templates: the defines', effects' and allowed actions' call_, the procedures' run_, the
# primitives' prim_, the logs' _log_; the defines' repeat_), and the -O level each is compiled at:
# not -O3, where the bodies they call were inlined into them again (a quarter of the biggest
# game module's C compiling). -O1 for repeat_, whose loop measures a define's body in C.
TEST_SURFACES = {"call_": "0", "run_": "0", "prim_": "0", "_log_": "0", "repeat_": "1"}

_BUILD = """
import json, re, sys
from Cython.Build import cythonize
from setuptools import Distribution, Extension
work, name, flags, directives, marks = sys.argv[1:]
ext = Extension(name, [f"{work}/{name}.pyx"], extra_compile_args=flags.split())
exts = cythonize([ext], quiet=True, compiler_directives=json.loads(directives))
with open(exts[0].sources[0], encoding="utf-8") as c:
    text = c.read()
for pattern, attribute in json.loads(marks):
    text = re.sub(pattern, lambda found, attribute=attribute: f"static {attribute} ", text, flags=re.M)
with open(exts[0].sources[0], "w", encoding="utf-8") as c:
    c.write(text)
dist = Distribution({"ext_modules": exts})
cmd = dist.get_command_obj("build_ext")
cmd.build_lib, cmd.build_temp = f"{work}/lib", f"{work}/tmp"
dist.run_command("build_ext")
print(cmd.get_ext_fullpath(name))
"""


def cache_path(module: str, source: str | bytes) -> Path:
    """Where the build of a module with this source lives in the cache (or would): keyed, as
    every native build, by its source and how it is built."""
    text = source.encode("utf-8") if isinstance(source, str) else source
    how = " ".join(CFLAGS) + json.dumps([DIRECTIVES, TEST_SURFACES], sort_keys=True)
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
        done = subprocess.run([sys.executable, "-c", _BUILD, work, name, " ".join(CFLAGS), json.dumps(DIRECTIVES),
                               json.dumps(surface_marks(name))], capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise NativeError(f"{what} failed to build: " + " / ".join(last))
        made = done.stdout.strip().splitlines()[-1]
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_name(f".{target.name}.{os.getpid()}.new")
        shutil.copyfile(made, staged)
        os.replace(staged, target)  # complete or absent: a reader never sees half a file
    return target


def surface_marks(name: str) -> list[tuple[str, str]]:
    """Where the build puts each test surface's level: before the declarations and definitions of
    the Python wrappers (`__pyx_pw_`) and bodies (`__pyx_pf_`) Cython makes of module `name`'s
    functions, whose C names are the module's name by its length, a number, then the Python name."""
    marks = []
    for level in sorted(set(TEST_SURFACES.values())):
        starts = "|".join(re.escape(start) for start, at in TEST_SURFACES.items() if at == level)
        pattern = rf"^static (?=[^;(]*\b__pyx_p[wf]_{len(name)}{re.escape(name)}_\d+(?:{starts})\w*\()"
        marks.append((pattern, f'__attribute__((optimize("O{level}")))'))
    return marks


def load_module(name: str, path: Path) -> ModuleType:
    """The extension module `name` built at `path`, loaded once a process."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, path, loader=importlib.machinery.ExtensionFileLoader(name, str(path)))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]
