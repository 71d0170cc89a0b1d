"""Cards' events and actions natively (docs/NATIVE.md, stage 3): `resolve` as the generated
package's resolve_event and resolve_action (templates/procedures.pxi.j2): each card's plain
routine compiled as a plain procedure is (procedures.py), a suspending one a step of the frames
(steps.py), their `when`s (whens.py). `resolve` compiles natively when every card's plain
routine of its kind and every `when` of them compile; else a statement resolving a card is
refused, naming the first that does not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulespec.compiler.backends.codegen.analysis import Routine
from rulespec.compiler.backends.machine.defines import Refused
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.backends.machine.whens import card_whens

RESOLVES = ("resolve_event", "resolve_action")  # the generated package's names, which the module writes


@dataclass
class NativeResolve:
    """resolve_event or resolve_action natively: each card's routine, a plain one's C function or
    a suspending one's step and frame size (their `when`s: whens.py)."""

    helper: str  # resolve_event or resolve_action
    table: str  # EVENT or ACTION: the module's tables of them are EVENT_WHEN, EVENT_PLAIN, ...
    plain: list[tuple[int, str]] = field(default_factory=list)  # (card, C function)
    steps: list[tuple[int, int, int]] = field(default_factory=list)  # (card, step id, size - 2)


class CardCompiler:
    """The cards' routines and `resolve` for a ProcedureCompiler (procedures.py)."""

    def __init__(self, procedures):
        self.procedures = procedures
        self.gen = procedures.gen
        self.routines: dict[str, object] = {}  # cards' plain routines compiled or Refused, by function
        self.resolved: dict[str, NativeResolve] = {}  # resolve_event, resolve_action: when written
        self.refused: dict[str, str] = {}  # and why not, when not (kept when compiling again)
        self.resolving: set[str] = set()

    def again(self) -> None:
        """Forgets what compiled, keeping what was refused (ProcedureCompiler.all compiles again)."""
        self.routines, self.resolved = {}, {}

    def refusal(self, helper: str) -> str | None:
        """Why `helper` is not written natively, or None (a routine resolving cards while they
        compile is taken to compile: ProcedureCompiler.all tries again if not)."""
        if helper in self.refused:
            return self.refused[helper]
        if helper in self.resolved or helper in self.resolving:
            return None
        kind = "action" if helper == "resolve_action" else "event"
        gen = self.gen
        made = NativeResolve(helper, kind.upper())
        self.resolving.add(helper)
        try:
            for index in sorted(gen.suspension.actions if kind == "action" else gen.suspension.events):
                routine = gen.action_routine(index) if kind == "action" else gen.event_routine(index)
                if routine.plain_name is None:
                    made.steps.append((index, routine.step_id, routine.size - 2))
                    continue
                card = self.compile(routine)
                if isinstance(card, Refused):
                    self.refused[helper] = (f"resolves a card's {kind}, and {routine.label} is not"
                                            f" compiled natively ({card.root})")
                    return self.refused[helper]
                made.plain.append((index, card.function))
            whens = card_whens(self.procedures.defines, kind)
            if isinstance(whens, str):
                self.refused[helper] = f"resolves a card's {kind}: {whens}"
                return self.refused[helper]
        finally:
            self.resolving.discard(helper)
        self.resolved[helper] = made
        return None

    def compile(self, routine: Routine):
        """A card's plain event or action (one routine for every copy of a card), compiled as a
        plain procedure (a NativeProcedure), or Refused."""
        if routine.plain_name in self.routines:
            return self.routines[routine.plain_name]
        procedures = self.procedures
        name, where = routine.label.split(" of ", 1)[1], self.gen.loc(routine.body)
        for callee in procedures.callees(routine):
            made = procedures.compile(callee)
            if isinstance(made, Refused):
                self.routines[routine.plain_name] = Refused(name, where, f"calls procedure `{callee}`, which"
                                                            " is not compiled natively", made.root,
                                                            f"{routine.kind} of")
                return self.routines[routine.plain_name]
        try:
            self.routines[routine.plain_name] = procedures.emitted(routine, name)
        except Unsupported as why:
            self.routines[routine.plain_name] = Refused(name, self.gen.loc(why.node or routine.body), why.reason,
                                                        kind=f"{routine.kind} of")
        return self.routines[routine.plain_name]
