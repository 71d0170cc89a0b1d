"""The interpreter: every node kind has a handler, every builtin an evaluation, unknown nodes fail loudly."""

from __future__ import annotations

import dataclasses

import pytest

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.types import BUILTIN_RESULTS, BUILTIN_VALUES
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.frontend.constant import _BUILTINS, ZONE_BUILTINS
from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.backends.testplan import DRIVING
from rulespec.runtime.game import new_state
from support import MINI, loaded


def interpreter() -> Interpreter:
    return Interpreter(loaded(MINI).model)


def test_every_expression_node_has_an_evaluation():
    ev = interpreter().ev
    classes = ast.node_classes(ast.Expr)
    assert len(classes) >= 19
    missing = [c.__name__ for c in classes if not ev.handles(c)]
    assert not missing, f"expression nodes the interpreter does not evaluate: {missing}"


def test_every_statement_node_has_an_execution():
    interp = interpreter()
    # the steps that drive a designer test are planned (compiler/backends/testplan.py), not executed
    missing = [c.__name__ for c in ast.node_classes(ast.Stmt) if c not in DRIVING and not interp.handles(c)]
    assert not missing, f"statement nodes the interpreter does not execute: {missing}"


def test_every_builtin_of_the_language_has_an_evaluation():
    interp = interpreter()
    state = new_state(interp.meta, seed=0, params={})
    for name in BUILTIN_VALUES:
        if name != "players":  # a collection, not a value
            interp.ev.value(state, {}, ast.NameRef(ast.NOWHERE, name))
    missing = [n for n in BUILTIN_RESULTS if n not in _BUILTINS and n not in ZONE_BUILTINS]
    assert not missing, f"builtins the interpreter does not evaluate: {missing}"


@dataclasses.dataclass(frozen=True, slots=True)
class Strange(ast.Expr):
    """An expression the interpreter has never heard of."""


@dataclasses.dataclass(frozen=True, slots=True)
class Odd(ast.Stmt):
    """A statement the interpreter has never heard of."""


def test_an_unknown_node_fails_loudly():
    interp = interpreter()
    state = new_state(interp.meta, seed=0, params={})
    with pytest.raises(InternalError, match="does not handle Strange"):
        interp.ev.value(state, {}, Strange(ast.NOWHERE))
    block = interp.block_id(ast.Block(ast.NOWHERE, (Odd(ast.NOWHERE),)))
    state.frames.append({"proc": "odd", "env": {}, "cur": [[block, 0, None]], "wait": None})
    with pytest.raises(InternalError, match="does not handle Odd"):
        interp.run(state)


def test_blocks_loops_and_menus_are_numbered_in_walk_order_whatever_was_walked_before():
    # (a saved state names them by number; the walk of shared declarations is cached per process)
    from support import REPO
    from rulespec.compiler.frontend.loader import available_variants, load_spec
    folder = REPO / "spec" / "twilight_struggle"
    models = [load_spec(folder, check=False).model]
    models += [load_spec(folder, (v,), check=False, base_tests=False).model for v in available_variants(folder)]
    for model in models + models[:1]:
        interp = Interpreter(model)
        for cls, numbered in ((ast.Block, interp.blocks), (ast.While, interp.whiles), (ast.Menu, interp.menus)):
            plain: dict[int, ast.Node] = {}
            for root in [model.spec, *model.tests]:
                for node in root.walk():
                    if isinstance(node, cls):
                        plain.setdefault(id(node), node)
            assert [id(n) for n in numbered] == list(plain), (model.variants, cls.__name__)
