"""Designer tests: test steps only in tests, dice a die can show, test files holding only tests,
params and variants a test may set, set before anything runs."""

from __future__ import annotations

from pathlib import PurePath

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.reuse import found_under

STEPS = (ast.DiceStep, ast.ChooseStep, ast.ExpectOffered, ast.ExpectOptions, ast.Expect, ast.ParamStep,
         ast.VariantStep, ast.StartStep, ast.StartEffects)
SETTINGS = (ast.ParamStep, ast.VariantStep)


def check_tests(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every problem of the designer tests and of test steps out of place."""
    problems: list[Diagnostic] = []
    for decl in model.spec.decls():
        if not isinstance(decl, ast.TestDecl):
            problems += [_misplaced(n) for n in found_under(decl, STEPS)]
    for file in test_files:
        problems += [_not_a_test(d) for d in file.decls if not isinstance(d, ast.TestDecl)]
    problems += _names(model.tests)
    for test in model.tests:
        problems += [_die(step, v) for step in found_under(test, (ast.DiceStep,))
                     for v in step.values if not 1 <= v <= 6]
        problems += _settings(model, test)
        problems += [p for step in found_under(test, (ast.StartEffects,)) for p in _lasting(model, step)]
    problems += _changes(model)
    return problems


def _lasting(model: Model, step: ast.StartEffects) -> list[Diagnostic]:
    """`start effects of CARD for P`: a card whose event starts a lasting effect, and a player."""
    card, player = step.card.name, step.player.name
    if card not in model.entity_index:
        return [Diagnostic(f"unknown card '{card}'{did_you_mean(card, model.entity_index)}", step.card.span)]
    event = model.event_of(model.entity_index[card])
    problems = []
    if event is None or not any(isinstance(s, ast.Activate) for s in event.body.body):
        problems.append(Diagnostic(f"'{card}' starts no lasting effect: its event has no `activate`"
                                   f" of its own (outside any `if` or choice)", step.card.span))
    if player not in model.players:
        problems.append(Diagnostic(f"unknown player '{player}'{did_you_mean(player, model.players)}",
                                   step.player.span))
    return problems


def _changes(model: Model) -> list[Diagnostic]:
    """`changes test` lives in a variant and names base tests."""
    base = [t.name for t in model.tests if PurePath(t.span.file).parent.name != "variants"]
    problems = []
    for decl in model.changes:
        if PurePath(decl.span.file).parent.name != "variants":
            problems.append(Diagnostic("'changes test' belongs in a variant file: it names the base"
                                       " tests the variant is meant to break", decl.span))
            continue
        spans = decl.test_spans or (decl.span,) * len(decl.tests)
        for name, span in zip(decl.tests, spans):
            if name not in base:
                problems.append(Diagnostic(f"no base test is named \"{name}\"{did_you_mean(name, base)}",
                                           span))
    return problems


def _settings(model: Model, test: ast.TestDecl) -> list[Diagnostic]:
    """param/variant steps: known names, fitting values, before any other step; start needs a start."""
    problems: list[Diagnostic] = []
    started = False
    seen: set[str] = set()
    for step in test.steps:
        if isinstance(step, SETTINGS):
            if started:
                problems.append(Diagnostic("set params and variants at the top of the test, before"
                                           " any other step", step.span))
            key = f"{type(step).__name__}:{step.name.name}"
            if key in seen:
                problems.append(Diagnostic(f"'{step.name.name}' is set twice in this test", step.span))
            seen.add(key)
        else:
            started = True
        if isinstance(step, ast.ParamStep):
            problems += _param(model, step)
        elif isinstance(step, ast.VariantStep) and step.name.name not in model.available_variants:
            known = model.available_variants
            problems.append(Diagnostic(
                f"unknown variant '{step.name.name}'{did_you_mean(step.name.name, known)}"
                f" (available: {', '.join(known) or 'none'})", step.name.span))
        elif isinstance(step, ast.StartStep) and model.start is None:
            problems.append(Diagnostic("'start' runs the game's start block, but the spec has none",
                                       step.span))
    return problems


def _param(model: Model, step: ast.ParamStep) -> list[Diagnostic]:
    name = step.name.name
    decl = model.all_params().get(name)
    if decl is None:
        return [Diagnostic(f"unknown param '{name}'{did_you_mean(name, list(model.all_params()))}",
                           step.name.span)]
    kind, value = decl.type.name, step.value
    named = value.name if isinstance(value, ast.NameRef) else None
    if kind in ("int", "bool", "str"):
        fits = isinstance(value, {"int": ast.IntLit, "bool": ast.BoolLit, "str": ast.StrLit}[kind])
    elif kind == "player":
        fits = named in model.players
    elif kind in model.enums:  # one of its values
        fits = named in [v.name for v in model.enums[kind].values]
    else:  # an entity of that kind
        index = model.entity_index.get(named) if named is not None else None
        fits = index is not None and model.entities[index].kind.name == kind
    if not fits:
        return [Diagnostic(f"param '{name}' is a {kind}; this value does not fit it", value.span)]
    return []


def _misplaced(step: ast.Node) -> Diagnostic:
    return Diagnostic("test steps (dice, choose, expect) belong in a 'test' block", step.span)


def _not_a_test(decl: ast.Decl) -> Diagnostic:
    return Diagnostic("a file in tests/ holds only 'test' blocks; move this declaration to the game's "
                      "files", decl.span)


def _die(step: ast.DiceStep, value: int) -> Diagnostic:
    return Diagnostic(f"a die shows 1 to 6, not {value}", step.span)


def _names(tests: list[ast.TestDecl]) -> list[Diagnostic]:
    first: dict[str, ast.Span] = {}
    problems = []
    for test in tests:
        if test.name in first:
            problems.append(Diagnostic(f"duplicate test \"{test.name}\"; first declared at {first[test.name]}",
                                       test.span))
        first.setdefault(test.name, test.span)
    return problems
