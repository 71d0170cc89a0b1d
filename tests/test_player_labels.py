"""A player shown by its label: `p.label`, and a player written by `log`, alike on both back ends.

A player's value is its seat number, as an entity's is its index; the types
say which label a `.label` reads and which `log` parts are players
(compiler/frontend/labels.py), and both back ends read the same table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.compiler.tools.testrun import run_tests
from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError
from support import BACKENDS, program

LABELS = """\
game labels "Labels"
players north "North", south "South"
param crash: bool = false
track score "Score" per player 0..99 start 0
kind card: card(points: int)
card c1 "First card" (points 1)
zone table "Table" public
var leader: player? = none
define rival(p: player) -> player = opponent(p)
define shout(p: player) -> str = p.label
procedure greet(p: player) {
    log p, "greets", rival(p), "with", c1.label, "worth", c1.points
    let other = rival(p)
    log shout(p), "and", other.label, "and", north.label
}
start {
    log "leader:", leader
    for p in players { greet(p) }
    set leader to south
    if leader != none { log "leader:", leader, leader.label }
    north chooses q in players "Who?"
    log q, "was chosen by", north, "not card", c1
    if crash {
        let gone = if crash then none else north
        log "again:", gone.label
    }
    win north "done"
}
"""
TESTS = """\
test "a player's label reads as text" {
    expect north.label == "North" and rival(north).label == "South"
    expect shout(south) == "South"
}
"""

LOG = [
    "leader: none",
    "North greets South with First card worth 1",
    "North and South and North",
    "South greets North with First card worth 1",
    "South and North and North",
    "leader: South South",
    "South was chosen by North not card First card",
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    made = tmp_path_factory.mktemp("labels")
    (made / "labels.rules").write_text(LABELS, encoding="utf-8")
    (made / "tests").mkdir()
    (made / "tests" / "labels.rules").write_text(TESTS, encoding="utf-8")
    return made


@pytest.mark.parametrize("backend", BACKENDS)
def test_log_writes_a_player_by_its_label(folder: Path, backend: str) -> None:
    game = Game(program(folder, backend), seed=1)
    game.choose("south")
    assert game.over and game.winner == "north"
    assert game.state.log == LOG


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_label_of_no_player_is_a_rule_error_at_its_spec_line(folder: Path, backend: str) -> None:
    game = Game(program(folder, backend), seed=1, params={"crash": True})
    with pytest.raises(RuleError) as err:
        game.choose("north")
    assert "none has no attribute 'label'" in str(err.value)
    assert "labels.rules:25:23:" in str(err.value)


def test_designer_tests_read_player_labels_on_both_back_ends(folder: Path) -> None:
    report = run_tests(folder)
    assert not report.failures, [o.message for o in report.failures]
    assert report.counts() == {"generated": 1, "interpreted": 1}
