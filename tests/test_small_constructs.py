"""The smaller constructs on both back ends: `pick ... at random`, procedure values, `or skip`,
`unless forced`.

tests/specs/values exercises them in play (tests/test_differential.py plays it in lockstep);
here what play cannot show: the pick's rule error, its spread over seeds, and that it
shows nobody the card."""

from __future__ import annotations

import pytest

from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError
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


FORCED = """
game forced "Forced"
players red "Red", blue "Blue"
track score "Score" per player 0..99 start 0
zone hand "Hand" per player owner
zone played "Played" public
kind card: card(points: int)
card one "One" (points 1)
card two "Two" (points 2)
define question(p: player) -> str = if score(p) > 40 then "Rich, a bonus?" else "A bonus?"
procedure take(p: player, most: int) {
    p chooses n in 1..most "How many, up to {most}?" unless forced
    add n to score(p)
}
procedure play(p: player) {
    p chooses c in hand(p) "Play which card?" unless forced or skip
    move c to played
    add 10 * c.points to score(p)
    log p, "plays", c.label
}
procedure bonus(p: player) {
    p chooses "Big or small?" unless forced {
        option big "Big" when score(p) >= 5 { add 5 to score(p) }
        option small "Small" { add 1 to score(p) }
    }
    p chooses (question(p)) unless forced {
        option yes "Yes" { add 20 to score(p) }
        option no "No" when score(p) > 40 { }
    }
}
start {
    take(red, 1)
    take(red, 3)
    move one to hand(blue)
    play(blue)
    play(blue)
    bonus(red)
    move all c in card to hand(red)
    play(red)
    bonus(red)
    take(blue, 0)
    win none "done"
}
"""


@pytest.fixture(scope="module")
def forced(tmp_path_factory):
    return one_file_spec(tmp_path_factory, "forced", FORCED)


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_unless_forced_asks_only_with_more_than_one_option(forced, backend):
    game = Game(program(forced, backend), seed=1)
    # take(red, 1) took its only option without asking; take(red, 3) asks
    assert (game.decision.player, game.decision.prompt) == ("red", "How many, up to 3?")
    assert game.tracks()["score"]["red"] == 1
    game.choose("2")
    # play(blue): the one card, unasked; then nothing to play: skipped; bonus(red): each
    # menu offers one option (score 3: not big; not more than 40: only yes), run unasked
    assert game.state.log == ["Blue plays One"]
    assert game.tracks()["score"] == {"red": 1 + 2 + 1 + 20, "blue": 10}
    assert game.decision.prompt == "Play which card?"  # two cards: asked
    game.choose("two")
    assert game.decision.prompt == "Big or small?"  # score 44: both options offered
    game.choose("big")
    assert game.decision.prompt == "Rich, a bonus?"
    with pytest.raises(RuleError) as err:  # take(blue, 0): no option is a dead end, as without it
        game.choose("no")
    assert "dead end" in err.value.reason and err.value.location.endswith("forced.rules:12:5")
    assert game.choices == ["2", "two", "big", "no"]
    assert game.state.log == ["Blue plays One", "Red plays Two"]
    assert game.tracks()["score"] == {"red": 24 + 20 + 5, "blue": 10}
