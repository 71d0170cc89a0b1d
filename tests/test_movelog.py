"""The move log: every decision at a table in words, for every seat, merged per decision,
with its dice, and a card the seat may not see hidden until it is shown where the move left it."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.game import seen_slots
from rulespec.runtime.playtest.table import HIDDEN_CARD, Table
from support import REPO, TS, program

HELDENHAIN = REPO / "spec" / "heldenhain"
RISK = REPO / "spec" / "risk_balance_of_power"
MARS = REPO / "spec" / "terraforming_mars"
FOX = REPO / "spec" / "the_fox_in_the_forest"

MOVES = """\
game moves "Moves"
players north "North", south "South"
zone box "Box" hidden
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone secret "Secret" per player owner
zone table "Table" public
track score "Score" per player 0..99 start 0
kind space: space()
space hill "Hill"
space lake "Lake"
counter troops "Troops" per player on space
kind card: card(points: int)
card alpha "Alpha" (points 1)
card bravo "Bravo" (points 2)
card charlie "Charlie" (points 3)
card delta "Delta" (points 4)
start {
    move all c in card to deck
    shuffle deck
    for p in players { repeat 2 { move top(deck) to hand(p) } }
    repeat 3 {
        north chooses s in space "Add a troop where?"
        add 1 to troops(north, s)
    }
    north chooses c in hand(north) "Hide a card"
    move c to secret(north)
    south chooses n in 1..2 "Roll how many dice?"
    repeat n {
        roll die
        add die to score(south)
    }
    south chooses r in 1..2 "Reveal the secret?"
    if r == 1 { reveal secret(north) }
    north chooses k in 1..2 "Last word"
    win none "done"
}
"""


@pytest.fixture(scope="module")
def moves(tmp_path_factory) -> Interpreter:
    folder = tmp_path_factory.mktemp("moves")
    (folder / "moves.rules").write_text(MOVES, encoding="utf-8")
    return Interpreter(load_spec(folder).model)


def _texts(table: Table, seat: str) -> list[str]:
    return [line["text"] for line in table.seat_view(seat)["log"]]


def _play(table: Table, *answers: str) -> None:
    for option in answers:
        table.choose(table.pending_player, option)


def test_every_seat_reads_every_move_merged_per_decision_with_its_dice(moves):
    table = Table.new(moves, ("human", "human"), seed=3)
    _play(table, "hill", "lake", "hill")
    hidden = table.game.view("north")["zones"]["hand(north)"][0]
    _play(table, hidden, "2")
    for seat in ("north", "south"):
        log = _texts(table, seat)
        assert "North: Add a troop where? ×3 → Hill 2, Lake" in log
        assert "South: Roll how many dice? → 2" in log
        dice = [line for line in table.seat_view(seat)["log"] if line["kind"] == "dice"]
        assert len(dice) == 1 and re.fullmatch(r"Dice: [1-6], [1-6]", dice[0]["text"])
        assert dice[0]["at"].endswith("moves.rules:30:9")
    move = next(l for l in table.seat_view("south")["log"] if l["kind"] == "move")
    assert move["at"].endswith("moves.rules:23:9") and not move["own"]
    assert next(l for l in table.seat_view("north")["log"] if l["kind"] == "move")["own"]


def test_a_hidden_move_reads_as_hidden_until_the_card_is_shown_where_it_lay(moves):
    for reveal, named in (("2", False), ("1", True)):
        table = Table.new(moves, ("human", "human"), seed=3)
        _play(table, "hill", "hill", "hill")
        card = table.game.view("north")["zones"]["hand(north)"][0]
        label = table.meta.entity_labels[table.meta.entity_ids.index(card)]
        _play(table, card, "1")
        assert f"North: Hide a card → {label}" in _texts(table, "north")
        assert f"North: Hide a card → {HIDDEN_CARD}" in _texts(table, "south")
        _play(table, reveal)
        south = _texts(table, "south")
        assert (f"North: Hide a card → {label}" in south) is named
        assert any(label in line for line in south) is named


def test_a_public_label_a_card_bears_too_is_not_blanked(tmp_path):
    """A territory and its card share a label: a log line naming the territory stays."""
    spec = MOVES.replace('card alpha "Alpha"', 'card alpha "Hill"').replace(
        '        add 1 to troops(north, s)\n', '        add 1 to troops(north, s)\n        log "on", s.label\n')
    (tmp_path / "moves.rules").write_text(spec, encoding="utf-8")
    table = Table.new(Interpreter(load_spec(tmp_path).model), ("human", "human"), seed=3)
    _play(table, "hill")
    assert "on Hill" in _texts(table, "south")


# ------------------------------------------------------------------ nothing leaks, every game

GAMES = {"twilight_struggle": (TS, 120), "heldenhain": (HELDENHAIN, 120),
         "risk_balance_of_power": (RISK, 150), "terraforming_mars": (MARS, 150),
         "the_fox_in_the_forest": (FOX, 80)}


def _forbidden(meta, ever: set[int]) -> tuple[set[str], set[str]]:
    never = [c for c in meta.card_entities if c not in ever]
    public = {l for e, l in enumerate(meta.entity_labels) if e not in set(meta.card_entities)}
    seen = {meta.entity_labels[c] for c in ever}
    # a label inside one the seat may read ('Asteroid' in 'Beam From A Thorium Asteroid')
    # tells nothing apart: the ids are checked all the same
    readable = "\n".join(seen | public)
    labels = {l for l in {meta.entity_labels[c] for c in never} - seen - public
              if not re.search(rf"(?<!\w){re.escape(l)}(?!\w)", readable)}
    return {meta.entity_ids[c] for c in never}, labels


@pytest.mark.parametrize("game_name", sorted(GAMES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: games are long
@given(seed=st.integers(0, 2**31), data=st.data())
def test_no_seat_log_names_a_card_the_seat_has_never_seen(game_name, seed, data):
    folder, longest = GAMES[game_name]
    steps = data.draw(st.integers(1, longest), label="decisions")
    table = Table.new(program(folder, "generated"), ("random", "random"), seed=seed)
    meta = table.meta
    players = table.players
    ever = {p: set() for p in players}
    def look() -> None:
        state = table.game.state
        for player in players:
            seen = seen_slots(meta, state, meta.players.index(player))
            ever[player] |= {c for slot, cards in enumerate(state.zones) if seen[slot] for c in cards}
        if state.pending:  # what a decision offers, its player knows
            ever[meta.players[state.pending["player"]]] |= {
                meta.entity_ids.index(i) for i in state.pending["ids"] if i in meta.entity_ids}

    for _ in range(steps):
        look()
        if not table.bot_step():
            break
    look()
    for player in players:
        ids, labels = _forbidden(meta, ever[player])
        for line in table.log_lines(player):
            words = set(re.findall(r"\w+", line.text))
            assert not ids & words, (player, line.text)
            assert not any(re.search(rf"(?<!\w){re.escape(l)}(?!\w)", line.text) for l in labels), \
                (player, line.text)
    moves = [l for l in table.log_lines(players[0]) if l.kind == "move"]
    assert moves and all(l.text.split(":")[0] in meta.player_labels for l in moves)
