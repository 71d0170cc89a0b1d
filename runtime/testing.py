"""Runs designer tests on any back end and reports failures with spec locations.

The test language is strict, so a test cannot pass by accident: a die rolled
with none queued is an error at the roll (unless the test says `dice
random`), queued dice left unrolled are an error, and a failed `expect` says
which part failed and what its sides were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.runtime.game import new_state
from rulespec.runtime.program import ExpectPart, Program, TestCase
from rulespec.runtime.state import GameOver, RuleError, State
from rulespec.runtime.values import label_of, text_of

SHOWN_OPTIONS = 20


@dataclass(frozen=True)
class TestFailure:
    """A designer test that failed: where, and why."""

    name: str
    location: str
    message: str
    backend: str


def run_test(program: Program, test: TestCase) -> TestFailure | None:
    """Run one test on one back end: None when it passes."""
    state = _fresh_state(program, test)
    found = _first_problem(program, test, state)
    if found is not None:
        location, message = found
        return TestFailure(test.name, location or test.location, message, program.backend)
    if state.dice:
        last_dice = next((s.location for s in reversed(test.steps) if s.kind == "dice"), "")
        left = ", ".join(str(d) for d in state.dice)
        message = (f"{len(state.dice)} queued {'die was' if len(state.dice) == 1 else 'dice were'}"
                   f" never rolled ({left}): the test expected rolls that did not happen")
        return TestFailure(test.name, last_dice or test.location, message, program.backend)
    return None


def state_after(program: Program, test: TestCase) -> State:
    """The state a designer test leaves, to ask a bot what it would do there (tests of a
    policy); RuleError when one of its steps fails."""
    state = _fresh_state(program, test)
    found = _first_problem(program, test, state)
    if found is not None:
        raise RuleError(found[1], found[0] or test.location)
    return state


def _fresh_state(program: Program, test: TestCase) -> State:
    state = new_state(program.meta, seed=0, params=dict(test.params))
    state.dice_strict = not test.random_dice
    return state


def _first_problem(program: Program, test: TestCase, state: State) -> tuple[str, str] | None:
    """Carry out the test's steps on `state`: where and why the first one fails, or None."""
    env: dict = {}
    for step in test.steps:
        if step.kind == "dice":
            state.dice.extend(step.payload)
            continue
        try:
            problem = _step(program, state, env, step)
        except GameOver:
            continue
        except RuleError as err:
            return err.location or step.location, err.reason
        if problem is not None:
            return step.location, problem
    return None


def _step(program: Program, state: State, env: dict, step) -> str | None:
    """Carry out one step; a message when it fails."""
    pending = state.pending
    if step.kind in ("run", "start"):
        if pending is not None:
            return f"a decision is still pending: {_describe(pending)}"
        if state.result is not None:
            return f"the game is already over ({state.result['reason']})"
        if step.kind == "start":
            program.begin(state)
            program.run(state)
        else:
            program.run_test_block(state, step.payload, env)
        return None
    if step.kind == "choose":
        for option in step.payload:
            pending = state.pending
            if pending is None:
                return f"no decision is pending to choose '{option}'"
            if option not in pending["ids"]:
                return f"'{option}' is not offered; {_describe(pending)}"
            program.resume(state, pending["ids"].index(option))
        return None
    if step.kind in ("offered", "not_offered"):
        if pending is None:
            return _with(step.message, "no decision is pending")
        for option in step.payload:
            if (option in pending["ids"]) != (step.kind == "offered"):
                verb = "not offered" if step.kind == "offered" else "offered"
                return _with(step.message, f"'{option}' is {verb}; {_describe(pending)}")
        return None
    if step.kind in ("options", "option_count"):
        if pending is None:
            return _with(step.message, "no decision is pending")
        problem = (_not_exactly(pending, step.payload) if step.kind == "options"
                   else _not_counted(pending, *step.payload))
        return None if problem is None else _with(step.message, problem)
    if step.kind == "expect":
        for part in step.payload:
            if not program.test_expect(state, part.key, env):
                return _with(step.message, _expect_failed(program, state, env, part))
        return None
    raise RuleError(f"unknown test step '{step.kind}'", step.location)


def _expect_failed(program: Program, state: State, env: dict, part: ExpectPart) -> str:
    """'a + b == 0: left side is 2': the part that failed, and its sides' values."""
    if not part.is_compare:
        return f"{part.text} is false"
    left, right = program.test_sides(state, part.key, env)
    sides = [f"{name} side is {_shown(program.meta, value, kind)}"
             for name, value, shown, kind in (("left", left, part.shows[0], part.shown_as[0]),
                                               ("right", right, part.shows[1], part.shown_as[1]))
             if shown]
    return f"{part.text}: {', '.join(sides) or 'false'}"


def _shown(meta: Any, value: Any, kind: str = "") -> str:
    """A side's value in the designer's words: a player or an entity by its label (with its
    id when two entities share the label: copies of a card), a list of them alike."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return "[" + ", ".join(_shown(meta, v, kind) for v in value) + "]"
    if isinstance(value, str):
        return repr(value)
    if kind == "player" and isinstance(value, int):
        return label_of(meta.player_labels, value)
    if kind == "entity" and isinstance(value, int):
        label = meta.entity_labels[value]
        shared = meta.entity_labels.count(label) > 1
        return f"{label} ({meta.entity_ids[value]})" if shared else label
    return text_of(value)


def _not_exactly(pending: dict, wanted: tuple[str, ...]) -> str | None:
    """`expect options == [...]`: what is missing and what is offered besides, or None."""
    missing = [o for o in wanted if o not in pending["ids"]]
    besides = [o for o in pending["ids"] if o not in wanted]
    if not missing and not besides:
        return None
    parts = ([f"not offered: {', '.join(missing)}"] if missing else []) + \
        ([f"offered besides: {', '.join(besides[:SHOWN_OPTIONS])}"] if besides else [])
    return f"the options are not exactly {', '.join(wanted)} ({'; '.join(parts)}); {_describe(pending)}"


_COUNTED = {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__,
            ">": int.__gt__, ">=": int.__ge__}


def _not_counted(pending: dict, op: str, count: int) -> str | None:
    """`expect count(options) OP n`: the count that breaks it, or None."""
    offered = len(pending["ids"])
    if _COUNTED[op](offered, count):
        return None
    return f"count(options) {op} {count}: {offered} offered; {_describe(pending)}"


def _with(message: str | None, detail: str) -> str:
    return f"{message}: {detail}" if message else detail


def _describe(pending: dict) -> str:
    ids = ", ".join(pending["ids"][:SHOWN_OPTIONS])
    more = " ..." if len(pending["ids"]) > SHOWN_OPTIONS else ""
    return f"'{pending['prompt']}' offers {ids}{more}"
