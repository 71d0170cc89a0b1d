"""max / min / argmax / argmin over a collection: checked, and the same on both back ends.

A small game deals cards at random and asks each fold of the hand; designer tests state
the values (the empty hand's too), and random games compare the back ends move for move."""

from __future__ import annotations

import pytest

from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.tools.testrun import run_tests
from support import one_file_spec, played_on_both

HIGHS = """
game highs "Highs"
players red "Red", blue "Blue"
zone deck "Deck" hidden
zone hand "Hand" per player owner
zone table "Table" public
kind card: card(points: int)
card one "One" (points 1)
card two "Two" (points 2)
card three "Three" (points 3)
card other_three "Other three" (points 3)
card five "Five" (points 5)
track score "Score" per player -99..99 start 0

define best(p: player) -> int = max(c.points for c in hand(p) else 0)
define worst(p: player) -> int = min(c.points for c in hand(p) where c.points > 1 else -1)
define best_card(p: player) -> card? = argmax(c.points for c in hand(p))
define worst_card(p: player) -> card? = argmin(c.points for c in hand(p) where c.points > 1)

start {
    move all c in card to deck
    shuffle deck
    for p in players { repeat 2 { move top(deck) to hand(p) } }
    for p in players {
        p chooses c in hand(p) "Lay a card down"
        move c to table
        set score(p) to best(p) * 10 + worst(p)
        let b = best_card(p)
        if b != none { add b.points to score(p) }
        let w = worst_card(p)
        if w == none { add 50 to score(p) }
    }
    win none "done"
}

test "max and argmax: the highest, the first on a tie; min over a filter" {
    move all c in card to deck
    move three to hand(red)
    move other_three to hand(red)
    move one to hand(red)
    expect best(red) == 3
    expect best_card(red) == three
    expect worst(red) == 3
    expect worst_card(red) == three
    move three to table
    expect best_card(red) == other_three
}

test "an empty collection: max gives its else, argmax none" {
    move all c in card to deck
    expect best(red) == 0
    expect worst(red) == -1
    expect best_card(red) == none
    move one to hand(red)
    expect worst_card(red) == none
    expect best_card(red) == one
}
"""


@pytest.fixture(scope="module")
def highs(tmp_path_factory):
    return one_file_spec(tmp_path_factory, "highs", HIGHS)


def test_designer_tests_of_the_folds_pass_on_both_back_ends(highs):
    report = run_tests(highs)
    assert report.failures == [] and report.problems == []
    assert report.counts() == {"interpreted": 2, "generated": 2}


def test_random_games_agree_move_for_move(highs):
    scores = set()
    for seed in range(30):
        interpreted, generated = played_on_both(highs, seed)
        assert interpreted == generated
        scores.add(interpreted[1])
    assert len(scores) > 3  # the deals differ, so do the folds


@pytest.mark.parametrize("text, message", [
    ("define a(p: player) -> int = max(c.points for c in hand(p))",
     "'max' needs `else VALUE`: its value when no member is there (max(... else 0))"),
    ("define a(p: player) -> card? = argmin(c.points for c in hand(p) else one)",
     "'argmin' gives none when no member is there: it takes no `else` (write `if x == none`)"),
    ("define a(p: player) -> int = max(c for c in hand(p) else 0)",
     "the value of 'max' must be int, not card"),
    ("define a(p: player) -> int = highest(c.points for c in hand(p) else 0)",
     "'highest(... for x in ...)' is not a fold: write sum, max, min, argmax or argmin"),
])
def test_bad_folds_are_one_clear_error(tmp_path, text, message):
    spec = HIGHS.split("define best")[0] + text + "\nstart { win none \"done\" }\n"
    (tmp_path / "bad.rules").write_text(spec, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path)
    assert message in str(err.value)
