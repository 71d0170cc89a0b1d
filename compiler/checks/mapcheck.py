"""The map: adjacency, regions and connectivity, checked on the networkx graph of compiler/graph.py."""

from __future__ import annotations

from .. import ast
from ..errors import Diagnostic
from ..model import Model


def check_map_graph(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every problem of the map."""
    from ..graph import check_map  # networkx loads only when a spec is checked
    return check_map(model)
