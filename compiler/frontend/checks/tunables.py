"""A policy's tunables: each has a range that holds its default, a name of its own, and a reader.

`rulespec tune` searches every tunable of a policy within its range, so the
range must be there and sane; a name is local to the policy (and to those
that extend it), so it may neither hide a global nor be declared twice along
one chain; and a tunable nothing reads would be tuned for nothing.
"""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.symbols import RESERVED, Globals


def check_tunables(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    if not model.policies:
        return []
    problems: list[Diagnostic] = []
    globals_ = Globals(model)
    read = _names_read(model)
    for decl in model.policies.values():
        for tunable in decl.declared_tunables():
            problems += _range(tunable)
            clash = _name(model, globals_, decl, tunable)
            problems += clash
            if not clash and tunable.name.name not in read.get(id(decl), set()):
                problems.append(Diagnostic(
                    f"tunable '{tunable.name.name}' is never read: use it in a rule of policy"
                    f" '{decl.name.name}' (or of one that extends it), or remove it",
                    tunable.name.span))
    return problems


def _range(tunable: ast.Tunable) -> list[Diagnostic]:
    name, default = tunable.name.name, tunable.default.value
    if tunable.low is None or tunable.high is None:
        return [Diagnostic(f"tunable '{name}' needs the range `rulespec tune` searches:"
                           f" write `{name} = {default} in LOW..HIGH`", tunable.span)]
    low, high = tunable.low.value, tunable.high.value
    if low >= high:
        what = "holds one value: nothing to tune" if low == high else "is empty"
        return [Diagnostic(f"the range {low}..{high} of tunable '{name}' {what}", tunable.low.span)]
    if not low <= default <= high:
        return [Diagnostic(f"tunable '{name}' = {default} is outside its range {low}..{high}",
                           tunable.default.span)]
    return []


def _name(model: Model, globals_: Globals, decl: ast.PolicyDecl, tunable: ast.Tunable) -> list[Diagnostic]:
    name = tunable.name.name
    what = globals_.describe(name) or ("a builtin" if name in RESERVED else None)
    if name in model.players or name in model.entity_index:
        what = what or "a declared name"
    if what is not None or name == "you":
        return [Diagnostic(f"'{name}' is already {what or 'the deciding player'}; choose another"
                           f" name for this tunable", tunable.name.span)]
    for other in model.policy_chain(decl.name.name):
        for earlier in other.declared_tunables():
            if earlier is tunable:
                break
            if earlier.name.name == name:
                where = "" if other is decl else f" in policy '{other.name.name}'"
                return [Diagnostic(f"tunable '{name}' is declared twice{where} (first at"
                                   f" {earlier.span})", tunable.name.span)]
    return []


def _names_read(model: Model) -> dict[int, set[str]]:
    """Per declaring policy (by identity), the names its own rules and those of every policy
    extending it read: a base's tunable counts as read when a rule down its chain reads it."""
    read: dict[int, set[str]] = {}
    for decl in model.policies.values():
        names = {n.name for rule in decl.rules for n in rule.find_all(ast.NameRef)}
        for base in model.policy_chain(decl.name.name):
            read.setdefault(id(base), set()).update(names)
    return read
