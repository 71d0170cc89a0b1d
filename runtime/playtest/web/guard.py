"""What the web table refuses before any route sees a request: another Host than its own
address (a page of another site whose name was made to point at this machine, DNS
rebinding, would otherwise reach the table) and a body over MAX_BODY (413, never read in full).

A pure ASGI middleware, so a refusal costs no parsing and no reading of the body.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any, Awaitable, Callable

from starlette.exceptions import HTTPException

MAX_BODY = 1024 * 1024  # bytes: a record of a whole long game is a few hundred KB
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")


class BodyTooLarge(HTTPException):
    """A request body without a Content-Length grew past MAX_BODY while it was read (an
    HTTPException, so FastAPI's body parsing lets it through as a 413)."""

    def __init__(self, limit: int):
        super().__init__(413, too_large(limit))


def host_check(bind: str, port: int) -> Callable[[str], bool]:
    """Whether a Host header names this table: a loopback name or the address it listens on,
    with its port (any IP address too when it listens on every interface: rebinding needs a
    name, never a number)."""
    own = f"[{bind}]" if ":" in bind else bind.lower()
    names = set(LOOPBACK_NAMES) | {own}
    wildcard = bind in WILDCARDS

    def allowed(header: str) -> bool:
        name, given = split_host(header.strip().lower())
        if given != str(port) and not (given is None and port == 80):
            return False
        return name in names or (wildcard and _is_address(name))
    return allowed


def split_host(header: str) -> tuple[str, str | None]:
    """'localhost:8000' → ('localhost', '8000'); '[::1]:80' → ('[::1]', '80'); no port: None."""
    if header.startswith("["):
        end = header.find("]") + 1
        rest = header[end:]
        return header[:end], rest[1:] if rest.startswith(":") else None
    name, colon, port = header.partition(":")
    return name, port if colon else None


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class Guard:
    """The ASGI app `app` behind the two refusals; `allowed` says whether a Host header is ours."""

    def __init__(self, app: Any, allowed: Callable[[str], bool], where: Callable[[], str],
                 limit: int = MAX_BODY):
        self.app, self.allowed, self.where, self.limit = app, allowed, where, limit

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[dict]],
                       send: Callable[[dict], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get(b"host", "")
        if not self.allowed(host):
            shown = host[:60].encode("ascii", "replace").decode()
            await refuse(send, 403, f"this table answers only at {self.where()}, not at '{shown}'"
                                    f" (the Host header names another address)")
            return
        length = headers.get(b"content-length")
        if length is not None:
            if not length.strip().isdigit():
                await refuse(send, 400, "bad request: the Content-Length is not a number")
                return
            if int(length) > self.limit:
                await refuse(send, 413, too_large(self.limit))
                return
        await self.app(scope, self._counted(receive), send)

    def _counted(self, receive: Callable[[], Awaitable[dict]]) -> Callable[[], Awaitable[dict]]:
        """`receive`, stopped with BodyTooLarge once the body passes the limit (a chunked body)."""
        read = 0

        async def counted() -> dict:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.limit:
                    raise BodyTooLarge(self.limit)
            return message
        return counted


def too_large(limit: int) -> str:
    return f"the request is larger than {limit // 1024 // 1024} MB: the table takes no more"


async def refuse(send: Callable[[dict], Awaitable[None]], status: int, message: str) -> None:
    """A one-line JSON refusal; the connection closes, so an unread body is never read."""
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
