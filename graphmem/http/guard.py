"""What every request passes before a route sees it: the Host header, the bearer token,
the client's rate and the body's size. A plain ASGI middleware, so a refusal costs no
parsing and no thread.

- The ``Host`` header must name the bound address (``127.0.0.1:PORT``, ``localhost:PORT``
  or ``[::1]:PORT``), else 400: a web page whose name was re-pointed at 127.0.0.1 (DNS
  rebinding) sends its own name, and is refused before any route, ``/health`` included.
- Every path but ``/health`` needs ``Authorization: Bearer <token>`` (401 otherwise); the
  token is compared in constant time; the scheme's case does not matter (RFC 9110).
- A token bucket per client (its address and whether it showed the token; every loopback
  address is one client, as the server listens on 127.0.0.1 only): ``rate``
  requests a second sustained, ``burst`` at once; an empty bucket answers 429 with
  ``Retry-After``.
- A body longer than ``max_body`` bytes is refused with 413 before it is parsed: by its
  ``Content-Length`` when given, else as soon as the streamed bytes pass the limit.
"""

from __future__ import annotations

import ipaddress
import json
import math
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from graphmem.http.errors import error_body

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

OPEN_PATHS = frozenset({"/health"})
_MAX_CLIENTS = 1024  # buckets kept; full ones are dropped past it


@dataclass
class Bucket:
    tokens: float
    stamp: float = field(default_factory=time.monotonic)


class RateLimiter:
    """Token buckets keyed by client. Runs on the event loop only: no lock needed."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, Bucket] = {}

    def wait(self, client: str) -> float:
        """0 when ``client`` may go now (a token is spent), else the seconds until it may."""
        now = time.monotonic()
        bucket = self._buckets.get(client)
        if bucket is None:
            self._prune(now)
            bucket = self._buckets[client] = Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def _prune(self, now: float) -> None:
        if len(self._buckets) < _MAX_CLIENTS:
            return
        full = [
            key
            for key, b in self._buckets.items()
            if b.tokens + (now - b.stamp) * self.rate >= self.burst
        ]
        for key in full:
            del self._buckets[key]


class Guard:
    """Token, rate and body size in front of ``app``."""

    def __init__(self, app: App, *, token: str, limiter: RateLimiter, max_body: int) -> None:
        self.app = app
        self._token = token.encode()
        self.limiter = limiter
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not _host_allowed(scope):
            await _refuse(
                send,
                400,
                "bad_host",
                "the Host header does not name this server",
                hint="send the request to http://127.0.0.1:PORT or http://localhost:PORT",
            )
            return
        authorised = self._authorised(scope)
        wait = self.limiter.wait(f"{_client(scope)} {'token' if authorised else 'none'}")
        if wait > 0:
            retry = str(math.ceil(wait))
            message = f"more than {self.limiter.rate:g} requests a second; retry in {retry} s"
            await _refuse(send, 429, "rate_limited", message, [(b"retry-after", retry.encode())])
            return
        if not authorised and scope["path"] not in OPEN_PATHS:
            await _refuse(
                send,
                401,
                "unauthorized",
                "missing or wrong bearer token",
                [(b"www-authenticate", b"Bearer")],
                hint="send 'Authorization: Bearer <token>' with the token of "
                "$GRAPHMEM_HOME/secrets/api-token",
            )
            return
        body = await self._body(scope, receive, send)
        if body is None:
            return
        await self.app(scope, _replay(body, receive), send)

    def _authorised(self, scope: Scope) -> bool:
        given = [v for k, v in scope["headers"] if k == b"authorization"]
        if len(given) != 1:  # none, or two (RFC 9110 allows one): which would count?
            return False
        scheme, _, credentials = given[0].strip().partition(b" ")
        if scheme.lower() != b"bearer":
            return False
        return secrets.compare_digest(credentials.strip(), self._token)

    async def _body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once a 413 was sent."""
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await self._too_large(send)
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._too_large(send)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _too_large(self, send: Send) -> None:
        message = f"the request body is larger than {self.max_body:,} bytes"
        await _refuse(send, 413, "too_large", message, hint="raise GRAPHMEM_API_MAX_BODY_BYTES")


def _client(scope: Scope) -> str:
    """The rate limit's client: the peer's address, or the forwarded client's when the peer
    is one of GRAPHMEM_API_TRUSTED_PROXIES (uvicorn's proxy-headers middleware puts it in
    ``scope["client"]``). Every loopback address is the same client, a forwarded one too:
    it is a client on this machine, and a local client could otherwise spread its requests
    over 127.0.0.2, 127.0.0.3, ... (or name them in the header a local proxy appends to)."""
    host = str((scope.get("client") or ("unknown", 0))[0])
    try:
        return "loopback" if ipaddress.ip_address(host).is_loopback else host
    except ValueError:  # not an address (a test client's name): itself
        return host


def _host_allowed(scope: Scope) -> bool:
    """Whether the Host header names the address the server is bound to, with its port."""
    shown = next((v for k, v in scope["headers"] if k == b"host"), None)
    server = scope.get("server")
    if shown is None or not server:
        return False
    name, port = str(server[0]), server[1]
    names = {name, "127.0.0.1", "localhost", "[::1]"}
    allowed = {f"{n}:{port}" for n in names}
    if port in (80, None):  # the default port may be left out of the header
        allowed |= names
    return shown.decode("latin-1").lower() in allowed


def _replay(body: bytes, then: Receive) -> Receive:
    """The body read already, then the connection's own messages (its disconnect)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await then()

    return receive


async def _refuse(
    send: Send,
    status: int,
    kind: str,
    message: str,
    headers: list[tuple[bytes, bytes]] | None = None,
    hint: str | None = None,
) -> None:
    payload = json.dumps(error_body(kind, 0, message, hint)).encode()
    head = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        *(headers or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": payload})
