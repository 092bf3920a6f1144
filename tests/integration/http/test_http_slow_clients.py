"""Issue 62, `graphmem serve` against slow clients, over raw sockets to a real server: a
request's head and body must arrive within their deadlines (408 JSON), an idle kept-alive
connection is closed, and connections past GRAPHMEM_API_MAX_CONNECTIONS get a JSON 503
(docs/http.md, "Malformed requests and proxies")."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from graphmem.graph.store import GraphStore

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
from benchmarks.http_load import Served, serve  # noqa: E402
from tests.integration.http.test_http_transport import (  # noqa: E402
    _exchange,
    _get,
    _json_error,
    _port,
    _spend,
)

pytestmark = pytest.mark.integration


# Slow clients: a request's head within 1 s (of the connection's start or of the previous
# response's end), its body within 3 s of the head, so that a 408 after more than 2 s is
# the body's deadline and not the head's.
DEADLINES = {"GRAPHMEM_API_HEADER_TIMEOUT_SECONDS": "1", "GRAPHMEM_API_BODY_TIMEOUT_SECONDS": "3"}


@pytest.fixture(scope="module")
def hurried(store: GraphStore) -> Iterator[Served]:
    with serve("--spaces", "nobody-here", env=DEADLINES) as running:
        yield running


def _timed(port: int, request: bytes, drip: float = 0) -> tuple[float, tuple[int, Any, bytes]]:
    """``_exchange`` with the seconds until the server closed; ``drip``: ``request`` sent
    one byte every ``drip`` seconds (a slow-loris client, never done in the time)."""
    started = time.monotonic()
    if not drip:
        answer = _exchange(port, request, timeout=15)
        return time.monotonic() - started, answer
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        stop = threading.Event()

        def trickle() -> None:
            for byte in request:
                if stop.wait(drip):
                    return
                with contextlib.suppress(OSError):
                    sock.sendall(bytes([byte]))

        threading.Thread(target=trickle, daemon=True).start()
        received = _until_closed(sock)
        stop.set()
    return time.monotonic() - started, _parsed(received)


def _until_closed(sock: socket.socket) -> bytes:
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            received += chunk
    return received


def _parsed(received: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 "), received[:200]
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split(" ")[1]), headers, body


def _one_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One answer on a kept-alive connection (by its Content-Length), the socket left open."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    status, headers, body = _parsed(received)
    while len(body) < int(headers["content-length"]):
        body += sock.recv(65536)
    return status, headers, body


def _timed_out(answer: tuple[int, dict[str, str], bytes], what: str) -> None:
    assert answer[0] == 408, answer
    body = _json_error(answer)
    assert body["error"] == "timeout" and body["exit_code"] == 0, body
    assert what in body["message"], body
    assert answer[1]["connection"] == "close"


SLOW_HEADS = {
    "nothing": lambda port: (b"", 0.0),
    "half a request line": lambda port: (b"GET /hea", 0.0),
    "half the headers": lambda port: (_get(port)[:-10], 0.0),
    "a byte every 0.3 s": lambda port: (_get(port), 0.3),
}


@pytest.mark.parametrize("case", list(SLOW_HEADS))
def test_a_head_not_sent_in_time_gets_a_json_408(hurried: Served, case: str) -> None:
    port = _port(hurried)
    request, drip = SLOW_HEADS[case](port)
    took, answer = _timed(port, request, drip)
    _timed_out(answer, "request line and headers did not arrive within 1 s")
    assert 0.8 < took < 4, took  # the deadline, not the socket's 15 s; a drip gains nothing
    assert httpx.get(f"{hurried.base}/health").status_code == 200


def test_a_body_not_sent_in_time_gets_a_json_408(hurried: Served) -> None:
    """/health is open: the guard reads its body, 10 of the 100 bytes announced."""
    port = _port(hurried)
    head = _get(port, "Content-Length: 100").replace(b"GET", b"POST", 1)
    took, answer = _timed(port, head + b"0123456789")
    _timed_out(answer, "request body did not arrive within 3 s of its headers")
    assert 2.8 < took < 7, took  # the body's deadline, not the head's 1 s
    assert httpx.get(f"{hurried.base}/health").status_code == 200


def test_a_kept_alive_connection_is_closed_when_idle_or_slow(hurried: Served) -> None:
    """After an answer, the connection stays open for the next request: closed quietly when
    nothing comes (as uvicorn's keep-alive does), 408 when half of a next request does."""
    port = _port(hurried)
    for then, answered in ((b"", False), (b"GET /hea", True)):
        with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
            sock.sendall(_get(port))
            status, headers, _ = _one_answer(sock)
            assert status == 200 and "connection" not in headers, headers  # kept alive
            started = time.monotonic()
            sock.sendall(then)
            received = _until_closed(sock)
            took = time.monotonic() - started
        assert took < 7, took  # the head's 1 s (uvicorn's keep-alive: 5 s), not the socket's
        if answered:
            _timed_out(_parsed(received), "did not arrive within 1 s")
        else:
            assert received == b"", received


def test_connections_past_the_cap_get_a_json_503(store: GraphStore) -> None:
    with serve("--spaces", "nobody-here", env={"GRAPHMEM_API_MAX_CONNECTIONS": "2"}) as running:
        port = _port(running)
        held = [socket.create_connection(("127.0.0.1", port), timeout=15) for _ in range(2)]
        try:
            for sock in held:  # answered: counted by the server, then kept alive
                sock.sendall(_get(port))
                assert _one_answer(sock)[0] == 200
            for _ in range(3):
                answer = _exchange(port, _get(port))
                assert answer[0] == 503, answer
                body = _json_error(answer)
                assert body["error"] == "busy" and body["exit_code"] == 0, body
                assert "2 connections" in body["message"], body
                assert answer[1]["retry-after"] == "1" and answer[1]["connection"] == "close"
        finally:
            for sock in held:
                sock.close()
        deadline = time.monotonic() + 10  # the server sees the two close, then serves again
        while (status := _spend(running.base)[0]) == 503 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status == 200
