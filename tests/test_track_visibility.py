"""A track the table hides (issue 43 item 4): `hidden` from every seat, `owner` shown to its own
player only; every seat's view (so the terminal and the web table, built from it) honours it,
and the game's results still hold every track."""

from __future__ import annotations

import pytest

from rulespec.runtime.game import Game
from rulespec.runtime.playtest.table import Table
from support import one_file_spec, program

# Two players' tracks, one of each visibility (tests/test_log_seen.py logs them too).
PLAYERS_TRACKS = """
players red "Red", blue "Blue"
track score "Score" per player 0..20 start 0
track noted "Number noted" per player 0..20 start 0 hidden
track held "Cards held" per player 0..20 start 0 owner
"""
TALLY = """
game tally "Tally"
""" + PLAYERS_TRACKS.lstrip("\n") + """track round "Round" 1..9 start 1
procedure turn(p: player) {
    p chooses n in 1..3 "How many?"
    add n to score(p)
    add n to noted(p)
    add 1 to held(p)
}
policy counts "Counts" {
    choosing n: int { prefer n * held(you) }
}
start {
    for p in players { turn(p) }
    turn(red)
    win none "done"
}
"""


@pytest.fixture(scope="module")
def tally(tmp_path_factory):
    return one_file_spec(tmp_path_factory, "tally", TALLY)


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_each_view_shows_only_the_tracks_its_seat_sees(tally, backend):
    game = Game(program(tally, backend), seed=1)
    game.choose("2")
    red, blue = game.view("red")["tracks"], game.view("blue")["tracks"]
    assert "noted" not in red and "noted" not in blue
    assert red["held"] == {"red": 1} and blue["held"] == {"blue": 0}
    assert red["score"] == blue["score"] == {"red": 2, "blue": 0} and red["round"] == 1
    assert game.tracks()["noted"] == {"red": 2, "blue": 0}  # the results keep every track


def test_the_table_sends_a_seat_no_hidden_track(tally):
    table = Table.new(program(tally, "generated"), ("human", "human"), seed=1)
    table.choose("red", "3")
    sent = str(table.seat_view("blue"))
    assert "noted" not in sent and "Number noted" not in sent
    assert "held" in sent and "'red': 1" not in str(table.seat_view("blue")["view"]["tracks"]["held"])


def test_a_policy_may_read_its_own_owner_track(tally):
    game = Game(program(tally, "interpreted"), seed=1)
    assert game.program.prefer(game.state, "counts") == [0, 1, 2]  # held(red) is 0: all equal


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_an_evaluation_may_read_its_own_owner_track(tmp_path_factory, backend):
    folder = one_file_spec(tmp_path_factory, "mine", TALLY + 'bot mine "Mine" = 10 * held(you) + score(you)\n')
    game = Game(program(folder, backend), seed=1)
    game.choose("2")
    assert [game.program.evaluate(game.state, "mine", p) for p in (0, 1)] == [12, 0]


@pytest.mark.parametrize("read, what", [
    ("noted(you)", "'noted(...)' is hidden from every player"),
    ("held(opponent(you))", "'held(...)' is seen only by its owner (name the owner `you`)"),
])
def test_an_evaluation_reading_a_track_its_player_does_not_see_is_refused_at_its_line(
        tmp_path_factory, read, what):
    """A search scores the positions it guessed with the evaluation, but no guess re-deals a
    track: the hidden value would be read as it is."""
    from click.testing import CliRunner

    from rulespec.compiler.cli import main

    folder = one_file_spec(tmp_path_factory, "peeks", TALLY + f'bot peeks "Peeks" =\n    1 + {read}\n')
    result = CliRunner().invoke(main, ["check", str(folder)])
    line = len(TALLY.splitlines()) + 2
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"peeks.rules:{line}:9: error: an evaluation reads only what `you` can see:"
            f" track {what}") in result.output
