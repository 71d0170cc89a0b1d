"""The map as a networkx graph, and the checks the map must pass.

Adjacency is written on both ends; every link must be symmetric, never a
self-link, never to an unknown name; every region holds spaces; and the
spec's `map { require ... }` rules hold.
"""

from __future__ import annotations

import networkx as nx

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.model import Model

SHOWN = 4  # names shown per component in a message


def space_graph(model: Model) -> nx.Graph:
    """Every space a node (by id, in declaration order), every valid link an edge."""
    graph = nx.Graph()
    spaces = model.spaces()
    graph.add_nodes_from(model.entities[i].name.name for i in spaces)
    for i in spaces:
        a = model.entities[i].name.name
        graph.add_edges_from((a, other.name) for other in model.entities[i].adjacent
                             if other.name in graph and other.name != a)
    return graph


def check_map(model: Model) -> list[Diagnostic]:
    """Every problem of the map: links, regions and the `require` rules."""
    problems = _links(model) + _regions(model)
    for rule in model.map_rules:
        if isinstance(rule, ast.RequireConnected):
            problems += _connected(model, rule)
        elif isinstance(rule, ast.RequireInRegion):
            problems += _in_region(model, rule)
    return problems


def _listed(model: Model) -> dict[str, list[ast.Ident]]:
    """The names each space lists as adjacent, as written."""
    return {model.entities[i].name.name: list(model.entities[i].adjacent) for i in model.spaces()}


def _links(model: Model) -> list[Diagnostic]:
    listed = _listed(model)
    names = {a: {o.name for o in others} for a, others in listed.items()}
    problems = []
    for a, others in listed.items():
        seen: set[str] = set()
        for other in others:
            problems += _link(model, a, other, names, seen)
            seen.add(other.name)
    return problems


def _link(model: Model, a: str, other: ast.Ident, names: dict[str, set[str]], seen: set[str]) -> list[Diagnostic]:
    b = other.name
    if b not in model.entity_index:
        return [Diagnostic(f"unknown space '{b}'{did_you_mean(b, names)}", other.span)]
    if b == a:
        return [Diagnostic(f"'{a}' is adjacent to itself", other.span)]
    if b in seen:
        return [Diagnostic(f"'{a}' lists '{b}' twice", other.span)]
    if b in names and a not in names[b]:
        return [Diagnostic(f"adjacency is not symmetric: '{a}' lists '{b}' but '{b}' does not list '{a}'",
                           other.span)]
    return []


def _regions(model: Model) -> list[Diagnostic]:
    return [Diagnostic(f"region '{model.entities[r].name.name}' has no spaces", model.entities[r].name.span)
            for r, members in model.region_members.items() if not members]


def _connected(model: Model, rule: ast.RequireConnected) -> list[Diagnostic]:
    graph = space_graph(model)
    if graph.number_of_nodes() == 0 or nx.is_connected(graph):
        return []
    order = {name: i for i, name in enumerate(graph.nodes)}
    parts = sorted((sorted(c, key=order.get) for c in nx.connected_components(graph)),
                   key=lambda c: (-len(c), order[c[0]]))
    text = "; ".join(_part(p) for p in parts)
    return [Diagnostic(f"the map is not connected: it falls into {len(parts)} parts: {text}", rule.span)]


def _part(names: list[str]) -> str:
    shown = ", ".join(f"'{n}'" for n in names[:SHOWN])
    rest = len(names) - SHOWN
    return shown + (f" and {rest} more" if rest > 0 else "")


def _in_region(model: Model, rule: ast.RequireInRegion) -> list[Diagnostic]:
    kind = rule.kind.name
    if kind not in model.kinds:
        return [Diagnostic(f"unknown kind '{kind}'{did_you_mean(kind, model.kinds)}", rule.kind.span)]
    in_some = {m for members in model.region_members.values() for m in members}
    return [Diagnostic(f"{kind} '{model.entities[i].name.name}' is in no region; "
                       f"the map requires every {kind} to be in one", model.entities[i].name.span)
            for i in model.kind_members.get(kind, []) if i not in in_some]
