"""Twilight Struggle's balance bot (spec/twilight_struggle/policies.rules) at decisions whose
right answer a player of the game would name, on both back ends."""

from __future__ import annotations

import pytest

from runtime.agents import seat_agents
from runtime.game import Game
from support import BACKENDS, TS, need_ts, program

TOURNAMENT = ("tournament", "optional_cards")


def _policy_until(game: Game, prompt: str, seed: int) -> None:
    """Let the balance bot play every decision before the first one asking `prompt`."""
    bots = seat_agents(("policy", "policy"), game.meta.players, seed)
    while game.decision.prompt != prompt:
        game.choose(bots[game.decision.player].choose(game, game.decision))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_us_bid_goes_where_a_point_takes_a_battleground(backend):
    # After the standard setup the USA has 1 in Iran, the Philippines and
    # Panama (stability 2 each): one point takes each, Iran a battleground of
    # a region scored in the Early War. Israel (stability 4) would need 3 -
    # the catch-all rule for countries put both points there.
    need_ts()
    prompt = "Place 1 bid influence (only where you already have influence)"
    for seed in (1, 2, 3):
        game = Game(program(TS, backend, TOURNAMENT), seed=seed, params={"bid": 2})
        _policy_until(game, prompt, seed)
        bots = seat_agents(("policy", "policy"), game.meta.players, seed)
        picks = []
        while game.decision.prompt == prompt:
            picks.append(bots["usa"].choose(game, game.decision))
            game.choose(picks[-1])
        assert picks[0] == "iran" and picks[1] in ("philippines", "panama"), (seed, picks)
