"""The table both play surfaces drive: seats, undo back to the last reveal, the log as each
seat may read it, records that resume exactly, and refusals that change nothing."""

from __future__ import annotations


import pytest

from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime import record as records
from rulespec.runtime.logview import HIDDEN_CARD
from rulespec.runtime.playtest.table import Table, TableError, parse_seats
from support import REPO, TS, program

HUSH = """\
game hush "Hush"
players north "North", south "South"
zone box "Box" hidden
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone table "Table" public
track score "Score" per player 0..99 start 0
kind card: card(points: int)
card alpha "Alpha" (points 1)
card bravo "Bravo" (points 2)
card charlie "Charlie" (points 3)
card delta "Delta" (points 4)
card echo "Echo" (points 5)
card foxtrot "Foxtrot" (points 6)
start {
    move all c in card to deck
    shuffle deck
    for p in players { repeat 2 { move top(deck) to hand(p) } }
    north chooses c in hand(north) "Keep one secretly"
    log "North keeps", c.label
    south chooses d in hand(south) "Play one"
    move d to table
    log "South plays", d.label
    north chooses n in 1..3 "How many points"
    add n to score(north)
    north chooses k in 1..2 "Roll or not"
    if k == 1 {
        roll die
        add die to score(north)
    }
    south chooses e in hand(south) "Play the other"
    move e to table
    north chooses m in 1..2 "Last word"
    win none "done"
}
"""


@pytest.fixture(scope="module")
def hush(tmp_path_factory) -> Interpreter:
    folder = tmp_path_factory.mktemp("hush")
    (folder / "hush.rules").write_text(HUSH, encoding="utf-8")
    interpreter = Interpreter(load_spec(folder).model)
    interpreter.spec_root = folder.parent  # where its locations' files are
    return interpreter


def _table(prog, seats=("human", "first"), seed=3) -> Table:
    table = Table.new(prog, seats, seed=seed, spec_roots=(REPO, getattr(prog, "spec_root", REPO)))
    table.run_bots()
    return table


def test_seats_are_people_or_known_bots():
    assert parse_seats("human,random", ("a", "b")) == ("human", "random")
    assert parse_seats("human", ("a", "b")) == ("human", "human")
    with pytest.raises(ValueError, match="unknown agent 'robot'"):
        parse_seats("human,robot", ("a", "b"))
    assert parse_seats("human,first", ("a", "b", "c")) == ("human", "first", "first")
    with pytest.raises(ValueError, match="needs 1 to 2 names"):
        parse_seats("human,random,random", ("a", "b"))


def test_a_seat_reads_the_log_with_the_cards_it_cannot_see_blanked(hush):
    table = _table(hush, ("human", "human"))
    north = table.game.view("north")["zones"]["hand(north)"]
    table.choose("north", north[0])
    kept = table.meta.entity_labels[table.meta.entity_ids.index(north[0])]
    south_log = [line["text"] for line in table.seat_view("south")["log"]]
    north_log = [line["text"] for line in table.seat_view("north")["log"]]
    assert f"North keeps {kept}" in north_log
    assert f"North keeps {HIDDEN_CARD}" in south_log
    assert not any(kept in line for line in south_log)
    # the seat's own choices are in its log with the spec line behind them, nobody else's
    own = [line for line in table.seat_view("north")["log"] if line["own"]]
    assert own and own[0]["at"].endswith("hush.rules:19:5") and "north chooses c in hand(north)" in own[0]["spec"]
    assert not any(line["own"] for line in table.seat_view("south")["log"])


def test_undo_takes_back_the_last_own_decision_and_the_bots_answers(hush):
    table = _table(hush)
    card = table.seat_view("north")["decision"]["options"][0]["id"]
    table.choose("north", card)
    table.run_bots()  # south (first) plays a card: nothing new for north? it is shown on the table
    view = table.seat_view("north")
    assert view["decision"]["prompt"] == "How many points"
    assert not view["can_undo"] and "revealed" in view["undo_reason"]
    table.choose("north", "2")
    assert table.seat_view("north")["can_undo"]
    before = table.version
    assert table.undo("north") == 1
    assert table.version == before + 1
    view = table.seat_view("north")
    assert view["decision"]["prompt"] == "How many points" and view["view"]["tracks"]["score"]["north"] == 0


def test_undo_stops_at_a_die_roll_and_at_another_persons_decision(hush):
    table = _table(hush, ("human", "human"))
    table.choose("north", table.seat_view("north")["decision"]["options"][0]["id"])
    table.choose("south", table.seat_view("south")["decision"]["options"][0]["id"])
    with pytest.raises(TableError, match="nothing to undo: south has decided"):
        table.undo("north")
    table.choose("north", "1")
    table.choose("north", "1")  # rolls a die: the roll is news to everyone
    with pytest.raises(TableError, match="something new was revealed"):
        table.undo("north")
    table.choose("south", table.seat_view("south")["decision"]["options"][0]["id"])
    assert table.undo("south") == 1  # playing a card of one's own hand shows oneself nothing new
    assert table.seat_view("south")["decision"]["prompt"] == "Play the other"


def test_refusals_change_nothing(hush):
    table = _table(hush, ("human", "human"))
    version, choices = table.version, list(table.game.choices)
    for call, status in ((lambda: table.choose("north", "nonsense"), 400),
                         (lambda: table.choose("south", "alpha"), 403),
                         (lambda: table.choose("north", "alpha", version + 5), 409),
                         (lambda: table.choose("west", "alpha"), 404),
                         (lambda: table.undo("north"), 409)):
        with pytest.raises(TableError) as caught:
            call()
        assert caught.value.status == status and "\n" not in str(caught.value)
        assert (table.version, table.game.choices) == (version, choices)


def test_a_bot_seat_is_not_answered_by_hand(hush):
    table = Table.new(hush, ("first", "human"), seed=1)
    with pytest.raises(TableError, match="played by the bot 'first'") as caught:
        table.choose("north", table.game.decision.option_ids[0])
    assert caught.value.status == 403


def test_a_saved_table_resumes_where_it_was(hush, tmp_path):
    table = _table(hush)
    table.choose("north", table.seat_view("north")["decision"]["options"][1]["id"])
    table.run_bots()
    table.choose("north", "3")
    path = tmp_path / "game.json"
    table.save(path)
    again = Table.from_record(records.read(path), hush)
    assert again.seat_names() == ("human", "first")
    assert again.game.choices == table.game.choices
    assert again.seat_view("north")["view"] == table.seat_view("north")["view"]
    assert [l["text"] for l in again.seat_view("south")["log"]] == [l["text"] for l in table.seat_view("south")["log"]]


@pytest.mark.parametrize("backend", ["generated", "interpreted"])
def test_twilight_struggle_against_a_bot_with_undo(backend):
    prog = program(TS, backend)
    table = _table(prog, ("human", "random"), seed=5)
    made = undone = 0
    while not table.over and made < 60:
        view = table.seat_view(table.pending_player)
        if made % 7 == 3 and view["can_undo"]:
            undone += table.undo(view["seat"])
            view = table.seat_view(view["seat"])
        options = view["decision"]["options"]
        table.choose(view["seat"], options[made % len(options)]["id"])
        table.run_bots()
        made += 1
    assert undone > 0
    # undo replays the record's choices minus the undone ones: the game is the record's
    again = records.replay(table.record(), prog)
    assert again.state.public_part() == table.game.state.public_part()
