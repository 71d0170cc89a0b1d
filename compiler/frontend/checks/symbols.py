"""Every global name of a spec: what it declares, where, and how expressions reach it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.identity import KeptByNode
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.types import BUILTIN_RESULTS, BUILTIN_VALUES, PRIMITIVES, Type, compatible, entity_type

EVENT_LOCALS = ("you", "this")
# `owner` came late: a local or parameter may still be called so (a call is never a local).
RESERVED = (tuple(BUILTIN_VALUES) + tuple(n for n in BUILTIN_RESULTS if n != "owner") + EVENT_LOCALS
            + ("skip",))  # `or skip`

# Where each namespace's names are used; two namespaces clash when they share a place.
PLACES: dict[str, frozenset[str]] = {
    "player": frozenset({"value"}), "param": frozenset({"value"}),
    "enum value": frozenset({"value"}), "var": frozenset({"value"}),
    "entity": frozenset({"value"}), "instance": frozenset({"call"}), "track": frozenset({"value", "call"}),
    "zone": frozenset({"value", "call"}), "kind": frozenset({"value", "type"}),
    "enum": frozenset({"value", "type"}), "counter": frozenset({"call"}),
    "define": frozenset({"call"}), "quantity": frozenset({"call"}),
    "procedure": frozenset({"call"}),
}


@dataclass(frozen=True)
class Named:
    """One declared name: its namespace, the word for it, and its identifier."""

    namespace: str
    word: str
    ident: ast.Ident


def named_declarations(spec: ast.Spec) -> Iterator[Named]:
    """Every name the spec's declarations introduce, in source order."""
    for decl in spec.decls():
        yield from names_of(decl)


SIMPLE = {
    ast.ParamDecl: "param", ast.EnumDecl: "enum", ast.TrackDecl: "track",
    ast.VarDecl: "var", ast.ZoneDecl: "zone", ast.CounterDecl: "counter",
    ast.KindDecl: "kind", ast.ActionDecl: "action", ast.SignalDecl: "signal",
    ast.ConstraintDecl: "constraint", ast.EffectDecl: "effect", ast.DefineDecl: "define",
    ast.QuantityDecl: "quantity", ast.InvariantDecl: "invariant", ast.AssertDecl: "assert",
    ast.TallyDecl: "tally",
}
# names_of's answers, by declaration: every check of every model of a process asks, and
# the models share their declarations.
_NAMES: KeptByNode[tuple[Named, ...]] = KeptByNode(200_000)


def names_of(decl: ast.Decl) -> tuple[Named, ...]:
    """The names one declaration introduces, in source order."""
    found = _NAMES.get((decl,))
    if found is None:
        namespace = SIMPLE.get(type(decl))
        names = (Named(namespace, namespace, decl.name),) if namespace else ()
        found = _NAMES.put((decl,), names + tuple(_special_names(decl)))
    return found


def _special_names(decl: ast.Decl) -> Iterator[Named]:
    if isinstance(decl, ast.PlayersDecl):
        yield from (Named("player", "player", p.name) for p in decl.players)
    elif isinstance(decl, ast.EnumDecl):
        yield from (Named("enum value", "enum value", v) for v in decl.values)
    elif isinstance(decl, ast.LifetimesDecl):
        yield from (Named("lifetime", "lifetime", n) for n in decl.names)
    elif isinstance(decl, ast.ProcedureDecl) and decl.role != "start":
        yield Named("procedure", decl.role, decl.name)
    elif isinstance(decl, ast.EntityDecl):
        yield from (Named("entity", decl.kind.name, ident) for ident in ast.copy_ids(decl))
    elif isinstance(decl, ast.BotDecl):
        yield Named("bot", "bot", decl.name)
    elif isinstance(decl, ast.PolicyDecl):
        yield Named("policy", "policy", decl.name)


class Globals:
    """The first declaration of every global name, for lookups and messages."""

    def __init__(self, model: Model):
        self.model = model
        self.first: dict[tuple[str, str], Named] = {}
        per_player = {name for name, kind in model.kinds.items() if kind.per_player}
        for named in named_declarations(model.spec):
            if named.namespace == "entity" and named.word in per_player:
                named = Named("instance", named.word, named.ident)  # card(p): one per player
            self.first.setdefault((named.namespace, named.ident.name), named)
        self.values = {n: d for (ns, n), d in self.first.items() if "value" in PLACES.get(ns, ())}
        self.calls = {n: d for (ns, n), d in self.first.items() if "call" in PLACES.get(ns, ())}
        # entities are data, not names a local can hide: a local `c` may share a card's name
        self.shadowable = {n: d for (ns, n), d in self.first.items() if ns != "entity"}

    def lookup(self, namespace: str, name: str) -> Named | None:
        return self.first.get((namespace, name))

    def names(self, namespace: str) -> list[str]:
        return [n for (ns, n) in self.first if ns == namespace]

    def describe(self, name: str) -> str | None:
        """'a track' / 'a country' / 'a builtin': what a global name is, for messages."""
        for table in (self.values, self.calls, self.shadowable):
            if name in table:
                return article(table[name].word)
        return "a builtin" if name in RESERVED else None


def name_span(span: ast.Span, name: str) -> ast.Span:
    """The span of a name written at the start of a node."""
    return ast.Span(span.file, span.line, span.column, span.line, span.column + len(name))


def article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def is_type_name(model: Model, name: str) -> bool:
    return name in PRIMITIVES or name in ("space", "region", "card") or \
        name in model.kinds or name in model.enums


def literal_names(model: Model, wanted: Type) -> list[str]:
    """The names a literal of the type wanted could be, for hints."""
    if wanted.base == "player":
        return list(model.players)
    if wanted.base == "enum" and wanted.name in model.enums:
        return [v.name for v in model.enums[wanted.name].values]
    if wanted.base == "entity":
        return [e.name.name for i, e in enumerate(model.entities) if compatible(entity_type(model, i), wanted)]
    return list(model.players) + list(model.enum_of_value) + list(model.entity_index)
