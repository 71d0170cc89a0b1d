"""What every emitter shares: the model, its tables, routines, names and locations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.frontend.checks.reuse import found_under
from rulespec.compiler.frontend.fmt.exprs import expr_text
from rulespec.compiler.frontend.labels import player_labels
from rulespec.compiler.frontend.locations import spec_path
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.backends.policy import plan_policies
from rulespec.compiler.backends.codegen.analysis import Routine, Suspension, bound_names, nonnull_names, statements
from rulespec.compiler.backends.codegen.kept import Kept, KeptFilters
from rulespec.compiler.backends.codegen.names import check_helper, mangle
from rulespec.compiler.backends.codegen.walks import Loop, Walks

MODULES = ("tables", "rules", "procedures", "tests")
ENTITY_TYPES = ("space", "card", "region")  # attributes of these types hold an entity

# Names the generated package takes from the runtime, by module.
RUNTIME_NAMES = {
    "rulespec.runtime.state": (
        "GameOver", "RuleError", "activate", "ask", "cancel", "conceal_zone", "end_game", "expire",
        "is_active", "lose_game", "log_line", "log_seen", "log_shown", "move_card", "move_card_bottom", "note_event", "note_signal", "roll", "roll_sorted",
        "pick_random", "secret_part", "show_card", "shuffle",
        "top_card", "known_in", "knows",
        "enter_event", "leave_event", "tick",
    ),
    "rulespec.runtime.values": (
        "Keeping", "attr_of", "bounded", "collection_of", "deciding_of", "end_reason_of", "event_allowed", "extreme_of", "fill_prompt", "in_zone", "int_range",
        "label_of", "losers_of", "member_of", "union_of", "opponent_of", "option_names", "owner_of", "reachable", "rule_error",
        "rule_error_of", "RULE_FAILURES", "some_card", "text_of",
        "unknown_function", "unknown_name", "winner_of", "zone_slot", "zone_value",
    ),
    "rulespec.runtime.frames": ("UNBOUND", "new_frame", "resume_steps", "run_steps"),
    "rulespec.runtime.policy": ("forbidden_options", "keep_best", "menu_keys", "prefer_options"),
}
TABLES = (
    "META", "PLAYERS", "PLAYER_IDS", "PLAYER_LABELS", "ENTITY_IDS", "ENTITY_LABELS",
    "ADJ", "ADJS", "REGION_MEMBERS", "REGION_SETS", "HAS_EVENT", "OWNER",
)


class Gen:
    """The shared state of one generation: tables, routines, imports, locations."""

    def __init__(self, model: Model):
        self.model = model
        self.players = len(model.players)
        self.suspension = Suspension(model)
        self.player_labels = player_labels(model)
        self.home: dict[str, str] = {}
        self.uses: dict[str, set[str]] = {m: set() for m in MODULES + ("init",)}
        self.module = "tables"
        self.inlining: list[str] = []  # the defines whose bodies are being inlined (expr.py)
        self._kept: KeptFilters | None = None
        self.walks = Walks()
        for home, names in RUNTIME_NAMES.items():
            for name in names:
                self._define(check_helper(name), home)
        for name in TABLES:
            self._define(name, "tables")
        self._tables()
        self._rules()
        self._signals()
        for name in ("resolve_event", "EVENT_PLAIN", "EVENT_STEPS", "START", "CARD_SLOTS"):
            self._define(name, "procedures")
        for name in ("TEST_STEPS", "TEST_BLOCKS", "TEST_EXPECTS", "TEST_SIDES"):
            self._define(name, "tests")
        for name in ("KEEPING", "KEEPS"):  # whether each kept define keeps (rules.py.j2)
            self._define(name, "rules")
        self.routines: list[Routine] = []
        self.by_key: dict[str, Routine] = {}
        self._routines()

    @property
    def kept(self) -> KeptFilters:
        """The filters kept between decisions (kept.py), and the write stamps."""
        if self._kept is None:
            self._kept = KeptFilters(self.model)
        return self._kept

    def kept_helper(self, helper: Kept) -> str:
        """The helper's name, defined in rules.py the first time it is asked for."""
        if helper.name not in self.home:
            self._define(helper.name, "rules")
        return self.ref(helper.name)

    def walk(self, loop: Loop, node: ast.Node) -> str:
        """A call of the walk helper (walks.py, defined in rules.py) that runs `loop`."""
        doc = repr(f"{expr_text(node)}: {self.where(node)}")
        walk, read = self.walks.helper(loop, doc, self._rules_reads)
        if walk.name not in self.home:
            self._define(check_helper(walk.name), "rules")
        saved, self.module = self.module, "rules"
        try:
            for name in read:
                self.ref(name)
        finally:
            self.module = saved
        self.ref(walk.name)
        return walk.call

    def _rules_reads(self, name: str) -> bool:
        """Whether rules.py has `name` as its own or may import it: from the tables or the
        runtime (not from procedures or tests, which import rules)."""
        home = self.home.get(name, "")
        return home in ("tables", "rules") or home.startswith("rulespec.runtime.")

    # ------------------------------------------------------------ names and imports
    def _define(self, name: str, module: str) -> str:
        if name in self.home:
            raise InternalError(f"generated name {name!r} defined twice")
        self.home[name] = module
        return name

    def ref(self, name: str) -> str:
        """A module-level name used by the module being generated (imported if foreign)."""
        if name not in self.home:
            raise InternalError(f"reference to undefined generated name {name!r}")
        self.uses[self.module].add(name)
        return name

    def imports(self, module: str) -> dict[str, list[str]]:
        """For each module `module` uses names from: the sorted names."""
        out: dict[str, list[str]] = {}
        for name in self.uses[module]:
            home = self.home[name]
            if home != module:
                out.setdefault(home, []).append(name)
        order = tuple(sorted(RUNTIME_NAMES)) + MODULES
        return {home: sorted(out[home]) for home in order if home in out}

    def frame(self, step: int, args: list[str], pad: int) -> str:
        """A new frame of STEPS[step]: its arguments, then `pad` unbound locals."""
        parts = [f"[{', '.join(args)}]"] if args or not pad else []
        if pad:
            parts.append(f"[{self.ref('UNBOUND')}] * {pad}")
        return f"{self.ref('new_frame')}({step}, {' + '.join(parts)})"

    # ------------------------------------------------------------ locations
    def path(self, file: str) -> str:
        """A spec file as generated code names it (compiler/frontend/locations.py, as the interpreter does)."""
        return spec_path(file)

    def loc(self, node: ast.Node) -> str:
        """file:line:col, the location a run-time error names."""
        span = node.span
        return f"{self.path(span.file)}:{span.line}:{span.column}"

    def where(self, node: ast.Node | ast.Span) -> str:
        """file:line, for `# spec:` comments."""
        span = node if isinstance(node, ast.Span) else node.span
        return f"{self.path(span.file)}:{span.line}"

    # ------------------------------------------------------------ tables
    def _tables(self) -> None:
        model = self.model
        self.entity_names = [self._define(mangle("entity", e.name.name), "tables") for e in model.entities]
        # The instances `this` stands for in the cards' abilities: folded as constants.
        self.this_constants = {self.entity_names[index]: index for _, index, _ in model.abilities}
        self.entity_attrs = {f.name.name for k in model.kinds.values() for f in k.fields
                             if f.type.name in model.kinds or f.type.name in ENTITY_TYPES}
        self.attr_tables: dict[str, str] = {}
        self.attr_total: dict[str, bool] = {}
        self.attr_bool: dict[str, bool] = {}
        names: list[str] = []
        for attrs in model.entity_attrs:
            names += [n for n in attrs if n not in names]
        names += list(model.enum_attrs)  # data on enum values: a table by value
        for name in names:
            table = self._define(mangle("attribute", name), "tables")
            self.attr_tables[name] = table
            values = ([a[name] for a in model.entity_attrs if name in a] if name not in model.enum_attrs
                      else list(model.enum_attrs[name].values()))
            self.attr_total[name] = name not in model.enum_attrs and len(values) == len(model.entities)
            rows = [v for row in values if isinstance(row, tuple) for v in row]
            self.attr_bool[name] = all(isinstance(v, bool) for v in (rows if name in model.attr_enums else values))
        self.kind_tables = {k: self._define(mangle("kind", k), "tables") for k in model.kinds}
        self.kind_sets = {k: self._define(mangle("kind_set", k), "tables") for k in model.kinds}
        self.enum_tables = {e: self._define(mangle("enum", e), "tables") for e in model.enums}
        self.enum_index = {e: self._define(mangle("enum_index", e), "tables") for e in model.enums}
        self.region_tables: dict[int, str] = {}
        self.region_sets: dict[int, str] = {}
        for index in model.region_members:
            name = model.entities[index].name.name
            self.region_tables[index] = self._define(mangle("region", name), "tables")
            self.region_sets[index] = self._define(mangle("region_set", name), "tables")

    def _rules(self) -> None:
        model = self.model
        self.defines = {n: self._define(mangle("define", n), "rules") for n in model.defines}
        self.quantities = {n: self._define(mangle("quantity", n), "rules") for n in model.quantities}
        self.forbidden = self._forbidden_actions()
        self.allowed = {a: self._define(mangle("allowed", a), "rules") for a in self.forbidden}
        self.event_whens = {
            i: self._define(mangle("event_when", model.entities[i].name.name), "rules")
            for i in range(len(model.entities))
            if model.event_of(i) is not None and model.event_of(i).when is not None
        }
        self._define("EVENT_WHEN", "rules")
        self.has_actions = any(e.actions for e in model.entities)
        self.action_whens = {
            i: self._define(mangle("action_when", model.entities[i].name.name), "rules")
            for i in range(len(model.entities))
            if model.action_of(i) is not None and model.action_of(i).when is not None
        }
        if self.has_actions:
            for name in ("ACTION_WHEN", "action_allowed", "ACTION_CARDS"):
                self._define(name, "rules")
            for name in ("ACTION_PLAIN", "ACTION_STEPS", "resolve_action"):
                self._define(name, "procedures")
        self.invariants = [self._define(mangle("invariant", i.name.name), "rules")
                           for i in model.invariants]
        self.bots = {n: self._define(mangle("bot", n), "rules") for n in model.bots}
        self._define("INVARIANTS", "rules")
        self._define("BOTS", "rules")
        self.policy_plan = plan_policies(model)
        self.policy_rules = {ref: self._define(mangle("policy", f"{ref[0]}_{ref[1]}"), "rules")
                             for ref in self.policy_plan.used_rules()}
        self.never_rules = {ref: self._define(mangle("never", f"{ref[0]}_{ref[1]}"), "rules")
                            for ref in self.policy_plan.used_rules()
                            if any(p.never for p in model.policies[ref[0]].rules[ref[1]].prefs)}
        self._define("POLICIES", "rules")
        self._define("NEVERS", "rules")

    def _signals(self) -> None:
        """Every signal emitted or listened to gets an emit function; its width fits all uses."""
        model = self.model
        arity = {name: len(decl.params) for name, decl in model.signals.items()}
        for effect in model.effects.values():
            for trigger in effect.triggers:
                name = trigger.signal.name
                arity[name] = max(arity.get(name, 0), len(trigger.names))
        for root in [*model.spec.decls(), *model.tests]:
            for node in found_under(root, (ast.Emit,)):  # kept by node: variant sets share theirs
                arity[node.signal.name] = max(arity.get(node.signal.name, 0), len(node.args))
        self.emit_arity = arity
        self.emits = {name: self._define(mangle("emit", name), "procedures") for name in arity}

    def _forbidden_actions(self) -> dict[str, int]:
        """Actions some forbid names, with how many arguments their checks take."""
        forbids = [f for c in self.model.constraints for f in c.forbids]
        forbids += [f for e in self.model.effects.values() for f in e.forbids]
        arity: dict[str, int] = {}
        for forbid in forbids:
            for pattern in forbid.patterns:
                name = pattern.action.name
                declared = self.model.actions.get(name)
                width = max(len(pattern.names), len(declared.params) if declared else 0)
                arity[name] = max(arity.get(name, 0), width)
        return arity

    # ------------------------------------------------------------ routines
    def _routines(self) -> None:
        model, sus = self.model, self.suspension
        for name, decl in model.procedures.items():
            params = [p.name for p in decl.params]
            trusted: set[str] = set()  # a `card` parameter may still be given none
            self._routine(f"procedure {name}", "procedure", f"{decl.role} {name}", decl.span,
                          params, trusted, decl.body, sus.procedures[name], name)
        if model.start is not None:
            self._routine("start", "start", "start", model.start.span, [], set(),
                          model.start.body, sus.block(model.start.body), "start")
        first_of: dict[int, int] = {}  # a card's event or action block -> its first copy holding it
        for index, entity in enumerate(model.entities):
            event = model.event_of(index)
            if event is not None and entity.copies and id(event) in first_of:  # `copies N`: one routine
                self.by_key[f"event {index}"] = self.by_key[f"event {first_of[id(event)]}"]
            elif event is not None:
                first_of[id(event)] = index
                self._routine(f"event {index}", "event", f"event of {entity.name.name}", event.span,
                              ["you", "this"], {"this"}, event.body, sus.events[index],
                              entity.name.name)
            action = model.action_of(index)
            if action is not None and entity.copies and id(action) in first_of:
                self.by_key[f"action {index}"] = self.by_key[f"action {first_of[id(action)]}"]
            elif action is not None:
                first_of[id(action)] = index
                self._routine(f"action {index}", "action", f"action of {entity.name.name}", action.span,
                              ["you", "this"], {"this"}, action.body, sus.actions[index],
                              entity.name.name)
        for effect in model.effects.values():
            for i, trigger in enumerate(effect.triggers):
                names = self.trigger_names(effect, trigger)
                self._routine(f"trigger {effect.name.name} {i}", "trigger",
                              f"on {trigger.signal.name} of {effect.name.name}", trigger.span,
                              names, self._trusted_trigger_names(effect, trigger), trigger.body,
                              sus.triggers[(effect.name.name, i)], f"{effect.name.name}_{i}")
        self._number_steps()

    def _routine(self, key, kind, label, span, params, trusted, body, suspends, name) -> Routine:
        routine = Routine(key, kind, label, span, params, set(trusted), body, suspends)
        prefix = {"procedure": "procedure", "start": "procedure", "event": "event", "action": "action",
                  "trigger": "trigger", "test": "test_block"}[kind]
        if suspends or kind == "test":
            step = {"procedure": "step", "start": "step", "event": "event_step", "action": "action_step",
                    "trigger": "trigger_step", "test": "test_block"}[kind]
            routine.step_name = self._define(mangle(step, name), "tests" if kind == "test" else "procedures")
        else:
            routine.plain_name = self._define(mangle(prefix, name), "procedures")
        self.layout(routine)
        self.routines.append(routine)
        self.by_key[key] = routine
        return routine

    def trigger_names(self, effect: ast.EffectDecl, trigger: ast.Trigger) -> list[str]:
        """A trigger's initial locals: the effect's parameters, then the signal's names."""
        names = [p.name for p in effect.params]
        names += [n.name for n in trigger.names if n.name not in names]
        return list(dict.fromkeys(names))

    def _trusted_trigger_names(self, effect: ast.EffectDecl, trigger: ast.Trigger) -> set[str]:
        if effect.name.name in self.model.ability_effects:
            return {"this"}  # a card's ability: `this` is the card
        return set()  # the signal's values and the effect's arguments may be none

    def layout(self, routine: Routine) -> None:
        """Locals: parameters, then bound names, then the hidden slots of suspending loops."""
        routine.locals = list(dict.fromkeys(routine.params + bound_names(routine.body)))
        routine.slots = {name: i for i, name in enumerate(routine.locals)}
        routine.nonnull = nonnull_names(routine.body, routine.nonnull_params)
        size = len(routine.locals)
        if routine.suspends or routine.kind == "test":
            for stmt in statements(routine.body):
                if isinstance(stmt, (ast.For, ast.Repeat)) and self.suspension.stmt(stmt):
                    routine.hidden[id(stmt)] = size
                    line = stmt.span.line
                    if isinstance(stmt, ast.For):
                        routine.hidden_doc += [f"{size} items and {size + 1} index of the loop at line {line}"]
                        size += 2
                    else:
                        routine.hidden_doc += [f"{size} rounds left of the repeat at line {line}"]
                        size += 1
        routine.size = size

    def _number_steps(self) -> None:
        """Step ids: every resumable routine, then wrappers of plain ones run in frames."""
        self.steps: list[tuple[str, Routine | None]] = []
        self.wrappers: dict[str, str] = {}
        for routine in self.routines:
            if routine.step_name is not None:
                routine.step_id = len(self.steps)
                self.steps.append((routine.step_name, routine))
        for routine in self.routines:
            if routine.plain_name is not None and self._needs_frame(routine):
                name = self._define(mangle("wrapper", routine.plain_name), "procedures")
                routine.step_id = len(self.steps)
                self.wrappers[routine.key] = name
                self.steps.append((name, routine))
        # Below the frame of a suspending event: it pops when the event is over.
        self.event_done = len(self.steps)
        self.steps.append((self._define("event_done", "procedures"), None))
        self._define("STEPS", "procedures")

    def _needs_frame(self, routine: Routine) -> bool:
        if routine.kind == "start":
            return True
        if routine.kind == "trigger":
            effect, index = routine.key.split()[1:]
            signal = self.model.effects[effect].triggers[int(index)].signal.name
            return self.suspension.signal(signal)
        return False

    def add_test_routine(self, name: str, label: str, body: ast.Block, span: ast.Span) -> Routine:
        routine = self._routine(f"test {name}", "test", f"test {label}", span,
                                [], set(), body, True, name)
        routine.step_id = len(self.steps)
        self.steps.append((routine.step_name, routine))
        return routine

    # ------------------------------------------------------------ facts
    def event_routine(self, index: int) -> Routine:
        return self.by_key[f"event {index}"]

    def action_routine(self, index: int) -> Routine:
        return self.by_key[f"action {index}"]

    def entity(self, index: int) -> str:
        """The name generated code gives an entity's index (E_cuba), imported where used."""
        return self.ref(self.entity_names[index])

    def literal(self, value: Any) -> str:
        """A Python literal for a table value: only ever repr()."""
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        raise InternalError(f"not a literal value: {value!r}")
