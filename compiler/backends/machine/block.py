"""The machine block's native build (block.pyx): compiled with Cython into the rulespec cache,
keyed by its source like every native build (runtime/native.py), and loaded from there.

A block is a game's machine part in one C allocation, copied by one memcpy; it holds no rules
and exists to measure that copy honestly beside State.copy() (docs/BENCHMARKS.md (e)). Without
Cython or a C compiler there is no block: `available()` says why, and callers skip.
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
from rulespec.runtime.native import CFLAGS, DIRECTIVES, build_path

SOURCE = Path(__file__).resolve().with_name("block.pyx")
MODULE = "rulespec_machine_block"  # the extension's own name: its init function is named by it

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


def built_path() -> Path:
    return build_path("machine.block", SOURCE.read_bytes())


def build() -> Path:
    """The block's build in the cache, compiled first when missing; NativeError when it cannot be."""
    target = built_path()
    if target.is_file():
        return target
    why = available()
    if why:
        raise NativeError(why)
    with tempfile.TemporaryDirectory(prefix="rulespec-block-") as work:
        shutil.copyfile(SOURCE, Path(work) / f"{MODULE}.pyx")
        done = subprocess.run([sys.executable, "-c", _BUILD, work, MODULE, " ".join(CFLAGS),
                               json.dumps(DIRECTIVES)], capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise NativeError("the block's native build failed: " + " / ".join(last))
        made = done.stdout.strip().splitlines()[-1]
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_name(f".{target.name}.{os.getpid()}.new")
        shutil.copyfile(made, staged)
        os.replace(staged, target)  # complete or absent: a reader never sees half a file
    return target


def load() -> ModuleType:
    """The block's extension module (built when missing); NativeError when it cannot be."""
    if MODULE in sys.modules:
        return sys.modules[MODULE]
    path = build()
    spec = importlib.util.spec_from_file_location(
        MODULE, path, loader=importlib.machinery.ExtensionFileLoader(MODULE, str(path)))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[MODULE] = module
    return module
