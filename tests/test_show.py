"""`show CARD [to PLAYER]`: one card made known while its zone stays hidden. Both back ends
record it alike; the seat it was shown to sees it in its view; a search bot re-dealing what it
cannot see leaves it where it lies; once the card moves, it is hidden again. `rulespec fmt`
keeps the statement and the proof sheet says it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.compiler.tools.cards.sheet import card_sheets, sheet_text
from rulespec.compiler.frontend.fmt import format_text
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.game import Game
from rulespec.runtime.bots.search import determinize
from rulespec.runtime.state import RuleError, Stream
from rulespec.runtime.playtest.table import zone_list
from support import BACKENDS, program

SHOW = """\
game showing "Showing"
players north "North", south "South"
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone discard "Discard" public
kind card: card(points: int)
card c1 "C1" (points 1)
card c2 "C2" (points 2)
card c3 "C3" (points 3)
card c4 "C4" (points 4)
card c5 "C5" (points 5)
card c6 "C6" (points 6)
card c7 "C7" (points 7) {
    event { show this }
}
var shown_card: card? = none
start {
    move all c in card to deck
    move c7 to hand(north)
    for p in players {
        move top(deck) to hand(p)
        move top(deck) to hand(p)
    }
    north chooses c in hand(north) where c != c7 "Show which card to the South?"
    show c to south
    set shown_card to c
    resolve c7 for north
    south chooses d in 1..2 "Go on?"
    move shown_card to discard
    south chooses e in 1..2 "Again?"
    show shown_card to north
    set shown_card to none
    show shown_card
    win none "done"
}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("showing")
    (where / "showing.rules").write_text(SHOW, encoding="utf-8")
    return where


def _to_south_decision(folder, backend) -> Game:
    game = Game(program(folder, backend), seed=3)
    first = game.decision.option_ids[0]
    game.choose(first)
    assert game.decision.prompt == "Go on?"
    return game


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_seat_shown_a_card_sees_it_and_the_other_does_not_see_more(folder, backend):
    game = _to_south_decision(folder, backend)
    shown = game.state.vars[0]
    card = game.meta.entity_ids[shown]
    south, north = game.view("south")["zones"], game.view("north")["zones"]
    assert south["hand(north)"]["count"] == 3
    assert set(south["hand(north)"]["shown"]) == {card, "c7"}  # to the South; c7 to everyone
    assert "shown" not in south["hand(south)"]  # its own hand it sees anyway
    assert isinstance(north["hand(north)"], list)
    assert "shown" not in north["hand(south)"]


def test_both_back_ends_record_the_same(folder):
    states = [_to_south_decision(folder, b).state for b in BACKENDS]
    assert states[0].shown and states[0].public_part() == states[1].public_part()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_search_keeps_a_shown_card_where_it_lies_and_re_deals_the_others(folder, backend):
    game = _to_south_decision(folder, backend)
    me = game.meta.players.index("south")
    hand = next(s for s in range(game.meta.zone_slots) if game.meta.zone_slot_name(s) == "hand(north)")
    shown = {game.state.vars[0], game.meta.entity_ids.index("c7")}
    others_seen = set()
    for seed in range(40):
        world = determinize(game, game.state, me, Stream(seed))
        assert shown <= set(world.zones[hand])
        others_seen |= set(world.zones[hand]) - shown
    assert len(others_seen) > 1, "the card not shown is re-dealt among the unseen ones"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_card_that_moves_is_hidden_again_and_none_cannot_be_shown(folder, backend):
    game = _to_south_decision(folder, backend)
    game.choose("1")
    assert "shown" not in game.view("south")["zones"]["hand(north)"] or \
        game.view("south")["zones"]["hand(north)"]["shown"] == ["c7"]
    assert [c for c, _, _ in game.state.shown] == [game.meta.entity_ids.index("c7")]
    with pytest.raises(RuleError, match=r"showing\.rules:33:\d+: 'show' needs a card, not none"):
        game.choose("1")


def test_fmt_keeps_it_and_the_proof_sheet_says_it(folder):
    text = "start {\n    show c to south\n    show this\n}\n"
    assert format_text(text) == text
    assert format_text(text.replace("show c to south", "show  c  to   south")) == text
    seven = next(s for s in card_sheets(load_spec(folder).model) if s.name == "c7")
    assert "to everyone (it stays where it is; its zone stays hidden)." in sheet_text(seven)


def test_the_table_passes_the_shown_cards_on(folder):
    game = _to_south_decision(folder, "generated")
    zones = {z["key"]: z for z in zone_list(game.meta, game.view("south"))}
    assert zones["hand(north)"]["count"] == 3 and "c7" in zones["hand(north)"]["shown"]
    assert "shown" not in zones["hand(south)"]
