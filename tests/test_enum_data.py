"""Data on enum values (issue 43 item 4): `enum character (number: int, ...) { guard (number 1), ... }`
read `v.number`, the same on both back ends (a named value's data folds to a constant in the
generated engine), checked (tests/broken/kinds_enum_data.rules), written back by fmt."""

from __future__ import annotations

import pytest

from rulespec.compiler.frontend.fmt import format_text
from rulespec.compiler.frontend.parse import parse_text
from rulespec.compiler.tools.testrun import run_tests
from support import one_file_spec, played_on_both

CHARACTERS = """
game chars "Characters"
players red "Red", blue "Blue"
enum character (number: int, rare: bool = false, word: str = "") {
    guard (number 1), priest (number 2, rare, word "looks"), baron (number 3) }
zone deck "Deck" hidden
zone hand "Hand" per player owner
kind card: card(who: character)
card c1 "Guard" (who guard)
card c2 "Priest" (who priest)
card c3 "Baron" (who baron)
track score "Score" per player 0..30 start 0
var best: character = guard
start {
    shuffle deck
    for p in players { move top(deck) to hand(p) }
    for p in players {
        p chooses c in hand(p) "Show"
        add c.who.number to score(p)
        if c.who.rare { add 10 to score(p) }
        if c.who.number > best.number { set best to c.who }
    }
    win none "done"
}
test "data on enum values" {
    expect guard.number == 1 and baron.number == 3 and priest.rare and not guard.rare
    expect priest.word == "looks" and guard.word == ""
    expect c2.who.number == 2
    expect max(c.who.number for c in card else 0) == 3
}
"""


@pytest.fixture(scope="module")
def characters(tmp_path_factory):
    return one_file_spec(tmp_path_factory, "chars", CHARACTERS)


def test_the_designer_test_passes_on_both_back_ends(characters):
    report = run_tests(characters)
    assert report.failures == [] and report.counts() == {"interpreted": 1, "generated": 1}


def test_random_games_agree_and_read_the_data(characters):
    scores = set()
    for seed in range(12):
        interpreted, generated = played_on_both(characters, seed)
        assert interpreted == generated
        scores.add(interpreted[1])
    assert any(12 in s for s in scores)  # the Priest's rare data was read: 2 + 10


def test_fmt_writes_the_data_back():
    text = format_text(CHARACTERS, "chars.rules")
    assert 'priest (number 2, rare, word "looks")' in text
    enum = parse_text(text, "chars.rules").decls[2]
    assert [v.name for v in enum.values] == ["guard", "priest", "baron"] and len(enum.fields) == 3
