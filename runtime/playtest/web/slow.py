"""The web table's limits on slow and idle clients, as uvicorn's own settings.

uvicorn closes a connection left idle between requests (`timeout_keep_alive`),
caps the connections it serves at once (`limit_concurrency`: past it, a 503) and
the size of a request head (`h11_max_incomplete_event_size`: past it, a 400). It
sets no deadline for the head itself: a client that sends a header byte now and
then keeps its connection for ever, since each byte restarts the idle timer. So
the table runs uvicorn's h11 protocol with one addition, a deadline for each
request head that bytes do not restart (uvicorn's `http` setting takes the class).
"""

from __future__ import annotations

from typing import Any

KEEP_ALIVE = 5  # seconds: a connection idle between requests is closed (uvicorn's default)
HEAD_DEADLINE = 10  # seconds: a request head not complete by then closes its connection
MAX_CONNECTIONS = 256  # connections and requests at once; past it uvicorn answers 503
MAX_HEAD = 16 * 1024  # bytes of a request's line and headers; past it uvicorn answers 400


def settings(head_deadline: float = HEAD_DEADLINE, keep_alive: int = KEEP_ALIVE) -> dict[str, Any]:
    """The keyword arguments of uvicorn.Config that set the table's limits."""
    return dict(http=_protocol(head_deadline), timeout_keep_alive=keep_alive,
                limit_concurrency=MAX_CONNECTIONS, h11_max_incomplete_event_size=MAX_HEAD)


def _protocol(deadline: float) -> type:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadDeadline(H11Protocol):
        """uvicorn's h11 protocol; a connection whose next request head is not complete
        `deadline` seconds after it opened or after its last response is closed."""

        head_timer = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_head_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._start_head_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head_deadline()
            super().connection_lost(exc)

        def _start_head_deadline(self) -> None:
            self._stop_head_deadline()
            self.head_timer = self.loop.call_later(deadline, self._head_late)

        def _stop_head_deadline(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_late(self) -> None:
            self.head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()  # no request under way: nothing to answer

    return HeadDeadline
