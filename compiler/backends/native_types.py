"""Cython declarations for a generated module's native build, read off its source.

Every generated rule and procedure takes the game state as its first parameter, `state`.
Declared `cpdef` with that parameter typed as the runtime's `State` (runtime/state.pxd), a
function reads the state's fields as C struct members instead of by attribute look-up, and the
module's calls of its own functions are C calls. Cython cannot make a function holding a
closure (a generator expression, a lambda, a nested function) `cpdef`; those stay as written.
The declarations change nothing a game does: the same code runs, compiled with types.
"""

from __future__ import annotations

import ast

# Part of every generated module's build key: a change here makes other declarations.
VERSION = "1"
_CLOSURES = (ast.GeneratorExp, ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.DictComp,
             ast.SetComp, ast.ClassDef)


def declarations(source: bytes) -> str:
    """The `.pxd` text for a generated module: its closure-free functions of `state` typed."""
    lines = ["# Declarations for the native build (compiler/backends/native_types.py).",
             "from rulespec.runtime.state cimport State", ""]
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and _typable(node):
            rest = [a.arg for a in node.args.args[1:]]
            lines.append(f"cpdef {node.name}({', '.join(['State state', *rest])})")
    return "\n".join(lines) + "\n"


def _typable(node: ast.FunctionDef) -> bool:
    args = node.args
    if (args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults
            or node.decorator_list or not args.args or args.args[0].arg != "state"):
        return False
    return not any(isinstance(inner, _CLOSURES) for inner in ast.walk(node) if inner is not node)
