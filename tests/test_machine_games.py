"""Whole games on the native engine (compiler/backends/machine/program.py, issue 41 stages 3-5):
where every step of a game compiles natively, seeded games through the decision protocol give the
same choices, log and result as the generated package (runtime/analysis/fingerprints.py), and the
native random playout, which never crosses back to Python per decision, plays the same game as
random_walk on the generated package. Where a step does not compile, the game says why in one
line and stays on the Python engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends import native
from rulespec.compiler.backends.machine.program import NotNative, load_native_program
from rulespec.runtime.analysis.fingerprints import MAX_DECISIONS, fingerprint
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game

from support import MINI, REPO, loaded, program

GAMES = [MINI] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir())


def machine(folder: Path):
    """The game's native engine, or a skip saying why there is none."""
    why = native.available()
    if why:
        pytest.skip(why)
    try:
        return load_native_program(loaded(folder).model, program(folder, "generated"))
    except NotNative as why:
        pytest.skip(str(why))


def walked(game: Game, seed: int) -> Game:
    for game in random_walk(game, seed):
        pass
    return game


def same_random_playout(folder: Path, seed: int) -> None:
    """The native playout from the first decision, against random_walk on the generated package:
    the same number of picks, the same log (which names what each pick did) and result."""
    engine = machine(folder)
    python = walked(Game(program(folder, "generated"), seed=seed), seed)
    game = Game(engine, seed=seed)
    picks = engine.playout_random(game.state, seed)
    assert len(picks) == len(python.choices), f"{folder.name} seed {seed}: not as many decisions"
    assert game.state.log == python.state.log, f"{folder.name} seed {seed}: the logs differ"
    assert game.state.log_marks == python.state.log_marks
    assert game.state.result == python.state.result


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_games_agree_through_the_decision_protocol(folder):
    engine = machine(folder)
    python = program(folder, "generated")
    for seed in (1, 2, 3):
        for agents in ("random", "first"):
            assert fingerprint(engine, seed, agents) == fingerprint(python, seed, agents), \
                f"{folder.name} seed {seed} {agents}"


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_random_playout_plays_random_walk_s_game(folder):
    for seed in (1, 7):
        same_random_playout(folder, seed)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(folder=st.sampled_from(GAMES), seed=st.integers(0, 2**40))
def test_native_random_playout_on_random_seeds(folder, seed):
    same_random_playout(folder, seed)


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_games_agree_over_200_seeds(folder):
    engine = machine(folder)
    python = program(folder, "generated")
    for seed in range(1, 201):
        assert fingerprint(engine, seed, "random") == fingerprint(python, seed, "random"), \
            f"{folder.name} seed {seed}"
        same_random_playout(folder, seed)


# A step reading what a seat knows, which the native engine does not hold yet (every shipped game
# runs natively): planted on mini.
NOT_NATIVE = """
procedure planted_knows(p: player) {
    p chooses c in hand(p) as play(p, c) "Pick a card"
    if known(p, c) { add 1 to score(p) }
}
"""


def test_a_game_that_does_not_run_natively_says_why_in_one_line(tmp_path):
    why = native.available()
    if why:
        pytest.skip(why)
    (tmp_path / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + NOT_NATIVE,
                                         encoding="utf-8")
    refused = []
    for folder in GAMES + [tmp_path]:
        try:
            load_native_program(loaded(folder).model, program(folder, "generated"))
        except NotNative as err:
            refused.append(str(err))
    assert refused, "every game runs natively: this test has nothing left to check"
    for line in refused:
        assert "\n" not in line and re.search(r"does not run natively yet: \S+:\d+:\d+: ", line), line


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_random_games_from_the_seed_give_random_walk_s_results(folder):
    """Whole games natively from a fresh position (quiet and not): the same decisions and results."""
    engine = machine(folder)
    seeds = range(20, 40)
    expected = []
    for seed in seeds:
        game = walked(Game(program(folder, "generated"), seed=seed), seed)
        expected.append((len(game.choices), game.state.result))
    assert engine.random_games(seeds) == expected
    assert engine.random_games(seeds, quiet=False) == expected


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_bench_s_games_natively_are_bench_s_games(folder):
    """rulespec bench --backend machine plays the very games bench plays on the generated
    package: each seat's random bot picking from its own stream, the same lengths and errors."""
    from rulespec.runtime.analysis import bench

    engine = machine(folder)
    python = bench.run(program(folder, "generated"), 12, seed=5)
    native_run = bench.run(engine, 12, seed=5)
    assert native_run.lengths == python.lengths and native_run.errors == python.errors
    assert native_run.backend == "machine"


# The search bots' games (issue 41, item 5): every seat a cheap rollout bot, its horizon in
# changes of the player to move or in turns (the native scored playout with a TurnClock), and
# the policy bot's.
SEARCH_AGENTS = (("policy", range(1, 201)), ("rollout@1x1x2x1", range(1, 101)),
                 ("rollout@1x1tx2x1", range(101, 201)))


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES[1:], ids=lambda p: p.name)
def test_native_policy_and_rollout_games_agree_over_200_seeds(folder):
    engine = machine(folder)
    python = program(folder, "generated")
    for agents, seeds in SEARCH_AGENTS:
        first = Game(engine, seed=seeds[0])
        play_out(first, seat_agents((agents,) * len(engine.meta.players), engine.meta.players, seeds[0]),
                 MAX_DECISIONS)
        assert first.state.result is not None, f"{folder.name} {agents}: the first game did not end"
        for seed in seeds:
            assert fingerprint(engine, seed, agents) == fingerprint(python, seed, agents), \
                f"{folder.name} seed {seed} {agents}"
