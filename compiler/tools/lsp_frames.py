"""How `rulespec lsp` reads the editor's messages: Language Server Protocol frames, each headers
up to an empty line then Content-Length bytes of JSON, read so that no input ends in a traceback.

pygls's own loop trusts the stream: `Content-Length: 99999999999999999999` ended in an
OverflowError, a body that is not JSON printed the library's traceback. Here a body that is not a
JSON-RPC message gets a JSON-RPC error back and one line on stderr, and the server reads on; a
header no editor sends (no length, not a number, more than MAX_FRAME bytes, a line without end)
is one line on stderr and the end of the server, since where the next frame starts is unknown.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from typing import Any, BinaryIO

from pygls.io_ import StdoutWriter

MAX_FRAME = 64 * 1024 * 1024  # bytes of one message: far more than any spec file an editor sends
MAX_HEADER = 4096  # bytes of one header line
PARSE_ERROR, INVALID_REQUEST = -32700, -32600  # JSON-RPC 2.0 error codes


class FrameError(Exception):
    """A frame the server cannot read past: one line, and the server stops."""


class OneLine(logging.Formatter):
    """The library's log records as one line each, never with a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        lines = record.getMessage().strip().splitlines() or [""]
        text = " ".join(lines[0].split())  # pygls puts tracebacks in some messages: not those
        return f"rulespec lsp: {record.levelname.lower()}: {text[:300]}"


def quiet_library_logs() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    handler.setLevel(logging.WARNING)
    for name in ("pygls", "lsprotocol"):
        log = logging.getLogger(name)
        log.handlers[:] = [handler]
        log.propagate = False


def note(text: str) -> None:
    print(f"rulespec lsp: {text}", file=sys.stderr, flush=True)


def content_length(headers: list[bytes]) -> int:
    """The body length the headers state; FrameError unless it is a number up to MAX_FRAME."""
    for line in headers:
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() == b"content-length":
            digits = value.strip()
            shown = digits[:40].decode("ascii", "replace")
            if not (digits.isascii() and digits.isdigit()):
                raise FrameError(f"a frame's Content-Length is not a number of bytes: {shown!r}")
            if len(digits) > 12 or int(digits) > MAX_FRAME:
                raise FrameError(f"a frame of {shown} bytes, more than the {MAX_FRAME:,} one"
                                 f" message may hold")
            length = int(digits)
            return length
    raise FrameError("a frame without a Content-Length header")


def read_headers(stdin: BinaryIO) -> list[bytes] | None:
    """The header lines of the next frame (None at the end of the input)."""
    headers: list[bytes] = []
    while True:
        line = stdin.readline(MAX_HEADER + 1)
        if not line:
            return None if not headers else _cut_short()
        if not line.endswith(b"\n"):
            if len(line) > MAX_HEADER:
                raise FrameError(f"a header line longer than {MAX_HEADER:,} bytes")
            return _cut_short()
        if not line.strip():
            if headers:
                return headers
            continue  # blank lines between frames
        headers.append(line.rstrip(b"\r\n"))


def _cut_short() -> None:
    raise FrameError("the input ended inside a frame's headers")


def read_frame(stdin: BinaryIO) -> bytes | None:
    """The body of the next frame (None at the end of the input)."""
    headers = read_headers(stdin)
    if headers is None:
        return None
    length = content_length(headers)
    body = stdin.read(length)
    if len(body) < length:
        raise FrameError(f"the input ended {length - len(body):,} bytes short of a frame's body")
    return body


def handle(protocol: Any, body: bytes) -> None:
    """One body: to the protocol when it is a JSON-RPC message, else an error back."""
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except ValueError as err:  # not JSON, or not UTF-8
        reply_error(protocol, PARSE_ERROR, f"the message is not JSON-RPC: {err}")
        return
    except Exception:  # noqa: BLE001 - JSON whose fields have the wrong types
        # pygls has logged its one line ("Unable to deserialize message"): none more here
        reply_error(protocol, INVALID_REQUEST, "the message is not JSON-RPC: a field of the"
                                               " wrong type", say=False)
        return
    if not hasattr(message, "jsonrpc"):
        reply_error(protocol, INVALID_REQUEST, "the message is not a JSON-RPC request,"
                                               " response or notification")
        return
    try:
        protocol.handle_message(message)
    except Exception as err:  # noqa: BLE001 - one message must not end the server
        reply_error(protocol, INVALID_REQUEST, f"the message cannot be handled: {err}")


def reply_error(protocol: Any, code: int, message: str, say: bool = True) -> None:
    message = " ".join(message.split())[:300]
    if say:
        note(f"error: {message}")
    protocol._send_data({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}})


def one_line_loop_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's unhandled errors as one line each, never a traceback. A handler cancelled
    because the input ended (a check still running, a pause before one) is the server ending as
    asked: nothing to say."""
    error = context.get("exception")
    if isinstance(error, asyncio.CancelledError):
        return
    detail = f": {type(error).__name__}: {error}" if error is not None else ""
    note(" ".join(f"error: {context.get('message', 'unexpected error')}{detail}".split())[:300])


async def read_frames(server: Any, stdin: BinaryIO) -> None:
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(one_line_loop_errors)
    while not server._stop_event.is_set():
        body = await loop.run_in_executor(server.thread_pool, read_frame, stdin)
        if body is None:
            return
        handle(server.protocol, body)


def start_io(server: Any, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Serve on stdin/stdout as pygls's start_io does, reading frames as above; FrameError
    when a frame cannot be read past."""
    quiet_library_logs()
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    try:
        asyncio.run(read_frames(server, stdin or sys.stdin.buffer))
    except BrokenPipeError:
        pass
    finally:
        server.shutdown()
