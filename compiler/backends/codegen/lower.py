"""Statements to lines: plain functions, or resumable state machines in numbered blocks.

A routine that never suspends becomes one list of lines (a plain function).
A routine that may suspend becomes blocks: `if pc == N:` sections of a step
function whose locals live in its frame (`L`). Structured statements that
hold no suspension point stay ordinary Python inside a block; those that do
are lowered into blocks joined by jumps (`pc = N`), and every decision, call
of a suspending procedure, event or trigger ends a block (the frame's pc is
saved, the step returns, and the engine resumes it later at the next block).
It stays whole: the blocks, jumps and frame slots of one lowering are one algorithm.
"""

from __future__ import annotations

from typing import Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.termination import RuleGraph  # what a filter reads, as the loop check asks
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.frontend.model import option_kind
from rulespec.compiler.backends.codegen import lines as ln
from rulespec.compiler.backends.codegen.analysis import Routine, may_grow
from rulespec.compiler.backends.codegen.context import Gen
from rulespec.compiler.backends.codegen.code import P_ADD, P_COND, P_NOT, Code, clamp
from rulespec.compiler.backends.codegen.expr import ExprEmitter, Scope


def _flag_value(value: Code) -> str:
    """A flag's new cell: 0 or 1 for a truth (a constant folded, so `set f to true` reads `= 1`)."""
    if value.is_constant:
        return "1" if value.value else "0"
    return f"1 if {value.at(P_COND + 1)} else 0"


class Lowerer:
    """Lowers one routine's body; `style` says where its locals live (see Scope)."""

    ANSWER = "frame[3]"  # the value a frame was answered (a decision's, a value procedure's)

    def __init__(self, gen: Gen, routine: Routine, style: str,
                 emitter: Callable[[Gen, Scope], ExprEmitter] = ExprEmitter):
        self.gen = gen
        self.routine = routine
        self.scope = Scope(style, routine)
        self._reads: RuleGraph | None = None  # made on first use (offered_first)
        self.ex = emitter(gen, self.scope)  # the native engine's writes Cython (machine/procedures.py)
        self.resumable = style in ("slot", "dict")
        self.blocks = [ln.BlockOut(ln.Label())]
        self._last_where = ""
        self.loops: list[ln.Label | None] = []  # innermost last; None: a Python loop
        self.offered: ast.Choose | None = None  # a choice whose options are in `values` already
        self.skip_to: ln.Label | None = None  # where a choice `or skip` goes with no option

    # ------------------------------------------------------------ driving
    def lower(self) -> list[ln.BlockOut]:
        self.statements(self.routine.body.body, 0)
        if self.resumable:
            self.add(ln.Finish(0))
            self._thread_jumps()
            self._tail_calls()
            self._drop_dead_blocks()
        for number, block in enumerate(self.blocks):
            block.label.number = number
        for block in self.blocks:
            self._finish_block(block)
        return self.blocks

    def _thread_jumps(self) -> None:
        """A block that only jumps on is skipped: whoever goes there goes straight on."""
        forward: dict[int, ln.Label] = {}
        for block in self.blocks[1:]:
            lines = block.code_lines()
            if len(lines) == 1 and isinstance(lines[0], ln.Goto) and lines[0].target is not block.label:
                forward[id(block.label)] = lines[0].target

        def final(label: ln.Label) -> ln.Label:
            seen = set()
            while id(label) in forward and id(label) not in seen:
                seen.add(id(label))
                label = forward[id(label)]
            return label
        for block in self.blocks:
            for line in block.lines:
                line.retarget(final)

    def _tail_calls(self) -> None:
        """A call that is the routine's last act pops the caller first: one frame less."""
        finishing = {id(b.label) for b in self.blocks
                     if [type(line) for line in b.code_lines()] == [ln.Finish]}
        for block in self.blocks:
            last = block.lines[-1] if block.lines else None
            if isinstance(last, ln.CallAway) and id(last.next) in finishing:
                last.tail = True

    def _drop_dead_blocks(self) -> None:
        """Blocks nothing jumps to (the entry block aside) are never run."""
        targets = {id(self.blocks[0].label)}
        for block in self.blocks:
            for line in block.lines:
                targets.update(id(label) for label in line.jumps())
        self.blocks = [b for b in self.blocks if id(b.label) in targets]

    def _finish_block(self, block: ln.BlockOut) -> None:
        if not self.resumable:
            return
        if not block.lines or not block.lines[-1].ends_block:
            raise InternalError(f"block {block.number} of {self.routine.key} does not end in a jump")
        for i, line in enumerate(block.lines):
            if isinstance(line, ln.Goto):
                last = i == len(block.lines) - 1 and line.depth == 0
                line.cont = not (last and line.target.number > block.number)

    def add(self, line: ln.Line) -> ln.Line:
        self.blocks[-1].lines.append(line)
        return line

    def error(self, depth: int, message: str, stmt: ast.Stmt) -> None:
        """A statement the interpreter would fail on: fail the same way, naming the spec line."""
        self.gen.ref("RuleError")
        self.add(ln.Error(depth, message=repr(message), at=self.loc(stmt)))

    def start(self, label: ln.Label) -> None:
        self.blocks.append(ln.BlockOut(label))

    def statements(self, stmts: tuple[ast.Stmt, ...], depth: int) -> None:
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Choose) and stmt.skip:
                self.skipping_choice(stmt, stmts[i + 1:])
                return
            if isinstance(stmt, ast.PickRandom) and stmt.skip:
                self.skipping_pick(stmt, stmts[i + 1:], depth)
                return
            self.statement(stmt, depth)

    def skipping_pick(self, stmt: ast.PickRandom, rest: tuple[ast.Stmt, ...], depth: int) -> None:
        """A pick `or skip` and the rest of its block: nested under `if` its members, or, when
        the rest may suspend (then at depth 0, in blocks), a jump past it."""
        self.statement(stmt, depth)  # the members, in `picked_from`
        before = set(self.scope.definite)
        if self.resumable and self.gen.suspension.block(ast.Block(stmt.span, rest)):
            end = ln.Label()
            self.add(ln.If(0, test="not picked_from"))
            self.add(ln.Goto(1, target=end))
            self.pick_from_members(stmt, 0)
            self.statements(rest, 0)
            self.add(ln.Goto(0, target=end))
            self.start(end)
        else:
            self.add(ln.If(depth, test="picked_from"))
            self.pick_from_members(stmt, depth + 1)
            self.nested(rest, depth + 1)
        self.scope.definite = before

    def skipping_choice(self, stmt: ast.Choose, rest: tuple[ast.Stmt, ...]) -> None:
        """A choice `or skip` and the rest of its block, which it jumps over when it has no
        option to offer (always a suspension point: in blocks, at depth 0)."""
        end = ln.Label()
        before = set(self.scope.definite)
        self.skip_to = end
        self.statement(stmt, 0)
        self.statements(rest, 0)
        self.add(ln.Goto(0, target=end))
        self.start(end)
        self.scope.definite = before

    def nested(self, stmts: tuple[ast.Stmt, ...], depth: int) -> None:
        """An indented Python body (never empty)."""
        before = len(self.blocks[-1].lines)
        self.statements(stmts, depth)
        if len(self.blocks[-1].lines) == before or all(
                isinstance(line, ln.Comment) for line in self.blocks[-1].lines[before:]):
            self.add(ln.Pass(depth))

    def statement(self, stmt: ast.Stmt, depth: int) -> None:
        name = type(stmt).__name__
        where = self.gen.where(stmt)
        if where != self._last_where:  # one comment per spec line
            self.add(ln.Comment(depth, text=where))
            self._last_where = where
        if self.resumable and self.gen.suspension.stmt(stmt):
            if depth != 0:
                raise InternalError(f"suspension point nested in Python code at {stmt.span}")
            method = getattr(self, "suspend_" + name, None)
        else:
            method = getattr(self, "lower_" + name, None)
        if method is None:
            raise InternalError(f"code generation does not handle {name} at {stmt.span}")
        try:
            method(stmt, depth)
        except (IndexError, KeyError, TypeError, AttributeError) as err:
            raise InternalError(f"cannot generate {name} at {stmt.span}"
                                f" (does the spec check?): {type(err).__name__}: {err}") from err

    def branches(self, runs: list[Callable[[], None]]) -> None:
        """Run each branch from the same known-bound locals; keep what all of them bind."""
        before = set(self.scope.definite)
        after = []
        for run in runs:
            self.scope.definite = set(before)
            run()
            after.append(self.scope.definite)
        self.scope.definite = set.intersection(*after) if after else before

    def loop_body(self, run: Callable[[], None]) -> None:
        """A loop body may run zero times: what it binds is not known bound after it."""
        before = set(self.scope.definite)
        run()
        self.scope.definite = before

    # ------------------------------------------------------------ locals
    def local(self, name: str) -> str:
        return self.scope.local(name)

    def bind(self, name: str) -> None:
        self.scope.definite.add(name)

    def loc(self, node: ast.Node) -> str:
        return repr(self.gen.loc(node))

    # ------------------------------------------------------------ simple statements
    def lower_Let(self, stmt: ast.Let, depth: int) -> None:
        value = self.ex.kept(stmt.value)
        self.add(ln.Assign(depth, target=self.local(stmt.name.name), value=value))
        self.bind(stmt.name.name)

    def lower_Return(self, stmt: ast.Return, depth: int) -> None:
        value = self._kept(self.ex.emit(stmt.value), stmt, may_grow(self.gen.model, stmt.value))
        self.add(ln.Give(depth, value=value, framed=self.resumable))

    def lower_Roll(self, stmt: ast.Roll, depth: int) -> None:
        self.add(ln.Assign(depth, target=self.local(stmt.name.name), value=f"{self.gen.ref('roll')}(state, 6, {self.gen.loc(stmt)!r})"))
        self.bind(stmt.name.name)

    def lower_RollDice(self, stmt: ast.RollDice, depth: int) -> None:
        count = self.ex.value(stmt.count)
        rolled = f"{self.gen.ref('roll_sorted')}(state, {count}, {len(stmt.names)}, {self.gen.loc(stmt)!r})"
        targets = [self.local(n.name) for n in stmt.names]
        if len(targets) == 1:
            rolled += "[0]"
        self.add(ln.Assign(depth, target=", ".join(targets), value=rolled))
        for name in stmt.names:
            self.bind(name.name)

    def lower_SetStmt(self, stmt: ast.SetStmt, depth: int) -> None:
        self.assign(stmt.target, "=", self.ex.emit(stmt.value), depth, stmt,
                    may_grow(self.gen.model, stmt.value))

    def lower_AddStmt(self, stmt: ast.AddStmt, depth: int) -> None:
        self.assign(stmt.target, "+", self.ex.emit(stmt.amount), depth, stmt, True)

    def lower_RemoveStmt(self, stmt: ast.RemoveStmt, depth: int) -> None:
        self.assign(stmt.target, "-", self.ex.emit(stmt.amount), depth, stmt, True)

    def assign(self, ref: ast.Ref, op: str, amount, depth: int, stmt: ast.Stmt, grows: bool) -> None:
        """set/add/remove: a local or var as is, a track clamped, a counter never below 0;
        `grows`: the new value may lie past the bound of whole numbers, so it is checked
        (a track needs no check: it is clamped to its bounds)."""
        name = ref.name.name
        model = self.gen.model
        if ref.args is None and self.scope.is_local(name):
            local = self.local(name)
            if self.scope.is_definite(name) or name not in model.var_index and name not in model.tracks:
                if not self.scope.is_definite(name):
                    self.scope.maybe.add(name)
                value = self._kept(self._update(local, op, amount), stmt, grows)
                self.add(ln.Assign(depth, target=local, value=value))
                return
            self.scope.maybe.add(name)
            if self.scope.style == "dict":
                test = f"{name!r} in L"
            else:
                test = f"{local} != {self.gen.ref('UNBOUND')}"
            self.add(ln.If(depth, test=test))
            self.add(ln.Assign(depth + 1, target=local,
                               value=self._kept(self._update(local, op, amount), stmt, grows)))
            self.add(ln.Else(depth))
            self._assign_global(ref, op, amount, depth + 1, stmt, grows)
            return
        self._assign_global(ref, op, amount, depth, stmt, grows)

    def _update(self, old: str, op: str, amount: Code) -> Code:
        if op == "=":
            return amount
        return Code(f"{old} {op} {amount.at(P_ADD + 1)}", P_ADD)

    def _kept(self, value: Code, stmt: ast.Stmt, grows: bool) -> str:
        """The new value of a local, var or counter, bound-checked when it may grow past the bound."""
        if not grows or value.is_constant:
            return value.text
        return f"{self.gen.ref('bounded')}({value.text}, {self.loc(stmt)})"

    def _assign_global(self, ref: ast.Ref, op: str, amount, depth: int, stmt: ast.Stmt,
                       grows: bool) -> None:
        name, model = ref.name.name, self.gen.model
        if name in model.var_index or name in model.tracks or name in model.counters and ref.args:
            self._write(ref, op, amount, depth, stmt, grows)
            self.stamp(name, depth)
        else:
            self.error(depth, f"cannot assign to '{name}'", stmt)

    def stamp(self, name: str | None, depth: int) -> None:
        """Count a write of a track, counter or var (None: of the zones), for kept filters."""
        index = 0 if name is None else self.gen.kept.stamps.of(name)
        self.add(ln.Call(depth, code=f"state.stamps[{index}] += 1"))

    def _write(self, ref: ast.Ref, op: str, amount, depth: int, stmt: ast.Stmt, grows: bool) -> None:
        name, model = ref.name.name, self.gen.model
        if name in model.var_index:
            target = f"state.vars[{model.var_index[name]}]"
            value = self._kept(self._update(target, op, amount), stmt, grows)
            self.add(ln.Assign(depth, target=target, value=value))
        elif name in model.tracks:
            track = model.tracks[name]
            cell, index = self.ex.track_slot(name, ref.args or ())
            slot = cell.text
            if cell.number is None and not (len(ref.args or ()) == 1 and self.ex.is_simple(ref.args[0])
                                            and name not in model.track_values):
                self.add(ln.Assign(depth, target="slot", value=slot))
                slot = "slot"
            target = f"state.tracks[{slot}]"
            value = self._update(target, op, amount)
            if name in model.flags:  # a truth, kept as 0 or 1 (only `set` reaches a flag)
                self.add(ln.Assign(depth, target=target, value=_flag_value(value)))
                return
            low, high = track.low, track.high
            if index is not None:
                low, high = model.track_bounds[name][index]
            elif name in model.track_bounds and len(set(model.track_bounds[name])) > 1:
                low, high = self._dynamic_bounds(name, ref.args[-1], depth)
            bounded = clamp(low, high, value) if isinstance(low, int) else None
            if bounded is not None:
                self.add(ln.Assign(depth, target=target, value=bounded.text))
            else:
                self.add(ln.Clamp(depth, target=target, low=low, high=high, value=value.text))
        elif name in model.counters and ref.args:
            counter = model.counters[name]
            row = str(counter.slot)
            if counter.per_player:
                row = self._simple(self.ex.offset(counter.slot, ref.args[0]).text, ref.args[0], "row", depth)
            cell = self._simple(self.ex.value(ref.args[-1]), ref.args[-1], "cell", depth)
            target = f"state.counters[{row}][{cell}]"
            value = self._update(target, op, amount)
            if name in model.flags:  # a truth, kept as 0 or 1 (only `set` reaches a flag)
                self.add(ln.Assign(depth, target=target, value=_flag_value(value)))
                return
            if value.number is not None:
                self.add(ln.Assign(depth, target=target, value=repr(max(0, value.number))))
            else:
                at = self.loc(stmt) if grows and self.gen.ref("bounded") else None
                self.add(ln.Floor(depth, target=target, value=value.text, at=at))

    def _dynamic_bounds(self, name: str, value: ast.Expr, depth: int) -> tuple[str, str]:
        """The bounds of a track cell whose enum value is known only at run time (its values
        have bounds of their own): read from a tuple by the value's place."""
        model = self.gen.model
        enum = model.enum_of_value.get(model.track_values[name][0], "")
        place = f"{self.gen.ref(self.gen.enum_index[enum])}[{self.ex.value(value)}]"
        self.add(ln.Assign(depth, target="place", value=place))
        bounds = model.track_bounds[name]
        return (f"{tuple(b[0] for b in bounds)!r}[place]", f"{tuple(b[1] for b in bounds)!r}[place]")

    def _simple(self, code: str, node: ast.Expr, temp: str, depth: int) -> str:
        """The code itself when cheap to repeat, else a temporary holding it."""
        if self.ex.is_simple(node):
            return code
        self.add(ln.Assign(depth, target=temp, value=code))
        return temp

    def lower_MoveCard(self, stmt: ast.MoveCard, depth: int) -> None:
        card = self.ex.value(stmt.card)
        checked = not self.ex.nonnull(stmt.card)
        self.gen.ref("move_card_bottom" if stmt.bottom else "move_card")
        if checked:
            card = f"{self.gen.ref('some_card')}({card}, {self.loc(stmt)})"
        self.add(ln.Move(depth, card=card, dest=self.ex.zone_slot(stmt.dest).text, bottom=stmt.bottom))

    def lower_MoveAll(self, stmt: ast.MoveAll, depth: int) -> None:
        dest = self.ex.zone_slot(stmt.dest)
        cards = self.members(stmt.var, stmt.source, stmt.where, as_list=False)
        self.gen.ref("move_card")
        self.add(ln.MoveAll(depth, dest=dest.text, constant=dest.is_constant, cards=cards))

    def members(self, var: ast.Ident, source: ast.Expr, where: ast.Expr | None,
                action: ast.ActionRef | None = None, as_list: bool = True,
                named: ast.Ident | None = None) -> str:
        """A snapshot of a collection's members satisfying `where` (and allowed as `action`).

        as_list: a list (decisions and frames hold plain data), else any fresh iterable.
        named: the Python variable is named after this one instead of `var`.
        """
        where = self.where_allowed(where, action)
        if where is None:
            code = self.ex.collection(source, snapshot=True)
            if as_list and not code.fresh:
                return f"list({code.text})"
            return code.text
        name, clause, condition = self.ex.filtered(var, source, where, named)
        return f"[{name} for {clause} if {condition}]"

    def where_allowed(self, where: ast.Expr | None, action: ast.ActionRef | None) -> ast.Expr | None:
        """`where` and, for a choice `as action(...)`, that the action is allowed: one chain of
        `and`s, as `where ... and allowed ...` is written (nothing when nothing forbids it)."""
        if action is None or action.name.name not in self.gen.allowed:
            return where
        allowed = ast.Allowed(action.span, action.name, action.args)
        parts = (where.operands if isinstance(where, ast.BoolOp) and where.op == "and" else
                 (where,) if where is not None else ())
        return ast.BoolOp(action.span, "and", parts + (allowed,)) if parts else allowed

    def lower_PickRandom(self, stmt: ast.PickRandom, depth: int) -> None:
        self.add(ln.Assign(depth, target="picked_from", value=self.members(stmt.var, stmt.source, stmt.where)))
        if not stmt.skip:  # else skipping_pick tests the members first
            self.pick_from_members(stmt, depth)

    def pick_from_members(self, stmt: ast.PickRandom, depth: int) -> None:
        self.add(ln.Assign(depth, target=self.local(stmt.var.name),
                           value=f"{self.gen.ref('pick_random')}(state, picked_from, {self.loc(stmt)})"))
        self.bind(stmt.var.name)

    def lower_Shuffle(self, stmt: ast.Shuffle, depth: int) -> None:
        self.add(ln.Call(depth, code=f"{self.gen.ref('shuffle')}(state, {self.ex.zone_slot(stmt.zone).text})"))

    def lower_Reveal(self, stmt: ast.Reveal, depth: int) -> None:
        slot = self.ex.zone_slot(stmt.zone).text
        if not stmt.public:  # what the seats saw while it was revealed, they keep knowing
            self.add(ln.Call(depth, code=f"{self.gen.ref('conceal_zone')}(state, {slot})"))
            return
        self.add(ln.Assign(depth, target=f"state.revealed[{slot}]", value="True"))
        self.stamp(None, depth)

    def lower_Show(self, stmt: ast.Show, depth: int) -> None:
        to = "" if stmt.to is None else f", {self.ex.value(stmt.to)}"
        self.add(ln.Call(depth, code=f"{self.gen.ref('show_card')}(state, {self.ex.value(stmt.card)},"
                                     f" {self.ex.loc(stmt)}{to})"))
        if stmt.to is not None:  # what the player was shown stays in its log
            self.log_shown(stmt, depth)

    def log_shown(self, stmt: ast.Show, depth: int) -> None:
        card, player = self.ex.value(stmt.card), self.ex.value(stmt.to)
        self.add(ln.Call(depth, code=f"{self.gen.ref('log_shown')}(state, {card}, {player},"
                                     f" {self.gen.ref('ENTITY_LABELS')}[{card}],"
                                     f" {self.gen.ref('PLAYER_LABELS')}[{player}], {self.ex.loc(stmt)})"))

    def lower_CopyCounter(self, stmt: ast.CopyCounter, depth: int) -> None:
        counters = self.gen.model.counters
        src, dst = counters.get(stmt.source.name), counters.get(stmt.dest.name)
        if src is None or dst is None:
            self.error(depth, "copy needs two counters", stmt)
            return
        width = self.gen.players if src.per_player else 1
        self.add(ln.Copy(depth, pairs=[(dst.slot + k, src.slot + k) for k in range(width)]))
        self.stamp(stmt.dest.name, depth)

    def lower_ClearCounter(self, stmt: ast.ClearCounter, depth: int) -> None:
        counter = self.gen.model.counters.get(stmt.counter.name)
        if counter is None:
            self.error(depth, f"unknown counter '{stmt.counter.name}'", stmt)
            return
        width = self.gen.players if counter.per_player else 1
        self.add(ln.Clear(depth, slots=[counter.slot + k for k in range(width)],
                 size=len(self.gen.model.entities)))
        self.stamp(stmt.counter.name, depth)

    def lower_Activate(self, stmt: ast.Activate, depth: int) -> None:
        index = self._effect(stmt.effect, depth, stmt)
        if index is not None:
            lifetime = stmt.lifetime.name if stmt.lifetime else None
            self.add(ln.Call(depth, code=f"{self.gen.ref('activate')}(state, {index}, "
                                         f"[{', '.join(self.ex.args(stmt.args, kept=True))}], {lifetime!r})"))

    def lower_Cancel(self, stmt: ast.Cancel, depth: int) -> None:
        index = self._effect(stmt.effect, depth, stmt)
        if index is not None:
            args = "None" if stmt.args is None else f"[{', '.join(self.ex.args(stmt.args, kept=True))}]"
            self.add(ln.Call(depth, code=f"{self.gen.ref('cancel')}(state, {index}, {args})"))

    def _effect(self, effect: ast.Ident, depth: int, stmt: ast.Stmt) -> int | None:
        index = self.gen.model.effect_index.get(effect.name)
        if index is None:
            self.error(depth, f"unknown effect '{effect.name}'", stmt)
        return index

    def lower_Expire(self, stmt: ast.Expire, depth: int) -> None:
        self.add(ln.Call(depth, code=f"{self.gen.ref('expire')}(state, {stmt.lifetime.name!r})"))

    def lower_Win(self, stmt: ast.Win, depth: int) -> None:
        self.add(ln.Call(depth, code=f"{self.gen.ref('end_game')}(state, {self.ex.value(stmt.player)}, "
                                     f"{stmt.reason!r}, {self.loc(stmt)})"))

    def lower_Lose(self, stmt: ast.Lose, depth: int) -> None:
        losers = ", ".join(self.ex.value(p) for p in stmt.players)
        self.add(ln.Call(depth, code=f"{self.gen.ref('lose_game')}(state, ({losers},), "
                                     f"{stmt.reason!r}, {self.loc(stmt)})"))

    def lower_Log(self, stmt: ast.Log, depth: int) -> None:
        parts, named = self.shown(stmt.parts)
        secret = self.gen.player_labels.secret
        for i, part in enumerate(stmt.parts):
            if part in secret:  # read by the seats of these players only (runtime/logview.py)
                seats = "".join(f", {self.ex.value(ast.NameRef(part.span, name))}" for name in secret[part])
                parts[i] = f"{self.gen.ref('secret_part')}({parts[i]}{seats})"
                named.append(parts[i])
        if named or stmt.to is not None:  # kept as each reader saw it (runtime/logview.py)
            to = "" if stmt.to is None else f", {self.ex.value(stmt.to)}"
            self.add(ln.Call(depth, code=f"{self.gen.ref('log_seen')}(state, [{', '.join(parts)}],"
                                         f" {self.loc(stmt)}{to})"))
            return
        text = parts[0] if len(parts) == 1 else f"' '.join([{', '.join(parts)}])"
        self.add(ln.Call(depth, code=f"{self.gen.ref('log_line')}(state, {text}, {self.loc(stmt)})"))

    def shown(self, parts: tuple[ast.Expr, ...]) -> tuple[list[str], list[str]]:
        """The code of each part's text as a prompt or a `log` line writes it (as the
        interpreter's _shown): "(text, entity)" where it names an entity; and those entities."""
        found, texts, named = self.gen.player_labels, [], []
        for part in parts:
            if isinstance(part, ast.StrLit):
                texts.append(repr(part.value))
            elif isinstance(part, ast.IntLit):
                texts.append(repr(str(part.value)))
            elif part in found.logged:
                texts.append(self.ex.player_label(part, None).text)
            elif part in found.entities:
                value = self.ex.value(part)
                texts.append(f"({self.gen.ref('label_of')}({self.gen.ref('ENTITY_LABELS')}, {value}), {value})")
                named.append(value)
            elif isinstance(part, ast.Attr) and part.obj in found.entities:
                named.append(self.ex.value(part.obj))
                texts.append(f"({self.gen.ref('text_of')}({self.ex.value(part)}), {named[-1]})")
            else:
                texts.append(f"{self.gen.ref('text_of')}({self.ex.value(part)})")
        return texts, named

    def lower_CallStmt(self, stmt: ast.CallStmt, depth: int) -> None:
        decl = self.gen.model.procedures.get(stmt.name.name)
        if decl is None:
            self.error(depth, f"unknown procedure '{stmt.name.name}'", stmt)
            return
        routine = self.gen.by_key[f"procedure {stmt.name.name}"]
        args = self.ex.args(stmt.args, len(decl.params), kept=True)
        self.add(ln.Call(depth, code=f"{self.gen.ref(routine.plain_name)}({', '.join(['state'] + args)})"))

    def lower_Resolve(self, stmt: ast.Resolve, depth: int) -> None:
        self.add(ln.Call(depth, code=self._resolve(stmt)))

    def _resolve(self, stmt: ast.Resolve) -> str:
        card, player = self.ex.value(stmt.card), self.ex.value(stmt.player)
        if stmt.action and not self.gen.has_actions:
            return "pass  # no card has an action"
        helper = "resolve_action" if stmt.action else "resolve_event"
        return f"{self.gen.ref(helper)}(state, {card}, {player}, {self.loc(stmt)})"

    def lower_Emit(self, stmt: ast.Emit, depth: int) -> None:
        self.add(ln.Call(depth, code=self._emit(stmt)))

    def _emit(self, stmt: ast.Emit) -> str:
        name = self.gen.emits[stmt.signal.name]
        args = self.ex.args(stmt.args, self.gen.emit_arity[stmt.signal.name], kept=True)
        return f"{self.gen.ref(name)}({', '.join(['state'] + args)})"

    # ------------------------------------------------------------ structured statements
    def lower_If(self, stmt: ast.If, depth: int) -> None:
        runs = []
        for i, (test, block) in enumerate(stmt.branches):
            def run(i=i, test=test, block=block):
                self.add((ln.If if i == 0 else ln.Elif)(depth, test=self.ex.test(test)))
                self.nested(block.body, depth + 1)
            runs.append(run)
        if stmt.otherwise is not None:
            def otherwise():
                self.add(ln.Else(depth))
                self.nested(stmt.otherwise.body, depth + 1)
            runs.append(otherwise)
        else:
            runs.append(lambda: None)
        self.branches(runs)

    def lower_For(self, stmt: ast.For, depth: int) -> None:
        items = self.members(stmt.var, stmt.source, stmt.where, as_list=False)
        self.add(ln.For(depth, target=self.local(stmt.var.name), items=items))

        def body():
            self.bind(stmt.var.name)
            self.loops.append(None)
            self.nested(stmt.body.body, depth + 1)
            self.loops.pop()
        self.loop_body(body)

    def lower_Repeat(self, stmt: ast.Repeat, depth: int) -> None:
        self.add(ln.Repeat(depth, count=self.ex.value(stmt.count)))
        self._python_loop(stmt, depth)

    def lower_While(self, stmt: ast.While, depth: int) -> None:
        self.add(ln.While(depth, test=self.ex.test(stmt.test)))
        self._python_loop(stmt, depth)

    def _python_loop(self, stmt: ast.Repeat | ast.While, depth: int) -> None:
        def run():
            self.loops.append(None)
            self.tick(stmt, depth + 1)
            self.nested(stmt.body.body, depth + 1)
            self.loops.pop()
        self.loop_body(run)

    def tick(self, stmt: ast.Repeat | ast.While, depth: int) -> None:
        """Count a round of the loop against the budget between decisions (rulespec.runtime.state.tick)."""
        word = "while" if isinstance(stmt, ast.While) else "repeat"
        self.add(ln.Call(depth, code=f"{self.gen.ref('tick')}(state, {word!r}, {self.loc(stmt)})"))

    def lower_Break(self, stmt: ast.Break, depth: int) -> None:
        if not self.loops:  # the interpreter pops every cursor: the routine ends
            self.add(ln.Finish(depth) if self.resumable else ln.Return(depth))
        elif self.loops[-1] is None:
            self.add(ln.Break(depth))
        else:
            self.add(ln.Goto(depth, target=self.loops[-1]))

    def lower_Choose(self, stmt: ast.Choose, depth: int) -> None:
        raise InternalError(f"a choice in a routine that cannot suspend, at {stmt.span}")

    def lower_Menu(self, stmt: ast.Menu, depth: int) -> None:
        raise InternalError(f"a menu in a routine that cannot suspend, at {stmt.span}")

    # ------------------------------------------------------------ suspension points
    def suspend_Choose(self, stmt: ast.Choose, depth: int) -> None:
        player = self.ex.value(stmt.chooser)
        ready, self.offered = self.offered is stmt, None
        values = "values" if ready else self.members(stmt.var, stmt.source, stmt.where, stmt.action)
        if stmt.skip:  # no option: no decision, on past the rest of the block
            self.add(ln.Assign(0, target="player", value=player))  # first, as the interpreter does
            player = "player"
            if not ready:
                self.add(ln.Assign(0, target="values", value=values))
            self.add(ln.If(0, test="not values"))
            self.add(ln.Goto(1, target=self.skip_to))
            ready, values = True, "values"
        kind = option_kind(self.gen.model, stmt)
        ids, labels = {"int": (None, None), "player": ("PLAYER_IDS", "PLAYER_LABELS"),
                       "entity": ("ENTITY_IDS", "ENTITY_LABELS")}[kind]
        prompt, about = self.prompt(stmt)
        tables = "" if ids is None else f", {self.gen.ref(ids)}, {self.gen.ref(labels)}"
        after = ln.Label()
        self.add(ln.Choose(depth, player=player, values=values, prompt=prompt,
                 names=f"{self.gen.ref('option_names')}(values{tables})", at=self.loc(stmt),
                 ready=ready, about=about, forced=after if stmt.forced else None,
                 id_table="None" if ids is None else ids))
        self.gen.ref("ask")
        self.add(ln.Suspend(0, next=after))
        self.start(after)
        self.add(ln.Assign(0, target=self.local(stmt.var.name), value=self.ANSWER))
        self.bind(stmt.var.name)

    def prompt(self, stmt: ast.Choose | ast.Menu) -> tuple[str, str]:
        """The code of the prompt with the values it names filled in (as the interpreter's
        _prompt), and ", (the entities it names)" for `ask`, or nothing."""
        if isinstance(stmt, ast.Menu) and stmt.asked is not None:  # made when asked
            return f"{self.gen.ref('text_of')}({self.ex.value(stmt.asked)})", ""
        if not stmt.pieces:
            return repr(stmt.asking), ""
        texts, about = self.shown(stmt.shows)
        code = f"{self.gen.ref('fill_prompt')}({stmt.pieces!r}, [{', '.join(texts)}])"
        return code, f", ({', '.join(about)},)" if about else ""

    def suspend_Menu(self, stmt: ast.Menu, depth: int) -> None:
        options = [(i, self.ex.test(o.when) if o.when is not None else None)
                   for i, o in enumerate(stmt.options)]
        ids, labels = tuple(o.name.name for o in stmt.options), tuple(o.label for o in stmt.options)
        prompt, about = self.prompt(stmt)
        chosen = ln.Label()
        self.add(ln.Menu(depth, player=self.ex.value(stmt.chooser), options=options,
                 names=f"{self.gen.ref('option_names')}(offered, {ids!r}, {labels!r})",
                 prompt=prompt, at=self.loc(stmt), about=about, forced=chosen if stmt.forced else None,
                 id_table=repr(ids)))
        self.gen.ref("ask")
        self.add(ln.Suspend(0, next=chosen))
        self.start(chosen)
        self.add(ln.Assign(0, target="k", value=self.ANSWER))
        if not any(self.gen.suspension.block(o.body) for o in stmt.options):
            runs = []
            for i, option in enumerate(stmt.options):
                def run(i=i, option=option):
                    self.add((ln.If if i == 0 else ln.Elif)(0, test=f"k == {i}"))
                    self.nested(option.body.body, 1)
                runs.append(run)
            self.branches(runs)
            return
        labels = [ln.Label() for _ in stmt.options]
        after = ln.Label()
        self.add(ln.Dispatch(0, cases=[(f"k == {i}", label) for i, label in enumerate(labels)],
                 default=after))
        runs = []
        for option, label in zip(stmt.options, labels):
            def run(option=option, label=label):
                self.start(label)
                self.statements(option.body.body, 0)
                self.add(ln.Goto(0, target=after))
            runs.append(run)
        self.branches(runs)
        self.start(after)

    def suspend_CallStmt(self, stmt: ast.CallStmt, depth: int) -> None:
        routine = self.gen.by_key[f"procedure {stmt.name.name}"]
        args = self.ex.args(stmt.args, len(routine.params), kept=True)
        after = ln.Label()
        self.add(ln.Push(0, next=after, frame=self.new_frame(routine, args)))
        self.start(after)

    def new_frame(self, routine: Routine, args: list[str]) -> str:
        """The code of a new frame of `routine` given its arguments (the native engine's pushes it:
        machine/steps.py)."""
        return self.gen.frame(routine.step_id, args, routine.size - len(routine.params))

    def _push_for_value(self, call: ast.CallExpr, tail: bool = False) -> None:
        """Call a value procedure that may suspend: its value arrives in frame[3]."""
        routine = self.gen.by_key[f"procedure {call.name}"]
        args = self.ex.args(call.args, len(routine.params), kept=True)
        after = ln.Label()
        self.add(ln.Push(0, next=after, tail=tail, frame=self.new_frame(routine, args)))
        self.start(after)

    def suspend_Let(self, stmt: ast.Let, depth: int) -> None:
        self._push_for_value(stmt.value)
        self.add(ln.Assign(0, target=self.local(stmt.name.name), value=self.ANSWER))
        self.bind(stmt.name.name)

    def suspend_SetStmt(self, stmt: ast.SetStmt, depth: int) -> None:
        self._push_for_value(stmt.value)
        self.assign(stmt.target, "=", Code(self.ANSWER), 0, stmt, False)

    def suspend_Return(self, stmt: ast.Return, depth: int) -> None:
        self._push_for_value(stmt.value, tail=True)  # its value goes to this frame's caller

    def suspend_Resolve(self, stmt: ast.Resolve, depth: int) -> None:
        self._call_then(self._resolve(stmt))

    def suspend_Emit(self, stmt: ast.Emit, depth: int) -> None:
        self._call_then(self._emit(stmt))

    def _call_then(self, code: str) -> None:
        after = ln.Label()
        self.add(ln.CallThen(0, next=after, code=code))
        self.start(after)

    def suspend_If(self, stmt: ast.If, depth: int) -> None:
        first, block = stmt.branches[0]
        offered = self.offered_first(first, block)
        if offered is not None:
            self.add(ln.Assign(0, target="values", value=offered))
        tests = ["values" if offered is not None else self.ex.test(first)]
        tests += [self.ex.test(test) for test, _ in stmt.branches[1:]]
        labels = [ln.Label() for _ in stmt.branches]
        otherwise = ln.Label() if stmt.otherwise is not None else None
        after = ln.Label()
        self.add(ln.Dispatch(0, cases=list(zip(tests, labels)), default=otherwise or after))
        runs = []
        blocks = [b for _, b in stmt.branches] + ([stmt.otherwise] if otherwise else [])
        for block, label in zip(blocks, labels + ([otherwise] if otherwise else [])):
            def run(block=block, label=label):
                self.start(label)
                self.statements(block.body, 0)
                self.add(ln.Goto(0, target=after))
            runs.append(run)
        if otherwise is None:
            runs.append(lambda: None)
        self.branches(runs)
        self.start(after)

    def suspend_For(self, stmt: ast.For, depth: int) -> None:
        index = self.scope.hidden(stmt, 1)
        count, member = self.kept_members(stmt, self.scope.hidden(stmt, 0), index)
        self.add(ln.Assign(0, target=index, value="0"))
        head, after = ln.Label(), ln.Label()
        self.add(ln.Goto(0, target=head))
        self.start(head)
        self.add(ln.If(0, test=f"{index} >= {count}"))
        self.add(ln.Goto(1, target=after))
        self.add(ln.Assign(0, target=self.local(stmt.var.name), value=member))

        def body():
            self.bind(stmt.var.name)
            self.loops.append(after)
            self.statements(stmt.body.body, 0)
            self.loops.pop()
            self.add(ln.Assign(0, target=index, value=f"{index} + 1"))
            self.add(ln.Goto(0, target=head))
        self.loop_body(body)
        self.start(after)

    def kept_members(self, stmt: ast.For, items: str, index: str) -> tuple[str, str]:
        """A suspending loop's members kept in its frame's slot `items` (the lines that keep them
        added here): the code of how many there are and of the one at `index`."""
        self.add(ln.Assign(0, target=items, value=self.members(stmt.var, stmt.source, stmt.where)))
        return f"len({items})", f"{items}[{index}]"

    def suspend_Repeat(self, stmt: ast.Repeat, depth: int) -> None:
        count = self.scope.hidden(stmt, 0)
        self.add(ln.Assign(0, target=count, value=self.ex.value(stmt.count)))
        self._suspending_loop(stmt, f"{count} <= 0", ln.Assign(0, target=count, value=f"{count} - 1"))

    def suspend_While(self, stmt: ast.While, depth: int) -> None:
        offered = self.offered_first(stmt.test, stmt.body)
        if offered is not None:
            self._suspending_loop(stmt, "not values", None, ln.Assign(0, target="values", value=offered))
            return
        self._suspending_loop(stmt, f"not {self.ex.truth(stmt.test).at(P_NOT)}", None)

    def offered_first(self, test: ast.Expr, block: ast.Block) -> str | None:
        """The options of the choice a block opens with, when `test` asks whether there are
        any: `while any(x in S where P) { p chooses y in S where P ... }`. Then the list is
        made once, and the test is whether it is empty (the choice takes it as made: the
        same state, so the same options; the filter is pure, and the same Python text, so
        it fails, if at all, on the same option with the same error)."""
        if not (isinstance(test, ast.Quantifier) and test.kind == "any" and test.where is not None):
            return None
        lead = 0  # `set v to e` first (v a var the filter never reads, e pure): made before it
        while lead < len(block.body) and self._aside(block.body[lead], test.where):
            lead += 1
        choice = block.body[lead] if lead < len(block.body) else None
        if not (isinstance(choice, ast.Choose) and self.ex.is_simple(choice.chooser)):
            return None
        values = self.members(choice.var, choice.source, choice.where, choice.action)
        if self.members(test.var, test.source, test.where, named=choice.var) != values:
            return None
        self.offered = choice
        return values

    def _aside(self, stmt: ast.Stmt, where: ast.Expr) -> bool:
        """Whether `stmt` sets a var the filter `where` does not read (through defines,
        quantities, forbids: checks/termination.py's reads) to a value that cannot fail (names,
        literals, + - *): then the options are the same made before it or after it."""
        if not (isinstance(stmt, ast.SetStmt) and stmt.target.args is None):
            return False
        name = stmt.target.name.name
        if (name not in self.gen.model.var_index or self.scope.binding(name) is not None
                or self.scope.is_local(name) or not self._cannot_fail(stmt.value)):
            return False
        if self._reads is None:
            self._reads = RuleGraph(self.gen.model)
        return ("name", name) not in self._reads.reads(where)

    def _cannot_fail(self, node: ast.Expr) -> bool:
        """Literals and bound names joined by + - * (numbers, as the checker types them: a sum
        of ints fails on no state; nothing is read that the filter could change)."""
        if isinstance(node, ast.BinOp):
            return (node.op in ("+", "-", "*") and self._cannot_fail(node.left)
                    and self._cannot_fail(node.right))
        return (isinstance(node, ast.IntLit) or isinstance(node, ast.NameRef) and self.ex.is_simple(node)
                and (self.scope.binding(node.name) is not None or self.scope.is_local(node.name)))

    def _suspending_loop(self, stmt: ast.Repeat | ast.While, done: str, step: ln.Line | None,
                         first: ln.Line | None = None) -> None:
        """A loop in blocks: its head (after `first`) leaves once `done` holds, its body
        ends with `step`."""
        head, after = ln.Label(), ln.Label()
        self.add(ln.Goto(0, target=head))
        self.start(head)
        if first is not None:
            self.add(first)
        self.add(ln.If(0, test=done))
        self.add(ln.Goto(1, target=after))
        self.tick(stmt, 0)

        def body():
            self.loops.append(after)
            self.statements(stmt.body.body, 0)
            self.loops.pop()
            if step is not None:
                self.add(step)
            self.add(ln.Goto(0, target=head))
        self.loop_body(body)
        self.start(after)
