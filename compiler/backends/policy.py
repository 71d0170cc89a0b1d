"""Which rule of a policy answers which decision: one plan for both back ends.

A decision is a `chooses` or a menu of the spec (a site), named at run time
by its location (`pending["at"]`). A policy's rules are tried in order - its
own, then those of the policy it extends - and the first whose pattern fits
the site answers it: `choosing x: T [as action] ["prompt", ...]` fits a
`chooses` whose options are of type T (with that action, and asking one of
those prompts, when given), `choosing "prompt", ...` a menu asking one of
them. A site no rule fits leaves every option equal (the policy bot picks
among them at random).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.policies import Site, decision_sites, fits, rule_chain
from rulespec.compiler.frontend.model import Model


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


def tiers(prefs: tuple[ast.Node, ...]) -> list[tuple[ast.Node, ...]]:
    """A rule's lines grouped into tiers: each unweighted line alone, each run of weighted
    lines together (their weighted values summed), in order."""
    groups: list[list[ast.Node]] = []
    for pref in prefs:
        if pref.weight is not None and groups and groups[-1][-1].weight is not None:
            groups[-1].append(pref)
        else:
            groups.append([pref])
    return [tuple(g) for g in groups]


def weighted(tier: tuple[ast.Node, ...]) -> bool:
    return tier[0].weight is not None


class PolicyRunner:
    """The interpreter's policies: the pending options each likes best, tier by tier."""

    def __init__(self, model: Model, evaluator):
        self.model = model
        self.ev = evaluator
        self.plan = plan_policies(model)
        self.tiers = {id(rule): tiers(rule.prefs) for decl in model.policies.values() for rule in decl.rules}

    def prefer(self, state, policy, meta) -> list[int]:
        """Indices of the pending options the policy likes best (all when no rule answers)."""
        from rulespec.runtime.policy import resolve
        pending = state.pending
        best = list(range(len(pending["ids"])))
        name, values = resolve(meta, policy)
        rule = self.plan.rule(self.model, name, pending["at"])
        if rule is None:
            return best
        env = {**values, "you": pending["player"]}
        if isinstance(rule, ast.ChoiceRule):
            return self._choice(state, pending, rule, best, env)
        return self._menu(state, pending, rule, best, env)

    def forbidden(self, state, policy, meta) -> list[int]:
        """Indices of the pending options a `never` line of the answering rule marks."""
        from rulespec.runtime.policy import resolve
        pending = state.pending
        name, values = resolve(meta, policy)
        rule = self.plan.rule(self.model, name, pending["at"])
        lines = [p for p in rule.prefs if p.never] if rule is not None else []
        if not lines:
            return []
        env = {**values, "you": pending["player"]}
        if isinstance(rule, ast.ChoiceRule):
            marked = []
            for i, value in enumerate(pending["values"]):
                env[rule.var.name] = value
                if any(self.ev.truth(state, env, p.value) for p in lines):
                    marked.append(i)
            return marked
        names = {o.name for p in lines if p.when is None or self.ev.truth(state, env, p.when)
                 for o in p.options}
        return [i for i, option in enumerate(pending["ids"]) if option in names]

    def _choice(self, state, pending, rule: ast.ChoiceRule, best: list[int], env: dict) -> list[int]:
        values = pending["values"]
        for tier in self.tiers[id(rule)]:
            keys = []
            for i in best:
                env[rule.var.name] = values[i]
                keys.append(self._key(state, env, tier))
            best = _keep_best(best, keys, tier[0].avoid and not weighted(tier))
            if len(best) == 1:
                break
        return best

    def _key(self, state, env: dict, tier: tuple[ast.Preference, ...]):
        if not weighted(tier):
            return self.ev.value(state, env, tier[0].value)
        return sum((-1 if p.avoid else 1) * self.ev.value(state, env, p.weight.value)
                   * self.ev.value(state, env, p.value) for p in tier)

    def _menu(self, state, pending, rule: ast.MenuRule, best: list[int], env: dict) -> list[int]:
        from rulespec.runtime.policy import menu_keys
        ids = pending["ids"]
        for tier in self.tiers[id(rule)]:
            if weighted(tier):
                lines = [(tuple(o.name for o in p.options),
                          (-1 if p.avoid else 1) * self.ev.value(state, env, p.weight.value)
                          if p.when is None or self.ev.truth(state, env, p.when) else 0) for p in tier]
                best = _keep_best(best, menu_keys(ids, best, lines), False)
            else:
                pref = tier[0]
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
