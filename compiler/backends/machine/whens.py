"""Cards' `when`s natively (docs/NATIVE.md, stage 3): each card's `event when` and `action when`
written by the native emitter as a C function of the machine state, `you` and `this`
(templates/procedures.pxi.j2), the generated package's EVENT_WHEN and ACTION_WHEN, in tables of
the same names by card. Whether a card's event or action may be played (`event_allowed`,
`action_allowed`) reads them, in defines, checks and statements alike (defines.py's check_names
asks here), and resolve_event/resolve_action test them (procedures.py).

The `when`s of one kind compile together or not at all: a `when` refused refuses every rule
asking about that kind, with its location and reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.frontend import ast

# The generated package's names of these tables and helpers, by the kind of card routine they ask about.
CARD_CHECKS = {"event_allowed": "event", "EVENT_WHEN": "event", "action_allowed": "action",
               "ACTION_CARDS": "action", "ACTION_WHEN": "action"}


@dataclass
class NativeWhen:
    """A card's `event when` or `action when` as a C function of the state, `you` and `this`."""

    index: int  # the card's
    function: str  # the generated package's name for it
    test: str
    spec: str


@dataclass
class CardWhens:
    """The `when`s of the cards' events (or actions): the module's table EVENT_WHEN (ACTION_WHEN)."""

    kind: str  # event or action
    whens: list[NativeWhen] = field(default_factory=list)

    @property
    def table(self) -> str:
        return f"{self.kind.upper()}_WHEN"


def card_whens(compiler, kind: str) -> CardWhens | str:
    """The `when`s of every card's `kind` routine compiled natively by `compiler` (a
    DefineCompiler, which keeps them: compiled once), or why not, in words."""
    made = compiler.card_whens.get(kind)
    if made is not None:
        return made
    compiler.card_whens[kind] = (f"asks whether a card's {kind} may be played while the conditions of"
                                 f" cards' {kind}s compile, which the native engine does not do yet")
    compiler.card_whens[kind] = _compiled(compiler, kind)
    return compiler.card_whens[kind]


def _compiled(compiler, kind: str) -> CardWhens | str:
    gen, model = compiler.gen, compiler.model
    made = CardWhens(kind)
    for index, function in (gen.action_whens if kind == "action" else gen.event_whens).items():
        block = model.action_of(index) if kind == "action" else model.event_of(index)
        try:
            for _ in compiler.needs([block.when]):  # the rules it calls, compiled first
                pass  # (check_names refuses one that is not)
            made.whens.append(NativeWhen(index, function, _test(compiler, block.when), gen.where(block)))
        except Unsupported as why:
            return (f"asks whether a card's {kind} may be played, and the condition of the {kind} of"
                    f" {model.entities[index].name.name} at {gen.loc(why.node or block)} {why.reason}")
    return made


def _test(compiler, when: ast.Expr) -> str:
    """A `when` as the native emitter tests it, `you` and `this` its C arguments."""
    gen = compiler.gen
    before = set(gen.uses["rules"])
    gen.uses["rules"] = set()
    try:
        test = compiler.emitter([("you", "v_you", False), ("this", "v_this", True)]).test(when)
        compiler.check_names(gen.uses["rules"], when)
    finally:
        gen.uses["rules"] |= before
    return test
