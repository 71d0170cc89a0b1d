"""Search horizons counted in whole turns (`mcts@8x2t`, `rollout@4x2tx2`) and the rollout's
threshold (`rollout@4x3x2x3`): runtime/bots/mcts.py's TurnClock, play_out and parse_budget.

A turn is the decisions a seat makes one after another; a single decision of another seat
inside a turn of two or more (a defender's dice) does not end it.
"""

from __future__ import annotations

import pytest

from rulespec.runtime.bots.agents import make_agent, parse_agents
from rulespec.runtime.game import Game
from rulespec.runtime.bots.mcts import TurnClock, TurnWatch, play_out, policy_pick
from rulespec.runtime.bots.rollout import choose
from rulespec.runtime.state import Stream
from support import BACKENDS, program

# One round: A places twice, attacks (B defends once: an interruption), moves; then B's turn,
# the same with A defending once. Each decision adds 1 to the mover's `moves`.
TURNS = """\
game turns "Turns"
players a "A", b "B"
track moves "Moves" per player 0..999 start 0
bot lead "Lead" = moves(you)
procedure turn(p: player, q: player) {
    p chooses n1 in 1..2 "Place?"
    add 1 to moves(p)
    p chooses n2 in 1..2 "Attack?"
    add 1 to moves(p)
    q chooses n3 in 1..2 "Defend?"
    add 1 to moves(q)
    p chooses n4 in 1..2 "Move?"
    add 1 to moves(p)
}
start {
    repeat 6 {
        turn(a, b)
        turn(b, a)
    }
    win a "done"
}
policy low "Low" {
    choosing n: int {
        avoid n
    }
}
"""


@pytest.fixture(scope="module")
def turns(tmp_path_factory):
    folder = tmp_path_factory.mktemp("turns")
    (folder / "turns.rules").write_text(TURNS, encoding="utf-8")
    return folder


def feed(clock: TurnClock, movers: str) -> list[tuple[int, int]]:
    return [clock.step("ab".index(m)) for m in movers]


def test_a_defenders_single_decision_does_not_end_a_turn():
    # A's turn (already 2 decisions), B defends once, A goes on, then B's turn begins.
    assert feed(TurnClock(0, 2), "abaabb") == [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (1, 0)]
    # the last result: the 'b' before it began B's turn (told one decision late)
    # Strict alternation, one decision a turn: every change of the mover is a new turn.
    assert feed(TurnClock(0, 1), "baba") == [(0, 1)] * 4
    # After a long turn, another seat's one decision followed by a third seat: both begin turns.
    clock = TurnClock(0, 3)
    assert [clock.step(m) for m in (1, 2)] == [(0, 0), (1, 1)]


def test_the_turn_horizon_stops_where_the_next_turn_begins(turns):
    for backend in BACKENDS:
        prog = program(turns, backend)
        game = Game(prog, seed=1)
        pick = lambda w: policy_pick(prog, w, "low", Stream(1))  # noqa: E731
        # Changes of the mover: B's single defence already counts, after A's 2 decisions.
        world = play_out(prog, game.state.copy(), 1, pick)
        assert world.tracks[:2] == [2, 0], backend
        # One turn: A's whole turn (3 decisions, B's defence inside it), stopped before B's first.
        world = play_out(prog, game.state.copy(), 1, pick, clock=TurnClock(0, 0))
        assert world.tracks[:2] == [3, 1] and world.pending["player"] == 1, backend
        assert world.pending["prompt"].startswith("Place"), backend
        # Two turns: A's and B's, stopped before A places again.
        world = play_out(prog, game.state.copy(), 2, pick, clock=TurnClock(0, 0))
        assert world.tracks[:2] == [4, 4] and world.pending["player"] == 0, backend
        assert world.pending["prompt"].startswith("Place"), backend


def test_a_bot_counts_its_own_turn_from_the_decisions_it_made():
    class Seen:
        decisions = 0
    watch, seen, runs = TurnWatch(), Seen(), []
    for at in (0, 1, 3, 6, 7, 9):  # A A (b) A ... (b b) A A (b) A
        seen.decisions = at
        runs.append(watch.observe(seen))
    assert runs == [1, 2, 3, 1, 2, 3]


def test_a_depth_in_turns_is_named_with_the_agent(turns):
    meta = program(turns, "generated").meta
    names = ("rollout@4x2tx2", "mcts@8x2t")
    assert parse_agents(",".join(names), meta.players, meta.bots, meta.policies) == names
    roll, tree = make_agent("rollout:low@4x2tx2x3", 1), make_agent("mcts@8x2t", 1)
    assert (roll.policy, roll.deals, roll.depth, roll.width, roll.z, roll.turns) == ("low", 4, 2, 2, 3.0, True)
    assert (tree.playouts, tree.depth, tree.turns) == (8, 2, True)
    plain = make_agent("rollout@4x3x2", 1)
    assert (plain.depth, plain.turns, plain.z) == (3, False, 1.5)
    assert make_agent("rollout@4x3x2x0.5", 1).z == 0.5
    assert not make_agent("mcts@8x2", 1).turns
    for bad in ("rollout@4x2x3t", "rollout@4tx2", "rollout@4x0t", "rollout@4x3x2x11",
                "rollout@4x3x2x1.555", "rollout@4x3x2x-1", "rollout@1x2x3x4x5", "mcts@8x2tt",
                "mcts@8x2x1", "rollout@4x2T"):
        with pytest.raises(ValueError) as error:
            parse_agents(bad, meta.players, meta.bots, meta.policies)
        message = str(error.value)
        assert "\n" not in message and message.startswith(f"'{bad}': the search budget is @")
        assert "a t after DEPTH counts it in whole turns" in message


def test_the_threshold_decides_when_a_gain_overrules_the_policy():
    rewards = [[0.5, 0.5, 0.5], [0.6, 0.7, 0.8]]  # +0.2 a deal on average, standard error 0.058
    assert choose(rewards, 1) == 1  # 0.2 - 1.5 * 0.058 clears the margin
    assert choose(rewards, 1, 4.0) == 0  # 0.2 - 4 * 0.058 does not
    assert choose(rewards, 1, 0.0) == 1


def test_the_threshold_changes_the_bots_play(tmp_path):
    """Alone, taking 2 pays and the policy takes 1 (test_rollout's SOLO): the paired gain of 2
    clears 1.5 standard errors, the default, but not 10."""
    from test_rollout import SOLO
    (tmp_path / "alone.rules").write_text(SOLO, encoding="utf-8")
    prog = program(tmp_path, "generated")
    game = Game(prog, seed=1)
    picks = {name: make_agent(name, 3).choose(game, game.decision)
             for name in ("rollout:low@3x2x2", "rollout:low@3x2x2x10")}
    assert picks == {"rollout:low@3x2x2": "2", "rollout:low@3x2x2x10": "1"}


def test_searches_in_turns_play_whole_games_the_same_on_both_back_ends(turns):
    games = []
    for backend in BACKENDS:
        game = Game(program(turns, backend), seed=4)
        bots = [make_agent("rollout@2x1tx2x0", 1), make_agent("mcts@4x1t", 2)]
        while not game.over:
            pick = bots[game.state.pending["player"]].choose(game, game.decision)
            assert pick in game.decision.option_ids
            game.choose(pick)
        games.append(game.choices)
    assert games[0] == games[1]
