"""An opt-in compiled build of a generated package: Cython on its modules, pure Python beside.

`rulespec compile --native` writes the package as usual, then compiles its
table, rule and procedure modules with Cython into extension modules next to
the .py files. Python imports an extension module before the source of the
same name, so the package runs compiled where the build worked and as pure
Python everywhere else (delete the .so files, or recompile without
--native: a rewritten package is swapped in whole, so no stale build stays).
The code is the same code: `rulespec fuzz` plays both back ends move for move.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

MODULES = ("tables", "rules", "procedures")  # where the time goes; tests and __init__ stay Python

# Run in a child process: setuptools and the C compiler print to the real
# stdout, which `--json` keeps for one JSON object.
_BUILD = """
import sys
from Cython.Build import cythonize
from setuptools import Distribution, Extension
work, name, *modules = sys.argv[1:]
exts = [Extension(f"{name}.{m}", [f"{work}/{name}/{m}.py"]) for m in modules]
dist = Distribution({"ext_modules": cythonize(exts, quiet=True,
                                             compiler_directives={"language_level": 3})})
cmd = dist.get_command_obj("build_ext")
cmd.build_lib, cmd.build_temp = f"{work}/lib", f"{work}/tmp"
dist.run_command("build_ext")
print("\\n".join(cmd.get_outputs()))
"""


class NativeError(Exception):
    """The compiled build could not be made; the pure Python package stands."""


def available() -> str | None:
    """Why a native build cannot run here, or None when it can."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        return "a native build needs Cython (pip install 'rulespec[native]')"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"a native build needs a C compiler ({compiler})"
    return None


def build_native(package: Path, modules: tuple[str, ...] = MODULES) -> list[Path]:
    """Compile the package's modules into extension modules beside them; the files written."""
    why = available()
    if why:
        raise NativeError(why)
    package = Path(package)
    name = package.name
    with tempfile.TemporaryDirectory(prefix="rulespec-native-") as work:
        (Path(work) / name).mkdir()
        (Path(work) / name / "__init__.py").write_text("", encoding="utf-8")
        for module in modules:
            shutil.copyfile(package / f"{module}.py", Path(work) / name / f"{module}.py")
        done = subprocess.run([sys.executable, "-c", _BUILD, work, name, *modules],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise NativeError("the native build failed: " + " / ".join(last))
        written = []
        for built in done.stdout.split():
            target = package / Path(built).name
            staged = target.with_name(f".{target.name}.new")
            shutil.copyfile(built, staged)
            os.replace(staged, target)  # a running process keeps the old file it mapped
            written.append(target)
    return written


def native_modules(package: Path) -> list[Path]:
    """The extension modules a native build left in a package."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(p for p in Path(package).iterdir() if p.name.endswith(suffixes))
