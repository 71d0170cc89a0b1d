"""Runs designer tests on any back end and reports failures with spec locations."""

from __future__ import annotations

from dataclasses import dataclass

from .game import new_state
from .program import Program, TestCase
from .state import GameOver, RuleError


@dataclass(frozen=True)
class TestFailure:
    """A designer test that failed: where, and why."""

    name: str
    location: str
    message: str
    backend: str


def run_test(program: Program, test: TestCase) -> TestFailure | None:
    state = new_state(program.meta, seed=0, params={})
    env: dict = {}

    def fail(location: str, message: str) -> TestFailure:
        return TestFailure(test.name, location or test.location, message, program.backend)

    for step in test.steps:
        pending = state.pending
        try:
            if step.kind == "run":
                if pending is not None:
                    return fail(step.location, f"a decision is still pending: {_describe(pending)}")
                if state.result is not None:
                    return fail(step.location, f"the game is already over ({state.result['reason']})")
                program.run_test_block(state, step.payload, env)
            elif step.kind == "dice":
                state.dice.extend(step.payload)
            elif step.kind == "choose":
                for option in step.payload:
                    pending = state.pending
                    if pending is None:
                        return fail(step.location, f"no decision is pending to choose '{option}'")
                    if option not in pending["ids"]:
                        return fail(step.location, f"'{option}' is not offered; {_describe(pending)}")
                    program.resume(state, pending["ids"].index(option))
            elif step.kind in ("offered", "not_offered"):
                if pending is None:
                    return fail(step.location, "no decision is pending")
                for option in step.payload:
                    if (option in pending["ids"]) != (step.kind == "offered"):
                        verb = "not offered" if step.kind == "offered" else "offered"
                        return fail(step.location, f"'{option}' is {verb}; {_describe(pending)}")
            elif not program.test_expect(state, step.payload, env):
                return fail(step.location, step.message or "expectation failed")
        except GameOver:
            continue
        except RuleError as err:
            return fail(err.location or step.location, err.reason)
    return None


def _describe(pending: dict) -> str:
    ids = ", ".join(pending["ids"][:20])
    more = " ..." if len(pending["ids"]) > 20 else ""
    return f"'{pending['prompt']}' offers {ids}{more}"
