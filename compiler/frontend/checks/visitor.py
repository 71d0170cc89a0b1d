"""visit_<ClassName> dispatch with a generic fallback that visits the children."""

from __future__ import annotations

from typing import Any, Callable

from rulespec.compiler.frontend import ast


class Visitor:
    """Calls visit_<ClassName> for a node, or generic_visit when there is none."""

    _methods: dict[type, str | None] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def visit(self, node: ast.Node) -> Any:
        return self._method(type(node))(node)

    def _method(self, cls: type) -> Callable[[ast.Node], Any]:
        if cls not in self._methods:
            name = f"visit_{cls.__name__}"
            self._methods[cls] = name if hasattr(self, name) else None
        name = self._methods[cls]
        return getattr(self, name) if name else self.generic_visit

    def generic_visit(self, node: ast.Node) -> Any:
        for child in node.children():
            self.visit(child)
