"""The move log: every decision at a table in words, for every seat, merged per decision,
with its dice, and a card the seat may not see hidden until it is shown where the move left it."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime import state as rt
from rulespec.runtime.game import seen_slots
from rulespec.runtime.logview import HIDDEN_CARD
from rulespec.runtime.playtest.table import Table
from support import REPO, TS, program

HELDENHAIN = REPO / "spec" / "heldenhain"
RISK = REPO / "spec" / "risk_balance_of_power"
MARS = REPO / "spec" / "terraforming_mars"
FOX = REPO / "spec" / "the_fox_in_the_forest"
SEEN = REPO / "tests" / "specs" / "seen"

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

GAMES = {"twilight_struggle": (TS, 120), "heldenhain": (HELDENHAIN, 120), "seen": (SEEN, 80),
         "risk_balance_of_power": (RISK, 150), "terraforming_mars": (MARS, 150),
         "the_fox_in_the_forest": (FOX, 80)}


def _forbidden(meta, ever: set[int], spec_words: set[str] = frozenset()) -> tuple[set[str], set[str]]:
    never = [c for c in meta.card_entities if c not in ever]
    public = {l for e, l in enumerate(meta.entity_labels) if e not in set(meta.card_entities)} | spec_words
    seen = {meta.entity_labels[c] for c in ever}
    # a label inside one the seat may read ('Asteroid' in 'Beam From A Thorium Asteroid')
    # tells nothing apart: the ids are checked all the same
    readable = "\n".join(seen | public)
    labels = {l for l in {meta.entity_labels[c] for c in never} - seen - public
              if not re.search(rf"(?<!\w){re.escape(l)}(?!\w)", readable)}
    return {meta.entity_ids[c] for c in never}, labels


class Sightings:
    """What each seat saw, ever: the cards in zones it could see and the cards shown to it,
    looked at before every decision and at every moment the rules write a log line or ask
    (a card may be seen inside one move only: played face up, then gathered face down).
    Worked out from the zones and `show`, apart from the marks the log keeps."""

    def __init__(self, table: Table, monkeypatch):
        self.table, self.ever = table, {p: set() for p in table.players}
        for name in ("log_seen", "ask"):
            original = getattr(rt, name)
            monkeypatch.setattr(rt, name, self._looking(original))

    def _looking(self, original):
        def wrapped(state, *args, **kw):
            self.look(state)
            return original(state, *args, **kw)
        return wrapped

    def look(self, state=None) -> None:
        meta = self.table.meta
        state = state or self.table.game.state
        for player in self.table.players:
            seat = meta.players.index(player)
            seen = seen_slots(meta, state, seat)
            self.ever[player] |= {c for slot, cards in enumerate(state.zones) if seen[slot] for c in cards}
            self.ever[player] |= rt.known_cards(state, seat)
        if state.pending:  # what a decision offers, its player knows
            self.ever[meta.players[state.pending["player"]]] |= {
                meta.entity_ids.index(i) for i in state.pending["ids"] if i in meta.entity_ids}


def _random_table(folder, seed: int, steps: int, monkeypatch) -> tuple[Table, Sightings]:
    """A table of random bots on the interpreter (its runtime calls can be watched), played
    `steps` decisions with every sighting noted."""
    with monkeypatch.context() as patch:
        table = Table.new(program(folder, "interpreted"), ("random", "random"), seed=seed)
        sightings = Sightings(table, patch)
        for _ in range(steps):
            sightings.look()
            if not table.bot_step():
                break
        sightings.look()
    return table, sightings


@pytest.mark.parametrize("game_name", sorted(GAMES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: games are long
@given(seed=st.integers(0, 2**31), data=st.data())
def test_no_seat_log_names_a_card_the_seat_has_never_seen(game_name, seed, data, monkeypatch):
    folder, longest = GAMES[game_name]
    steps = data.draw(st.integers(1, longest), label="decisions")
    table, sightings = _random_table(folder, seed, steps, monkeypatch)
    meta, players = table.meta, table.players
    # an option that is no entity reads as the spec wrote it ("Asteroid (14 MC)": a project)
    spec_words = {step.label for step in table.steps if step.option not in meta.entity_ids}
    for player in players:
        ids, labels = _forbidden(meta, sightings.ever[player], spec_words)
        for line in table.log_lines(player):
            words = set(re.findall(r"\w+", line.text))
            assert not ids & words, (player, line.text)
            assert not any(re.search(rf"(?<!\w){re.escape(l)}(?!\w)", line.text) for l in labels), \
                (player, line.text)
    moves = [l for l in table.log_lines(players[0]) if l.kind == "move"]
    assert moves and all(l.text.split(":")[0] in meta.player_labels for l in moves)


# A line of tests/specs/seen that names the card Haven, not the space of that name.
_HAVEN_CARD = re.compile(r"(?:plays|keep|Keep|Shown to \w+:) Haven\b")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 2**31), steps=st.integers(1, 80))
def test_a_hidden_card_named_like_a_space_and_private_lines_stay_with_their_seat(seed, steps, monkeypatch):
    """The card Haven is never named to a seat that never saw it, though the space Haven
    is named to all; a line written to one seat reaches that seat alone."""
    table, sightings = _random_table(SEEN, seed, steps, monkeypatch)
    meta = table.meta
    haven_card = meta.entity_ids.index("haven_card")
    state = table.game.state
    for player in table.players:
        seat, label = meta.players.index(player), table.label_of(player)
        lines = table.log_lines(player)
        if haven_card not in sightings.ever[player]:
            assert not [l.text for l in lines if _HAVEN_CARD.search(l.text)], player
        private = [l.text for l in lines if l.private]
        own = [t for t, m in zip(state.log, state.log_marks) if m is not None and m[0] == seat]
        assert len(private) == len(own), (player, private, own)
        assert all(t.startswith(("You keep", f"Shown to {label}:")) for t in private), private
        assert not any(l.text.startswith("Shown to") and not l.private for l in lines)
    troops = [t for t in state.log if " adds a troop on " in t]
    for player in table.players:  # the spaces are public: every such line reaches every seat whole
        assert troops == [l.text for l in table.log_lines(player) if " adds a troop on " in l.text]
