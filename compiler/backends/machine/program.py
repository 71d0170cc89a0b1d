"""The native engine behind the decision protocol (docs/NATIVE.md, stage 5): a `Program`
(runtime/program.py) whose rules run in the game's native module over its machine state, for
every command that plays games through `Game`.

Python crosses into the engine once per decision: `run` and `resume` pack the State's machine part
into a position, run the native steps until the next decision (or the end), and unpack the
position back into the State, so views, records, bots and the table read the State they always
read. The frames and the pending decision are the Machine's structs while the engine runs
(templates/frames.pxi.j2) and cross as the generated package's lists and dict, in the native
engine's values (a local none is NONE, an unbound one UNBOUND): the same step ids and block numbers
as the generated package's frames, but only this program steps them. What the native module does not run (an evaluation or a policy rule
refused natively, invariants, a designer test's own statements: designer.py) is answered by the
generated package on the same State.

A game whose steps do not all compile has no NativeProgram: `load_native_program` says why in
one line (the first refusal, with its spec location), and the caller keeps the Python engine.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from rulespec.compiler.backends.machine.build import build_engine
from rulespec.compiler.backends.machine.engine import native_engine
from rulespec.compiler.backends.machine.layout import Layout
from rulespec.compiler.backends.machine.packing import pack_state, unpack_state
from rulespec.runtime.game import new_state  # the one way into a game: checks the params
from rulespec.runtime.policy import resolve
from rulespec.runtime.state import RuleError, State
from rulespec.runtime.values import RULE_FAILURES, rule_error_of


# A State's memo entry: its machine part as the native steps left it, and what would show a change
# since (code that changes a state other than as rules do drops the memo: State.forget_kept), so a
# policy asked about the decision just reached reads it without packing the state again.
PACKED = "machine.packed"


def _unchanged(state: State) -> tuple:
    return id(state.pending), state.decisions, state.rng, tuple(state.stamps)


class NotNative(Exception):
    """A game the native engine does not run yet: why, in one line."""


class NativeProgram:
    """A game's native module as a Program; `python` answers what it does not run."""

    backend = "machine"

    def __init__(self, module: ModuleType, layout: Layout, start: tuple[int, int] | None, python: Any):
        self.module = module
        self.layout = layout
        self.python = python
        self.meta = python.meta
        self.start = start  # the `start` routine's step and frame size (steps.py)
        self._refused: dict[str, list[str]] = {}  # refused(policy), by policy

    # ---------------------------------------------------------- the engine's own
    def begin(self, state: State) -> None:
        if self.start is None:
            raise RuleError("the spec has no `start` block")
        step, size = self.start
        state.frames.append([step, 0, [self.module.UNBOUND_LOCAL] * size, None])

    def run(self, state: State) -> None:
        self._natively(state, None)

    def resume(self, state: State, index: int) -> None:
        self._natively(state, index)

    def _natively(self, state: State, index: int | None) -> None:
        if self.tests is not None and self.tests.holds(state):
            return self.tests.run(state, index)  # a designer test's own frame lies below (designer.py)
        position, objects = self._crossing_in(state)
        try:
            if index is None:
                self.module.run(position, objects)
            else:
                self.module.resume(position, objects, index)
        except RULE_FAILURES as err:
            raise rule_error_of(err) from None
        finally:
            self._crossing_out(state, position, objects)

    def playout_random(self, state: State, seed: int, limit: int = -1, quiet: bool = False) -> list[int]:
        """Plays on from `state`'s pending decision, each option picked as runtime/analysis/
        fuzz.py's random_walk picks it from a stream seeded `seed`, without crossing back per
        decision: the indices picked. `quiet`: no log is written and the last decision (if the
        game is not over) has its options alone."""
        position, objects = self._crossing_in(state)
        objects.quiet = quiet
        try:
            return self.module.play_random(position, objects, seed & (2**64 - 1), limit)
        except RULE_FAILURES as err:
            raise rule_error_of(err) from None
        finally:
            self._crossing_out(state, position, objects)

    def _crossing_in(self, state: State, packed: bytes | None = None):
        """The State's machine part and effects in play as a position (the effects as the
        Machine's structs), its object part shared with the Objects (the log's lists as they are).
        The machine part is packed natively (packing.py), or read from the memo where nothing
        changed it since it crossed out (a decision taken on the state just reached)."""
        module = self.module
        position = module.Position(packed or self._packed(state), state.params, state.effects)
        module.control_in(position, state.frames, state.pending)
        objects = module.Objects(log=state.log, log_at=state.log_at, log_marks=state.log_marks,
                                 shown=state.shown, dice=state.dice, rolled=state.rolled)
        objects.pending = state.pending
        objects.trace = state.trace  # a traced game's counts, kept in place (simulate's card uses)
        return position, objects

    def _crossing_out(self, state: State, position, objects) -> None:
        """The position's machine part and the Objects back into the State."""
        module = self.module
        packed = module.packed(position)
        unpack_state(module, packed, state)
        state.pending, state.result = module.pending_out(position, objects), objects.result
        state.frames, state.shown = module.frames_out(position), objects.shown
        state.effects = module.effects_out(position)  # the generated package's form
        state.forget_kept()  # nothing the generated package kept holds after native moves
        state.memo[PACKED] = (packed, *_unchanged(state))

    def random_games(self, seeds, params: dict[str, Any] | None = None,
                     quiet: bool = True) -> list[tuple[int, dict | None]]:
        """Whole seeded games of random play natively, none crossing back per decision (what
        random_walk plays on a Game of each seed): per game, its decisions and its result."""
        fresh = new_state(self.meta, 0, dict(params or {}))
        return self.module.random_games(pack_state(self.module, self.layout, fresh), fresh.params, seeds, quiet)

    def seat_random_games(self, games: list[tuple[int, list[int]]], params: dict[str, Any] | None,
                          max_decisions: int) -> list[tuple[int, Any, str | None]]:
        """Whole games natively and quietly, each seat a random bot: `games` gives each game's seed
        and where each seat's stream starts (runtime/analysis/bench.py makes them as
        agents.seat_agents does). Per game (decisions, result, None), or (decisions, None, why)
        when a rule error or the decision limit stopped it."""
        fresh = new_state(self.meta, 0, dict(params or {}))
        return self.module.seat_random_games(pack_state(self.module, self.layout, fresh), fresh.params, games,
                                             max_decisions)

    def deal_natively(self, state: State, world: State, player: int, pools: list[list[int]], known,
                      stream) -> tuple[dict[int, int], int, Callable[[State], None]]:
        """runtime/bots/search.py's determinize, its part that shuffles: the pools' cards not
        `known` re-dealt from `stream` (search.py's _redeal), the other seats' knowledge trimmed
        and the deal's rng drawn, by the module on `state`'s packed machine part
        (templates/deals.pxi.j2 search_deal), the moved cards written into `world`'s zones and
        locations. Gives the moved cards (old -> the card now in its place), the rng, and what
        keeps the dealt bytes as `world`'s machine part (when nothing bound to the cards moved),
        so its rollouts do not pack it again."""
        dealt, stream.rng, rng, moved = self.module.search_deal(self._packed(state), player, pools, known,
                                                                stream.rng, world.zones, world.location)

        def keep(dealt_world: State) -> None:
            dealt_world.memo[PACKED] = (dealt, *_unchanged(dealt_world))
        return moved, rng, keep

    def rebind_cards(self, state: State, mapping: dict[int, int]) -> None:
        self.python.rebind_cards(state, mapping)  # cards are the same integers in both forms

    # ---------------------------------------------------------- answered by the generated package
    def check_invariants(self, state: State) -> list[tuple[str, str]]:
        return self.python.check_invariants(state)

    def evaluate(self, state: State, bot: str, player: int) -> float:
        """The spec's evaluation natively (machine/evaluations.py), or the generated package's
        where it is refused natively."""
        if bot not in self.evaluations:
            return self.python.evaluate(state, bot, player)
        position = self.module.Position(self._packed(state), state.params, state.effects)
        try:
            return self.module.evaluate(position, bot, player)
        except RULE_FAILURES as err:
            raise rule_error_of(err) from None

    @property
    def evaluations(self) -> dict[str, int]:
        """The evaluations written natively, by name."""
        return getattr(self.module, "EVALUATIONS", {})

    def prefer(self, state: State, policy) -> list[int]:
        return self._policy(state, policy, self.module.prefer, self.python.prefer)

    def forbidden(self, state: State, policy) -> list[int]:
        return self._policy(state, policy, self.module.forbidden, self.python.forbidden)

    def _policy(self, state: State, policy, native, python) -> list[int]:
        """A policy's answer natively (machine/policies.py), or the generated package's where the
        rule answering the decision is refused natively (the coverage report says why)."""
        name, tunables = resolve(self.meta, policy)
        pending = state.pending
        if self.module.POLICY_SITES.get(name, {}).get(pending["at"], ()) is None:
            return python(state, policy)
        position = self.module.Position(self._packed(state), state.params, state.effects)
        try:
            return native(position, name, tunables, pending["player"], pending["at"], pending["values"])
        except RULE_FAILURES as err:
            raise rule_error_of(err) from None

    def refused(self, policy: str) -> list[str]:
        """Where `policy` has a rule refused natively (a whole game natively needs none)."""
        found = self._refused.get(policy)
        if found is None:  # asked before every playout: worked out once
            found = self._refused[policy] = [at for at, site in self.module.POLICY_SITES.get(policy, {}).items()
                                             if site is None]
        return found

    def policy_games(self, games: list[tuple[int, list[int]]], params: dict[str, Any] | None,
                     policy, max_decisions: int, quiet: bool = True, keep_picks: bool = False,
                     traced: bool = False, prepare: Callable[[State], None] | None = None
                     ) -> list[tuple[Any, ...]]:
        """Whole games natively where every seat is the policy bot (runtime/policy.py's PolicyAgent),
        none crossing back per decision: `games` gives each game's seed and where each seat's bot
        stream starts (agents.seat_agents' PolicyAgents' `stream.rng`). Per game (decisions, or the
        picks with keep_picks, result, None), or (.., None, why) when a rule error or the decision
        limit stopped it. NotNative when a rule of the policy is refused natively. `traced`: each
        game traced as simulate traces one, and also its last machine state and trace (.., packed,
        trace); `prepare(state)`: what is done to every game's state before it begins (worth's
        overlay)."""
        name, tunables = resolve(self.meta, policy)
        refused = self.refused(name)
        if refused:
            raise NotNative(f"policy {name} does not run natively yet: its rule at {refused[0]} is refused")
        fresh = new_state(self.meta, 0, dict(params or {}))
        if prepare is not None:
            prepare(fresh)
        return self.module.policy_games(pack_state(self.module, self.layout, fresh), fresh.params, games, name,
                                        tunables, max_decisions, quiet, keep_picks, traced)

    # ---------------------------------------------------------- designer tests (designer.py)
    tests: Any = None  # their DesignerTests, where the spec is at hand (load_native_program)

    def test_keys(self) -> frozenset[str]:
        return self.tests.keys() if self.tests is not None else frozenset()

    def run_test_block(self, state: State, key: str, env: dict) -> None:
        self.tests.run_block(state, key, env)

    def test_expect(self, state: State, key: str, env: dict) -> bool:
        return self.python.test_expect(state, key, env)

    def test_sides(self, state: State, key: str, env: dict) -> tuple[Any, Any]:
        return self.python.test_sides(state, key, env)

    # ---------------------------------------------------------- a search's rollout in one call
    def policy_playout(self, state: State, policy, ties, changes: int, stride: int | None, cap: int,
                       first: int | None = None) -> State | None:
        """runtime/bots/mcts.py's play_out of `state` with policy_pick for whoever moves (ties from
        the Stream `ties`, advanced as it would be), natively in one call (templates/rollouts.pxi.j2):
        the position play_out reaches (its log aside: a rollout's is quiet), `state` itself; with
        `first`, a copy of `state` with its pending option `first` taken first (`state` untouched,
        its machine part packed once for every copy). None, nothing played, where a rule of the
        policy is refused natively (Python plays it)."""
        name, tunables = resolve(self.meta, policy)
        if self.refused(name):
            return None
        if first is None and (state.result is not None or state.pending is None):
            return state  # over already: play_out stops at once (and the Objects hold no result)
        packed = self._packed(state)
        world = state if first is None else state.copy()
        position, objects = self._crossing_in(world, packed)
        try:
            ties.rng = self.module.policy_playout(position, objects, name, tunables, ties.rng,
                                                  changes, stride or 0, cap, -1 if first is None else first)
        except RULE_FAILURES as err:
            raise rule_error_of(err) from None
        finally:
            self._crossing_out(world, position, objects)
        return world

    def scored_playout(self, state: State, policy, ties, changes: int, stride: int | None, cap: int,
                       first: int | None, bot: str, player: int, clock=None
                       ) -> tuple[dict | None, int | None] | None:
        """policy_playout for a search that reads only how the playout ended: (the result, None)
        when the game ended, else (None, the evaluation `bot` of the position play_out gives for
        `player`), all in one call, nothing of the position unpacked and `state` untouched; with
        a `clock` (runtime/bots/mcts.py's TurnClock, advanced as play_out advances it) the horizon
        counts turns. None, nothing played, where the policy or the evaluation is not written
        natively."""
        name, tunables = resolve(self.meta, policy)
        if self.refused(name) or bot not in self.evaluations:
            return None
        if first is None and (state.result is not None or state.pending is None):
            return state.result, (None if state.result is not None else self.evaluate(state, bot, player))
        position = self.module.Position(self._packed(state), state.params, state.effects)
        self.module.control_in(position, state.frames, state.pending)  # copied: `state` is untouched
        objects = self.module.Objects(shown=state.shown[:], dice=state.dice[:])
        turns = None if clock is None else (clock.owner, clock.run, -1 if clock.pending is None else clock.pending)
        try:
            ties.rng, result, score, turns = self.module.scored_playout(
                position, objects, name, tunables, ties.rng, changes, stride or 0, cap,
                -1 if first is None else first, bot, player, turns)
        except RULE_FAILURES as err:
            raise rule_error_of(err) from None
        if clock is not None:
            clock.owner, clock.run, clock.pending = turns[0], turns[1], None if turns[2] < 0 else turns[2]
        return result, score

    def _packed(self, state: State) -> bytes:
        """The State's machine part packed: kept in its memo (PACKED) while nothing changed it."""
        kept = state.memo.get(PACKED)
        if kept is not None and kept[1:] == _unchanged(state):
            return kept[0]
        packed = pack_state(self.module, self.layout, state)
        state.memo[PACKED] = (packed, *_unchanged(state))
        return packed


def load_native_program(model, python: Any) -> NativeProgram:
    """The native engine of a game (its module built when missing), or NotNative saying why
    (before anything is built)."""
    made = native_engine(model)
    if made.steps.refused:
        raise NotNative(f"{model.game} does not run natively yet: {made.steps.refused[0]}")
    from rulespec.compiler.backends.machine.designer import DesignerTests  # the spec's tests: codegen's analysis
    program = NativeProgram(build_engine(made), made.layout, made.steps.start, python)
    program.tests = DesignerTests(program, model)
    return program
