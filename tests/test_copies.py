"""Copies of a card (issue 43 item 4): `card guard "Guard" ... copies 3` is three cards of one text,
ids guard_1 .. guard_3, one label, one event (one generated routine), each its own entity; the
bare name is none of them (the checker says so: tests/broken/kinds_copies.rules)."""

from __future__ import annotations

import sys

import pytest

from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.tools.testrun import run_tests
from support import one_file_spec, played_on_both, program

GUARDS = """
game guards "Guards"
players red "Red", blue "Blue"
zone deck "Deck" hidden
zone hand "Hand" per player owner
zone discard "Discard" public
kind card: card(number: int)
track score "Score" per player 0..30 start 0
card guard "Guard" (number 1) copies 3 {
    event { add this.number to score(you) }
}
card priest "Priest" (number 2) {
    event { add 2 to score(you) }
}
start {
    shuffle deck
    repeat 2 { for p in players { move top(deck) to hand(p) } }
    for p in players {
        p chooses c in hand(p) "Play a card"
        move c to discard
        resolve c for p
    }
    win none "done"
}
test "each copy is its own card, with the one text" {
    move guard_2 to hand(red)
    resolve guard_2 for red
    resolve guard_3 for blue
    expect score(red) == 1 and score(blue) == 1
    expect guard_1.label == "Guard" and guard_1 != guard_2
    expect count(c in card where c.number == 1) == 3
    expect guard_2 in hand(red) and guard_1 not in hand(red)
}
"""


@pytest.fixture(scope="module")
def guards(tmp_path_factory):
    return one_file_spec(tmp_path_factory, "guards", GUARDS)


def test_copies_are_entities_with_their_own_ids_and_one_label(guards):
    model = load_spec(guards).model
    assert model.copies == {"guard": ("guard_1", "guard_2", "guard_3")}
    assert [e.name.name for e in model.entities] == ["guard_1", "guard_2", "guard_3", "priest"]
    assert {e.label for e in model.entities[:3]} == {"Guard"} and "guard" not in model.entity_index
    assert all(model.event_of(i) is model.event_of(0) for i in range(3))  # one event


def test_the_designer_test_passes_on_both_back_ends(guards):
    report = run_tests(guards)
    assert report.failures == [] and report.counts() == {"interpreted": 1, "generated": 1}


def test_the_generated_engine_has_one_routine_for_the_copies(guards):
    procedures = sys.modules[type(program(guards, "generated")).__module__.rsplit(".", 1)[0] + ".procedures"]
    events = procedures.EVENT_PLAIN
    assert events[0] is events[1] is events[2] and events[3] is not events[0]


def test_random_games_agree_move_for_move(guards):
    played = set()
    for seed in range(20):
        interpreted, generated = played_on_both(guards, seed)
        assert interpreted == generated
        played.update(interpreted[0])
    assert {"guard_1", "guard_2", "guard_3"} & played  # copies are offered by their own ids
