"""Terraforming Mars' balance bot under its variants: the draft's pick and the solo race,
as the policy `builder` makes them on both back ends (spec/terraforming_mars/variants), the
solo game's default bot, and a solo game's loss."""

from __future__ import annotations

import re

import pytest

from rulespec.runtime.bots.agents import default_agent, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.analysis.simulate import play_game, summarise
from support import BACKENDS, REPO, loaded, program

TM = REPO / "spec" / "terraforming_mars"


def first_decision(backend: str, variants: tuple[str, ...], prompt: str, seed: int, wanted=None) -> Game:
    """Play `builder` bots until a decision whose prompt matches the pattern `prompt` (and
    offering `wanted`, if given)."""
    game = Game(program(TM, backend, variants), seed=seed)
    bots = seat_agents(("policy",) * len(game.players), game.players, seed)
    while not game.over:
        d = game.decision
        if re.fullmatch(prompt, d.prompt) and (wanted is None or wanted in d.option_ids):
            return game
        game.choose(bots[d.player].choose(game, d))
    pytest.fail(f"no decision '{prompt}' in the game")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_draft_pick_keeps_the_card_the_policy_would_play_first(backend: str) -> None:
    model = loaded(TM, ("draft",)).model
    game = first_decision(backend, ("draft",), re.escape("Draft: keep one card, pass the others"), 3)
    ids = game.decision.option_ids
    value = {i: (model.entity_attrs[model.entity_index[i]]["vp"],
                 model.entity_attrs[model.entity_index[i]]["cost"]) for i in ids}
    best = {ids[k] for k in game.program.prefer(game.state, "builder")}
    assert len(set(value.values())) > 1, "a deal where the cards differ"
    assert best == {i for i in ids if value[i] == max(value.values())}


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_solo_bot_steps_oceans_first_and_keeps_cards_whose_box_pays_well(backend: str) -> None:
    game = first_decision(backend, ("solo",), "Standard project", 1, "aquifer")
    ids = game.decision.option_ids
    assert [ids[k] for k in game.program.prefer(game.state, "builder")] == ["aquifer"]
    game = first_decision(backend, ("solo",), KEEP, 1)
    bots = seat_agents(("policy",), game.players, 1)
    model, seen = loaded(TM, ("solo",)).model, set()
    while re.fullmatch(KEEP, game.decision.prompt):  # the set-up's 10 cards
        top = game.state.zones[research_slot(game)][-1]
        assert game.decision.prompt == f"Keep {model.entities[top].label} for 3 MC?"  # it names the card
        card = model.entity_attrs[top]
        box = sum(w * n for w, n in zip(WEIGHTS.values(), card["box"])) + (4 if card["box_by"] == "mined" else 0)
        worth = 13 * box // 4  # 14 generations to go in the first
        ids = game.decision.option_ids
        wanted = "keep" if "keep" in ids and worth > card["cost"] + 12 else "drop"
        assert [ids[k] for k in game.program.prefer(game.state, "builder")] == [wanted]
        seen.add(wanted)
        game.choose(bots[game.decision.player].choose(game, game.decision))
    assert seen == {"keep", "drop"}, "a deal with a card worth keeping and one not"


KEEP = r"Keep .+ for 3 MC\?"  # the research prompt, naming the card
# Quarter MC a step and generation in the set-up, where the heat and plants to come
# (none) finish neither the temperature nor the oxygen; in the order of enum resource
# (a card's box is a tuple in it).
WEIGHTS = {"mc": 4, "steel": 4, "titanium": 8, "plants": 11, "energy": 7, "heat": 7}


def research_slot(game: Game) -> int:
    return next(s for s in range(len(game.state.zones)) if game.meta.zone_slot_name(s) == "research(p1)")


def test_the_base_game_bot_is_builder_core_unchanged() -> None:
    base = first_decision("generated", (), KEEP, 1)
    assert game_choices(base, "builder") == game_choices(base, "builder_core")


def game_choices(game: Game, policy: str) -> list[int]:
    return game.program.prefer(game.state, policy)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_solo_default_bot_is_the_rollout_on_the_solo_policy(backend: str) -> None:
    assert default_agent(program(TM, backend, ("solo",)).meta) == "rollout"
    assert default_agent(program(TM, backend).meta) == "policy"  # two players: `builder`


def test_a_solo_game_not_done_in_time_is_a_loss_and_done_a_win() -> None:
    prog = program(TM, "generated", ("solo",))
    games = [play_game(prog, seed, ("policy",), {}) for seed in range(1, 21)]
    lost = [g for g in games if g.losers]
    won = [g for g in games if g.winner is not None]
    assert lost and won, "the solo policy wins some of 20 games and loses some"
    assert len(lost) + len(won) == len(games)
    assert all(g.winner is None and g.losers == ("p1",) for g in lost)
    assert {g.reason for g in lost} == {"Mars not terraformed in time [12]"}
    assert {g.reason for g in won} == {"Mars terraformed within the generations [12]"}
    out = summarise(["p1"], ("solo",), games)
    assert out["draws"] == 0 and out["loss_rate"]["p1"] == len(lost) / 20
    assert out["win_rate"]["p1"] == len(won) / 20
