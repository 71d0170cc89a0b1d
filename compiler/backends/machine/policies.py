"""The spec's policies natively (issue 41): each policy rule that answers some decision, written
from the same tiers as the generated package's (codegen/view.py's ViewBuilder.policy_rule, the one
home of what a rule's lines test) by the native emitter, as a C function over the machine state
that narrows the pending options tier by tier (templates/policies.pxi.j2), and its `never` lines
as one marking the options they forbid.

A decision's options reach a rule as C numbers: a `chooses` option as its index (a player, an
entity, an enum value's place, a number, a truth), a menu option as its name's number (NAMES):
the caller looks a menu option up in its site's names, since one rule may answer menus that
list their options in different orders. A tunable is the cell of its place among the owner
policy's tunables, read into a C local (v__tun0, ...) that the loops of its lines take like a
define's parameters (loops.py). A rule whose lines the dialect cannot write, or whose `prefer`
values are no numbers or truths, is refused with its line and why; the program asks the generated
package there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulespec.compiler.backends.codegen.view import ViewBuilder
from rulespec.compiler.backends.machine.defines import Refused
from rulespec.compiler.backends.machine.dialect import Unsupported
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.types import INT, PLAYER, Type, resolve_type

KIND = "policy rule"  # how a refusal names one: "policy rule `sensible 2` ..."
KEYS = ("int", "bool")  # what a `prefer` value may be natively (C compares them as Python does)


@dataclass
class NativeRule:
    """A compiled policy rule: its C function (the generated package's name for it), its tiers
    as the template writes them, and its `never` function if it has such lines."""

    ref: tuple[str, int]  # (owner policy, rule index)
    function: str
    menu: bool
    var: str  # a `chooses` rule's option, as the C local its lines read (v_c); "" for a menu
    tiers: list[dict[str, Any]]
    nevers: list[dict[str, Any]] | None
    never_function: str | None
    spec: str
    weights: int = 0  # the most weighted menu lines in one tier: the C locals holding their weights
    tunables: int = 0  # how many tunables the owner policy has: the C locals v__tun0.. reading them

    @property
    def name(self) -> str:
        return f"{self.ref[0]} {self.ref[1] + 1}"


@dataclass
class NativePolicies:
    """A game's policy rules natively, those refused with why, and what the module looks them up by."""

    rules: list[NativeRule]
    refused: list[Any]  # defines.Refused, kind KIND
    # policy -> decision location -> (rule's place in `rules`, its never's place or -1, the site's
    # option names' numbers for a menu or None, the owner's tunables by name); None: refused
    sites: dict[str, dict[str, tuple | None]]
    names: dict[str, int]  # every menu option name a rule or a site names, numbered
    card_vars: list[tuple[str, int]] = field(default_factory=list)  # (field, sentinel): a seat's view

    @property
    def tunables(self) -> int:
        """The most tunables a rule reads: the C array the module fills from a policy's values."""
        return max((len(site[3]) for table in self.sites.values() for site in table.values() if site),
                   default=0)

    def coverage(self) -> dict[str, Any]:
        return {"rules": len(self.rules) + len(self.refused), "compiled": [r.name for r in self.rules],
                "refused": [{"rule": r.name, "location": r.location, "reason": r.reason, "text": str(r)}
                            for r in self.refused]}


def name_test(option: str, names: tuple[str, ...], numbers: dict[str, int]) -> str:
    """Whether the option (a name's number in C local `option`) is one of `names`."""
    tests = [f"{option} == {numbers.setdefault(n, len(numbers))}" for n in names]
    return f"({' or '.join(tests)})" if tests else "False"


class PolicyCompiler:
    """Writes each used policy rule natively with a DefineCompiler's emitter (defines.py), the
    defines its lines call compiled first."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.model, self.gen = compiler.model, compiler.gen
        self.view = ViewBuilder(self.model, self.gen)
        self.names: dict[str, int] = {}

    def all(self) -> NativePolicies:
        model, gen = self.model, self.gen
        plan = gen.policy_plan
        made: dict[tuple[str, int], NativeRule | Refused] = {}
        for ref in plan.used_rules():
            rule = model.policies[ref[0]].rules[ref[1]]
            name = f"{ref[0]} {ref[1] + 1}"
            try:
                made[ref] = self.rule(ref, rule)
            except Unsupported as why:
                made[ref] = Refused(name, gen.loc(why.node or rule), why.reason, kind=KIND)
        rules = [r for r in made.values() if isinstance(r, NativeRule)]
        places = {r.ref: i for i, r in enumerate(rules)}
        nevers = [r.ref for r in rules if r.never_function]
        sites_by_at = {s.location: s for s in plan.sites}
        sites: dict[str, dict[str, tuple | None]] = {}
        for policy, answers in plan.answers.items():
            table = sites[policy] = {}
            for at, ref in sorted(answers.items()):
                if ref not in places:
                    table[at] = None
                    continue
                site = sites_by_at[at]
                options = (tuple(self.names.setdefault(o, len(self.names)) for o in site.options)
                           if site.is_menu else None)
                table[at] = (places[ref], nevers.index(ref) if ref in nevers else -1, options,
                             tuple(t.name.name for t in model.policy_tunables(ref[0])))
        return NativePolicies(rules, [r for r in made.values() if isinstance(r, Refused)], sites,
                              dict(self.names), self.card_vars())

    def card_vars(self) -> list[tuple[str, int]]:
        """The vars that hold a card (a policy bot reads them as none where its seat cannot see the
        card: runtime/policy.py's masked), as their fields and sentinels."""
        layout = self.compiler.layout
        found = []
        for name, decl in self.model.vars.items():
            if self.model.value_kind(decl.type.name) == "card":
                var = layout.field("var_" + name)
                found.append((var.name, var.none))
        return found

    def rule(self, ref: tuple[str, int], rule: ast.Node) -> NativeRule:
        compiler, gen = self.compiler, self.gen
        for call, made, words in compiler.needs(self.read(rule)):
            if isinstance(made, Refused):
                raise Unsupported(f"{words}, which is not compiled natively ({made.root})", call)
        self.check_keys(ref, rule)
        before = set(gen.uses["rules"])
        gen.uses["rules"] = set()
        try:
            view = self.view.policy_rule(gen.policy_rules[ref], ref, rule, compiler.emitter,
                                         lambda place, _: f"v__tun{place}")  # a local: loops take it
            compiler.check_names(gen.uses["rules"], self.read(rule))
        finally:
            gen.uses["rules"] |= before
        weights = 0
        if view["menu"]:
            for tier in view["tiers"]:
                tier["parts"] = [(name_test("o", names, self.names), weight, when)
                                 for names, weight, when in tier["parts"]]
                weights = max(weights, len(tier["parts"]) if tier["lines"] else 0)
            for line in view["nevers"] or ():
                line["test"] = name_test("o", line["options"], self.names)
        return NativeRule(ref, view["name"], view["menu"], view.get("var", ""), view["tiers"],
                          view["nevers"], view.get("never_name"), view["spec"], weights,
                          len(self.model.policy_tunables(ref[0])))

    @staticmethod
    def read(rule: ast.Node) -> list[ast.Expr]:
        """What a rule's lines evaluate: values, weights, `when`s."""
        found = []
        for p in rule.prefs:
            found += [e for e in (getattr(p, "value", None), p.weight.value if p.weight else None,
                                  getattr(p, "when", None)) if e is not None]
        return found

    def check_keys(self, ref: tuple[str, int], rule: ast.Node) -> None:
        """A `prefer` value or a weight that is no number or truth (a player, a card: none among
        them) compares in Python as no C number does: refused."""
        env: dict[str, Type] = {"you": PLAYER}
        env.update({t.name.name: INT for t in self.model.policy_tunables(ref[0])})
        if isinstance(rule, ast.ChoiceRule):
            env[rule.var.name] = resolve_type(self.model, rule.type.name, rule.type.optional)
        types = self.compiler.types
        for p in rule.prefs:
            parts = [p.weight.value] if p.weight else []
            if isinstance(rule, ast.ChoiceRule) and not p.never:
                parts.append(p.value)
            for part in parts:
                found = types.infer(part, env)
                if found.base not in KEYS or found.optional:
                    raise Unsupported(f"prefers by a {found}, which the native engine compares only as"
                                      " a number or a truth", part)


def native_policies(compiler) -> NativePolicies:
    """The policies of a game natively, `compiler` the DefineCompiler of its module (defines.py)."""
    return PolicyCompiler(compiler).all()

