"""Policies: what a spec's `policy` prefers, alike on both back ends; the policy and MCTS bots.

A small game with every kind of rule (a `chooses` over cards, numbers and
players, a menu, `extends`) pins down the semantics: tiers in order, `avoid`
for the lowest, ties left to the bot's stream, a card var the player cannot
see read as none. Twilight Struggle's policy agrees on both back ends at every
decision of games played by policy bots in lockstep.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.runtime.bots.agents import make_agent, parse_agents, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.bots.mcts import MARGIN, MctsAgent, Node, _Search, policy_tiers
from rulespec.runtime.policy import PolicyAgent, masked
from rulespec.runtime.state import Stream
from support import BACKENDS, TS, need_ts, program

PREFS = """\
game prefs "Prefs"
players north "North", south "South"
track score "Score" per player 0..99 start 0
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone table "Table" public
enum color { red, blue }
kind card: card(points: int, color: color)
card c1 "C1" (points 1, color red)
card c2 "C2" (points 2, color blue)
card c3 "C3" (points 3, color red)
card c4 "C4" (points 4, color blue)
card c5 "C5" (points 5, color red)
card c6 "C6" (points 6, color blue)
card c7 "C7" (points 7, color red)
var held: card? = none
action play(p: player, c: card) "Play"
bot lead "Lead" = score(you) - score(opponent(you))
start {
    move all c in card to deck
    shuffle deck
    for p in players { repeat 3 { move top(deck) to hand(p) } }
    set held to top(deck)
    north chooses "Finish?" {
        option play_on "Play on" { }
        option lose_now "Give up" { win south "north gave up" }
        option win_now "Claim the game" { win north "north claimed it" }
    }
    repeat 3 {
        for p in players {
            p chooses c in hand(p) as play(p, c) "Play which card?"
            move c to table
            add c.points to score(p)
            p chooses "Bonus?" {
                option double "Double" when score(p) < 10 { add c.points to score(p) }
                option safe "Safe" { add 1 to score(p) }
                option skip "Skip" { }
            }
            p chooses n in 0..3 "How many more?"
            add n to score(p)
            p chooses q in players "Who scores?"
            add 1 to score(q)
        }
    }
    if score(north) > score(south) { win north "more points" }
    if score(south) > score(north) { win south "more points" }
    win none "a tie"
}
policy points "Points" {
    choosing c: card as play {
        avoid c.color == blue and score(you) > 5
        prefer c.points
    }
    choosing "Bonus?" {
        prefer double when held == none
        avoid skip
    }
    choosing n: int {
        prefer n % 2 == 0
        prefer n
    }
    choosing q: player { prefer q == you }
}
policy thrifty "Thrifty" extends points {
    choosing c: card { avoid c.points }
}
policy shared "Shared" {
    choosing "Finish?", "Bonus?" { prefer play_on, safe }
}
"""


@pytest.fixture(scope="module")
def prefs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("prefs")
    (folder / "prefs.rules").write_text(PREFS, encoding="utf-8")
    return folder


def _programs(folder: Path):
    return [program(folder, backend) for backend in BACKENDS]


def _play_to(game: Game, prompt: str, bot) -> None:
    while game.decision.prompt != prompt:
        game.choose(bot.choose(game, game.decision))


def _labels(game: Game, best: list[int]) -> list[str]:
    return [game.decision.option_ids[i] for i in best]


@pytest.mark.parametrize("backend", BACKENDS)
def test_tiers_in_order_avoid_lowest_and_extends(prefs, backend):
    prog = program(prefs, backend)
    game = Game(prog, seed=3)
    game.choose("play_on")
    slot = next(z.slot for z in prog.meta.zones if z.name == "hand")  # hand(north)
    hand = [prog.meta.entity_ids[c] for c in game.state.zones[slot]]
    best = _labels(game, prog.prefer(game.state, "points"))
    assert best == [max(hand, key=lambda c: int(c[1:]))]  # score 0: the most points, any colour
    assert _labels(game, prog.prefer(game.state, "thrifty")) == [min(hand, key=lambda c: int(c[1:]))]
    first = PolicyAgent(1, "points")
    _play_to(game, "How many more?", first)
    assert _labels(game, prog.prefer(game.state, "points")) == ["2"]  # even first, then the most
    game.choose("0")
    assert _labels(game, prog.prefer(game.state, "thrifty")) == ["north"]  # inherited from points


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_rule_naming_two_prompts_answers_both_menus(prefs, backend):
    prog = program(prefs, backend)
    game = Game(prog, seed=3)
    assert _labels(game, prog.prefer(game.state, "shared")) == ["play_on"]  # "Finish?"
    game.choose("play_on")
    _play_to(game, "Bonus?", PolicyAgent(1, "points"))
    assert _labels(game, prog.prefer(game.state, "shared")) == ["safe"]  # "Bonus?"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_card_var_the_player_cannot_see_reads_as_none(prefs, backend):
    prog = program(prefs, backend)
    game = Game(prog, seed=5)
    game.choose("play_on")
    bot = PolicyAgent(2, "points")
    _play_to(game, "Bonus?", bot)
    assert game.state.vars[0] is not None  # `held` is the deck's top card: north cannot see it
    seat = game.state.pending["player"]
    assert _labels(game, prog.prefer(game.state, "points")) == ["double", "safe"]
    assert _labels(game, prog.prefer(masked(prog.meta, game.state, seat), "points")) == ["double"]
    assert bot.choose(game, game.decision) == "double"


def test_both_back_ends_prefer_alike_at_every_decision(prefs):
    interpreted, generated = _programs(prefs)
    checked = 0
    for seed in range(40):
        game = Game(generated, seed=seed)
        game.choose("play_on")
        bots = seat_agents(("random", "policy:thrifty"), generated.meta.players, seed)
        while not game.over:
            for policy in generated.meta.policies:
                assert generated.prefer(game.state, policy) == interpreted.prefer(game.state, policy), seed
                checked += 1
            game.choose(bots[game.decision.player].choose(game, game.decision))
    assert checked > 1000


def test_policy_games_agree_move_for_move_on_both_back_ends(prefs):
    for seed in range(20):
        games = [Game(p, seed=seed) for p in _programs(prefs)]
        bots = [seat_agents(("policy", "policy:thrifty"), g.meta.players, seed) for g in games]
        while not games[0].over:
            picks = [b[g.decision.player].choose(g, g.decision) for g, b in zip(games, bots)]
            assert picks[0] == picks[1], seed
            for g in games:
                g.choose(picks[0])
        assert games[0].choices == games[1].choices and games[0].winner == games[1].winner


def test_ties_are_broken_by_the_bots_own_stream(prefs):
    prog = program(prefs, "generated")
    game = Game(prog, seed=2)  # no rule answers "Finish?": all three options tie
    assert prog.prefer(game.state, "points") == [0, 1, 2]
    picks = [PolicyAgent(seed, "points").choose(game, game.decision) for seed in range(12)]
    assert len(set(picks)) > 1
    assert picks == [PolicyAgent(seed, "points").choose(game, game.decision) for seed in range(12)]


def test_mcts_finds_the_winning_move_the_policy_ignores(prefs):
    for backend in BACKENDS:
        prog = program(prefs, backend)
        picks = [MctsAgent(seed, "points", playouts=16).choose(game, game.decision)
                 for seed, game in ((s, Game(prog, seed=s)) for s in range(3))]
        assert picks == ["win_now"] * 3, backend


def test_mcts_is_deterministic_and_plays_legal_moves(prefs):
    prog = program(prefs, "generated")
    runs = []
    for _ in range(2):
        game = Game(prog, seed=11)
        game.choose("play_on")
        bots = {p: MctsAgent(4, playouts=6) for p in prog.meta.players}
        while not game.over:
            game.choose(bots[game.decision.player].choose(game, game.decision))
        runs.append(game.choices)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_search_tries_options_in_the_policys_order(prefs, backend):
    prog = program(prefs, backend)
    game = Game(prog, seed=3)
    game.choose("play_on")
    hand = list(game.decision.option_ids)
    order = policy_tiers(prog, "points", game.state.copy(), Stream(1), len(hand))[0]
    assert [hand[i] for i in order] == sorted(hand, key=lambda c: -int(c[1:]))  # most points first
    assert policy_tiers(prog, "points", game.state.copy(), Stream(1), 2)[0] == order[:2]
    assert game.state.pending["ids"] == hand  # the ranking leaves the decision as it was


def test_a_rollout_stops_once_the_player_to_move_changed_depth_times(prefs):
    prog = program(prefs, "generated")
    game = Game(prog, seed=3)
    game.choose("play_on")  # north to play a card, then its bonus, count and scorer
    for depth, mover in ((1, "south"), (2, "north")):
        search = _Search(game, "points", depth, Stream(1))
        world = game.state.copy()
        search.rollout(world)
        assert (prog.meta.players[world.pending["player"]], world.pending["prompt"]) == (
            mover, "Play which card?")


def test_the_search_keeps_the_policys_choice_unless_another_scores_clearly_better(prefs):
    prog = program(prefs, "generated")
    game = Game(prog, seed=3)
    game.choose("play_on")
    search = _Search(game, "points", 1, Stream(1))
    ids = game.decision.option_ids
    search.first = ids[0]

    def stats(option, visits, mean):
        node = search.root.children[option] = Node(search.me)
        node.visits, node.reward = visits, visits * mean
    stats(ids[0], 4, 0.5)
    stats(ids[1], 4, 0.5 + MARGIN / 2)  # better, but within the margin
    stats(ids[2], 3, 0.9)  # far better, but fewer visits than the policy's choice
    assert search.best() == ids[0]
    stats(ids[1], 5, 0.5 + 2 * MARGIN)
    assert search.best() == ids[1]


def test_agent_names_are_checked_against_the_spec(prefs):
    meta = program(prefs, "generated").meta
    assert parse_agents("policy,mcts:thrifty", meta.players, meta.bots, meta.policies) == (
        "policy", "mcts:thrifty")
    with pytest.raises(ValueError, match="unknown policy 'nope'.*points, thrifty"):
        parse_agents("policy:nope", meta.players, meta.bots, meta.policies)
    with pytest.raises(ValueError, match="needs a `policy`"):
        parse_agents("policy", meta.players, meta.bots, ())
    assert isinstance(make_agent("policy:thrifty", 1), PolicyAgent)


def test_an_mcts_budget_is_named_with_the_agent(prefs):
    meta = program(prefs, "generated").meta
    assert parse_agents("mcts:thrifty@3x2,mcts@5", meta.players, meta.bots, meta.policies) == (
        "mcts:thrifty@3x2", "mcts@5")
    agent = make_agent("mcts:thrifty@3x2", 1)
    assert (agent.policy, agent.playouts, agent.depth) == ("thrifty", 3, 2)
    assert (make_agent("mcts@5", 1).playouts, make_agent("mcts", 1).playouts) == (5, MctsAgent(1).playouts)
    for bad in ("mcts@0x2", "mcts@3x", "mcts@x4", "mcts:thrifty@big"):
        with pytest.raises(ValueError, match="search budget is @PLAYOUTSxDEPTH"):
            parse_agents(bad, meta.players, meta.bots, meta.policies)
    with pytest.raises(ValueError, match="unknown policy 'nope'"):
        parse_agents("mcts:nope@2x2", meta.players, meta.bots, meta.policies)


def test_twilight_struggle_policy_agrees_on_both_back_ends():
    need_ts()
    interpreted, generated = program(TS, "interpreted"), program(TS, "generated")
    assert generated.meta.policies
    for seed in (1, 2):
        games = [Game(p, seed=seed) for p in (interpreted, generated)]
        bots = [seat_agents(("policy", "policy"), g.meta.players, seed) for g in games]
        while not games[0].over and games[0].decisions < 250:
            state = games[1].state
            for policy in generated.meta.policies:
                assert interpreted.prefer(state, policy) == generated.prefer(state, policy), seed
            picks = [b[g.decision.player].choose(g, g.decision) for g, b in zip(games, bots)]
            assert picks[0] == picks[1], (seed, games[0].decisions)
            for g in games:
                g.choose(picks[0])
            assert games[0].state.public_part() == games[1].state.public_part()


def test_simulate_plays_the_balance_bot_unless_told_otherwise(prefs):
    import json

    from click.testing import CliRunner

    from rulespec.compiler.cli import main
    from support import MINI
    for folder, wanted in ((prefs, ["policy", "policy"]), (MINI, ["random", "random"])):
        result = CliRunner().invoke(main, ["simulate", str(folder), "--games", "4", "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["agents"] == wanted
