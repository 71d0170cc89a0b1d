"""The board: one at most, showing attributes that spaces have, and every placement a
space or a zone of the spec, inside the board, placed once; a board that places spaces
places all of them."""

from __future__ import annotations

from pathlib import PurePath

from .. import ast
from ..errors import Diagnostic, did_you_mean
from ..model import Model

SHOWN = 5  # missing spaces named in a message


def check_board(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    if not model.boards:
        return []
    board, problems = model.boards[0], []
    for extra in model.boards[1:]:
        problems.append(Diagnostic(f"a second board: the board is declared at {board.span}", extra.span))
    if board.width <= 0 or board.height <= 0:
        problems.append(Diagnostic("a board is at least 1 by 1", board.span))
    problems += _shows(model, board)
    placed: dict[str, ast.Placement] = {}
    for place in board.places:
        problems += _placement(model, board, place, placed)
    problems += _all_spaces(model, board, placed)
    return problems


def _shows(model: Model, board: ast.BoardDecl) -> list[Diagnostic]:
    """Each name shown is an attribute a kind of space declares or a counter on spaces."""
    space_kinds = {name for name, k in model.kinds.items() if k.category == "space"}
    fields = {f.name.name for k in space_kinds for f in model.kinds[k].fields}
    counters = {c for c, kind in model.counter_kinds.items() if kind in space_kinds or kind == "space"}
    return [Diagnostic(f"no kind of space has an attribute or a counter '{n.name}' to show"
                       + did_you_mean(n.name, fields | counters), n.span)
            for n in board.shows if n.name not in fields | counters]


def _placement(model: Model, board: ast.BoardDecl, place: ast.Placement,
               placed: dict[str, ast.Placement]) -> list[Diagnostic]:
    problem = _target(model, place)
    if problem is None and place.key in placed:
        problem = f"'{place.key}' is placed twice (first at line {placed[place.key].span.line})"
    if problem is None and not (0 <= place.x <= board.width and 0 <= place.y <= board.height):
        problem = (f"{place.x}, {place.y} lies outside the board"
                   f" (0..{board.width} by 0..{board.height})")
    if problem is not None:
        return [Diagnostic(problem, place.span)]
    placed[place.key] = place
    return []


def _target(model: Model, place: ast.Placement) -> str | None:
    """What is wrong with the name placed, or None."""
    name = place.target.name
    if name in model.zones:
        zone = model.zones[name]
        if zone.per_player and place.player is None:
            return (f"zone '{name}' is per player: place {name}(p) for each player p"
                    f" ({', '.join(model.players)})")
        if not zone.per_player and place.player is not None:
            return f"zone '{name}' is shared, not per player: place it as '{name}'"
        if place.player is not None and place.player.name not in model.players:
            return (f"unknown player '{place.player.name}'"
                    + did_you_mean(place.player.name, model.players))
        return None
    index = model.entity_index.get(name)
    if index is None:
        known = list(model.zones) + [model.entities[i].name.name for i in model.spaces()]
        return f"unknown space or zone '{name}'" + did_you_mean(name, known)
    category = model.entity_category(index)
    if category != "space":
        return f"'{name}' is a {category}: a board places spaces and zones"
    if place.player is not None:
        return f"'{name}' is a space: it is placed without a player"
    return None


def _all_spaces(model: Model, board: ast.BoardDecl, placed: dict[str, ast.Placement]) -> list[Diagnostic]:
    # A space a variant adds may go unplaced: the play surface puts it by its neighbours.
    spaces = [model.entities[i].name.name for i in model.spaces()
              if PurePath(model.entities[i].span.file).parent.name != "variants"]
    missing = [s for s in spaces if s not in placed]
    if len(missing) in (0, len(spaces)):
        return []
    shown = ", ".join(missing[:SHOWN]) + (f" and {len(missing) - SHOWN} more" if len(missing) > SHOWN else "")
    return [Diagnostic(f"the board places {len(spaces) - len(missing)} of {len(spaces)} spaces:"
                       f" place every space or none (missing {shown})", board.span)]
