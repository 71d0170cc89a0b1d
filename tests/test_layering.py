"""The arrows between modules point one way: no import cycle, the runtime never imports
the compiler, and the checks use no back end."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The back ends, and the interpreter's evaluator (what only a game in play asks); constant
# evaluation for the checks lives below them, in compiler/constant.py.
BACK_ENDS = ("compiler.interpret", "compiler.evaluate", "compiler.codegen", "compiler.backends")


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(REPO.glob("compiler/**/*.py")) + sorted(REPO.glob("runtime/**/*.py")):
        name = ".".join(path.relative_to(REPO).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules a module imports anywhere in it (local imports too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        # a package is always loaded before its modules: importing it from one is no cycle
        out.update(t for t in targets if t in modules and t != name and not name.startswith(t + "."))
    return out


GRAPH = {name: _imports(name, path, _modules()) for name, path in _modules().items()}


def test_no_import_cycle():
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError("import cycle: " + " -> ".join(trail[trail.index(name):] + [name]))
        if name in done:
            return
        for target in sorted(GRAPH[name]):
            visit(target, trail + [name])
        done.add(name)
    for name in sorted(GRAPH):
        visit(name, [])


def test_the_runtime_never_imports_the_compiler():
    wrong = {n: sorted(t for t in GRAPH[n] if t.startswith("compiler")) for n in GRAPH if n.startswith("runtime")}
    assert not {n: t for n, t in wrong.items() if t}


def _reached(name: str) -> set[str]:
    """Every project module `name` imports, directly or through others."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for target in GRAPH[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_checks_use_no_back_end():
    """Not even through another module: the arrows run from the back ends to the checks."""
    wrong = {n: sorted(t for t in _reached(n) if t.startswith(BACK_ENDS))
             for n in GRAPH if n.startswith("compiler.checks")}
    assert not {n: t for n, t in wrong.items() if t}


def test_constant_evaluation_sits_below_the_checks_and_the_interpreter():
    assert "compiler.constant" in GRAPH["compiler.checks.asserts"]
    assert "compiler.constant" in GRAPH["compiler.evaluate"]
    assert not {t for t in _reached("compiler.constant") if t.startswith(BACK_ENDS)}
