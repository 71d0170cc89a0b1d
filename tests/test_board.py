"""The board a table draws: both back ends' meta carry the spec's board; declared positions
are used as declared; without any, the networkx layout is deterministic and inside the
board; seats see their own zones at the bottom; pages and assets load nothing from elsewhere."""

from __future__ import annotations

import re

import pytest

from runtime.board import board_payload, space_positions, zone_positions
from support import MINI, REPO, TS, program
from runtime.web.server import HERE

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
