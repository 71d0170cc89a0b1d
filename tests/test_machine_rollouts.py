"""A search's rollout natively in one call (compiler/backends/machine/templates/rollouts.pxi.j2,
NativeProgram.policy_playout, runtime/bots/mcts.py policy_play_out): from seeded positions the
native playout reaches the very State runtime/bots/mcts.py's play_out reaches with policy_pick
decision by decision (the random stream, the machine part, the frames, the result, the pending
decision with its ids and labels, the tie stream after), and the generated package's; a rollout
bot's whole game on the machine engine makes the generated package's decisions. Where the native
loop cannot play it (a turn clock, a policy rule refused natively) Python plays it, the same."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from rulespec.compiler.backends.machine.pack import pack
from rulespec.runtime.analysis.fingerprints import fingerprint
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.bots.agents import DecisionLimit, play_out as play_game, seat_agents
from rulespec.runtime.bots.mcts import ROLLOUT_CAP, TurnClock, _resume, play_out, policy_pick, policy_play_out
from rulespec.runtime.game import Game
from rulespec.runtime.state import Stream

from support import MINI, REPO, TS, loaded, native_program, need_ts, program

FOX = REPO / "spec" / "the_fox_in_the_forest"
HORIZONS = ((1, None), (2, None), (3, None), (3, 4), (ROLLOUT_CAP, None))  # (changes, stride)


def engine(folder: Path):
    """The game's machine engine, or a skip saying why there is none."""
    return native_program(folder)




def positions(prog, seed: int, every: int, count: int) -> list:
    """`count` positions of a seeded random game on `prog`, one each `every` decisions."""
    out = []
    for taken, game in enumerate(random_walk(Game(prog, seed=seed), seed)):
        if game.state.pending is None or len(out) == count:
            break
        if taken % every == 0:
            out.append(game.state.copy())
    return out


def taken(prog, world, first):
    """A copy of `world`, option `first` taken at its pending decision (None: none taken)."""
    world = world.copy()
    if first is not None:
        _resume(prog, world, first)
    return world


def python_rollout(prog, world, policy, ties, changes, stride):
    return play_out(prog, world, changes, lambda w: policy_pick(prog, w, policy, ties), stride)


def seen(machine, world, ties) -> tuple:
    """What a rollout leaves that anything reads (its log aside: a rollout's is quiet)."""
    return (world.rng, pack(machine.layout, world), world.frames, world.result, world.pending,
            world.decisions, ties.rng)


def same_rollouts(folder: Path, seed: int, every: int, count: int) -> int:
    """Native rollouts and the Python loop's from positions of a seeded game, each policy and
    horizon: the same State, on the machine engine and (but for its frames' form) the generated
    package's. How many were compared."""
    machine, python = engine(folder), program(folder, "generated")
    compared = 0
    for here, there in zip(positions(machine, seed, every, count), positions(python, seed, every, count)):
        untouched = seen(machine, here, Stream(0))
        firsts = (None, 0, len(here.pending["ids"]) - 1)  # None: from the position as it is
        for policy, (changes, stride), first in product(machine.meta.policies, HORIZONS, firsts):
            where = f"{folder.name} seed {seed} at {here.pending['at']} {policy} {changes}/{stride} {first}"
            native_ties = Stream(seed + changes)
            native_world = machine.policy_playout(here if first is not None else here.copy(), policy,
                                                  native_ties, changes, stride, ROLLOUT_CAP, first)
            assert native_world is not None and seen(machine, here, Stream(0)) == untouched, where
            loop_ties = Stream(seed + changes)
            loop_world = python_rollout(machine, taken(machine, here, first), policy, loop_ties, changes, stride)
            assert seen(machine, native_world, native_ties) == seen(machine, loop_world, loop_ties), where
            python_ties = Stream(seed + changes)
            python_world = python_rollout(python, taken(python, there, first), policy, python_ties, changes,
                                          stride)
            assert (python_world.rng, python_world.vars, python_world.tracks, python_world.result,
                    python_world.pending, python_ties.rng) == (
                native_world.rng, native_world.vars, native_world.tracks, native_world.result,
                native_world.pending, native_ties.rng), where
            compared += 1
    return compared


def test_fox_native_rollouts_reach_the_python_loop_s_positions():
    assert same_rollouts(FOX, 5, 7, 12) > 0
    assert same_rollouts(FOX, 11, 5, 6) > 0


def test_twilight_struggle_native_rollouts_reach_the_python_loop_s_positions():
    need_ts()
    assert same_rollouts(TS, 3, 23, 5) > 0


def counted(machine, monkeypatch) -> list[bool]:
    """Whether each call of the machine engine's policy_playout or scored_playout (the rollout
    bot's) played natively."""
    answers: list[bool] = []

    def counting(playout):
        def count(*args):
            reached = playout(*args)
            answers.append(reached is not None)
            return reached
        return count
    for name in ("policy_playout", "scored_playout"):
        monkeypatch.setattr(machine, name, counting(getattr(machine, name)))
    return answers


def test_a_rollout_from_a_finished_game_keeps_its_result():
    machine = engine(FOX)
    over = [game.state.copy() for game in random_walk(Game(machine, seed=7), 7)][-1]
    assert over.result is not None
    ties = Stream(1)
    assert seen(machine, machine.policy_playout(over.copy(), machine.meta.policies[0], ties, 3, None,
                                                ROLLOUT_CAP), ties) == seen(machine, over, Stream(1))


def test_rollout_bot_games_on_the_machine_engine_are_the_generated_package_s(monkeypatch):
    machine, python = engine(FOX), program(FOX, "generated")
    answers = counted(machine, monkeypatch)
    for agents in ("rollout@2x2x2x1,policy", "policy,rollout@2x3x2x1", "rollout@2x2tx2x1,policy",
                   "mcts@4x2,policy"):
        for seed in (1, 2, 3):
            assert fingerprint(machine, seed, agents) == fingerprint(python, seed, agents), f"{agents} {seed}"
    assert answers and all(answers)


def first_choices(prog, seed: int, agents: tuple[str, ...], decisions: int) -> tuple:
    game = Game(prog, seed=seed, params={})
    try:
        play_game(game, seat_agents(agents, prog.meta.players, seed), decisions)
    except DecisionLimit:
        pass
    return tuple(game.choices), game.state.result


def test_twilight_struggle_rollout_bot_decides_as_on_the_generated_package(monkeypatch):
    need_ts()
    machine, python = engine(TS), program(TS, "generated")
    answers = counted(machine, monkeypatch)
    agents = ("rollout@2x2x2x1", "policy")
    assert first_choices(machine, 1, agents, 120) == first_choices(python, 1, agents, 120)
    assert answers and all(answers)


def test_a_turn_clock_or_a_refused_rule_is_played_by_the_python_loop(tmp_path):
    machine = engine(FOX)
    policy = machine.meta.policies[0]
    here = positions(machine, 3, 4, 1)[0]
    clocked = [policy_play_out(machine, here.copy(), 2, policy, Stream(9), None, TurnClock(0, 1)),
               play_out(machine, here.copy(), 2, lambda w: policy_pick(machine, w, policy, Stream(9)),
                        None, TurnClock(0, 1))]
    assert seen(machine, clocked[0], Stream(0)) == seen(machine, clocked[1], Stream(0))
    # mini with a policy whose rule reads the result, which the native engine refuses
    folder = tmp_path / "refused"
    folder.mkdir()
    (folder / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + REFUSED,
                                       encoding="utf-8")
    mini = engine(folder)
    assert None in mini.module.POLICY_SITES["refused"].values()
    world = positions(mini, 2, 1, 1)[0]
    before = seen(mini, world, Stream(4))
    assert mini.policy_playout(world, "refused", Stream(4), 2, None, ROLLOUT_CAP) is None
    assert seen(mini, world, Stream(4)) == before
    ties, loop_ties = Stream(4), Stream(4)
    assert seen(mini, policy_play_out(mini, world.copy(), 2, "refused", ties), ties) == seen(
        mini, python_rollout(mini, world.copy(), "refused", loop_ties, 2, None), loop_ties)


REFUSED = """
policy refused "Refused" {
    choosing c: card as play {
        prefer if winner == none then c.points else 0
    }
}
"""
