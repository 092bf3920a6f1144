"""What uvicorn would answer itself, answered as the API answers: the JSON error body of
graphmem.http.errors (docs/http.md, "Malformed requests and proxies").

uvicorn parses HTTP before any middleware sees a request, and answers on its own what it
cannot parse ("Invalid HTTP request received.", plain text), a WebSocket upgrade (handed to
whichever WebSocket library is installed) and an application that fails before its response
starts ("Internal Server Error", plain text). ``serve`` passes these classes to uvicorn:

- ``JsonErrorsProtocol`` (``http=``): h11's parse errors as JSON: 400 ``input`` (exit code
  3) for a malformed request, 431 ``too_large`` (0) for a request line and headers past
  h11's limit, 501 ``input`` (3) for a transfer coding other than chunked; the connection
  is closed after each, as uvicorn does. It also puts ``FailuresAsJson`` around the
  application: a 500 ``internal`` (1) where uvicorn would write its plain-text one.
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
from typing import Any

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


def _answer(status: int, kind: str, exit_code: int, message: str) -> tuple[h11.Response, bytes]:
    """The head (``connection: close``) and the body of an error in JSON."""
    payload = json.dumps(error_body(kind, exit_code, message)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),
    ]
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


class JsonErrorsProtocol(H11Protocol):
    """uvicorn's h11 protocol with its own answers in JSON.

    h11, not uvicorn's default "auto": auto takes httptools when it is installed (it comes
    with ``uvicorn[standard]``), a different parser that accepts and refuses other requests,
    each refusal a plain 400 from another class (no 431, no reason). Pinned, the server
    answers the same whatever else is installed, and this class sees every refusal."""

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

    def send_400_response(self, msg: str) -> None:
        """uvicorn calls this from its ``except h11.RemoteProtocolError`` (the parse error
        it does not pass on): ``sys.exception()`` is that error, with h11's reason and
        status hint. Said as JSON instead of uvicorn's plain text."""
        status, kind, code, message = parse_refusal(sys.exception(), self._limit)
        # A response may still be sent before ours starts (h11 allows it after the
        # client's error); once ours is under way, only closing the connection says it.
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            head, payload = _answer(status, kind, code, message)
            for event in (head, h11.Data(data=payload), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event) or b"")
        if self.cycle is not None and not self.cycle.response_complete:
            # A request read before the error (a bad chunk in its body) has the app running:
            # what connection_lost will tell it, now, before it answers too (h11 would raise
            # on a second response, and uvicorn log a traceback for each such request).
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()


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
