"""The Fox in the Forest keeps its secrets at the table: no seat's view or move log names a card
of the draw deck, of the other hand or of a pile of won tricks (face down, for its winner too),
every seat's log names the card that answered a trick,
and the card a Woodcutter puts
under the deck stays unnamed for the other seat."""

from __future__ import annotations

import json
import re

import pytest

from rulespec.runtime.bots.agents import seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.state import known_cards, move_card
from rulespec.runtime.playtest.table import Table, json_strings
from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import load_spec
from support import REPO, program, spec_copy, spec_value

FOX = REPO / "spec" / "the_fox_in_the_forest"


def _cards_in(table: Table, *names: str) -> set[str]:
    """The ids of the cards in the zone slots named ('deck', 'hand(oak)', …)."""
    meta, state = table.meta, table.game.state
    return {meta.entity_ids[c] for slot, cards in enumerate(state.zones)
            if meta.zone_slot_name(slot) in names for c in cards}


def _secrets(table: Table, player: str) -> set[str]:
    other = next(p for p in table.players if p != player)
    secret = _cards_in(table, "deck", f"hand({other})")
    # A card the seat saw and followed (the decree card a Fox took into a hand) it knows.
    secret -= {table.meta.entity_ids[c] for c in known_cards(table.game.state, table.meta.players.index(player))}
    pending = table.game.state.pending
    if pending is not None and table.meta.players[pending["player"]] == player:
        secret -= set(pending["ids"])  # what its own decision offers, a seat knows
    return secret


def _label(table: Table, card: str) -> str:
    return table.meta.entity_labels[table.meta.entity_ids.index(card)]


def _names(text: str, label: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text) is not None


@pytest.mark.parametrize("seed", [1, 2])
def test_no_view_shows_the_deck_or_the_other_hand(seed):
    table = Table.new(program(FOX, "generated"), ("policy", "policy"), seed=seed)
    steps = 0
    while True:
        for player in table.players:
            view = table.game.view(player)
            leaked = _secrets(table, player) & json_strings(json.loads(json.dumps(view)))
            assert not leaked, f"{player} sees {sorted(leaked)} at decision {steps}"
        if not table.bot_step():
            break
        steps += 1
    assert table.game.over and steps > 100


def test_the_woodcutters_card_goes_under_the_deck_unseen():
    """Every card a seat puts under the deck: the other seat's view and log do not name it."""
    buried = 0
    for seed in range(1, 6):
        table = Table.new(program(FOX, "interpreted"), ("random", "random"), seed=seed)
        decrees: set[str] = set()  # a decree card a Fox took back both seats have seen face up
        while not table.over and table.game.decision is not None:
            decrees |= _cards_in(table, "decree")
            decision = table.game.decision
            other = next(p for p in table.players if p != decision.player)
            before = len(table.log_lines(other))
            assert table.bot_step()
            if not decision.prompt.startswith("Woodcutter"):
                continue
            deck = next(cards for slot, cards in enumerate(table.game.state.zones)
                        if table.meta.zone_slot_name(slot) == "deck")
            card = table.meta.entity_ids[deck[0]]  # the bottom card: the one just laid down
            assert card == decision.option_ids[decision.option_ids.index(card)]
            if card in decrees:
                continue
            buried += 1
            assert card not in json_strings(table.game.view(other))
            for line in table.log_lines(other)[before:]:
                assert not _names(line.text, _label(table, card)), line.text
    assert buried > 10


# ------------------------------------------------------------------ the policy `sensible`

REACH = 6  # the policy's tunable `reach` at its default


def _answers(generated, seeds):
    """Every answer to a trick in policy games: (game, decision, chosen id) before the choice."""
    for seed in seeds:
        game = Game(generated, seed=seed)
        bots = seat_agents(("policy", "policy"), game.players, seed)
        while not game.over:
            decision = game.decision
            chosen = bots[decision.player].choose(game, decision)
            if decision.prompt.startswith("Answer"):
                yield game, decision, chosen
            game.choose(chosen)


def test_the_policy_takes_the_tricks_it_wants_and_sheds_the_rest():
    generated, interpreter = program(FOX, "generated"), program(FOX, "interpreted")
    meta = generated.meta
    took = shed = 0
    for game, decision, chosen in _answers(generated, range(1, 9)):
        seat = ("player", meta.players.index(decision.player))
        def card(i: str):
            return ("card", meta.entity_ids.index(i))
        wins = {i for i in decision.option_ids
                if spec_value(interpreter, game.state, "if beats(c, led_card) then 1 else 0", c=card(i))}
        if not wins or wins == set(decision.option_ids):
            continue  # no choice between winning and losing
        wanted = spec_value(interpreter, game.state, f"trick_worth(p, sevens_with(c), {REACH})",
                            p=seat, c=card(chosen))
        if wanted > 0:
            took += 1
            assert chosen in wins, (game.seed, game.decisions, decision.option_ids, chosen)
        else:
            shed += 1
            assert chosen not in wins, (game.seed, game.decisions, decision.option_ids, chosen)
    assert took > 10 and shed > 10


def test_the_policy_never_takes_a_tenth_trick_it_can_lose():
    generated, interpreter = program(FOX, "generated"), program(FOX, "interpreted")
    meta = generated.meta
    seen = 0
    for game, decision, chosen in _answers(generated, (1, 2, 3, 4, 5, 6)):
        seat = meta.players.index(decision.player)
        if spec_value(interpreter, game.state, "tricks(p)", p=("player", seat)) != 9:
            continue
        beaten = {i for i in decision.option_ids if spec_value(
            interpreter, game.state, "if beats(c, led_card) then 1 else 0", c=("card", meta.entity_ids.index(i)))}
        if len(beaten) < len(decision.option_ids):
            seen += 1
            assert chosen not in beaten
    assert seen > 0, "no answer at 9 tricks in these games: the test saw nothing"


def test_the_policy_beats_random_play():
    generated = program(FOX, "generated")
    won = 0
    games = 120
    for seed in range(1, games + 1):
        seats = ("policy", "random") if seed % 2 else ("random", "policy")
        game = Game(generated, seed=seed)
        bots = seat_agents(seats, game.players, seed)
        while not game.over:
            game.choose(bots[game.decision.player].choose(game, game.decision))
        won += game.winner == game.players[seats.index("policy")]
    assert won / games >= 0.62, f"the policy won {won} of {games} games against random play"


def test_the_leader_sees_the_card_that_answered_the_trick():
    """The answer is played and the trick taken in one move: the leader's log still names it."""
    table = Table.new(program(FOX, "generated"), ("random", "random"), seed=3)
    answers = 0
    while not table.over and answers < 20:
        decision = table.game.decision
        if decision is None:
            break
        other = next(p for p in table.players if p != decision.player)
        before = len(table.log_lines(other))
        assert table.bot_step()
        if decision.prompt.startswith("Answer"):
            answers += 1
            lines = [line.text for line in table.log_lines(other)[before:]]
            assert not any("(a hidden card)" in text for text in lines), lines
    assert answers == 20


def test_won_tricks_lie_face_down_for_both_players():
    """Won tricks are kept face down and may not be looked through: every view shows each pile
    as a count (a seat may remember the cards it saw played: its knowledge, never the pile)."""
    table = Table.new(program(FOX, "generated"), ("random", "random"), seed=4)
    piles = [f"won({p})" for p in table.players]
    for _ in range(60):
        assert table.bot_step()
    assert _cards_in(table, *piles), "tricks were won"
    for player in table.players:
        zones = table.game.view(player)["zones"]
        for pile in piles:
            assert isinstance(zones[pile], dict) and zones[pile]["count"] == len(_cards_in(table, pile))


def test_no_policy_may_look_through_won_tricks(tmp_path):
    """The checker refuses a policy that reads the cards of a pile of won tricks, its own too."""
    folder = spec_copy("the_fox_in_the_forest", root=tmp_path)
    (folder / "07_peek.rules").write_text(
        'policy peek "Reads its won tricks" {\n'
        '    choosing c: card as play { prefer count(d in won(you) where d.suit == c.suit) }\n'
        '}\n', encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(folder)
    assert "07_peek.rules:2:" in str(err.value) and "won" in str(err.value)


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_the_card_count_invariant_counts_all_33_cards(backend):
    """`thirty_three_cards` holds through play, and breaks when a card leaves the round's zones."""
    game = Game(program(FOX, backend), seed=5)
    for _ in range(40):
        assert game.program.check_invariants(game.state) == []
        game.choose_index(0)
    box = next(slot for slot in range(len(game.state.zones)) if game.meta.zone_slot_name(slot) == "box")
    card = next(c for slot, cards in enumerate(game.state.zones)
                if game.meta.zone_slot_name(slot).startswith("hand(") for c in cards)
    move_card(game.state, card, box)
    assert [name for name, _ in game.program.check_invariants(game.state)] == ["thirty_three_cards"]
