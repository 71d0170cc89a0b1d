"""The board a play surface draws, as both back ends' meta carry it (runtime BoardMeta):
spaces, regions, links, the spec's `board` placements, and each entity's attributes as
text with the spec line that declares it."""

from __future__ import annotations

import math
from typing import Any

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.locations import location
from rulespec.runtime.meta import BoardMeta

Model = Any  # rulespec.compiler.frontend.model.Model, which imports this module


def board_meta(model: Model) -> BoardMeta:
    spaces = tuple(model.spaces())
    space_set = set(spaces)
    links = sorted({(min(a, b), max(a, b)) for a in spaces for b in model.adjacency.get(a, ())
                    if b in space_set and a != b})
    regions = tuple((r, tuple(m)) for r, m in model.region_members.items())
    board = model.boards[0] if model.boards else None
    return BoardMeta(
        spaces=spaces, regions=regions, links=tuple(links),
        width=board.width if board else 0, height=board.height if board else 0,
        positions=tuple((p.key, *pixel(board, p)) for p in board.places) if board else (),
        attributes=tuple(attribute_texts(model, i) for i in range(len(model.entities))),
        entity_at=tuple(location(e.span) for e in model.entities),
        shows=tuple(n.name for n in board.shows) if board else (),
        hex_size=board.hex_size if board else 0,
        shapes=tuple((model.entity_index[p.target.name], "hex") for p in board.places if p.hex)
        if board else (),
        colours=tuple((model.entity_index[c.target.name], c.colour) for c in board.colours)
        if board else (),
    )


def pixel(board: ast.BoardDecl, place: ast.Placement) -> tuple[int, int]:
    """Where a placement lies on the board: `at x, y` itself, `at hex q, r` the centre of that
    pointy-top hex of the board's grid (axial coordinates: q along a row, r down the rows)."""
    if not place.hex:
        return place.x, place.y
    x0, y0 = board.hex_origin
    q, r = place.x, place.y
    return round(x0 + board.hex_size * math.sqrt(3) * (q + r / 2)), round(y0 + board.hex_size * 1.5 * r)


def attribute_texts(model: Model, index: int) -> tuple[tuple[str, str], ...]:
    """An entity's attributes (declared or defaulted) as a table shows them; false flags and
    none left out."""
    entity = model.entities[index]
    kind = model.kinds.get(entity.kind.name)
    if kind is None:
        return ()
    given = {a.name.name: a.value for a in entity.attributes}
    out = []
    for f in kind.fields:
        expr = given.get(f.name.name, f.default)
        text = _text(model, expr)
        if text is not None:
            out.append((f.name.name, text))
    return tuple(out)


def _text(model: Model, expr: ast.Expr | ast.PerValue | None) -> str | None:
    if expr is None or isinstance(expr, ast.NoneLit):
        return None
    if isinstance(expr, ast.PerValue):  # the values given, each as the table shows it
        shown = [(i.key.name, _text(model, i.value)) for i in expr.items]
        return ", ".join(f"{key} {text}" for key, text in shown if text is not None) or None
    if isinstance(expr, ast.BoolLit):
        return "yes" if expr.value else None
    if isinstance(expr, (ast.IntLit, ast.StrLit)):
        return str(expr.value)
    if isinstance(expr, ast.NameRef):
        name = expr.name
        if name in model.players:
            return model.player_labels[model.players.index(name)]
        if name in model.entity_index:
            return model.entities[model.entity_index[name]].label
        return name
    return None
