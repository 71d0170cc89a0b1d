"""Terraforming Mars: the spec's Tharsis map is board.csv's graph, and board.csv's adjacency is
the hex grid of its own coordinates (networkx)."""

from __future__ import annotations

import csv
from pathlib import Path

import networkx as nx
import pytest

from support import REPO, loaded

TM = REPO / "spec" / "terraforming_mars"
BOARD = Path("/work/shared/reference/terraforming_mars/board.csv")

pytestmark = pytest.mark.skipif(not BOARD.exists(), reason="the reference table is not on this machine")


def _rows() -> list[dict[str, str]]:
    with BOARD.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _table_graph() -> nx.Graph:
    g = nx.Graph()
    for r in _rows():
        g.add_node("s" + r["space_id"])
        for other in r["adjacent_space_ids"].split():
            g.add_edge("s" + r["space_id"], "s" + other)
    return g


def _spec_graph() -> nx.Graph:
    model = loaded(TM).model
    g = nx.Graph()
    for i in model.spaces():
        g.add_node(model.entities[i].name.name)
        for j in model.adjacency.get(i, ()):
            g.add_edge(model.entities[i].name.name, model.entities[j].name.name)
    return g


def _hex_graph() -> nx.Graph:
    """Rows of 5..9..5 hexes: in the upper half a row's neighbours below sit at x and x+1
    of the shifted coordinates, in the lower half at x-1 and x (board.csv's x, y)."""
    g = nx.Graph()
    at = {}
    for r in _rows():
        if r["x"]:
            at[(int(r["x"]), int(r["y"]))] = "s" + r["space_id"]
            g.add_node("s" + r["space_id"])
        else:
            g.add_node("s" + r["space_id"])
    for (x, y), name in at.items():
        for dx, dy in ((1, 0), (-1, 1), (0, 1)) if y < 4 else ((1, 0), (0, 1), (1, 1)):
            # board.csv's x is 9 - row length + index: below the middle row the rows shrink
            other = at.get((x + dx, y + dy))
            if other:
                g.add_edge(name, other)
    return g


def test_the_spec_map_is_board_csv():
    spec, table = _spec_graph(), _table_graph()
    assert set(spec.nodes) == set(table.nodes) and len(spec.nodes) == 63
    assert set(map(frozenset, spec.edges)) == set(map(frozenset, table.edges))


def test_board_csv_adjacency_is_the_hex_grid_of_its_coordinates():
    assert set(map(frozenset, _hex_graph().edges)) == set(map(frozenset, _table_graph().edges))


def test_mars_is_connected_and_the_colonies_stand_apart():
    g = _spec_graph()
    mars = g.subgraph([n for n in g.nodes if n not in ("s01", "s02")])
    assert nx.is_connected(mars) and len(mars) == 61
    assert g.degree("s01") == 0 and g.degree("s02") == 0
