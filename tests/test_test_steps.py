"""The test language's exact options and resolve's requirement (issue 43 item 7), on both back ends.

`expect options == [...]` states the exact set a decision offers, `expect count(options) OP n`
how many; `resolve CARD for P` in a test first checks the card's requirement, so a card whose
requirement is false fails the test at the resolve, naming the requirement and its line."""

from __future__ import annotations

import pytest

from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.tools.testrun import run_tests
from support import one_file_spec

PICKING = """
game picking "Picking"
players red "Red", blue "Blue"
zone deck "Deck" hidden
zone hand "Hand" per player owner
kind card: card(points: int)
track score "Score" per player 0..20 start 0
card one "One" (points 1) {
    event when score(you) >= 2 { add 1 to score(you) }
}
card two "Two" (points 2) {
    event { add 2 to score(you) }
}
card three "Three" (points 3)
procedure take(p: player) {
    p chooses c in hand(p) "Pick a card"
    add c.points to score(p)
}
start { win none "done" }

test "exact options pass" {
    move one to hand(red)
    move two to hand(red)
    take(red)
    expect options == ["two", "one"]
    expect count(options) == 2
    expect count(options) > 1
    choose "two"
}

test "a missing option fails" {
    move one to hand(red)
    take(red)
    expect options == ["one", "two"] "both in hand"
}

test "an option besides fails" {
    move one to hand(red)
    move two to hand(red)
    take(red)
    expect options == ["one"]
}

test "a wrong count fails" {
    move one to hand(red)
    take(red)
    expect count(options) >= 2
}

test "a card with no requirement resolves" {
    resolve two for red
    expect score(red) == 2
}

test "a card whose requirement holds resolves" {
    set score(red) to 2
    resolve one for red
    expect score(red) == 3
}

test "a card whose requirement is false fails at the resolve" {
    resolve one for red
    expect score(red) == 0
}
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_tests(one_file_spec(tmp_path_factory, "picking", PICKING))


def _failures(report, backend):
    return {f.case.name: f for f in report.failures if f.backend == backend}


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_the_passing_steps_pass_and_the_failing_ones_fail(report, backend):
    failed = _failures(report, backend)
    assert set(failed) == {"a missing option fails", "an option besides fails", "a wrong count fails",
                           "a card whose requirement is false fails at the resolve"}
    assert report.counts() == {"interpreted": 7, "generated": 7}


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_the_failures_say_what_differs(report, backend):
    failed = _failures(report, backend)
    missing = failed["a missing option fails"]
    assert missing.message.startswith("both in hand: the options are not exactly one, two (not offered: two)")
    assert "(offered besides: two)" in failed["an option besides fails"].message
    assert failed["a wrong count fails"].message.startswith("count(options) >= 2: 1 offered; 'Pick a card' offers one")


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_a_false_requirement_names_its_line(report, backend):
    failure = _failures(report, backend)["a card whose requirement is false fails at the resolve"]
    assert failure.location.endswith("picking.rules:62:5")  # the resolve
    assert failure.message == ("the requirement of one's event (score(you) >= 2, "
                               f"{failure.location.rsplit('/', 1)[0]}/picking.rules:9:16) is false")


def test_options_are_compared_only_with_equals(tmp_path):
    text = PICKING.split("test ")[0] + 'test "t" {\n    expect options != ["one"]\n}\n'
    (tmp_path / "bad.rules").write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path)
    assert ("options are compared with '==' (the exact options), not '!=': count them with"
            " count(options) != N") in str(err.value)


def test_option_steps_only_in_tests(tmp_path):
    text = PICKING.split("start {")[0] + 'start {\n    expect count(options) == 1\n}\n'
    (tmp_path / "bad.rules").write_text(text, encoding="utf-8")
    with pytest.raises(SpecError):
        load_spec(tmp_path)


LASTING = """
game lasting "Lasting"
players red "Red", blue "Blue"
zone hand "Hand" per player owner
zone played "Played" per player public
kind card: card(points: int)
track score "Score" per player 0..20 start 0
effect doubled(p: player, c: card) "Doubled" { modify gain(q) by c.points when q == p }
quantity gain(p: player) = 1
card booster "Booster" (points 2) {
    event {
        add 5 to score(you)
        activate doubled(you, this)
    }
}
start { win none "draw" }

test "start effects runs the card's activates, and nothing else of its event" {
    move booster to played(red)
    start effects of booster for red
    expect gain(red) == 3 and gain(blue) == 1 and score(red) == 0
    expect active doubled(red, booster)
}
"""


def test_start_effects_starts_a_cards_lasting_effects_on_both_back_ends(tmp_path_factory):
    report = run_tests(one_file_spec(tmp_path_factory, "lasting", LASTING))
    assert report.failures == [] and report.counts() == {"interpreted": 1, "generated": 1}
