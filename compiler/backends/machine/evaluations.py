"""The spec's `bot` evaluations natively (issue 41): each written from the same expression as the
generated package's (codegen/view.py's ViewBuilder.bot, `you` the C local v_you) by the native
emitter, as a C function of the machine state giving a whole number (templates/
evaluations.pxi.j2). The search bots score the leaves of their playouts with them, so a rollout
that ends in C is scored in C too, its position never unpacked.

An evaluation whose expression the dialect cannot write, or that gives no whole number, is
refused with its spec location and why; the program asks the generated package there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.compiler.backends.machine.defines import Refused
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.frontend.checks.types import PLAYER

KIND = "bot evaluation"  # how a refusal names one: "bot evaluation `positional` ..."


@dataclass
class NativeEvaluation:
    """A compiled evaluation: its name, C function and body (`v_you` the seat it scores for)."""

    name: str
    function: str
    body: str
    spec: str


@dataclass
class NativeEvaluations:
    """A game's evaluations natively, and those refused with why."""

    compiled: list[NativeEvaluation]
    refused: list[Refused]

    def coverage(self) -> dict[str, Any]:
        return {"evaluations": len(self.compiled) + len(self.refused),
                "compiled": [e.name for e in self.compiled],
                "refused": [{"evaluation": r.name, "location": r.location, "reason": r.reason,
                             "text": str(r)} for r in self.refused]}


def native_evaluations(compiler) -> NativeEvaluations:
    """Each `bot` of the spec compiled by `compiler` (the module's DefineCompiler, defines.py),
    the defines, checks and quantities it reads first."""
    model, gen = compiler.model, compiler.gen
    compiled, refused = [], []
    for name, decl in model.bots.items():
        try:
            compiled.append(_evaluation(compiler, name, decl))
        except Unsupported as why:
            refused.append(Refused(name, gen.loc(why.node or decl), why.reason, kind=KIND))
    return NativeEvaluations(compiled, refused)


def _evaluation(compiler, name: str, decl) -> NativeEvaluation:
    gen = compiler.gen
    for call, made, words in compiler.needs([decl.value]):
        if isinstance(made, Refused):
            raise Unsupported(f"{words}, which is not compiled natively ({made.root})", call)
    gives = compiler.types.infer(decl.value, {"you": PLAYER})
    if gives.base != "int" or gives.optional:
        raise Unsupported(f"gives a {gives}, which the native engine scores only as a whole number",
                          decl.value)
    before = set(gen.uses["rules"])
    gen.uses["rules"] = set()
    try:
        body = compiler.emitter([("you", "v_you", False)]).value(decl.value)
        compiler.check_names(gen.uses["rules"], decl.value)
    finally:
        gen.uses["rules"] |= before
    return NativeEvaluation(name, gen.bots[name], body, gen.where(decl))
