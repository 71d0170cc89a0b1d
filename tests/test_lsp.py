"""The editor server over stdio, driven by a small JSON-RPC client: diagnostics, hover, definition."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from support import MINI, REPO

pytest.importorskip("pygls")
TIMEOUT = 120


class Client:
    """Speaks LSP's framing (Content-Length headers) to a server process."""

    def __init__(self, cwd: Path):
        self.process = subprocess.Popen([sys.executable, "-m", "rulespec.compiler.tools.lsp"], cwd=cwd,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=_env())
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)["result"]

    def wait(self, matches) -> dict:
        while True:
            message = self.messages.get(timeout=TIMEOUT)
            if matches(message):
                return message

    def diagnostics(self, uri: str) -> list[dict]:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri)["params"]["diagnostics"]

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=20)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def _env() -> dict:
    import os
    return {**os.environ, "PYTHONPATH": str(REPO)}


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    client = Client(tmp_path)
    client.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    yield folder, client
    client.close()


def _open(client: Client, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "rulespec", "version": 1, "text": text}})
    return uri


def _position(text: str, needle: str, offset: int = 0) -> dict:
    before = text[:text.index(needle) + offset]
    return {"line": before.count("\n"), "character": len(before.split("\n")[-1])}


def test_a_broken_file_gets_its_diagnostics_and_a_fixed_one_none(game):
    folder, client = game
    good = (folder / "mini.rules").read_text(encoding="utf-8")
    broken = good.replace("add 1 to score(you)", "add 1 to scor(you)", 1)
    uri = _open(client, folder / "mini.rules", broken)
    [problem] = client.diagnostics(uri)
    start = _position(broken, "scor(you)")
    assert problem["range"]["start"] == start
    assert problem["range"]["end"] == {"line": start["line"], "character": start["character"] + 4}
    assert "scor" in problem["message"] and problem["severity"] == 1
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": good}]})
    assert client.diagnostics(uri) == []


def test_a_syntax_error_is_a_diagnostic_at_its_token(game):
    folder, client = game
    text = (folder / "mini.rules").read_text(encoding="utf-8").replace("procedure draw(p: player)",
                                                                       "procedure draw(p: player", 1)
    uri = _open(client, folder / "mini.rules", text)
    [problem] = client.diagnostics(uri)
    assert problem["range"]["start"] == _position(text, "procedure draw(p: player {", 25)
    assert "unexpected '{'" in problem["message"]


def test_hover_definition_and_completion(game):
    folder, client = game
    path = folder / "mini.rules"
    text = path.read_text(encoding="utf-8")
    uri = _open(client, path, text)
    assert client.diagnostics(uri) == []
    where = {"textDocument": {"uri": uri}, "position": _position(text, "total(p) >= goal", 1)}
    hover = client.request("textDocument/hover", where)
    assert "define total(p: player) -> int" in hover["contents"]["value"]
    location = client.request("textDocument/definition",
                              {"textDocument": {"uri": uri}, "position": _position(text, "draw(p)\n", 1)})
    assert location["uri"] == uri
    assert location["range"]["start"] == _position(text, "draw(p: player)")
    card = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": _position(text, "card two", 6)})
    assert "You choose a field `f`" in card["contents"]["value"]  # a card's proof text
    items = client.request("textDocument/completion", where)["items"]
    labels = {item["label"] for item in items}
    assert {"score", "draw", "total", "p", "chooses"} <= labels


def test_the_committed_textmate_grammar_is_made_from_the_current_grammar():
    from rulespec.compiler.tools.textmate import keywords, textmate_json
    committed = (REPO / "docs" / "editors" / "rulespec.tmLanguage.json").read_text(encoding="utf-8")
    assert committed == textmate_json(), "regenerate: rulespec lsp --textmate docs/editors/rulespec.tmLanguage.json"
    assert {"procedure", "chooses", "activate", "until", "policy"} <= set(keywords())


def test_hover_and_definition_answer_in_a_file_with_errors(game):
    """Opened broken (no good load yet): a check error, then a syntax error on top of it."""
    folder, client = game
    path = folder / "mini.rules"
    good = path.read_text(encoding="utf-8")
    broken = good.replace("add 1 to score(you)", "add 1 to scor(you)", 1)
    uri = _open(client, path, broken)
    assert client.diagnostics(uri)
    where = {"textDocument": {"uri": uri}, "position": _position(broken, "total(p) >= goal", 1)}
    assert "define total(p: player) -> int" in client.request("textDocument/hover", where)["contents"]["value"]
    location = client.request("textDocument/definition",
                              {"textDocument": {"uri": uri}, "position": _position(broken, "draw(p)\n", 1)})
    assert location["uri"] == uri and location["range"]["start"] == _position(broken, "draw(p: player)")
    worse = broken.replace("procedure draw(p: player)", "procedure draw(p: player", 1)
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": worse}]})
    [problem] = client.diagnostics(uri)
    assert "unexpected '{'" in problem["message"]
    where = {"textDocument": {"uri": uri}, "position": _position(worse, "total(p) >= goal", 1)}
    assert "define total(p: player) -> int" in client.request("textDocument/hover", where)["contents"]["value"]


def test_a_five_megabyte_line_gets_its_diagnostic_and_the_server_shuts_down(tmp_path):
    """Issue 44, item 1: a syntax error after 5 MB of one word froze the server (the keyword hint
    was quadratic in the word): no diagnostics, `shutdown` unanswered."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    client = Client(tmp_path)
    client.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    path = folder / "mini.rules"
    text = path.read_text(encoding="utf-8") + "var v: int = " + "y" * (5 * 1024 * 1024) + '""\n'
    try:
        uri = _open(client, path, text)
        [problem] = client.diagnostics(uri)
        assert problem["message"] == 'unexpected string ""'
        assert problem["range"]["start"] == _position(text, '""\n')
        assert client.request("shutdown", None) is None
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT) == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


def _ended_early(folder: Path, changes: int) -> subprocess.CompletedProcess:
    """The server's exit and stderr when its input closes right after a document is opened
    (and changed `changes` times): checks running or waiting out the typing pause."""
    uri = (folder / "mini.rules").as_uri()
    text = (folder / "mini.rules").read_text(encoding="utf-8")
    messages = [{"id": 1, "method": "initialize",
                 "params": {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}}},
                {"method": "initialized", "params": {}},
                {"method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": uri, "languageId": "rulespec", "version": 1, "text": text}}}]
    messages += [{"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 2 + n}, "contentChanges": [{"text": text + "#" * n}]}}
        for n in range(changes)]
    data = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body) for body in
                    (json.dumps({"jsonrpc": "2.0", **m}).encode() for m in messages))
    return subprocess.run([sys.executable, "-m", "rulespec.compiler.tools.lsp"], cwd=folder.parent,
                          input=data, capture_output=True, timeout=TIMEOUT, env=_env())


@pytest.mark.parametrize("changes", [0, 2])
def test_the_input_closing_while_a_document_is_checked_ends_without_a_traceback(tmp_path, changes):
    """Issue 44, item 7: about 20 lines of asyncio traceback (a cancelled check) on stderr."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    result = _ended_early(folder, changes)
    assert result.returncode == 0
    assert result.stderr.decode() == ""


def test_an_error_the_event_loop_meets_is_one_line(capsys):
    import asyncio

    from rulespec.compiler.tools.lsp_frames import one_line_loop_errors
    one_line_loop_errors(None, {"message": "Exception in callback\nhandle", "exception": ValueError("bad\nvalue")})
    one_line_loop_errors(None, {"message": "Task was cancelled", "exception": asyncio.CancelledError()})
    assert capsys.readouterr().err == "rulespec lsp: error: Exception in callback handle: ValueError: bad value\n"
