"""The map: adjacency, regions and connectivity, checked on the networkx graph of compiler/frontend/graph.py."""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model


def check_map_graph(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every problem of the map."""
    from rulespec.compiler.frontend.graph import check_map  # networkx loads only when a spec is checked
    return check_map(model)
