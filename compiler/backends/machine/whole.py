"""Whole games on the native engine for the commands that play many of them (simulate, balance,
worth, ladders): `WholeGames` is the generated package's program with the native engine playing
the games it can whole (runtime/analysis/simulate.py play_whole: every seat the same policy bot,
the default bot), each traced as `Game(traced=True)` traces one, so that a game's summary (card
uses, events, draws, tracks, result) is the generated package's exactly.

Everything played a decision at a time stays the generated package's (crossing into the native
engine each decision, even with the native pack, costs about what its rules save: docs/
BENCHMARKS.md (b), "Crossing into the native engine"), but for bots that search by policy
playouts: those play on the native engine, each playout one call (`searching`).
"""

from __future__ import annotations

from typing import Any, Callable

from rulespec.compiler.backends.machine.packing import unpack_state
from rulespec.compiler.backends.machine.program import NativeProgram
from rulespec.runtime.game import new_state
from rulespec.runtime.policy import resolve
from rulespec.runtime.state import State


class WholeGames:
    """`python` (the generated package's program) with `native` playing its whole policy games."""

    def __init__(self, python: Any, native: NativeProgram):
        self.python, self.native = python, native

    def traced_policy_games(self, games: list[tuple[int, list[int]]], params: dict[str, Any] | None,
                            policy, max_decisions: int, prepare: Callable[[State], None] | None = None
                            ) -> list[tuple[int, State, str | None]] | None:
        """The native module's policy_games, traced, quietly: `games` as NativeProgram.policy_games
        takes them. Per game: its decisions, its last State (the machine part, the result and the
        trace; no log: nobody reads one), and why it stopped without a result (a rule error or the
        decision limit), or None. None for them all when a rule of the policy is refused natively:
        the caller plays them a decision at a time. `prepare(state)`: what is done to every game's
        state before it begins (worth's overlay)."""
        native, meta = self.native, self.native.meta
        if native.refused(resolve(meta, policy)[0]):
            return None
        played = native.policy_games(games, params, policy, max_decisions, traced=True, prepare=prepare)
        values = new_state(meta, 0, dict(params or {})).params
        out = []
        for (seed, _), (made, result, why, packed, trace) in zip(games, played):
            state = new_state(meta, seed, values)
            unpack_state(native.module, packed, state)
            state.result, state.trace = result, trace
            out.append((made, state, why))
        return out

    @property
    def searching(self) -> NativeProgram:
        """The program for games whose bots search by policy playouts (simulate.run_batch): the
        native engine a decision at a time, each playout one call into it (mcts.policy_play_out)."""
        return self.native

    def __getattr__(self, name: str):
        return getattr(self.python, name)
