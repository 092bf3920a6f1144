"""What uvicorn would answer itself, answered as the API answers: the JSON error body of
graphmem.http.errors (docs/http.md, "Malformed requests and proxies"); and how long a
client may take to send a request, and how many connections may be open at once.

uvicorn parses HTTP before any middleware sees a request, and answers on its own what it
cannot parse ("Invalid HTTP request received.", plain text), a WebSocket upgrade (handed to
whichever WebSocket library is installed) and an application that fails before its response
starts ("Internal Server Error", plain text). ``serve`` passes these classes to uvicorn:

- ``JsonErrorsProtocol`` (``http=``): h11's parse errors as JSON: 400 ``input`` (exit code
  3) for a malformed request, 431 ``too_large`` (0) for a request line and headers past
  h11's limit, 501 ``input`` (3) for a transfer coding other than chunked; the connection
  is closed after each, as uvicorn does. It also puts ``FailuresAsJson`` around the
  application: a 500 ``internal`` (1) where uvicorn would write its plain-text one. And it
  keeps the deadlines of ``ConnectionLimits`` (408 ``timeout``) and their cap on open
  connections (503 ``busy``).
- ``WebSocketRefusal`` (``ws=``): every WebSocket upgrade is answered 400 ``input`` and
  closed: the API has no WebSocket route, and the upgrade would otherwise reach the app as
  a ``websocket`` scope, past the guard's Host and token checks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol
from uvicorn.server import ServerState

from graphmem.http.errors import error_body
from graphmem.http.guard import App, Message, Receive, Scope, Send

log = logging.getLogger("graphmem.http")

# h11 quotes the offending bytes in some of its reasons ("illegal request line: b'...'"):
# the answer keeps the reason, not the client's bytes echoed back.
_QUOTED = re.compile(r":? (?:bytearray\()?b['\"].*", re.DOTALL)
_WEBSOCKET = "this server does not speak WebSocket: send plain HTTP/1.1 requests (docs/http.md)"
_BUSY_LOG_EVERY = 60.0  # seconds between two log lines about refused connections


def _answer(
    status: int, kind: str, exit_code: int, message: str, hint: str | None = None
) -> tuple[h11.Response, bytes]:
    """The head (``connection: close``) and the body of an error in JSON."""
    payload = json.dumps(error_body(kind, exit_code, message, hint)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),
    ]
    if status == 503:  # busy: nothing was done, a retry a second later may be served
        headers.append((b"retry-after", b"1"))
    return h11.Response(status_code=status, headers=headers, reason=STATUS_PHRASES[status]), payload


def parse_refusal(error: BaseException | None, limit: int) -> tuple[int, str, int, str]:
    """Status, kind, exit code and message for an h11 error (None: a plain 400)."""
    hint = getattr(error, "error_status_hint", 400)
    if hint == 431:  # h11's only 431: its receive buffer passed ``limit`` mid-request
        message = f"the request line and headers are larger than {limit:,} bytes"
        return 431, "too_large", 0, message
    reason = _QUOTED.sub("", str(error or "")).strip()[:120] or "unreadable"
    if hint == 501:  # a Transfer-Encoding other than chunked, or more than one
        return 501, "input", 3, f"{reason} (send a Content-Length or a chunked body)"
    return 400, "input", 3, f"malformed HTTP/1.1 request: {reason}"


def _head_size(scope: Mapping[str, Any]) -> int:
    """About the bytes of a request's line and headers, from what uvicorn parsed of them."""
    line = len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) + 16
    return line + sum(len(name) + len(value) + 4 for name, value in scope.get("headers", ()))


@dataclass(frozen=True)
class ConnectionLimits:
    """What a connection may cost (the defaults: the settings' api_header_timeout_seconds,
    api_body_timeout_seconds, api_max_connections)."""

    header_timeout: float = 10.0  # request line and headers, from the connection's start
    body_timeout: float = 30.0  # the whole body, from the end of its headers
    max_connections: int = 256  # open at once; past it, each new one is answered 503


class _Throttled:
    """A log line about refused connections at most every ``_BUSY_LOG_EVERY`` seconds: a
    flood of them would otherwise be a flood of lines."""

    last = 0.0
    count = 0

    @classmethod
    def refused(cls, limit: int) -> None:
        cls.count += 1
        now = time.monotonic()
        if now - cls.last >= _BUSY_LOG_EVERY:
            log.warning(
                "%d connection(s) refused since the last such line: %d open already "
                "(GRAPHMEM_API_MAX_CONNECTIONS)",
                cls.count,
                limit,
            )
            cls.last, cls.count = now, 0


class JsonErrorsProtocol(H11Protocol):
    """uvicorn's h11 protocol with its own answers in JSON, deadlines for slow clients and
    a cap on open connections.

    h11, not uvicorn's default "auto": auto takes httptools when it is installed (it comes
    with ``uvicorn[standard]``), a different parser that accepts and refuses other requests,
    each refusal a plain 400 from another class (no 431, no reason). Pinned, the server
    answers the same whatever else is installed, and this class sees every refusal.

    Deadlines: uvicorn sets no timer until a response is sent (its keep-alive timer only
    watches a connection that has received nothing since), so a client that sends nothing,
    or half a request, would hold its connection for ever. Here a request's line and
    headers must arrive within ``header_timeout`` of the connection's start or of the
    previous response's end, and its body within ``body_timeout`` of its headers; past
    either, a 408 ``timeout`` (when no response has started) and the connection closed.
    Neither deadline moves when bytes arrive: a client dripping a byte a second gains
    nothing. The application's own time (from the body's end to the response's) has none.

    The cap is counted here, when a connection is accepted, not by uvicorn's
    ``limit_concurrency``: that one answers in plain text, and only once the request has
    arrived, so that connections sending nothing would still each hold a descriptor."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()

    @classmethod
    def with_limits(cls, limits: ConnectionLimits) -> type[JsonErrorsProtocol]:
        """This class with ``limits``: uvicorn builds its protocols itself, from a class."""
        return cast("type[JsonErrorsProtocol]", type(cls.__name__, (cls,), {"limits": limits}))

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.app = FailuresAsJson(self.app)  # outside uvicorn's proxy-headers middleware
        size = config.h11_max_incomplete_event_size
        self._limit = DEFAULT_MAX_INCOMPLETE_EVENT_SIZE if size is None else size
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting: str | None = None  # what the deadline is for: "head" or "body"
        self._answered = False  # a response completed: waiting since is keep-alive

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # counted in self.connections from here
        cap = self.limits.max_connections
        if len(self.connections) > cap:
            # Answered before the request is read, so that the descriptor is given back at
            # once; Linux keeps the answer readable for a client still sending its request.
            _Throttled.refused(cap)
            self._refuse(
                503,
                "busy",
                0,
                f"the server has {cap:,} connections open already; retry in 1 s",
                "close idle connections, or raise GRAPHMEM_API_MAX_CONNECTIONS",
            )
            return
        self._arm("head")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        """uvicorn's, then the deadline the connection is now under: a new cycle means a
        request's head was read (uvicorn makes one per request)."""
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:
            self._disarm()
            if self.cycle is not None and _head_size(self.cycle.scope) > self._limit:
                # h11 bounds only a head that arrives in pieces; one read whole (up to
                # asyncio's 256 KiB read) is parsed: the same bound, whatever the pieces.
                message = f"the request line and headers are larger than {self._limit:,} bytes"
                self._refuse(431, "too_large", 0, message)
                return
            if self.conn.their_state is h11.SEND_BODY:
                self._arm("body")
        elif self._waiting == "body" and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()  # the body's end arrived

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()  # the connection is WebSocketRefusal's from here
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        """The next head's deadline runs from here, armed before uvicorn's own handling:
        that reads a pipelined request at once (and handle_events disarms it again)."""
        self._disarm()
        self._answered = True
        if not self.transport.is_closing():
            self._arm("head")
        super().on_response_complete()

    def send_400_response(self, msg: str) -> None:
        """uvicorn calls this from its ``except h11.RemoteProtocolError`` (the parse error
        it does not pass on): ``sys.exception()`` is that error, with h11's reason and
        status hint. Said as JSON instead of uvicorn's plain text."""
        self._refuse(*parse_refusal(sys.exception(), self._limit))

    def _refuse(
        self, status: int, kind: str, code: int, message: str, hint: str | None = None
    ) -> None:
        """An error in JSON if no response has started, then the connection closed."""
        self._disarm()
        # A response may still be sent before ours starts (h11 allows it after the
        # client's error, and before any request); once one is under way, only closing
        # the connection says it.
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            head, payload = _answer(status, kind, code, message, hint)
            for event in (head, h11.Data(data=payload), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event) or b"")
        if self.cycle is not None and not self.cycle.response_complete:
            # A request read before the error (a bad chunk in its body, a body too slow)
            # has the app running: what connection_lost will tell it, now, before it answers
            # too (h11 would raise on a second response, and uvicorn log a traceback).
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()

    def _head_late(self) -> None:
        self._deadline = self._waiting = None
        if self.transport.is_closing():
            return
        started = bool(self.conn.trailing_data[0])  # part of a request line or headers
        if self.conn.our_state is h11.IDLE and (started or not self._answered):
            late = self.limits.header_timeout
            message = f"the request line and headers did not arrive within {late:g} s"
            self._refuse(408, "timeout", 0, message, "send the whole request at once")
        else:
            # Idle since a response (or still sending a body the app did not read): closed
            # quietly, as uvicorn's keep-alive timer does; a 408 here could be read as the
            # answer to a request the client is sending at this moment.
            self.transport.close()

    def _body_late(self) -> None:
        self._deadline = self._waiting = None
        if self.transport.is_closing():
            return
        late = self.limits.body_timeout
        message = f"the request body did not arrive within {late:g} s of its headers"
        self._refuse(408, "timeout", 0, message, "send the whole request at once")

    def _arm(self, waiting: str) -> None:
        self._disarm()
        if waiting == "head":
            self._deadline = self.loop.call_later(self.limits.header_timeout, self._head_late)
        else:
            self._deadline = self.loop.call_later(self.limits.body_timeout, self._body_late)
        self._waiting = waiting

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self._waiting = None


class WebSocketRefusal(asyncio.Protocol):
    """What uvicorn hands a WebSocket upgrade to (``ws=``): a 400 in JSON, then the
    connection closed. A protocol of its own, so that no WebSocket library is needed or
    used, and an upgrade never reaches the application."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        """``data``: the upgrade request, re-serialised by uvicorn; its content is moot."""
        if self.transport is None or self.transport.is_closing():
            return
        conn = h11.Connection(h11.SERVER)
        conn.receive_data(data)
        head, payload = _answer(400, "input", 3, _WEBSOCKET)
        try:
            conn.next_event()  # h11 sends a response only to a request it has read
            events = (head, h11.Data(data=payload), h11.EndOfMessage())
            out = b"".join(conn.send(e) or b"" for e in events)
        except h11.ProtocolError:  # cannot happen for uvicorn's own re-serialisation
            out = b""
        assert isinstance(self.transport, asyncio.WriteTransport)
        self.transport.write(out)
        self.transport.close()


class FailuresAsJson:
    """Around the application: where uvicorn would write its plain-text 500 (the app raised,
    or returned, before a response started), a JSON 500 ``internal``. After a response has
    started the exception goes on to uvicorn, which logs it and closes the connection (the
    only way left to say the answer is cut short)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = gone = False

        async def watched_receive() -> Message:
            nonlocal gone
            message = await receive()
            gone = gone or message["type"] == "http.disconnect"
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, watched_receive, watched_send)
        except Exception:
            if started:
                raise
            log.exception("unexpected error before a response")
            await _internal(send)
            return
        if not started and not gone:
            log.error("the application returned without a response")
            await _internal(send)


async def _internal(send: Send) -> None:
    payload = json.dumps(
        error_body("internal", 1, "internal error", "the server's log has the details")
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 500, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
