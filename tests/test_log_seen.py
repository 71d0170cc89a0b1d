"""The log as it was seen: each card a line names reads as its reader saw it when the line
was written (runtime/logview.py), `log to p` lines and `show c to p` reach p alone, and both
back ends write the same lines with the same marks."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulespec.runtime import record as records
from rulespec.runtime.logview import HIDDEN_CARD
from rulespec.runtime.playtest.table import Table
from rulespec.runtime.state import State
from support import REPO, program
from test_track_visibility import PLAYERS_TRACKS

SEEN = REPO / "tests" / "specs" / "seen"
FOX = REPO / "spec" / "the_fox_in_the_forest"


def _texts(table: Table, seat: str) -> list[str]:
    return [line.text for line in table.log_lines(seat)]


def _label(table: Table, option: str) -> str:
    return table.meta.entity_labels[table.meta.entity_ids.index(option)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_both_back_ends_write_the_same_lines_with_the_same_marks(seed):
    states = []
    for backend in ("generated", "interpreted"):
        table = Table.new(program(SEEN, backend), ("random", "random"), seed=seed)
        table.run_bots()
        states.append(table.game.state)
    generated, interpreted = states
    assert generated.log == interpreted.log
    assert generated.log_at == interpreted.log_at
    assert generated.log_marks == interpreted.log_marks
    assert any(m is not None and m[0] is not None for m in generated.log_marks)  # private lines
    assert any(m is not None and m[1] for m in generated.log_marks)  # cards named


def _play_turn(table: Table, space: str, keep: str, pick_haven: bool = False) -> tuple[str, str]:
    """The pending player's turn: a troop on `space`, a card looked at and kept or shown, a
    card played; (the card looked at, the card played)."""
    player = table.pending_player
    table.choose(player, space)
    hand = table.game.view(player)["zones"][f"hand({player})"]
    looked = "haven_card" if pick_haven and "haven_card" in hand else hand[0]
    table.choose(player, looked)
    table.choose(player, keep)
    played = table.game.view(player)["zones"][f"hand({player})"][-1]
    table.choose(player, played)
    return looked, played


def _seed_dealing_haven_to_north() -> int:
    for seed in range(1, 200):
        table = Table.new(program(SEEN, "generated"), ("human", "human"), seed=seed)
        if "haven_card" in table.game.view("north")["zones"]["hand(north)"]:
            return seed
    raise AssertionError("no seed deals Haven to north")


def test_a_hidden_card_named_like_a_space_stays_hidden_while_the_space_is_named():
    table = Table.new(program(SEEN, "generated"), ("human", "human"), seed=_seed_dealing_haven_to_north())
    looked, _ = _play_turn(table, "haven", "keep", pick_haven=True)
    assert looked == "haven_card"
    south, north = _texts(table, "south"), _texts(table, "north")
    assert "North adds a troop on Haven" in south
    assert f"North: Keep {HIDDEN_CARD} secretly? → Keep it" in south
    assert "North: Keep Haven secretly? → Keep it" in north
    assert not any("Keep Haven" in line or "keep Haven" in line for line in south)


def test_a_line_written_to_one_player_reaches_that_player_alone():
    table = Table.new(program(SEEN, "generated"), ("human", "human"), seed=3)
    looked, _ = _play_turn(table, "hill", "keep")
    line = f"You keep {_label(table, looked)}"
    north = [l for l in table.log_lines("north") if l.text == line]
    assert len(north) == 1 and north[0].private
    assert not any(l.private or l.text.startswith("You keep") for l in table.log_lines("south"))
    assert table.seat_view("north")["log"][-3]["private"]


def test_a_card_shown_to_one_player_stays_in_its_log_after_it_moves_on():
    table = Table.new(program(SEEN, "generated"), ("human", "human"), seed=3)
    looked, played = _play_turn(table, "hill", "show")
    label = _label(table, looked)
    _play_turn(table, "hill", "keep")  # south's turn ends the round: every card is shuffled away
    assert not table.game.state.shown  # moved since: no longer known where it was shown
    shown = [l for l in table.log_lines("south") if l.text == f"Shown to South: {label}"]
    assert len(shown) == 1 and shown[0].private
    assert not any(l.text.startswith("Shown to") for l in table.log_lines("north"))


def test_a_card_played_face_up_stays_named_after_the_same_move_shuffles_it_away():
    table = Table.new(program(SEEN, "generated"), ("human", "human"), seed=3)
    _play_turn(table, "hill", "keep")
    _, played = _play_turn(table, "hill", "keep")  # the round's last card: shuffled away at once
    assert not table.game.state.zones[table.meta.zone_slots - 1]  # the table is bare again
    label = _label(table, played)
    for seat in ("north", "south"):
        log = _texts(table, seat)
        assert any(line.startswith(f"South plays {label} worth") for line in log), (seat, log)
        assert f"South: Play a card face up → {label}" in log, (seat, log)


@pytest.mark.parametrize("backend", ["generated", "interpreted"])
def test_the_foxs_last_trick_is_logged_as_both_players_saw_it(backend):
    """The card answering a round's last trick is played face up and gathered (then dealt
    away) in the same move: both players saw it, so both logs name it."""
    table = Table.new(program(FOX, backend), ("random", "random"), seed=5)
    state = table.game.state
    while not any(" won " in line for line in state.log):
        assert table.bot_step()
    last = max(i for i, line in enumerate(state.log) if " plays " in line)
    for seat in table.players:
        log = _texts(table, seat)
        ends = log.index(next(l for l in log if " won " in l))
        plays = [l for l in log[:ends] if " plays " in l or ": Answer " in l or ": Lead " in l]
        assert plays[-1] == state.log[last] and HIDDEN_CARD not in " ".join(plays[-4:]), (seat, plays[-4:])


def test_a_snapshot_from_before_the_marks_loads_and_reads_as_written():
    table = Table.new(program(SEEN, "generated"), ("random", "random"), seed=2)
    table.run_bots(10)
    data = json.loads(json.dumps(table.game.state.to_json()))
    del data["log_marks"]
    old = State.from_json(data)
    assert old.log_marks == [None] * len(old.log)
    data = table.record()
    state = data["snapshot"]["state"]
    assert records.restore(json.loads(json.dumps(data)), table.game.program).state.log_marks == state["log_marks"]
    state["log_marks"] = [[0, [[0, 999, 0, 0, True]]]] * len(state["log"])  # past the line's end
    with pytest.raises(records.RecordError, match="log_marks"):
        records.restore(data, table.game.program)


# A log line that prints a track the table hides: each reader reads the value only where the
# track's visibility lets it (runtime/logview.py: HIDDEN_VALUE), as it reads a hidden card.
LEDGER = """
game ledger "Ledger"
""" + PLAYERS_TRACKS.lstrip("\n") + """param extra: int = 0 in 0..5 "Added to what Red may not see: every noted, Blue's held"
define held_of(q: player) -> int = held(q)
procedure noted_now(q: player) -> int { return noted(q) }
procedure turn(p: player) {
    p chooses n in 1..3 "How many?"
    add n to score(p)
    add n to noted(p)
    add n to held(p)
    add extra to noted(p)
    if p == blue { add extra to held(p) }
    log p, "scores", n, "and holds", held_of(p), "noting", noted(p)
    log to p "You hold", held(p)
    log "Both hold", held(p) + held(opponent(p)), "of", sum(held(q) for q in players)
    log "Scores:", score(p)
    let kept = held(p)
    let noted_then = noted_now(p)
    log "Kept", kept, "and", noted_then
    for k in 0..noted(p) where k == noted(p) { log "Noted", k }
}
start { repeat 3 { for p in players { turn(p) } } win none "done" }
"""


@pytest.fixture(scope="module")
def ledger(tmp_path_factory):
    from support import one_file_spec
    return one_file_spec(tmp_path_factory, "ledger", LEDGER)


@pytest.mark.parametrize("backend", ["generated", "interpreted"])
def test_a_value_read_from_a_track_a_seat_does_not_see_is_hidden_from_it(ledger, backend):
    from rulespec.runtime.logview import HIDDEN_VALUE, whole_line

    table = Table.new(program(ledger, backend), ("human", "human"), seed=1)
    table.choose("red", "2")
    assert _texts(table, "red")[0] == "Red: How many? → 2"  # the move, then the lines it wrote
    assert _texts(table, "red")[1:] == [f"Red scores 2 and holds 2 noting {HIDDEN_VALUE}", "You hold 2",
                                    f"Both hold {HIDDEN_VALUE} of {HIDDEN_VALUE}", "Scores: 2",
                                        f"Kept {HIDDEN_VALUE} and {HIDDEN_VALUE}", f"Noted {HIDDEN_VALUE}"]  # carried: read by none
    assert _texts(table, "blue")[1:] == [f"Red scores 2 and holds {HIDDEN_VALUE} noting {HIDDEN_VALUE}",
                                     f"Both hold {HIDDEN_VALUE} of {HIDDEN_VALUE}", "Scores: 2",
                                     f"Kept {HIDDEN_VALUE} and {HIDDEN_VALUE}", f"Noted {HIDDEN_VALUE}"]
    state = table.game.state
    assert [whole_line(table.meta, t, m) for t, m in zip(state.log, state.log_marks)][0] == \
        "Red scores 2 and holds 2 noting 2"  # the whole log (a record's summary) reads every value
    data = json.loads(json.dumps(table.record()))
    assert records.restore(data, table.game.program).state.log_marks == state.log_marks
    first = data["snapshot"]["state"]["log_marks"][0]
    first[2][0][2] = [7]  # a seat the game has not
    with pytest.raises(records.RecordError, match="log_marks"):
        records.restore(data, table.game.program)


def test_both_back_ends_mark_the_same_hidden_values(ledger):
    states = []
    for backend in ("generated", "interpreted"):
        table = Table.new(program(ledger, backend), ("random", "random"), seed=4)
        table.run_bots()
        states.append(table.game.state)
    assert states[0].log == states[1].log and states[0].log_marks == states[1].log_marks
    assert sum(len(m) == 3 for m in states[0].log_marks if m is not None) == 30  # 5 lines a turn


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), extra=st.integers(1, 5), backend=st.sampled_from(["generated", "interpreted"]))
def test_no_seat_log_depends_on_a_track_value_it_may_not_see(ledger, seed, extra, backend):
    """The same moves with different values in the tracks Red may not see (every `noted`,
    Blue's `held`): Red's log reads the same, though the whole log does not."""
    games = []
    for value in (0, extra):
        table = Table.new(program(ledger, backend), ("random", "random"), seed=seed, params={"extra": value})
        table.run_bots()
        games.append(table)
    plain, more = games
    assert [s.option for s in plain.steps] == [s.option for s in more.steps]
    assert plain.game.state.log != more.game.state.log
    assert _texts(plain, "red") == _texts(more, "red")
