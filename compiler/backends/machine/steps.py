"""The native step functions (docs/NATIVE.md, stages 3-4): each routine that may suspend (a choice,
a menu, a call of one that waits) lowered by the one Lowerer into the same numbered blocks as the
generated package's step function, in the Cython dialect; the wrappers that run a plain procedure
in a frame; and the loop that runs the frames until a decision is pending (templates/
steps.pxi.j2, frames.pxi.j2).

A frame is a `Frame` struct over the Machine's slots (frames.py), with the generated package's
step ids and block numbers (one lowering): while a step runs its locals are C `int64_t`s, loaded
from its slots when it starts and stored back before it returns; none is NONE and an unbound
local UNBOUND (a sentinel no value takes). A suspending loop's members lie in its frame after the
locals (its slot holds their count). A choice's options are made into the pending decision's
array, and each place a decision is asked is a numbered site. At the crossing a frame is the
generated package's list `[step, pc, locals, answer]` (a suspending loop's members a list).

A game runs natively only when every step compiles (`NativeSteps.refused` empty): else the first
refusal is its note, and the game runs on the Python engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulespec.compiler.backends.codegen import lines as ln
from rulespec.compiler.backends.codegen.analysis import Routine
from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.machine.defines import Refused
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.backends.machine.frames import FRAME_ROOM, SLOT_ROOM, pushed_frame
from rulespec.compiler.backends.machine.procedures import (NativeLowerer, NativeProcedure, ProcedureCompiler,
                                                           render_lines)
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import InternalError

SAVE = "SAVE_LOCALS"  # where the statements template stores the locals back (before a return)


@dataclass
class NativeStep:
    """A step of the frames: a lowered routine (`blocks`), a plain procedure's wrapper
    (`wraps`), or the end of an event (`event_done`)."""

    step_id: int
    function: str
    name: str  # what it runs, in words
    spec: str = ""
    locals: list[str] = field(default_factory=list)  # its int64_t locals and temporaries
    slots: list[tuple[str, int]] = field(default_factory=list)  # (C local, frame slot) loaded and saved
    buffers: list[tuple[str, int]] = field(default_factory=list)
    blocks: list[tuple[int, str]] = field(default_factory=list)  # (pc, Cython body)
    wraps: NativeProcedure | None = None
    event_done: bool = False
    size: int = 0  # its frame's slots: the generated package's locals, then members kept
    locals_size: int = 0  # the generated package's locals alone (the crossing's list)
    kept: list[tuple[int, int]] = field(default_factory=list)  # (slot, where its members start)


@dataclass
class NativeSteps:
    """A game's steps as the native engine holds them, and the ids its options take."""

    player_ids: str  # a Python tuple's text
    entity_ids: str
    compiled: list[NativeStep] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    start: tuple[int, int] | None = None  # (step, frame size) of the `start` block
    sites: list[tuple[str, str]] = field(default_factory=list)  # by number: (location, ids table), as code
    option_room: int = 1  # the options of one decision at most
    arity: int = 2  # the arguments a frame is pushed with, at most (an event's: you, this)
    frame_room: int = FRAME_ROOM
    slot_room: int = SLOT_ROOM

    @property
    def runnable(self) -> list[NativeStep]:
        """The steps the module holds: all of them, or none while one is refused (the game then
        runs on the Python engine, and its module need not carry the others)."""
        return [] if self.refused else self.compiled

    @property
    def note(self) -> str:
        """Why the game does not run natively, in one line (the first refusal)."""
        if self.refused:
            return str(self.refused[0])
        return "" if self.start is not None else "the spec has no `start` block"


class StepLowerer(NativeLowerer):
    """The native Lowerer for a routine that may suspend: blocks joined by jumps, as the
    generated package's step function, its locals C values while the step runs."""

    ANSWER = "frame.answer"

    def __init__(self, compiler: ProcedureCompiler, routine: Routine):
        super().__init__(compiler, routine)
        self.resumable = True
        self.size = routine.size  # the frame's slots: members kept go after the locals
        self.kept: list[tuple[int, int]] = []
        self.option_room = 1

    def offered_first(self, test: ast.Expr, block: ast.Block) -> str | None:
        """The options are made again at the choice (the same state, so the same options): the
        list made for the test is not carried over natively."""
        return None

    def members(self, var: ast.Ident, source: ast.Expr, where: ast.Expr | None,
                action: ast.ActionRef | None = None, as_list: bool = True,
                named: ast.Ident | None = None) -> str:
        """A choice's options, made at the top level of a block (where every suspension point
        lies) into the pending decision's array: the code of how many there are."""
        buffer, count = self.made_members(var, source, self.where_allowed(where, action), 0)
        self.option_room = max(self.option_room, dict(self.buffers)[buffer])
        return f"take_options(state, {buffer}, {count})"

    def kept_members(self, stmt: ast.For, items: str, index: str) -> tuple[str, str]:
        """The members kept in the frame after its locals, their count in the loop's slot."""
        buffer, count = self.made_members(stmt.var, stmt.source, stmt.where, 0)
        start = self.size
        self.size += dict(self.buffers)[buffer]
        self.kept.append((self.routine.hidden[id(stmt)], start))
        self.add(ln.Call(0, code=f"memcpy(L + {start}, {buffer}, {count} * sizeof(int64_t))"))
        self.add(ln.Assign(0, target=items, value=count))
        return items, f"L[{start} + {index}]"

    def new_frame(self, routine: Routine, args: list[str]) -> str:
        """A push of the frame (a tail call's Push pops this frame first: statements.pxi.j2)."""
        return pushed_frame(routine.step_id, args)


class StepCompiler:
    """Compiles every step of a game's frames natively, or says why not."""

    def __init__(self, procedures: ProcedureCompiler):
        self.procedures = procedures
        self.gen = procedures.gen
        self.model = procedures.model

    def all(self) -> NativeSteps:
        out = NativeSteps(repr(tuple(self.model.players)),
                          repr(tuple(e.name.name for e in self.model.entities)))
        self.out = out
        for step_id, (function, routine) in enumerate(self.gen.steps):
            try:
                out.compiled.append(self.step(step_id, function, routine))
            except Unsupported as why:
                where = routine.body if routine is not None else None
                node = why.node or where
                out.refused.append(Refused(routine.label if routine else function,
                                           self.gen.loc(node) if node is not None else "", why.reason,
                                           kind="step of"))
        start = next((r for r in self.gen.routines if r.kind == "start"), None)
        if start is not None and start.step_id is not None:
            out.start = (start.step_id, start.size)
        out.arity = max([2] + [len(r.params) for r in self.gen.routines])
        out.slot_room = max(SLOT_ROOM, 4 * max([s.size for s in out.compiled] + [0]))
        return out

    def step(self, step_id: int, function: str, routine: Routine | None) -> NativeStep:
        if routine is None:
            return NativeStep(step_id, function, "the end of an event", event_done=True)
        if routine.plain_name is not None:  # a wrapper: a plain procedure run in a frame
            name = routine.key.removeprefix("procedure ")
            made = self.procedures.compile(name) if name in self.model.procedures else None
            if routine.key.startswith("trigger "):  # a plain trigger of a signal that suspends (signals.py)
                made = self.procedures.signals.trigger(routine)
            if not isinstance(made, NativeProcedure):
                raise Unsupported(f"runs {routine.label}, which is not compiled natively"
                                  + (f" ({made.root})" if made is not None else ""))
            return NativeStep(step_id, function, routine.label, wraps=made, size=len(made.params),
                              locals_size=len(made.params))
        if routine.kind not in ("procedure", "start", "event", "action", "trigger"):
            raise Unsupported(f"is {routine.label}, a kind of routine the native engine does not run yet")
        return self.lowered(step_id, function, routine)

    def lowered(self, step_id: int, function: str, routine: Routine) -> NativeStep:
        gen = self.gen
        for callee in self.procedures.callees(routine):
            made = self.procedures.compile(callee) if gen.by_key[f"procedure {callee}"].plain_name else None
            if isinstance(made, Refused):
                raise Unsupported(f"calls procedure `{callee}`, which is not compiled natively ({made.root})")
        before = set(gen.uses["rules"])
        gen.uses["rules"] = set()
        try:
            lowerer = StepLowerer(self.procedures, routine)
            try:
                blocks = lowerer.lower()
            except InternalError as why:
                raise Unsupported(f"has a statement the native engine cannot write yet ({why})") from why
            self.procedures.check_names(gen.uses["rules"] - STEP_NAMES, routine)
        finally:
            gen.uses["rules"] |= before
        slots = [(mangle("local", n), i) for n, i in routine.slots.items()]
        locals_ = [name for name, _ in slots] + lowerer.temps
        save = "\n".join(f"L[{i}] = {name}" for name, i in slots) or "pass"
        for line in (line for b in blocks for line in b.lines if isinstance(line, (ln.Choose, ln.Menu))):
            self.asked_at(line)
        self.out.option_room = max(self.out.option_room, lowerer.option_room)
        return NativeStep(step_id, function, routine.label, gen.where(routine.span),
                          list(dict.fromkeys(locals_)), slots, lowerer.buffers,
                          [(b.label.number, render_lines(b.lines, save)) for b in blocks],
                          size=lowerer.size, locals_size=routine.size, kept=lowerer.kept)

    def asked_at(self, line: ln.Choose | ln.Menu) -> None:
        """A decision's site numbered (its location and the ids of its options), and its options'
        names made from the list the loud branch makes of the pending decision (`offered`)."""
        line.site = len(self.out.sites)
        self.out.sites.append((line.at, line.id_table))
        if isinstance(line, ln.Choose):
            head = "option_names(values"
            if not line.names.startswith(head):
                raise InternalError(f"a choice's names are not made from its values: {line.names}")
            line.names = "option_names(offered" + line.names[len(head):]
        else:
            self.out.option_room = max(self.out.option_room, len(line.options))


# The names a step's code uses that the steps template writes (templates/steps.pxi.j2).
STEP_NAMES = frozenset({"ask", "option_names", "new_frame", "UNBOUND", "fill_prompt", "PLAYER_IDS",
                        "ENTITY_IDS"})


def native_steps(procedures: ProcedureCompiler) -> NativeSteps:
    return StepCompiler(procedures).all()
