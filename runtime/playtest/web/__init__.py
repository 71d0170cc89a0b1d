"""The web table: a served Table, one unguessable link per seat (needs `rulespec[web]`).

Pages and assets ship in this package (templates/, static/): no CDN, no build
step. `serve` runs it on 127.0.0.1 unless told otherwise; `start` runs it in a
thread (tests, screenshots).
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rulespec.runtime.playtest.table import Table


class WebUnavailable(Exception):
    """FastAPI or uvicorn is not installed."""


def _imports():
    try:
        import uvicorn

        from rulespec.runtime.playtest.web import slow
        from rulespec.runtime.playtest.web.server import TableServer, create_app
    except ImportError as err:
        raise WebUnavailable(f"the web table needs FastAPI and uvicorn ({err.name} is missing):"
                             f" pip install 'rulespec[web]'") from None
    return uvicorn, TableServer, create_app, slow


@dataclass
class Running:
    """A table being served: its URLs, and how to stop it."""

    base: str
    urls: dict[str, str]  # per player, and "host"
    server: object  # the TableServer
    uvicorn: object
    thread: threading.Thread | None = None

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=30)


def prepare(table: Table, host: str = "127.0.0.1", port: int = 8000,
            records_dir: str | Path = "records", limits: dict | None = None) -> tuple[Running, socket.socket]:
    """Bind the socket (port 0: any free one) and build the app; nothing served yet.
    `limits`: uvicorn's settings for slow and idle clients (default: slow.settings())."""
    uvicorn, TableServer, create_app, slow = _imports()
    served = TableServer(table, Path(records_dir))
    check_folder(served.game_records)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    sock.listen(64)
    bound = sock.getsockname()[1]
    served.address = (host, bound)  # the Host header the app answers to
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{bound}"
    config = uvicorn.Config(create_app(served), log_level="warning", access_log=False,
                            lifespan="off", **(limits or slow.settings()))
    return Running(base, served.urls(base), served, uvicorn.Server(config)), sock


def check_folder(path: Path) -> None:
    """OSError, one line, when the records folder `path` is a file or sits under one:
    found at start, not at the first save."""
    for at in (path, *path.parents):
        try:
            found = at.exists()
        except OSError as err:  # a name the system will not look up (too long)
            raise OSError(f"cannot keep records in {path}: {err.strerror or err}") from None
        if found:
            if not at.is_dir():
                raise NotADirectoryError(f"cannot keep records in {path}: {at} is a file, not a folder")
            return


def serve(table: Table, host: str = "127.0.0.1", port: int = 8000, records_dir: str | Path = "records",
          announce: Callable[[Running], None] = lambda running: None) -> None:
    """Serve until interrupted; `announce` is told the URLs once the socket is bound."""
    running, sock = prepare(table, host, port, records_dir)
    announce(running)
    running.uvicorn.run(sockets=[sock])


def start(table: Table, host: str = "127.0.0.1", port: int = 0,
          records_dir: str | Path = "records", limits: dict | None = None) -> Running:
    """Serve in a background thread; returns once the server answers."""
    running, sock = prepare(table, host, port, records_dir, limits)
    thread = threading.Thread(target=running.uvicorn.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    running.thread = thread
    started = threading.Event()
    while not started.wait(0.02):
        if running.uvicorn.started or not thread.is_alive():
            started.set()
    if not running.uvicorn.started:
        raise OSError(f"the web table did not start on {running.base}")
    return running
