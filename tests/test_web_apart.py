"""Seats stay apart, over HTTP: a seat's token never loads or uploads a record nor replays
one beyond its own view (that is the host link's), a bot's token takes nothing back, a
body over 1 MB is refused unread, a Host other than the table's own is refused (DNS
rebinding), `--records` that is not a folder stops `serve` at start, and records are
checked against the table's game (its variants, its own records folder)."""

from __future__ import annotations

import http.client
import json
import socket

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from rulespec.compiler.cli import main
from rulespec.runtime.playtest import web
from rulespec.runtime.playtest.table import Table
from rulespec.runtime.playtest.web.guard import MAX_BODY, host_check
from rulespec.runtime.playtest.web.server import TableServer, create_app
from support import REPO, TS, program
from test_web import BASE, HELDENHAIN, _refused, _served, _state, _tokens

WAIT = 60  # seconds a socket waits for the real server's answer (a hang, not a timing)


@pytest.fixture()
def hot_seat(tmp_path):
    server, client = _served(TS, ("human", "human"), 2, tmp_path)
    return server, client, _tokens(server)


def _the_other_seats_move(server: TableServer) -> dict:
    """The attack of issue 25: the table's own record plus a choice for the seat it waits for."""
    record = server.table.record()
    record["choices"] = record["choices"] + [server.table.game.decision.option_ids[0]]
    record.pop("snapshot", None)
    return record


def test_a_seat_neither_loads_nor_uploads_a_record(hot_seat):
    server, client, tokens = hot_seat
    waiting = server.table.pending_player
    assert client.post(f"/api/{tokens[waiting]}/save", json={"name": "kept"}).status_code == 200
    forged = _the_other_seats_move(server)
    before = _state(server)
    for body in ({"record": forged}, {"name": "kept"}):
        for token in tokens.values():
            _refused(client.post(f"/api/{token}/load", json=body), 403, "belongs to the host link")
    _refused(client.post("/api/not-a-token/load", json={"name": "kept"}), 404, "unknown seat token")
    assert _state(server) == before  # the other seat's decision was not made for it
    loaded = client.post(f"/api/{server.host_token}/load", json={"record": forged})
    assert loaded.status_code == 200 and loaded.json()["decisions"] == len(forged["choices"])
    assert server.table.steps[-1].player == waiting  # the host holds every seat: it may


def test_a_seat_replays_a_record_only_as_itself(hot_seat):
    server, client, tokens = hot_seat
    ussr, usa, host = tokens["ussr"], tokens["usa"], server.host_token
    record = server.table.record()
    _refused(client.post(f"/api/{ussr}/replay", json={"record": record}), 403, "belongs to the host link")
    client.post(f"/api/{ussr}/save", json={"name": "now"})
    mine = client.post(f"/api/{ussr}/replay", json={"name": "now"}).json()
    assert mine["seats"] == ["ussr"]
    _refused(client.get(f"/api/{ussr}/replay/{mine['replay']}", params={"step": 0, "seat": "usa"}),
             403, "only ussr's view")
    hand = client.get(f"/api/{ussr}/replay/{mine['replay']}", params={"step": 0}).json()
    assert hand["seat"] == "ussr" and hand["view"]["zones"]["hand(usa)"] == {"count": 8}
    # a replay is its opener's alone: another seat's token does not find it, nor the host's
    _refused(client.get(f"/api/{usa}/replay/{mine['replay']}", params={"seat": "usa"}), 404, "unknown replay")
    _refused(client.get(f"/api/{host}/replay/{mine['replay']}"), 404, "unknown replay")
    every = client.post(f"/api/{host}/replay", json={"record": record}).json()
    assert every["seats"] == ["ussr", "usa"]
    usa_view = client.get(f"/api/{host}/replay/{every['replay']}", params={"seat": "usa"}).json()
    assert isinstance(usa_view["view"]["zones"]["hand(usa)"], list)  # the host sees every seat
    _refused(client.get(f"/api/{ussr}/replay/{every['replay']}", params={"seat": "usa"}), 404, "unknown replay")
    seat_page, host_page = client.get(f"/replay/{ussr}").text, client.get(f"/replay/{host}").text
    assert 'id="upload"' not in seat_page and 'id="upload"' in host_page
    assert 'id="load"' not in client.get(f"/seat/{ussr}").text and 'id="load"' in client.get(f"/host/{host}").text


def test_the_host_link_is_no_seat(hot_seat):
    server, client, tokens = hot_seat
    host = server.host_token
    _refused(client.get(f"/api/{host}/view"), 403, "the host link is no seat")
    _refused(client.post(f"/api/{host}/choose", json={"option": "x", "version": 0}), 403, "no seat")
    assert client.get(f"/api/{host}/board").status_code == 200


def test_undo_from_a_bot_seat_is_refused(tmp_path):
    server, client = _served(TS, ("random", "human"), 3, tmp_path)
    tokens = _tokens(server)
    assert server.table.pending_player == "usa" and server.table.steps  # the USSR bot has moved
    before = _state(server)
    _refused(client.post(f"/api/{tokens['ussr']}/undo", json={"version": server.table.version}),
             403, "played by the bot 'random'")
    assert _state(server) == before


def test_a_body_over_one_megabyte_is_refused(hot_seat):
    server, client, tokens = hot_seat
    token = tokens[server.table.pending_player]
    before = _state(server)
    big = b'{"option": "' + b"x" * MAX_BODY + b'", "version": 0}'
    _refused(client.post(f"/api/{token}/choose", content=big, headers={"Content-Type": "application/json"}),
             413, "larger than 1 MB")
    _refused(client.post(f"/api/{server.host_token}/load", content=big,
                         headers={"Content-Type": "application/json"}), 413, "larger than 1 MB")
    chunks = (b"x" * 65536 for _ in range(17))  # no length given: counted as it is read
    _refused(client.post(f"/api/{token}/choose", content=chunks, headers={"Content-Type": "application/json"}),
             413, "larger than 1 MB")
    assert _state(server) == before


def test_a_host_header_other_than_the_tables_own_is_refused(hot_seat):
    server, _, tokens = hot_seat
    token = tokens["ussr"]
    app = create_app(server)
    for base in ("http://127.0.0.1:8000", "http://localhost:8000"):
        assert TestClient(app, base_url=base).get(f"/api/{token}/view").status_code == 200
    for base in ("http://rebound.example:8000", "http://127.0.0.1:8001", "http://localhost",
                 "http://127.0.0.1.rebound.example:8000"):
        _refused(TestClient(app, base_url=base).get(f"/api/{token}/view"), 403,
                 "answers only at 127.0.0.1:8000 or localhost:8000")
    _refused(TestClient(app, base_url="http://rebound.example:8000").get("/"), 403, "Host header")


def test_the_host_names_a_table_answers_to():
    loopback = host_check("127.0.0.1", 8000)
    assert loopback("127.0.0.1:8000") and loopback("LOCALHOST:8000") and loopback("[::1]:8000")
    assert not loopback("evil.example:8000") and not loopback("127.0.0.1") and not loopback("")
    assert not loopback("10.0.0.2:8000")
    assert host_check("127.0.0.1", 80)("localhost")  # port 80 goes without saying
    everywhere = host_check("0.0.0.0", 8000)  # every interface: any address, never a name
    assert everywhere("192.168.1.5:8000") and everywhere("[fe80::1]:8000")
    assert not everywhere("rebound.example:8000")
    named = host_check("table.lan", 9000)
    assert named("table.lan:9000") and not named("other.lan:9000")


# ------------------------------------------------------------------ a real server


@pytest.fixture()
def running(tmp_path):
    table = Table.new(program(TS, "generated"), ("human", "policy"), seed=2, spec_roots=(REPO,))
    table.run_bots()
    served = web.start(table, records_dir=tmp_path / "records")
    yield served
    served.stop()


def _raw(running, request: bytes) -> tuple[int, dict]:
    """Send `request` on a socket; the status and JSON of the answer."""
    port = int(running.base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_running_server_refuses_a_large_body_unread_and_a_forged_host(running):
    token = running.urls["usa"].rsplit("/", 1)[1]
    port = running.base.rsplit(":", 1)[1]
    # 100 MB announced, none sent: the answer comes without waiting for any of it (no byte
    # is left unread when the server closes, so the answer is never lost to a reset)
    head = (f"POST /api/{token}/choose HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {100 * 2**20}\r\n\r\n").encode()
    status, body = _raw(running, head)
    assert status == 413 and "larger than 1 MB" in body["error"]
    for host in ("rebound.example", f"rebound.example:{port}"):
        status, body = _raw(running, f"GET /api/{token}/view HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        assert status == 403 and "Host header" in body["error"]
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=WAIT)
    connection.request("GET", f"/api/{token}/view")
    answer = connection.getresponse()
    assert answer.status == 200 and json.loads(answer.read())["seat"] == "usa"


def test_records_that_is_not_a_folder_stops_serve_at_start(tmp_path):
    afile = tmp_path / "records.json"
    afile.write_text("{}")
    for given in (afile, afile / "inside"):
        out = CliRunner().invoke(main, ["serve", "twilight_struggle", "--port", "0", "--records", str(given)])
        assert out.exit_code == 1, out.output
        assert out.output.count("\n") == 1 and "is a file, not a folder" in out.output, out.output
        assert out.output.startswith("rulespec: error: cannot keep records in")


def test_records_are_checked_against_the_tables_game(hot_seat, tmp_path):
    server, client, tokens = hot_seat
    host = server.host_token
    record = server.table.record()
    before = _state(server)
    for variants, words in ((["../../x"], "record plays the variants '../../x', this table the base game"),
                            (["tournament"], "the variants 'tournament'")):
        _refused(client.post(f"/api/{host}/load", json={"record": dict(record, variants=variants)}),
                 400, words)
        _refused(client.post(f"/api/{host}/replay", json={"record": dict(record, variants=variants)}),
                 400, words)
    assert _state(server) == before
    client.post(f"/api/{tokens['ussr']}/save", json={"name": "cold_war"})
    # another game's table with the same --records folder neither lists nor loads it
    other, other_client = _served(HELDENHAIN, ("human", "human"), 1, tmp_path)
    assert other.records_dir == server.records_dir
    assert other_client.get(f"/api/{other.host_token}/records").json()["records"] == []
    _refused(other_client.post(f"/api/{other.host_token}/load", json={"name": "cold_war"}), 404, "no saved record")


def test_rulespec_serve_seats_a_person_and_the_policy_bot_and_keeps_them_apart(tmp_path):
    """`rulespec serve twilight_struggle --seats human,policy` itself: it prints a seed and the
    links, the seats answer, and a seat's token may not load a record."""
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    serve = subprocess.Popen([sys.executable, "-m", "rulespec.compiler.cli", "serve", "twilight_struggle", "--seats",
                              "human,policy", "--port", "0", "--records", str(tmp_path / "records")],
                             cwd=str(REPO), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        printed = []
        while not any(line.startswith("  host (") for line in printed):
            line = serve.stdout.readline()
            assert line, "".join(printed)  # it stopped before printing its links
            printed.append(line)
        links = {line.split(":", 1)[0].strip(): line.split(": ", 1)[1].strip() for line in printed[2:]}
        assert printed[1].startswith("  Seed ") and set(links) == {"USSR (human)", "USA (policy)",
                                                                    "host (every seat's link, hot-seat, loading records)"}
        base, token = links["USSR (human)"].split("/seat/")
        with urllib.request.urlopen(f"{base}/api/{token}/view", timeout=WAIT) as answer:
            assert json.loads(answer.read())["seat"] == "ussr"
        request = urllib.request.Request(f"{base}/api/{token}/load", data=b'{"name": "x"}', method="POST",
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=WAIT)
        assert refused.value.code == 403
    finally:
        serve.terminate()
        serve.wait(timeout=WAIT)
