"""Designer tests as plans: the one place that says what a test's steps are.

Both back ends run the same plan. A plan's steps name their statements and
expectations by stable keys ("tests/operations.rules#3:run0"); the
interpreter looks a key up in `Plan.blocks`/`Plan.checks`, the code generator
emits one function per key. Keys are numbered per file, so an edit to one
test file renames nothing in another (and black re-formats little).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.frontend.labels import conjuncts, player_labels
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.program import ExpectPart, TestCase, TestStep

# Steps that drive or inspect the game; every other statement in a test runs as rules.
DRIVING = (ast.DiceStep, ast.ChooseStep, ast.ExpectOffered, ast.ExpectOptions, ast.Expect, ast.ParamStep,
           ast.VariantStep, ast.StartStep, ast.StartEffects)


@dataclass(frozen=True)
class Check:
    """One part of an `expect`: a condition, and for a comparison its two sides."""

    test: ast.Expr
    left: ast.Expr | None = None
    right: ast.Expr | None = None


@dataclass
class Plan:
    """Every designer test of a model, and the spec behind each key."""

    cases: list[TestCase] = field(default_factory=list)
    keys: frozenset[str] = frozenset()
    blocks: dict[str, ast.Block] = field(default_factory=dict)
    checks: dict[str, Check] = field(default_factory=dict)


def plan_tests(model: Model) -> Plan:
    """The plan of the model's tests (made once per model: both back ends share it)."""
    if model.test_plan is None:
        model.test_plan = _plan(model, lambda node: str(node.span))
    return model.test_plan


def _plan(model: Model, location) -> Plan:
    """Locations are as the designer sees them (the checker's paths)."""
    plan = Plan()
    for test in model.tests:
        key = f"{test_file_key(test.span.file)}#{test.number}"
        plan.cases.append(_plan_case(plan, test, key, location, model))
    plan.keys = frozenset(plan.blocks) | frozenset(plan.checks)
    return plan


def test_file_key(path: str) -> str:
    """A test's file as keys name it: tests/x.rules or variants/x.rules, whatever the folder."""
    parts = PurePath(path).parts
    return "/".join(parts[-2:]) if len(parts) >= 2 else parts[-1]


def _plan_case(plan: Plan, test: ast.TestDecl, key: str, location, model: Model) -> TestCase:
    steps: list[TestStep] = []
    run: list[ast.Stmt] = []
    variants: list[str] = []
    params: list[tuple[str, object]] = []
    random_dice = False
    checks = requirements = 0
    labels = player_labels(model)

    def flush() -> None:
        if run:
            block_key = f"{key}:run{sum(1 for s in steps if s.kind == 'run')}"
            plan.blocks[block_key] = ast.Block(run[0].span, tuple(run))
            steps.append(TestStep("run", block_key, location=location(run[0])))
            run.clear()

    for step in test.steps:
        if isinstance(step, ast.Resolve):
            requirement = _requirement(model, step)
            if requirement is not None:
                flush()
                check_key = f"{key}:requires{requirements}"
                requirements += 1
                plan.checks[check_key] = Check(requirement[0])
                steps.append(TestStep("expect", (ExpectPart(check_key, requirement[1], False),),
                                      None, location(step)))
        if isinstance(step, ast.StartEffects):
            run.extend(lasting_effects(model, step))
            continue
        if not isinstance(step, DRIVING):
            run.append(step)
            continue
        flush()
        where = location(step)
        match step:
            case ast.VariantStep():
                variants.append(step.name.name)
            case ast.ParamStep():
                params.append((step.name.name, model.literal(step.value)))
            case ast.DiceStep() if step.random:
                random_dice = True
            case ast.DiceStep():
                steps.append(TestStep("dice", step.values, location=where))
            case ast.StartStep():
                steps.append(TestStep("start", None, location=where))
            case ast.ChooseStep():
                steps.append(TestStep("choose", step.option_ids, location=where))
            case ast.ExpectOffered():
                kind = "not_offered" if step.negated else "offered"
                steps.append(TestStep(kind, step.option_ids, step.message, where))
            case ast.ExpectOptions() if step.option_ids is not None:
                steps.append(TestStep("options", step.option_ids, step.message, where))
            case ast.ExpectOptions():
                steps.append(TestStep("option_count", (step.op, step.count), step.message, where))
            case ast.Expect():
                parts = []
                for part in conjuncts(step.test):
                    check_key = f"{key}:expect{checks}"
                    checks += 1
                    compare = part if isinstance(part, ast.Compare) else None
                    check = plan.checks[check_key] = Check(part, compare and compare.left,
                                                           compare and compare.right)
                    shown_as = tuple(labels.side_shown(side) for side in (check.left, check.right))
                    parts.append(ExpectPart(check_key, model.sources.text_of(part.span) if model.sources else "",
                                            compare is not None, _shows(compare), shown_as))
                steps.append(TestStep("expect", tuple(parts), step.message, where))
            case _:
                raise InternalError(f"test step {type(step).__name__} has no plan")
    flush()
    return TestCase(test.name, location(test), tuple(steps), key, tuple(sorted(set(variants))),
                    tuple(params), random_dice)


def lasting_effects(model: Model, step: ast.StartEffects) -> list[ast.Stmt]:
    """`start effects of CARD for P`: the `activate`s written directly in the card's event, with
    `you` read as P and `this` as CARD (none when the card has no such event: the checker says so)."""
    from rulespec.compiler.backends.codegen.expr import renamed  # codegen imports this module
    index = model.entity_index.get(step.card.name)
    event = model.event_of(index) if index is not None else None
    found = [s for s in (event.body.body if event is not None else ()) if isinstance(s, ast.Activate)]
    named = []
    for activate in found:
        for name, value in (("you", step.player.name), ("this", step.card.name)):
            activate = renamed(activate, name, value)
        named.append(activate)
    return named


def _requirement(model: Model, step: ast.Resolve) -> tuple[ast.Expr, str] | None:
    """A test's `resolve CARD for P` checks the card's requirement first, so a card whose
    requirement is false fails the test there, naming the requirement and its line, rather than
    doing nothing: (the check, its text), or None when the card has no requirement."""
    text = model.sources.text_of if model.sources else (lambda span: "")
    index = model.entity_index.get(step.card.name) if isinstance(step.card, ast.NameRef) else None
    block = None if index is None else (model.action_of(index) if step.action else model.event_of(index))
    if block is None or block.when is None:
        return None
    builtin = "action_allowed" if step.action else "event_allowed"
    check = ast.CallExpr(step.span, builtin, (step.card, step.player))
    what = "action" if step.action else "event"
    return check, (f"the requirement of {step.card.name}'s {what} ({text(block.when.span)},"
                   f" {block.when.span})")


def _shows(compare: ast.Compare | None) -> tuple[bool, bool]:
    """Which sides of a failed comparison are worth printing: not the literals."""
    if compare is None:
        return (False, False)
    return (not _literal(compare.left), not _literal(compare.right))


def _literal(expr: ast.Expr) -> bool:
    """A value written out in the test (-1 included): printing it again says nothing."""
    if isinstance(expr, ast.Negate):
        return _literal(expr.operand)
    return isinstance(expr, (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit))
