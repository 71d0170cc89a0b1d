"""Properties of random legal games (hypothesis): invariants, card conservation, termination."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from rulespec.runtime.analysis.fuzz import structural_problems
from rulespec.runtime.game import Game
from support import BACKENDS, MINI, TS, need_ts, program

CAP = {"mini": 2_000, "twilight_struggle": 20_000}  # decisions before a game counts as endless


def play_checked(prog, seed: int, chooser: random.Random) -> Game:
    """One random legal game; every invariant and every card checked after every decision."""
    game = Game(prog, seed=seed)
    _check(prog, game)
    cap = CAP.get(prog.meta.game, 20_000)
    while not game.over:
        decision = game.decision
        assert decision is not None, "nothing is pending and no `win` ended the game"
        assert len(game.choices) < cap, f"no result within {cap} decisions (seed {seed})"
        game.choose(chooser.choice(decision.option_ids))
        _check(prog, game)
    return game


def _check(prog, game: Game) -> None:
    broken = prog.check_invariants(game.state)
    assert not broken, f"invariants broken after decision {len(game.choices)}: {broken}"
    problems = structural_problems(game.state)
    assert not problems, f"cards misplaced after decision {len(game.choices)}: {problems}"
    placed = sum(len(cards) for cards in game.state.zones)
    assert placed == len(prog.meta.card_entities)


@pytest.mark.parametrize("backend", BACKENDS)
@given(seed=st.integers(0, 2**63 - 1), chooser=st.randoms(use_true_random=False))
def test_random_games_of_mini_keep_every_invariant(backend, seed, chooser):
    game = play_checked(program(MINI, backend), seed, chooser)
    assert game.over and game.reason


@pytest.mark.parametrize("variant", ["quick", "slow"])
@given(seed=st.integers(0, 2**63 - 1), chooser=st.randoms(use_true_random=False))
def test_random_games_of_mini_variants_keep_every_invariant(variant, seed, chooser):
    assert play_checked(program(MINI, "interpreted", (variant,)), seed, chooser).over


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=1)
@given(seed=st.integers(0, 2**63 - 1), chooser=st.randoms(use_true_random=False))
def test_random_games_of_twilight_struggle_keep_every_invariant(backend, seed, chooser):
    need_ts()
    assert play_checked(program(TS, backend), seed, chooser).over


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=50)
@given(seed=st.integers(0, 2**63 - 1), chooser=st.randoms(use_true_random=False))
def test_many_random_games_of_twilight_struggle(backend, seed, chooser):
    need_ts()
    assert play_checked(program(TS, backend), seed, chooser).over
