"""Verdicts of the per-declaration checks, reused where a later model holds the same declaration.

`rulespec test` checks the base game and then each variant set: nine models that
share nearly every declaration (the parse cache hands out the same nodes). A
check that looks at one declaration at a time reads, besides the declaration
itself, only (a) the declarations of the names written in it, through the
model's tables (`model.defines[name]`, the globals by name, ...), and (b) a few
global facts: the players, the kinds and their fields, enums, lifetimes, the
map and board, the variants there are. So a declaration that passed a check in
one model passes it in another that holds it too, when the global facts are
equal and every name written in it (any word in any of its nodes: locals too, so a
new global a local would hide is seen) is declared by equal declarations, or by
none in both. "Equal" here is what a declaration offers the others: its whole
text except the code no other declaration's check reads (a procedure's,
quantity's or typed define's body, a card's events, a constraint's forbids, the
value of an invariant, tally, assert or bot). An untyped define's type is its
body's, so untyped defines count as global facts, whole.

A declaration is known by identity: the models of a process share the parse's
nodes, and a variant set shares the entities it leaves alone (variants.py), so a
declaration a variant does not touch is the very object the base game holds.
Only clean verdicts are kept: a declaration that drew a problem is checked
again everywhere (its messages name other declarations and hints from all the
names). Passes that look across declarations (the call graph, termination,
policies, duplicate names) do not use this; what a walk of the same kind finds
in each declaration (the decisions policies answer) is reused the same way.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.identity import KeptByNode
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.variants import decl_name
from rulespec.compiler.frontend.checks.symbols import names_of

# What a declaration offers the others leaves these out: code only its own check reads.
PRIVATE: dict[type, frozenset[str]] = {
    ast.ProcedureDecl: frozenset({"body"}), ast.QuantityDecl: frozenset({"body"}),
    ast.EntityDecl: frozenset({"events"}), ast.ConstraintDecl: frozenset({"forbids"}),
    ast.InvariantDecl: frozenset({"test"}), ast.TallyDecl: frozenset({"value"}),
    ast.AssertDecl: frozenset({"test"}), ast.BotDecl: frozenset({"value"}),
}
GLOBAL = (ast.GameDecl, ast.PlayersDecl, ast.EnumDecl, ast.KindDecl, ast.LifetimesDecl,
          ast.MapDecl, ast.BoardDecl, ast.ChangesDecl)
KEPT_MODELS = 16  # the per-model indexes kept; a long-running process forgets older ones
KEPT_CONTEXTS = 4  # the contexts a clean verdict is remembered under, per declaration
KEPT_VERDICTS = 200_000  # then all are forgotten (an editor's server checks for hours)


@lru_cache(maxsize=None)
def _fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def offer(decl: ast.Decl) -> tuple:
    """What a declaration offers the checks of the others (compared by value)."""
    private = PRIVATE.get(type(decl), frozenset())
    if isinstance(decl, ast.DefineDecl) and decl.type is not None:
        private = frozenset({"body"})
    return (type(decl),) + tuple(None if f in private else getattr(decl, f) for f in _fields(type(decl)))


def _words(decl: ast.Decl) -> tuple[str, ...]:
    """Every word written in a declaration: each str field of each of its nodes."""
    found: set[str] = set()
    for node in decl.walk():
        for name in _fields(type(node)):
            value = getattr(node, name)
            if isinstance(value, str):
                found.add(value)
            elif isinstance(value, tuple):
                found.update(v for v in value if isinstance(v, str))
    return tuple(sorted(found))


class _Decl:
    """What the contexts need of one declaration, worked out once a process."""

    __slots__ = ("decl", "names", "offer", "fact", "_words")

    def __init__(self, decl: ast.Decl):
        self.decl = decl
        names = {n.ident.name for n in names_of(decl)}
        own = decl_name(decl)
        if own is not None:
            names.add(own)
        self.names = tuple(sorted(names))
        self.offer = offer(decl)
        self.fact = not names or isinstance(decl, GLOBAL) or \
            (isinstance(decl, ast.DefineDecl) and decl.type is None)
        self._words: tuple[str, ...] | None = None

    @property
    def words(self) -> tuple[str, ...]:
        if self._words is None:
            self._words = _words(self.decl)
        return self._words


class _Index:
    """One model's declarations by the names they declare, and its global facts."""

    def __init__(self, model: Model, info: Callable[[ast.Decl], _Decl]):
        self.model = model
        self.by_name: dict[str, list[tuple]] = {}
        facts: list[Any] = [tuple(model.available_variants)]  # (none reads which are on)
        for decl in model.spec.decls():
            if isinstance(decl, ast.TestDecl):
                continue
            known = info(decl)
            if known.fact:
                facts.append(decl)
            for name in known.names:
                self.by_name.setdefault(name, []).append(known.offer)
        self.facts = tuple(facts)
        self.contexts: dict[int, tuple[ast.Decl, tuple]] = {}

    def context(self, known: _Decl) -> tuple:
        """What a clean verdict on a declaration rests on in this model."""
        found = self.contexts.get(id(known.decl))
        if found is None or found[0] is not known.decl:
            by_name = self.by_name
            deps = tuple((w, tuple(by_name[w])) for w in known.words if w in by_name)
            found = self.contexts[id(known.decl)] = (known.decl, (self.facts, deps))
        return found[1]


class Verdicts:
    """Clean verdicts of per-declaration checks, across the models of one process; a
    declaration is known by identity (the models share the parse's nodes)."""

    def __init__(self) -> None:
        self._clean: dict[tuple[str, int], tuple[ast.Decl, list[tuple]]] = {}
        self._found: dict[tuple[str, int], tuple[ast.Decl, list[tuple[tuple, list]]]] = {}
        self._decls: dict[int, _Decl] = {}
        self._indexes: dict[int, _Index] = {}
        self.reused = 0  # verdicts taken instead of checking (tests read it)

    def each(self, check: str, model: Model, decls, visit: Callable[[ast.Decl], None],
             problems: list, alone: bool = False) -> None:
        """visit(decl) for each declaration but those that passed this check before in an
        equal context; alone: the check reads nothing but the declaration itself."""
        if len(self._clean) + len(self._found) > KEPT_VERDICTS:
            self.forget()
        for decl in decls:
            key = (check, id(decl))
            known = self._clean.get(key)
            if known is not None and known[0] is not decl:
                known = None
            context = () if alone else self._context(model, decl)
            if known is not None and context in known[1]:
                self.reused += 1
                continue
            before = len(problems)
            visit(decl)
            if len(problems) == before:
                if known is None:
                    known = self._clean[key] = (decl, [])
                known[1][:] = [context] + known[1][:KEPT_CONTEXTS - 1]

    def gather(self, check: str, model: Model, decls, compute: Callable[[ast.Decl], list]) -> list:
        """compute(decl) for each declaration, joined; a declaration's list is the one it
        gave in an earlier model in an equal context (what a walk found in it)."""
        out: list = []
        for decl in decls:
            key = (check, id(decl))
            known = self._found.get(key)
            if known is None or known[0] is not decl:
                known = self._found[key] = (decl, [])
            context = self._context(model, decl)
            found = next((f for c, f in known[1] if c == context), None)
            if found is None:
                found = compute(decl)
                known[1][:] = [(context, found)] + known[1][:KEPT_CONTEXTS - 1]
            else:
                self.reused += 1
            out.extend(found)
        return out

    def forget(self) -> None:
        """Every verdict and index dropped: the next checks visit everything."""
        self._clean.clear()
        self._found.clear()
        self._decls.clear()
        self._indexes.clear()

    def _info(self, decl: ast.Decl) -> _Decl:
        known = self._decls.get(id(decl))
        if known is None or known.decl is not decl:
            known = self._decls[id(decl)] = _Decl(decl)
        return known

    def _context(self, model: Model, decl: ast.Decl) -> tuple:
        index = self._indexes.get(id(model))
        if index is None or index.model is not model:
            if len(self._indexes) >= KEPT_MODELS:
                self._indexes.pop(next(iter(self._indexes)))
            index = self._indexes[id(model)] = _Index(model, self._info)
        return index.context(self._info(decl))


VERDICTS = Verdicts()

# found_under's lists, by node and classes.
_UNDER: KeptByNode[list[ast.Node]] = KeptByNode(KEPT_VERDICTS)


def found_under(node: ast.Node, classes: tuple[type, ...]) -> list[ast.Node]:
    """The nodes of node's tree (itself too) of the classes, in walk order: node.find_all, kept
    by the node itself, since the models of one process share the parse's nodes."""
    found = _UNDER.get((node,), classes)
    if found is None:
        found = _UNDER.put((node,), [n for n in node.walk() if isinstance(n, classes)], classes)
    return found
