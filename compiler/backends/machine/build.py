"""The native defines' build: a game's Cython module (defines.py) compiled into the rulespec cache,
keyed by its source like every native build (runtime/native.py, compiler/backends/native.py), and
loaded from there. Without Cython or a C compiler there is no build: NativeError says why in one
line, and callers fall back or skip.
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

from rulespec.compiler.backends.machine.defines import NativeDefines, native_defines, render_module
from rulespec.compiler.backends.native import NativeError, available
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.native import CFLAGS, DIRECTIVES, build_path, digest

# Run in a child process: setuptools and the C compiler print to the real stdout.
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


def module_name(source: str, game: str) -> str:
    """The extension's own name (its init function is named by it): one per game and source, so
    two builds of a game can be loaded side by side."""
    return f"rulespec_defines_{game}_{digest(source)[:12]}"


def build(source: str, game: str) -> tuple[Path, str]:
    """The module's build in the cache (compiled first when missing) and its name; NativeError
    when it cannot be built."""
    name = module_name(source, game)
    target = build_path(f"machine.defines.{game}", source.encode())
    if target.is_file():
        return target, name
    why = available()
    if why:
        raise NativeError(why)
    with tempfile.TemporaryDirectory(prefix="rulespec-defines-") as work:
        (Path(work) / f"{name}.pyx").write_text(source, encoding="utf-8")
        done = subprocess.run([sys.executable, "-c", _BUILD, work, name, " ".join(CFLAGS),
                               json.dumps(DIRECTIVES)], capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise NativeError(f"{game}'s native defines failed to build: " + " / ".join(last))
        made = done.stdout.strip().splitlines()[-1]
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_name(f".{target.name}.{os.getpid()}.new")
        shutil.copyfile(made, staged)
        os.replace(staged, target)  # complete or absent: a reader never sees half a file
    return target, name


def load_defines(model: Model) -> tuple[ModuleType, NativeDefines]:
    """A game's native defines module (built when missing) and what it compiles and refuses."""
    defines = native_defines(model)
    source = render_module(defines)
    path, name = build(source, model.game)
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, path, loader=importlib.machinery.ExtensionFileLoader(name, str(path)))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name], defines
