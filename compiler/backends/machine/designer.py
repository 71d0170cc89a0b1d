"""Designer tests on the native engine (`rulespec test --backend machine`): a test's own statements
run on the generated package, every routine of the game they start runs natively.

A test's `run` step is a frame of the generated package (its step among TEST_STEPS, after every
step of the game, so its id tells it apart), with the test's names as its locals. It lies at the
bottom of the frames: a `run` step starts with none pending. The package steps it; the frames it
pushes (a call of a routine that waits for a decision, a card's suspending event, a signal's
suspending triggers) are the game's, with the same step ids natively (steps.py), so they cross
into the native form (their values converted) and run natively with the test's frame set aside;
when they are done the test's frame steps on. A call as the block's last statement pops the test's
frame first (a tail call), so most tests play natively from there. `start`, decisions and the
game's own frames run as the NativeProgram runs them; `expect` reads the State on the package.

What cannot cross is refused in one line, naming why (NotRunNatively: `rulespec test` reports the
test as not run natively, never as passed): a value of a routine that waits kept by the test's own
statements (`let x = procedure_that_waits()`: natively it is given to no frame), and a value other
than a number, a player, an entity, a truth or unbound handed to the game's frames by a test
(none, a zone, a text, an enum value: their native forms are the module's own).
"""

from __future__ import annotations

import sys
from typing import Any

from rulespec.compiler.backends.codegen.analysis import Suspension, statements
from rulespec.compiler.backends.testplan import plan_tests
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.model import Model
from rulespec.runtime.frames import UNBOUND, new_frame
from rulespec.runtime.state import GameOver, State
from rulespec.runtime.values import RULE_FAILURES, rule_error_of


class NotRunNatively(Exception):
    """A designer test the native engine cannot run: why, in one line."""


class DesignerTests:
    """Runs designer tests' frames on a NativeProgram (program.py routes a State holding one here)."""

    def __init__(self, program: Any, model: Model):
        self.program, self.model = program, model
        package = sys.modules[type(program.python).__module__]  # the generated package's __init__
        self.steps, self.first_test_step = package.ALL_STEPS, len(package.STEPS)
        self.test_step_ids = package.TEST_STEP_IDS
        self._kept: dict[str, str | None] = {}
        self._waits: dict[str, bool] | None = None

    def keys(self) -> frozenset[str]:
        return self.program.python.test_keys()

    def holds(self, state: State) -> bool:
        """Whether a test's own frame lies at the bottom of the State's frames."""
        return bool(state.frames) and state.frames[0][0] >= self.first_test_step

    def run_block(self, state: State, key: str, env: dict) -> None:
        why = self.kept_value(key)
        if why is not None:
            raise NotRunNatively(why)
        state.frames.append(new_frame(self.test_step_ids[key], env))
        self.run(state, None)

    def run(self, state: State, index: int | None) -> None:
        """Until a decision is pending or the frames are done: the game's frames natively, the
        test's own on the package; `index` answers the pending decision first."""
        while state.result is None and state.frames:
            if not self.holds(state):  # the game's frames alone (the test's frame made a tail call)
                self.program._natively(state, index)
                return
            test, above = state.frames[0], state.frames[1:]
            if above:
                state.frames = above
                try:
                    self.program._natively(state, index)  # the test's frame aside: the game's frames only
                finally:
                    state.frames = [] if state.result is not None else [test] + state.frames
            elif index is not None:  # a choice the test's own statements ask (runtime/frames.py)
                pending, state.pending = state.pending, None
                state.decisions += 1
                test[3] = pending["values"][index]
                self._test_step(state, test)
            elif state.pending is None:
                self._test_step(state, test)
            index = None
            if state.pending is not None:
                return

    def _test_step(self, state: State, test: list) -> None:
        """One step of the test's frame on the package; the frames it pushes into the native form."""
        try:
            self.steps[test[0]](state, test)
        except GameOver:
            return
        except RULE_FAILURES as err:
            raise rule_error_of(err) from None
        finally:
            state.forget_kept()  # the package changed the State: nothing packed before holds
        for frame in state.frames:
            if frame is not test:
                frame[2] = [self._native(value, frame) for value in frame[2]]

    def _native(self, value: Any, frame: list) -> int:
        if isinstance(value, str) and value == UNBOUND:
            return self.program.module.UNBOUND_LOCAL
        if isinstance(value, int):  # a number, a player, an entity, a truth: the same integer
            return int(value)
        routine = (self.steps[frame[0]].__doc__ or f"step {frame[0]}").split(" (")[0]
        raise NotRunNatively(f"the test hands {value!r} to {routine}: the native engine takes only numbers,"
                        f" players, entities and truths from a test's own statements")

    def kept_value(self, key: str) -> str | None:
        """Why a `run` step cannot run natively (it keeps the value of a routine that waits), or None."""
        if key not in self._kept:
            if self._waits is None:
                self._waits = Suspension(self.model).procedures
            waits = self._waits
            found = None
            for stmt in statements(plan_tests(self.model).blocks[key]):
                value = stmt.value if isinstance(stmt, (ast.Let, ast.SetStmt)) else None
                if isinstance(value, ast.CallExpr) and waits.get(value.name, False):
                    found = (f"line {stmt.span.line} keeps the value of `{value.name}`, which waits for a"
                             f" decision: natively no frame of the test is given it")
                    break
            self._kept[key] = found
        return self._kept[key]
