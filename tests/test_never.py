"""`never` lines: options a policy marks for no search to consider (runtime/bots/mcts.py `considered`).

A small game whose first decision offers an immediate win: a search finds it
when the policy merely `avoid`s it, and leaves it alone when the policy says
`never`; when a `never` line marks every option the search weighs them all.
Both back ends mark the same options (here and at every decision of policy
games of the game above), `rulespec fmt` keeps the lines, and the policy bot
reads a `never` line as an `avoid` line at its place.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.compiler.frontend.fmt import format_text
from rulespec.runtime.game import Game
from rulespec.runtime.bots.mcts import MctsAgent, considered, policy_tiers
from rulespec.runtime.policy import PolicyAgent
from rulespec.runtime.bots.rollout import RolloutAgent
from rulespec.runtime.bots.agents import seat_agents
from rulespec.runtime.state import Stream
from support import BACKENDS, program

NEVER = """\
game nevers "Nevers"
players north "North", south "South"
track score "Score" per player 0..99 start 0
bot lead "Lead" = score(you) - score(opponent(you))
start {
    north chooses "Finish?" {
        option play_on "Play on" { add 3 to score(south) }
        option claim "Claim the game" { win north "north claimed it" }
    }
    repeat 2 {
        for p in players {
            p chooses n in 1..4 "Take how many?"
            add n to score(p)
        }
    }
    if score(north) > score(south) { win north "more points" }
    if score(south) > score(north) { win south "more points" }
    win none "a tie"
}
policy careful "Never claims" {
    choosing "Finish?" {
        never claim when score(you) == 0
        prefer play_on
    }
    choosing n: int {
        never n == 4 or (n == 3 and score(you) > 2)
        prefer n
    }
}
policy loose "Only avoids" {
    choosing "Finish?" { avoid claim }
    choosing n: int { avoid n == 4  prefer n }
}
policy stuck "Marks every option" {
    choosing "Finish?" { never claim, play_on }
}
"""


@pytest.fixture(scope="module")
def nevers(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("nevers")
    (folder / "nevers.rules").write_text(NEVER, encoding="utf-8")
    return folder


def _ids(game: Game, indices: list[int]) -> list[str]:
    return [game.decision.option_ids[i] for i in indices]


@pytest.mark.parametrize("backend", BACKENDS)
def test_never_lines_mark_the_options_where_they_hold(nevers, backend):
    prog = program(nevers, backend)
    game = Game(prog, seed=1)
    assert _ids(game, prog.forbidden(game.state, "careful")) == ["claim"]
    assert prog.forbidden(game.state, "loose") == []  # an avoid line marks nothing
    assert _ids(game, prog.forbidden(game.state, "stuck")) == ["play_on", "claim"]
    game.choose("play_on")
    assert _ids(game, prog.forbidden(game.state, "careful")) == ["4"]  # score 0: 3 stays
    game.choose("3")
    game.choose("1")
    assert _ids(game, prog.forbidden(game.state, "careful")) == ["3", "4"]  # north has 3 points


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_policy_bot_reads_never_as_avoid(nevers, backend):
    prog = program(nevers, backend)
    game = Game(prog, seed=2)
    assert PolicyAgent(1, "careful").choose(game, game.decision) == "play_on"
    game.choose("play_on")
    assert _ids(game, prog.prefer(game.state, "careful")) == ["3"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_search_takes_the_win_a_policy_avoids_but_not_one_it_never_plays(nevers, backend):
    prog = program(nevers, backend)
    for seed in range(3):
        game = Game(prog, seed=seed)
        assert MctsAgent(seed, "loose", playouts=16).choose(game, game.decision) == "claim"
        assert RolloutAgent(seed, "loose").choose(game, game.decision) == "claim"
        assert MctsAgent(seed, "careful", playouts=16).choose(game, game.decision) == "play_on"
        assert RolloutAgent(seed, "careful").choose(game, game.decision) == "play_on"


@pytest.mark.parametrize("backend", BACKENDS)
def test_when_every_option_is_marked_the_search_weighs_them_all(nevers, backend):
    prog = program(nevers, backend)
    game = Game(prog, seed=4)
    assert considered(prog, "stuck", game.state) == [0, 1]
    assert MctsAgent(4, "stuck", playouts=16).choose(game, game.decision) == "claim"
    game.choose("play_on")
    order, _ = policy_tiers(prog, "careful", game.state, Stream(3), 4)
    assert sorted(_ids(game, order)) == ["1", "2", "3"]  # 4 is no candidate at any width


def test_both_back_ends_mark_alike_at_every_decision(nevers):
    interpreted, generated = (program(nevers, b) for b in BACKENDS)
    checked = 0
    for seed in range(30):
        game = Game(generated, seed=seed)
        bots = seat_agents(("random", "random"), generated.meta.players, seed)
        while not game.over:
            for policy in generated.meta.policies:
                assert generated.forbidden(game.state, policy) == interpreted.forbidden(game.state, policy)
                checked += 1
            game.choose(bots[game.decision.player].choose(game, game.decision))
    assert checked > 300


def test_fmt_keeps_never_lines():
    text = format_text(NEVER, "nevers.rules")
    assert "        never claim when score(you) == 0\n" in text
    assert "        never claim, play_on\n" in text
    assert "never n == 4 or (n == 3 and score(you) > 2)" in text
    assert format_text(text, "nevers.rules") == text
