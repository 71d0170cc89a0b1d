"""The exact conversion of a State's numeric part to a layout's bytes and back.

Pure Python (`struct`): it is the reference the native engine's state is checked against, not
a fast path. A value with no room in its field (past its range, a card past a zone's capacity,
a counter's cell outside its kind) is a PackError naming the field, never truncated.
"""

from __future__ import annotations

import struct
from typing import Any, Callable

from rulespec.compiler.backends.machine.layout import CTYPES, Field, Layout
from rulespec.runtime.state import State
from rulespec.runtime.values import ZONE_TAG

SCALARS = ("rng", "decisions", "rounds", "nesting", "dice_strict")


class PackError(ValueError):
    """A value of the state has no room in its field of the layout."""

    def __init__(self, field: Field, message: str):
        super().__init__(f"{field.name} ({field.declared}): {message}")
        self.field = field


# ------------------------------------------------------------------ State -> bytes


def pack(layout: Layout, state: State) -> bytes:
    """The machine part of `state` as the layout's bytes."""
    out = bytearray(layout.size)
    for field in layout.fields:
        values = _READ[field.part](layout, field, state)
        if not field.bits:
            for value in values:
                if not (field.low <= value <= field.high or value == field.none):
                    raise PackError(field, f"holds {value}, outside {field.low}..{field.high}")
        struct.pack_into(f"={field.count}{CTYPES[field.ctype][1]}", out, field.offset, *values)
    return bytes(out)


def _number(field: Field, value: Any) -> int:
    if type(value) is not int:
        raise PackError(field, f"holds {value!r}, not a whole number")
    return value


def _bits(field: Field, rows: list[list[Any]]) -> list[int]:
    """Rows of truths (0/1, False/True) as bytes, lowest bit first."""
    out = []
    for row in rows:
        packed = bytearray(field.dims[-1])
        for i, value in enumerate(row):
            if value not in (0, 1):
                raise PackError(field, f"holds {value!r} where a bit is kept (0 or 1)")
            packed[i >> 3] |= bool(value) << (i & 7)
        out += packed
    return out


def _rows(layout: Layout, field: Field) -> range:
    """The State's slots a field's rows come from."""
    return range(field.slot, field.slot + field.rows)


def _read_counters(layout: Layout, field: Field, state: State) -> list:
    members, rows = set(field.members), []
    for slot in _rows(layout, field):
        row = state.counters[slot]
        stray = next((e for e, v in enumerate(row) if v and e not in members), None)
        if stray is not None:
            raise PackError(field, f"entity {stray} holds {row[stray]}, outside the counter's kind")
        rows.append([row[e] for e in field.members])
    if field.bits:
        return _bits(field, rows)
    return [_number(field, v) for row in rows for v in row]


def _read_zone_cards(layout: Layout, field: Field, state: State) -> list[int]:
    position = {card: i for i, card in enumerate(layout.cards)}
    capacity, out = field.dims[-1], []
    for slot in _rows(layout, field):
        cards = state.zones[slot]
        if len(cards) > capacity:
            raise PackError(field, f"holds {len(cards)} cards, room for {capacity}")
        stray = next((c for c in cards if c not in position), None)
        if stray is not None:
            raise PackError(field, f"holds entity {stray}, which is no card")
        out += [position[c] for c in cards] + [0] * (capacity - len(cards))
    return out


def _read_var(layout: Layout, field: Field, state: State) -> list[int]:
    value = state.vars[field.slot]
    if value is None:
        if field.none is None:
            raise PackError(field, "holds none, and has no room for it")
        return [field.none]
    kind = field.part
    if kind == "var_bool":
        if type(value) is not bool:
            raise PackError(field, f"holds {value!r}, not true or false")
        return [int(value)]
    if kind == "var_enum":
        if value not in field.names:
            raise PackError(field, f"holds {value!r}, none of its enum's values")
        return [field.names.index(value)]
    if kind == "var_zone":
        if not (isinstance(value, str) and value.startswith(ZONE_TAG)):
            raise PackError(field, f"holds {value!r}, not a zone")
        return [int(value[len(ZONE_TAG):])]
    return [_number(field, value)]


def _read_location(layout: Layout, field: Field, state: State) -> list[int]:
    cards = set(layout.cards)
    stray = next((e for e, at in enumerate(state.location) if at != -1 and e not in cards), None)
    if stray is not None:
        raise PackError(field, f"entity {stray}, not a card, lies in slot {state.location[stray]}")
    return [_number(field, state.location[c]) for c in layout.cards]


def _read_blanked(layout: Layout, field: Field, state: State) -> list[int]:
    blanked = set(state.blanked)
    if not blanked <= set(layout.cards):
        raise PackError(field, f"holds entities {sorted(blanked - set(layout.cards))}, which are no cards")
    return _bits(field, [[card in blanked for card in layout.cards]])


def _read_knowledge(layout: Layout, field: Field, state: State) -> list[int]:
    """Per seat, per card, the slot the seat knows it in, or the sentinel (a snapshot from before
    knowledge was kept holds None: nothing known)."""
    knowledge = state.knowledge or [{} for _ in range(layout.players)]
    if len(knowledge) != layout.players:
        raise PackError(field, f"holds {len(knowledge)} seats' knowledge, the game has {layout.players}")
    cards, out = set(layout.cards), []
    for known in knowledge:
        stray = next((c for c in known if c not in cards), None)
        if stray is not None:
            raise PackError(field, f"knows entity {stray} somewhere, which is no card")
        row = [_number(field, known.get(card, field.none)) for card in layout.cards]
        out += row + [field.none] * (field.dims[-1] - len(row))
    return out


_READ: dict[str, Callable[[Layout, Field, State], list[int]]] = {
    "tracks": lambda layout, f, s: [_number(f, v) for v in s.tracks[f.slot:f.slot + f.count]],
    "counters": _read_counters,
    "counter_bits": _read_counters,
    "zone_cards": _read_zone_cards,
    "zone_sizes": lambda layout, f, s: [len(s.zones[slot]) for slot in _rows(layout, f)],
    "location": _read_location,
    "revealed": lambda layout, f, s: _bits(f, [s.revealed]),
    "blanked": _read_blanked,
    "knowledge": _read_knowledge,
    "scalar": lambda layout, f, s: [int(getattr(s, f.name))],
    **{f"var_{kind}": _read_var for kind in ("int", "bool", "player", "entity", "enum", "zone")},
}


# ------------------------------------------------------------------ bytes -> State


def unpack(layout: Layout, data: bytes, state: State) -> None:
    """Write the machine part held in `data` into `state` (a State of the same game, whose
    object part stays as it is)."""
    if len(data) != layout.size:
        raise ValueError(f"{layout.game}'s state takes {layout.size} bytes, not {len(data)}")
    values = {f.name: struct.unpack_from(f"={f.count}{CTYPES[f.ctype][1]}", data, f.offset)
              for f in layout.fields}
    state.location = [-1] * layout.entities
    for field in layout.fields:  # the zones' cards after their counts, read first
        _WRITE[field.part](layout, field, state, values)


def _unbits(field: Field, data: tuple[int, ...]) -> list[list[int]]:
    width = field.dims[-1]
    return [[data[row * width + (i >> 3)] >> (i & 7) & 1 for i in range(field.bits)]
            for row in range(len(data) // width)]


def _write_counters(layout: Layout, field: Field, state: State, values: dict) -> None:
    data = values[field.name]
    rows = _unbits(field, data) if field.bits else \
        [data[i:i + len(field.members)] for i in range(0, len(data), len(field.members) or 1)]
    for slot, row in zip(_rows(layout, field), rows):
        cells = [0] * layout.entities
        for entity, value in zip(field.members, row):
            cells[entity] = value
        state.counters[slot] = cells


def _write_zone_cards(layout: Layout, field: Field, state: State, values: dict) -> None:
    sizes = values["count_" + field.name.removeprefix("zone_")]
    data, capacity = values[field.name], field.dims[-1]
    for row, slot in enumerate(_rows(layout, field)):
        start = row * capacity
        state.zones[slot] = [layout.cards[i] for i in data[start:start + sizes[row]]]


def _write_var(layout: Layout, field: Field, state: State, values: dict) -> None:
    value = values[field.name][0]
    if value == field.none:
        state.vars[field.slot] = None
    elif field.part == "var_bool":
        state.vars[field.slot] = bool(value)
    elif field.part == "var_enum":
        state.vars[field.slot] = field.names[value]
    elif field.part == "var_zone":
        state.vars[field.slot] = f"{ZONE_TAG}{value}"
    else:
        state.vars[field.slot] = value


def _write_location(layout: Layout, field: Field, state: State, values: dict) -> None:
    for card, at in zip(layout.cards, values[field.name]):
        state.location[card] = at


def _write_tracks(layout: Layout, field: Field, state: State, values: dict) -> None:
    state.tracks[field.slot:field.slot + field.count] = values[field.name]


def _write_knowledge(layout: Layout, field: Field, state: State, values: dict) -> None:
    """Each seat's map back, card -> slot in card order (a dict: equal whatever order it was made in)."""
    data, width = values[field.name], field.dims[-1]
    state.knowledge = [{card: slot for card, slot in zip(layout.cards, data[seat * width:(seat + 1) * width])
                        if slot != field.none} for seat in range(layout.players)]


def _write_scalar(layout: Layout, field: Field, state: State, values: dict) -> None:
    value = values[field.name][0]
    setattr(state, field.name, bool(value) if field.name == "dice_strict" else value)


_WRITE: dict[str, Callable[[Layout, Field, State, dict], None]] = {
    "tracks": _write_tracks,
    "counters": _write_counters,
    "counter_bits": _write_counters,
    "zone_cards": _write_zone_cards,
    "zone_sizes": lambda layout, f, s, v: None,  # read with the zone's cards
    "location": _write_location,
    "revealed": lambda layout, f, s, v: setattr(s, "revealed", [bool(b) for b in _unbits(f, v[f.name])[0]]),
    "blanked": lambda layout, f, s, v: setattr(s, "blanked", tuple(
        c for c, b in zip(layout.cards, _unbits(f, v[f.name])[0]) if b)),
    "knowledge": _write_knowledge,
    "scalar": _write_scalar,
    **{f"var_{kind}": _write_var for kind in ("int", "bool", "player", "entity", "enum", "zone")},
}


def machine_values(layout: Layout, state: State) -> dict[str, Any]:
    """What pack carries of a state, as the State holds it: two states whose machine parts
    are equal give equal dicts."""
    machine_vars = {f.slot for f in layout.fields if f.part.startswith("var_")}
    return {
        "tracks": list(state.tracks), "counters": [list(row) for row in state.counters],
        "zones": [list(cards) for cards in state.zones], "location": list(state.location),
        "revealed": [bool(r) for r in state.revealed], "blanked": tuple(state.blanked),
        "knowledge": [dict(known) for known in state.knowledge or [{}] * layout.players],
        "vars": {i: v for i, v in enumerate(state.vars) if i in machine_vars},
        **{name: getattr(state, name) for name in SCALARS},
    }
