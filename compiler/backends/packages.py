"""Importing a generated package afresh, its modules' code objects cached by their text.

Python compiles a module's source each time it is imported without a usable
__pycache__ (a fresh build folder, PYTHONDONTWRITEBYTECODE, a read-only
checkout), and a generated package is large: the biggest spec's costs a
quarter of a second to compile, and `rulespec test` imports ten packages. So
a package is imported through a finder whose loader keeps each module's
compiled code in the rulespec cache under the hash of its source (and the
Python version), whatever folder it lies in: a rebuilt variant package whose
tests.py did not change compiles nothing. The comment lines a module opens with
(the header naming the spec hash, which every edit changes) are hashed by
their number only: their words make no difference to the code, their count
moves the line numbers. A code object found is given the
module's own file name, so tracebacks and locations point at the right file.
Where the rulespec cache holds a native build of a module's exact source
(`rulespec compile --native`, compiler/backends/native.py), that is imported instead.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import marshal
import sys
import types
from pathlib import Path

from rulespec.compiler.backends import native
from rulespec.compiler.frontend.cache import digest, store

CODE_CACHE = "code"


class _Loader(importlib.machinery.SourceFileLoader):
    """A source loader that compiles a module's text once per cache, not once per import."""

    def get_code(self, fullname: str) -> types.CodeType:
        path = self.get_filename(fullname)
        source = self.get_data(path)
        key = code_key(source)
        table = store(CODE_CACHE)
        found = table.get(key)
        if found is not None:
            try:
                return _refiled(marshal.loads(found), path)
            except (EOFError, ValueError, TypeError):
                pass  # a damaged entry is a miss
        code = self.source_to_code(source, path)
        table.put(key, marshal.dumps(code))
        table.flush()
        return code


def code_key(source: bytes) -> str:
    """The cache key of a module's code: its text, the leading comment lines counted, not read.

    No string can be open before the first line of code, so those lines are comments;
    a coding declaration among them changes how the rest reads, so it is kept whole."""
    start = lines = 0
    while source.startswith(b"#", start):
        end = source.find(b"\n", start)
        if end < 0 or b"coding" in source[start:end]:
            break
        start, lines = end + 1, lines + 1
    return digest(importlib.util.MAGIC_NUMBER, str(lines), source[start:])


def _refiled(code: types.CodeType, filename: str) -> types.CodeType:
    """The code object, and every one nested in it, as compiled from `filename`."""
    consts = tuple(_refiled(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


class _NativeLoader(importlib.machinery.ExtensionFileLoader):
    """A native build (compiler/backends/native.py) in place of a module's source. An extension module
    initialises once per process, so a package imported again shares the module made first
    from the same build (the same source: the same code and tables)."""

    loaded: dict[str, types.ModuleType] = {}  # build path -> module

    def create_module(self, spec):
        found = self.loaded.get(self.path)
        return found if found is not None else super().create_module(spec)

    def exec_module(self, module):
        if self.loaded.get(self.path) is not module:
            super().exec_module(module)
            self.loaded[self.path] = module


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the modules of the packages import_package put in place, by name."""

    def __init__(self) -> None:
        self.packages: dict[str, Path] = {}
        self.sources_only: set[str] = set()  # packages whose modules never load a native build

    def find_spec(self, fullname, path=None, target=None):
        head, _, tail = fullname.partition(".")
        root = self.packages.get(fullname) or self._parent(fullname)
        if root is None:
            return None
        if fullname in self.packages:
            file = root / "__init__.py"
            return importlib.util.spec_from_file_location(
                fullname, file, loader=_Loader(fullname, str(file)),
                submodule_search_locations=[str(root)])
        module = fullname.rpartition('.')[2]
        file = root / f"{module}.py"
        if not file.is_file():
            return None
        if module in native.MODULES and fullname.rpartition(".")[0] not in self.sources_only:
            made = native.built(module, file)
            if made is not None:
                return importlib.util.spec_from_file_location(fullname, made, loader=_NativeLoader(
                    fullname, str(made)))
        return importlib.util.spec_from_file_location(fullname, file, loader=_Loader(fullname, str(file)))

    def _parent(self, fullname: str) -> Path | None:
        parent = fullname.rpartition(".")[0]
        return self.packages.get(parent) if parent else None


_FINDER = _Finder()


def import_package(name: str, where: Path, natively: bool = True) -> types.ModuleType:
    """Import the package in folder `where` as module `name`, afresh (a module of that
    name imported before, and its submodules, are forgotten first); natively=False: from its
    sources even where a native build of them exists."""
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded]
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    _FINDER.packages[name] = Path(where)
    (_FINDER.sources_only.discard if natively else _FINDER.sources_only.add)(name)
    spec = _FINDER.find_spec(name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module
