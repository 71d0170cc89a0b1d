"""The smaller constructs on both back ends: `pick ... at random`, procedure values, `or skip`.

tests/specs/values exercises them in play (tests/test_differential.py plays it in lockstep);
here what play cannot show: the pick's rule error, its spread over seeds, and that it
shows nobody the card."""

from __future__ import annotations

import pytest

from runtime.game import Game
from runtime.state import RuleError
from support import one_file_spec, program

PICKS = """
game picks "Picks"
players red "Red", blue "Blue"
zone box "Box" hidden
zone hand "Hand" per player owner
zone table "Table" public
kind card: card(points: int)
card one "One" (points 1)
card two "Two" (points 2)
card three "Three" (points 3)
start {
    move all c in card to hand(blue)
    pick c at random in hand(blue)
    red chooses "Look away" { option go "Go on" { } }
    move c to table
    pick d at random in box
    win none "never"
}
"""


@pytest.fixture(scope="module")
def picks(tmp_path_factory):
    return one_file_spec(tmp_path_factory, "picks", PICKS)


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_a_pick_from_nothing_is_a_rule_error_at_its_line(picks, backend):
    game = Game(program(picks, backend), seed=1)
    with pytest.raises(RuleError) as err:
        game.choose("go")
    assert "nothing to pick at random" in err.value.reason and "or skip" in err.value.reason
    assert err.value.location.endswith("picks.rules:16:5")


def test_the_pick_is_the_same_on_both_back_ends_and_takes_every_card(picks):
    seen = set()
    for seed in range(40):
        tables = []
        for backend in ("interpreted", "generated"):
            game = Game(program(picks, backend), seed=seed)
            try:
                game.choose("go")
            except RuleError:
                pass
            tables.append(tuple(game.view("red")["zones"]["table"]))
        assert tables[0] == tables[1], f"seed {seed}"
        seen.add(tables[0])
    assert len(seen) == 3


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_the_picked_card_is_shown_to_nobody_before_it_moves(picks, backend):
    game = Game(program(picks, backend), seed=3)
    assert game.decision is not None and game.decision.player == "red"
    shown = str(game.view("red")) + "\n".join(game.state.log)
    assert not [card for card in ("'one'", "'two'", "'three'") if card in shown]
    assert game.view("red")["zones"]["hand(blue)"] == {"count": 3}


ASKED = """
game asked "Asked"
players red "Red", blue "Blue"
track score "Score" per player 0..9 start 2
define question(p: player) -> str = if score(p) > 1 then "Rich enough?" else "Poor?"
start {
    red chooses (question(red)) {
        option yes "Yes" { }
    }
    win none "done"
}
"""


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_a_menu_prompt_made_when_asked(tmp_path_factory, backend):
    game = Game(program(one_file_spec(tmp_path_factory, "asked", ASKED), backend), seed=1)
    assert game.decision.prompt == "Rich enough?"
