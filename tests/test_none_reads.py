"""None where a player, space or card is needed, past the checker: a RuleError at the spec line, not a TypeError.

The checker reports a value declared maybe-none that is read without a test
(tests/broken/nones_maybe_none.rules); a none that arrives another way (an
`if … then none else …` in a let, a define that may give none) is caught when
the rules run, on both back ends, in the rules and in a policy alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError
from rulespec.runtime.values import NONE_READ
from support import BACKENDS, one_file_spec, program

NONES = """\
game nones "Nones"
players red "Red", blue "Blue"
param broken: bool = false
param broken_policy: bool = false
track score "Score" per player 0..99 start 0
kind place: space(size: int)
place a "A" (size 1) adjacent b
place b "B" (size 2) adjacent a
counter marks "Marks" per player on place
define pick(none_then: bool) -> place? = if none_then then none else a
start {
    let s = pick(broken)
    add marks(red, s) + 1 to score(red)
    red chooses "Go?" {
        option go "Go" { win red "went" }
        option stay "Stay" { win blue "stayed" }
    }
}
policy careful "Careful" {
    choosing "Go?" {
        prefer go when count(t in adjacent(pick(broken_policy)) where marks(you, t) == 0) > 0
    }
}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return one_file_spec(tmp_path_factory, "nones", NONES)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sound_games_run_as_before(folder: Path, backend: str) -> None:
    prog = program(folder, backend)
    game = Game(prog, seed=1)
    assert game.state.tracks[0] == 1 and prog.prefer(game.state, "careful") == [0]
    game.choose("go")
    assert game.winner == "red"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_none_counter_cell_is_a_rule_error_at_its_line(folder: Path, backend: str) -> None:
    with pytest.raises(RuleError) as err:
        Game(program(folder, backend), seed=1, params={"broken": True})
    assert err.value.reason == NONE_READ
    assert err.value.location.rsplit("/", 1)[-1] in ("nones.rules:13", "nones.rules:13:9")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_none_in_a_policy_is_a_rule_error_at_its_line(folder: Path, backend: str) -> None:
    prog = program(folder, backend)
    game = Game(prog, seed=1, params={"broken_policy": True})
    with pytest.raises(RuleError) as err:
        prog.prefer(game.state, "careful")
    assert err.value.reason == NONE_READ
    assert err.value.location.rsplit("/", 1)[-1] in ("nones.rules:21", "nones.rules:21:24")
