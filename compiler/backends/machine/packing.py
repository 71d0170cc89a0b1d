"""The native pack and unpack (templates/packing.pxi.j2): pack.py's conversion of a State's machine
part to the layout's bytes and back, generated per game into its module, field by field, so that
crossing into the native engine once per decision costs microseconds, not milliseconds.

pack.py stays the reference and the home of the errors: the native pack gives None where a value
has no room in its field or is not what the field holds (not a whole number, a stray card...),
and `pack_state` then lets pack.py's pack say which (a PackError naming the field). This module
turns the layout into what the template writes for each field: where it lies, its C type, and
the test of a value read into a C integer that it lies outside the field's range.
"""

from __future__ import annotations

from typing import Any

from rulespec.compiler.backends.machine.dialect import cell_table
from rulespec.compiler.backends.machine.layout import CTYPES, Field, Layout
from rulespec.compiler.backends.machine.pack import pack
from rulespec.runtime.state import State

INT64 = CTYPES["int64_t"][2:]
UINT64 = CTYPES["uint64_t"][2:]


def packing_context(layout: Layout) -> dict[str, Any]:
    """The template's variables for the native pack and unpack (templates/packing.pxi.j2)."""
    variables = [f.slot + 1 for f in layout.fields if f.part.startswith("var_")]
    return {"packing": {"fields": [_view(layout, f) for f in layout.fields], "size": layout.size,
                        "cards": len(layout.cards), "vars": max(variables, default=0)}}


def _view(layout: Layout, field: Field) -> dict[str, Any]:
    unsigned = field.ctype == "uint64_t"  # rng's: read into a uint64_t, the rest into an int64_t
    var = "u" if unsigned else "x"
    view = {
        "name": field.name, "part": field.part, "declared": field.declared, "ctype": field.ctype,
        "at": f"<{field.ctype}*>(base + {field.offset})", "count": field.count, "rows": field.rows,
        "width": field.dims[-1] if field.dims else 1, "slot": field.slot, "members": len(field.members),
        "bits": field.bits, "none": None if field.none is None else _literal(field.none),
        "var": var, "names": repr(field.names), "outside": _outside(field, var, *(UINT64 if unsigned else INT64)),
    }
    if field.part in ("counters", "counter_bits"):
        view["cells"] = cell_table(field)
    if field.part == "zone_cards":
        sizes = layout.field("count_" + field.name.removeprefix("zone_"))
        view["sizes"] = f"<{sizes.ctype}*>(base + {sizes.offset})"
    return view


def _outside(field: Field, var: str, lowest: int, highest: int) -> str:
    """The C test that `var` (a value read into int64_t or uint64_t, which its conversion
    bounds) lies outside the field's range and is not its none: pack.py's range check."""
    ends = ([f"{var} < {_literal(field.low)}"] if field.low > lowest else []) + \
           ([f"{var} > {_literal(field.high)}"] if field.high < highest else [])
    if not ends:
        return "False"
    outside = " or ".join(ends)
    return outside if field.none is None else f"({outside}) and {var} != {_literal(field.none)}"


def _literal(value: int) -> str:
    """A C integer literal of a field's bound (past int64: unsigned)."""
    return f"{value}ULL" if value > INT64[1] else str(value)


def pack_state(module: Any, layout: Layout, state: State) -> bytes:
    """The machine part of `state` as the layout's bytes (pack.py's pack), natively; where a value
    has no room, pack.py's pack raises the PackError naming its field."""
    packed = module.pack_state(state)
    return pack(layout, state) if packed is None else packed


def unpack_state(module: Any, packed: bytes, state: State) -> None:
    """pack.py's unpack, natively: the machine part held in `packed` written into `state`."""
    module.unpack_state(packed, state)
