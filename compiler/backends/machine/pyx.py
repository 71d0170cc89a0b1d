"""Building and loading one standalone Cython module (a `.pyx` text) into the rulespec cache: the
one home of that for the machine package's builds (block.py, build.py).

The module is compiled in a child process (setuptools and the C compiler print to the real
stdout), with the native builds' flags and directives (runtime/native.py), and copied into the
cache atomically: a reader finds the build complete or not at all.
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
from rulespec.runtime.native import CFLAGS, DIRECTIVES

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
