"""Two generic additions, on both back ends: `reachable(x from s where c)` (a path in the
map graph filtered by a condition) and `roll a, b from n dice` (dice sorted highest first)."""

from __future__ import annotations

import pytest

from rulespec.compiler.backends import engine
from rulespec.compiler.backends.codegen import compile_game
from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.tools.testrun import run_tests
from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError

# a - b - [c] - d - e, and f off the line beside b: c is a wall.
PATHS = """\
game paths "Paths"
players red "Red", blue "Blue"
param mode: int = 0 "What the start does"
kind cell: space(wall: bool = false)
track best "Best" per player 0..99 start 0
var nowhere: cell? = none
cell a "A" adjacent b
cell b "B" adjacent a, c, f
cell c "C" (wall) adjacent b, d
cell d "D" adjacent c, e
cell e "E" adjacent d
cell f "F" adjacent b
map { require connected }
define open_from(s: cell) -> int = count(x in reachable(t from s where not t.wall))
procedure duel(n: int) {
    roll a1, a2, a3 from n dice
    roll d1, d2 from 2 dice
    set best(red) to a1 * 10 + a2
    set best(blue) to d1 * 10 + d2
    if a3 > 0 { add a3 to best(red) }
}
start {
    if mode == 1 { duel(0 - 1) }
    if mode == 2 { set best(red) to count(x in reachable(t from nowhere)) }
    red chooses t in reachable(s from a where not s.wall) where t != a "Where to?"
    duel(3)
    if t == f { win blue "to f" }
    win red "elsewhere"
}
test "reachable goes through passable spaces only" {
    expect open_from(a) == 3 and open_from(e) == 2 "a, b, f; d, e"
    expect count(x in reachable(t from c where not t.wall)) == 6 "the start need not pass"
    expect c not in reachable(t from a where not t.wall) and f in reachable(t from a where not t.wall)
    expect count(x in reachable(t from a)) == 6 "without where: the whole component"
    expect count(x in reachable(t from a where false)) == 1 "nothing passes: the start alone"
}
test "a choice from reachable offers spaces in declaration order" {
    start
    expect offered "b", "f"
    expect not offered "a", "c", "d"
}
test "dice are sorted highest first and missing ones are 0" {
    dice 2, 6, 4, 1, 5
    duel(3)
    expect best(red) == 66 and best(blue) == 51 "6, 4 and 2 (added); 5 and 1"
    dice 3, 5, 1
    duel(1)
    expect best(red) == 30 "one die: the second and third are 0"
}
test "more dice than names keep the highest" {
    dice 1, 6, 3
    roll best_die from 3 dice
    expect best_die == 6
}
"""


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("paths") / "paths"
    folder.mkdir()
    (folder / "paths.rules").write_text(PATHS, encoding="utf-8")
    loaded = load_spec(folder)
    package = folder.parent / "pkg"
    compile_game(loaded.model, package)
    return {"interpreted": Interpreter(loaded.model),
            "generated": engine.load_program(loaded, "generated", package), "folder": folder}


def test_designer_tests_pass_on_both_back_ends(programs):
    report = run_tests(programs["folder"])
    assert not report.failures, [o.message for o in report.failures]
    assert report.counts() == {"generated": 4, "interpreted": 4}


def _play(program, choice: str) -> tuple[list, dict]:
    game = Game(program, seed=5)
    offered = list(game.decision.option_ids)
    game.choose(choice)
    return offered, {"result": game.state.result, "tracks": game.state.tracks}


@pytest.mark.parametrize("choice", ["b", "f"])
def test_both_back_ends_agree(programs, choice):
    plays = {name: _play(programs[name], choice) for name in ("interpreted", "generated")}
    assert plays["interpreted"] == plays["generated"]
    offered, seen = plays["interpreted"]
    assert offered == ["b", "f"]
    assert seen["result"]["winner"] == (1 if choice == "f" else 0)


@pytest.mark.parametrize("mode, message", [(1, "cannot roll -1 dice"),
                                           (2, "cannot look for what is reachable from none")])
def test_bad_values_fail_alike_at_the_spec_line(programs, mode, message):
    errors = {}
    for name in ("interpreted", "generated"):
        with pytest.raises(RuleError) as caught:
            Game(programs[name], seed=1, params={"mode": mode})
        errors[name] = str(caught.value)
    assert errors["interpreted"] == errors["generated"]
    assert message in errors["interpreted"] and "paths.rules:" in errors["interpreted"]
