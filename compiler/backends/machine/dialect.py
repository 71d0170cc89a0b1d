"""The native engine's dialect of the expression emitter (docs/NATIVE.md, stage 2): Cython over
the game's machine state (layout.py), where the generated package's dialect reads the runtime's
State of lists (codegen/dialect.py).

Values are C integers: a number int64_t, a truth bint, a player, entity or enum value its index,
and `none` one sentinel in every function, NONE (-1); a var's field keeps the layout's own
sentinel (255 for a uint8_t index), turned into NONE where it is read, so that a value's none
needs no type to be written or tested. A state slot is a field of the struct (`state` is a
pointer to it); a kind, region, attribute or the adjacency is a `static const` C array
(ctables.py); any, all, count, sum, max and min are calls of small functions with C loops
(loops.py). What this dialect cannot write yet raises Unsupported, with the reason in words
(the native coverage report, defines.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.compiler.backends.codegen.code import P_ADD, P_ATOM, P_CMP, P_NOT, Code, Table
from rulespec.compiler.backends.codegen.dialect import ExprEmitter, PythonDialect
from rulespec.compiler.backends.machine.layout import Field, Layout, _c_name
from rulespec.compiler.backends.machine.loops import Loops
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.state import MAX_ROUNDS
from rulespec.runtime.values import ZONE_TAG

NONE = "NONE"  # the sentinel of every player, entity and enum value in a native function
STATE = "state.data"  # the state struct, read through the position a native function is given
RANGE_ROOM = 4096  # the numbers of a range with ends known when it runs a statement may walk natively
UNION_VAR = "c__member"  # a union's members as its function walks them (no spec name is mangled to it)
PARAMS = "state.params"  # the run's params, one int64_t each (a truth 0 or 1, a value its index)


def cell_table(field: Field) -> str:
    """The table of a counter field's cells (ctables.py): per entity, its cell in a row, -1 where
    the entity is outside the counter's kind."""
    return "CELL_" + field.name.removeprefix("counter_")


class Unsupported(Exception):
    """A construct the native dialect cannot write yet: what it does, in words, and where."""

    def __init__(self, reason: str, node: ast.Node | None = None):
        super().__init__(reason)
        self.reason = reason
        self.node = node


@dataclass(frozen=True)
class Span(Table):
    """The numbers low..high of a range: its ends' texts, and where it is written when they are
    known only when it runs (then held to MAX_ROUNDS numbers, as the runtime's int_range)."""

    low: str = ""
    high: str = ""
    location: str | None = None


@dataclass(frozen=True)
class Reach(Table):
    """The spaces a reachable walk finds, a `Reach` struct (templates/expressions.pxi.j2): their
    count, the spaces in index order, and a byte per entity for membership; or (name MEMBERS) a
    union's members, a `Members` struct: their count and the members in order."""

    call: str = ""


@dataclass(frozen=True)
class ZoneWalk(Table):
    """The cards of a zone written directly: its row of card positions and their count."""

    row: str = ""
    count: str = ""


class CythonDialect(PythonDialect):
    """Cython over one game's machine layout."""

    walks = False  # any/all are generator expressions: Cython inlines them as loops
    keeps = False  # nothing is kept between decisions: a native define is worked out afresh
    narrows = False  # membership is a table look-up: walking the bigger collection costs little

    texts = False  # whether text may be read (a label): in the statements of procedures and steps, not in defines

    def __init__(self, model: Model, layout: Layout):
        self.model = model
        self.layout = layout
        self.fields = {f.name: f for f in layout.fields}
        self.enum_place = {v.name: i for e in model.enums.values() for i, v in enumerate(e.values)}
        self.param_place = {name: i for i, name in enumerate(model.all_params())}
        # an int param's cell and its declared top (a game's params are checked against it when
        # it is made): a range up to one has that many numbers at most
        self.param_top = {f"{PARAMS}[{self.param_place[name]}]": decl.high.value
                          for name, decl in model.all_params().items()
                          if decl.type.name == "int" and isinstance(decl.high, ast.IntLit)}
        self.loops = Loops()

    # ------------------------------------------------------------ values
    def value(self, value: Any) -> Code:
        if value is None:
            return Code.constant(None, NONE)
        if isinstance(value, (bool, int)):
            return Code.constant(value)
        if isinstance(value, str) and value in self.model.enum_of_value:
            return Code.constant(value, str(self.enum_place[value]))
        if isinstance(value, str) and value.startswith(ZONE_TAG):
            raise Unsupported("holds a zone as a value, which has no machine form in a define yet")
        raise Unsupported("uses text (a string or a label), which the native engine does not hold")

    def none_test(self, code: Code, negated: bool = False) -> Code:
        return Code(f"{code.at(P_CMP + 1)} {'!=' if negated else '=='} {NONE}", P_CMP, True)

    # ------------------------------------------------------------ the state
    def track(self, ex: ExprEmitter, name: str, args: tuple[ast.Expr, ...] | None) -> Code:
        model, track = self.model, self.model.tracks[name]
        if track.per_player and not args:
            raise Unsupported(f"reads track {name} without saying whose")
        whose = f"[{self.player(ex, args[0])}]" if track.per_player else ""
        if name not in model.track_values:
            code = Code(f"{STATE}.{self.field('track_' + _c_name(name), f'track {name}').name}{whose}")
        else:
            code = self.track_cell(ex, name, ex.emit(args[-1]) if args else None, whose)
        if args is not None and name in model.flags:  # kept as 0 or 1, read as a truth
            return Code(f"{code.at(P_CMP + 1)} == 1", P_CMP, True)
        return code

    def track_cell(self, ex: ExprEmitter, name: str, value: Code | None, whose: str) -> Code:
        """A track on an enum: its cell by the value, a field each; chosen among them when the
        value is known only when it runs (a value outside them fails, as a look-up would)."""
        if value is None:
            raise Unsupported(f"reads track {name} without saying which cell")
        cells = {v: f"{STATE}.{self.field('track_' + _c_name(f'{name}({v})'), f'track {name}').name}{whose}"
                 for v in self.model.track_values[name]}
        if value.is_constant and value.value in cells:
            return Code(cells[value.value])
        chosen = " else ".join(f"{read} if {value.at(P_CMP + 1)} == {self.enum_place[v]}"
                               for v, read in cells.items())
        return Code(f"({chosen} else no_cell({value.text}, {name!r}))")

    def var(self, ex: ExprEmitter, name: str) -> Code:
        field = self.field("var_" + name, f"var {name}")
        if field.part == "var_bool" and field.none is not None:
            raise Unsupported(f"reads var {name}, a truth that may be none, which a C truth cannot hold")
        if field.part == "var_zone":
            raise Unsupported(f"reads var {name}, a zone held in a value, which the native dialect"
                              " does not do yet")
        if field.none is None:
            return Code(f"{STATE}.{field.name}")
        return Code(f"none_of({STATE}.{field.name}, {field.none})")

    # ------------------------------------------------------------ writes (procedures.py)
    def var_write(self, ex: ExprEmitter, name: str, op: str, amount: Code) -> tuple[str, Code]:
        """(the var's field, its new value as the field keeps it: none as its sentinel)."""
        read = self.var(ex, name)
        field = self.fields["var_" + name]
        value = amount if op == "=" else Code(f"{read.at(P_ADD)} {op} {amount.at(P_ADD + 1)}", P_ADD)
        target = f"{STATE}.{field.name}"
        if field.none is None:
            return target, value
        return target, Code(f"field_of({value.text}, {field.none})")

    def track_target(self, ex: ExprEmitter, name: str, args: tuple[ast.Expr, ...] | None) -> str:
        """A track's cell as something to assign to."""
        track = self.model.tracks[name]
        if name in self.model.track_values:
            raise Unsupported(f"writes track {name}, a track on an enum, which the native engine"
                              " does not do yet")
        if track.per_player and not args:
            raise Unsupported(f"writes track {name} without saying whose")
        whose = f"[{self.player(ex, args[0])}]" if track.per_player else ""
        return f"{STATE}.{self.field('track_' + _c_name(name), f'track {name}').name}{whose}"

    def track_cell_targets(self, ex: ExprEmitter, name: str, args: tuple[ast.Expr, ...] | None) -> dict[str, str]:
        """A track on an enum: each of its cells as something to assign to, by enum value."""
        if not args:
            raise Unsupported(f"writes track {name} without saying which cell")
        whose = f"[{self.player(ex, args[0])}]" if self.model.tracks[name].per_player else ""
        return {v: f"{STATE}.{self.field('track_' + _c_name(f'{name}({v})'), f'track {name}').name}{whose}"
                for v in self.model.track_values[name]}

    def counter_row(self, ex: ExprEmitter, name: str, args: tuple[ast.Expr, ...]) -> tuple[str, str]:
        """(a counter's row in the struct, the table of its cells by entity)."""
        field = self.field("counter_" + name, f"counter {name}")
        row = f"{STATE}.{field.name}"
        if self.model.counters[name].per_player:
            row += f"[{self.player(ex, args[0])}]"
        return row, cell_table(field)

    def param(self, ex: ExprEmitter, name: str) -> Code:
        """A param's cell of the position's params (fixed for a run: filled when the position is
        made, templates/defines.pyx.j2)."""
        kind = self.model.all_params()[name].type.name
        cell = f"{PARAMS}[{self.param_place[name]}]"
        if kind == "bool":
            return Code(f"{cell} != 0", P_CMP, True)
        if kind in ("int", "player") or kind in self.model.enums or kind in self.model.kinds:
            return Code(cell)
        raise Unsupported(f"reads param {name}, a {kind}, which the native engine does not hold")

    def game_over(self, ex: ExprEmitter) -> Code:
        """The result of the object part, which the statements of procedures and steps hold
        (objects.pxi.j2); a define is worked out without it."""
        if not self.texts:
            raise Unsupported("reads whether the game is over: the result is not machine data yet")
        return Code("objects_of(state).result is not None", P_CMP, True)

    def counter(self, ex: ExprEmitter, name: str, args: tuple[ast.Expr, ...]) -> Code:
        row, cells = self.counter_row(ex, name, args)
        cell = ex.value(args[-1])
        if name in self.model.flags:
            return Code(f"flag_at({row}, {cells}, {cell})", P_ATOM, True)
        return Code(f"counter_at({row}, {cells}, {cell})")

    def zone_size(self, ex: ExprEmitter, zone: ast.Expr) -> Code:
        name, player = self.zone_written(ex, zone, "reads the size of")
        count = f"{STATE}.count_{name}"
        return Code(count if player is None else f"{count}[{player}]")

    def zone_cards(self, ex: ExprEmitter, zone: ast.Expr, snapshot: bool) -> Code:
        """A zone's cards bottom to top, walked by `clause` (a copy is never needed: nothing a
        define does moves a card)."""
        name, player = self.zone_written(ex, zone, "walks the cards of")
        row = "" if player is None else f"[{player}]"
        walk = ZoneWalk("CARDS", "", None, f"{STATE}.zone_{name}{row}", f"{STATE}.count_{name}{row}")
        return Code(f"{walk.row}[:{walk.count}]", table=walk)

    def in_zone(self, ex: ExprEmitter, element: ast.Expr, item: Code, zone: ast.Expr, negated: bool) -> Code:
        self.zone_written(ex, zone, "tests a card's place in")
        code = Code(f"in_zone(state, {item.text}, {ex.zone_slot(zone).text})", P_ATOM, True)
        return Code(f"not {code.text}", P_NOT, True) if negated else code

    def zone_written(self, ex: ExprEmitter, zone: ast.Expr, what: str) -> tuple[str, str | None]:
        """A zone written directly (`deck`, `hand(p)`): its name and whose row (or None)."""
        zones = self.model.zones
        if isinstance(zone, ast.CallExpr) and zone.name in zones:
            if not zones[zone.name].per_player:
                return zone.name, None
            return zone.name, self.player(ex, zone.args[0])
        if isinstance(zone, ast.NameRef) and zone.name in zones and not ex.shadowed(zone.name):
            if zones[zone.name].per_player:
                raise Unsupported(f"{what} zone {zone.name} without saying whose")
            return zone.name, None
        raise Unsupported(f"{what} a zone held in a value, which the native dialect does not do yet")

    def attribute(self, ex: ExprEmitter, name: str, table: str, entity: Code) -> str:
        """An entity's attribute; its label the text where text is written (statements), else
        its place among the labels in order (ctables.py LABEL_ID), which compares as the texts do:
        a define compares labels, and gives no text (defines.py refuses a define giving one)."""
        if name == "label":
            return f"label_at({entity.text}, {name!r}, '')" if self.texts else f"label_id_of({entity.text}, '')"
        return f"attr_at({table}, {entity.text}, {name!r})"

    def attribute_checked(self, ex: ExprEmitter, name: str, table: str, entity: Code, location: str) -> str:
        if name == "label":
            return (f"label_at({entity.text}, {name!r}, {location})" if self.texts
                    else f"label_id_of({entity.text}, {location})")
        return f"attr_of({table}, {entity.text}, {name!r}, {location})"

    def attribute_at(self, ex: ExprEmitter, name: str, table: str, entity: Code, at: str,
                     location: str | None = None) -> str:
        """A row of the attribute's table by entity, one cell an enum value (ctables.py)."""
        width = len(self.model.enums[self.model.attr_enums[name]].values)
        if location is None:
            return f"attr_row_at(&{table}[0][0], {width}, {entity.text}, {at}, {name!r})"
        return f"attr_row_of(&{table}[0][0], {width}, {entity.text}, {at}, {name!r}, {location})"

    def value_place(self, ex: ExprEmitter, enum: str, value: Code) -> str:
        """An enum value is its place already; whoever reads by it checks it lies in the enum."""
        return value.text

    # ------------------------------------------------------------ collections
    def clause(self, var: str, iterable: Code) -> str:
        """A loop head, and for a zone the line reading each position's card (loops.py)."""
        walk = iterable.table
        if isinstance(walk, ZoneWalk):  # by index: Cython walks a uint8_t slice as signed chars
            return f"at_{var} in range({walk.count})\n{var} = CARDS[{walk.row}[at_{var}]]"
        if isinstance(walk, Reach):  # the struct held while its spaces are walked
            return f"at_{var} in range((r_{var} := {walk.call}).count)\n{var} = r_{var}.item[at_{var}]"
        return f"{var} in {iterable.text}"

    def members_clause(self, var: str, iterable: Code, room: int) -> tuple[str, int]:
        """`clause` for a statement filling a C array with the members (procedures.py), and the
        array's room: `room` (every entity or player), or a range's numbers; a range whose ends
        are known only when it runs gets RANGE_ROOM, and fails natively, in words, past it."""
        walk = iterable.table
        if isinstance(walk, Span) and walk.location is None:
            return self.clause(var, iterable), max(room, int(walk.high) - int(walk.low) + 1)
        if isinstance(walk, Span):
            top = self.param_top.get(walk.high)
            low = int(walk.low) if walk.low.lstrip("-").isdigit() else None
            room = max(room, RANGE_ROOM if top is None or low is None else top - low + 1)
            end = f"range_end_within({walk.low}, {walk.high}, {walk.location}, {room})"
            return f"{var} in range({walk.low}, {end})", room
        return self.clause(var, iterable), room

    def int_range(self, ex: ExprEmitter, low: Code, high: Code, node: ast.Node) -> Code:
        """A C range; ends known only when it runs checked by range_end as int_range checks them
        (the low end is read twice: reading has no effects)."""
        if low.number is not None and high.number is not None and high.number - low.number < MAX_ROUNDS:
            return Code(f"range({low.text}, {high.number + 1})", table=Span("range", "", None, low.text, high.text))
        location = ex.loc(node)
        return Code(f"range({low.text}, range_end({low.text}, {high.text}, {location}))",
                    table=Span("range", "", None, low.text, high.text, location))

    def union(self, ex: ExprEmitter, left: Code, right: Code) -> Code:
        """A call of a function filling a Members struct (loops.py), walked by `clause`."""
        if isinstance(left.table, Span) or isinstance(right.table, Span):
            raise Unsupported("walks a union with a range, which the native dialect does not do yet")
        call = self.loops.union(UNION_VAR, self.clause(UNION_VAR, left), self.clause(UNION_VAR, right)).call
        return Code(call, table=Reach("MEMBERS", "", None, call))

    def reachable(self, ex: ExprEmitter, start: str, var: str, condition: str, node: ast.Node) -> Code:
        """A call of a walk function filling a Reach (loops.py), walked by `clause`."""
        call = self.loops.reach(var, condition, start, ex.loc(node)).call
        return Code(call, table=Reach("REACH", "", None, call))

    def extreme(self, ex: ExprEmitter, var: str, clause: str, condition: str | None, item: str,
                highest: bool) -> Code:
        loop = self.loops.loop("argmax" if highest else "argmin", var, clause, condition, item)
        return Code(loop.call)

    def in_list(self, ex: ExprEmitter, item: Code, items: ast.ListOf, negated: bool) -> Code:
        """Compared with each item in turn: the list is never made."""
        if not items.items:
            return Code.constant(negated)
        tests = " or ".join(f"{item.at(P_CMP + 1)} == {ex.emit(i).at(P_CMP + 1)}" for i in items.items)
        return Code(f"not ({tests})", P_NOT, True) if negated else Code(f"({tests})", P_ATOM, True)

    def adjacent(self, ex: ExprEmitter, space: str) -> Code:
        row = f"adjacent_row({space})"
        return Code(f"ADJ[{row}][:ADJ_N[{row}]]", table=Table("ADJ", "ADJS", space))

    def in_table(self, ex: ExprEmitter, item: Code, table: Table, negated: bool) -> Code:
        if table.index is not None:  # the adjacency: a row of bits by space
            code = f"has(ADJS[adjacent_row({table.index})], {item.text})"
        else:
            code = f"has({table.set_name}, {item.text})"
        return Code(f"not {code}", P_NOT, True) if negated else Code(code, P_ATOM, True)

    def collection_of(self, ex: ExprEmitter, value: Code, node: ast.Node) -> Code:
        row = f"region_row({value.text}, {ex.loc(node)})"
        return Code(f"REGION_MEMBERS[{row}][:REGION_COUNT[{row}]]")

    def member_of(self, ex: ExprEmitter, item: Code, value: Code, negated: bool, node: ast.Node) -> Code:
        code = f"has(REGION_SETS[region_row({value.text}, {ex.loc(node)})], {item.text})"
        return Code(f"not {code}", P_NOT, True) if negated else Code(code, P_ATOM, True)

    def member(self, ex: ExprEmitter, item: Code, coll: Code, negated: bool) -> Code:
        """item in a range (between its ends), the players or the seated ones (a seat's index),
        the spaces a reachable walk finds (its byte) or a union's members."""
        walk = coll.table
        if isinstance(walk, Span) and walk.location is None:
            code = Code(f"{walk.low} <= {item.at(P_CMP + 1)} <= {walk.high}", P_CMP, True)
        elif isinstance(walk, Span):
            code = Code(f"in_range({item.text}, {walk.low}, {walk.high}, {walk.location})", P_ATOM, True)
        elif isinstance(walk, Reach) and walk.name == "MEMBERS":
            code = Code(f"members_has({walk.call}, {item.text})", P_ATOM, True)
        elif isinstance(walk, Reach):
            code = Code(f"reach_has({walk.call}, {item.text})", P_ATOM, True)
        elif coll.text == "PLAYERS":
            code = Code(f"0 <= {item.at(P_CMP + 1)} < PLAYER_COUNT", P_CMP, True)
        elif coll.table is None and coll.text.startswith("range(") and coll.text.endswith(")"):
            # the seated players (expr.py seated: `range(seats)`): as Python's `in range(n)`
            code = Code(f"0 <= {item.at(P_CMP + 1)} < ({coll.text[len('range('):-1]})", P_CMP, True)
        else:
            raise Unsupported("tests membership in an enum, which the native dialect does not do"
                              " yet (an enum value is its place: the item's enum is not known here)")
        return Code(f"not ({code.text})", P_NOT, True) if negated else code

    def reduce(self, kind: str, var: str, source: str, clause: str, condition: str | None,
               item: str | None = None, default: str | None = None) -> Code:
        """A call of a loop function (loops.py): Cython would make a Python generator of the
        generator expression the Python dialect writes."""
        loop = self.loops.loop(kind, var, clause, condition, item, default)
        return Code(loop.call, P_ATOM, kind in ("any", "all"))

    # ------------------------------------------------------------ helpers
    def field(self, name: str, what: str) -> Field:
        field = self.fields.get(name)
        if field is None:
            reason = next((o.reason for o in self.layout.objects if o.name == what), "no field")
            raise Unsupported(f"reads {what}, which has no machine form ({reason})")
        return field

    def player(self, ex: ExprEmitter, node: ast.Expr) -> str:
        """A player's index into a row of the struct: a constant, or checked when it runs."""
        code = ex.emit(node)
        if code.number is not None and 0 <= code.number < len(self.model.players):
            return code.text
        return f"player_row({code.text})"
