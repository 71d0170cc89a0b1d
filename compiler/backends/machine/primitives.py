"""What the native state primitives (templates/primitives.pxi.j2, docs/NATIVE.md stage 3) need to
know of a game's layout: where each zone slot's row of cards and its count lie in the struct, how
many cards the slot holds at most, who sees it by its declared visibility, and the C types of a
card in a zone, a card's location and a seat's knowledge of a card.

The primitives themselves are game-agnostic Cython in the template; this module only turns the
layout into the tables and constants they read.
"""

from __future__ import annotations

from typing import Any

from rulespec.compiler.backends.machine.ctables import CTable
from rulespec.compiler.backends.machine.layout import CTYPES, Layout, index_for
from rulespec.compiler.frontend.errors import InternalError
from rulespec.runtime.state import EVERYONE, MAX_NESTING, MAX_ROUNDS, OUT

# The count's widths the template reads (a zone's count is the smallest index type: layout.py).
COUNT_BYTES = (1, 2)


def slot_tables(layout: Layout) -> list[CTable]:
    """Per zone slot: the byte offset of its row of cards and of its count in the struct, the
    count's width in bytes, the cards it may hold, and its sight (bits of the seats that see it)."""
    slots = layout.zone_slots
    row, count, width, capacity = [0] * slots, [0] * slots, [1] * slots, [0] * slots
    for cards in layout.fields:
        if cards.part != "zone_cards":
            continue
        sizes = layout.field("count_" + cards.name.removeprefix("zone_"))
        size = CTYPES[sizes.ctype][0]
        if size not in COUNT_BYTES:
            raise InternalError(f"{sizes.name} is a {sizes.ctype}: the primitives read 1 or 2 bytes")
        for r in range(cards.rows):
            slot = cards.slot + r
            row[slot] = cards.offset + r * cards.dims[-1] * CTYPES[cards.ctype][0]
            count[slot], width[slot] = sizes.offset + r * size, size
            capacity[slot] = sizes.high  # its row keeps at least one cell, even for none
    sight = list(layout.sight) or [0] * slots
    if len(sight) != slots:
        raise InternalError(f"{layout.game}'s layout has no sight for each of its {slots} zone slots")
    dims = (max(slots, 1),)

    def table(name: str, ctype: str, values: list[int]) -> CTable:
        return CTable(name, ctype, dims, tuple(values) or (0,))

    return [table("SLOT_ROW", "int32_t", row), table("SLOT_COUNT", "int32_t", count),
            table("SLOT_COUNT_BYTES", "uint8_t", width), table("SLOT_CAPACITY", "int32_t", capacity),
            table("SLOT_SIGHT", "int64_t", sight)]


def primitive_context(layout: Layout) -> dict[str, Any]:
    """The template's variables for the primitives (templates/primitives.pxi.j2)."""
    knowledge, location = layout.field("knowledge"), layout.field("location")
    return {"primitives": {
        "tables": slot_tables(layout),
        "zone_slots": layout.zone_slots,
        "card_count": len(layout.cards),
        "card_ctype": index_for(len(layout.cards)),  # as layout.py stores a zone's cards
        "location_ctype": location.ctype,
        "known_ctype": knowledge.ctype,
        "unknown": knowledge.none,
        "out": OUT,
        "everyone": EVERYONE,
        "max_rounds": MAX_ROUNDS,
        "max_nesting": MAX_NESTING,
    }}
