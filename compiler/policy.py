"""Which rule of a policy answers which decision: one plan for both back ends.

A decision is a `chooses` or a menu of the spec (a site), named at run time
by its location (`pending["at"]`). A policy's rules are tried in order - its
own, then those of the policy it extends - and the first whose pattern fits
the site answers it: `choosing x: T [as action] ["prompt"]` fits a `chooses`
whose options are of type T (with that action and that prompt, when given),
`choosing "prompt"` a menu asking that prompt. A site no rule fits leaves
every option equal (the policy bot picks among them at random).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ast
from .checks.policies import Site, decision_sites, fits, rule_chain
from .model import Model


@dataclass(frozen=True)
class PolicyPlan:
    """For every policy, the rule answering each site (by location); rules named by declaring policy."""

    sites: tuple[Site, ...]
    answers: dict[str, dict[str, tuple[str, int]]]  # policy -> location -> (owner policy, rule index)

    def rule(self, model: Model, policy: str, at: str) -> ast.Node | None:
        found = self.answers.get(policy, {}).get(at)
        if found is None:
            return None
        owner, index = found
        return model.policies[owner].rules[index]

    def used_rules(self) -> list[tuple[str, int]]:
        """Every (owner policy, rule index) that answers some site, in a stable order."""
        used = {ref for table in self.answers.values() for ref in table.values()}
        return sorted(used)


def plan_policies(model: Model) -> PolicyPlan:
    sites = tuple(decision_sites(model))
    answers: dict[str, dict[str, tuple[str, int]]] = {}
    for name in model.policies:
        chain = rule_chain(model, name)
        table: dict[str, tuple[str, int]] = {}
        for site in sites:
            for owner, index, rule in chain:
                if fits(model, rule, site):
                    table[site.location] = (owner, index)
                    break
        answers[name] = table
    return PolicyPlan(sites, answers)


class PolicyRunner:
    """The interpreter's policies: the pending options each likes best, tier by tier."""

    def __init__(self, model: Model, evaluator):
        self.model = model
        self.ev = evaluator
        self.plan = plan_policies(model)

    def prefer(self, state, policy: str) -> list[int]:
        """Indices of the pending options the policy likes best (all when no rule answers)."""
        pending = state.pending
        best = list(range(len(pending["ids"])))
        rule = self.plan.rule(self.model, policy, pending["at"])
        if isinstance(rule, ast.ChoiceRule):
            return self._choice(state, pending, rule, best)
        if isinstance(rule, ast.MenuRule):
            return self._menu(state, pending, rule, best)
        return best

    def _choice(self, state, pending, rule: ast.ChoiceRule, best: list[int]) -> list[int]:
        env = {"you": pending["player"]}
        values = pending["values"]
        for pref in rule.prefs:
            keys = []
            for i in best:
                env[rule.var.name] = values[i]
                keys.append(self.ev.value(state, env, pref.value))
            best = _keep_best(best, keys, pref.avoid)
            if len(best) == 1:
                break
        return best

    def _menu(self, state, pending, rule: ast.MenuRule, best: list[int]) -> list[int]:
        env = {"you": pending["player"]}
        ids = pending["ids"]
        for pref in rule.prefs:
            if pref.when is not None and not self.ev.truth(state, env, pref.when):
                continue
            names = {o.name for o in pref.options}
            best = _keep_best(best, [ids[i] in names for i in best], pref.avoid)
            if len(best) == 1:
                break
        return best


def _keep_best(best: list[int], keys: list, avoid: bool) -> list[int]:
    """The options of the highest key (the lowest, for `avoid`)."""
    top = min(keys) if avoid else max(keys)
    return [i for i, k in zip(best, keys) if k == top]
