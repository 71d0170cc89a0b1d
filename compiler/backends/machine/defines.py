"""The native defines (docs/NATIVE.md, stage 2): each `define` giving a number or a truth, written
by the code generator's one expression emitter in the Cython dialect (dialect.py) as a typed
function of the game's machine state, rendered into one Cython module (templates/
defines.pyx.j2), built into the cache (build.py).

A define the dialect cannot write yet is refused with its spec location and what stopped it, in
words: that list is the native coverage report (`rulespec info GAME --native-coverage`).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from rulespec.compiler.backends.codegen.context import Gen
from rulespec.compiler.backends.codegen.expr import ExprEmitter, Scope
from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.machine.allowed import KIND as CHECK, NativeAllowed, anchor, read_by, write_allowed
from rulespec.compiler.backends.machine.ctables import (MISSING, CTable, attribute_rows, attribute_values,
                                                        game_tables)
from rulespec.compiler.backends.machine.dialect import CythonDialect, Unsupported
from rulespec.compiler.backends.machine.effects import KIND as QUANTITY, NativeQuantity, NativeView, arg_kinds
from rulespec.compiler.backends.machine.effects import EffectsInPlay, active_test, effects_in_play, group_width
from rulespec.compiler.backends.machine.effects import read_by as read_by_quantity, write_quantity
from rulespec.compiler.backends.machine.header import render_header
from rulespec.compiler.backends.machine.layout import Layout, machine_layout
from rulespec.compiler.backends.machine.loops import NativeLoop
from rulespec.compiler.backends.machine.packing import packing_context
from rulespec.compiler.backends.machine.primitives import primitive_context
from rulespec.compiler.backends.machine.whens import CARD_CHECKS, card_whens
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.types import Type, TypeInfer
from rulespec.compiler.frontend.model import Model

# A value's C type in a native function, by the checker's type (types.py); none of a player,
# entity or enum value is NONE (dialect.py).
C_TYPES = {"int": "int64_t", "bool": "bint", "player": "int", "entity": "int", "enum": "int"}
NONE_TYPES = ("player", "entity", "enum")  # the values whose none is NONE
# The runtime helpers the module writes natively (templates/defines.pyx.j2), under their names.
HELPERS = frozenset({"attr_of", "opponent_of", "owner_of", "OWNER", "HAS_EVENT", "top_card", "ENTITY_LABELS"})
# What a define does when the generated code names a runtime helper the module has not, in words.
REASONS = {
    "knows": "reads what a seat knows, which the native engine does not hold yet",
    "known_in": "reads what a seat knows, which the native engine does not hold yet",
    "winner_of": "reads the result, which is not machine data yet",
    "losers_of": "reads the result, which is not machine data yet",
    "end_reason_of": "reads the result, which is not machine data yet",
    "deciding_of": "reads the pending decision, which is not machine data yet",
    "UNBOUND": "calls a rule with fewer arguments than it takes",
    "zone_slot": "holds a zone in a value, which has no machine form in a define yet",
    "zone_value": "holds a zone in a value, which has no machine form in a define yet",
    "event_allowed": "asks whether a card's event may be played: its conditions read lasting effects",
    "EVENT_WHEN": "asks whether a card's event may be played: its conditions read lasting effects",
    "action_allowed": "asks whether a card's action may be played: its conditions read lasting effects",
    "ACTION_CARDS": "asks whether a card's action may be played: its conditions read lasting effects",
}
# Where a runtime helper comes from in the spec: the node a refusal names (else the define).
SOURCES = {
    "is_active": lambda n, m: isinstance(n, ast.Active),
    **{helper: (lambda call: lambda n, m: isinstance(n, ast.CallExpr) and n.name == call)(call)
       for helper, call in (("knows", "known"), ("known_in", "known_in"), ("top_card", "top"),
                            ("event_allowed", "event_allowed"), ("EVENT_WHEN", "event_allowed"),
                            ("action_allowed", "action_allowed"), ("ACTION_CARDS", "action_allowed"))},
    **{helper: (lambda name: lambda n, m: isinstance(n, ast.NameRef) and n.name == name)(name)
       for helper, name in (("winner_of", "winner"), ("losers_of", "losers"),
                            ("end_reason_of", "end_reason"), ("deciding_of", "deciding"))},
}


class NativeEmitter(ExprEmitter):
    """The code generator's emitter, naming the innermost expression a refusal came from."""

    def emit(self, node: ast.Expr):
        try:
            return super().emit(node)
        except Unsupported as why:
            if why.node is None:
                why.node = node
            raise

    def emit_Active(self, node: ast.Active):
        index = self.model.effect_index.get(node.effect.name)
        return super().emit_Active(node) if index is None else active_test(self, index, node)


@dataclass(frozen=True)
class Refused:
    """A define the native dialect does not compile: where, and why, in words."""

    name: str
    location: str  # file:line:col of what stopped it (the define's own when nothing nearer)
    reason: str
    cause: str = ""  # for a define refused for calling one: where and why the first was refused
    kind: str = "define"  # or "procedure" (procedures.py)

    @property
    def root(self) -> str:
        """Where and why the chain of refusals it stands on began."""
        return self.cause or f"{self.location}: {self.reason}"

    def __str__(self) -> str:
        return f"{self.location}: {self.kind} `{self.name}` {self.reason}"


@dataclass
class NativeDefine:
    """A compiled define: its C function, typed parameters and body."""

    name: str  # the spec's
    function: str  # d_name
    params: list[tuple[str, str, str]]  # (C name, C type, the checker's base type)
    returns: str  # int64_t or bint
    body: str
    spec: str
    convert: str = "bool(@)"  # what the Python wrapper makes of the C value @ (templates/defines.pyx.j2)

    @property
    def call(self) -> str:
        """The C function called from its Python wrapper, its value as the generated package's."""
        args = "".join(f", index_of({n})" if c == "int" else f", {n}" for n, c, _ in self.params)
        return self.convert.replace("@", f"{self.function}(&position.run{args})")


@dataclass
class NativeDefines:
    """A game's defines as the native engine holds them."""

    layout: Layout
    compiled: list[NativeDefine]
    refused: list[Refused]
    tables: list[CTable]
    entities: dict[str, int]  # the entity constants the bodies name (E_cuba)
    enum_places: dict[str, int]  # each enum value's place in its enum
    enum_names: dict[str, tuple[str, ...]]  # each enum's values in order
    loops: list[NativeLoop]  # the loops of the defines' any, all, count, sum, max and min
    params: dict[str, Any]  # each param's default, in the order of the position's params
    procedures: Any = None  # the plain procedures compiled and refused (procedures.py)
    allowed: list[NativeAllowed] = field(default_factory=list)  # the allowed checks compiled (allowed.py)
    refused_allowed: list[Refused] = field(default_factory=list)  # and those refused, with why
    steps: Any = None  # the steps of the frames compiled and refused (steps.py)
    policies: Any = None  # the policy rules compiled and refused (policies.py)
    evaluations: Any = None  # the bot evaluations compiled and refused (evaluations.py)
    quantities: list[NativeQuantity] = field(default_factory=list)  # the quantities compiled (effects.py)
    refused_quantities: list[Refused] = field(default_factory=list)  # and those refused, with why
    effect_kinds: dict = field(default_factory=dict)  # each effect's argument kinds (effects.py arg_kinds)
    lasting: EffectsInPlay | None = None  # the room of the Machine's effects in play (effects.py)

    def coverage(self) -> dict:
        """What compiles natively and where and why the rest does not: the defines (keys kept
        from stage 2), then the plain procedures."""
        report = {"game": self.layout.game, "defines": len(self.compiled) + len(self.refused),
                  "compiled": [d.name for d in self.compiled],
                  "refused": [{"define": r.name, "location": r.location, "reason": r.reason,
                               "text": str(r)} for r in self.refused]}
        if self.procedures is not None:
            made = self.procedures
            report["procedures"] = {
                "plain": len(made.compiled) + len(made.refused),
                "compiled": [p.name for p in made.compiled],
                "refused": [{"procedure": r.name, "location": r.location, "reason": r.reason,
                             "text": str(r)} for r in made.refused]}
        report["quantities"] = {"quantities": len(self.quantities) + len(self.refused_quantities),
                                 "compiled": [q.name for q in self.quantities],
                                 "refused": [{"quantity": r.name, "location": r.location, "reason": r.reason,
                                              "text": str(r)} for r in self.refused_quantities]}
        report["allowed"] = {"checks": len(self.allowed) + len(self.refused_allowed),
                             "compiled": [a.action for a in self.allowed],
                             "refused": [{"action": r.name, "location": r.location, "reason": r.reason,
                                          "text": str(r)} for r in self.refused_allowed]}
        if self.policies is not None:
            report["policies"] = self.policies.coverage()
        if self.evaluations is not None:
            report["evaluations"] = self.evaluations.coverage()
        return report


class DefineCompiler:
    """Compiles each define and each allowed check (allowed.py) in the Cython dialect, what it
    calls first."""

    def __init__(self, model: Model, layout: Layout):
        self.model, self.layout = model, layout
        self.gen = Gen(model)
        self.gen.module = "rules"
        self.dialect = CythonDialect(model, layout)
        self.types = TypeInfer(model)
        self.done: dict[str, NativeDefine | Refused] = {}
        self.busy: set[str] = set()
        self.asked: dict[str, NativeAllowed | Refused] = {}  # the allowed checks, by action
        self.asking: set[str] = set()
        self.attributes: dict[str, CTable] = {}
        self.card_whens: dict[str, Any] = {}  # cards' `when`s by kind, compiled or why not (whens.py)
        self.quantified: dict[str, NativeQuantity | Refused] = {}  # the quantities (effects.py), by name
        self.quantifying: set[str] = set()
        self.effect_kinds = arg_kinds(self)

    def all(self) -> NativeDefines:
        for name in self.model.defines:
            self.compile(name)
        for action in self.gen.allowed:  # those no define asks about, for the procedures
            self.ask(action)
        for name in self.model.quantities:  # and the quantities no define reads
            self.quantity(name)
        compiled = [d for d in self.done.values() if isinstance(d, NativeDefine)]
        refused = [d for d in self.done.values() if isinstance(d, Refused)]
        order = list(self.model.defines)
        compiled.sort(key=lambda d: order.index(d.name))
        refused.sort(key=lambda d: order.index(d.name))
        entities = self.entity_constants()
        return NativeDefines(self.layout, compiled, refused, self.tables(),
                             entities, self.dialect.enum_place,
                             {e: tuple(v.name for v in d.values) for e, d in self.model.enums.items()},
                             list(self.dialect.loops.made.values()),
                             {n: self.model.literal(d.default) for n, d in self.model.all_params().items()},
                             allowed=[a for a in self.asked.values() if isinstance(a, NativeAllowed)],
                             refused_allowed=[a for a in self.asked.values() if isinstance(a, Refused)],
                             quantities=[q for q in self.quantified.values() if isinstance(q, NativeQuantity)],
                             refused_quantities=[q for q in self.quantified.values() if isinstance(q, Refused)],
                             effect_kinds=self.effect_kinds, lasting=effects_in_play(self.model))

    def tables(self) -> list[CTable]:
        """The game's tables and the attributes' the compiled rules read."""
        return (game_tables(self.model, self.gen, self.layout, self.dialect.enum_place)
                + list(self.attributes.values()))

    def entity_constants(self) -> dict[str, int]:
        """The entity constants the compiled rules name (E_cuba), by index."""
        return {self.gen.entity_names[i]: i for i in range(len(self.model.entities))
                if self.gen.entity_names[i] in self.gen.uses["rules"]}

    def compile(self, name: str) -> NativeDefine | Refused:
        decl = self.model.defines[name]
        return self.first_needs(self.done, self.busy, name, "define", decl, "calls itself",
                                lambda: [decl.body], lambda: self.emitted(decl))

    def first_needs(self, made: dict, busy: set, name: str, kind: str, home: ast.Node, itself: str,
                    bodies, write):
        """A rule compiled once (kept in `made`): the defines, checks and quantities it reads first
        (`bodies()`), then itself (`write()`); refused, with where and why, when one of those is, or
        when the dialect cannot write it. `busy`: the rules being compiled, for a rule reaching itself."""
        if name in made:
            return made[name]
        if name in busy:
            return Refused(name, self.gen.loc(home), f"{itself}, which the native dialect does not do yet",
                           kind=kind)
        busy.add(name)
        try:
            for call, needed, words in self.needs(bodies()):
                if isinstance(needed, Refused):
                    made[name] = Refused(name, self.gen.loc(call), f"{words}, which is not compiled natively"
                                         f" ({needed.root})", needed.root, kind)
                    return made[name]
            try:
                made[name] = write()
            except Unsupported as why:
                made[name] = Refused(name, self.gen.loc(why.node or home), why.reason, kind=kind)
        finally:
            busy.discard(name)
        return made[name]

    def needs(self, bodies: list[ast.Expr]):
        """The defines the bodies call and the actions they ask about, each compiled when first
        met: (the call, what it compiled to, the call in words)."""
        seen = set()
        for body in bodies:
            for node in body.walk():
                if isinstance(node, ast.CallExpr) and node.name in self.model.defines:
                    key, words = ("define", node.name), f"calls define `{node.name}`"
                elif isinstance(node, ast.Allowed) and node.action.name in self.gen.allowed:
                    key, words = ("check", node.action.name), f"asks whether action `{node.action.name}` is allowed"
                elif isinstance(node, ast.CallExpr) and node.name in self.model.quantities:
                    key, words = ("quantity", node.name), f"reads quantity `{node.name}`"
                else:
                    continue
                if key not in seen:
                    seen.add(key)
                    compile_it = {"define": self.compile, "check": self.ask, "quantity": self.quantity}[key[0]]
                    yield node, compile_it(key[1]), words

    def ask(self, action: str) -> NativeAllowed | Refused:
        """allowed_<action> compiled natively (allowed.py), the rules its checks call first."""
        if action in self.asked:  # asked at every call site: no need to find where it is named
            return self.asked[action]
        return self.first_needs(self.asked, self.asking, action, CHECK, anchor(self.model, action),
                                "asks whether itself is allowed", lambda: read_by(self.model, action),
                                lambda: write_allowed(self, action, self.emitter))

    def quantity(self, name: str) -> NativeQuantity | Refused:
        """A quantity compiled natively (effects.py), the rules its pieces call first."""
        return self.first_needs(self.quantified, self.quantifying, name, QUANTITY, self.model.quantities[name],
                                "reads itself", lambda: read_by_quantity(self.model, name),
                                lambda: write_quantity(self, name, self.emitter))

    def view(self) -> NativeView:
        """The generated package's views over this compiler's Gen, an effect's arguments C locals."""
        return NativeView(self.model, self.gen)

    def effect_width(self, groups) -> int:
        return group_width(self, groups)

    def emitter(self, bindings: list[tuple[str, str, bool]]) -> NativeEmitter:
        return NativeEmitter(self.gen, Scope("none", bindings=bindings), self.dialect)

    def emitted(self, decl: ast.DefineDecl) -> NativeDefine:
        name = decl.name.name
        gives = self.types.define_type(name)
        returns = self.c_type(gives, "gives", optional=True)
        declared = self.types.param_types(decl.params)
        params = [(mangle("local", p.name), self.c_type(declared[p.name], f"takes `{p.name}` as", optional=True),
                   declared[p.name].base) for p in decl.params]
        before = set(self.gen.uses["rules"])
        self.gen.uses["rules"] = set()
        try:
            bindings = [(p.name, c_name, False) for p, (c_name, _, _) in zip(decl.params, params)]
            body = self.emitter(bindings).value(decl.body)
            self.check_names(self.gen.uses["rules"], decl.body)
        finally:
            self.gen.uses["rules"] |= before
        convert = {"bool": "bool(@)", "int": "@", "enum": f"enum_name({gives.name!r}, @)"}.get(
            gives.base, "value_of(@)")
        return NativeDefine(name, self.gen.defines[name], params, returns, body, self.gen.where(decl), convert)

    def c_type(self, typ: Type, what: str, optional: bool = False) -> str:
        """A value's C type; `optional`: none allowed where it has a sentinel (NONE: a player, an
        entity or an enum value, never a number or a truth)."""
        if (typ.optional and not (optional and typ.base in NONE_TYPES)) or typ.base not in C_TYPES:
            raise Unsupported(f"{what} a {typ}, which the native dialect does not hold yet"
                              " (a number, a truth, a player, an entity or an enum value)")
        return C_TYPES[typ.base]

    def source(self, name: str, body: ast.Expr | list[ast.Expr]) -> ast.Node | None:
        """The expression that made the body name a runtime helper or a rule, searched in the
        body and the bodies of the defines it calls (inlined ones among them)."""
        gen, model = self.gen, self.model
        quantity = next((q for q, f in gen.quantities.items() if f == name), None)
        action = next((a for a, f in gen.allowed.items() if f == name), None)
        wanted = SOURCES.get(name)
        if quantity is not None:
            wanted = lambda n, m: isinstance(n, ast.CallExpr) and n.name == quantity  # noqa: E731
        elif action is not None:
            wanted = lambda n, m: isinstance(n, ast.Allowed) and n.action.name == action  # noqa: E731
        if wanted is None:
            return None
        bodies, seen = list(body) if isinstance(body, list) else [body], set()
        while bodies:
            for node in bodies.pop(0).walk():
                if wanted(node, model):
                    return node
                if isinstance(node, ast.CallExpr) and node.name in model.defines and node.name not in seen:
                    seen.add(node.name)
                    bodies.append(model.defines[node.name].body)
        return None

    def check_names(self, names: set[str], body: ast.Expr | list[ast.Expr]) -> None:
        """Refuses a body naming what the module has not: a runtime helper, a rule not compiled."""
        gen, model = self.gen, self.model
        known = (set(gen.entity_names) | set(gen.kind_tables.values()) | set(gen.region_tables.values())
                 | set(gen.enum_tables.values()) | HELPERS | {"PLAYERS", "UNBOUND", "is_active"})  # UNBOUND: named, never
        # written, where every argument is given (the checker holds calls to their arity)
        for name in sorted(names, key=lambda n: (n == "UNBOUND", n)):  # the reason nearest the rules first
            if name in known:
                continue
            attribute = next((a for a, t in gen.attr_tables.items() if t == name), None)
            if attribute is not None:
                self.attribute(attribute, name)
                continue
            define = next((d for d, f in gen.defines.items() if f == name), None)
            if define is not None and isinstance(self.done.get(define), NativeDefine):
                continue
            action = next((a for a, f in gen.allowed.items() if f == name), None)
            if action is not None and isinstance(self.asked.get(action), NativeAllowed):
                continue
            quantity = next((q for q, f in gen.quantities.items() if f == name), None)
            if quantity is not None and isinstance(self.quantified.get(quantity), NativeQuantity):
                continue
            if name in CARD_CHECKS:  # whether a card's event or action may be played (whens.py)
                made = card_whens(self, CARD_CHECKS[name])
                if not isinstance(made, str):
                    continue
                raise Unsupported(made, self.source(name, body))
            raise Unsupported(self.reason(name), self.source(name, body))

    def attribute(self, attribute: str, table: str) -> None:
        if attribute in self.model.enum_attrs:
            raise Unsupported(f"reads attribute {attribute} of an enum value, which the native dialect"
                              " does not do yet")
        if attribute in self.model.attr_enums and table not in self.attributes:
            rows, width = attribute_rows(self.model, attribute, self.dialect.enum_place)
            self.attributes[table] = CTable(table, "int64_t", (len(self.model.entities), width), rows)
        elif table not in self.attributes:
            values = attribute_values(self.model, attribute, self.dialect.enum_place)
            self.attributes[table] = CTable(table, "int64_t", (len(values),), values)

    def reason(self, name: str) -> str:
        gen = self.gen
        if name in REASONS:
            return REASONS[name]
        if name in gen.quantities.values():
            return "reads a quantity that is not compiled natively"
        if name in gen.allowed.values():
            return "asks whether an action is allowed, which is not compiled natively"
        if name in gen.defines.values():
            return "calls a define that is not compiled natively"
        if name in gen.enum_index.values():
            return "reads an enum value's place when it runs, which the native dialect does not do yet"
        if "LABEL" in name or name == "label_of":
            return "reads text (a label), which the native engine does not hold"
        return f"uses the runtime's {name}, which the native dialect does not write yet"


def argument_values(model: Model, typ: Type) -> tuple:
    """The values a parameter of this type takes, as the generated package passes them: players,
    the entities of its kind or category, an enum's values, truths, a few numbers."""
    if typ.optional and typ.base in NONE_TYPES:
        return argument_values(model, replace(typ, optional=False)) + (None,)
    if typ.base == "player":
        return tuple(range(len(model.players)))
    if typ.base == "entity":
        if typ.name in model.kinds:
            return tuple(model.kind_members.get(typ.name, ()))
        return tuple(i for i in range(len(model.entities))
                     if not typ.category or model.entity_category(i) == typ.category)
    if typ.base == "enum":
        return tuple(v.name for v in model.enums[typ.name].values)
    return (False, True) if typ.base == "bool" else (0, 1, 2, 5)


def argument_tuples(model: Model, decl: ast.DefineDecl, cap: int) -> list[tuple]:
    """Every argument tuple of a define from its parameters' values, spread evenly when there are
    more than `cap`."""
    types = TypeInfer(model).param_types(decl.params)
    every = list(itertools.product(*(argument_values(model, types[p.name]) for p in decl.params)))
    step = max(1, -(-len(every) // cap))
    return every[::step]


def native_defines(model: Model, layout: Layout | None = None) -> NativeDefines:
    """A game's defines compiled by the native dialect, and those it refuses, with why (the
    whole module, procedures too: procedures.py's native_engine)."""
    return DefineCompiler(model, layout or machine_layout(model)).all()


def render_module(defines: NativeDefines) -> str:
    """The Cython module of a game's native defines (templates/defines.pyx.j2)."""
    layout = defines.layout
    header = render_header(layout)
    if '"""' in header or "\\" in header:  # it goes into a Cython string verbatim
        raise Unsupported("the layout's header holds quotes or backslashes")
    env = Environment(loader=PackageLoader("rulespec.compiler.backends.machine", "templates"),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, autoescape=False)
    fields = [(f.ctype, f.name + "".join(f"[{d}]" for d in f.dims)) for f in layout.fields]
    module = env.get_template("defines.pyx.j2").render(
        layout=layout, header=header, fields=fields, defines=defines,
        players=layout.players, entities=layout.entities,
        enum_places=repr(dict(sorted(defines.enum_places.items()))), missing=MISSING,
        enum_names=repr(defines.enum_names), params=defines.params, param_defaults=repr(defines.params),
        **primitive_context(layout), **packing_context(layout),
        procedures=defines.procedures, allowed=defines.allowed, steps=defines.steps,
        policies=defines.policies, evaluations=defines.evaluations, LOOPS=LOOPS_HERE)
    return module.replace(LOOPS_HERE, written_loops(defines.loops, module))


LOOPS_HERE = "# (the loop functions the module calls: written_loops)"


def written_loops(loops: list[NativeLoop], module: str) -> str:
    """The loop functions the rest of the module calls, and those they call, in the order they
    were made. A loop made for something the dialect refused after all is never called, and so
    never written (its text may name what the module has not): no compile step undoes its loops."""
    texts = {loop.name: loop.text for loop in loops}
    wanted, todo = set(), set(LOOP_NAME.findall(module)) & texts.keys()
    while todo:
        name = todo.pop()
        wanted.add(name)
        todo |= (set(LOOP_NAME.findall(texts[name])) & texts.keys()) - wanted
    return "".join(f"\n\n{loop.text}" for loop in loops if loop.name in wanted)


LOOP_NAME = re.compile(r"\b(?:loop|reach|union)_\d+\b")
