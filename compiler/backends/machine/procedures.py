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

from dataclasses import dataclass, field

from jinja2 import Environment, PackageLoader, StrictUndefined

from rulespec.compiler.backends.codegen import lines as ln
from rulespec.compiler.backends.codegen.analysis import Routine, may_grow
from rulespec.compiler.backends.codegen.code import P_COND, Code, clamp
from rulespec.compiler.backends.codegen.lower import Lowerer
from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.machine.defines import DefineCompiler, NativeEmitter, Refused
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.types import INT, UNKNOWN, element
from rulespec.compiler.frontend.errors import InternalError

# The runtime's names a native procedure may use: the module writes each natively
# (templates/primitives.pxi.j2, procedures.pxi.j2) with the generated package's arguments.
PRIMITIVES = frozenset({"move_card", "move_card_bottom", "top_card", "shuffle", "tick", "some_card",
                        "bounded", "log_line", "label_of", "text_of", "end_game", "lose_game",
                        "PLAYER_LABELS", "ENTITY_LABELS", "RuleError", "log_seen", "secret_part",
                        "show_card", "log_shown", "conceal_zone"})
# What stops a statement, in words, when the generated code names a runtime helper the native
# engine has not (the defines' reasons cover the expressions).
STATEMENT_REASONS = {
    "activate": "starts a lasting effect, which the native engine does not hold yet",
    "cancel": "ends a lasting effect, which the native engine does not hold yet",
    "expire": "ends lasting effects, which the native engine does not hold yet",
    "resolve_event": "resolves a card's event, which the native engine does not do yet",
    "resolve_action": "resolves a card's action, which the native engine does not do yet",
    "pick_random": "picks at random among members, which the native engine does not do yet",
    "roll_sorted": "rolls several dice at once, which the native engine does not do yet",
    "zone_slot": "moves cards to or from a zone held in a value, which the native engine does not"
                 " do yet",
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


@dataclass
class NativeProcedures:
    """A game's plain procedures as the native engine holds them, and the labels its log writes."""

    player_labels: str  # a Python tuple's text
    entity_labels: str
    compiled: list[NativeProcedure] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)


ENV = Environment(loader=PackageLoader("rulespec.compiler.backends.machine", "templates"),
                  undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                  keep_trailing_newline=True, autoescape=False)
_MACROS: list = []  # the statements template's macros, loaded once


class NativeLowerer(Lowerer):
    """The Lowerer writing Cython over the machine state for a plain routine."""

    def __init__(self, compiler: ProcedureCompiler, routine: Routine):
        self.compiler = compiler
        self.dialect = compiler.defines.dialect
        super().__init__(compiler.gen, routine, "py",
                         lambda gen, scope: NativeEmitter(gen, scope, self.dialect))
        decl = compiler.model.procedures.get(routine.key.removeprefix("procedure "))
        self.types = compiler.types
        # the checker's type of each name bound (`start` takes none)
        self.env = dict(self.types.param_types(decl.params)) if routine.kind == "procedure" else {}
        self.temps: list[str] = []
        self.buffers: list[tuple[str, int]] = []
        self.room = max(len(self.gen.model.entities), len(self.gen.model.players), 1)

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
        elif name in model.tracks:
            target = self.dialect.track_target(self.ex, name, ref.args)
            value = self._update(target, op, amount)
            if name in model.flags:  # a truth, kept as 0 or 1 (only `set` reaches a flag)
                self.add(ln.Assign(depth, target=target, value=_c_flag(value)))
                return
            low, high = model.tracks[name].low, model.tracks[name].high
            if not (isinstance(low, int) and isinstance(high, int)):
                raise Unsupported(f"writes track {name}, whose bounds are known only when it runs,"
                                  " which the native engine does not do yet")
            bounded = clamp(low, high, value)
            self.add(ln.Assign(depth, target=target, value=bounded.text if bounded is not None
                               else f"max({low}, min({high}, {value.text}))"))
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

    def lower_Let(self, stmt: ast.Let, depth: int) -> None:
        self.env[stmt.name.name] = self.types.infer(stmt.value, self.env)
        super().lower_Let(stmt, depth)

    def lower_Roll(self, stmt: ast.Roll, depth: int) -> None:
        self.env[stmt.name.name] = INT
        self.add(ln.Assign(depth, target=self.local(stmt.name.name), value=f"roll_die(state, 6, {self.loc(stmt)})"))
        self.bind(stmt.name.name)

    def lower_CopyCounter(self, stmt: ast.CopyCounter, depth: int) -> None:
        raise Unsupported("copies a counter, which the native engine does not do yet")

    def lower_ClearCounter(self, stmt: ast.ClearCounter, depth: int) -> None:
        raise Unsupported("clears a counter, which the native engine does not do yet")

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
        self.buffers.append((buffer, self.room))
        iterable = self.ex.collection(source)
        name = self.ex.bind(var)
        try:
            condition = self.ex.test(where) if where is not None else None
        finally:
            self.scope.pop()
        clause = self.dialect.clause(name, iterable)
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
        return texts, named

    def text(self, part: ast.Expr) -> str:
        """A value as `log` writes it (values.text_of), by its type: C values carry none."""
        kind = self.types.infer(part, self.env).base
        value = self.ex.value(part)
        if kind == "int":
            return f"str(<int64_t>({value}))"
        if kind == "bool":
            return f"('true' if {value} else 'false')"
        raise Unsupported(f"writes a {kind} value in a log line, which the native engine does not"
                          " write yet (a number, a truth or a label)")


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

    def all(self) -> NativeProcedures:
        out = NativeProcedures(repr(tuple(self.model.player_labels)),
                               repr(tuple(e.label for e in self.model.entities)))
        for name in self.model.procedures:
            routine = self.gen.by_key.get(f"procedure {name}")
            if routine is not None and routine.plain_name is not None:
                self.compile(name)
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
            loops = len(self.defines.dialect.loops.made)
            try:
                self.done[name] = self.emitted(decl, routine)
            except Unsupported as why:
                self.defines.dialect.loops.keep_first(loops)
                self.done[name] = Refused(name, self.gen.loc(why.node or decl), why.reason, kind="procedure")
        finally:
            self.busy.discard(name)
        return self.done[name]

    def callees(self, routine: Routine) -> list[str]:
        found = [n.name.name if isinstance(n, ast.CallStmt) else n.name
                 for n in routine.body.walk()
                 if isinstance(n, ast.CallStmt) or isinstance(n, ast.CallExpr) and n.name in self.model.procedures]
        return [n for n in dict.fromkeys(found) if n in self.model.procedures]

    def emitted(self, decl: ast.ProcedureDecl, routine: Routine) -> NativeProcedure:
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
        return NativeProcedure(decl.name.name, routine.plain_name, params, list(dict.fromkeys(locals_)),
                               lowerer.buffers, body, self.gen.where(decl), gives)

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
