"""Statements and card routines on the native engine (compiler/backends/machine/procedures.py,
steps.py): a small game that reaches each of them, played whole natively and through the decision
protocol against the generated package (the same fingerprints: choices, log, result), and its
plain procedures run at seeded positions against the generated package's. It reaches: cards'
events and actions (plain and suspending, with `when`, one resolving another, a card with none),
a zone held in a value (a procedure's parameter), several dice rolled at once, a pick at random
(`or skip`, among members and among an enum's values), a track on an enum written by a value
known only when it runs and by a constant (bounds of its own per cell), copy and clear of
counters, a log line naming an enum value, a truth and an entity's attributes, texts the spec
writes passed to a procedure (logged and in a prompt), whether a card's event or action may be
played (event_allowed, action_allowed: the cards' `when`s, in a define), a zone written as a
value and walked."""

from __future__ import annotations

import pytest

from rulespec.runtime.analysis.fingerprints import fingerprint
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.game import Game
from rulespec.runtime.state import overlay

from support import loaded, program
from test_machine_games import machine, same_random_playout
from test_machine_procedures import agree

SPEC = """\
game natives "Natives"
players red "Red", blue "Blue"
enum goods { wood, ore, gold }
track stock "Stock" per player on goods 0..9 start 0 except gold 0..3
track points "Points" per player 0..99 start 0
var rounds_left: int = 0
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone discard "Discard" public
zone pool "Pool" public
counter marks "Marks" per player on card
counter saved "Saved" per player on card
kind card: card(power: int, kind: goods, sharp: bool = false)
card a1 "A1" (power 1, kind wood) {
    event { add 1 to stock(you, this.kind) }
}
card a2 "A2" (power 2, kind ore) {
    event when points(you) < 12 {
        you chooses c in hand(you) "Discard a card for two points"
        move c to discard
        add 2 to points(you)
    }
}
card a3 "A3" (power 3, kind gold, sharp) {
    action when size(hand(you)) < 3 { deal(1, hand(you)) }
}
card a4 "A4" (power 1, kind wood) {
    event { resolve a1 for you }
    action {
        you chooses c in hand(you) "Put one in the pool"
        move c to pool
    }
}
card a5 "A5" (power 2, kind ore)
card a6 "A6" (power 1, kind gold) {
    event when size(pool) > 0 { move all c in pool to hand(you) }
}
card a7 "A7" (power 2, kind wood)
card a8 "A8" (power 3, kind ore, sharp)
procedure deal(n: int, dest: zone) {
    repeat n {
        if size(deck) == 0 {
            move all c in discard to deck
            shuffle deck
        }
        if size(deck) > 0 { move top(deck) to dest }
    }
    for c in dest where c.sharp { log c, "is sharp, among", count(d in dest where d.power < 3), "others" }
}
procedure score(p: player) {
    roll hi, lo from 3 dice
    add hi to points(p)
    log p, "rolls", hi, lo
    roll one from 2 dice
    add one to points(p)
    pick c at random in hand(p) or skip
    log "picked", c, c.kind, c.power, c.sharp
    add 1 to marks(p, c)
}
procedure tidy(p: player) {
    copy marks to saved
    clear marks
    for g in goods where stock(p, g) < 2 { add 1 to stock(p, g) }
    set stock(p, gold) to stock(p, gold) + 5
}
procedure announce(p: player, what: str) {
    log p, what
    p chooses "{what}: take a point?" {
        option yes "Yes" { add 1 to points(p) }
        option no "No" { }
    }
}
define playable(c: card, p: player) -> bool = event_allowed(c, p) or action_allowed(c, p)
procedure count_down() {
    if rounds_left > 3 { set rounds_left to 0 }
    add 1 to rounds_left
}
start {
    move all c in card to deck
    shuffle deck
    for p in players { deal(2, hand(p)) }
    deal(1, discard)
    repeat 5 {
        for p in players {
            if size(hand(p)) == 0 { deal(1, hand(p)) }
            p chooses c in hand(p) "Play a card"
            if playable(c, p) { announce(p, "plays a card that does something") }
            else { announce(p, "plays a quiet card") }
            resolve c for p
            resolve action c for p
            move c to discard
            score(p)
            tidy(p)
            pick g at random in goods
            add 1 to stock(p, g)
            log p, "gains", g
        }
        count_down()
    }
    win none "done"
}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    made = tmp_path_factory.mktemp("natives")
    (made / "natives.rules").write_text(SPEC)
    return made


def test_the_game_plays_natively_as_the_generated_package(folder):
    engine = machine(folder)
    python = program(folder, "generated")
    for seed in (1, 2, 3, 4):
        for agents in ("random", "first"):
            assert fingerprint(engine, seed, agents) == fingerprint(python, seed, agents), f"seed {seed} {agents}"
    for seed in (1, 7):
        same_random_playout(folder, seed)


def test_its_plain_procedures_agree_with_the_generated_package(folder):
    assert agree(folder, range(2), 3) > 0


def test_blanked_cards_do_nothing_natively_as_in_the_generated_package(folder):
    """Blanked cards (rulespec worth --as blank) are played without their events or actions:
    the same game on both engines, set before the first resolve."""
    engine, python = machine(folder), program(folder, "generated")
    index = loaded(folder).model.entity_index
    blanked = tuple(index[name] for name in ("a1", "a2", "a4"))
    ends = []
    for engine_or_python in (engine, python):
        game = Game(engine_or_python, seed=5)
        overlay(game.state, blanked=blanked)
        for game in random_walk(game, 5):
            pass
        ends.append((game.state.log, game.state.result, game.choices, game.state.tracks))
    assert ends[0] == ends[1]
