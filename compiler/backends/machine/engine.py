"""A game's native module as compiled (docs/NATIVE.md): its defines (defines.py), then its plain
procedures, which call them (procedures.py), then the steps of its frames (steps.py), each adding
the loops, entity constants and attribute tables it reads."""

from __future__ import annotations

from rulespec.compiler.backends.machine.defines import DefineCompiler, NativeDefines
from rulespec.compiler.backends.machine.evaluations import native_evaluations
from rulespec.compiler.backends.machine.layout import Layout, machine_layout
from rulespec.compiler.backends.machine.policies import native_policies
from rulespec.compiler.backends.machine.procedures import ProcedureCompiler
from rulespec.compiler.backends.machine.steps import native_steps
from rulespec.compiler.frontend.model import Model


def native_engine(model: Model, layout: Layout | None = None) -> NativeDefines:
    """Everything the native dialect compiles of a game, and what it refuses, with why."""
    compiler = DefineCompiler(model, layout or machine_layout(model))
    made = compiler.all()
    procedures = ProcedureCompiler(compiler)
    made.procedures = procedures.all()
    made.steps = native_steps(procedures)
    made.policies = native_policies(compiler)
    made.evaluations = native_evaluations(compiler)
    made.loops = list(compiler.dialect.loops.made.values())
    made.entities, made.tables = compiler.entity_constants(), compiler.tables()
    return made
