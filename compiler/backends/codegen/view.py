"""The view model: plain data, one dict per generated module, for the templates.

Python decides everything here (names, literals, expression text, the lines
of every routine); the templates only loop and branch over the result.
It stays whole: one view per generated module, all built from the same names and lines.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.bindings import card_bindings
from rulespec.compiler.backends.codegen.analysis import Routine, bound_names, statements
from rulespec.compiler.backends.codegen.code import P_MUL, P_UNARY
from rulespec.compiler.backends.codegen.context import Gen
from rulespec.compiler.backends.codegen.expr import ExprEmitter, Scope
from rulespec.compiler.backends.codegen.lines import BlockOut, Line
from rulespec.compiler.backends.codegen.lower import Lowerer
from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.codegen.walks import Loop
from rulespec.compiler.backends.policy import tiers as policy_tiers, weighted
from rulespec.compiler.backends.testplan import DRIVING, plan_tests




@dataclass
class FunctionView:
    """A function returning one expression: define, quantity base, condition, bot."""

    name: str
    params: list[str]
    spec: str
    body: str
    doc: str = ""
    kept: list[int] | None = None  # a define's value kept under these stamps (kept.py)
    # A define that is an `any` or `all`: a loop that returns at the first deciding member
    # instead of a generator expression (no closure: cheaper, and its native build typed).
    loop: Loop | None = None
    keeping: int = 0  # a kept define's place in its module's KEEPING (runtime/values.py: Keeping)

    @property
    def kept_key(self) -> str:
        """The key of its kept values in state.memo: its name, with its arguments if it has any."""
        return f"({self.name!r}, {', '.join(self.params)})" if self.params else repr(self.name)


@dataclass
class RoutineView:
    """A procedure, event, trigger or test block: plain lines or resumable blocks."""

    name: str
    doc: str
    spec: str
    params: list[str] = field(default_factory=list)
    unbound: list[str] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    blocks: list[BlockOut] = field(default_factory=list)
    uses_locals: bool = False
    frame_doc: str = ""  # what each slot of L holds


@dataclass
class Check:
    """One conditional piece of an effect or constraint: a modifier, forbid or trigger."""

    spec: str
    when: str | None
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class AbilityGroup:
    """What one card's `while in` ability contributes while `test` (where it lies) holds."""

    test: str
    name: str
    checks: list[Check]


@dataclass
class EffectGroup:
    """What instances of one effect contribute, tested by `effect[0] == index`."""

    index: int
    name: str
    checks: list[Check]


def in_force_test(card: str, slots: tuple[int, ...]) -> str:
    """Whether a card's `while in` ability holds: it lies in one of `slots` and is not blanked
    (`rulespec worth --as blank`). Where it lies is tested first: that is false for most
    cards most of the time, so the blanked cards are read only for a card in play."""
    if not slots:
        return "False"
    where = f"state.location[{card}]"
    lies = f"{where} == {slots[0]}" if len(slots) == 1 else f"{where} in {tuple(slots)!r}"
    return f"{lies} and {card} not in state.blanked"


def forbids_of(forbids, action: str) -> list[tuple[ast.Forbid, ast.ActionPattern]]:
    """The forbids among `forbids` that name `action`, each with its pattern naming it."""
    return [(forbid, pattern) for forbid in forbids for pattern in forbid.patterns
            if pattern.action.name == action]


class ViewBuilder:
    """Builds the views of every module of a game's package."""

    def __init__(self, model: Model, gen: Gen | None = None):
        self.model = model
        self.gen = gen or Gen(model)  # another back end's (machine/allowed.py) writes with its own

    def build(self) -> dict[str, dict[str, Any]]:
        views: dict[str, dict[str, Any]] = {}
        for module in ("tables", "rules", "procedures", "tests", "init"):
            self.gen.module = module
            views[module] = getattr(self, "build_" + module)()
        views["rules"]["kept"] = list(self.gen.kept.helpers.values())  # asked for by every module
        views["rules"]["walks"] = list(self.gen.walks.helpers.values())  # and so are walks
        common = self.common()
        for module, view in views.items():
            view.update(common)
            view["imports"] = self.gen.imports(module)
        return views

    def common(self) -> dict[str, Any]:
        model = self.model
        return {"game": model.game, "title": model.title, "spec_hash": model.spec_hash,
                "spec_files": list(model.spec_files), "test_files": list(model.test_files),
                "tests_hash": model.tests_hash}

    def scope(self, params: list[tuple[str, str, bool]]) -> Scope:
        return Scope("none", bindings=params)

    def emitter(self, params: list[tuple[str, str, bool]]) -> ExprEmitter:
        return ExprEmitter(self.gen, self.scope(params))

    def where(self, node: ast.Node) -> str:
        return self.gen.where(node)

    # ------------------------------------------------------------ tables.py
    def build_tables(self) -> dict[str, Any]:
        model, gen = self.model, self.gen
        meta = model.meta()
        attributes = []
        for name, table in gen.attr_tables.items():
            if name in model.enum_attrs:
                values = dict(model.enum_attrs[name])
            elif gen.attr_total[name]:
                values = tuple(a[name] for a in model.entity_attrs)
            else:
                values = {i: a[name] for i, a in enumerate(model.entity_attrs) if name in a}
            attributes.append({"name": name, "table": table, "entries": values})
        kinds = [{"name": k, "table": gen.kind_tables[k], "set": gen.kind_sets[k],
                  "members": tuple(model.kind_members.get(k, ()))} for k in model.kinds]
        enums = [{"table": gen.enum_tables[e], "index": gen.enum_index[e],
                  "names": tuple(v.name for v in d.values)} for e, d in model.enums.items()]
        regions = [{"id": model.entities[i].name.name, "index": i, "table": gen.region_tables[i],
                    "set": gen.region_sets[i], "members": tuple(model.region_members[i])}
                   for i in gen.region_tables]
        # A long part of META is a statement of its own, so an edit (every one changes
        # spec_hash) re-formats META's few short lines, not its whole board.
        parts: list[tuple[str, str]] = []
        fields = [(f.name, _meta_part(f"META_{f.name.upper()}", getattr(meta, f.name), parts))
                  for f in dataclasses.fields(meta)]
        return {
            "meta_parts": parts,
            "meta": fields,
            "meta_classes": sorted(_classes(meta)),
            "players": tuple(range(len(model.players))),
            "player_ids": tuple(model.players), "player_labels": tuple(model.player_labels),
            "entities": [(i, e.name.name, e.label) for i, e in enumerate(model.entities)],
            "entity_names": gen.entity_names,
            "attributes": attributes, "kinds": kinds, "regions": regions, "enums": enums,
            "adjacency": [(i, model.entities[i].name.name, tuple(model.adjacency[i]))
                          for i in range(len(model.entities))],
            "has_event": tuple(bool(e.events) for e in model.entities),
            "owner": tuple(model.entity_owner) if model.instances else None,
            "slots": self.slot_map(),
        }

    def slot_map(self) -> list[str]:
        """Which state slot holds what: tracks, vars, zones and counters by index."""
        model, players = self.model, self.model.players
        lines = []
        for word, items, attr in (("tracks", model.track_cells(), "per_player"),
                                  ("zones", model.zones.values(), "per_player"),
                                  ("counters", model.counters.values(), "per_player")):
            parts = []
            for item in items:
                if getattr(item, attr):
                    parts += [f"{item.slot + i} {item.name}({p})" for i, p in enumerate(players)]
                else:
                    parts.append(f"{item.slot} {item.name}")
            lines.append(f"state.{word}: " + ", ".join(parts))
        lines.append("state.vars: " + ", ".join(f"{i} {n}" for n, i in model.var_index.items()))
        return lines

    # ------------------------------------------------------------ rules.py
    def build_rules(self) -> dict[str, Any]:
        defines = [self.define(d) for d in self.model.defines.values()]
        kept = [f for f in defines if f.kept is not None]
        for place, f in enumerate(kept):
            f.keeping = place
        return {
            "defines": defines,
            "keeping": self.gen.ref("Keeping") if kept else None,
            "kept_defines": len(kept),
            "quantities": [self.quantity(q) for q in self.model.quantities.values()],
            "allowed": [self.allowed(a) for a in self.gen.allowed],
            "whens": self.event_whens(),
            "action_whens": self.action_whens(),
            "has_actions": self.gen.has_actions,
            "action_cards": tuple(i for i, e in enumerate(self.model.entities) if e.actions),
            "invariants": self.invariants(),
            "bots": [self.bot(name, decl) for name, decl in self.model.bots.items()],
            **self.policies(),
        }

    def params(self, params: tuple[ast.Param, ...]) -> list[tuple[str, str, bool]]:
        return [(p.name, mangle("local", p.name), False) for p in params]  # may be given none

    def define(self, decl: ast.DefineDecl) -> FunctionView:
        params = self.params(decl.params)
        loop = self.emitter(params).loop(decl.body)
        body = self.emitter(params).value(decl.body) if loop is None else ""
        return FunctionView(self.gen.defines[decl.name.name], [p[1] for p in params],
                            self.where(decl), body, repr(f"define {decl.name.name}"),
                            self.gen.kept.define_stamps(decl), loop)

    def quantity(self, decl: ast.QuantityDecl, emitter=None, in_force=in_force_test) -> dict[str, Any]:
        """A quantity's base and what each effect in play and each card's ability in force adds:
        `emitter(bindings)` and `in_force(card, slots)` write them (the generated package's by
        default, the native engine's in machine/effects.py)."""
        emitter = emitter or self.emitter
        params = self.params(decl.params)
        base = emitter(params).value(decl.body)
        def checks_of(effect: ast.EffectDecl, base: list[tuple[str, str, bool]]) -> list[Check]:
            checks = []
            for mod in effect.modifiers:
                if mod.quantity.name != decl.name.name:
                    continue
                bindings = base + [(n.name, p[1], p[2]) for n, p in zip(mod.names, params)]
                ex = emitter(bindings)
                checks.append(Check(self.where(mod), ex.test(mod.when) if mod.when else None, {
                    "delta": ex.emit(mod.delta).at(11),
                    "low": ex.value(mod.low) if mod.low is not None else None,
                    "high": ex.value(mod.high) if mod.high is not None else None,
                }))
            return checks
        groups = [EffectGroup(index, effect.name.name, checks)
                  for index, effect in self.declared_effects()
                  for checks in [checks_of(effect, self.effect_params(effect))] if checks]
        return {"name": self.gen.quantities[decl.name.name], "params": [p[1] for p in params],
                "spec": self.where(decl), "base": base, "effects": groups,
                "abilities": self.ability_groups(checks_of, in_force),
                "doc": repr(f"quantity {decl.name.name}")}

    effect_arg = "args[{}]"  # an effect's argument where its pieces read it (machine/effects.py: a C local)

    def effect_params(self, effect: ast.EffectDecl) -> list[tuple[str, str, bool]]:
        return [(p.name, self.effect_arg.format(i), False) for i, p in enumerate(effect.params)]

    def declared_effects(self) -> list[tuple[int, ast.EffectDecl]]:
        """The effects `activate` can start (a card's abilities never stand in state.effects)."""
        return [(i, e) for i, e in enumerate(self.model.effects.values())
                if e.name.name not in self.model.ability_effects]

    def ability_groups(self, checks_of, in_force=in_force_test) -> list[AbilityGroup]:
        """Each instance's ability, where `checks_of(effect, bindings)` finds pieces: `this`
        is the instance's constant, tested by where the instance lies (`in_force`: that test
        in the back end's words)."""
        groups = []
        for name, index, slots in self.model.abilities:
            effect = self.model.effects[name]
            card = self.gen.entity(index)
            checks = checks_of(effect, [("this", card, True)])
            if not checks:
                continue
            zones = ", ".join(z.name for z in self.model.ability_effects[name].zones)
            groups.append(AbilityGroup(in_force(card, slots),
                                       f"{self.model.entities[index].name.name} while in {zones}", checks))
        return groups

    def allowed(self, action: str, emitter=None, in_force=in_force_test, params=None) -> dict[str, Any]:
        """What allowed_<action> tests: the constraints' forbids (each lifted by the cards'
        `allow ... despite` it), the forbids of effects in play and of cards' abilities in force.
        `emitter(bindings)` and `in_force(card, slots)` write them, `params` names the arguments:
        the generated package's by default, the native engine's (machine/allowed.py) from the
        same forbids."""
        emitter = emitter or self.emitter
        width = self.gen.forbidden[action]
        params = params or [f"x{i}" for i in range(width)]
        checks = []
        for constraint in self.model.constraints:
            found = self.forbid_checks(constraint.forbids, action, params, [], emitter)
            despite = self.despite(action, constraint.name.name, params, emitter, in_force)
            for check in found:
                check.fields["despite"] = despite
            checks += found
        groups = []
        for index, effect in self.declared_effects():
            found = self.forbid_checks(effect.forbids, action, params, self.effect_params(effect), emitter)
            if found:
                groups.append(EffectGroup(index, effect.name.name, found))
        abilities = self.ability_groups(
            lambda effect, base: self.forbid_checks(effect.forbids, action, params, base, emitter), in_force)
        return {"name": self.gen.allowed[action], "action": action, "params": params,
                "checks": checks, "effects": groups, "abilities": abilities, "doc": repr(f"may the action {action} be taken")}

    def despite(self, action: str, constraint: str, params: list[str], emitter=None,
                in_force=in_force_test) -> str | None:
        """When the cards' `allow action(...) ... despite constraint` lift its forbids: each
        card where it lies and its condition, `or`-ed; None when no card allows it."""
        emitter = emitter or self.emitter
        parts = []
        for card, slots, given, test in self.model.allows.get((action, constraint), ()):
            const = self.gen.entity(card)
            bindings = [("this", const, True)] + [(n, x, False) for n, x in zip(given, params)]
            parts.append(f"({in_force(const, slots)} and {emitter(bindings).test(test)})")
        return " or ".join(parts) or None

    def forbid_checks(self, forbids, action: str, params: list[str], base, emitter=None) -> list[Check]:
        emitter = emitter or self.emitter
        checks = []
        for forbid, pattern in forbids_of(forbids, action):
            bindings = list(base) + [(n.name, x, False) for n, x in zip(pattern.names, params)]
            checks.append(Check(self.where(forbid), emitter(bindings).test(forbid.when)))
        return checks

    def event_whens(self) -> list[dict[str, Any]]:
        out = []
        for index, name in self.gen.event_whens.items():
            event = self.model.event_of(index)
            ex = self.emitter([("you", "v_you", False), ("this", "v_this", True)])
            out.append({"index": index, "id": self.model.entities[index].name.name,
                        "function": FunctionView(name, ["v_you", "v_this"], self.where(event),
                                                 ex.test(event.when),
                                                 repr(f"when the event of {self.model.entities[index].name.name} may happen"))})
        return out

    def action_whens(self) -> list[dict[str, Any]]:
        out = []
        for index, name in self.gen.action_whens.items():
            action = self.model.action_of(index)
            entity = self.model.entities[index].name.name
            ex = self.emitter([("you", "v_you", False), ("this", "v_this", True)])
            out.append({"index": index, "id": entity,
                        "function": FunctionView(name, ["v_you", "v_this"], self.where(action),
                                                 ex.test(action.when),
                                                 repr(f"when the action of {entity} may be used"))})
        return out

    def invariants(self) -> list[dict[str, Any]]:
        out = []
        for decl, name in zip(self.model.invariants, self.gen.invariants):
            out.append({"name": decl.name.name, "label": decl.label,
                        "function": FunctionView(name, [], self.where(decl),
                                                 self.emitter([]).test(decl.test),
                                                 repr(f"invariant {decl.name.name}"))})
        return out

    def bot(self, name: str, decl: ast.BotDecl) -> dict[str, Any]:
        ex = self.emitter([("you", "v_you", False)])
        return {"name": name, "function": FunctionView(self.gen.bots[name], ["v_you"], self.where(decl),
                                                        ex.value(decl.value), repr(f"bot {name}"))}

    def policies(self) -> dict[str, Any]:
        """A function per policy rule that answers some decision, and the table by location."""
        gen, model = self.gen, self.model
        rules = [self.policy_rule(gen.policy_rules[ref], ref, model.policies[ref[0]].rules[ref[1]])
                 for ref in gen.policy_plan.used_rules()]
        if rules:
            gen.ref("keep_best")
        table = [(name, [(at, gen.policy_rules[ref]) for at, ref in sorted(answers.items())])
                 for name, answers in gen.policy_plan.answers.items()]
        nevers = [(name, [(at, gen.never_rules[ref]) for at, ref in sorted(answers.items())
                          if ref in gen.never_rules])
                  for name, answers in gen.policy_plan.answers.items()]
        return {"policies": rules, "policy_table": table, "never_table": nevers}

    def policy_rule(self, name: str, ref: tuple[str, int], rule: ast.Node, emitter=None,
                    tunable=None) -> dict[str, Any]:
        """A rule's tiers (compiler/backends/policy.py groups them); its tunables read from `tun`, the
        values rulespec.runtime.policy.resolve gives (the spec's, or those a tuned agent plays).
        `emitter(bindings)` and `tunable(place, name)` (how the tunable at `place` of the owner's
        reads) write them: the generated package's by default, the native engine's
        (machine/policies.py) from the same lines."""
        native = emitter is not None
        emitter = emitter or self.emitter
        tunable = tunable or (lambda place, tname: f"tun[{tname!r}]")
        bound = [("you", "v_you", False)] + [(t.name.name, tunable(i, t.name.name), True)
                                              for i, t in enumerate(self.model.policy_tunables(ref[0]))]
        doc = repr(f"policy {ref[0]}, rule {ref[1] + 1}: the options it likes best")
        if isinstance(rule, ast.ChoiceRule):
            var = mangle("local", rule.var.name)
            ex = emitter(bound + [(rule.var.name, var, True)])
            tiers = [self.choice_tier(ex, tier) for tier in policy_tiers(rule.prefs)]
            nevers = [{"spec": self.where(p), "test": ex.test(p.value)} for p in rule.prefs if p.never]
            return {"name": name, "doc": doc, "spec": self.where(rule), "menu": False, "var": var,
                    "tiers": tiers, **self.never_view(ref, nevers)}
        ex = emitter(bound)
        tiers = [self.menu_tier(ex, tier) for tier in policy_tiers(rule.prefs)]
        if any(t["lines"] for t in tiers) and not native:
            self.gen.ref("menu_keys")
        nevers = [{"spec": self.where(p), "when": ex.test(p.when) if p.when is not None else None,
                   "names": repr(tuple(o.name for o in p.options)),
                   "options": tuple(o.name for o in p.options)} for p in rule.prefs if p.never]
        return {"name": name, "doc": doc, "spec": self.where(rule), "menu": True, "tiers": tiers,
                **self.never_view(ref, nevers)}

    def never_view(self, ref: tuple[str, int], nevers: list[dict[str, Any]]) -> dict[str, Any]:
        """The rule's `never` lines, for the function giving the options they mark (searches
        leave those out: rulespec.runtime.policy.forbidden_options)."""
        if not nevers:
            return {"nevers": None}
        doc = repr(f"policy {ref[0]}, rule {ref[1] + 1}: the options its `never` lines mark")
        return {"nevers": nevers, "never_name": self.gen.never_rules[ref], "never_doc": doc}

    def choice_tier(self, ex, tier) -> dict[str, Any]:
        first = tier[0]
        if not weighted(tier):
            return {"spec": self.where(first), "key": ex.value(first.value), "avoid": first.avoid}
        key = ""
        for p in tier:  # weight * value, summed; an avoid line's subtracted
            term = f"{ex.emit(p.weight.value).at(P_MUL)} * {ex.emit(p.value).at(P_UNARY)}"
            key = f"-{term}" if not key and p.avoid else f"{key} {'-' if p.avoid else '+'} {term}" if key else term
        return {"spec": self.where(first), "key": key, "avoid": False}

    def menu_tier(self, ex, tier) -> dict[str, Any]:
        """A menu tier: the generated package's text, and its parts for the native engine's (per
        line: the option names, its weight (negated for `avoid`), its `when` test or None)."""
        first = tier[0]
        if not weighted(tier):
            when = ex.test(first.when) if first.when is not None else None
            return {"spec": self.where(first), "when": when,
                    "names": repr(tuple(o.name for o in first.options)), "avoid": first.avoid, "lines": None,
                    "parts": [(tuple(o.name for o in first.options), None, when)]}
        lines, parts = [], []
        for p in tier:
            weight = f"{'-' if p.avoid else ''}({ex.value(p.weight.value)})"
            when = ex.test(p.when) if p.when is not None else None
            parts.append((tuple(o.name for o in p.options), weight, when))
            if when is not None:
                weight = f"({weight} if {when} else 0)"
            lines.append(f"({tuple(o.name for o in p.options)!r}, {weight})")
        return {"spec": self.where(first), "lines": f"[{', '.join(lines)}]", "parts": parts}

    # ------------------------------------------------------------ procedures.py
    def _card_routines(self, indices, routine_of) -> tuple[list, list]:
        """A card's event or action routines, split into plain calls and suspended steps, by card."""
        plain, steps = [], []
        for index in sorted(indices):
            routine = routine_of(index)
            entity = self.model.entities[index].name.name
            if routine.plain_name is not None:
                plain.append((index, entity, routine.plain_name))
            else:
                steps.append((index, entity, routine.step_id, routine.size - 2))
        return plain, steps

    def build_procedures(self) -> dict[str, Any]:
        gen = self.gen
        plain, steps = [], []
        for routine in gen.routines:
            if routine.kind == "test":
                continue
            if routine.plain_name is not None:
                plain.append(self.routine(routine, "py"))
            else:
                steps.append(self.routine(routine, "slot"))
        events_plain, events_steps = self._card_routines(gen.suspension.events, gen.event_routine)
        actions_plain, actions_steps = self._card_routines(gen.suspension.actions, gen.action_routine)
        if gen.has_actions:
            gen.ref("ACTION_WHEN")
        for name in ("HAS_EVENT", "EVENT_WHEN", "UNBOUND", "new_frame", "note_event"):
            gen.ref(name)
        for name in ("ENTITY_IDS", "enter_event", "leave_event"):  # resolve_event's budget
            gen.ref(name)
        start = gen.by_key.get("start")
        return {
            "plain": plain, "steps": steps,
            "wrappers": [(name, gen.by_key[key].plain_name, len(gen.by_key[key].params))
                         for key, name in gen.wrappers.items()],
            "emits": [self.emit(signal) for signal in gen.emits],
            "events_plain": events_plain, "events_steps": events_steps,
            "has_actions": gen.has_actions,
            "actions_plain": actions_plain, "actions_steps": actions_steps,
            "step_names": [name for name, r in gen.steps if r is None or r.kind != "test"],
            "card_slots": self.card_slots(),
            "event_done": gen.event_done,
            "start": None if start is None else (
                start.step_id, start.size if start.plain_name is None else 0),
        }

    def card_slots(self) -> list[tuple[int, str, tuple[int, ...], tuple[int, ...]]]:
        """(step, routine, slots holding a card, slots holding loop items that are cards)."""
        found = card_bindings(self.model)
        out = []
        for _, routine in self.gen.steps:
            if routine is None or routine.kind == "test":
                continue
            names = found.of(routine.body)
            if routine.plain_name is not None:  # a wrapper's frame holds the arguments only
                names = names & set(routine.params)
            cards = tuple(sorted(routine.slots[n] for n in names if n in routine.slots))
            lists = tuple(sorted(slot for stmt, slot in self._loops(routine) if id(stmt) in found.loops))
            if cards or lists:
                out.append((routine.step_id, routine.label, cards, lists))
        return out

    @staticmethod
    def _loops(routine: Routine):
        for stmt in statements(routine.body):
            if id(stmt) in routine.hidden and isinstance(stmt, ast.For):
                yield stmt, routine.hidden[id(stmt)]

    def routine(self, routine: Routine, style: str) -> RoutineView:
        lowerer = Lowerer(self.gen, routine, style)
        blocks = lowerer.lower()
        where = self.gen.where(routine.body if routine.kind == "test" else routine.span)
        doc = repr(f"{routine.label} ({where})")
        if style == "py":
            params = [mangle("local", p) for p in routine.params]
            unbound = [mangle("local", n) for n in routine.locals
                       if n in lowerer.scope.maybe and n not in routine.params]
            if unbound:
                self.gen.ref("UNBOUND")
            return RoutineView(routine.plain_name, doc, where, params, unbound, blocks[0].lines)
        uses = bool(routine.locals or routine.hidden)
        return RoutineView(routine.step_name, doc, where, blocks=blocks, uses_locals=uses,
                           frame_doc=self.frame_doc(routine, style))

    def frame_doc(self, routine: Routine, style: str) -> str:
        """L[0] p, L[1] c, ...: the slots of a step function's frame, for readers."""
        if style == "dict":
            return "L: the test's locals, by name"
        parts = [f"{i} {name}" for i, name in enumerate(routine.locals)] + routine.hidden_doc
        return "L: " + ", ".join(parts) if parts else ""

    def emit(self, signal: str, emitter=None, in_force=in_force_test, params=None, plain_run=None,
             framed_run=None) -> dict[str, Any]:
        """What emit_<signal> runs: each trigger on it of the effects in play and of cards'
        abilities in force, whose condition holds. `emitter(bindings)`, `in_force(card, slots)`,
        the arguments' names, `plain_run(routine, args)` (a run of a trigger that cannot
        suspend) and `framed_run(routine, args)` (the frame of one, where the signal suspends)
        write it: the generated package's by default, the native engine's (machine/signals.py)
        from the same triggers."""
        gen, model = self.gen, self.model
        emitter = emitter or self.emitter
        width = gen.emit_arity[signal]
        params = params or [f"x{i}" for i in range(width)]
        suspends = gen.suspension.signal(signal)
        def checks_of(effect: ast.EffectDecl, base: list[tuple[str, str, bool]]) -> list[Check]:
            checks = []
            for i, trigger in enumerate(effect.triggers):
                if trigger.signal.name != signal:
                    continue
                routine = gen.by_key[f"trigger {effect.name.name} {i}"]
                values = self.trigger_values(effect, trigger, params)
                values.update({name: value for name, value, _ in base})
                nonnull = routine.nonnull_params | {name for name, _, sure in base if sure}
                ex = emitter([(n, values[n], n in nonnull) for n in routine.params])
                when = ex.test(trigger.when) if trigger.when is not None else None
                args = [values[n] for n in routine.params]
                if suspends and framed_run is not None:
                    run = framed_run(routine, args)
                elif suspends:
                    pad = 0 if routine.plain_name else routine.size - len(routine.params)
                    run = gen.frame(routine.step_id, args, pad)
                elif plain_run is not None:
                    run = plain_run(routine, args)
                else:
                    run = f"({gen.ref(routine.plain_name)}, [{', '.join(args)}])"
                checks.append(Check(self.where(trigger), when, {"run": run}))
            return checks
        groups = [EffectGroup(index, effect.name.name, checks)
                  for index, effect in self.declared_effects()
                  for checks in [checks_of(effect, [])] if checks]
        abilities = self.ability_groups(checks_of, in_force)
        decl = model.signals.get(signal)
        cards = [] if decl is None else [
            params[i] for i, p in enumerate(decl.params) if model.category(p.type.name) == "card"]
        player = None if decl is None else next(
            (params[i] for i, p in enumerate(decl.params) if p.type.name == "player"), None)
        gen.ref("note_signal")
        if suspends:
            gen.ref("UNBOUND")
        return {"name": gen.emits[signal], "signal": signal, "params": params, "cards": cards,
                "player": player or "None",
                "suspends": suspends, "effects": groups, "abilities": abilities,
                "doc": repr(f"emit {signal}")}

    def trigger_values(self, effect: ast.EffectDecl, trigger: ast.Trigger, params: list[str]) -> dict[str, str]:
        """What each of a trigger's locals starts as: the signal's value, else the effect's."""
        values = {p.name: self.effect_arg.format(i) for i, p in enumerate(effect.params)}
        for name, value in zip(trigger.names, params):
            values[name.name] = value
        return values

    # ------------------------------------------------------------ tests.py
    def build_tests(self) -> dict[str, Any]:
        """The tests' plan (compiler/backends/testplan.py) as code: a step function per block of
        statements, and per test file one table of its expectations (and one of the two sides
        of each comparison), each a lambda keyed by the rest of its plan key ("#3:expect0")."""
        plan = plan_tests(self.model)
        blocks: list[tuple[str, RoutineView]] = []
        files: dict[str, dict[str, Any]] = {}
        for test, case in zip(self.model.tests, plan.cases):
            names = bound_names(ast.Block(test.span, tuple(
                s for s in test.steps if not isinstance(s, DRIVING))))
            stem = _test_stem(case.key)
            file_key = case.key.rsplit("#", 1)[0]
            for step in case.steps:
                if step.kind == "run":
                    part = step.payload.rsplit(":run", 1)[1]
                    body = plan.blocks[step.payload]
                    routine = self.gen.add_test_routine(f"{stem}_{part}", f"{case.key} part {part}",
                                                        body, body.span)
                    routine.locals = list(names)
                    blocks.append((step.payload, self.routine(routine, "dict")))
                elif step.kind == "expect":
                    checks = files.setdefault(file_key, [])
                    for part in step.payload:
                        checks.append(self.test_check(part.key[len(file_key):], plan.checks[part.key],
                                                      names))
        tables = [self._check_table(file_key, number, checks[start:start + TABLE_SLICE])
                  for file_key, checks in files.items()
                  for number, start in enumerate(range(0, len(checks), TABLE_SLICE))]
        return {"blocks": blocks, "check_tables": tables,
                "test_steps": [view.name for _, view in blocks]}

    def _check_table(self, file_key: str, number: int, checks: list[dict[str, Any]]) -> dict[str, Any]:
        """One slice of a test file's expectations: black formats a slice at a time, so a
        long entry costs a second pass over its slice alone, and an edit re-formats one slice."""
        stem = f"{_file_stem(file_key)}_{number}"
        return {"file": file_key, "checks": checks,
                "expects": self.gen._define(mangle("test_expect", stem), "tests"),
                "sides": self.gen._define(mangle("test_sides", stem), "tests")}

    def test_check(self, key: str, check, names: list[str]) -> dict[str, Any]:
        """An expectation's condition, and for a comparison its two sides, as lambdas."""
        routine = Routine("expect", "test", "expect", check.test.span, [], set(),
                          ast.Block(check.test.span, ()))
        routine.locals = list(names)
        ex = ExprEmitter(self.gen, Scope("dict", routine))
        sides = None
        if check.left is not None:
            sides = _lambda(key, f"({ex.value(check.left)}, {ex.value(check.right)})", bracketed=True)
        return {"key": key, "spec": self.where(check.test), "test": _lambda(key, ex.test(check.test)),
                "sides": sides}

    # ------------------------------------------------------------ __init__.py
    def build_init(self) -> dict[str, Any]:
        self.gen.ref("CARD_SLOTS")  # rebind_cards
        for name in ("META", "STEPS", "TEST_STEPS", "START", "INVARIANTS", "BOTS", "POLICIES", "NEVERS",
                     "prefer_options", "forbidden_options",
                     "TEST_BLOCKS", "TEST_EXPECTS", "TEST_SIDES", "RuleError", "UNBOUND", "new_frame",
                     "run_steps", "resume_steps", "rule_error_of", "RULE_FAILURES"):
            self.gen.ref(name)
        return {}


# ------------------------------------------------------------------ literal values


TABLE_WIDTH = 88  # black's line length: a longer entry of a table has its lambda's body in brackets
TABLE_SLICE = 16  # entries: a test file's expectations are tables of at most this many


def _lambda(key: str, body: str, bracketed: bool = False) -> str:
    """A test table's entry: `lambda state, L: body`, the body bracketed when the line is long,
    so black breaks it inside the brackets (a readable block) and not at its operators."""
    if not bracketed and len(f"    {key!r}: lambda state, L: {body},") > TABLE_WIDTH:
        body = f"({body})"
    return f"lambda state, L: {body}"


def _test_stem(key: str) -> str:
    """tests/card_play.rules#3 -> card_play_3 (a name part)."""
    file, number = key.rsplit("#", 1)
    return f"{_file_stem(file)}_{number}"


def _file_stem(file: str) -> str:
    """tests/card_play.rules -> card_play; variants/x.rules -> v_x; one of the game's own rule
    files, game/x.rules -> r_x (so its tests never meet tests/x.rules' names)."""
    folder, _, name = file.rpartition("/")
    prefix = {"tests": "", "variants": "v_"}.get(folder, "r_")
    return prefix + re.sub(r"\W", "_", name.rsplit(".", 1)[0])


META_INLINE = 80  # characters: a META field longer than this is a table of its own
META_CHUNK = 32  # items: a longer tuple is written in slices, so an edit re-formats one slice


def _meta_part(name: str, value: Any, parts: list[tuple[str, str]]) -> str:
    """Python source for a META value, inline when short; a long one becomes a statement of
    its own (`name = ...`, added to parts after the ones it uses) and is referred to by name.
    A long dataclass value is split the same way field by field (the board's attributes
    change with a card, its links do not), a long tuple in slices joined with `+`."""
    text = _py_value(value)
    if len(text) <= META_INLINE:
        return text
    if dataclasses.is_dataclass(value):
        fields = [f"{f.name}={_meta_part(f'{name}_{f.name.upper()}', getattr(value, f.name), parts)}"
                  for f in dataclasses.fields(value)]
        text = f"{type(value).__name__}({', '.join(fields)})"
    elif isinstance(value, tuple) and len(value) > META_CHUNK:
        chunks = [_meta_part(f"{name}_{start // META_CHUNK}", value[start:start + META_CHUNK], parts)
                  for start in range(0, len(value), META_CHUNK)]
        text = " + ".join(chunks)
    parts.append((name, text))
    return name


def _py_value(value: Any) -> str:
    """Python source for a meta value: dataclasses by constructor, literals by repr()."""
    if dataclasses.is_dataclass(value):
        parts = [f"{f.name}={_py_value(getattr(value, f.name))}" for f in dataclasses.fields(value)]
        return f"{type(value).__name__}({', '.join(parts)})"
    if isinstance(value, tuple):
        inner = ", ".join(_py_value(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return f"[{', '.join(_py_value(v) for v in value)}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py_value(k)}: {_py_value(v)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    raise InternalError(f"cannot write {value!r} into generated code")


def _classes(value: Any) -> set[str]:
    """The rulespec.runtime.meta classes a meta value needs."""
    found: set[str] = set()
    if dataclasses.is_dataclass(value):
        found.add(type(value).__name__)
        for f in dataclasses.fields(value):
            found |= _classes(getattr(value, f.name))
    elif isinstance(value, (tuple, list)):
        for v in value:
            found |= _classes(v)
    elif isinstance(value, dict):
        for v in value.values():
            found |= _classes(v)
    return found
