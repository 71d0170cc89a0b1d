"""Terraforming Mars' balance bot `builder`: the choices that made the seats uneven.

With three or more `builder` bots the first seats used to lose far more than
1/N: in generation 1 they had bought no cards (the set-up's budget read 0 MC,
the corporation not yet on the table) and spent 8 and 14 MC funding awards
they did not lead, which the later seats then won. These tests pin down the
fixed choices on policy games, reading the spec's own definitions.
"""

from __future__ import annotations

import pytest

from rulespec.runtime.bots.agents import seat_agents
from rulespec.runtime.game import Game
from support import REPO, program, spec_value

TM = REPO / "spec" / "terraforming_mars"
SEEDS = (1, 2, 3)


@pytest.fixture(scope="module")
def engines():
    return program(TM, "generated"), program(TM, "interpreted")


def builder_games(generated, players: int):
    """Each decision of some builder games: (game before the choice, decision, chosen id)."""
    for seed in SEEDS:
        game = Game(generated, seed=seed, params={"players": players})
        bots = seat_agents(("policy",) * players, game.players, seed)
        while not game.over:
            decision = game.decision
            chosen = bots[decision.player].choose(game, decision)
            yield game, decision, chosen
            game.choose(chosen)


def test_builder_funds_only_an_award_it_leads_alone(engines):
    generated, interpreter = engines
    funded = 0
    for game, decision, chosen in builder_games(generated, 3):
        if decision.prompt != "Which award?":
            continue
        funded += 1
        me = game.players.index(decision.player)
        award = generated.meta.entity_ids.index(chosen)
        mine = spec_value(interpreter, game.state, "award_value(p, a)", p=("player", me), a=("award", award))
        for other in range(3):
            if other != me:
                theirs = spec_value(interpreter, game.state, "award_value(p, a)",
                                    p=("player", other), a=("award", award))
                assert theirs < mine, (decision.player, chosen, mine, theirs)
    assert funded > 0, "no award funded in these games: the test saw nothing"


def test_builder_buys_cards_in_the_set_up_with_its_corporations_money(engines):
    generated, _ = engines
    for seed in SEEDS:
        game = Game(generated, seed=seed, params={"players": 3})
        bots = seat_agents(("policy",) * 3, game.players, seed)
        while game.decision.prompt != "Your action":  # the set-up's choices
            game.choose(bots[game.decision.player].choose(game, game.decision))
        hands = {p: len(game.view(p)["zones"][f"hand({p})"]) for p in game.players}
        assert all(n > 0 for n in hands.values()), (seed, hands)


def test_two_seats_take_turns_as_the_rulebook_says(engines):
    """[02, 03]: seat 1 starts generation 1, the first-player token moves on each later
    generation, a player who passed takes no more actions in that generation, and the
    other acts alone until they pass (what the seat-edge traces rely on)."""
    generated, _ = engines
    firsts, passed_acting = {}, []
    for game, decision, chosen in builder_games(generated, 2):
        if decision.prompt != "Your action":
            continue
        tracks = game.tracks()
        generation = (game.seed, tracks["generation"])
        firsts.setdefault(generation, decision.player)
        if tracks["passed"][decision.player]:
            passed_acting.append((generation, decision.player))
    assert len(firsts) > 20, "too few generations seen"
    assert firsts == {(seed, gen): "p1" if gen % 2 else "p2" for seed, gen in firsts}
    assert passed_acting == []
