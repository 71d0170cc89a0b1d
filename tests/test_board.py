"""The board a table draws: both back ends' meta carry the spec's board; declared positions
are used as declared; without any, the networkx layout is deterministic and inside the
board; seats see their own zones at the bottom; pages and assets load nothing from elsewhere."""

from __future__ import annotations

import re

import pytest

from rulespec.runtime.board import board_payload, space_positions, zone_positions
from support import MINI, REPO, TS, program
from rulespec.runtime.playtest.web.server import HERE

HELDENHAIN = REPO / "spec" / "heldenhain"


@pytest.mark.parametrize("folder", [TS, HELDENHAIN, MINI], ids=["twilight_struggle", "heldenhain", "mini"])
def test_both_back_ends_carry_the_same_board(folder):
    generated, interpreted = program(folder, "generated").meta, program(folder, "interpreted").meta
    assert generated.board is not None and generated.board == interpreted.board


def test_twilight_struggle_spaces_stand_where_its_board_places_them():
    meta = program(TS, "generated").meta
    board = board_payload(meta)
    where = {s["id"]: (s["x"], s["y"]) for s in board["spaces"]}
    assert board["declared"] and (board["width"], board["height"]) == (960, 900)
    assert where["austria"] == (426, 267) and len(where) == len(meta.board.spaces) == 86
    east_germany = next(s for s in board["spaces"] if s["id"] == "east_germany")
    assert east_germany["shows"] == [["stability", "3"], ["battleground", "yes"]]
    assert east_germany["region"] == "eastern_europe" and board["counters"] == ["influence"]
    assert ["austria", "west_germany"] in board["links"] or ["west_germany", "austria"] in board["links"]
    assert not any(c in str(board) for c in ("china_card", "The China Card"))  # no card on the board


def test_a_map_without_a_board_gets_a_deterministic_layout_inside_the_table():
    meta = program(MINI, "interpreted").meta
    assert not meta.board.positions
    first = space_positions(meta)
    assert first == space_positions(meta) and set(first) == set(meta.board.spaces)
    payload = board_payload(meta)
    assert all(0 <= s["x"] <= payload["width"] and 0 <= s["y"] <= payload["height"] for s in payload["spaces"])


def test_each_seat_sees_its_own_side_of_the_table_at_the_bottom():
    meta = program(HELDENHAIN, "generated").meta
    mine, theirs = zone_positions(meta, "p1"), zone_positions(meta, "p2")
    assert mine["hand(p1)"][1] > mine["hand(p2)"][1]  # p1's hand at the bottom for p1
    assert theirs["hand(p2)"] == mine["hand(p1)"] and theirs["hand(p1)"] == mine["hand(p2)"]
    assert mine["tischmitte"] == theirs["tischmitte"]


def test_pages_and_assets_load_nothing_from_elsewhere():
    for path in list((HERE / "static").iterdir()) + list((HERE / "templates").iterdir()):
        text = path.read_text(encoding="utf-8")
        outside = [u for u in re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"')]*", text)
                   if "www.w3.org/2000/svg" not in u]
        assert not outside, f"{path.name} refers to {outside}"


MARS = REPO / "spec" / "terraforming_mars"
RISK = REPO / "spec" / "risk_balance_of_power"


def test_terraforming_mars_is_61_hexes_of_its_grid_with_their_bonuses():
    board = board_payload(program(MARS, "generated").meta)
    hexes = [s for s in board["spaces"] if s["shape"] == "hex"]
    assert len(hexes) == 61 and board["hex_size"] == 50
    assert {s["id"] for s in board["spaces"] if s["shape"] == "box"} == {"s01", "s02"}
    where = {s["id"]: (s["x"], s["y"]) for s in hexes}
    assert where["s03"] == (243, 80) and where["s04"] == (330, 80)  # hex 4, 0 and 5, 0: 87 apart
    shows = {s["id"]: dict(s["shows"]) for s in hexes}
    assert shows["s03"] == {"bonus_steel": "2"}  # its bonus, and none of the zeros
    assert shows["s04"] == {"ocean_spot": "yes", "bonus_steel": "2"}


def test_risk_draws_each_region_in_the_colour_its_spec_gives_with_its_bonus():
    board = board_payload(program(RISK, "generated").meta)
    regions = {r["label"]: r for r in board["regions"]}
    assert regions["Blau"]["colour"] == "#5b8fd9" and regions["Orange"]["colour"] == "#f0923a"
    assert regions["Blau"]["attrs"] == [["bonus", "2"]]
    blau = set(regions["Blau"]["spaces"])
    assert all(s["colour"] == "#5b8fd9" for s in board["spaces"] if s["id"] in blau)


def test_the_terminal_prints_a_hex_grid_as_rows_and_regions_with_their_counts():
    from io import StringIO

    from rich.console import Console

    from rulespec.runtime.playtest.table import Table
    from rulespec.runtime.playtest.terminal import TerminalSeat

    for folder, seats in ((MARS, ("human", "random")), (RISK, ("human", "random"))):
        table = Table.new(program(folder, "generated"), seats, seed=3)
        table.run_bots()
        out = StringIO()
        terminal = TerminalSeat(table, Console(file=out, width=200, color_system=None))
        seat = table.pending_player
        terminal.console.print(terminal.map_grid(table.seat_view(seat), every=True))
        text = out.getvalue()
        if folder == MARS:
            hexes = {space for space, shape in table.meta.board.shapes}
            grid = terminal.hex_rows(table.seat_view(seat), hexes, set(), []).plain.splitlines()
            assert [len(row.split()) for row in grid] == [5, 6, 7, 8, 9, 8, 7, 6, 5], grid
            assert grid[0].index("·") > grid[4].index("·")  # each row shifted as on the board
            assert "Mars" in text
        else:
            assert re.search(r"Blau \(bonus 2\) · Rot \d+ on \d+", text) or "Blau (bonus 2)" in text


CROWDED = """\
game g "G"
players red "Red", blue "Blue"
zone deck "Deck" hidden ordered
zone pile "Pile" public
zone hand "Hand" per player owner
zone won "Won" per player hidden
kind card: card(value: int)
card one "One" (value 1)
board 900 by 520 {
    deck at 330, 260
    pile at 450, 340
    hand(red) at 450, 470
    won(red) at 780, 470
    hand(blue) at 450, 50
    won(blue) at 580, 50
}
start { win none "draw" }
"""


def test_check_warns_where_placed_zones_overlap_at_their_largest(tmp_path):
    from click.testing import CliRunner

    from rulespec.compiler.cli import main
    (tmp_path / "g.rules").write_text(CROWDED, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.output  # a warning, the spec still sound
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert len(warnings) == 1 and "g.rules:11:5: warning: 'pile' at 450, 340 and 'deck' at 330, 260" \
        " overlap at their largest" in warnings[0], result.stderr
    # beside a hand, a pile takes half the way to it; the hand alone in its row grows to 88%
    from rulespec.runtime.board import zone_room
    room = zone_room({"hand": (450, 470), "won": (780, 470), "top": (450, 50)}, 900)
    assert room == {"hand": 330, "won": 330, "top": 792.0}


@pytest.mark.parametrize("game", ["the_fox_in_the_forest", "heldenhain", "twilight_struggle",
                                  "risk_balance_of_power", "terraforming_mars"])
def test_the_specs_boards_place_no_zones_that_overlap(game):
    from rulespec.compiler.frontend.checks.board import board_warnings
    from support import loaded
    assert board_warnings(loaded(REPO / "spec" / game).model) == []


def test_the_foxs_hands_have_a_row_of_their_own():
    from rulespec.runtime.board import zone_room
    meta = program(REPO / "spec" / "the_fox_in_the_forest", "interpreted").meta
    room = zone_room(zone_positions(meta, "oak"), meta.board.width)
    assert room["hand(oak)"] == room["hand(birch)"] == 0.88 * meta.board.width  # not under the won pile


def test_flags_read_yes_or_no_at_the_table():
    from rulespec.runtime.board import flag_names, value_text
    meta = program(REPO / "spec" / "terraforming_mars", "interpreted").meta
    names = flag_names(meta)
    assert {"passed", "used", "claimed"} <= names and "tr" not in names  # flag tracks and counters
    assert set(board_payload(meta)["yes_no"]) == names
    assert [value_text(v, True) for v in (0, 1)] == ["no", "yes"] and value_text(1, False) == "1"
