"""The web table closes slow and idle clients (issue 44, item 9): a connection that sends
nothing, one that sends a header byte now and then, and one left idle after an answer are
each closed by the server, on a running server with short limits; people's requests are
still answered. The limits are uvicorn's own settings (runtime/playtest/web/slow.py)."""

from __future__ import annotations

import socket
import time

import pytest

from rulespec.runtime.playtest import web
from rulespec.runtime.playtest.table import Table
from rulespec.runtime.playtest.web import slow
from support import REPO, TS, program

DEADLINE = 1  # seconds: the short limits these tests serve with
WAIT = 30  # seconds a socket waits for the server to close it: a hang, not a timing


@pytest.fixture()
def running(tmp_path):
    table = Table.new(program(TS, "generated"), ("human", "human"), seed=2, spec_roots=(REPO,))
    served = web.start(table, records_dir=tmp_path / "records",
                       limits=slow.settings(head_deadline=DEADLINE, keep_alive=DEADLINE))
    yield served
    served.stop()


def _connect(running) -> socket.socket:
    port = int(running.base.rsplit(":", 1)[1])
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT)


def _closed_by_server(sock: socket.socket) -> bytes:
    """Read until the server closes the connection (what it sent first, if anything);
    a socket timeout here means the server kept it open."""
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    return got


def _view_request(running) -> bytes:
    token = running.urls["ussr"].rsplit("/", 1)[1]
    port = running.base.rsplit(":", 1)[1]
    return f"GET /api/{token}/view HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


def test_a_connection_that_sends_nothing_is_closed(running):
    with _connect(running) as sock:
        assert _closed_by_server(sock) == b""


def test_a_connection_that_sends_a_header_byte_now_and_then_is_closed(running):
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with _connect(running) as sock:
        start = time.monotonic()
        with pytest.raises((BrokenPipeError, ConnectionResetError)):
            for byte in head:  # one byte every 0.2 s: each would restart an idle timer
                sock.send(bytes([byte]))
                time.sleep(0.2)
        assert time.monotonic() - start < WAIT
        assert _closed_by_server(sock) == b""


def test_an_idle_connection_after_an_answer_is_closed(running):
    with _connect(running) as sock:
        sock.sendall(_view_request(running))
        answer = _closed_by_server(sock)  # keep-alive: it ends only when the server closes it
    assert answer.startswith(b"HTTP/1.1 200") and b'"seat":"ussr"' in answer


def test_the_table_serves_with_the_limits_by_default(tmp_path):
    table = Table.new(program(TS, "generated"), ("human", "human"), seed=2)
    served = web.start(table, records_dir=tmp_path / "records")
    try:
        config = served.uvicorn.config
        assert config.timeout_keep_alive == slow.KEEP_ALIVE and config.limit_concurrency == slow.MAX_CONNECTIONS
        assert config.h11_max_incomplete_event_size == slow.MAX_HEAD
        assert config.http.__name__ == "HeadDeadline"
        with _connect(served) as sock:
            sock.sendall(_view_request(served))
            assert sock.recv(12) == b"HTTP/1.1 200"
    finally:
        served.stop()
