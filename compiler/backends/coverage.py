"""Spec coverage: which statement lines and branches of a spec a game reached.

The plan (which lines hold statements, which arms each `if` and menu has) is read from
the checked AST as plain data; runtime/analysis/coverage.py counts games against it and
writes the reports. The interpreter counts exactly, with its statement executors swapped
for counting ones; the generated engine counts lines, traced through the `# spec:`
comments that lead its statements (runtime/analysis/coverage.py). Either way a game that
is not counted runs the plain code and pays nothing.
"""

from __future__ import annotations

import ast as pyast
import re
import sys
from collections import defaultdict
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any, Callable

from rulespec.compiler.backends.engine import BackendError
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.locations import spec_path

NONE_TAKEN = "none taken"  # an `if` without `else` whose every condition was false
# A routine's docstring as compiler/backends/codegen/view.py writes it: "LABEL (file:line)".
ROUTINE_DOC = re.compile(r"\(\S+:\d+\)$")


def _line(stmt: ast.Node) -> str:
    return f"{spec_path(stmt.span.file)}:{stmt.span.line}"


def _arms(stmt: ast.Stmt) -> list[tuple[str, ast.Block | None]]:
    """(label, body) of each way through an `if` or a menu; body None: no arm taken."""
    if isinstance(stmt, ast.If):
        arms = [("then" if n == 0 else f"else if {n}", block)
                for n, (_, block) in enumerate(stmt.branches)]
        return arms + [("else", stmt.otherwise) if stmt.otherwise is not None else (NONE_TAKEN, None)]
    return [(f"option {o.name.name}", o.body) for o in stmt.options if o.body.body]


class Plan:
    """The statement lines and branch arms of a model, and the AST nodes that reach them."""

    def __init__(self, model) -> None:
        self.line_of: dict[int, str] = {}  # id(statement) -> "file:line"
        self.arm_of_first: dict[int, str] = {}  # id(an arm's first statement) -> arm key
        self.none_taken: dict[int, str] = {}  # id(if without else) -> its "none taken" key
        self.sources: dict[str, str] = {}  # spec file as locations name it -> its path
        self.arms: list[dict[str, Any]] = []
        self._nodes: list[ast.Node] = []  # kept alive: the tables are keyed by id()
        statements = [s for block in model.spec.find_all(ast.Block) for s in block.body]
        for stmt in statements:
            self.line_of[id(stmt)] = _line(stmt)
            self.sources.setdefault(spec_path(stmt.span.file), str(Path(stmt.span.file).resolve()))
        self._nodes.extend(statements)
        owners = defaultdict(list)  # "file:line" -> statements written on it
        for stmt in statements:
            owners[self.line_of[id(stmt)]].append(id(stmt))
        for stmt in statements:
            if isinstance(stmt, (ast.If, ast.Menu)):
                self._add_arms(stmt, owners)

    def _add_arms(self, stmt: ast.If | ast.Menu, owners: dict[str, list[int]]) -> None:
        at = f"{spec_path(stmt.span.file)}:{stmt.span.line}:{stmt.span.column}"
        for label, body in _arms(stmt):
            key = f"{at} {label}"
            first = None
            if body is None:
                self.none_taken[id(stmt)] = key
            else:
                head = body.body[0]
                self.arm_of_first[id(head)] = key
                inside = {id(s) for b in body.find_all(ast.Block) for s in b.body}
                line = self.line_of[id(head)]
                # a line of its own: reached only through this arm, so a traced line tells
                if line != _line(stmt) and all(o in inside for o in owners[line]):
                    first = line
            self.arms.append({"key": key, "at": at, "label": label, "first": first})

    def data(self) -> dict[str, Any]:
        """The plan as plain data (runtime/analysis/coverage.py reads it; picklable)."""
        lines: dict[str, set[int]] = defaultdict(set)
        for where in self.line_of.values():
            file, _, line = where.rpartition(":")
            lines[file].add(int(line))
        return {"lines": {f: sorted(ls) for f, ls in sorted(lines.items())},
                "arms": self.arms, "sources": dict(sorted(self.sources.items()))}


def count_interpreted(interpreter, plan: Plan, note: Callable[[str], None]) -> None:
    """Make `interpreter` call note(key) for every statement line it runs and every arm it
    takes: its executors are swapped for counting ones (an interpreter not counted keeps
    the plain ones)."""
    line_of, arm_of_first, none_taken = plan.line_of, plan.arm_of_first, plan.none_taken

    def counting(kind: type, run: Callable) -> Callable:
        def statement(state, frame, stmt):
            note(line_of.get(id(stmt)) or _line(stmt))
            arm = arm_of_first.get(id(stmt))
            if arm is not None:
                note(arm)
            run(state, frame, stmt)

        def choice(state, frame, stmt):
            entered = len(frame["cur"])
            statement(state, frame, stmt)
            if len(frame["cur"]) == entered and id(stmt) in none_taken:
                note(none_taken[id(stmt)])
        return choice if kind is ast.If else statement

    interpreter.wrap_statements(counting)


class Counter:
    """Counts one game at a time: begin(), play, end() -> the keys the game reached. `told`:
    the arm keys this back end can count (the others it cannot tell from its lines)."""

    def __init__(self, told: frozenset[str], start: Callable[[set], None] = lambda reached: None,
                 stop: Callable[[], None] = lambda: None) -> None:
        self.reached: set[str] = set()
        self.told = told
        self._start, self._stop = start, stop

    def begin(self) -> None:
        self.reached = set()
        self._start(self.reached)

    def end(self) -> frozenset[str]:
        self._stop()
        return frozenset(self.reached)


def counter(program, plan: Plan) -> Counter:
    """A Counter for `program` on its own back end: the interpreter counts statements and arms
    as it runs them; the generated engine's pure Python routines are traced line by line."""
    if program.backend == "interpreted":
        made = Counter(frozenset(arm["key"] for arm in plan.arms))
        count_interpreted(program, plan, lambda key: made.reached.add(key))
        return made
    tracer = LineTracer(generated_modules(program), plan)
    return Counter(tracer.told, tracer.start, tracer.stop)


def generated_modules(program) -> list[ModuleType]:
    """The generated package's modules that hold statements (procedures and rules)."""
    package = type(program).__module__
    return [sys.modules[f"{package}.{name}"] for name in ("procedures", "rules")
            if f"{package}.{name}" in sys.modules]


class LineMap:
    """Python line -> the keys its running reaches, read from a generated module's text: the
    "file:line" of the spec statement a `# spec:` comment leads (every line of that statement's
    head: a wrapped `if` test may run on any of them), and the arm of an `if` whose Python
    `if`/`elif`/`else` chain has the spec's shape (each Python arm's first line)."""

    def __init__(self, source: str, plan: Plan) -> None:
        self.keys: dict[int, tuple[str, ...]] = {}
        self.told: set[str] = set()
        wanted = set(plan.line_of.values())
        arms_at: dict[str, list[list[dict]]] = defaultdict(list)  # "file:line" -> arm groups
        for arm in plan.arms:
            groups = arms_at[arm["at"].rpartition(":")[0]]
            if not groups or groups[-1][0]["at"] != arm["at"]:
                groups.append([])
            groups[-1].append(arm)
        firsts = {arm["first"]: arm["key"] for arm in plan.arms if arm["first"]}
        tree = pyast.parse(source)
        heads = {node.lineno: node for node in pyast.walk(tree) if isinstance(node, pyast.stmt)}
        for node in pyast.walk(tree):
            where = _loop_tick(node)
            if where in wanted:  # a loop in blocks has no comment of its own at its head
                self._add(range(node.lineno, node.end_lineno + 1), where)
        lines = source.splitlines()
        for number, text in enumerate(lines, 1):
            where = text.strip().removeprefix("# spec: ")
            if where == text.strip() or where not in wanted:
                continue
            after = number + 1
            while after <= len(lines) and lines[after - 1].strip().startswith("#"):
                after += 1
            node = heads.get(after)
            if node is None:
                continue
            self._add(_head(node), where)
            if where in firsts:
                self._add(_head(node), firsts[where])
            if isinstance(node, pyast.If) and len(arms_at.get(where, ())) == 1:
                self._if_arms(node, arms_at[where][0], lines)

    def _add(self, lines, key: str) -> None:
        for line in lines:
            self.keys[line] = self.keys.get(line, ()) + (key,)

    def _if_arms(self, node: pyast.If, arms: list[dict], lines: list[str]) -> None:
        """Each Python arm's first statement reaches its spec arm, when the chain has the spec's
        shape: one Python test per spec test, then an `else` for the spec's last arm (a spec
        `if` without `else` has none in plain code: its "none taken" is not told apart)."""
        bodies = [node.body]
        while len(node.orelse) == 1 and isinstance(node.orelse[0], pyast.If) and \
                lines[node.orelse[0].lineno - 1].lstrip().startswith("elif"):
            node = node.orelse[0]
            bodies.append(node.body)
        if node.orelse:
            bodies.append(node.orelse)
        tests = len(arms) - 1  # the last arm is `else` or "none taken"
        if len(bodies) not in (tests, tests + 1):
            return
        for arm, body in zip(arms, bodies):
            self._add(_head(body[0]), arm["key"])
            self.told.add(arm["key"])


def _head(node: pyast.stmt) -> range:
    """The lines of a statement's head: all of a simple one, a compound one's up to its body."""
    body = getattr(node, "body", None)
    end = body[0].lineno - 1 if isinstance(body, list) and body else node.end_lineno
    return range(node.lineno, end + 1)


def _loop_tick(node: pyast.AST) -> str | None:
    """"file:line" of a `tick(state, "while"|"repeat", "file:line:col")` call, which a loop's
    every round makes (runtime/state.py)."""
    if (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "tick"
            and node.args and isinstance(node.args[-1], pyast.Constant)
            and isinstance(node.args[-1].value, str)):
        return node.args[-1].value.rpartition(":")[0]
    return None


class LineTracer:
    """sys.settrace over the generated routines (the functions whose docstring names their spec
    line, as the code generator writes it: `procedure deal (spec/g/round.rules:10)`). The other
    functions' `# spec:` comments lead conditions (a trigger's `when`), not statements."""

    def __init__(self, modules: list[ModuleType], plan: Plan) -> None:
        self.lines: dict[CodeType, dict[int, tuple[str, ...]]] = {}
        told: set[str] = {arm["key"] for arm in plan.arms if arm["first"]}
        for module in modules:
            file = getattr(module, "__file__", "") or ""
            if not file.endswith(".py"):
                raise BackendError(f"{module.__name__} is a native build: spec coverage traces the"
                                   f" pure Python modules (run with RULESPEC_NATIVE=0)")
            found = LineMap(Path(file).read_text(encoding="utf-8"), plan)
            told |= found.told
            for value in vars(module).values():
                if (isinstance(value, FunctionType) and value.__module__ == module.__name__
                        and ROUTINE_DOC.search(value.__doc__ or "")):
                    self.lines[value.__code__] = found.keys
        self.told = frozenset(told)

    def start(self, reached: set[str]) -> None:
        routines = self.lines

        def call(frame, event, arg):
            lines = routines.get(frame.f_code)
            if lines is None:
                return None

            def line(frame, event, arg):
                if event == "line":
                    keys = lines.get(frame.f_lineno)
                    if keys is not None:
                        reached.update(keys)
                return line
            return line
        sys.settrace(call)

    def stop(self) -> None:
        sys.settrace(None)


class CountedRef:
    """A program recipe (engine.ProgramRef) whose program counts spec coverage game by game
    (`program.spec_coverage`, a Counter; runtime/analysis/simulate.py reads it): picklable, so
    each worker process counts its own games."""

    def __init__(self, ref) -> None:
        self.ref, self.variants = ref, ref.variants

    def load(self):
        from rulespec.compiler.frontend.loader import load_spec
        program = self.ref.load()
        model = getattr(program, "model", None) or load_spec(Path(self.ref.folder), self.variants).model
        program.spec_coverage = counter(program, Plan(model))
        return program

    def native_modules(self) -> list[str]:
        return []  # coverage traces the pure Python modules

    def __repr__(self) -> str:
        return f"CountedRef({self.ref!r})"


def reference_counter(model, programs: list) -> tuple[Counter, dict[str, Any], str]:
    """The counter of the back end that counts best among `programs` (the interpreter, which
    tells every arm), the plan as data and that back end's name."""
    program = next((p for p in programs if p.backend == "interpreted"), programs[0])
    plan = Plan(model)
    return counter(program, plan), plan.data(), program.backend
