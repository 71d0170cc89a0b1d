"""Values worked out from syntax-tree nodes, kept by the nodes' identity.

The models of one process (a game and its variant sets) share the parse's
nodes, so what is worked out from a node once holds for every model that has
it. Nodes are compared by identity, not by value (equal nodes at other spans
are other nodes to a check's messages); each entry keeps its nodes alive, so an
id() stays theirs. A long-running process (the editor's server) forgets all
past `limit` entries.
"""

from __future__ import annotations

from typing import Any, Generic, Hashable, TypeVar

Value = TypeVar("Value")


class KeptByNode(Generic[Value]):
    """A table from nodes (one or a few, plus an optional hashable tag) to a value."""

    def __init__(self, limit: int):
        self.limit = limit
        self._kept: dict[tuple, tuple[tuple[Any, ...], Value]] = {}

    def get(self, nodes: tuple[Any, ...], tag: Hashable = None) -> Value | None:
        found = self._kept.get((*map(id, nodes), tag))
        if found is None or any(a is not b for a, b in zip(found[0], nodes)):
            return None
        return found[1]

    def put(self, nodes: tuple[Any, ...], value: Value, tag: Hashable = None) -> Value:
        if len(self._kept) > self.limit:
            self._kept.clear()
        self._kept[(*map(id, nodes), tag)] = (nodes, value)
        return value
