"""Arithmetic past the checker: a divisor that is 0 when the rules run is a RuleError at its
spec line on both back ends (the checker reports one that is 0 by its text:
tests/broken/divisors_zero.rules), in the rules, in a define and in a policy alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError
from rulespec.runtime.values import DIVISION_BY_ZERO
from support import BACKENDS, one_file_spec, program

DIVISIONS = """\
game divisions "Divisions"
players red "Red", blue "Blue"
param share: int = 2 in 0..3
param rest: int = 2 in 0..3
param policy_by: int = 2 in 0..3
track score "Score" per player 0..99 start 0
define leftover(x: int) -> int = x % rest
start {
    add 6 / share to score(red)
    add leftover(7) to score(blue)
    red chooses "Go?" {
        option go "Go" { win red "went" }
        option stay "Stay" { win blue "stayed" }
    }
}
policy careful "Careful" {
    choosing "Go?" {
        prefer go when score(you) / policy_by > 0
    }
}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return one_file_spec(tmp_path_factory, "divisions", DIVISIONS)


def _line(err: RuleError) -> str:
    return err.location.rsplit("/", 1)[-1].rsplit(":", 1)[0] if err.location.count(":") > 1 else \
        err.location.rsplit("/", 1)[-1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_sound_divisions_run_as_before(folder: Path, backend: str) -> None:
    prog = program(folder, backend)
    game = Game(prog, seed=1)
    assert game.state.tracks[0] == 3 and game.state.tracks[1] == 1
    assert prog.prefer(game.state, "careful") == [0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("param, lines", [("share", (9,)), ("rest", (7, 10))])
def test_a_zero_divisor_in_the_rules_is_a_rule_error_at_its_line(folder, backend, param, lines):
    """In a define: its line, or (the generated engine inlines a small define) the caller's."""
    with pytest.raises(RuleError) as err:
        Game(program(folder, backend), seed=1, params={param: 0})
    assert err.value.reason == DIVISION_BY_ZERO
    assert _line(err.value) in [f"divisions.rules:{line}" for line in lines]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_zero_divisor_in_a_policy_is_a_rule_error_at_its_line(folder: Path, backend: str) -> None:
    prog = program(folder, backend)
    game = Game(prog, seed=1, params={"policy_by": 0})
    with pytest.raises(RuleError) as err:
        prog.prefer(game.state, "careful")
    assert err.value.reason == DIVISION_BY_ZERO
    assert _line(err.value) == "divisions.rules:18"


def test_a_division_by_zero_in_the_runtime_itself_stays_a_bug() -> None:
    from rulespec.runtime.values import rule_error_of
    try:
        1 // 0
    except ZeroDivisionError as err:
        assert rule_error_of(err) is err


# ------------------------------------------------------------------ the bound of whole numbers

GROWTH = """\
game growth "Growth"
players red "Red", blue "Blue"
param mode: int = 0 in 0..6
var counter_k: int = 2
kind field: space()
field a "A"
counter marks "Marks" per player on field
procedure keep(n: int) {
    set counter_k to n
}
start {
    if mode == 1 {
        while counter_k >= 0 { set counter_k to counter_k * counter_k }
    } else if mode == 2 {
        add 1 to marks(red, a)
        while marks(red, a) > 0 { add marks(red, a) to marks(red, a) }
    } else if mode == 3 {
        let x = 3
        while x > 0 { set x to x * 1000 }
    } else if mode == 4 {
        while counter_k > 0 { keep(counter_k * counter_k) }
    } else if mode == 5 {
        for i in 1..counter_k * 1000000 { add 1 to marks(red, a) }
    } else if mode == 6 {
        roll best from counter_k * 100000 dice
    }
    red chooses "Go?" {
        option go "Go" { win red "went" }
    }
}
"""


@pytest.fixture(scope="module")
def growth(tmp_path_factory) -> Path:
    return one_file_spec(tmp_path_factory, "growth", GROWTH)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sound_game_stays_within_the_bound(growth: Path, backend: str) -> None:
    game = Game(program(growth, backend), seed=1)
    assert game.state.pending is not None and game.state.vars[0] == 2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mode, line, words", [
    (1, 13, "past the bound of -9,223,372,036,854,775,808..9,223,372,036,854,775,807"),
    (2, 16, "past the bound"),
    (3, 19, "past the bound"),
    (4, 21, "past the bound"),
    (5, 23, "more than the 1,000,000 a range may hold"),
    (6, 25, "cannot roll 200000 dice (at most 10,000 at once)"),
])
def test_a_value_that_grows_without_end_is_a_rule_error_at_its_line(growth, backend, mode, line, words):
    """Squaring a var, doubling a counter, a local, an argument; a range and a roll past their
    caps: each stops at once (it filled memory or never ended before)."""
    with pytest.raises(RuleError) as err:
        Game(program(growth, backend), seed=1, params={"mode": mode})
    assert words in err.value.reason
    assert _line(err.value) == f"growth.rules:{line}"
