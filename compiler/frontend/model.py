"""The symbol tables of a checked spec: what every name means, as tables."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.board import board_meta
from rulespec.runtime.meta import CounterMeta, GameMeta, TrackMeta, TunableMeta, ZoneMeta

PRIMITIVE_TYPES = ("int", "bool", "str", "player", "zone", "space", "card", "region")
SEATS_PARAM = "players"  # the param of `players … seats D in L..H`
PARAM_INT = 2**63 - 1  # an int param with no range: any 64-bit number (rulespec.runtime.params.MAX_INT)


@dataclass
class Model:
    """Every declaration of a spec, indexed by name, plus derived tables."""

    spec: ast.Spec
    spec_hash: str
    spec_files: tuple[str, ...]
    game: str = ""
    title: str = ""
    players: list[str] = field(default_factory=list)
    player_labels: list[str] = field(default_factory=list)
    params: dict[str, ast.ParamDecl] = field(default_factory=dict)
    # `players … seats D in L..H`: the param `players` (how many seats take part).
    seats: ast.ParamDecl | None = None
    enums: dict[str, ast.EnumDecl] = field(default_factory=dict)
    enum_of_value: dict[str, str] = field(default_factory=dict)
    tracks: dict[str, TrackMeta] = field(default_factory=dict)
    track_decls: dict[str, ast.TrackDecl] = field(default_factory=dict)
    # A track `on ENUM`: the enum's values (its cells, value-major: slot + i * width + p)
    # and each value's bounds.
    track_values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    track_bounds: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    vars: dict[str, ast.VarDecl] = field(default_factory=dict)
    var_index: dict[str, int] = field(default_factory=dict)
    zones: dict[str, ZoneMeta] = field(default_factory=dict)
    counters: dict[str, CounterMeta] = field(default_factory=dict)
    counter_kinds: dict[str, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)  # the counters and tracks declared `flag`: 0 or 1, read as truths
    kinds: dict[str, ast.KindDecl] = field(default_factory=dict)
    entities: list[ast.EntityDecl] = field(default_factory=list)
    entity_index: dict[str, int] = field(default_factory=dict)
    entity_attrs: list[dict[str, Any]] = field(default_factory=list)
    # attribute `on ENUM` -> the enum (each entity's value is a tuple in the enum's order; one
    # enum a name: checks/kinds.py)
    attr_enums: dict[str, str] = field(default_factory=dict)
    # data on enum values: attribute -> {value: its literal} (an attribute of one enum only)
    enum_attrs: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Cards of a kind `per player`: the card's name -> its instances, one per player in
    # player order (ids "card(player)", ...); and each entity's owner (None: not per player).
    instances: dict[str, tuple[int, ...]] = field(default_factory=dict)
    copies: dict[str, tuple[str, ...]] = field(default_factory=dict)  # `copies N`: name -> its copies' ids
    entity_owner: list[int | None] = field(default_factory=list)
    kind_members: dict[str, list[int]] = field(default_factory=dict)
    region_members: dict[int, list[int]] = field(default_factory=dict)
    adjacency: dict[int, list[int]] = field(default_factory=dict)
    lifetimes: dict[str, ast.Ident] = field(default_factory=dict)
    actions: dict[str, ast.ActionDecl] = field(default_factory=dict)
    signals: dict[str, ast.SignalDecl] = field(default_factory=dict)
    constraints: list[ast.ConstraintDecl] = field(default_factory=list)
    effects: dict[str, ast.EffectDecl] = field(default_factory=dict)
    effect_index: dict[str, int] = field(default_factory=dict)
    # A card's `while in` abilities: each is an effect over `this` (named ability_name()),
    # after the declared effects, never activated: it holds for an instance while the
    # instance lies in one of its zones. `abilities` lists (effect, instance, zone slots)
    # in entity order, then source order: the order they are heard and applied in.
    ability_effects: dict[str, ast.Ability] = field(default_factory=dict)
    abilities: list[tuple[str, int, tuple[int, ...]]] = field(default_factory=list)
    # Their `allow ... despite C`: (action, constraint) -> (instance, zone slots, the pattern's
    # names, the condition), in entity order.
    allows: dict[tuple[str, str], list[tuple[int, tuple[int, ...], tuple[str, ...], ast.Expr]]] = \
        field(default_factory=dict)
    defines: dict[str, ast.DefineDecl] = field(default_factory=dict)
    quantities: dict[str, ast.QuantityDecl] = field(default_factory=dict)
    procedures: dict[str, ast.ProcedureDecl] = field(default_factory=dict)
    invariants: list[ast.InvariantDecl] = field(default_factory=list)
    bots: dict[str, ast.BotDecl] = field(default_factory=dict)
    policies: dict[str, ast.PolicyDecl] = field(default_factory=dict)
    balance_bot: ast.BalanceBotDecl | None = None  # the first; the policy checks report a second
    asserts: list[ast.AssertDecl] = field(default_factory=list)
    tallies: list[ast.TallyDecl] = field(default_factory=list)
    tests: list[ast.TestDecl] = field(default_factory=list)
    map_rules: list[ast.Node] = field(default_factory=list)
    boards: list[ast.BoardDecl] = field(default_factory=list)  # one at most (checks/board.py)
    start: ast.ProcedureDecl | None = None
    variants: list[str] = field(default_factory=list)
    available_variants: list[str] = field(default_factory=list)
    # The designer tests' files (tests/) and their hash: part of what makes a
    # generated package current for `rulespec test`, not of the spec hash
    # (a test edit changes no game, so records stay valid).
    changed_tests: dict[str, list[str]] = field(default_factory=dict)  # variant -> base tests
    changes: list[ast.ChangesDecl] = field(default_factory=list)
    test_files: tuple[str, ...] = ()
    tests_hash: str = ""
    sources: Any = None  # errors.Sources of every parsed file, to quote spec text
    test_plan: Any = None  # testplan.Plan, made on first use
    player_labels_found: Any = None  # labels.PlayerLabels, made on first use

    # ------------------------------------------------------------ queries
    def track_cells(self) -> list[TrackMeta]:
        """The tracks as the runtime keeps them: a track on an enum as one track per value,
        named `track(value)`."""
        out = []
        for name, track in self.tracks.items():
            values = self.track_values.get(name)
            if values is None:
                out.append(track)
                continue
            width = len(self.players) if track.per_player else 1
            for i, (value, (low, high)) in enumerate(zip(values, self.track_bounds[name])):
                out.append(TrackMeta(f"{name}({value})", f"{track.label} ({value})", track.per_player,
                                     low, high, min(max(track.start, low), high), track.slot + i * width,
                                     track.visibility, track.flag))
        return out

    def track_bounds_at(self, name: str, slot: int) -> tuple[int, int]:
        """The bounds of the track cell at `slot`: its value's own on a track on an enum."""
        track = self.tracks[name]
        bounds = self.track_bounds.get(name)
        if bounds is None:
            return track.low, track.high
        width = len(self.players) if track.per_player else 1
        return bounds[(slot - track.slot) // width]

    def track_value_index(self, name: str, value: str) -> int | None:
        """Where a value of its enum lies in a track on an enum (None: not one of them)."""
        values = self.track_values.get(name, ())
        return values.index(value) if value in values else None

    def category(self, kind: str) -> str | None:
        decl = self.kinds.get(kind)
        return decl.category if decl else None

    def entity_category(self, index: int) -> str | None:
        return self.category(self.entities[index].kind.name)

    def cards(self) -> list[int]:
        return [i for i, e in enumerate(self.entities) if self.category(e.kind.name) == "card"]

    def spaces(self) -> list[int]:
        return [i for i, e in enumerate(self.entities) if self.category(e.kind.name) == "space"]

    def event_of(self, index: int) -> ast.EventBlock | None:
        events = self.entities[index].events
        return events[0] if events else None

    def action_of(self, index: int) -> ast.ActionBlock | None:
        actions = self.entities[index].actions
        return actions[0] if actions else None

    def literal(self, expr: ast.Expr | None) -> Any:
        """The value of a literal in a declaration (attribute, default, var)."""
        if expr is None or isinstance(expr, ast.NoneLit):
            return None
        if isinstance(expr, (ast.IntLit, ast.StrLit, ast.BoolLit)):
            return expr.value
        if isinstance(expr, ast.NameRef):
            name = expr.name
            if name in self.players:
                return self.players.index(name)
            if name in self.entity_index:
                return self.entity_index[name]
            return name  # an enum value (or unknown: the checker says so)
        return None

    def per_value(self, field: ast.Field, given: ast.Expr | ast.PerValue | None) -> tuple | None:
        """An attribute `on ENUM` of one entity: its values in the enum's order, the default
        where none is given (None: the enum is unknown, or the value not a list; checked)."""
        enum = self.enums.get(field.on.name) if field.on is not None else None
        if enum is None or (given is not None and not isinstance(given, ast.PerValue)):
            return None
        at = {item.key.name: self.literal(item.value) for item in given.items} if given else {}
        default = self.literal(field.default)
        return tuple(at.get(v.name, default) for v in enum.values)

    def meta(self) -> GameMeta:
        return GameMeta(
            game=self.game, title=self.title, spec_hash=self.spec_hash,
            spec_files=self.spec_files,
            players=tuple(self.players), player_labels=tuple(self.player_labels),
            tracks=tuple(self.track_cells()),
            vars=tuple((n, self.literal(d.initial)) for n, d in self.vars.items()),
            zones=tuple(self.zones.values()),
            counters=tuple(self.counters.values()),
            entity_ids=tuple(e.name.name for e in self.entities),
            entity_labels=tuple(e.label for e in self.entities),
            entity_kinds=tuple(e.kind.name for e in self.entities),
            card_entities=tuple(self.cards()),
            params=tuple((n, d.type.name, self.literal(d.default)) for n, d in self.all_params().items()),
            invariants=tuple((i.name.name, i.label) for i in self.invariants),
            effects=tuple(self.effects),
            bots=tuple(self.bots),
            policies=tuple(self.policies),
            tunables=tuple((name, self.tunable_metas(name)) for name in self.policies),
            balance_bot=self.balance_bot.agent if self.balance_bot is not None else "",
            use_labels=tuple((n, d.label) for n, d in self.signals.items() if d.label is not None),
            counts=self.counts(),
            var_kinds=tuple(self.value_kind(d.type.name) for d in self.vars.values()),
            effect_param_kinds=tuple(tuple(self.value_kind(p.type.name) for p in e.params)
                                     for e in self.effects.values()),
            param_domains=tuple((n, self.param_domain(d)) for n, d in self.all_params().items()),
            seats_param=SEATS_PARAM if self.seats is not None else "",
            board=board_meta(self),
        )

    def policy_chain(self, name: str) -> list[ast.PolicyDecl]:
        """The policy and the ones it extends, nearest first (a cycle stops at the repeat)."""
        chain: list[ast.PolicyDecl] = []
        while name in self.policies and all(d.name.name != name for d in chain):
            decl = self.policies[name]
            chain.append(decl)
            name = decl.extends.name if decl.extends is not None else ""
        return chain

    def policy_tunables(self, name: str) -> list[ast.Tunable]:
        """The tunables a policy's rules may read: its own, then its bases', first name wins."""
        found: dict[str, ast.Tunable] = {}
        for decl in self.policy_chain(name):
            for tunable in decl.declared_tunables():
                found.setdefault(tunable.name.name, tunable)
        return list(found.values())

    def tunable_metas(self, name: str) -> tuple[TunableMeta, ...]:
        owners = {id(t): d.name.name for d in self.policy_chain(name) for t in d.declared_tunables()}
        return tuple(TunableMeta(t.name.name, t.default.value,
                                 t.low.value if t.low is not None else None,
                                 t.high.value if t.high is not None else None,
                                 owners[id(t)], t.label or "")
                     for t in self.policy_tunables(name))

    def all_params(self) -> dict[str, ast.ParamDecl]:
        """The params a run or a test may set: the declared ones and the seat count."""
        if self.seats is None:
            return self.params
        return {**self.params, SEATS_PARAM: self.seats}

    def param_domain(self, decl: ast.ParamDecl) -> tuple[str, tuple]:
        """The values a param may take (runtime/params.py): its range or choices, else its type's."""
        kind = decl.type.name
        if decl.low is not None and decl.high is not None:
            return ("range", (self.literal(decl.low), self.literal(decl.high)))
        if decl.choices:
            return ("choices", tuple(self.literal(c) for c in decl.choices))
        if kind == "int":
            return ("range", (-PARAM_INT, PARAM_INT))
        if kind == "bool":
            return ("choices", (False, True))
        if kind == "player":
            return ("choices", tuple(range(len(self.players))))
        if kind in self.enums:
            return ("choices", tuple(v.name for v in self.enums[kind].values))
        if kind in self.kinds:
            return ("choices", tuple(self.kind_members.get(kind, ())))
        return ("text", ())

    def value_kind(self, type_name: str) -> str:
        """What a value of a type stands for at run time: card, space, region, player or ''."""
        if type_name in ("card", "space", "region", "player"):
            return type_name
        return self.category(type_name) or ""

    def counts(self) -> dict[str, Any]:
        cards = self.cards()
        return {
            "spaces": len(self.spaces()),
            "regions": sum(1 for e in self.entities if self.category(e.kind.name) == "region"),
            "cards": len(cards),
            "cards_with_events": sum(1 for c in cards if self.entities[c].events),
            "phases": sum(1 for p in self.procedures.values() if p.role == "phase"),
            "constraints": len(self.constraints),
            "designer_tests": len(self.tests),
        }


def option_kind(model: Model, stmt: ast.Choose) -> str:
    """How a choice's options are named: as `Choose.option_kind` says, and a choice of an
    enum's values by the values themselves (as numbers are)."""
    if isinstance(stmt.source, ast.NameRef) and stmt.source.name in model.enums:
        return "int"
    if isinstance(stmt.source, ast.ListOf):
        return list_option_kind(model, stmt.source)
    return stmt.option_kind


def list_option_kind(model: Model, source: ast.ListOf) -> str:
    """A list's options are named by its first item that shows what they are: a number or an
    enum value ("int": by the value), a player, else an entity (checks/typecheck.py reports a
    list of players or numbers whose items show none of it)."""
    for item in source.items:
        if isinstance(item, (ast.IntLit, ast.Negate)):
            return "int"
        if isinstance(item, ast.NameRef):
            if item.name in model.players:
                return "player"
            if item.name in model.enum_of_value:
                return "int"
            if item.name in model.entity_index:
                return "entity"
        if isinstance(item, ast.CallExpr) and item.name == "opponent":
            return "player"
    return "entity"


def spec_hash(files: list[tuple[str, str]]) -> str:
    """sha256 over (name, text) of the engine's spec files, in name order."""
    digest = hashlib.sha256()
    for name, text in sorted(files):
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()[:16]


def build_model(spec: ast.Spec, tests: list[ast.TestDecl], files: list[tuple[str, str]]) -> Model:
    """Index every declaration; tolerant of errors so checks can use it too."""
    model = Model(spec, spec_hash(files), tuple(sorted(n for n, _ in files)))
    for decl in spec.decls():
        _index(model, decl)
    model.tests.extend(tests)
    _derive_tracks(model)
    _expand_instances(model)
    _derive_entities(model)
    _derive_abilities(model)
    return model


def _index(model: Model, decl: ast.Decl) -> None:
    players = max(len(model.players), 1)
    match decl:
        case ast.GameDecl():
            model.game, model.title = decl.name.name, decl.title
        case ast.PlayersDecl():
            model.players = [p.name.name for p in decl.players]
            model.player_labels = [p.label for p in decl.players]
            if decl.seats is not None:
                default, low, high = decl.seats
                model.seats = ast.ParamDecl(decl.span, ast.Ident(decl.span, SEATS_PARAM),
                                            ast.TypeRef(decl.span, "int"), default,
                                            "Number of players", low, high)
        case ast.ParamDecl():
            model.params.setdefault(decl.name.name, decl)
        case ast.EnumDecl():
            model.enums.setdefault(decl.name.name, decl)
            for value in decl.values:
                model.enum_of_value.setdefault(value.name, decl.name.name)
        case ast.TrackDecl():
            if decl.flag and decl.name.name not in model.track_decls:  # the first declaration wins
                model.flags.add(decl.name.name)
            model.track_decls.setdefault(decl.name.name, decl)
        case ast.VarDecl():
            if decl.name.name not in model.vars:
                model.var_index[decl.name.name] = len(model.vars)
                model.vars[decl.name.name] = decl
        case ast.ZoneDecl():
            slot = sum(players if z.per_player else 1 for z in model.zones.values())
            model.zones.setdefault(decl.name.name, ZoneMeta(
                decl.name.name, decl.label, decl.per_player, decl.visibility, decl.ordered, slot))
        case ast.CounterDecl():
            if decl.flag and decl.name.name not in model.counters:  # the first declaration wins
                model.flags.add(decl.name.name)
            slot = sum(players if c.per_player else 1 for c in model.counters.values())
            model.counters.setdefault(decl.name.name, CounterMeta(
                decl.name.name, decl.label, decl.per_player, slot, decl.flag))
            model.counter_kinds.setdefault(decl.name.name, decl.kind.name)
        case ast.KindDecl():
            model.kinds.setdefault(decl.name.name, decl)
        case ast.LifetimesDecl():
            for name in decl.names:
                model.lifetimes.setdefault(name.name, name)
        case ast.ActionDecl():
            model.actions.setdefault(decl.name.name, decl)
        case ast.SignalDecl():
            model.signals.setdefault(decl.name.name, decl)
        case ast.ConstraintDecl():
            model.constraints.append(decl)
        case ast.EffectDecl():
            if decl.name.name not in model.effects:
                model.effect_index[decl.name.name] = len(model.effects)
                model.effects[decl.name.name] = decl
        case ast.DefineDecl():
            model.defines.setdefault(decl.name.name, decl)
        case ast.QuantityDecl():
            model.quantities.setdefault(decl.name.name, decl)
        case ast.ProcedureDecl():
            if decl.role == "start":
                model.start = model.start or decl
            else:
                model.procedures.setdefault(decl.name.name, decl)
        case ast.InvariantDecl():
            model.invariants.append(decl)
        case ast.AssertDecl():
            model.asserts.append(decl)
        case ast.TallyDecl():
            model.tallies.append(decl)
        case ast.BotDecl():
            model.bots.setdefault(decl.name.name, decl)
        case ast.PolicyDecl():
            model.policies.setdefault(decl.name.name, decl)
        case ast.BalanceBotDecl():
            model.balance_bot = model.balance_bot or decl
        case ast.MapDecl():
            model.map_rules.extend(decl.rules)
        case ast.BoardDecl():
            model.boards.append(decl)
        case ast.ChangesDecl():
            variant = PurePath(decl.span.file).stem
            model.changed_tests.setdefault(variant, []).extend(decl.tests)
            model.changes.append(decl)
        case ast.TestDecl():
            model.tests.append(decl)
        case ast.EntityDecl():
            ids = ast.copy_ids(decl)
            if len(ids) > 1:
                model.copies[decl.name.name] = tuple(i.name for i in ids)
            for ident in ids:
                if ident.name not in model.entity_index:
                    model.entity_index[ident.name] = len(model.entities)
                    model.entities.append(decl if ident is decl.name else replace(decl, name=ident))


def _derive_tracks(model: Model) -> None:
    """Slots for the tracks, in declaration order, once the enums they are on are known."""
    players, slot = max(len(model.players), 1), 0
    for name, decl in model.track_decls.items():
        low, high = decl.low, decl.high
        width = players if decl.per_player else 1
        enum = model.enums.get(decl.on.name) if decl.on is not None else None
        if enum is not None:
            values = tuple(v.name for v in enum.values)
            own = {b.value.name: (b.low, b.high) for b in decl.bounds}
            bounds = tuple(own.get(v, (decl.low, decl.high)) for v in values)
            model.track_values[name], model.track_bounds[name] = values, bounds
            low, high = min(b[0] for b in bounds), max(b[1] for b in bounds)
        model.tracks[name] = TrackMeta(name, decl.label, decl.per_player, low, high, decl.start, slot,
                                       decl.visibility, decl.flag)
        slot += width * (len(model.track_values.get(name, ())) or 1)


def instance_id(card: str, player: str) -> str:
    """The id of a player's instance of a card of a kind `per player`: card(player)."""
    return f"{card}({player})"


def _expand_instances(model: Model) -> None:
    """Every card of a kind `per player` becomes one entity per player: the first player's
    instances keep the declaration's place, the others follow all declared entities, player
    by player in declaration order (so each player's cards keep one relative order)."""
    per = {name for name, kind in model.kinds.items() if kind.per_player and kind.category == "card"}
    if not per or not model.players:
        model.entity_owner = [None] * len(model.entities)
        return
    placed: list[tuple[ast.EntityDecl, int | None]] = []
    later: list[list[ast.EntityDecl]] = [[] for _ in model.players[1:]]
    for entity in model.entities:
        if entity.kind.name not in per:
            placed.append((entity, None))
            continue
        copies = [replace(entity, name=replace(entity.name, name=instance_id(entity.name.name, p)))
                  for p in model.players]
        placed.append((copies[0], 0))
        for rest, copy in zip(later, copies[1:]):
            rest.append(copy)
    for number, rest in enumerate(later, start=1):
        placed.extend((copy, number) for copy in rest)
    model.entities = [e for e, _ in placed]
    model.entity_owner = [owner for _, owner in placed]
    model.entity_index = {}
    for index, entity in enumerate(model.entities):
        model.entity_index.setdefault(entity.name.name, index)
    for index, (entity, owner) in enumerate(placed):
        if owner == 0:
            card = entity.name.name.rsplit("(", 1)[0]
            model.instances[card] = tuple(
                model.entity_index[instance_id(card, p)] for p in model.players)


def ability_name(card: str, number: int) -> str:
    """The effect that stands for a card's `while in` block number `number` (from 0)."""
    return f"{card}__while{number}"


def _derive_abilities(model: Model) -> None:
    declared: dict[str, str] = {}  # instance -> its declaration's name
    for card, instances in model.instances.items():
        declared.update({model.entities[i].name.name: card for i in instances})
    for index, entity in enumerate(model.entities):
        card = declared.get(entity.name.name, entity.name.name)
        for number, ability in enumerate(entity.abilities):
            name = ability_name(card, number)
            if name not in model.effects:
                this = ast.Param(ability.span, "this", ast.TypeRef(ability.span, entity.kind.name))
                model.effect_index[name] = len(model.effects)
                model.effects[name] = ast.EffectDecl(
                    ability.span, ast.Ident(ability.span, name), (this,), entity.label,
                    ability.modifiers, ability.forbids, ability.triggers)
                model.ability_effects[name] = ability
            slots = ability_slots(model, ability, index)
            model.abilities.append((name, index, slots))
            for allow in ability.allows:
                for pattern in allow.patterns:
                    names = tuple(n.name for n in pattern.names)
                    for constraint in allow.constraints:
                        model.allows.setdefault((pattern.action.name, constraint.name), []).append(
                            (index, slots, names, allow.when))


def ability_slots(model: Model, ability: ast.Ability, index: int) -> tuple[int, ...]:
    """The zone slots where an instance's ability holds: its owner's for a zone per player."""
    owner = model.entity_owner[index] if index < len(model.entity_owner) else None
    slots: list[int] = []
    for ident in ability.zones:
        zone = model.zones.get(ident.name)
        if zone is None:
            continue
        if not zone.per_player:
            slots.append(zone.slot)
        elif owner is not None:
            slots.append(zone.slot + owner)
        else:
            slots.extend(zone.slot + p for p in range(len(model.players)))
    return tuple(slots)


def _derive_entities(model: Model) -> None:
    model.attr_enums = {f.name.name: f.on.name for k in model.kinds.values() for f in k.fields
                        if f.on is not None and f.on.name in model.enums}
    for enum in model.enums.values():
        for f in enum.fields:
            given = [{a.name.name: a.value for a in data} for data in enum.data]
            model.enum_attrs[f.name.name] = {value.name: model.literal(row.get(f.name.name, f.default))
                                             for value, row in zip(enum.values, given)}
    for index, entity in enumerate(model.entities):
        model.kind_members.setdefault(entity.kind.name, []).append(index)
        kind = model.kinds.get(entity.kind.name)
        attrs: dict[str, Any] = {}
        fields = {f.name.name: f for f in kind.fields} if kind is not None else {}
        for f in fields.values():
            attrs[f.name.name] = model.per_value(f, None) if f.on is not None else model.literal(f.default)
        for attribute in entity.attributes:
            field = fields.get(attribute.name.name)
            if field is not None and field.on is not None:
                attrs[field.name.name] = model.per_value(field, attribute.value)
            else:
                attrs[attribute.name.name] = model.literal(attribute.value)
        model.entity_attrs.append(attrs)
        model.adjacency[index] = [
            model.entity_index[a.name] for a in entity.adjacent if a.name in model.entity_index
        ]
    parents = {
        i: [model.entity_index[r.name] for r in e.regions if r.name in model.entity_index]
        for i, e in enumerate(model.entities)
    }
    for index in range(len(model.entities)):
        if model.entity_category(index) == "region":
            model.region_members[index] = []
    for index in range(len(model.entities)):
        if model.entity_category(index) != "space":
            continue
        for region in _ancestors(index, parents):
            if region in model.region_members:
                model.region_members[region].append(index)


def _ancestors(index: int, parents: dict[int, list[int]]) -> list[int]:
    seen: list[int] = []
    todo = list(parents.get(index, []))
    while todo:
        region = todo.pop(0)
        if region not in seen:
            seen.append(region)
            todo.extend(parents.get(region, []))
    return seen
