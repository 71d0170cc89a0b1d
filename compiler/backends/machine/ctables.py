"""The game's tables as `static const` C arrays, for the native defines (defines.py): kinds,
regions, attributes, the adjacency, enum values, players, each counter's cell of each entity,
each card's position among the cards. Each table is declared twice, as C (its values) and as
Cython (its type and size), so Cython knows how long a table it walks is.

Values are what the native functions hold (dialect.py): an entity, player or enum value is its
index, none is -1, a truth 0 or 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.compiler.backends.codegen.context import Gen
from rulespec.compiler.backends.machine.dialect import Unsupported, cell_table
from rulespec.compiler.backends.machine.layout import Layout
from rulespec.compiler.frontend.model import Model

NONE_VALUE = -1
MISSING = -(2**63) + 1  # an attribute's entry for an entity that has none (attr_at fails on it)


@dataclass(frozen=True)
class CTable:
    """One C array: its name, element type, dimensions and values (flat, row after row)."""

    name: str
    ctype: str
    dims: tuple[int, ...]
    values: tuple[int, ...]

    @property
    def c(self) -> str:
        """Its C definition."""
        dims = "".join(f"[{d}]" for d in self.dims)
        return f"static const {self.ctype} {self.name}{dims} = {{{', '.join(map(str, self.values))}}};"

    @property
    def cython(self) -> str:
        """Its Cython declaration."""
        return f"const {self.ctype} {self.name}{''.join(f'[{d}]' for d in self.dims)}"


def attribute_values(model: Model, name: str, enum_place: dict[str, int]) -> tuple[int, ...]:
    """An attribute of every entity as the native functions hold it (MISSING where an entity has
    none); Unsupported when a value is text or a row."""
    return tuple(MISSING if name not in attrs else _held(attrs[name], name, enum_place, "text or rows")
                 for attrs in model.entity_attrs)


def attribute_rows(model: Model, name: str, enum_place: dict[str, int]) -> tuple[tuple[int, ...], int]:
    """An attribute on an enum (`tags(t)`) of every entity, row after row, and the row's width
    (the enum's values): a row of MISSING where an entity has none."""
    width = len(model.enums[model.attr_enums[name]].values)
    out: list[int] = []
    for attrs in model.entity_attrs:
        row = attrs.get(name)
        out += [MISSING] * width if row is None else [_held(v, name, enum_place, "text") for v in row]
    return tuple(out), width


def _held(value, name: str, enum_place: dict[str, int], refused: str) -> int:
    """One attribute value as the native functions hold it: none, a number, a truth or an enum
    value's place; Unsupported for anything else."""
    if value is None:
        return NONE_VALUE
    if isinstance(value, (bool, int)):
        return int(value)
    if isinstance(value, str) and value in enum_place:
        return enum_place[value]
    raise Unsupported(f"reads attribute {name}, whose values are {refused}, which the native engine"
                      " does not hold yet")


def _padded(rows: list[list[int]], fill: int = 0) -> tuple[tuple[int, ...], int]:
    width = max((len(r) for r in rows), default=0) or 1
    return tuple(v for r in rows for v in r + [fill] * (width - len(r))), width


def _bits_of(members: Any, entities: int) -> tuple[int, ...]:
    inside = set(members)
    return tuple(int(e in inside) for e in range(entities))


def game_tables(model: Model, gen: Gen, layout: Layout, enum_place: dict[str, int]) -> list[CTable]:
    """Every table a native define may read (defines.py names the ones each define uses)."""
    entities = len(model.entities)
    out = [CTable("PLAYERS", "int16_t", (len(model.players),), tuple(range(len(model.players))))]
    for kind, table in gen.kind_tables.items():
        members = tuple(model.kind_members.get(kind, ()))
        out.append(CTable(table, "int16_t", (max(len(members), 1),), members or (0,)))
        out.append(CTable(gen.kind_sets[kind], "uint8_t", (entities,), _bits_of(members, entities)))
    for region, table in gen.region_tables.items():
        members = tuple(model.region_members[region])
        out.append(CTable(table, "int16_t", (max(len(members), 1),), members or (0,)))
        out.append(CTable(gen.region_sets[region], "uint8_t", (entities,), _bits_of(members, entities)))
    for enum, table in gen.enum_tables.items():
        count = len(model.enums[enum].values)
        out.append(CTable(table, "int16_t", (max(count, 1),), tuple(range(count)) or (0,)))
    out += _region_values(model, entities)
    rows = [list(model.adjacency[i]) for i in range(entities)]
    flat, width = _padded(rows)
    out.append(CTable("ADJ", "int16_t", (entities, width), flat))
    out.append(CTable("ADJ_N", "int16_t", (entities,), tuple(len(r) for r in rows)))
    out.append(CTable("ADJS", "uint8_t", (entities, entities),
                      tuple(v for r in rows for v in _bits_of(r, entities))))
    owners = model.entity_owner or [None] * entities
    out.append(CTable("OWNER", "int16_t", (entities,), tuple(NONE_VALUE if o is None else o for o in owners)))
    out.append(CTable("HAS_EVENT", "uint8_t", (entities,), tuple(int(bool(e.events)) for e in model.entities)))
    # an entity's label as its place among the labels in order: compared as the texts compare
    place = {label: i for i, label in enumerate(sorted({e.label for e in model.entities}))}
    out.append(CTable("LABEL_ID", "int32_t", (max(entities, 1),), tuple(place[e.label] for e in model.entities) or (0,)))
    position = {card: i for i, card in enumerate(layout.cards)}
    out.append(CTable("CARDS", "int16_t", (max(len(layout.cards), 1),), tuple(layout.cards) or (0,)))
    out.append(CTable("CARD_POS", "int16_t", (entities,), tuple(position.get(e, -1) for e in range(entities))))
    for field in layout.fields:
        if field.part in ("counters", "counter_bits"):
            place = {e: i for i, e in enumerate(field.members)}
            out.append(CTable(cell_table(field), "int16_t", (entities,),
                              tuple(place.get(e, -1) for e in range(entities))))
    return out


def _region_values(model: Model, entities: int) -> list[CTable]:
    """A region held in a value: its row among the regions, its members, their count and bits."""
    regions = list(model.region_members)
    row = {r: i for i, r in enumerate(regions)}
    members = [list(model.region_members[r]) for r in regions] or [[]]
    flat, width = _padded(members)
    return [
        CTable("REGION_ROW", "int16_t", (entities,), tuple(row.get(e, -1) for e in range(entities))),
        CTable("REGION_MEMBERS", "int16_t", (len(members), width), flat),
        CTable("REGION_COUNT", "int16_t", (len(members),), tuple(len(m) for m in members)),
        CTable("REGION_SETS", "uint8_t", (len(members), entities),
               tuple(v for m in members for v in _bits_of(m, entities))),
    ]
