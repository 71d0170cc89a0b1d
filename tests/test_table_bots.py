"""Any bot a spec offers sits at a table beside a person (`play --agents human,BOT`, `serve
--seats human,BOT`), and a table a person sits at is dealt from a fresh seed unless told."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.compiler.tools import playtest
from rulespec.compiler.cli import main
from rulespec.runtime.playtest.table import Table
from support import MINI, REPO, TS, program

# one of each bot the Twilight Struggle spec offers, with small search budgets
TS_BOTS = ("policy", "mcts@2x1", "rollout@1x1x2", "greedy", "random")


@pytest.mark.parametrize("bot", TS_BOTS)
def test_every_bot_the_spec_offers_takes_a_seat_beside_a_person(bot):
    meta = program(TS, "generated").meta
    for flag in ("--agents", "--seats"):
        assert playtest.seats_of(f"human,{bot}", meta, flag) == ("human", bot)
        assert playtest.seats_of(f"{bot},human", meta, flag) == (bot, "human")
    table = Table.new(program(TS, "generated"), (bot, "human"), seed=3, spec_roots=(REPO,))
    assert table.run_bots() > 0  # the USSR's bot places its set-up influence
    assert table.pending_player == "usa" and table.error is None


def test_a_bot_the_spec_cannot_feed_is_one_line():
    meta = program(MINI, "generated").meta
    for bot, needs in (("policy", "`policy`"), ("mcts", "`policy`"), ("greedy", "`bot` evaluation")):
        with pytest.raises(playtest.PlaytestError, match=f"agent '{bot}' needs a {needs} in the spec"):
            playtest.seats_of(f"human,{bot}", meta, "--seats")


def test_play_with_a_person_and_the_policy_bot_prints_a_fresh_seed(monkeypatch):
    monkeypatch.setattr(playtest.secrets, "randbelow", lambda n: 41)
    out = CliRunner().invoke(main, ["play", "twilight_struggle", "--agents", "human,policy"], input="")
    assert out.exit_code == 0, out.output
    assert "Seed 42 (--seed 42 deals this table again)" in out.output
    assert "Left the table" in out.output and "needs a" not in out.output
    out = CliRunner().invoke(main, ["play", "twilight_struggle", "--agents", "human,policy", "--seed", "7"],
                             input="")
    assert out.exit_code == 0 and "Seed 7 (" in out.output


def test_a_table_seed_is_the_given_one_or_a_fresh_one(monkeypatch):
    assert playtest.table_seed(7) == 7 and playtest.table_seed(0) == 0
    drawn = iter((5, 99))
    monkeypatch.setattr(playtest.secrets, "randbelow", lambda n: next(drawn))
    assert (playtest.table_seed(None), playtest.table_seed(None)) == (6, 100)


def test_bots_alone_keep_the_first_seed_by_default():
    out = CliRunner().invoke(main, ["play", str(MINI), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["seed"] == 1
