"""The spec's `bot` evaluations natively (compiler/backends/machine/evaluations.py, templates/
evaluations.pxi.j2): every evaluation of every game gives the generated package's number for every
seat on positions of seeded random games; a rollout scored natively in one call
(NativeProgram.scored_playout) ends as policy_playout then the evaluation do; and an evaluation
the native dialect cannot write is refused with its line, the generated package answering."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.compiler.backends.machine.engine import native_engine
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.bots.mcts import ROLLOUT_CAP, TurnClock, _resume, play_out, policy_pick
from rulespec.runtime.game import Game
from rulespec.runtime.state import Stream

from support import MINI, REPO, TS, loaded, native_program, need_ts, program

GAMES = ("the_fox_in_the_forest", "heldenhain", "risk_balance_of_power", "terraforming_mars")


def positions(prog, seed: int, every: int, count: int) -> list:
    """`count` positions of a seeded random game on `prog`, one each `every` decisions (the last
    one reached too, finished or not)."""
    out, game = [], None
    for taken, game in enumerate(random_walk(Game(prog, seed=seed), seed)):
        if len(out) == count:
            break
        if taken % every == 0:
            out.append(game.state.copy())
    return out


def same_evaluations(folder: Path, seeds: range, every: int, count: int) -> int:
    machine, python = native_program(folder), program(folder, "generated")
    assert set(machine.evaluations) == set(machine.meta.bots)
    compared = 0
    for seed in seeds:
        for world in positions(machine, seed, every, count):
            for bot in machine.meta.bots:
                for seat in range(len(machine.meta.players)):
                    native = machine.evaluate(world, bot, seat)
                    assert type(native) is int
                    assert native == python.evaluate(world, bot, seat), f"{folder.name} {seed} {bot} {seat}"
                    compared += 1
    return compared


@pytest.mark.parametrize("game", GAMES)
def test_native_evaluations_are_the_generated_package_s(game):
    assert same_evaluations(REPO / "spec" / game, range(1, 4), 9, 12) > 0


def test_twilight_struggle_native_evaluations_are_the_generated_package_s():
    need_ts()
    assert same_evaluations(TS, range(1, 3), 17, 10) > 0


def pending_positions(game: str, seeds: tuple[int, ...], every: int, count: int):
    """The game's native engine, its first policy and evaluation, and positions of seeded random
    games on it with a decision pending."""
    machine = native_program(REPO / "spec" / game)
    found = [(seed, here) for seed in seeds for here in positions(machine, seed, every, count)
             if here.pending is not None]
    return machine, machine.meta.policies[0], machine.meta.bots[0], found


def ended(machine, world, bot: str, seat: int) -> tuple:
    """How a playout that reached `world` ended, as scored_playout tells it."""
    return (world.result, None) if world.result is not None else (None, machine.evaluate(world, bot, seat))


def test_a_scored_rollout_ends_as_the_rollout_then_its_evaluation():
    machine, policy, bot, found = pending_positions("the_fox_in_the_forest", (2, 5), 3, 10)
    leaves = set()
    for seed, here in found:
        before = here.copy()
        for first in (0, len(here.pending["ids"]) - 1):
            for changes, stride in ((1, None), (3, None), (2, 3), (ROLLOUT_CAP, None)):
                for seat in range(2):
                    scored_ties, ties = Stream(seed * 7 + changes), Stream(seed * 7 + changes)
                    scored = machine.scored_playout(here, policy, scored_ties, changes, stride, ROLLOUT_CAP,
                                                    first, bot, seat)
                    world = machine.policy_playout(here, policy, ties, changes, stride, ROLLOUT_CAP, first)
                    assert scored == ended(machine, world, bot, seat) and scored_ties.rng == ties.rng, \
                        f"{seed} {first} {changes}"
                    leaves.add(scored[0] is None)
        assert (here.rng, here.frames, here.pending, here.shown) == (
            before.rng, before.frames, before.pending, before.shown)
    assert leaves == {True, False}  # both kinds of leaf were met


@pytest.mark.parametrize("game", ("the_fox_in_the_forest", "risk_balance_of_power"))
def test_a_scored_rollout_with_a_turn_clock_ends_as_play_out_with_it(game):
    """With a TurnClock the horizon counts turns, and play_out may score the position before the
    decision that began the last one: the native scored playout keeps a copy of that Machine."""
    machine, policy, bot, found = pending_positions(game, (1, 4), 5, 12)
    kinds = set()
    for seed, here in found:
        me = here.pending["player"]
        for changes, run in ((1, 1), (2, 1), (2, 3), (3, 2)):
            scored_clock, clock = TurnClock(me, run), TurnClock(me, run)
            scored_ties, ties = Stream(seed + changes), Stream(seed + changes)
            scored = machine.scored_playout(here, policy, scored_ties, changes, None, ROLLOUT_CAP, 0, bot, me,
                                            scored_clock)
            world = here.copy()
            _resume(machine, world, 0)
            reached = play_out(machine, world, changes, lambda w: policy_pick(machine, w, policy, ties),
                               None, clock)
            where = f"{game} {seed} {here.pending['at']} {changes}/{run}"
            assert scored == ended(machine, reached, bot, me) and scored_ties.rng == ties.rng, where
            assert (scored_clock.owner, scored_clock.run, scored_clock.pending) == (
                clock.owner, clock.run, clock.pending), where
            kinds.add("over" if reached.result is not None else "before" if reached is not world else "reached")
    assert {"before", "reached"} <= kinds


def test_an_evaluation_the_dialect_cannot_write_is_refused_and_asked_of_python(tmp_path):
    folder = tmp_path / "refused"
    folder.mkdir()
    (folder / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + REFUSED,
                                       encoding="utf-8")
    made = native_engine(loaded(folder).model).evaluations
    refused = {r.name: r for r in made.refused}
    assert "knowing" in refused and "knowing" not in {e.name for e in made.compiled}
    assert f"mini.rules:{len(MINI_LINES) + 3}:" in refused["knowing"].location  # the `known` it reads
    assert "knows" in refused["knowing"].reason
    machine, python = native_program(folder), program(folder, "generated")
    assert "knowing" not in machine.evaluations
    world = positions(machine, 3, 2, 2)[-1]
    assert machine.evaluate(world, "knowing", 0) == python.evaluate(world, "knowing", 0)
    assert machine.scored_playout(world, machine.meta.policies[0], Stream(1), 2, None, ROLLOUT_CAP, 0,
                                  "knowing", 0) is None


MINI_LINES = (MINI / "mini.rules").read_text(encoding="utf-8").splitlines()
REFUSED = """
bot knowing "Cards known" =
    count(c in card where known(you, c))

policy plain "Plain" {
    choosing c: card as play {
        prefer c.points
    }
}
"""
