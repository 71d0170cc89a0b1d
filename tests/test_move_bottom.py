"""`move CARD to bottom of ZONE`: the card goes under the zone's other cards, on both back ends;
`rulespec fmt` keeps it, the proof sheet says it, and what is drawn next comes from the order
it made."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.compiler.tools.cards.sheet import card_sheets, sheet_text
from rulespec.compiler.frontend.fmt import format_text
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.game import Game
from support import BACKENDS, program

PILE = """\
game pile "Pile"
players north "North", south "South"
zone box "Box" hidden
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
kind card: card(points: int)
card one "One" (points 1)
card two "Two" (points 2)
card three "Three" (points 3) {
    event { move this to bottom of deck }
}
card four "Four" (points 4)
start {
    move one to deck
    move two to deck
    move three to deck
    move four to bottom of deck
    resolve three for north
    north chooses c in deck "Which card, bottom first?"
    move top(deck) to hand(south)
    south chooses d in hand(south) "Keep?"
    win north "done"
}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("pile")
    (where / "pile.rules").write_text(PILE, encoding="utf-8")
    return where


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_card_goes_under_the_others(folder, backend):
    game = Game(program(folder, backend), seed=1)
    # one, two, three on top of each other; four under them; three's event puts it under four
    assert list(game.decision.option_ids) == ["three", "four", "one", "two"]
    game.choose("one")
    assert list(game.decision.option_ids) == ["two"], "the top card is drawn: two, not three"


def test_fmt_keeps_it():
    text = "start {\n    move this to bottom of deck\n    move top(deck) to hand(p)\n}\n"
    assert format_text(text) == text
    assert format_text(text.replace("to bottom of deck", "to   bottom  of   deck")) == text


def test_the_proof_sheet_says_at_the_bottom(folder):
    three = next(s for s in card_sheets(load_spec(folder).model) if s.name == "three")
    assert "at the bottom" in sheet_text(three)
