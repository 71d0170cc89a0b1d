"""The native procedures (docs/NATIVE.md, stage 3): each procedure that never suspends (a *plain*
routine: no decision, no call of one that waits), lowered by the code generator's one Lowerer
(codegen/lower.py) with the expression emitter in the Cython dialect, as a typed C function of the
game's machine state; rendered into the same module as the native defines
(templates/procedures.pxi.j2) and built with them (build.py).

The Lowerer keeps the control flow (blocks, branches, loops, `break`, where each spec line
begins); `NativeLowerer` overrides only the statements whose Python text names the runtime's
State of lists: writes of vars, tracks and counters, moves, loops over members (made first, as the
generated package's comprehension makes its list before the body runs), rolls, log lines and the
end of the game. Every local is an `int64_t` (a player, entity or enum value its index, none
NONE; a truth 0 or 1). What it cannot write yet is refused, with the spec location and the reason
in words, as a define is: the native coverage report lists both.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from jinja2 import Environment, PackageLoader, StrictUndefined

from rulespec.compiler.backends.codegen import lines as ln
from rulespec.compiler.backends.codegen.analysis import Routine, may_grow
from rulespec.compiler.backends.codegen.code import P_COND, Code, clamp
from rulespec.compiler.backends.codegen.lower import Lowerer
from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.machine.cards import RESOLVES, CardCompiler, NativeResolve
from rulespec.compiler.backends.machine.defines import DefineCompiler, NativeEmitter, Refused
from rulespec.compiler.backends.machine.dialect import Unsupported, ZoneWalk
from rulespec.compiler.backends.machine.whens import CardWhens, card_whens
from rulespec.compiler.backends.machine.signals import SignalCompiler
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.types import INT, PLAYER, UNKNOWN, element, entity_type, type_of_ref
from rulespec.compiler.frontend.errors import InternalError

# The runtime's names a native procedure may use: the module writes each natively
# (templates/primitives.pxi.j2, procedures.pxi.j2) with the generated package's arguments.
PRIMITIVES = frozenset({"move_card", "move_card_bottom", "top_card", "shuffle", "tick", "some_card",
                        "bounded", "log_line", "label_of", "text_of", "end_game", "lose_game",
                        "PLAYER_LABELS", "ENTITY_LABELS", "RuleError", "log_seen", "secret_part",
                        "show_card", "log_shown", "conceal_zone", "activate", "cancel", "expire",
                        "zone_slot", "zone_value"})
# What stops a statement, in words, when the generated code names a runtime helper the native
# engine has not (the defines' reasons cover the expressions).
STATEMENT_REASONS = {
    "unknown_function": "calls a function the spec does not declare",
}


@dataclass
class NativeProcedure:
    """A compiled plain procedure: its C function, typed parameters, locals and body lines."""

    name: str  # the spec's
    function: str  # p_name
    params: list[str]  # C names, every one an int64_t
    locals: list[str]  # C names of its other int64_t locals and temporaries
    buffers: list[tuple[str, int]]  # C arrays of members made before a loop's body: name, room
    body: str  # Cython, indented one level
    spec: str
    gives: bool  # whether it gives a value (`return e`)
    unbound: list[str] = field(default_factory=list)  # locals that may be read unbound: UNBOUND first
    zones: list[str] = field(default_factory=list)  # the params that hold a zone (zone_value's form)
    gives_zone: bool = False  # its value is a zone (given back to Python as the generated package's)
    texts: list[str] = field(default_factory=list)  # the params that hold a text (STRINGS' place)


@dataclass
class NativeProcedures:
    """A game's plain procedures as the native engine holds them, and the labels its log writes."""

    player_labels: str  # a Python tuple's text
    entity_labels: str
    compiled: list[NativeProcedure] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    cards: list[NativeProcedure] = field(default_factory=list)  # cards' plain events and actions
    resolves: list[NativeResolve] = field(default_factory=list)  # those the module writes
    event_done: int = 0  # the step below a suspending event's frame
    action_cards: str = "()"  # the cards with an action, a Python tuple's text
    triggers: list[NativeProcedure] = field(default_factory=list)  # plain triggers' routines (signals.py)
    emits: list = field(default_factory=list)  # the signals' emits compiled (signals.py NativeEmit)
    strings: dict[str, int] = field(default_factory=dict)  # the strings the statements write: places
    card_whens: dict[str, CardWhens | str] = field(default_factory=dict)  # whens.py's, by kind

    @property
    def whens(self) -> list[CardWhens]:
        """The cards' `when`s compiled (for resolve, event_allowed, action_allowed)."""
        return [w for w in self.card_whens.values() if isinstance(w, CardWhens)]

    @property
    def strings_list(self) -> str:
        """STRINGS, a Python list's text (templates/procedures.pxi.j2)."""
        return repr(list(self.strings))


ENV = Environment(loader=PackageLoader("rulespec.compiler.backends.machine", "templates"),
                  undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                  keep_trailing_newline=True, autoescape=False)
_MACROS: list = []  # the statements template's macros, loaded once


class StatementEmitter(NativeEmitter):
    """The native emitter of statements: a zone held in a value is its slot by `held_zone`
    (templates/procedures.pxi.j2; the primitives' own `zone_slot` checks a slot), a zone written
    as a value `zone_value`'s, a string the spec writes its place among the module's STRINGS."""

    lowerer: NativeLowerer | None = None  # whose locals' types tell a text from a label (None in
    # the emitters of inlined defines, which write no text)

    def emit(self, node: ast.Expr) -> Code:
        if self.lowerer is None:
            return super().emit(node)
        if isinstance(node, ast.StrLit):
            strings = self.lowerer.compiler.strings
            return Code(f"(STR_BASE + {strings.setdefault(node.value, len(strings))})")
        if self.written_zone(node):
            return Code(f"zone_value({self.zone_slot(node).text})")
        if isinstance(node, ast.Compare) and len({self.lowerer.is_label(side) for side in (node.left, node.right)
                                                  if self.lowerer.typed(side) == "str"}) > 1:
            raise Unsupported("compares a label with another text, which the native engine does not do yet",
                              node)
        return super().emit(node)

    def collection(self, node: ast.Expr, snapshot: bool = False) -> Code:
        """A zone held in a value walked as a zone written directly is (its row and count by
        slot: primitives.pxi.j2), never as a region."""
        if self.lowerer is None or self.written_zone(node) or self.lowerer.typed(node) != "zone":
            return super().collection(node, snapshot)
        slot = self.zone_slot(node).text
        walk = ZoneWalk("CARDS", "", None, f"row_of(state, {slot})", f"count_of(state, {slot})")
        return Code(f"{walk.row}[:{walk.count}]", table=walk)

    def written_zone(self, node: ast.Expr) -> bool:
        zones = self.model.zones
        return (isinstance(node, ast.CallExpr) and node.name in zones
                or isinstance(node, ast.NameRef) and node.name in zones and not self.shadowed(node.name))

    def player_label(self, obj: ast.Expr, attr: ast.Attr | None) -> Code:
        """A player's label: `attr_of` natively reads the attribute tables, so player_label_at."""
        code = super().player_label(obj, attr)
        if code.text.startswith("attr_of(PLAYER_LABELS, "):
            return replace(code, text="player_label_at(" + code.text.removeprefix("attr_of(PLAYER_LABELS, "))
        return code

    def zone_slot(self, node: ast.Expr) -> Code:
        code = super().zone_slot(node)
        if code.text.startswith("zone_slot("):
            return replace(code, text="held_zone(" + code.text.removeprefix("zone_slot("))
        return code


class NativeLowerer(Lowerer):
    """The Lowerer writing Cython over the machine state for a plain routine."""

    def __init__(self, compiler: ProcedureCompiler, routine: Routine):
        self.compiler = compiler
        self.dialect = compiler.defines.dialect
        super().__init__(compiler.gen, routine, "py",
                         lambda gen, scope: StatementEmitter(gen, scope, self.dialect))
        self.ex.lowerer = self
        decl = compiler.model.procedures.get(routine.key.removeprefix("procedure "))
        self.types = compiler.types
        # the checker's type of each name bound (`start` takes none; a card's routine `you`, `this`)
        self.env = dict(self.types.param_types(decl.params)) if routine.kind == "procedure" else {}
        if routine.kind in ("event", "action"):
            index = int(routine.key.split()[1])
            self.env = {"you": PLAYER, "this": entity_type(compiler.model, index)}
        self.temps: list[str] = []
        self.buffers: list[tuple[str, int]] = []
        model = self.gen.model  # room for the members of any collection but a range
        self.room = max([len(model.entities), len(model.players), 1]
                        + [len(e.values) for e in model.enums.values()])

    def temp(self, name: str) -> str:
        if name not in self.temps:
            self.temps.append(name)
        return name

    def lower(self) -> list[ln.BlockOut]:
        self.dialect.texts = True  # a log line or a prompt writes labels
        try:
            return super().lower()
        finally:
            self.dialect.texts = False

    def statement(self, stmt: ast.Stmt, depth: int) -> None:
        if isinstance(stmt, ast.Choose) and stmt.var is not None:  # what a log line may name
            self.env[stmt.var.name] = element(self.types.infer(stmt.source, self.env)) or UNKNOWN
        try:
            super().statement(stmt, depth)
        except Unsupported as why:
            if why.node is None:
                why.node = stmt
            raise

    # ------------------------------------------------------------ writes of the state
    def stamp(self, name: str | None, depth: int) -> None:
        """Nothing is kept between decisions natively, so no write is counted."""

    def _kept(self, value: Code, stmt: ast.Stmt, grows: bool) -> str:
        if not grows or value.is_constant:
            return value.text
        return f"bounded({value.text}, {self.loc(stmt)})"

    def _write(self, ref: ast.Ref, op: str, amount, depth: int, stmt: ast.Stmt, grows: bool) -> None:
        name, model = ref.name.name, self.gen.model
        if name in model.var_index:
            target, value = self.dialect.var_write(self.ex, name, op, amount)
            self.add(ln.Assign(depth, target=target, value=self._kept(value, stmt, grows)))
        elif name in model.track_values:
            self._write_enum_track(name, ref.args, op, amount, depth)
        elif name in model.tracks:
            target = self.dialect.track_target(self.ex, name, ref.args)
            self._write_cell(name, target, op, amount, model.tracks[name].low, model.tracks[name].high, depth)
        elif name in model.counters and ref.args:
            row, cells = self.dialect.counter_row(self.ex, name, ref.args)
            cell = self._simple(self.ex.value(ref.args[-1]), ref.args[-1], self.temp("cell"), depth)
            read = f"counter_at({row}, {cells}, {cell})"
            if name in model.flags:
                read = f"flag_at({row}, {cells}, {cell})"
                value = _c_flag(self._update(read, op, amount))
                self.add(ln.Call(depth, code=f"set_flag({row}, {cells}, {cell}, {value})"))
                return
            value = f"max(0, {self._update(read, op, amount).text})"
            if grows:
                value = f"bounded({value}, {self.loc(stmt)})"
            self.add(ln.Call(depth, code=f"set_counter({row}, {cells}, {cell}, {value})"))

    def _write_cell(self, name: str, target: str, op: str, amount, low, high, depth: int) -> None:
        """A track's cell written, clamped to its bounds (a flag kept as 0 or 1)."""
        value = self._update(target, op, amount)
        if name in self.gen.model.flags:  # a truth, kept as 0 or 1 (only `set` reaches a flag)
            self.add(ln.Assign(depth, target=target, value=_c_flag(value)))
            return
        if not (isinstance(low, int) and isinstance(high, int)):
            raise Unsupported(f"writes track {name}, whose bounds are known only when it runs,"
                              " which the native engine does not do yet")
        bounded = clamp(low, high, value)
        self.add(ln.Assign(depth, target=target, value=bounded.text if bounded is not None
                           else f"max({low}, min({high}, {value.text}))"))

    def _write_enum_track(self, name: str, args, op: str, amount, depth: int) -> None:
        """A track on an enum: its cell, a field each with bounds of its own, chosen by the value
        (among them when it is known only when it runs: none or another fails, as the look-up)."""
        model = self.gen.model
        targets = self.dialect.track_cell_targets(self.ex, name, args)
        track = model.tracks[name]
        bounds = dict(zip(model.track_values[name], model.track_bounds.get(name, ())))
        value = self.ex.emit(args[-1])
        if value.is_constant and value.value in targets:
            low, high = bounds.get(value.value, (track.low, track.high))
            self._write_cell(name, targets[value.value], op, amount, low, high, depth)
            return
        place = self._simple(value.text, args[-1], self.temp("place"), depth)
        for i, (cell, target) in enumerate(targets.items()):
            test = f"{place} == {self.dialect.enum_place[cell]}"
            self.add(ln.If(depth, test=test) if i == 0 else ln.Elif(depth, test=test))
            low, high = bounds.get(cell, (track.low, track.high))
            self._write_cell(name, target, op, amount, low, high, depth + 1)
        self.add(ln.Else(depth))
        self.add(ln.Call(depth + 1, code=f"no_cell({place}, {name!r})"))

    def lower_Let(self, stmt: ast.Let, depth: int) -> None:
        self.env[stmt.name.name] = self.types.infer(stmt.value, self.env)
        super().lower_Let(stmt, depth)

    def lower_Roll(self, stmt: ast.Roll, depth: int) -> None:
        self.env[stmt.name.name] = INT
        self.add(ln.Assign(depth, target=self.local(stmt.name.name), value=f"roll_die(state, 6, {self.loc(stmt)})"))
        self.bind(stmt.name.name)

    def lower_RollDice(self, stmt: ast.RollDice, depth: int) -> None:
        """Several dice, highest first, into a C array, then each name its die (0 past them)."""
        rolls = f"rolls_{len(self.buffers)}"
        self.buffers.append((rolls, len(stmt.names)))
        self.add(ln.Call(depth, code=f"roll_sorted(state, {self.ex.value(stmt.count)}, {len(stmt.names)},"
                                     f" {self.loc(stmt)}, {rolls})"))
        for i, name in enumerate(stmt.names):
            self.env[name.name] = INT
            self.add(ln.Assign(depth, target=self.local(name.name), value=f"{rolls}[{i}]"))
            self.bind(name.name)

    def lower_PickRandom(self, stmt: ast.PickRandom, depth: int) -> None:
        """The members into a C array first, their count `picked_from` (what `or skip` tests)."""
        self.env[stmt.var.name] = element(self.types.infer(stmt.source, self.env)) or UNKNOWN
        self.picked, count = self.made_members(stmt.var, stmt.source, stmt.where, depth)
        self.add(ln.Assign(depth, target=self.temp("picked_from"), value=count))
        if not stmt.skip:  # else skipping_pick tests the members first
            self.pick_from_members(stmt, depth)

    def pick_from_members(self, stmt: ast.PickRandom, depth: int) -> None:
        self.add(ln.Assign(depth, target=self.local(stmt.var.name),
                           value=f"{self.picked}[pick_index(state, picked_from, {self.loc(stmt)})]"))
        self.bind(stmt.var.name)

    def lower_CopyCounter(self, stmt: ast.CopyCounter, depth: int) -> None:
        """Every cell of one counter onto another's: one copy of the field when they have the
        same cells (the same kind, rows and form)."""
        source, dest = (self.dialect.fields.get("counter_" + n.name) for n in (stmt.source, stmt.dest))
        if source is None or dest is None or (source.ctype, source.dims, source.members) != (
                dest.ctype, dest.dims, dest.members):
            raise Unsupported("copies a counter onto one with other cells, which the native engine"
                              " does not do yet")
        self.add(ln.Call(depth, code=f"memcpy(&state.data.{dest.name}, &state.data.{source.name},"
                                     f" sizeof(state.data.{dest.name}))"))

    def lower_ClearCounter(self, stmt: ast.ClearCounter, depth: int) -> None:
        field = self.dialect.fields.get("counter_" + stmt.counter.name)
        if field is None:
            raise Unsupported(f"clears {stmt.counter.name}, which is no counter")
        self.add(ln.Call(depth, code=f"memset(&state.data.{field.name}, 0, sizeof(state.data.{field.name}))"))

    def lower_Reveal(self, stmt: ast.Reveal, depth: int) -> None:
        slot = self.ex.zone_slot(stmt.zone).text
        self.add(ln.Call(depth, code=f"{'reveal_zone' if stmt.public else 'conceal_zone'}(state, {slot})"))

    # ------------------------------------------------------------ members, made before the body
    def made_members(self, var: ast.Ident, source: ast.Expr, where: ast.Expr | None, depth: int) -> tuple[str, str]:
        """Lines filling a C array with the members of `var in source where ...`, in collection
        order, before anything else runs (the generated package makes its list first, so a body
        that moves cards walks the cards as they were): the array's name and its count's."""
        number = len(self.buffers)
        buffer, count = f"buf_{number}", self.temp(f"n_{number}")
        iterable = self.ex.collection(source)
        self.buffers.append((buffer, self.room))  # its room once the clause is written
        name = self.ex.bind(var)
        try:
            condition = self.ex.test(where) if where is not None else None
        finally:
            self.scope.pop()
        clause, room = self.dialect.members_clause(name, iterable, self.room)
        self.buffers[number] = (buffer, room)  # a range's numbers may outnumber the entities
        head, _, binding = clause.partition("\n")
        self.temp(name)
        if binding:
            self.temp(f"at_{name}")
        self.add(ln.Assign(depth, target=count, value="0"))
        self.add(ln.For(depth, target=head.split(" in ", 1)[0], items=head.split(" in ", 1)[1]))
        inner = depth + 1
        if binding:
            self.add(ln.Call(inner, code=binding))
        if condition is not None:
            self.add(ln.If(inner, test=condition))
            inner += 1
        self.add(ln.Call(inner, code=f"{buffer}[{count}] = {name}\n{count} += 1"))
        return buffer, count

    def lower_For(self, stmt: ast.For, depth: int) -> None:
        self.env[stmt.var.name] = element(self.types.infer(stmt.source, self.env)) or UNKNOWN
        buffer, count = self.made_members(stmt.var, stmt.source, stmt.where, depth)
        index = self.temp(f"i_{buffer}")
        self.add(ln.For(depth, target=index, items=f"range({count})"))
        self.add(ln.Assign(depth + 1, target=self.local(stmt.var.name), value=f"{buffer}[{index}]"))

        def body():
            self.bind(stmt.var.name)
            self.loops.append(None)
            self.nested(stmt.body.body, depth + 1)
            self.loops.pop()
        self.loop_body(body)

    def lower_MoveAll(self, stmt: ast.MoveAll, depth: int) -> None:
        dest = self._simple(self.ex.zone_slot(stmt.dest).text, stmt.dest, self.temp("dest"), depth)
        buffer, count = self.made_members(stmt.var, stmt.source, stmt.where, depth)
        index = self.temp(f"i_{buffer}")
        self.add(ln.For(depth, target=index, items=f"range({count})"))
        self.add(ln.Call(depth + 1, code=f"move_card_seen(state, {buffer}[{index}], {dest})"))

    def lower_Repeat(self, stmt: ast.Repeat, depth: int) -> None:
        self.add(ln.For(depth, target=self.temp(f"r_{depth}"), items=f"range({self.ex.value(stmt.count)})"))
        self._python_loop(stmt, depth)

    # ------------------------------------------------------------ the log and the end
    def lower_Log(self, stmt: ast.Log, depth: int) -> None:
        """A log line, written unless the game runs quiet (a playout: no one reads its log)."""
        self.add(ln.If(depth, test="loud(state)"))
        super().lower_Log(stmt, depth + 1)

    def log_shown(self, stmt: ast.Show, depth: int) -> None:
        self.add(ln.If(depth, test="loud(state)"))
        super().log_shown(stmt, depth + 1)

    def shown(self, parts: tuple[ast.Expr, ...]) -> tuple[list[str], list[str]]:
        texts, named = super().shown(parts)
        for i, part in enumerate(parts):
            if texts[i].startswith("text_of("):
                texts[i] = self.text(part)
            elif texts[i].startswith("(text_of("):  # an entity's attribute, which names the entity
                texts[i] = f"({self.text(part)}, {named[named_at(parts, i, self.gen)]})"
        return texts, named

    def typed(self, node: ast.Expr) -> str:
        return self.types.infer(node, self.env).base

    @staticmethod
    def is_label(node: ast.Expr) -> bool:
        """A label read (a Python str natively), not a text the spec writes (an index)."""
        return isinstance(node, ast.Attr) and node.name == "label"

    def prompt(self, stmt: ast.Choose | ast.Menu) -> tuple[str, str]:
        if isinstance(stmt, ast.Menu) and stmt.asked is not None:  # made when asked: its text
            return self.text(stmt.asked), ""
        return super().prompt(stmt)

    def text(self, part: ast.Expr) -> str:
        """A value as `log` writes it (values.text_of), by its type: C values carry none."""
        typ = self.types.infer(part, self.env)
        kind, value = typ.base, self.ex.value(part)
        if isinstance(part, ast.Attr) and part.name == "label":  # a label is text natively too
            return value
        if kind == "int":
            return f"str(<int64_t>({value}))"
        if kind == "bool":
            return f"('true' if {value} else 'false')"
        if kind == "enum":  # an index natively: its name (enum_name gives none as None)
            return f"text_of(enum_name({typ.name!r}, {value}))"
        if kind == "str":  # a string the spec writes, by its place
            return f"string_of({value})"
        raise Unsupported(f"writes a {kind} value in a log line, which the native engine does not"
                          " write yet (a number, a truth or a label)")


def named_at(parts: tuple[ast.Expr, ...], index: int, gen) -> int:
    """Which of the entities a line's parts name (Lowerer.shown's `named`) part `index` names."""
    found = gen.player_labels
    return sum(1 for part in parts[:index] if part not in found.logged and (
        part in found.entities or isinstance(part, ast.Attr) and part.obj in found.entities))


def _c_flag(value: Code) -> str:
    """A flag's new cell: 0 or 1 for a truth."""
    if value.is_constant:
        return "1" if value.value else "0"
    return f"(1 if {value.at(P_COND + 1)} else 0)"


class ProcedureCompiler:
    """Compiles each plain procedure natively, callees first, after the defines."""

    def __init__(self, defines: DefineCompiler):
        self.defines = defines
        self.gen = defines.gen
        self.model = defines.model
        self.types = defines.types
        self.done: dict[str, NativeProcedure | Refused] = {}
        self.busy: set[str] = set()
        self.cards = CardCompiler(self)  # cards' routines and `resolve` (cards.py)
        self.signals = SignalCompiler(self)  # emits and plain triggers (signals.py)
        self.strings: dict[str, int] = {}  # the strings the statements write, by their place

    def all(self) -> NativeProcedures:
        out = NativeProcedures(repr(tuple(self.model.player_labels)),
                               repr(tuple(e.label for e in self.model.entities)),
                               event_done=self.gen.event_done,
                               action_cards=repr(tuple(i for i, e in enumerate(self.model.entities)
                                                       if e.actions)))
        for _ in range(len(RESOLVES) + 1):  # a resolve refused changes what else compiles: again
            refusals = dict(self.cards.refused)
            self.done = {}
            self.cards.again()
            self.signals = SignalCompiler(self)
            for helper in RESOLVES:
                self.cards.refusal(helper)
            if self.cards.refused == refusals:
                break
        out.cards = [c for c in self.cards.routines.values() if isinstance(c, NativeProcedure)]
        out.strings = self.strings  # the steps add theirs (steps.py), as their `when`s
        out.card_whens = self.defines.card_whens
        out.resolves = list(self.cards.resolved.values())
        for name in self.model.procedures:
            routine = self.gen.by_key.get(f"procedure {name}")
            if routine is not None and routine.plain_name is not None:
                self.compile(name)
        out.emits, out.triggers = self.signals.compiled()
        order = list(self.model.procedures)
        for made in sorted(self.done.values(), key=lambda d: order.index(d.name)):
            (out.compiled if isinstance(made, NativeProcedure) else out.refused).append(made)
        return out

    def compile(self, name: str) -> NativeProcedure | Refused:
        if name in self.done:
            return self.done[name]
        decl = self.model.procedures[name]
        routine = self.gen.by_key[f"procedure {name}"]
        if name in self.busy:
            return Refused(name, self.gen.loc(decl), "calls itself, which the native engine does not do yet",
                           kind="procedure")
        self.busy.add(name)
        try:
            for callee in self.callees(routine):
                made = self.compile(callee)
                if isinstance(made, Refused):
                    self.done[name] = Refused(name, self.gen.loc(decl), f"calls procedure `{callee}`,"
                                              " which is not compiled natively", made.root, "procedure")
                    return self.done[name]
            try:
                self.done[name] = self.emitted(routine, name)
            except Unsupported as why:
                self.done[name] = Refused(name, self.gen.loc(why.node or decl), why.reason, kind="procedure")
        finally:
            self.busy.discard(name)
        return self.done[name]

    def callees(self, routine: Routine) -> list[str]:
        found = [n.name.name if isinstance(n, ast.CallStmt) else n.name
                 for n in routine.body.walk()
                 if isinstance(n, ast.CallStmt) or isinstance(n, ast.CallExpr) and n.name in self.model.procedures]
        return [n for n in dict.fromkeys(found) if n in self.model.procedures]

    def emitted(self, routine: Routine, name: str) -> NativeProcedure:
        before = set(self.gen.uses["rules"])
        self.gen.uses["rules"] = set()
        try:
            lowerer = NativeLowerer(self, routine)
            try:
                blocks = lowerer.lower()
            except InternalError as why:  # a construct the Python side writes the native cannot
                raise Unsupported(f"has a statement the native engine cannot write yet ({why})") from why
            self.check_names(self.gen.uses["rules"], routine)
        finally:
            self.gen.uses["rules"] |= before
        params = [mangle("local", p) for p in routine.params]
        locals_ = [mangle("local", n) for n in routine.locals if n not in routine.params] + lowerer.temps
        body = render_lines(blocks[0].lines)
        gives = any(isinstance(s, ast.Return) and s.value is not None for s in routine.body.walk())
        # a local that may be read before it is bound (it shadows a var or track) starts UNBOUND
        unbound = [mangle("local", n) for n in routine.locals
                   if n in lowerer.scope.maybe and n not in routine.params]
        typed = {n: lowerer.env[n].base for n in routine.params if n in lowerer.env}
        zones = [mangle("local", n) for n, base in typed.items() if base == "zone"]
        texts = [mangle("local", n) for n, base in typed.items() if base == "str"]
        return NativeProcedure(name, routine.plain_name, params, list(dict.fromkeys(locals_)),
                               lowerer.buffers, body, self.gen.where(routine.span), gives, unbound, zones,
                               self.gives_zone(routine), texts)

    def gives_zone(self, routine: Routine) -> bool:
        decl = self.model.procedures.get(routine.key.removeprefix("procedure "))
        return (routine.kind == "procedure" and decl.returns is not None
                and type_of_ref(self.model, decl.returns).base == "zone")

    def check_names(self, names: set[str], routine: Routine) -> None:
        """Refuses a body naming what the module has not: the defines' rules, the primitives and
        the plain procedures compiled (callees are compiled first)."""
        procedures = {r.plain_name: k.removeprefix("procedure ") for k, r in self.gen.by_key.items()
                      if r.plain_name is not None and k.startswith("procedure ")}
        rest = set()
        for name in names:
            if name in PRIMITIVES:
                continue
            if name in procedures and isinstance(self.done.get(procedures[name]), NativeProcedure):
                continue
            if name in RESOLVES:
                why = self.cards.refusal(name)
                if why is None:
                    continue
                raise Unsupported(why, _source(name, routine))
            if self.signals.knows(name):  # an emit compiled natively (signals.py), else its refusal
                continue
            if name in STATEMENT_REASONS:
                raise Unsupported(STATEMENT_REASONS[name], _source(name, routine))
            rest.add(name)
        self.defines.check_names(rest, routine.body)


def _source(helper: str, routine: Routine) -> ast.Node | None:
    """The statement that made the body name a runtime helper (its first), for the refusal."""
    kinds = {"log_seen": ast.Log, "secret_part": ast.Log, "show_card": ast.Show, "log_shown": ast.Show,
             "conceal_zone": ast.Reveal, "activate": ast.Activate, "cancel": ast.Cancel,
             "expire": ast.Expire, "resolve_event": ast.Resolve, "resolve_action": ast.Resolve,
             "pick_random": ast.PickRandom, "roll_sorted": ast.RollDice}
    wanted = kinds.get(helper)
    return next((n for n in routine.body.walk() if wanted and isinstance(n, wanted)), None)


def render_lines(lines: list[ln.Line], save: str = "") -> str:
    """A plain routine's lines as Cython, one level in (a macro a kind of line:
    templates/statements.pxi.j2, as codegen's statements.j2 writes Python)."""
    macros = _MACROS or _MACROS.append(ENV.get_template("statements.pxi.j2").module) or _MACROS
    out = []
    for line in lines:
        macro = getattr(macros[0], "stmt_" + line.kind, None)
        if macro is None:
            raise Unsupported(f"has a statement the native engine cannot write yet ({line.kind})")
        text = str(macro(line)).strip("\n")
        indent = "    " * (line.depth + 1)
        for row in text.split("\n"):  # a step's SAVE_LOCALS: its locals back into the frame
            for part in (save.split("\n") if row.strip() == "SAVE_LOCALS" else [row]):
                out.append(indent + row[:len(row) - len(row.lstrip())] + part.strip() if part else part)
    return "\n".join(out)


def native_procedures(defines: DefineCompiler) -> NativeProcedures:
    return ProcedureCompiler(defines).all()
