"""The interface both back ends offer the runtime: run, resume, test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from rulespec.runtime.meta import GameMeta
from rulespec.runtime.state import State


@dataclass(frozen=True)
class ExpectPart:
    """One condition of an `expect` (its `and`s split), named by a back-end key."""

    key: str
    text: str  # the spec text, quoted when it fails
    is_compare: bool  # the back end can give its two sides
    shows: tuple[bool, bool] = (True, True)  # which sides are worth printing
    shown_as: tuple[str, str] = ("", "")  # per side: 'player' or 'entity' (by label), '' as is


@dataclass(frozen=True)
class TestStep:
    """One step of a designer test: run, start, dice, choose, offered, not_offered, options,
    option_count, expect.

    payload: run -> a block key; dice -> the values; choose/offered/options -> option
    ids; option_count -> (comparison, number); expect -> a tuple of ExpectPart."""

    kind: str
    payload: Any
    message: str | None = None
    location: str = ""


@dataclass(frozen=True)
class TestCase:
    """A designer test as the runtime runs it."""

    name: str
    location: str
    steps: tuple[TestStep, ...]
    key: str = ""  # stable across back ends: file#number
    variants: tuple[str, ...] = ()  # the variants the test turns on for itself
    params: tuple[tuple[str, Any], ...] = ()  # the params it sets
    random_dice: bool = False  # `dice random`: unqueued rolls use the seeded stream


class Program(Protocol):
    """A compiled game: the generated package or the interpreter."""

    backend: str
    meta: GameMeta

    def begin(self, state: State) -> None:
        """Push the game's `start` block."""

    def run(self, state: State) -> None:
        """Execute until a decision is pending or the game is over."""

    def resume(self, state: State, index: int) -> None:
        """Answer the pending decision with option `index` and run on."""

    def check_invariants(self, state: State) -> list[tuple[str, str]]:
        """The (name, label) of every invariant that does not hold."""

    def evaluate(self, state: State, bot: str, player: int) -> float:
        """A spec-declared `bot` evaluation of the position for `player`."""

    def prefer(self, state: State, policy) -> list[int]:
        """The indices of the pending options a spec-declared `policy` likes best (a name, or
        rulespec.runtime.policy.Tuned: the policy with some tunables set)."""

    def forbidden(self, state: State, policy) -> list[int]:
        """The indices of the pending options a `never` line of the policy's rule marks: the
        options no search bot considers (runtime/bots/mcts.py, runtime/bots/rollout.py)."""

    def test_keys(self) -> frozenset[str]:
        """The keys of every test block and expectation this back end can run."""

    def run_test_block(self, state: State, key: str, env: dict) -> None:
        """Run the statements of a test step until a decision or the end."""

    def test_expect(self, state: State, key: str, env: dict) -> bool:
        """Evaluate one part of an `expect`."""

    def test_sides(self, state: State, key: str, env: dict) -> tuple[Any, Any]:
        """The two sides of a comparison in an `expect`, for the failure message."""
