"""Declarations: one game, one players, one start; every name declared once and meaning one thing."""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.reuse import VERDICTS
from rulespec.compiler.frontend.checks.symbols import PLACES, RESERVED, Named, name_span, named_declarations
from rulespec.compiler.frontend.checks.types import PRIMITIVES

SINGLE = (("game", ast.GameDecl), ("players", ast.PlayersDecl))
OVERLAYS = (ast.VariantDecl, ast.ReplaceDecl, ast.RemoveDecl, ast.ExcludesDecl)


def check_declarations(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Missing or repeated singletons, duplicate and clashing names, track bounds."""
    problems: list[Diagnostic] = []
    problems += _singletons(model)
    problems += _names(model)
    problems += _parameter_lists(model)
    problems += [p for d in model.spec.decls() if isinstance(d, ast.TrackDecl) for p in _track(d)]
    problems += [Diagnostic(f"'copies {d.copies}': a card with copies has 2 or more (without"
                            f" 'copies' it is one card)", d.name.span)
                 for d in model.spec.decls() if isinstance(d, ast.EntityDecl) and d.copies is not None
                 and d.copies < 2]
    problems += [p for d in model.spec.decls() if isinstance(d, ast.TrackDecl) for p in _track_on(d, model)]
    problems += [_overlay(d) for d in model.spec.decls() if isinstance(d, OVERLAYS)]
    return problems


def _singletons(model: Model) -> list[Diagnostic]:
    decls = list(model.spec.decls())
    where = model.spec.files[0].span if model.spec.files else model.spec.span
    starts = [d for d in decls if isinstance(d, ast.ProcedureDecl) and d.role == "start"]
    found = [(word, [d for d in decls if isinstance(d, cls)]) for word, cls in SINGLE]
    problems = []
    for word, items in found + [("start", starts)]:
        if not items:
            problems.append(Diagnostic(f"the spec has no '{word}' declaration; every game needs one", where))
        for extra in items[1:]:
            problems.append(Diagnostic(
                f"duplicate '{word}' declaration; first declared at {items[0].span}", extra.span))
    return problems


def check_card_zones(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Cards start in the first zone declared: a spec with cards needs a zone."""
    if model.zones:
        return []
    cards = [model.entities[i] for i in model.cards()]
    return [Diagnostic(f"card '{cards[0].name.name}' has no zone to lie in: a spec with cards"
                       f" declares at least one 'zone' (cards start in the first)",
                       cards[0].name.span)] if cards else []


def _names(model: Model) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    seen: dict[str, list[Named]] = {}
    for named in named_declarations(model.spec):
        name = named.ident.name
        problem = _reserved(named) or _against(named, seen.get(name, []))
        if problem:
            problems.append(problem)
        seen.setdefault(name, []).append(named)
    return problems


def _reserved(named: Named) -> Diagnostic | None:
    name = named.ident.name
    typed = "type" in PLACES.get(named.namespace, ()) and name in PRIMITIVES
    if name in RESERVED or typed:
        return Diagnostic(f"'{name}' is a builtin name; choose another name for this {named.word}",
                          named.ident.span)
    return None


def _against(named: Named, earlier: list[Named]) -> Diagnostic | None:
    name, places = named.ident.name, PLACES.get(named.namespace, frozenset())
    for first in earlier:
        if first.namespace == named.namespace:
            return Diagnostic(f"duplicate {named.word} '{name}'; first declared at {first.ident.span}",
                              named.ident.span)
    for first in earlier:
        if places & PLACES.get(first.namespace, frozenset()):
            return Diagnostic(f"{named.word} '{name}' clashes with the {first.word} '{name}' "
                              f"first declared at {first.ident.span}", named.ident.span)
    return None


def _parameter_lists(model: Model) -> list[Diagnostic]:
    """No name twice in one parameter list or pattern."""
    problems: list[Diagnostic] = []

    def visit(decl: ast.Decl) -> None:
        for node in decl.walk():
            params = getattr(node, "params", None)
            if isinstance(params, tuple):
                problems.extend(_repeats([(p.name, name_span(p.span, p.name)) for p in params], "parameter"))
            if isinstance(node, (ast.Modifier, ast.ActionPattern, ast.Trigger)):
                problems.extend(_repeats([(n.name, n.span) for n in node.names], "name"))
    VERDICTS.each("parameter lists", model, model.spec.decls(), visit, problems, alone=True)
    return problems


def _repeats(items: list[tuple[str, ast.Span]], word: str) -> list[Diagnostic]:
    firsts: dict[str, ast.Span] = {}
    problems = []
    for name, span in items:
        if name in firsts:
            problems.append(Diagnostic(f"duplicate {word} '{name}'; first declared at {firsts[name]}", span))
        firsts.setdefault(name, span)
    return problems


def _track(decl: ast.TrackDecl) -> list[Diagnostic]:
    name, low, high = decl.name.name, decl.low, decl.high
    if decl.flag and not decl.per_player:
        return [Diagnostic(f"flag '{name}' is on nothing: write 'per player' for a yes/no of each "
                           f"player, 'on KIND' for one of each entity, or 'var {name}: bool = false' "
                           "for one of the whole game", decl.span)]
    if low > high:
        return [Diagnostic(f"track '{name}' has an empty range {low}..{high}", decl.span)]
    if not low <= decl.start <= high:
        return [Diagnostic(f"track '{name}' starts at {decl.start}, outside its range {low}..{high}",
                           decl.span)]
    if decl.visibility == "owner" and not decl.per_player:
        return [Diagnostic(f"track '{name}' is seen by its owner, but it has none: write 'per player',"
                           " or 'hidden' for a track no player sees", decl.span)]
    return []


def _track_on(decl: ast.TrackDecl, model: Model) -> list[Diagnostic]:
    """A track on an enum names an enum; its `except` values are that enum's, each once,
    with a range that holds the start."""
    name, problems = decl.name.name, []
    if decl.on is None:
        return [Diagnostic(f"track '{name}' gives values bounds of their own with 'except', but is "
                           "on no enum: write 'on ENUM' before its range", b.span) for b in decl.bounds[:1]]
    enum = model.enums.get(decl.on.name)
    if enum is None:
        return [Diagnostic(f"track '{name}' is on '{decl.on.name}', which is not an enum"
                           f"{did_you_mean(decl.on.name, model.enums)}", decl.on.span)]
    values, seen = [v.name for v in enum.values], set()
    for bound in decl.bounds:
        value = bound.value.name
        if value not in values:
            problems.append(Diagnostic(f"'{value}' is not a value of enum '{enum.name.name}'"
                                       f"{did_you_mean(value, values)}", bound.value.span))
        elif value in seen:
            problems.append(Diagnostic(f"'{value}' has its bounds given twice in track '{name}'",
                                       bound.value.span))
        elif bound.low > bound.high:
            problems.append(Diagnostic(f"track '{name}' has an empty range {bound.low}..{bound.high} "
                                       f"for '{value}'", bound.span))
        elif not bound.low <= decl.start <= bound.high:
            problems.append(Diagnostic(f"track '{name}' starts at {decl.start}, outside the range "
                                       f"{bound.low}..{bound.high} of '{value}'", bound.span))
        seen.add(value)
    return problems


def _overlay(decl: ast.Decl) -> Diagnostic:
    """`variant`, `replace` and `remove` left in a base file would be silently ignored."""
    word = {ast.VariantDecl: "variant", ast.ReplaceDecl: "replace", ast.RemoveDecl: "remove",
            ast.ExcludesDecl: "excludes"}[type(decl)]
    return Diagnostic(f"'{word}' belongs in a variant file (variants/<id>.rules), not in the base game",
                      decl.span)
