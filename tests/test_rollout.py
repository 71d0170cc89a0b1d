"""The rollout bot (runtime/bots/rollout.py): the policy's best few options compared on shared deals.

On test_policies' small game: it finds a win the policy does not see, plays
the same game for the same seed and only legal options, decides on re-dealt
worlds (never the opponent's real hand), and switches from the policy's
choice only on a clearly positive paired gain.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.runtime.bots import rollout
from rulespec.runtime.bots.agents import make_agent, parse_agents
from rulespec.runtime.game import Game
from rulespec.runtime.bots.rollout import MARGIN, RolloutAgent, choose
from support import BACKENDS, program
from test_policies import PREFS


@pytest.fixture(scope="module")
def prefs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("prefs")
    (folder / "prefs.rules").write_text(PREFS, encoding="utf-8")
    return folder


def test_the_rollouts_find_the_winning_move_the_policy_ignores(prefs):
    for backend in BACKENDS:
        prog = program(prefs, backend)
        picks = [RolloutAgent(seed, "points", width=3).choose(game, game.decision)
                 for seed, game in ((s, Game(prog, seed=s)) for s in range(3))]
        assert picks == ["win_now"] * 3, backend  # no rule answers "Finish?": a three-way tie, all three tried


def _play(prog, seed: int, agent_seed: int) -> list[str]:
    game = Game(prog, seed=seed)
    game.choose("play_on")
    bots = {p: RolloutAgent(agent_seed + i, deals=3, depth=2) for i, p in enumerate(prog.meta.players)}
    while not game.over:
        pick = bots[game.decision.player].choose(game, game.decision)
        assert pick in game.decision.option_ids
        game.choose(pick)
    return game.choices


def test_the_same_seed_plays_the_same_game_and_only_legal_options(prefs):
    games = [_play(program(prefs, backend), 11, 4) for backend in BACKENDS]
    assert games[0] == games[1]  # the two back ends, move for move
    assert _play(program(prefs, "generated"), 11, 4) == games[0]


def test_the_search_plays_on_re_dealt_worlds_never_the_real_hand(prefs, monkeypatch):
    prog = program(prefs, "generated")
    game = Game(prog, seed=5)
    game.choose("play_on")
    meta, state = prog.meta, game.state
    me = state.pending["player"]
    hand = next(z for z in meta.zones if z.name == "hand").slot  # one slot per player, in order
    theirs, mine = hand + (1 - me), hand + me
    assert meta.zone_of_slot(theirs)[1] == 1 - me
    real_theirs, real_mine = sorted(state.zones[theirs]), sorted(state.zones[mine])
    seen, worlds = [], {}
    resume = prog.resume

    def spy(world, index):
        assert world is not state, "the search played on the real state"
        if id(world) not in worlds:  # the hands as the deal left them, before any move
            worlds[id(world)] = world  # kept alive, so no later world takes its id
            seen.append((sorted(world.zones[theirs]), sorted(world.zones[mine])))
        return resume(world, index)
    monkeypatch.setattr(prog, "resume", spy)
    RolloutAgent(1, "points", deals=4, depth=2).choose(game, game.decision)
    assert seen and all(hand == real_mine for _, hand in seen)  # its own hand it knows
    assert {tuple(hand) for hand, _ in seen} - {tuple(real_theirs)}, "the opponent's hand was read"
    assert sorted(state.zones[theirs]) == real_theirs  # the real game is untouched


def test_another_option_needs_a_clearly_positive_paired_gain():
    assert choose([[0.5, 0.5], [0.6, 0.4]], 1) == 0  # level on average
    assert choose([[0.5], [0.9]], 1) == 0  # one deal is not enough
    assert choose([[0.5, 0.5, 0.5], [0.5 + MARGIN / 2] * 3], 1) == 0  # within the margin
    assert choose([[0.5, 0.4, 0.6], [0.7, 0.6, 0.8]], 1) == 1  # +0.2 on every deal
    assert choose([[0.5, 0.4, 0.6], [0.7, 0.6, 0.8], [0.9, 0.8, 1.0]], 1) == 2  # the largest gain
    assert choose([[0.1, 0.1], [0.3, 0.3], [0.2, 0.2]], 2) == 1  # within the policy's tie: best mean


def test_a_rollout_budget_is_named_with_the_agent(prefs):
    meta = program(prefs, "generated").meta
    assert parse_agents("rollout:thrifty@3x2x2,rollout@5", meta.players, meta.bots,
                        meta.policies) == ("rollout:thrifty@3x2x2", "rollout@5")
    agent = make_agent("rollout:thrifty@3x2x2", 1)
    assert (agent.policy, agent.deals, agent.depth, agent.width) == ("thrifty", 3, 2, 2)
    plain = make_agent("rollout", 1)
    assert (plain.deals, plain.depth, plain.width) == (rollout.DEALS, rollout.DEPTH, rollout.WIDTH)
    assert make_agent("rollout@5", 1).deals == 5
    for bad in ("rollout@0", "rollout@3x", "rollout@1x2x3x4x5", "rollout:thrifty@big"):
        with pytest.raises(ValueError, match="search budget is @DEALSxDEPTHxWIDTH"):
            parse_agents(bad, meta.players, meta.bots, meta.policies)
    with pytest.raises(ValueError, match="unknown policy 'nope'"):
        parse_agents("rollout:nope", meta.players, meta.bots, meta.policies)
    with pytest.raises(ValueError, match="needs a `policy`"):
        parse_agents("rollout", meta.players, meta.bots, ())


def test_a_search_scores_its_leaves_with_the_evaluation_it_names(tmp_path, monkeypatch):
    (tmp_path / "prefs.rules").write_text(PREFS + 'bot trail "Trail" = score(opponent(you)) - score(you)\n',
                                         encoding="utf-8")
    prog = program(tmp_path, "generated")
    meta = prog.meta
    assert meta.bots == ("lead", "trail")
    asked = []
    evaluate = prog.evaluate
    monkeypatch.setattr(prog, "evaluate", lambda world, bot, me: asked.append(bot) or evaluate(world, bot, me))
    for name, scored in (("rollout:points:trail@3x2x3", "trail"), ("rollout::trail@3x2x3", "trail"),
                         ("rollout:points@3x2x3", "lead"), ("mcts:points:trail@6x2", "trail")):
        asked.clear()
        game = Game(prog, seed=2)
        game.choose("play_on")
        agent = make_agent(name, 1)
        assert agent.choose(game, game.decision) in game.decision.option_ids
        assert asked and set(asked) == {scored}, name
    assert make_agent("rollout::trail", 1).policy is None  # the spec's first policy
    assert parse_agents("rollout:points:trail@3,mcts::lead", meta.players, meta.bots,
                        meta.policies) == ("rollout:points:trail@3", "mcts::lead")
    for bad, words in (("rollout:points:nope", "unknown bot evaluation 'nope' (the spec declares: lead, trail)"),
                       ("mcts::nope@4x2", "unknown bot evaluation 'nope'"),
                       ("rollout:nope:trail", "unknown policy 'nope'"),
                       ("policy:points:trail", "unknown policy 'points:trail'")):
        with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
            parse_agents(bad, meta.players, meta.bots, meta.policies)
    with pytest.raises(ValueError, match="needs a `bot` evaluation"):
        parse_agents("rollout:points:trail", meta.players, (), meta.policies)


SOLO = """\
game alone "Alone"
players p1 "P1", p2 "P2" seats 1 in 1..2
track score "Score" per player 0..999 start 0
bot lead "Lead" = score(you)
start {
    repeat 60 {
        p1 chooses n in 1..2 "How many?"
        add (if n == 2 then 50 else 1) to score(p1)
    }
    if score(p1) >= 900 { win p1 "enough" }
    lose p1 "too few"
}
policy low "Low" {
    choosing n: int {
        avoid n
    }
}
"""


def test_alone_a_rollout_stops_after_its_stride_not_at_the_end(tmp_path):
    from rulespec.runtime.bots.mcts import SOLO_STRIDE, play_out, policy_pick, solo_stride
    from rulespec.runtime.state import Stream
    (tmp_path / "alone.rules").write_text(SOLO, encoding="utf-8")
    prog = program(tmp_path, "generated")
    game = Game(prog, seed=1)
    assert len(game.players) == 1 and solo_stride(game) == SOLO_STRIDE
    world = game.state.copy()
    play_out(prog, world, 2, lambda w: policy_pick(prog, w, "low", Stream(1)), solo_stride(game))
    assert world.result is None
    assert world.tracks[0] == 2 * SOLO_STRIDE  # two strides on: the policy took 1 a decision
    # Without the stride the same rollout runs to the end: always lost, no option told apart.
    world = game.state.copy()
    play_out(prog, world, 2, lambda w: policy_pick(prog, w, "low", Stream(1)))
    assert world.result is not None
    # So alone the rollout bot finds that taking 2 pays, which the policy never does.
    agent = RolloutAgent(3, "low", deals=2, depth=2, width=2)
    assert agent.choose(game, game.decision) == "2"
