"""Static types of expressions: a small inference shared by the checks."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Mapping

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.model import Model

CATEGORIES = ("space", "region", "card")
PRIMITIVES = ("int", "bool", "str", "player", "zone")


@dataclass(frozen=True, slots=True)
class Type:
    """A static type: a base, the enum or kind it names, its category, optional, its elements."""

    base: str  # int bool str player zone none unknown enum entity collection
    name: str = ""  # the enum, or the kind ('' for any entity of the category)
    category: str = ""  # space, region or card, for entities
    optional: bool = False
    elem: Type | None = None

    def __str__(self) -> str:
        if self.base == "collection":
            text = f"collection of {self.elem}"
        elif self.base in ("enum", "entity"):
            text = self.name or self.category
        else:
            text = self.base
        return text + ("?" if self.optional else "")


INT, BOOL, STR = Type("int"), Type("bool"), Type("str")
PLAYER, ZONE, NONE, UNKNOWN = Type("player"), Type("zone"), Type("none"), Type("unknown")


def entity(category: str, kind: str = "") -> Type:
    return Type("entity", kind, category)


def collection(elem: Type) -> Type:
    return Type("collection", elem=elem)


def optional(t: Type) -> Type:
    return dataclasses.replace(t, optional=True) if t.base not in ("unknown", "none") else t


SPACE, CARD = entity("space"), entity("card")


def resolve_type(model: Model, name: str, is_optional: bool = False) -> Type:
    """The type a TypeRef names (UNKNOWN for an unknown name)."""
    if name in PRIMITIVES:
        t = Type(name)
    elif name in model.kinds:
        t = entity(model.kinds[name].category, name)
    elif name in CATEGORIES:
        t = entity(name)
    elif name in model.enums:
        t = Type("enum", name)
    else:
        t = UNKNOWN
    return optional(t) if is_optional else t


def type_of_ref(model: Model, ref: ast.TypeRef | None) -> Type:
    return UNKNOWN if ref is None else resolve_type(model, ref.name, ref.optional)


def entity_type(model: Model, index: int) -> Type:
    kind = model.entities[index].kind.name
    category = model.category(kind)
    return entity(category, kind) if category else UNKNOWN


def literal_type(model: Model, expr: ast.Expr) -> Type | None:
    """The type of a literal in a declaration; None for a name that means nothing."""
    simple = {ast.IntLit: INT, ast.StrLit: STR, ast.BoolLit: BOOL, ast.NoneLit: NONE}
    if type(expr) in simple:
        return simple[type(expr)]
    if not isinstance(expr, ast.NameRef):
        return UNKNOWN
    if expr.name in model.players:
        return PLAYER
    if expr.name in model.entity_index:
        return entity_type(model, model.entity_index[expr.name])
    if expr.name in model.enum_of_value:
        return Type("enum", model.enum_of_value[expr.name])
    return None


# ------------------------------------------------------------ relations


def compatible(actual: Type, expected: Type) -> bool:
    """Whether a value of type `actual` may stand where `expected` is wanted."""
    if "unknown" in (actual.base, expected.base):
        return True
    if actual.base == "none":
        return expected.optional or expected.base == "none"
    if actual.base != expected.base:
        return False
    if actual.base == "entity":
        return actual.category == expected.category and (
            not actual.name or not expected.name or actual.name == expected.name)
    if actual.base == "collection":
        return compatible(actual.elem or UNKNOWN, expected.elem or UNKNOWN)
    return actual.name == expected.name


def comparable(a: Type, b: Type) -> bool:
    """Whether == and != between the two types make sense."""
    if "none" in (a.base, b.base):
        other = b if a.base == "none" else a
        return other.optional or other.base in ("none", "unknown", "player", "entity")
    return compatible(a, b) or compatible(b, a)


def element(t: Type) -> Type | None:
    """The type of a collection's members; None when `t` is not a collection."""
    if t.base == "unknown":
        return UNKNOWN
    if t.base == "collection":
        return t.elem
    if t.base == "zone":
        return CARD
    if t.base == "entity" and t.category == "region":
        return SPACE
    return None


def join(a: Type, b: Type) -> Type:
    """The type of `if c then a else b`."""
    if a.base == "none":
        return optional(b)
    if b.base == "none":
        return optional(a)
    return a if a.base != "unknown" else b


# ------------------------------------------------------------ inference

BUILTIN_VALUES: dict[str, Type] = {
    "players": collection(PLAYER), "game_over": BOOL, "winner": optional(PLAYER),
    "losers": collection(PLAYER), "end_reason": STR,
    "deciding": optional(PLAYER),
}
BUILTIN_RESULTS: dict[str, Type] = {
    "size": INT, "top": optional(CARD), "opponent": PLAYER, "adjacent": collection(SPACE),
    "min": INT, "max": INT, "abs": INT, "has_event": BOOL, "event_allowed": BOOL,
    "owner": PLAYER,  # the player a card of a kind `per player` belongs to
    "has_action": BOOL, "action_allowed": BOOL,
    "known": BOOL, "known_in": collection(CARD),  # what a player has seen and followed
}


class TypeInfer:
    """Infers the static type of an expression, silently: the checks report problems."""

    def __init__(self, model: Model):
        self.model = model
        self._returns: dict[str, Type] = {}
        self._busy: set[str] = set()
        self._rules: dict[type, Callable[[ast.Expr, Mapping[str, Type]], Type]] = {
            ast.IntLit: lambda e, env: INT, ast.StrLit: lambda e, env: STR,
            ast.BoolLit: lambda e, env: BOOL, ast.NoneLit: lambda e, env: NONE,
            ast.NameRef: self._name, ast.CallExpr: self._call, ast.Attr: self._attr,
            ast.AttrAt: self._attr,
            ast.Not: lambda e, env: BOOL, ast.BoolOp: lambda e, env: BOOL,
            ast.Compare: lambda e, env: BOOL, ast.Member: lambda e, env: BOOL,
            ast.Allowed: lambda e, env: BOOL, ast.Active: lambda e, env: BOOL,
            ast.Negate: lambda e, env: INT, ast.BinOp: self._binop,
            ast.SumOf: lambda e, env: INT, ast.Range: lambda e, env: collection(INT),
            ast.Extreme: self._extreme,
            ast.ListOf: self._list,
            ast.Reachable: lambda e, env: collection(SPACE),
            ast.Quantifier: lambda e, env: INT if e.kind == "count" else BOOL,
            ast.Cond: lambda e, env: join(self.infer(e.then, env), self.infer(e.otherwise, env)),
        }

    def _extreme(self, expr: ast.Extreme, env: Mapping[str, Type]) -> Type:
        """max / min: a number; argmax / argmin: a member, or none when there is none."""
        if not expr.member:
            return INT
        found = element(self.infer(expr.source, env))
        return optional(found) if found is not None else UNKNOWN

    def infer(self, expr: ast.Expr, env: Mapping[str, Type]) -> Type:
        rule = self._rules.get(type(expr))
        return rule(expr, env) if rule else UNKNOWN

    def global_type(self, name: str) -> Type:
        """The type of a bare global name, as the evaluator resolves it."""
        model = self.model
        if name in model.tracks:
            return INT
        if name in model.vars:
            return type_of_ref(model, model.vars[name].type)
        if name in model.params:
            return type_of_ref(model, model.params[name].type)
        if name in model.players:
            return PLAYER
        if name in model.entity_index:
            return entity_type(model, model.entity_index[name])
        if name in model.enum_of_value:
            return Type("enum", model.enum_of_value[name])
        return self._collection_name(name)

    def _collection_name(self, name: str) -> Type:
        if name in self.model.kinds:
            kind = self.model.kinds[name]
            return collection(entity(kind.category, name))
        if name in self.model.zones:
            return ZONE
        if name in self.model.enums:
            return collection(Type("enum", name))
        return BUILTIN_VALUES.get(name, UNKNOWN)

    def _binop(self, expr: ast.BinOp, env: Mapping[str, Type]) -> Type:
        """A number, or for `+` between collections their union (`hand(p) + reserve(p)`)."""
        if expr.op == "+":
            left = self.infer(expr.left, env)
            members = element(left) if left.base != "unknown" else None
            if members is not None:
                return collection(members)
        return INT

    def _list(self, expr: ast.ListOf, env: Mapping[str, Type]) -> Type:
        """`[a, b]`: a collection of the items' type (entities of two kinds: of their category)."""
        members = UNKNOWN
        for item in expr.items:
            t = self.infer(item, env)
            if members.base == "entity" == t.base and members.name != t.name:
                members = entity(members.category)
            elif members.base in ("unknown", "none") or t.base == "none":
                members = join(members, t) if members.base != "unknown" else t
        return collection(members)

    def _name(self, expr: ast.NameRef, env: Mapping[str, Type]) -> Type:
        return env[expr.name] if expr.name in env else self.global_type(expr.name)

    def _call(self, expr: ast.CallExpr, env: Mapping[str, Type]) -> Type:
        model, name = self.model, expr.name
        if name in ("size", "top"):
            return BUILTIN_RESULTS[name]
        if name in model.defines:
            return self.define_type(name)
        if name in model.flags:
            return BOOL
        if name in model.quantities or name in model.counters or name in model.tracks:
            return INT
        procedure = model.procedures.get(name)
        if procedure is not None and procedure.returns is not None:
            return type_of_ref(model, procedure.returns)
        if name in model.zones:
            return ZONE
        if name in model.instances:
            return entity_type(model, model.instances[name][0])
        return BUILTIN_RESULTS.get(name, UNKNOWN)

    def define_type(self, name: str) -> Type:
        """A define's declared result type, or the type of its body."""
        if name not in self._returns:
            decl = self.model.defines[name]
            if decl.type is not None:
                self._returns[name] = type_of_ref(self.model, decl.type)
            elif name in self._busy:
                return UNKNOWN  # recursion: the outer call decides
            else:
                self._busy.add(name)
                self._returns[name] = self.infer(decl.body, self.param_types(decl.params))
                self._busy.discard(name)
        return self._returns[name]

    def param_types(self, params: tuple[ast.Param, ...]) -> dict[str, Type]:
        return {p.name: type_of_ref(self.model, p.type) for p in params}

    def _attr(self, expr: ast.Attr | ast.AttrAt, env: Mapping[str, Type]) -> Type:
        found = self.attribute(self.infer(expr.obj, env), expr.name)
        return found if found is not None else UNKNOWN

    def attribute(self, obj: Type, name: str) -> Type | None:
        """The type of attribute `name` of an entity type; None when it has none."""
        if obj.base == "unknown":
            return UNKNOWN
        if name == "label" and obj.base in ("entity", "player"):
            return STR  # an entity's or a player's quoted name (labels.py)
        if obj.base == "enum":  # data on the enum's values
            enum = self.model.enums.get(obj.name)
            found = next((f for f in enum.fields if f.name.name == name), None) if enum else None
            return type_of_ref(self.model, found.type) if found is not None else None
        if obj.base != "entity":
            return None
        for field in self.fields(obj):
            if field.name.name == name:
                return type_of_ref(self.model, field.type)
        return None

    def field(self, obj: Type, name: str) -> ast.Field | None:
        """The field `name` of an entity type's kind (the first of its category's kinds)."""
        if obj.base != "entity":
            return None
        return next((f for f in self.fields(obj) if f.name.name == name), None)

    def fields(self, obj: Type) -> list[ast.Field]:
        """The fields of an entity type's kind, or of every kind of its category."""
        kinds = self.model.kinds.values()
        chosen = [k for k in kinds if k.name.name == obj.name] if obj.name else \
            [k for k in kinds if k.category == obj.category]
        return [f for k in chosen for f in k.fields]
