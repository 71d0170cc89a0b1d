"""`balance bot "AGENT"`: the bot simulate plays without --agents, a search bot too.

A small game declares a rollout on its policy as its balance bot: the meta of
both back ends carries it, simulate's JSON names it as the agents played, a
variant replaces it, fmt keeps it; without one the first policy stays the
default.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.frontend.fmt import format_text
from rulespec.runtime.bots.agents import default_agent
from support import BACKENDS, program

GAME = """\
game g "G"
players red "Red", blue "Blue"
track score "Score" per player 0..20 start 0
start {
    for p in players {
        p chooses n in 1..3 "How many?"
        add n to score(p)
    }
    if score(red) > score(blue) { win red "more" }
    if score(blue) > score(red) { win blue "more" }
    win none "a tie"
}
bot lead "Lead" = score(you) - score(opponent(you))
policy small "Small" {
    choosing n: int {
        avoid n
    }
}
balance bot "rollout:small@2x1x2"
"""
VARIANT = """\
variant plain "The policy plays"
replace balance bot "policy"
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("balance_bot")
    (folder / "g.rules").write_text(GAME, encoding="utf-8")
    (folder / "variants").mkdir()
    (folder / "variants" / "plain.rules").write_text(VARIANT, encoding="utf-8")
    return folder


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_declared_bot_is_the_default(game, backend):
    assert default_agent(program(game, backend).meta) == "rollout:small@2x1x2"
    assert default_agent(program(game, backend, ("plain",)).meta) == "policy"


def test_simulate_plays_it_without_agents(game):
    result = CliRunner().invoke(main, ["simulate", str(game), "--games", "4", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert "rollout:small@2x1x2" in json.dumps(report.get("agents", report))


def test_without_one_the_first_policy_stays_the_default(game, tmp_path):
    (tmp_path / "g.rules").write_text(GAME.replace('balance bot "rollout:small@2x1x2"\n', ""))
    assert default_agent(program(tmp_path, "generated").meta) == "policy"


def test_fmt_keeps_it():
    assert format_text(GAME) == GAME
    assert format_text(GAME.replace('balance bot "', 'balance   bot  "')) == GAME
