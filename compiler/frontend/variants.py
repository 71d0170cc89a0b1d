"""Variants as overlays: merge variant files into the base spec, or say why not.

A variant file opens with `variant id "Label"`; its other declarations are
added, `replace <decl>` swaps a base declaration of the same name, `remove
name` drops one, and `link a -- b` adds an adjacency to both spaces. Two
variants changing the same declaration is an error reported at both places;
so is turning on two variants one of which `excludes` the other.
"""

from __future__ import annotations

import dataclasses
from pathlib import PurePath

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.identity import KeptByNode
from rulespec.compiler.frontend.errors import Diagnostic, SpecError, did_you_mean


def decl_name(decl: ast.Decl) -> str | None:
    """The name a declaration defines, or None for unnamed ones."""
    if isinstance(decl, ast.EventDecl):
        return f"event {decl.card.name}"
    if isinstance(decl, ast.ProcedureDecl):
        return decl.name.name
    if isinstance(decl, ast.PlayersDecl):
        return "players"  # `replace players …`: other seats or another seat count
    if isinstance(decl, ast.BalanceBotDecl):
        return "balance bot"
    if isinstance(decl, (ast.TestDecl, ast.ChangesDecl)):
        return None
    name = getattr(decl, "name", None)
    return name.name if isinstance(name, ast.Ident) else None


def apply_overlays(base: tuple[ast.SpecFile, ...], variants: list[ast.SpecFile],
                   available: list[str] | None = None
                   ) -> tuple[tuple[ast.SpecFile, ...], list[Diagnostic]]:
    """The merged files and every problem found while merging.

    `available` names the game's variants, so that `excludes` of a variant
    that does not exist is reported (None: not checked)."""
    problems: list[Diagnostic] = []
    problems += _exclusions(variants, available)
    base = tuple(_hoist_events(f) for f in base)
    variants = [_hoist_events(f) for f in variants]
    known = {decl_name(d): d for f in base for d in f.decls if decl_name(d)}
    changes: dict[str, ast.Decl | None] = {}
    touched: dict[str, tuple[str, ast.Span]] = {}
    added: list[ast.SpecFile] = []
    for file in variants:
        variant = _header(file, problems)
        kept = []
        for decl in file.decls:
            if isinstance(decl, (ast.VariantDecl, ast.ExcludesDecl)):
                continue
            if isinstance(decl, (ast.ReplaceDecl, ast.RemoveDecl)):
                target = decl_name(decl.decl) if isinstance(decl, ast.ReplaceDecl) else decl.name.name
                if _claim(target, variant, decl, known, touched, problems):
                    changes[target] = decl.decl if isinstance(decl, ast.ReplaceDecl) else None
            else:
                kept.append(decl)
        added.append(dataclasses.replace(file, decls=tuple(kept)))
    for name in [n for n, d in changes.items() if d is None and isinstance(known[n], ast.EntityDecl)]:
        changes.setdefault(f"event {name}", None)  # a removed card takes its event along
    merged = tuple(_rewrite(f, changes) for f in base) + tuple(added)
    return _attach_events(_apply_links(merged, problems), problems), problems


# The words of the error for two variants one of which excludes the other.
EXCLUDED = "' cannot be combined with '"


def only_excluded(err: SpecError) -> bool:
    """The spec failed to load because a variant `excludes` another one turned on (the
    clashes between two such variants are moot: they are never played together)."""
    return any(EXCLUDED in d.message for d in err.diagnostics)


def _exclusions(variants: list[ast.SpecFile], available: list[str] | None) -> list[Diagnostic]:
    """`excludes w "why"` in variant v: v and w on together is an error at that line."""
    on = {f.decls[0].name.name for f in variants if f.decls and isinstance(f.decls[0], ast.VariantDecl)}
    problems = []
    for file in variants:
        if not file.decls or not isinstance(file.decls[0], ast.VariantDecl):
            continue
        variant = file.decls[0].name.name
        for decl in (d for d in file.decls if isinstance(d, ast.ExcludesDecl)):
            for other in decl.variants:
                if available is not None and other.name not in available:
                    hint = did_you_mean(other.name, available)
                    problems.append(Diagnostic(
                        f"variant '{variant}' excludes unknown variant '{other.name}'{hint}", other.span))
                elif other.name == variant:
                    problems.append(Diagnostic(f"variant '{variant}' excludes itself", other.span))
                elif other.name in on:
                    problems.append(Diagnostic(
                        f"variant '{variant}{EXCLUDED}{other.name}': {decl.reason}", other.span))
    return problems


# An entity is split from its events, and joined with one, the same way every time: the same
# parts give the same objects, so the models of one process (a game and its variant sets)
# share the entities a variant leaves alone (the checks' and the interpreter's caches by node).
_SPLIT: KeptByNode[tuple[ast.EntityDecl, tuple[ast.EventDecl, ...]]] = KeptByNode(100_000)
_JOINED: KeptByNode[ast.EntityDecl] = KeptByNode(100_000)


def _split(entity: ast.EntityDecl) -> tuple[ast.EntityDecl, tuple[ast.EventDecl, ...]]:
    found = _SPLIT.get((entity,))
    if found is None:
        bare = dataclasses.replace(entity, events=())
        events = tuple(ast.EventDecl(e.span, entity.name, e.when, e.body) for e in entity.events)
        found = _SPLIT.put((entity,), (bare, events))
    return found


def _joined(entity: ast.EntityDecl, event: ast.EventDecl) -> ast.EntityDecl:
    found = _JOINED.get((entity, event))
    if found is None:
        joined = dataclasses.replace(entity, events=(ast.EventBlock(event.span, event.when, event.body),))
        found = _JOINED.put((entity, event), joined)
    return found


def _hoist_events(file: ast.SpecFile) -> ast.SpecFile:
    """Inline `{ event ... }` of entities become `event card ...` declarations."""
    decls: list[ast.Decl] = []
    for decl in file.decls:
        target = decl.decl if isinstance(decl, ast.ReplaceDecl) else decl
        if isinstance(target, ast.EntityDecl) and target.events:
            bare, events = _split(target)
            decls.append(dataclasses.replace(decl, decl=bare) if decl is not target else bare)
            for hoisted in events:
                decls.append(dataclasses.replace(decl, decl=hoisted) if decl is not target else hoisted)
        else:
            decls.append(decl)
    return dataclasses.replace(file, decls=tuple(decls))


def _attach_events(files: tuple[ast.SpecFile, ...], problems: list[Diagnostic]) -> tuple[ast.SpecFile, ...]:
    """Every `event card` declaration goes back into its card's entity."""
    entities = {d.name.name: d for f in files for d in f.decls if isinstance(d, ast.EntityDecl)}
    events: dict[str, ast.EventDecl] = {}
    for event in (d for f in files for d in f.decls if isinstance(d, ast.EventDecl)):
        name = event.card.name
        if name not in entities:
            problems.append(Diagnostic(
                f"event for unknown card '{name}'{did_you_mean(name, entities)}", event.card.span))
        elif name in events:
            problems.append(Diagnostic(
                f"card '{name}' already has an event (at {events[name].span})", event.span))
        else:
            events[name] = event
    return tuple(_with_events(f, events) for f in files)


def _with_events(file: ast.SpecFile, events: dict[str, ast.EventDecl]) -> ast.SpecFile:
    decls = []
    for decl in file.decls:
        if isinstance(decl, ast.EventDecl):
            continue
        if isinstance(decl, ast.EntityDecl) and decl.name.name in events:
            decl = _joined(decl, events[decl.name.name])
        decls.append(decl)
    return dataclasses.replace(file, decls=tuple(decls))


def _header(file: ast.SpecFile, problems: list[Diagnostic]) -> str:
    first = file.decls[0] if file.decls else None
    if not isinstance(first, ast.VariantDecl):
        problems.append(Diagnostic("a variant file must begin with `variant id \"Label\"`", file.span))
        return "?"
    expected = PurePath(file.span.file).stem  # `--variant NAME` finds it by its file's name
    if first.name.name != expected:
        problems.append(Diagnostic(
            f"variant '{first.name.name}' is in {expected}.rules: name it '{expected}'"
            f" (a variant is called by its file's name), or rename the file", first.name.span))
    return first.name.name


def _claim(target, variant, decl, known, touched, problems) -> bool:
    verb = "replaces" if isinstance(decl, ast.ReplaceDecl) else "removes"
    if target not in known:
        hint = did_you_mean(target, known)
        problems.append(Diagnostic(
            f"variant '{variant}' {verb} '{target}', which the base game does not have{hint}", decl.span))
        return False
    if target in touched:
        other, span = touched[target]
        problems.append(Diagnostic(
            f"variant '{variant}' {verb} '{target}', which variant '{other}' also changes (at {span})", decl.span))
        problems.append(Diagnostic(
            f"variant '{other}' changes '{target}', which variant '{variant}' also changes (at {decl.span})", span))
        return False
    touched[target] = (variant, decl.span)
    return True


def _rewrite(file: ast.SpecFile, changes: dict[str, ast.Decl | None]) -> ast.SpecFile:
    decls = []
    for decl in file.decls:
        name = decl_name(decl)
        if name in changes:
            if changes[name] is not None:
                decls.append(changes[name])
        else:
            decls.append(decl)
    return dataclasses.replace(file, decls=tuple(decls))


def _apply_links(files: tuple[ast.SpecFile, ...], problems: list[Diagnostic]) -> tuple[ast.SpecFile, ...]:
    links = [d for f in files for d in f.decls if isinstance(d, ast.LinkDecl)]
    if not links:
        return files
    entities = {d.name.name for f in files for d in f.decls if isinstance(d, ast.EntityDecl)}
    extra: dict[str, list[ast.Ident]] = {}
    for link in links:
        for end, other in ((link.first, link.second), (link.second, link.first)):
            if end.name not in entities:
                problems.append(Diagnostic(
                    f"link names unknown space '{end.name}'{did_you_mean(end.name, entities)}", end.span))
            else:
                extra.setdefault(end.name, []).append(other)
    return tuple(_with_links(f, extra) for f in files)


def _with_links(file: ast.SpecFile, extra: dict[str, list[ast.Ident]]) -> ast.SpecFile:
    decls = []
    for decl in file.decls:
        if isinstance(decl, ast.LinkDecl):
            continue
        if isinstance(decl, ast.EntityDecl) and decl.name.name in extra:
            decl = dataclasses.replace(decl, adjacent=decl.adjacent + tuple(extra[decl.name.name]))
        decls.append(decl)
    return dataclasses.replace(file, decls=tuple(decls))
