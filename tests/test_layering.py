"""The arrows between the packages point one way, as the pipeline runs.

Each room may import only the rooms listed for it (itself always): the runtime's kernel
nothing of the rest, the bots the kernel, the analyses and the table the bots, the front end
the kernel (and the bots' names), the back ends the front end, the designer's tools the back ends, the command line
everything. A new arrow that runs the wrong way fails here, naming the module and the import.
Within the rooms: no import cycle, and the checks use no back end.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = "rulespec"
KERNEL = "rulespec.runtime"

# room -> the rooms it may import. A module's room is the longest name here it falls under.
ALLOWED = {
    "rulespec.runtime": set(),
    "rulespec.runtime.bots": {"rulespec.runtime"},
    "rulespec.runtime.analysis": {"rulespec.runtime", "rulespec.runtime.bots"},
    "rulespec.runtime.playtest": {"rulespec.runtime", "rulespec.runtime.bots"},
    # the checks read the bots' names (a spec's `balance bot "AGENT"` must name one)
    "rulespec.compiler.frontend": {"rulespec.runtime", "rulespec.runtime.bots"},
    "rulespec.compiler.backends": {"rulespec.compiler.frontend", "rulespec.runtime"},
    "rulespec.compiler.tools": {"rulespec.compiler.frontend", "rulespec.compiler.backends",
                                "rulespec.runtime", "rulespec.runtime.bots",
                                "rulespec.runtime.analysis", "rulespec.runtime.playtest"},
    "rulespec.compiler.cli": {"rulespec.compiler.frontend", "rulespec.compiler.backends",
                              "rulespec.compiler.tools", "rulespec.runtime", "rulespec.runtime.bots",
                              "rulespec.runtime.analysis", "rulespec.runtime.playtest"},
    "rulespec.compiler": set(),
    "rulespec": {"rulespec.compiler.cli"},
}
# The back ends, and the interpreter's evaluator (what only a game in play asks); constant
# evaluation for the checks lives below them, in the front end.
BACK_ENDS = ("rulespec.compiler.backends",)
LONG_MODULE = 600  # lines; a longer module says at its top why it stays whole


def _modules() -> dict[str, Path]:
    found = {}
    roots = {"rulespec": REPO / "rulespec", "rulespec.compiler": REPO / "compiler",
             "rulespec.runtime": REPO / "runtime"}
    for package, root in roots.items():
        for path in sorted(root.rglob("*.py")):
            name = ".".join((package, *path.relative_to(root).with_suffix("").parts))
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project modules a module imports anywhere in it (local imports too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        # a package is always loaded before its modules: importing it from one is no cycle
        out.update(t for t in targets if t in MODULES and t != name and not name.startswith(t + "."))
    return out


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def room_of(name: str) -> str:
    return max((room for room in ALLOWED if name == room or name.startswith(room + ".")), key=len)


def test_every_module_has_a_room_and_every_room_says_what_it_holds():
    for room in ALLOWED:
        assert room in MODULES, f"{room} is no package"
        assert ast.get_docstring(ast.parse(MODULES[room].read_text(encoding="utf-8"))), \
            f"{MODULES[room]} opens without a docstring saying what it holds"


def test_the_arrows_between_rooms_point_one_way():
    wrong = []
    for name, targets in sorted(GRAPH.items()):
        room = room_of(name)
        for target in sorted(targets):
            other = room_of(target)
            if other != room and other not in ALLOWED[room]:
                wrong.append(f"{name} ({room}) imports {target} ({other})")
    assert not wrong, "\n".join(wrong)


def test_nothing_imports_the_old_top_level_names():
    """An installed rulespec adds one import name; the repository's code uses no other."""
    stray = {n: sorted(t for t in _raw_imports(p) if t.split(".")[0] in ("compiler", "runtime", "generated"))
             for n, p in MODULES.items()}
    assert not {n: t for n, t in stray.items() if t}


def _raw_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


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
             for n in GRAPH if n.startswith("rulespec.compiler.frontend.checks")}
    assert not {n: t for n, t in wrong.items() if t}


def test_constant_evaluation_sits_below_the_checks_and_the_interpreter():
    assert "rulespec.compiler.frontend.constant" in GRAPH["rulespec.compiler.frontend.checks.asserts"]
    assert "rulespec.compiler.frontend.constant" in GRAPH["rulespec.compiler.backends.evaluate"]
    assert not {t for t in _reached("rulespec.compiler.frontend.constant") if t.startswith(BACK_ENDS)}


def test_a_long_module_says_why_it_stays_whole():
    long = []
    for name, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        doc = ast.get_docstring(ast.parse("\n".join(lines))) or ""
        if len(lines) > LONG_MODULE and "one sitting" not in doc.lower() and "stays whole" not in doc.lower():
            long.append(f"{path.relative_to(REPO)}: {len(lines)} lines")
    assert not long, "\n".join(long)
