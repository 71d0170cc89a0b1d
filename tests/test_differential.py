"""Differential tests: the generated engine and the interpreter agree move for move.

Both back ends play the same seeded games in lockstep with random agents: the
same decision (player, prompt, option ids) and the same public part of the
state after every decision, the same invariants and bot evaluations (every
10th decision and at the end), the same
result, the same log and trace of events - or the same rule error at the
same point. The
generated game's state goes through JSON now and then, frames included, and
plays on from the copy. The designer tests pass on the generated engine too.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from rulespec.runtime.bots.agents import seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError, State
from rulespec.runtime.testing import run_test
from rulespec.compiler.backends.testplan import plan_tests
from rulespec.compiler.frontend.loader import load_spec
from support import MINI, TS, need_ts, program

INJECTION = MINI.parent / "injection"
VALUES = MINI.parent / "values"  # the smaller constructs: procedures giving values, ...

GAMES = 100
CAP = 20_000  # decisions before a game counts as endless


def lockstep(folder, seed: int) -> int:
    """Play one game on both back ends at once; returns its number of decisions."""
    reference, generated = program(folder, "interpreted"), program(folder, "generated")
    a, b = _start(reference, seed), _start(generated, seed)
    if isinstance(a, str) or isinstance(b, str):
        assert a == b, f"seed {seed}: the games start differently"
        return 0
    agents = seat_agents(("random",) * len(reference.meta.players), reference.meta.players, seed)
    a.state.trace, b.state.trace = {}, {}  # events fired and signals emitted, per card
    made = 0
    while True:
        assert b.state.public_part() == a.state.public_part(), f"seed {seed}, decision {made}"
        if made % 10 == 0:  # the interpreter is slow at these: every 10th decision
            _same_judgements(reference, generated, a.state, b.state, f"seed {seed}, decision {made}")
        if made % 5 == 4:  # frames are plain data: the game plays on from a JSON copy
            b.state = State.from_json(json.loads(json.dumps(b.state.to_json())))
        da, db = a.decision, b.decision
        if da is None or db is None:
            assert da is None and db is None, f"seed {seed}: one game waits, the other does not"
            break
        assert (db.player, db.prompt, db.option_ids, db.labels) == (
            da.player, da.prompt, da.option_ids, da.labels), f"seed {seed}, decision {made}"
        assert made < CAP, f"seed {seed}: no result within {CAP} decisions"
        choice = agents[da.player].choose(a, da)
        errors = [_choose(g, choice) for g in (a, b)]
        assert errors[0] == errors[1], f"seed {seed}, decision {made}"
        made += 1
        if errors[0] is not None:
            return made
    _same_judgements(reference, generated, a.state, b.state, f"seed {seed}, at the end")
    assert (b.winner, b.reason, b.state.result) == (a.winner, a.reason, a.state.result)
    assert b.state.log == a.state.log
    assert b.state.trace == a.state.trace
    return made


def _same_judgements(reference, generated, a: State, b: State, where: str) -> None:
    assert generated.check_invariants(b) == reference.check_invariants(a), where
    for bot in reference.meta.bots:
        for player in range(len(reference.meta.players)):
            assert generated.evaluate(b, bot, player) == reference.evaluate(a, bot, player), where


def _start(prog, seed: int):
    try:
        return Game(prog, seed=seed)
    except RuleError as err:
        return repr(_error(err))


def _choose(game: Game, option: str) -> tuple | None:
    try:
        game.choose(option)
    except RuleError as err:
        return _error(err)
    return None


def _error(err: RuleError) -> tuple:
    """A rule error as both back ends must agree on it: the message and the spec line.

    (The interpreter names files relative to the working directory, generated
    code relative to the repository: only the file name is compared.)"""
    where = err.location.rsplit(":", 2)
    if len(where) == 3:
        where[0] = where[0].rsplit("/", 1)[-1]
    return err.reason, tuple(where)


def test_mini_games_agree_move_for_move():
    assert sum(lockstep(MINI, seed) for seed in range(GAMES)) > GAMES


def test_injection_games_agree_move_for_move():
    assert sum(lockstep(INJECTION, seed) for seed in range(GAMES)) > GAMES


def test_values_games_agree_move_for_move():
    assert sum(lockstep(VALUES, seed) for seed in range(GAMES)) > GAMES


def test_twilight_struggle_games_agree_move_for_move():
    need_ts()
    program(TS, "interpreted"), program(TS, "generated")  # loaded once, before the fork
    workers = max(1, min(4, os.cpu_count() or 1))
    seeds = [range(k, GAMES, workers) for k in range(workers)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        assert sum(pool.map(_games, [TS] * workers, seeds)) > GAMES


def _games(folder, seeds) -> int:
    return sum(lockstep(folder, seed) for seed in seeds)


@pytest.mark.parametrize("folder", [MINI, INJECTION, VALUES], ids=["mini", "injection", "values"])
def test_designer_tests_pass_on_the_generated_engine(folder):
    generated = program(folder, "generated")
    cases = plan_tests(load_spec(folder).model).cases
    assert cases and generated.test_keys() == program(folder, "interpreted").test_keys()
    assert not [f for f in map(lambda t: run_test(generated, t), cases) if f]
