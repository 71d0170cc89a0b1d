"""The native step functions (docs/NATIVE.md, stages 3-4): each routine that may suspend (a choice,
a menu, a call of one that waits) lowered by the one Lowerer into the same numbered blocks as the
generated package's step function, in the Cython dialect; the wrappers that run a plain procedure
in a frame; and the loop that runs the frames until a decision is pending (templates/
steps.pxi.j2).

A frame is the generated package's `[step, pc, locals, answer]`, with the same step ids and the
same block numbers (one lowering), so a frame goes from one engine to the other by converting its
values only: natively a local is a C `int64_t` while the step runs, loaded from the frame's list
when it starts and stored back before it returns; none is NONE and an unbound local UNBOUND (a
sentinel no value takes). A suspending loop's members stay a Python list in the frame.

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


@dataclass
class NativeSteps:
    """A game's steps as the native engine holds them, and the ids its options take."""

    player_ids: str  # a Python tuple's text
    entity_ids: str
    compiled: list[NativeStep] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    start: tuple[int, int] | None = None  # (step, frame size) of the `start` block

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

    def __init__(self, compiler: ProcedureCompiler, routine: Routine):
        super().__init__(compiler, routine)
        self.resumable = True

    def offered_first(self, test: ast.Expr, block: ast.Block) -> str | None:
        """The options are made again at the choice (the same state, so the same options): the
        list made for the test is not carried over natively."""
        return None

    def members(self, var: ast.Ident, source: ast.Expr, where: ast.Expr | None,
                action: ast.ActionRef | None = None, as_list: bool = True,
                named: ast.Ident | None = None) -> str:
        """The members as a Python list (a choice's options, a suspending loop's items), made at
        the top level of a block, where every suspension point lies."""
        buffer, count = self.made_members(var, source, self.where_allowed(where, action), 0)
        return f"list_of({buffer}, {count})"


class StepCompiler:
    """Compiles every step of a game's frames natively, or says why not."""

    def __init__(self, procedures: ProcedureCompiler):
        self.procedures = procedures
        self.gen = procedures.gen
        self.model = procedures.model

    def all(self) -> NativeSteps:
        out = NativeSteps(repr(tuple(self.model.players)),
                          repr(tuple(e.name.name for e in self.model.entities)))
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
            return NativeStep(step_id, function, routine.label, wraps=made)
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
        return NativeStep(step_id, function, routine.label, gen.where(routine.span),
                          list(dict.fromkeys(locals_)), slots, lowerer.buffers,
                          [(b.label.number, render_lines(b.lines, save)) for b in blocks])


# The names a step's code uses that the steps template writes (templates/steps.pxi.j2).
STEP_NAMES = frozenset({"ask", "option_names", "new_frame", "UNBOUND", "fill_prompt", "PLAYER_IDS",
                        "ENTITY_IDS"})


def native_steps(procedures: ProcedureCompiler) -> NativeSteps:
    return StepCompiler(procedures).all()
