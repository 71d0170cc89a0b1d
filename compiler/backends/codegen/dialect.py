"""What the expression emitter writes that depends on the target's values: the Python dialect.

One ExprEmitter (expr.py) writes every back end's expressions; where the targets differ in how
they hold values - how `none` is written and tested, how a slot of the state is read, how a
collection is counted or walked, whether filters are kept between decisions - it asks its
dialect. This is the generated Python package's: `None`, the state's lists, tuples and
frozensets, comprehensions. The native engine's (compiler/backends/machine/dialect.py) reads the
state's machine layout instead (docs/NATIVE.md, stage 2). Each method receives the emitter, so
a dialect holds no scope of its own.
"""

from __future__ import annotations

from typing import Any

from rulespec.runtime.state import MAX_ROUNDS
from rulespec.compiler.frontend import ast
from rulespec.compiler.backends.codegen.code import P_AND, P_ATOM, P_CMP, P_NOT, P_OR, Code, Table

# The emitter asking (expr.ExprEmitter), not imported: it imports this module.
ExprEmitter = Any


class PythonDialect:
    """The generated Python package's values: the runtime's State of lists (runtime/state.py)."""

    walks = True  # an any/all inside an expression calls a walk helper (walks.py)
    keeps = True  # filters over big kinds are kept between decisions (kept.py)
    narrows = True  # `x in S where x in C and ...` walks the smaller C

    # ------------------------------------------------------------ values
    def value(self, value: Any) -> Code:
        """A value known when compiling: a number, truth, text, enum value, zone or none."""
        return Code.constant(value)

    def none_test(self, code: Code, negated: bool = False) -> Code:
        """Whether `code` is none (negated: is not)."""
        return Code(f"{code.at(P_CMP + 1)} is {'not ' if negated else ''}None", P_CMP, True)

    # ------------------------------------------------------------ the state
    def track(self, ex: ExprEmitter, name: str, args: tuple[ast.Expr, ...] | None) -> Code:
        """A track's cell: `t` named alone (args None), or `t(p)`, `t(p, value)`, `t(value)`."""
        if args is None:
            return Code(f"state.tracks[{ex.model.tracks[name].slot}]")
        slot, _ = ex.track_slot(name, args)
        if name in ex.model.flags:  # kept as 0 or 1, read as a truth
            return Code(f"state.tracks[{slot.text}] == 1", P_CMP, True)
        return Code(f"state.tracks[{slot.text}]")

    def var(self, ex: ExprEmitter, name: str) -> Code:
        return Code(f"state.vars[{ex.model.var_index[name]}]")

    def param(self, ex: ExprEmitter, name: str) -> Code:
        return Code(f"state.params[{name!r}]")

    def game_over(self, ex: ExprEmitter) -> Code:
        return Code("state.result is not None", P_CMP, True)

    def counter(self, ex: ExprEmitter, name: str, args: tuple[ast.Expr, ...]) -> Code:
        counter = ex.model.counters[name]
        row = ex.offset(counter.slot, args[0]) if counter.per_player else Code.constant(counter.slot)
        cell = f"state.counters[{row.text}][{ex.value(args[-1])}]"
        if name in ex.model.flags:  # kept as 0 or 1, read as a truth
            return Code(f"{cell} == 1", P_CMP, True)
        return Code(cell)

    def zone_size(self, ex: ExprEmitter, zone: ast.Expr) -> Code:
        return Code(f"len(state.zones[{ex.zone_slot(zone).text}])")

    def zone_cards(self, ex: ExprEmitter, zone: ast.Expr, snapshot: bool) -> Code:
        """The cards of a zone written directly (deck, hand(p)), bottom to top."""
        cards = f"state.zones[{ex.zone_slot(zone).text}]"
        return Code(f"list({cards})", fresh=True) if snapshot else Code(cards)

    def in_zone(self, ex: ExprEmitter, element: ast.Expr, item: Code, zone: ast.Expr, negated: bool) -> Code:
        """item in a zone written directly (deck, hand(p)): where the card lies."""
        slot = ex.zone_slot(zone)
        op = "!=" if negated else "=="
        where = f"state.location[{item.text}] {op} {slot.at(P_CMP + 1)}"
        if ex.nonnull(element):
            return Code(where, P_CMP, True)
        if ex.is_simple(element):  # none is in no zone
            if negated:
                return Code(f"{self.none_test(item).text} or {where}", P_OR, True)
            return Code(f"{self.none_test(item, True).text} and {where}", P_AND, True)
        code = Code(f"{ex.ref('in_zone')}(state, {item.text}, {slot.text})", P_ATOM, True)
        return Code(f"not {code.text}", P_NOT, True) if negated else code

    def attribute(self, ex: ExprEmitter, name: str, table: str, entity: Code) -> str:
        """An attribute of an entity that is not none: its table's entry."""
        return f"{table}[{entity.text}]"

    def attribute_checked(self, ex: ExprEmitter, name: str, table: str, entity: Code, location: str) -> str:
        """An attribute of an entity that may be none: none fails at `location`."""
        return f"{ex.ref('attr_of')}({table}, {entity.text}, {name!r}, {location})"

    def attribute_at(self, ex: ExprEmitter, name: str, table: str, entity: Code, at: str,
                     location: str | None = None) -> str:
        """An entity's attribute on an enum (`c.tags(t)`) at the value's place `at`; with a
        location, checked that the entity is not none (attr_of)."""
        if location is None:
            return f"{table}[{entity.text}][{at}]"
        return f"{ex.ref('attr_of')}({table}, {entity.text}, {name!r}, {location})[{at}]"

    def value_place(self, ex: ExprEmitter, enum: str, value: Code) -> str:
        """An enum value's place in its enum, the value known only when it runs."""
        return f"{ex.ref(ex.gen.enum_index[enum])}[{value.text}]"

    # ------------------------------------------------------------ collections
    def clause(self, var: str, iterable: Code) -> str:
        """The for clause walking `iterable`'s members as `var`."""
        return f"{var} in {iterable.text}"

    def int_range(self, ex: ExprEmitter, low: Code, high: Code, node: ast.Node) -> Code:
        """The numbers low..high: held to MAX_ROUNDS numbers (the runtime's int_range) unless
        both ends are known and few, so `for i in 1..n` cannot run without end."""
        if low.number is None or high.number is None or high.number - low.number >= MAX_ROUNDS:
            return Code(f"{ex.ref('int_range')}({low.text}, {high.text}, {ex.loc(node)})")
        return Code(f"range({low.text}, {high.number + 1})")

    def union(self, ex: ExprEmitter, left: Code, right: Code) -> Code:
        """`a + b` of two collections: a's members, then b's not in a."""
        return Code(f"{ex.ref('union_of')}({left.text}, {right.text})", fresh=True)

    def reachable(self, ex: ExprEmitter, start: str, var: str, condition: str, node: ast.Node) -> Code:
        """The spaces joined to `start` through spaces where `condition` holds of `var`, in index
        order (the runtime's reachable walks them)."""
        return Code(f"{ex.ref('reachable')}({start}, {ex.ref('ADJ')}, lambda {var}: {condition},"
                    f" {ex.loc(node)})", fresh=True)

    def extreme(self, ex: ExprEmitter, var: str, clause: str, condition: str | None, item: str,
                highest: bool) -> Code:
        """argmax / argmin: the first member of the highest (lowest) `item`, none when none is."""
        where = f" if {condition}" if condition is not None else ""
        return Code(f"{ex.ref('extreme_of')}([({item}, {var}) for {clause}{where}], {highest})", fresh=True)

    def in_list(self, ex: ExprEmitter, item: Code, items: ast.ListOf, negated: bool) -> Code:
        """item in `[a, b, c]`."""
        return self.member(ex, item, ex.collection(items), negated)

    def adjacent(self, ex: ExprEmitter, space: str) -> Code:
        return Code(f"{ex.ref('ADJ')}[{space}]", table=Table("ADJ", "ADJS", space))

    def in_table(self, ex: ExprEmitter, item: Code, table: Table, negated: bool) -> Code:
        """item in a table's members: its frozenset twin."""
        return self.member(ex, item, ex.as_set(Code(table.name, table=table)), negated)

    def member(self, ex: ExprEmitter, item: Code, coll: Code, negated: bool) -> Code:
        """item in a collection made at run time (a range, a list, the players)."""
        op = "not in" if negated else "in"
        return Code(f"{item.at(P_CMP + 1)} {op} {coll.at(P_CMP + 1)}", P_CMP, True)

    def collection_of(self, ex: ExprEmitter, value: Code, node: ast.Node) -> Code:
        """The members of a zone or region held in a value, known only at run time."""
        return Code(f"{ex.ref('collection_of')}(state, {value.text}, {ex.ref('REGION_MEMBERS')},"
                    f" {ex.loc(node)})", fresh=True)

    def member_of(self, ex: ExprEmitter, item: Code, value: Code, negated: bool, node: ast.Node) -> Code:
        """item in a zone or region held in a value."""
        code = (f"{ex.ref('member_of')}(state, {item.text}, {value.text}, {ex.ref('REGION_SETS')},"
                f" {ex.loc(node)})")
        return Code(f"not {code}", P_NOT, True) if negated else Code(code, P_ATOM, True)

    def reduce(self, kind: str, var: str, source: str, clause: str, condition: str | None,
               item: str | None = None, default: str | None = None) -> Code:
        """count, any, all, sum, max or min of `var` in `source` (the for clause `clause`) where
        `condition` (sum, max, min: of `item`; max and min give `default` when none is)."""
        if kind == "count":
            if condition is None:
                return Code(f"len({source})")
            return Code(f"len([{var} for {clause} if {condition}])")
        if kind == "any":
            if condition is None:
                return Code(f"len({source}) > 0", P_CMP, True)
            return Code(f"any({condition} for {clause})", P_ATOM, True)
        if kind == "all":
            if condition is None:
                return Code(f"len({source}) >= 0", P_CMP, True)
            return Code(f"all({condition} for {clause})", P_ATOM, True)
        where = f" if {condition}" if condition is not None else ""
        if kind in ("max", "min"):
            return Code(f"{kind}([{item} for {clause}{where}], default={default})")
        return Code(f"sum([{item} for {clause}{where}])")


PYTHON = PythonDialect()
