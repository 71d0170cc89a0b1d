"""The board a table draws: spaces where the spec places them (or a networkx layout),
links, regions with their colours, and zones where the spec places them.

Everything here is public: the map and the zones' places, never a card. The
positions come from the spec's `board` declaration, carried by both back ends'
meta (GameMeta.board); a spec that places no space gets a deterministic layout
of its map graph.
"""

from __future__ import annotations

from typing import Any

from rulespec.runtime.meta import BoardMeta, GameMeta


# Fill colours for regions, in the order the spec declares them.
PALETTE = ("#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69",
           "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3", "#e5c494")
PLAYER_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#566573")
DEFAULT_SIZE = (1000, 700)
CARD_FIGURES = 4  # attributes a card shows when the spec's board names none: a line stays short
# A zone the board places is drawn centred on its point, one row of cards (web/static/table.css
# `.zone.placed`) that grows left and right alike as cards come, up to its room (zone_room): at
# most ZONE_WIDEST of the board's width, and never past halfway to a zone beside it in its band
# (their boxes as high as each other's); past that its cards scroll inside it. In CSS pixels,
# which are board units when the board is drawn at its declared size.
ZONE_WIDEST = 0.88
ZONE_ONE_CARD = 122  # a card of 6.6rem, the zone's padding and border: a zone is never narrower
ZONE_HEIGHT = 86  # its heading and a card 3.6rem high
MARGIN = 40


def board_of(meta: GameMeta) -> BoardMeta:
    """The meta's board, or an empty one (a package made before boards were carried)."""
    board = getattr(meta, "board", None)
    if board is not None:
        return board
    count = len(meta.entity_ids)
    return BoardMeta(attributes=((),) * count, entity_at=("",) * count)


_PAYLOADS: dict[int, tuple[GameMeta, dict[str, Any]]] = {}


def board_payload(meta: GameMeta) -> dict[str, Any]:
    """The board as the web table draws it, the same for every seat (zones are per seat)."""
    kept = _PAYLOADS.get(id(meta))
    if kept is None or kept[0] is not meta:
        kept = _PAYLOADS[id(meta)] = (meta, _payload(meta))
    return kept[1]


def _payload(meta: GameMeta) -> dict[str, Any]:
    board = board_of(meta)
    width, height = (board.width, board.height) if board.width else DEFAULT_SIZE
    where = space_positions(meta)
    home = home_regions(meta)
    colours = region_colours(meta)
    shapes = dict(getattr(board, "shapes", ()))
    given = dict(getattr(board, "colours", ()))
    spaces = []
    for space in board.spaces:
        region = home.get(space)
        spaces.append({
            "id": meta.entity_ids[space], "label": meta.entity_labels[space],
            "kind": meta.entity_kinds[space], "x": where[space][0], "y": where[space][1],
            "region": meta.entity_ids[region] if region is not None else None,
            "colour": given.get(space, colours.get(region, "#eeeeee")),
            "shape": shapes.get(space, "box"),
            "attrs": [list(a) for a in board.attributes[space]], "at": board.entity_at[space],
            "shows": shown_attributes(board, space),
        })
    regions = [{"id": meta.entity_ids[r], "label": meta.entity_labels[r], "colour": colours[r],
                "attrs": [list(a) for a in board.attributes[r]],
                "spaces": [meta.entity_ids[s] for s in members]} for r, members in board.regions]
    return {
        "width": width, "height": height, "declared": bool(board.width),
        "hex_size": getattr(board, "hex_size", 0),
        "spaces": spaces, "regions": regions,
        "links": [[meta.entity_ids[a], meta.entity_ids[b]] for a, b in board.links],
        "counters": shown_counters(meta),
        "flags": sorted({n for s in spaces for n, v in s["shows"] if v == "yes"},
                        key=list(getattr(board, "shows", ())).index),
        "players": [{"id": p, "label": l, "colour": PLAYER_COLOURS[i % len(PLAYER_COLOURS)]}
                    for i, (p, l) in enumerate(zip(meta.players, meta.player_labels))],
        "tracks": [{"name": t.name, "label": t.label, "low": t.low, "high": t.high,
                    "per_player": t.per_player} for t in meta.tracks],
        "yes_no": sorted(flag_names(meta)),  # the flags: tracks and counters shown as yes or no
    }


def shown_attributes(board: BoardMeta, space: int) -> list[list[str]]:
    """The attributes the spec's board shows on a space, in the order it names them (none
    that is 0: a space without a bonus shows none)."""
    attrs = dict(board.attributes[space]) if space < len(board.attributes) else {}
    return [[name, attrs[name]] for name in getattr(board, "shows", ()) if attrs.get(name, "0") != "0"]


def card_attributes(meta: GameMeta) -> dict[str, list[tuple[str, str]]]:
    """Per card id, the attributes shown on the card, one rule for the terminal and the web
    table alike: the card fields the spec's board `show` names, in its order, when it names
    any; else the first CARD_FIGURES that tell a card apart from the others of its kind, in
    declaration order: not its `text`, not a serial number (no two cards share it), not the
    value nine cards in ten of the kind have, nor a 0 most of them have (it means none). A 0
    that tells the card apart is shown (a Spy's value 0 beside a Guard's 1); a set flag shows
    as its name (attribute_text), one not set is left out."""
    board = board_of(meta)
    fields = {name for card in meta.card_entities for name, _ in board.attributes[card]}
    named = [name for name in getattr(board, "shows", ()) if name in fields]
    by_kind: dict[str, list[int]] = {}
    for card in meta.card_entities:
        by_kind.setdefault(meta.entity_kinds[card], []).append(card)
    out = {}
    for cards in by_kind.values():
        plain = _plain_values(board, cards)
        for card in cards:
            attrs = board.attributes[card]
            if named:
                given = dict(attrs)
                shown = [(name, given[name]) for name in named if name in given]
            else:
                shown = [(name, value) for name, value in attrs if name != "text"
                         and (name, value) not in plain and (name, None) not in plain][:CARD_FIGURES]
            out[meta.entity_ids[card]] = shown
    return out


def attribute_text(name: str, value: str) -> str:
    """An attribute as a card shows it: 'ops 3', 'value 0', and a set flag by its name."""
    return name if value == "yes" else f"{name} {value}"


def _plain_values(board: BoardMeta, cards: list[int]) -> set[tuple[str, str | None]]:
    """(attribute, value) pairs that say nothing of a card of this kind: (name, None) for a
    serial number, (name, default) for a value nine in ten of them have."""
    values: dict[str, list[str]] = {}
    for card in cards:
        for name, value in board.attributes[card]:
            values.setdefault(name, []).append(value)
    plain: set[tuple[str, str | None]] = set()
    for name, seen in values.items():
        if len(seen) > 1 and len(set(seen)) == len(seen):
            plain.add((name, None))
        common = max(set(seen), key=seen.count)
        if seen.count(common) * 10 >= len(cards) * 9 or common == "0":  # 0 the most have: none
            plain.add((name, common))
    return plain


def zone_room(positions: dict[str, tuple[int, int]], board_width: int) -> dict[str, float]:
    """Per placed zone, the widest it is drawn: ZONE_WIDEST of the board, and no wider than
    the distance to the nearest zone in its band, so that neither runs over the other."""
    room = {}
    for key, (x, y) in positions.items():
        gaps = [abs(x - ox) for other, (ox, oy) in positions.items()
                if other != key and abs(y - oy) < ZONE_HEIGHT]
        room[key] = max(ZONE_ONE_CARD, min([ZONE_WIDEST * board_width] + gaps))
    return room


def crowded_zones(positions: dict[str, tuple[int, int]]) -> list[tuple[str, str]]:
    """Pairs of placed zones (later, earlier) that overlap even one card wide each: in one
    band and closer than a card's width (zone_room cannot keep them apart)."""
    keys = list(positions)
    return [(key, other) for i, key in enumerate(keys) for other in keys[:i]
            if abs(positions[key][1] - positions[other][1]) < ZONE_HEIGHT
            and abs(positions[key][0] - positions[other][0]) < ZONE_ONE_CARD]


def flag_names(meta: GameMeta) -> frozenset[str]:
    """The tracks and counters declared `flag`: 0 or 1, read as a truth."""
    return frozenset(t.name for t in meta.tracks if getattr(t, "flag", False)) | \
        frozenset(c.name for c in meta.counters if getattr(c, "flag", False))


def value_text(value: Any, flag: bool) -> str:
    """A track's or counter's value as a person reads it: a flag's as yes or no."""
    return ("yes" if value else "no") if flag else str(value)


def shown_counters(meta: GameMeta) -> list[str]:
    """The counters the spec's board shows on spaces; none named: every counter."""
    names = {c.name for c in meta.counters}
    return [n for n in getattr(board_of(meta), "shows", ()) if n in names]


def zone_positions(meta: GameMeta, seat: str,
                   seated: tuple[str, ...] | None = None) -> dict[str, tuple[int, int]]:
    """Where the spec places each zone, turned so the seat's own zones lie where the
    first player's are declared (everyone sits at the bottom of their own table)."""
    board = board_of(meta)
    players = meta.players if seated is None else seated  # an empty seat's zones are not drawn
    turn = players.index(seat) if seat in players else 0
    out: dict[str, tuple[int, int]] = {}
    for name, x, y in board.positions:
        zone, _, owner = name.partition("(")
        if not owner:
            out[name] = (x, y)
            continue
        owner = owner.rstrip(")")
        if owner in players:
            shown = players[(players.index(owner) + turn) % len(players)]
            out[f"{zone}({shown})"] = (x, y)
    entities = set(meta.entity_ids)
    return {k: v for k, v in out.items() if k not in entities}


def space_positions(meta: GameMeta) -> dict[int, tuple[int, int]]:
    """Each space's position: declared in the spec, else a deterministic spring layout."""
    board = board_of(meta)
    index = {e: i for i, e in enumerate(meta.entity_ids)}
    declared = {index[n]: (x, y) for n, x, y in board.positions if n in index}
    if not board.spaces or all(s in declared for s in board.spaces):
        return declared
    if declared:  # a few spaces (a variant's) unplaced: each goes by its placed neighbours
        return _beside(board, declared)
    return _layout(meta, board)


def _beside(board: BoardMeta, declared: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    out = dict(declared)
    width, height = board.width or DEFAULT_SIZE[0], board.height or DEFAULT_SIZE[1]
    for space in board.spaces:
        if space in out:
            continue
        near = [out[b if a == space else a] for a, b in board.links
                if space in (a, b) and (b if a == space else a) in out]
        x, y = (sum(p[0] for p in near) // len(near), sum(p[1] for p in near) // len(near)) \
            if near else (width // 2, height // 2)
        out[space] = (min(max(x + 40, MARGIN), width - MARGIN), min(max(y + 40, MARGIN), height - MARGIN))
    return out


def _layout(meta: GameMeta, board: BoardMeta) -> dict[int, tuple[int, int]]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(board.spaces)
    graph.add_edges_from(board.links)
    home = home_regions(meta)
    # Spaces of one region pull together: a weak link to a hub per region.
    for region, _ in board.regions:
        for space in board.spaces:
            if home.get(space) == region:
                graph.add_edge(space, ("hub", region), weight=0.3)
    raw = nx.spring_layout(graph, seed=7, iterations=200)
    points = {s: raw[s] for s in board.spaces}
    width, height = DEFAULT_SIZE
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    span_x, span_y = (high_x - low_x) or 1.0, (high_y - low_y) or 1.0
    return {s: (round(MARGIN + (p[0] - low_x) / span_x * (width - 2 * MARGIN)),
                round(MARGIN + (p[1] - low_y) / span_y * (height - 2 * MARGIN)))
            for s, p in points.items()}


def home_regions(meta: GameMeta) -> dict[int, int]:
    """Each space's smallest region (the one it is coloured by); the first declared on ties."""
    board = board_of(meta)
    home: dict[int, int] = {}
    for region, members in sorted(board.regions, key=lambda r: len(r[1])):
        for space in members:
            home.setdefault(space, region)
    return home


def region_colours(meta: GameMeta) -> dict[int, str]:
    """Each region's colour: the one the spec's board gives it, else the palette's, in order."""
    board = board_of(meta)
    given = dict(getattr(board, "colours", ()))
    return {region: given.get(region, PALETTE[i % len(PALETTE)]) for i, (region, _) in enumerate(board.regions)}
