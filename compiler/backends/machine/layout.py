"""A game's state as machine data: every numeric part a fixed-width field of one C struct.

The widths come from what the spec declares: a track's range picks the smallest signed integer
that holds it; a counter has no declared range, so int32 (a flag's cells are bits); a var's type
picks its form (a player, entity, enum value or zone is a small index with a sentinel for none;
a bool a byte; an int 64 bits, as the language keeps it). A zone slot is an array of card
positions with a count. What has no fixed width yet is the object part, each with its reason.
Fields are laid out largest alignment first, so the struct has no padding but at its end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rulespec.compiler.backends.machine.capacity import zone_capacities
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.types import resolve_type
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.frontend.locations import spec_path
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.state import MAX_NESTING, MAX_ROUNDS, sight_of

# C type -> (bytes, struct module code, lowest value, highest value)
CTYPES = {
    "int8_t": (1, "b", -2**7, 2**7 - 1), "int16_t": (2, "h", -2**15, 2**15 - 1),
    "int32_t": (4, "i", -2**31, 2**31 - 1), "int64_t": (8, "q", -2**63, 2**63 - 1),
    "uint8_t": (1, "B", 0, 2**8 - 1), "uint16_t": (2, "H", 0, 2**16 - 1),
    "uint64_t": (8, "Q", 0, 2**64 - 1),
}
SIGNED = ("int8_t", "int16_t", "int32_t", "int64_t")
INDEXES = ("uint8_t", "uint16_t")


@dataclass(frozen=True)
class Field:
    """One member of the struct: its C type and array dimensions, where its values come from in
    a State (`part`, `slot`, `members`), and the range each value must lie in."""

    name: str  # the C member
    ctype: str
    dims: tuple[int, ...]  # the C array's dimensions; () for a scalar
    part: str  # how pack.py reads it off a State
    declared: str  # what it stands for, in the spec's words ("track NAME")
    at: str = ""  # file:line of the declaration, when it has one
    low: int = 0  # each value's range (a bit set's: 0..1)
    high: int = 0
    none: int | None = None  # the value standing for none, when one may be
    slot: int = 0  # where its values begin in the State's list
    rows: int = 1  # the State's slots it holds from `slot` on: one a player for a part per player
    members: tuple[int, ...] = ()  # the entities a row covers (a counter's kind, the cards)
    names: tuple[str, ...] = ()  # an enum's values in order: the stored number is the index
    bits: int = 0  # a bit set: bits a row (its last dimension counts bytes)
    offset: int = 0

    @property
    def count(self) -> int:
        total = 1
        for d in self.dims:
            total *= d
        return total

    @property
    def size(self) -> int:
        return CTYPES[self.ctype][0] * self.count


@dataclass(frozen=True)
class ObjectSlot:
    """A part of the state with no fixed width in stage 1: it stays a Python object."""

    name: str
    reason: str


@dataclass(frozen=True)
class Layout:
    """The machine part of a game's state (a C struct) and what stays objects."""

    game: str
    spec_hash: str
    struct: str  # the C type's name
    fields: tuple[Field, ...]
    objects: tuple[ObjectSlot, ...]
    size: int  # bytes, padding included
    align: int
    cards: tuple[int, ...]  # the card entities: a zone stores a card as its position here
    entities: int
    players: int
    zone_slots: int
    # Per zone slot, the seats that see its cards by the zone's declared visibility, as bits
    # (runtime/state.sight_of): never changes, so the native primitives read it as a table.
    sight: tuple[int, ...] = ()

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "spec_hash": self.spec_hash, "struct": self.struct,
            "bytes": self.size, "align": self.align,
            "fields": [{"name": f.name, "ctype": f.ctype, "dims": list(f.dims), "count": f.count,
                        "offset": f.offset, "bytes": f.size, "declared": f.declared, "at": f.at,
                        "range": [f.low, f.high], "none": f.none, "bits": f.bits}
                       for f in self.fields],
            "objects": [{"name": o.name, "reason": o.reason} for o in self.objects],
        }


# The parts of a State that stay objects whatever the spec says, and why.
OBJECTS = (
    ("effects", "lasting effects: any number in play, so not in this struct; the native engine holds"
                " them beside it, in its Machine (machine/effects.py: a room of Effect structs)"),
    ("frames", "suspended procedures: frames of any depth; the native engine holds them beside this"
               " struct, in its Machine's Control (machine/frames.py: Frame structs over a stack of slots)"),
    ("pending", "the pending decision: its options there too (a C array and a numbered site); the"
                " prompt, ids and labels a person reads are Python values"),
    ("result", "the result: winner and reason text, set once at the end"),
    ("log", "log lines: text of any length and number (stage 4: line numbers and arguments)"),
    ("log_at", "each log line's spec location: text, one a line"),
    ("log_marks", "each log line's cards and who could read them: lists of any length"),
    ("shown", "the cards shown to a player: [card, slot, player] entries of any number"),
    ("dice", "fixed dice a designer test queued: a list of any length"),
    ("params", "the run's params by name: read, never written, during a game"),
    ("trace", "what a traced game counts per card (simulate's card table): a map"),
    ("stamps", "write counts of the kept filters: the Python engine's cache bookkeeping"),
    ("memo", "the kept filters: a cache of lists, dropped whenever unsure"),
    ("rolled", "the dice a play surface shows: None in every copy"),
    ("sight", "who sees each zone by its declared visibility: never changes, shared by copies"),
)


def signed_for(low: int, high: int) -> str:
    """The smallest signed integer type holding low..high."""
    return next(t for t in SIGNED if CTYPES[t][2] <= low and high <= CTYPES[t][3])


def index_for(values: int) -> str:
    """The smallest unsigned type holding `values` indexes and a sentinel above them."""
    return next((t for t in INDEXES if values < CTYPES[t][3]), "uint64_t")


def machine_layout(model: Model) -> Layout:
    """The machine layout of a checked spec's state."""
    meta = model.meta()
    players = len(model.players)
    spans = _declarations(model)
    fields: list[Field] = []
    for track in meta.tracks:
        base = track.name.partition("(")[0]
        fields.append(Field(
            "track_" + _c_name(track.name), signed_for(track.low, track.high),
            (players,) if track.per_player else (), "tracks",
            f"{'flag' if track.flag else 'track'} {track.name}", spans.get(("track", base), ""),
            track.low, track.high, slot=track.slot, rows=players if track.per_player else 1))
    fields += _counter_fields(model, spans)
    objects = [ObjectSlot(name, reason) for name, reason in OBJECTS]
    indexes = {"player": players, "entity": len(model.entities), "zone": meta.zone_slots}
    for name, decl in model.vars.items():
        field = _var_field(model, name, decl.type, indexes, spans.get(("var", name), ""))
        if isinstance(field, Field):
            fields.append(field)
        else:
            objects.append(ObjectSlot(f"var {name}", field))
    fields += _zone_fields(model, spans)
    cards = tuple(model.cards())
    slots = meta.zone_slots
    fields += [
        Field("location", signed_for(-2, slots - 1), (len(cards),), "location",
              "where each card lies: a zone slot, -1 nowhere, -2 out of the game", "", -2, slots - 1),
        Field("revealed", "uint8_t", (_bytes(slots),), "revealed", "each zone slot revealed (bits)",
              bits=slots, high=1),
        Field("knowledge", index_for(slots), (players, max(len(cards), 1)), "knowledge",
              "per seat, per card: the zone slot it knows the card lies in where it cannot see it",
              "", 0, slots - 1, none=CTYPES[index_for(slots)][3]),
        Field("blanked", "uint8_t", (_bytes(len(cards)),), "blanked",
              "each card blanked: its own effects do nothing (bits)", bits=len(cards), high=1),
        Field("rng", "uint64_t", (), "scalar", "the random stream's 64-bit state", high=2**64 - 1),
        Field("decisions", "int64_t", (), "scalar", "decisions taken", high=2**63 - 1),
        Field("rounds", signed_for(0, MAX_ROUNDS), (), "scalar", "loop rounds since the last decision",
              high=MAX_ROUNDS),
        Field("nesting", signed_for(0, MAX_NESTING), (), "scalar", "events running inside events",
              high=MAX_NESTING),
        Field("dice_strict", "uint8_t", (), "scalar", "a roll with no queued die is an error", high=1),
    ]
    return replace(_placed(model, fields, objects, cards, meta.zone_slots), sight=tuple(sight_of(meta)))


def _placed(model: Model, fields: list[Field], objects: list[ObjectSlot], cards: tuple[int, ...],
            zone_slots: int) -> Layout:
    """The fields given offsets, largest alignment first (stable): no padding between them."""
    names = [f.name for f in fields]
    if len(set(names)) != len(names):  # spec names are identifiers, the prefixes keep them apart
        raise InternalError(f"two fields of one name in {model.game}'s layout")
    order = sorted(fields, key=lambda f: -CTYPES[f.ctype][0])
    placed, offset = [], 0
    for field in order:
        placed.append(replace(field, offset=offset))
        offset += field.size
    align = max((CTYPES[f.ctype][0] for f in fields), default=1)
    return Layout(model.game, model.spec_hash, f"{model.game}_state", tuple(placed), tuple(objects),
                  -(-offset // align) * align, align, cards, len(model.entities), len(model.players),
                  zone_slots)


def _counter_fields(model: Model, spans: dict) -> list[Field]:
    players, out = len(model.players), []
    for name, counter in model.counters.items():
        members = tuple(_members(model, model.counter_kinds[name]))
        width = players if counter.per_player else 1
        rows = (width,) if counter.per_player else ()
        at = spans.get(("counter", name), "")
        if counter.flag:
            out.append(Field("counter_" + name, "uint8_t", rows + (_bytes(len(members)),), "counter_bits",
                             f"flag {name} on {model.counter_kinds[name]} (bits)", at, 0, 1,
                             slot=counter.slot, rows=width, members=members, bits=len(members)))
        else:
            out.append(Field("counter_" + name, "int32_t", rows + (len(members),), "counters",
                             f"counter {name} on {model.counter_kinds[name]}", at,
                             *CTYPES["int32_t"][2:], slot=counter.slot, rows=width, members=members))
    return out


def _members(model: Model, kind: str) -> list[int]:
    """The entities a counter on `kind` (a kind or a category) has a cell for."""
    if kind in model.kinds:
        return list(model.kind_members.get(kind, ()))
    return [i for i in range(len(model.entities)) if model.entity_category(i) == kind]


def _var_field(model: Model, name: str, declared_type: ast.TypeRef, indexes: dict[str, int],
               at: str) -> Field | str:
    """A var's field, or the reason it has no machine form (it stays an object). `indexes`:
    how many players, entities and zone slots an index may name."""
    optional = declared_type.optional
    kind = resolve_type(model, declared_type.name, optional)
    slot, declared = model.var_index[name], f"var {name}: {declared_type.name}{'?' if optional else ''}"
    c_name = "var_" + name
    if kind.base == "int":
        if optional:
            return "an int that may be none: every 64-bit number is a value, none has no room"
        return Field(c_name, "int64_t", (), "var_int", declared, at, *CTYPES["int64_t"][2:], slot=slot)
    if kind.base == "bool":
        return Field(c_name, "uint8_t", (), "var_bool", declared, at, 0, 1,
                     none=255 if optional else None, slot=slot)
    if kind.base == "enum":
        names = tuple(v.name for v in model.enums[kind.name].values)
        ctype = index_for(len(names))
        return Field(c_name, ctype, (), "var_enum", declared, at, 0, len(names) - 1,
                     none=CTYPES[ctype][3], slot=slot, names=names)
    if kind.base in indexes:
        ctype = index_for(indexes[kind.base])
        return Field(c_name, ctype, (), "var_" + kind.base, declared, at, 0, indexes[kind.base] - 1,
                     none=CTYPES[ctype][3], slot=slot)
    return f"a {kind} has no machine form: text of any length, or a type not known"


def _zone_fields(model: Model, spans: dict) -> list[Field]:
    players, cards = len(model.players), len(model.cards())
    capacity = zone_capacities(model)
    card = index_for(cards)
    out = []
    for name, zone in model.zones.items():
        rows = (players,) if zone.per_player else ()
        at = spans.get(("zone", name), "")
        cap = capacity[name]
        out.append(Field("zone_" + name, card, rows + (max(cap, 1),), "zone_cards",
                         f"zone {name}: its cards bottom to top, as positions among the cards", at,
                         0, cards - 1, slot=zone.slot, rows=players if zone.per_player else 1))
        out.append(Field(f"count_{name}", index_for(cap), rows, "zone_sizes",
                         f"zone {name}: how many cards lie in it", at, 0, cap, slot=zone.slot,
                         rows=players if zone.per_player else 1))
    return out


def _declarations(model: Model) -> dict[tuple[str, str], str]:
    """(what, name) -> file:line of the first declaration of each track, counter, var and zone."""
    kinds = {ast.TrackDecl: "track", ast.CounterDecl: "counter", ast.VarDecl: "var", ast.ZoneDecl: "zone"}
    out: dict[tuple[str, str], str] = {}
    for decl in model.spec.decls():
        what = kinds.get(type(decl))
        if what is not None:
            out.setdefault((what, decl.name.name), f"{spec_path(decl.span.file)}:{decl.span.line}")
    return out


def _c_name(name: str) -> str:
    """A track cell's name as a C identifier: `track(value)` -> `track__value`."""
    return name.replace("(", "__").replace(")", "")


def _bytes(bits: int) -> int:
    return max(-(-bits // 8), 1)
