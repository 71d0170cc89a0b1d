"""The interface both back ends offer the runtime: run, resume, test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .meta import GameMeta
from .state import State


@dataclass(frozen=True)
class TestStep:
    """One step of a designer test: run, dice, choose, offered, not_offered, expect."""

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

    def tests(self) -> list[TestCase]:
        """The designer tests."""

    def run_test_block(self, state: State, handle: Any, env: dict) -> None:
        """Run the statements of a test step until a decision or the end."""

    def test_expect(self, state: State, handle: Any, env: dict) -> bool:
        """Evaluate an `expect` of a test."""
