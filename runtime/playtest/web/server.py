"""The web table's HTTP side: FastAPI routes over one Table, one token per seat.

A seat's token is its only credential: every route finds the seat from it and
answers with that seat's view (Table.seat_view, built from Game.view) and
nothing else. The host token (whoever started the table, who holds every seat
anyway) alone loads a record into the table, opens an uploaded one, and replays
one with every seat's view. A seat lists and replays only the table's own records
(saved at this table, or shared with its seats by the host), as that seat only:
tables that share a records folder never see each other's games.
Refusals are JSON `{"error": "one line"}` with a 4xx status and change nothing.
Moves are serialised by one lock and carry the table version they were made
against, so a stale or repeated request is refused. Before any route, guard.py
refuses another Host than the table's own and bodies over 1 MB.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from rulespec.runtime import record as records
from rulespec.runtime.board import board_payload, zone_positions, zone_room
from rulespec.runtime.playtest.table import Table, TableError, plain_record
from rulespec.runtime.playtest.web.guard import WILDCARDS, BodyTooLarge, Guard, host_check

MAX_REPLAYS = 16  # replays kept open at once
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
                ".png": "image/png", ".ico": "image/x-icon"}
HERE = Path(str(resources.files(__package__)))
HOST = "(host)"  # who the host token stands for: no player id has brackets


class Move(BaseModel):
    """A decision answered against the table version the page showed."""

    option: str
    version: int
    bots: bool = True  # let the bots answer at once (off: watch them move by move)


class Versioned(BaseModel):
    version: int


class SaveRequest(BaseModel):
    name: str


class RecordRequest(BaseModel):
    name: str | None = None  # a record saved at this table
    record: dict[str, Any] | None = None  # or one the person uploads


class ShareRequest(BaseModel):
    name: str  # a record of the records folder the host opens to the table's seats


@dataclass
class Replay:
    """A record stepped through by the replay viewer; `seats` are the views it may show, to
    `owner` only (the seat that opened it, or HOST)."""

    record: dict[str, Any]
    seats: tuple[str, ...]
    owner: str
    table: Table | None = None


@dataclass
class Seat:
    player: str
    token: str


@dataclass
class TableServer:
    """One table served: its seats' tokens, saved records, replays, and the lock."""

    table: Table
    records_dir: Path  # the records of this game are kept in records_dir/<game>/
    address: tuple[str, int] = ("127.0.0.1", 8000)  # where it listens: the Host it answers to
    seats: dict[str, Seat] = field(default_factory=dict)
    host_token: str = ""
    replays: dict[str, Replay] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    # The table's own records, by name: saved at this table or shared by the host, each
    # with the digest of its bytes then, so a file another table writes under that name
    # later is not taken for it.
    own: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for player in self.table.players:
            token = secrets.token_urlsafe(24)
            self.seats[token] = Seat(player, token)
        self.host_token = secrets.token_urlsafe(24)

    # ------------------------------------------------------------ tokens
    def seat_of(self, token: str) -> str:
        """The seat a token stands for; 404 for any other string (compared in constant time)."""
        found = None
        for known, seat in self.seats.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = seat.player
        if found is None:
            if self.is_host(token):
                raise TableError("the host link is no seat: open a seat's link from the host page", 403)
            raise TableError("unknown seat token: use the link the table printed for your seat", 404)
        return found

    def is_host(self, token: str) -> bool:
        return secrets.compare_digest(self.host_token.encode(), token.encode())

    def check_host(self, token: str) -> None:
        if not self.is_host(token):
            raise TableError("unknown host token: use the host link the table printed", 404)

    def caller(self, token: str) -> str:
        """The seat a token stands for, or HOST for the host's; 404 for any other string."""
        return HOST if self.is_host(token) else self.seat_of(token)

    def host_only(self, token: str, what: str) -> None:
        """403 unless `token` is the host's: `what` belongs to whoever started the table."""
        if not self.is_host(token):
            self.seat_of(token)  # an unknown token stays a 404
            raise TableError(f"{what} belongs to the host link (whoever started the table,"
                             f" who holds every seat): a seat's link may not", 403)

    def where(self) -> str:
        """The addresses this table answers at, for the Host refusal."""
        host, port = self.address
        own = "this machine's IP address" if host in WILDCARDS else f"[{host}]" if ":" in host else host
        return " or ".join(f"{name}:{port}" for name in dict.fromkeys(("127.0.0.1", "localhost", own)))

    def token_of(self, player: str) -> str:
        return next(t for t, s in self.seats.items() if s.player == player)

    def urls(self, base: str) -> dict[str, str]:
        out = {s.player: f"{base}/seat/{t}" for t, s in self.seats.items()}
        out["host"] = f"{base}/host/{self.host_token}"
        return out

    # ------------------------------------------------------------ payloads
    def view(self, player: str) -> dict[str, Any]:
        return self.table.seat_view(player)

    def board(self, player: str) -> dict[str, Any]:
        board = dict(board_payload(self.table.meta))
        seated = self.table.players
        board["players"] = [p for p in board["players"] if p["id"] in seated]
        zones = zone_positions(self.table.meta, player, seated)
        board["zones"] = {k: list(v) for k, v in zones.items()}
        board["zone_room"] = zone_room(zones, board["width"])  # how wide each may grow
        for space in board["spaces"]:
            space["spec"] = self.table.spec_line(space["at"])
        return board

    # ------------------------------------------------------------ records
    @property
    def game_records(self) -> Path:
        """This game's records folder: a table of another game never lists nor loads them."""
        return self.records_dir / self.table.meta.game

    def record_path(self, name: str) -> Path:
        if not NAME.match(name):
            raise TableError("a record name is letters, digits, '_', '-' and '.', at most 64", 400)
        return self.game_records / (name if name.endswith(".json") else f"{name}.json")

    def saved(self, who: str = HOST) -> list[str]:
        """The records `who` may open: the host every one of this game's folder, a seat the
        table's own only."""
        return self._names() if who == HOST else self.shared()

    def shared(self) -> list[str]:
        """The table's own records: the ones its seats may open."""
        return [name for name in self._names() if self._is_own(name)]

    def _names(self) -> list[str]:
        if not self.game_records.is_dir():
            return []
        return sorted(p.stem for p in self.game_records.glob("*.json"))

    def read_saved(self, name: str, who: str = HOST) -> dict[str, Any]:
        path = self.record_path(name)
        if not path.is_file() or (who != HOST and not self._is_own(path.stem)):
            raise TableError(f"no saved record '{name}' at this table", 404)
        return plain_record(records.read(path))

    def share(self, name: str) -> str:
        """The host opens a record of the folder to the table's seats (as each one's seat)."""
        path = self.record_path(name)
        if not path.is_file():
            raise TableError(f"no saved record '{name}'", 404)
        self.table.check_record(plain_record(records.read(path)))
        self._own(path)
        return path.stem

    def _own(self, path: Path) -> None:
        self.own[path.stem] = _digest(path)

    def _is_own(self, name: str) -> bool:
        digest = self.own.get(name)
        return digest is not None and digest == _digest(self.game_records / f"{name}.json")

    def save(self, name: str) -> str:
        """Write the table's record as `name`; never over one saved before (a seat could
        otherwise wipe out the positions others kept)."""
        path = self.record_path(name)
        if path.exists():
            raise TableError(f"a record '{path.stem}' is saved already: choose another name", 409)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise TableError(f"cannot save in {path.parent}: {err.strerror or err}", 500) from None
        self.table.save(path)
        self._own(path)
        return path.stem


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


# ------------------------------------------------------------------ the app


def create_app(server: TableServer) -> FastAPI:
    """The FastAPI app of one served table (no docs pages: they would load from a CDN)."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(Guard, allowed=host_check(*server.address), where=server.where)
    pages = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                        autoescape=select_autoescape(["html"]), keep_trailing_newline=True)

    @app.exception_handler(TableError)
    def refused(request: Request, err: TableError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=err.status)

    @app.exception_handler(records.RecordError)
    def bad_record(request: Request, err: records.RecordError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        what = first.get("msg", "malformed request").lower()
        return JSONResponse({"error": f"bad request: {where + ': ' if where else ''}{what}"},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        message = {404: "no such page", 405: "method not allowed"}.get(err.status_code, str(err.detail))
        return JSONResponse({"error": message}, status_code=err.status_code)

    @app.exception_handler(BodyTooLarge)
    def too_large(request: Request, err: BodyTooLarge) -> JSONResponse:
        """A chunked body past the limit: refused, and the connection closed, so the rest
        of it is never read."""
        return JSONResponse({"error": str(err.detail)}, status_code=413, headers={"Connection": "close"})

    @app.exception_handler(Exception)
    def internal(request: Request, err: Exception) -> JSONResponse:
        first = str(err).splitlines()[0] if str(err) else ""
        return JSONResponse({"error": f"internal error: {type(err).__name__}: {first}"}, status_code=500)

    def page(name: str, **values: Any) -> HTMLResponse:
        html = pages.get_template(name).render(**values)
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    # --------------------------------------------------------- pages
    @app.get("/", response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return page("index.html", title=server.table.meta.title or server.table.meta.game)

    @app.get("/seat/{token}", response_class=HTMLResponse)
    def seat_page(token: str) -> HTMLResponse:
        player = server.seat_of(token)
        return page("seat.html", token=token, title=server.table.meta.title or server.table.meta.game,
                    seat=server.table.label_of(player))

    @app.get("/replay/{token}", response_class=HTMLResponse)
    def replay_page(token: str) -> HTMLResponse:
        who = server.caller(token)
        host = who == HOST
        return page("replay.html", token=token, title=server.table.meta.title or server.table.meta.game,
                    seat="host" if host else server.table.label_of(who), host=host,
                    back=f"/{'host' if host else 'seat'}/{token}")

    @app.get("/host/{token}", response_class=HTMLResponse)
    def host_page(token: str) -> HTMLResponse:
        server.check_host(token)
        seats = [{"player": s.player, "label": server.table.label_of(s.player),
                  "agent": server.table.seats[s.player], "url": f"/seat/{t}"} for t, s in server.seats.items()]
        return page("host.html", token=token, title=server.table.meta.title or server.table.meta.game,
                    seats=seats)

    @app.get("/host/{token}/play")
    def hot_seat(token: str) -> Response:
        """Hot-seat: on to the page of the person the table waits for."""
        server.check_host(token)
        with server.lock:
            player = server.table.pending_player
            if not server.table.is_human(player):
                player = (server.table.humans() or server.table.players)[0]
        return RedirectResponse(f"/seat/{server.token_of(player)}?host={token}", status_code=303)

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response((HERE / "static" / "favicon.svg").read_bytes(), media_type="image/svg+xml")

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        path = HERE / "static" / name
        if not NAME.match(name) or path.suffix not in STATIC_TYPES or not path.is_file():
            raise TableError("no such file", 404)
        return Response(path.read_bytes(), media_type=STATIC_TYPES[path.suffix],
                        headers={"Cache-Control": "no-cache"})

    # --------------------------------------------------------- the seat's API
    @app.get("/api/{token}/view")
    def view(token: str) -> JSONResponse:
        player = server.seat_of(token)
        with server.lock:
            return JSONResponse(server.view(player))

    @app.get("/api/{token}/version")
    def version(token: str) -> dict[str, Any]:
        server.seat_of(token)
        return {"version": server.table.version}

    @app.get("/api/{token}/board")
    def board(token: str) -> JSONResponse:
        who = server.caller(token)
        return JSONResponse(server.board(server.table.players[0] if who == HOST else who))

    @app.post("/api/{token}/choose")
    def choose(token: str, move: Move) -> JSONResponse:
        player = server.seat_of(token)
        with server.lock:
            server.table.choose(player, move.option, move.version)
            if move.bots:
                server.table.run_bots()
            return JSONResponse(server.view(player))

    @app.post("/api/{token}/step")
    def step(token: str, body: Versioned) -> JSONResponse:
        """One move of the bot the table waits for (watching bots move by move)."""
        player = server.seat_of(token)
        with server.lock:
            waiting = server.table.pending_player
            if server.table.over:
                raise TableError("the game is over", 409)
            if server.table.is_human(waiting):
                raise TableError(f"the table waits for a person ({waiting}), not a bot", 409)
            server.table.bot_step(body.version)
            return JSONResponse(server.view(player))

    @app.post("/api/{token}/bots")
    def bots(token: str, body: Versioned) -> JSONResponse:
        """The bots play until a person must decide or the game ends."""
        player = server.seat_of(token)
        with server.lock:
            if body.version != server.table.version:
                raise TableError("stale request: the table has moved on; reload to see it", 409)
            server.table.run_bots()
            return JSONResponse(server.view(player))

    @app.post("/api/{token}/undo")
    def undo(token: str, body: Versioned) -> JSONResponse:
        player = server.seat_of(token)
        with server.lock:
            server.table.undo(player, body.version)
            return JSONResponse(server.view(player))

    @app.post("/api/{token}/save")
    def save(token: str, body: SaveRequest) -> dict[str, Any]:
        """The record is written on the server's disk, never sent: it holds every choice."""
        server.caller(token)
        with server.lock:
            return {"saved": server.save(body.name)}

    @app.get("/api/{token}/records")
    def saved(token: str) -> dict[str, Any]:
        """A seat: the table's own records; the host: every record of the game's folder, and
        which of them the seats may open."""
        who = server.caller(token)
        if who != HOST:
            return {"records": server.saved(who)}
        return {"records": server.saved(), "shared": server.shared()}

    @app.post("/api/{token}/share")
    def share(token: str, body: ShareRequest) -> dict[str, Any]:
        """The host lets the table's seats open a record (each as its own seat)."""
        server.host_only(token, "sharing a record with the seats")
        with server.lock:
            return {"shared": server.share(body.name)}

    @app.post("/api/{token}/load")
    def load(token: str, body: RecordRequest) -> dict[str, Any]:
        """The host replaces the table's game by a record's; every seat's page follows."""
        server.host_only(token, "loading a record into the table")
        record = _requested_record(server, body, HOST)
        with server.lock:
            server.table.load(record)
            table = server.table
            return {"version": table.version, "decisions": len(table.steps), "over": table.over,
                    "waiting_for": table.pending_player}

    # --------------------------------------------------------- the replay viewer
    @app.post("/api/{token}/replay")
    def open_replay(token: str, body: RecordRequest) -> dict[str, Any]:
        """A seat replays a saved record as itself; the host any record, as every seat."""
        who = server.caller(token)
        if body.record is not None:
            server.host_only(token, "opening an uploaded record")
        record = _requested_record(server, body, who)
        seated = server.table.meta.seated(record["params"])  # a record's params may seat fewer
        if who != HOST and who not in seated:
            raise TableError(f"this record has no seat {who}", 403)
        seats = seated if who == HOST else (who,)
        rid = secrets.token_urlsafe(12)
        with server.lock:
            server.replays[rid] = Replay(record, tuple(seats), who)
            while len(server.replays) > MAX_REPLAYS:  # the oldest go first
                del server.replays[next(iter(server.replays))]
        return {"replay": rid, "steps": len(record["choices"]), "seats": list(seats)}

    @app.get("/api/{token}/replay/{rid}")
    def replay_step(token: str, rid: str, step: int = 0, seat: str | None = None) -> JSONResponse:
        who = server.caller(token)
        replay = server.replays.get(rid)
        if replay is None or replay.owner != who:  # a replay is its opener's alone
            raise TableError("unknown replay: open the record again", 404)
        seat = seat or (who if who in replay.seats else replay.seats[0])
        if seat not in replay.seats:
            raise TableError(f"this replay shows only {', '.join(replay.seats)}'s view", 403)
        total = len(replay.record["choices"])
        if not 0 <= step <= total:
            raise TableError(f"step {step} is outside the record (0..{total})", 400)
        with server.lock:
            table = _replay_at(server, replay, step)
            payload = table.seat_view(seat)
        payload["replay"] = {"step": step, "steps": total, "seats": list(replay.seats), "seat": seat}
        return JSONResponse(payload)

    return app


def _requested_record(server: TableServer, body: RecordRequest, who: str) -> dict[str, Any]:
    """The saved or uploaded record a request names, checked against this table's game (a
    seat names only one of the table's own)."""
    if (body.name is None) == (body.record is None):
        raise TableError("give either the name of a saved record or a record", 400)
    if body.name is not None:
        record = server.read_saved(body.name, who)
    else:
        record = plain_record(records.validate(json.loads(json.dumps(body.record)), "the uploaded record"))
    server.table.check_record(record)
    return record


def _replay_at(server: TableServer, replay: Replay, step: int) -> Table:
    """The replay's table at `step`: stepped on from where it is, or rebuilt from the start."""
    table = replay.table
    choices = replay.record["choices"]
    if table is None or len(table.steps) > step:
        start = dict(plain_record(replay.record), choices=[])  # seated as the record says
        table = Table.from_record(start, server.table.game.program, spec_roots=server.table.spec_roots)
        replay.table = table
    table.advance(choices[len(table.steps):step])
    return table
