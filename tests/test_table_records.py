"""The table's records are the table's (issue 44, item 5): two tables that share a records
folder never list nor replay each other's games at a seat; the host may share a record with
its seats; a replay shows a seat exactly what that seat saw at each step of the game."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from rulespec.runtime.playtest.table import Table
from rulespec.runtime.playtest.web.server import TableServer, create_app
from support import REPO, TS, program
from test_web import BASE, _refused, _tokens


def _table(records: Path, seed: int) -> tuple[TableServer, TestClient, dict[str, str]]:
    table = Table.new(program(TS, "generated"), ("human", "human"), seed=seed, spec_roots=(REPO,))
    server = TableServer(table, records)
    return server, TestClient(create_app(server), base_url=BASE), _tokens(server)


def _play(server: TableServer, client: TestClient, tokens: dict[str, str], moves: int) -> list[dict]:
    """Make `moves` decisions by hand; every seat's view before each and after the last."""
    seen = []
    for _ in range(moves):
        seen.append({p: client.get(f"/api/{t}/view").json()["view"] for p, t in tokens.items()})
        player = server.table.pending_player
        view = client.get(f"/api/{tokens[player]}/view").json()
        move = {"option": view["decision"]["options"][0]["id"], "version": view["version"]}
        assert client.post(f"/api/{tokens[player]}/choose", json=move).status_code == 200
    seen.append({p: client.get(f"/api/{t}/view").json()["view"] for p, t in tokens.items()})
    return seen


def test_a_seat_of_another_table_neither_lists_nor_replays_a_tables_record(tmp_path):
    first, first_client, first_tokens = _table(tmp_path / "records", 2)
    second, second_client, second_tokens = _table(tmp_path / "records", 5)
    assert first.game_records == second.game_records  # one folder for both
    _play(first, first_client, first_tokens, 2)
    assert first_client.post(f"/api/{first_tokens['ussr']}/save", json={"name": "live"}).status_code == 200
    for token in first_tokens.values():  # the table's own record: every seat of it lists it
        assert first_client.get(f"/api/{token}/records").json() == {"records": ["live"]}
    for token in second_tokens.values():
        assert second_client.get(f"/api/{token}/records").json() == {"records": []}
        _refused(second_client.post(f"/api/{token}/replay", json={"name": "live"}), 404,
                 "no saved record 'live' at this table")
    host = second_client.get(f"/api/{second.host_token}/records").json()
    assert host == {"records": ["live"], "shared": []}  # the host holds the folder


def test_the_host_shares_a_record_with_its_seats_each_as_its_own_seat(tmp_path):
    first, first_client, first_tokens = _table(tmp_path / "records", 2)
    second, second_client, second_tokens = _table(tmp_path / "records", 5)
    _play(first, first_client, first_tokens, 1)
    first_client.post(f"/api/{first_tokens['usa']}/save", json={"name": "shown"})
    _refused(second_client.post(f"/api/{second_tokens['usa']}/share", json={"name": "shown"}), 403,
             "belongs to the host link")
    _refused(second_client.post(f"/api/{second.host_token}/share", json={"name": "nope"}), 404,
             "no saved record 'nope'")
    shared = second_client.post(f"/api/{second.host_token}/share", json={"name": "shown"})
    assert shared.json() == {"shared": "shown"}
    assert second_client.get(f"/api/{second.host_token}/records").json()["shared"] == ["shown"]
    usa = second_tokens["usa"]
    assert second_client.get(f"/api/{usa}/records").json() == {"records": ["shown"]}
    opened = second_client.post(f"/api/{usa}/replay", json={"name": "shown"}).json()
    assert opened["seats"] == ["usa"]
    _refused(second_client.get(f"/api/{usa}/replay/{opened['replay']}", params={"seat": "ussr"}),
             403, "only usa's view")
    assert 'id="share"' in second_client.get(f"/host/{second.host_token}").text
    assert 'id="share"' not in second_client.get(f"/seat/{usa}").text


def test_a_file_written_later_under_a_tables_record_name_is_not_the_tables(tmp_path):
    first, first_client, first_tokens = _table(tmp_path / "records", 2)
    second, second_client, second_tokens = _table(tmp_path / "records", 5)
    ussr = first_tokens["ussr"]
    first_client.post(f"/api/{ussr}/save", json={"name": "kept"})
    (first.game_records / "kept.json").unlink()  # gone by hand; the other table takes the name
    _play(second, second_client, second_tokens, 1)
    second_client.post(f"/api/{second_tokens['ussr']}/save", json={"name": "kept"})
    assert first_client.get(f"/api/{ussr}/records").json() == {"records": []}
    _refused(first_client.post(f"/api/{ussr}/replay", json={"name": "kept"}), 404, "at this table")
    assert second_client.get(f"/api/{second_tokens['ussr']}/records").json() == {"records": ["kept"]}


def test_a_replay_shows_a_seat_what_it_saw_at_each_step_and_no_more(tmp_path):
    server, client, tokens = _table(tmp_path / "records", 3)
    seen = _play(server, client, tokens, 6)
    client.post(f"/api/{tokens['usa']}/save", json={"name": "six"})
    for player, token in tokens.items():
        opened = client.post(f"/api/{token}/replay", json={"name": "six"}).json()
        assert opened["seats"] == [player] and opened["steps"] == 6
        for step in range(7):
            shown = client.get(f"/api/{token}/replay/{opened['replay']}", params={"step": step}).json()
            assert shown["seat"] == player and shown["view"] == seen[step][player], (player, step)
