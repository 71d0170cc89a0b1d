"""Signals natively: `emit_<signal>` written from the same triggers as the generated package's
(codegen/view.py `ViewBuilder.emit`, given the native emitter and in-force test): each trigger on
the signal of the effects in play (their arguments C locals, effects.py) and of cards' abilities
in force, whose condition holds, runs; all conditions are tested before the first run, as in
Python. A signal whose triggers may suspend pushes their frames (the same steps as the generated
package's, steps.py lowers trigger routines) and gives whether it pushed any; otherwise each run
calls the trigger's plain routine, compiled here as a plain procedure is (procedures.py), through
one dispatch by number (templates/signals.pxi.j2).

An emit is refused, with the reason of its first trigger refused, when a plain trigger does not
compile; a procedure or step emitting it is then refused too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.codegen.view import AbilityGroup, EffectGroup
from rulespec.compiler.backends.machine.allowed import native_in_force
from rulespec.compiler.backends.machine.defines import Refused
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.backends.machine.effects import NativeView
from rulespec.compiler.backends.machine.frames import pushed_frame

# What the generated package's emit names that the native one writes itself: note_signal (the
# template counts a traced game's signals), UNBOUND and new_frame (the steps template's).
SIGNAL_NAMES = frozenset({"note_signal", "UNBOUND", "new_frame"})


@dataclass
class NativeEmit:
    """A compiled emit_<signal>: its C function, parameters and runs."""

    signal: str
    function: str
    params: list[str]  # C names, every one an int64_t: v_x0, v_x1, ...
    suspends: bool  # its triggers run as frames: it gives whether it pushed any
    effects: list[EffectGroup]
    abilities: list[AbilityGroup]
    width: int  # the most arguments of an effect it reads: the C locals c__arg0...
    cards: list[str]  # its parameters that are cards, and the first player one (or None): what a
    player: str | None  # traced game counts (runtime.state.note_signal)

    @property
    def arg_locals(self) -> list[str]:
        return [f"c__arg{i}" for i in range(self.width)]


class SignalCompiler:
    """Compiles each signal's emit and the plain routines of its triggers, for a
    ProcedureCompiler (procedures.py), which asks it about the names a body uses."""

    def __init__(self, procedures):
        self.procedures = procedures
        self.gen, self.model = procedures.gen, procedures.model
        self.done: dict[str, NativeEmit | Refused] = {}  # by the generated package's function name
        self.triggers: dict[str, object] = {}  # plain trigger routines (NativeProcedure | Refused), by function
        self.numbers: dict[str, int] = {}  # a plain trigger's number in the dispatch, by function

    def knows(self, name: str) -> bool:
        """Whether `name` is an emit that compiles natively (compiled when first asked)."""
        signal = next((s for s, f in self.gen.emits.items() if f == name), None)
        if signal is None:
            return False
        made = self.emit(signal)
        if isinstance(made, Refused):
            raise Unsupported(f"emits signal {signal}, which is not compiled natively ({made.root})")
        return True

    def compiled(self) -> tuple[list[NativeEmit], list]:
        """(the emits compiled, the plain triggers compiled, in dispatch order): every signal's
        emit is compiled first, so that the steps (compiled after) find them made."""
        for signal in self.gen.emits:
            self.emit(signal)
        emits = [e for e in self.done.values() if isinstance(e, NativeEmit)]
        plain = sorted((t for t in self.triggers.values() if not isinstance(t, Refused)),
                       key=lambda t: self.numbers[t.function])
        return emits, plain

    def trigger(self, routine):
        """A trigger's plain routine compiled as a plain procedure is, callees first."""
        function = routine.plain_name
        if function in self.triggers:
            return self.triggers[function]
        procedures, where = self.procedures, self.gen.loc(routine.body)
        for callee in procedures.callees(routine):
            made = procedures.compile(callee)
            if isinstance(made, Refused):
                self.triggers[function] = Refused(routine.label, where, f"calls procedure `{callee}`, which is"
                                                  " not compiled natively", made.root, "trigger")
                return self.triggers[function]
        try:
            self.triggers[function] = procedures.emitted(routine, routine.label)
            self.numbers[function] = len(self.numbers)
        except Unsupported as why:
            self.triggers[function] = Refused(routine.label, self.gen.loc(why.node or routine.body),
                                              why.reason, kind="trigger")
        return self.triggers[function]

    def emit(self, signal: str) -> NativeEmit | Refused:
        function = self.gen.emits[signal]
        if function in self.done:
            return self.done[function]
        gen = self.gen
        self.done[function] = Refused(signal, "", "emits itself, which the native engine does not do yet",
                                      kind="signal")  # until written: a trigger emitting it again
        suspends = gen.suspension.signal(signal)
        for key, routine in gen.by_key.items():
            if not key.startswith("trigger ") or routine.plain_name is None:
                continue
            effect, index = key.split()[1], int(key.split()[2])
            if self.model.effects[effect].triggers[index].signal.name != signal:
                continue
            made = self.trigger(routine)
            if isinstance(made, Refused):
                self.done[function] = replace(made, cause=made.root)
                return self.done[function]
        whens = [t.when for e in self.model.effects.values() for t in e.triggers
                 if t.signal.name == signal and t.when is not None]
        for call, made, words in self.procedures.defines.needs(whens):
            if isinstance(made, Refused):
                self.done[function] = Refused(signal, gen.loc(call), f"{words}, which is not compiled"
                                              f" natively ({made.root})", made.root, "signal")
                return self.done[function]
        params = [mangle("local", f"x{i}") for i in range(gen.emit_arity[signal])]
        before = set(gen.uses["rules"])
        gen.uses["rules"] = set()
        try:
            view = NativeView(self.model, gen).emit(signal, self.procedures.defines.emitter, native_in_force,
                                                    params, self.plain_run, self.framed_run)
            self.procedures.defines.check_names(gen.uses["rules"] - SIGNAL_NAMES, whens)
            self.done[function] = NativeEmit(signal, function, params, suspends, view["effects"],
                                             view["abilities"], self.procedures.defines.effect_width(view["effects"]),
                                             view["cards"], None if view["player"] == "None" else view["player"])
        except Unsupported as why:
            self.done[function] = Refused(signal, gen.loc(why.node) if why.node else "", why.reason,
                                          kind="signal")
        finally:
            gen.uses["rules"] |= before
        return self.done[function]

    def framed_run(self, routine, args: list[str]) -> str:
        """A run of a trigger of a signal that suspends: its frame pushed (frames.py), the emit
        turning the runs it pushed so that the first lies on top."""
        return pushed_frame(routine.step_id, args)

    def plain_run(self, routine, args: list[str]) -> str:
        """A run of a plain trigger natively: its number in the dispatch and its arguments."""
        return f"({self.numbers[routine.plain_name]}, [{', '.join(args)}])"
