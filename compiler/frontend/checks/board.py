"""The board: one at most, showing attributes that spaces have, and every placement a
space or a zone of the spec, inside the board, placed once; a board that places spaces
places all of them."""

from __future__ import annotations

import re
from pathlib import PurePath

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.board import pixel
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.board import ZONE_HEIGHT, ZONE_ONE_CARD, crowded_zones

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
    problems += _colours(model, board)
    return problems


COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _colours(model: Model, board: ast.BoardDecl) -> list[Diagnostic]:
    """Each colour is #rrggbb, given once, to a region or a space."""
    problems, given = [], set()
    for c in board.colours:
        name = c.target.name
        index = model.entity_index.get(name)
        if index is None:
            known = [e.name.name for i, e in enumerate(model.entities)
                     if model.entity_category(i) in ("region", "space")]
            problems.append(Diagnostic(f"unknown region or space '{name}'" + did_you_mean(name, known),
                                       c.target.span))
        elif model.entity_category(index) not in ("region", "space"):
            problems.append(Diagnostic(f"'{name}' is a {model.entity_category(index)}: a board colours"
                                       f" regions and spaces", c.target.span))
        elif not COLOUR.fullmatch(c.colour):
            problems.append(Diagnostic(f"'{c.colour}' is not a colour: write it as \"#rrggbb\""
                                       f" (\"#2471a3\")", c.span))
        elif name in given:
            problems.append(Diagnostic(f"'{name}' is coloured twice", c.span))
        given.add(name)
    return problems


def _shows(model: Model, board: ast.BoardDecl) -> list[Diagnostic]:
    """Each name shown is an attribute a kind of space or card declares (a card field named
    is "shown on the card", at every play surface) or a counter on spaces."""
    space_kinds = {name for name, k in model.kinds.items() if k.category == "space"}
    card_kinds = {name for name, k in model.kinds.items() if k.category == "card"}
    fields = {f.name.name for k in space_kinds | card_kinds for f in model.kinds[k].fields}
    counters = {c for c, kind in model.counter_kinds.items() if kind in space_kinds or kind == "space"}
    return [Diagnostic(f"no kind of space or card has an attribute, nor is there a counter on spaces,"
                       f" '{n.name}' to show" + did_you_mean(n.name, fields | counters), n.span)
            for n in board.shows if n.name not in fields | counters]


def _placement(model: Model, board: ast.BoardDecl, place: ast.Placement,
               placed: dict[str, ast.Placement]) -> list[Diagnostic]:
    problem = _target(model, place)
    if problem is None and place.key in placed:
        problem = f"'{place.key}' is placed twice (first at line {placed[place.key].span.line})"
    if problem is None and place.hex and place.target.name in model.zones:
        problem = f"zone '{place.target.name}' is placed at x, y: the hex grid holds spaces"
    if problem is None and place.hex and not board.hex_size:
        problem = (f"'at hex {place.x}, {place.y}' needs the board's hex grid:"
                   f" board {board.width} by {board.height} hex SIZE from X, Y")
    x, y = pixel(board, place)
    if problem is None and not (0 <= x <= board.width and 0 <= y <= board.height):
        where = f"hex {place.x}, {place.y} (at {x}, {y})" if place.hex else f"{x}, {y}"
        problem = (f"{where} lies outside the board"
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


def board_warnings(model: Model) -> list[Diagnostic]:
    """Zones the board places so close that they overlap at their largest (runtime.board:
    a zone is drawn centred on its point and grows sideways only into the room its band's
    neighbours leave, but never narrower than a card): a warning, the spec still sound."""
    board = model.boards[0] if model.boards else None
    if board is None:
        return []
    places = {p.key: p for p in board.places if p.target.name in model.zones and not p.hex}
    where = {key: pixel(board, place) for key, place in places.items()}
    return [Diagnostic(f"'{key}' at {where[key][0]}, {where[key][1]} and '{other}' at {where[other][0]},"
                       f" {where[other][1]} overlap at their largest: a zone is drawn centred on its"
                       f" point, {ZONE_HEIGHT} high and at least {ZONE_ONE_CARD} wide"
                       f" (docs/PLAYTEST.md, board positions)", places[key].span)
            for key, other in crowded_zones(where)]
