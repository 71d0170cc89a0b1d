"""A record's agents are checked as `--agents` is (issue 44, item 2): an unknown policy or
evaluation, a tunable out of its range or too many names end as one line and exit 1 at
`replay`, `play --resume` and `serve --resume` before any game is played, and the web table
refuses such a record with one line; a record with good agents still resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from rulespec.compiler.cli import main
from rulespec.compiler.tools import playtest
from rulespec.runtime import record as records
from rulespec.runtime.bots.agents import check_recorded
from rulespec.runtime.playtest.table import Table
from rulespec.runtime.playtest.web.server import TableServer, create_app
from support import REPO, program
from test_web import BASE, _refused

FOX = REPO / "spec" / "the_fox_in_the_forest"
BAD_AGENTS = {  # what a record names -> words of the refusal
    "policy:nope": "unknown policy 'nope'",
    "rollout:sensible:nope@2": "unknown bot evaluation 'nope'",
    "mcts:nope": "unknown policy 'nope'",
    "mcts:sensible:nope@2x2": "unknown bot evaluation 'nope'",
    "greedy:nope": "unknown bot evaluation 'nope'",
    "policy(reach=99)": "tunable 'reach' of policy 'sensible' takes 3..13, not 99",
    "policy(nope=1)": "has no tunable 'nope'",
    "no_such_bot": "unknown agent 'no_such_bot'",
}


@pytest.fixture(scope="module")
def fox_record(tmp_path_factory) -> dict:
    """A record of a few decisions of The Fox in the Forest, played by a person and a bot."""
    table = Table.new(program(FOX, "generated"), ("human", "policy"), seed=3)
    for _ in range(4):
        table.run_bots()
        if table.pending_player is not None:
            table.choose(table.pending_player, table.game.decision.option_ids[0])
    return table.record()


def _write(folder: Path, record: dict, agents: list[str]) -> Path:
    path = folder / "game.json"
    path.write_text(json.dumps(dict(record, agents=agents, spec_dir=str(FOX))), encoding="utf-8")
    return path


def _one_line_exit_1(result, words: str) -> None:
    """Exit 1 and one error line (a `note:` that the package was rebuilt may come before it)."""
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if not line.startswith("note: ")]
    assert len(lines) == 1 and lines[0].startswith("rulespec: error: ") and words in lines[0], result.output


@pytest.mark.parametrize("agent", sorted(BAD_AGENTS))
def test_replay_and_resume_refuse_a_record_with_an_agent_the_game_cannot_seat(agent, fox_record, tmp_path,
                                                                               monkeypatch):
    path = _write(tmp_path, fox_record, [agent, "human"])
    served = []
    monkeypatch.setattr(playtest, "serve_table", lambda *a, **k: served.append(a))
    for command in (["replay", str(path)], ["play", "--resume", str(path)],
                    ["serve", "--resume", str(path), "--port", "0", "--records", str(tmp_path)]):
        result = CliRunner().invoke(main, command, input="quit\n")
        _one_line_exit_1(result, BAD_AGENTS[agent])
        assert f"{path}: agent '{agent}'" in result.output
    assert not served  # the table refused to start


def test_a_record_with_more_agents_than_seats_is_refused(fox_record, tmp_path):
    path = _write(tmp_path, fox_record, ["human", "policy", "random"])
    _one_line_exit_1(CliRunner().invoke(main, ["replay", str(path)]), "names 3 agents for 2 seats")


def test_the_web_table_refuses_to_load_or_replay_a_record_with_a_bad_agent(fox_record, tmp_path):
    table = Table.new(program(FOX, "generated"), ("human", "human"), seed=3)
    server = TableServer(table, tmp_path / "records")
    client = TestClient(create_app(server), base_url=BASE)
    host, before = server.host_token, list(table.game.choices)
    for agent, words in BAD_AGENTS.items():
        bad = dict(fox_record, agents=[agent, "human"])
        _refused(client.post(f"/api/{host}/load", json={"record": bad}), 400, words)
        _refused(client.post(f"/api/{host}/replay", json={"record": bad}), 400, words)
    assert table.game.choices == before and not server.replays
    assert client.post(f"/api/{host}/load", json={"record": fox_record}).status_code == 200


def test_good_agents_pass_and_a_resumed_table_seats_them(fox_record):
    prog = program(FOX, "generated")
    for agents in (["human", "policy(reach=13)"], ["rollout:sensible:standing@2", "greedy:standing"], None):
        check_recorded(records.as_record(dict(fox_record, agents=agents)), prog.meta)
    resumed = Table.from_record(dict(fox_record, agents=["human", "policy(reach=13)"]), prog)
    assert resumed.seat_names() == ("human", "policy(reach=13)")
    with pytest.raises(records.RecordError, match="unknown policy 'nope'"):
        Table.from_record(dict(fox_record, agents=["human", "policy:nope"]), prog)
