"""Arithmetic past the checker: a divisor that is 0 when the rules run is a RuleError at its
spec line on both back ends (the checker reports one that is 0 by its text:
tests/broken/divisors_zero.rules), in the rules, in a define and in a policy alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from runtime.game import Game
from runtime.state import RuleError
from runtime.values import DIVISION_BY_ZERO
from support import BACKENDS, program

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
    made = tmp_path_factory.mktemp("divisions")
    (made / "divisions.rules").write_text(DIVISIONS, encoding="utf-8")
    return made


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
    from runtime.values import rule_error_of
    try:
        1 // 0
    except ZeroDivisionError as err:
        assert rule_error_of(err) is err
