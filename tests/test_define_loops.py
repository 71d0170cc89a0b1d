"""A define that is a whole `any` or `all` is generated as a loop that returns at the first
deciding member (compiler/backends/codegen/expr.py `loop`), kept or not; an `any` or `all` inside an
expression as a call of a walk helper doing the same (compiler/backends/codegen/walks.py). No generator
expression, so no closure, and every value is the interpreter's in every state."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from rulespec.compiler.backends.codegen.walks import renamed
from rulespec.runtime.game import Game
from support import one_file_spec, program, spec_value

LOOPS = """\
game looping "Looping"
players north "North", south "South"
zone deck "Deck" public ordered
zone hand "Hand" per player owner
kind card: card(points: int)
card c1 "C1" (points 1)
card c2 "C2" (points 2)
card c3 "C3" (points 3)
card c4 "C4" (points 4)
card c5 "C5" (points 5)
card c6 "C6" (points 6)
card c7 "C7" (points 7)
card c8 "C8" (points 8)
card c9 "C9" (points 9)
card c10 "C10" (points 10)
card c11 "C11" (points 11)
card c12 "C12" (points 12)
define holds_above(p: player, n: int) -> bool = any(c in hand(p) where c.points > n)
define all_at_most(p: player, n: int) -> bool = all(c in hand(p) where c.points <= n)
define holds_high(p: player) -> bool =
    any(c in card where c.points > 6 and c in hand(p) and c.points + 1 > 7)
define pair_above(p: player, n: int) -> bool =
    n >= 0 and any(c in hand(p) where all(d in hand(p) where d == c or d.points > n))
start {
    move all c in card to deck
    repeat 4 {
        for p in players {
            p chooses c in deck "Take which card?"
            move c to hand(p)
        }
    }
    win none "done"
}
"""
DEFINES = ("holds_above", "all_at_most", "holds_high", "pair_above")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return one_file_spec(tmp_path_factory, "looping", LOOPS)


def _rules(generated):
    return importlib.import_module(type(generated).__module__.rsplit(".", 1)[0] + ".rules")


def test_each_whole_any_or_all_is_a_loop_kept_or_not(folder):
    rules = _rules(program(folder, "generated"))
    for name in DEFINES[:3]:
        source = inspect.getsource(getattr(rules, f"d_{name}"))
        assert "any(" not in source and "all(" not in source and "\n    for " in source, source
    nested = inspect.getsource(rules.d_pair_above)  # an any holding an all: two walks
    assert "walk_" in nested and "any(" not in nested and "all(" not in nested, nested
    assert len([n for n in dir(rules) if n.startswith("walk_")]) == 2
    tree = ast.parse(inspect.getsource(rules))  # nothing left that makes a closure
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.GeneratorExp, ast.Lambda))]
    assert "state.memo" in inspect.getsource(rules.d_holds_high)  # walks a kind: kept
    assert "state.memo" not in inspect.getsource(rules.d_holds_above)  # an int argument: not


@pytest.mark.parametrize("order", [0, -1])
def test_the_loops_give_the_interpreters_values_in_every_state(folder, order):
    generated, interpreted = program(folder, "generated"), program(folder, "interpreted")
    rules = _rules(generated)
    game, reference = Game(generated, seed=5), Game(interpreted, seed=5)
    seen = set()
    while not game.over:
        for p in (0, 1):
            for n in range(0, 13):
                got = (rules.d_holds_above(game.state, p, n), rules.d_all_at_most(game.state, p, n))
                want = tuple(spec_value(interpreted, reference.state,
                                        f"{name}(p, n)", p=("player", p), n=("int", n))
                             for name in DEFINES[:2])
                assert got == want, (p, n, game.decisions)
                seen.add(got)
            for n in range(-1, 13):
                pair = spec_value(interpreted, reference.state, "pair_above(p, n)", p=("player", p),
                                  n=("int", n))
                assert rules.d_pair_above(game.state, p, n) == pair, (p, n, game.decisions)
                seen.add(("pair", pair))
            high = spec_value(interpreted, reference.state, "holds_high(p)", p=("player", p))
            assert rules.d_holds_high(game.state, p) == high
            seen.add(("high", high))
        option = game.decision.option_ids[order]
        game.choose(option)
        reference.choose(option)
    assert {(True, False), (False, True), ("high", True), ("high", False), ("pair", True),
            ("pair", False)} <= seen


def test_a_walk_renames_only_its_own_variable():
    """The same loop at two places is one helper: its variable renamed, never a longer name
    holding it or a string mentioning it."""
    text = 'attr_of(A_x, c_x, "c_x", "f:1:2") + c_xy[c_x] + f(c_x)'
    assert renamed(text, "c_x", "x_") == 'attr_of(A_x, x_, "c_x", "f:1:2") + c_xy[x_] + f(x_)'
