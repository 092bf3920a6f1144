"""Issue 62, `graphmem serve` below the application: what uvicorn itself answers (a request it
cannot parse, a WebSocket upgrade, an application that fails before a response) comes back
as the API's JSON error body, over raw sockets to a real server; and the rate limit's client
is X-Forwarded-For's only when the request comes from an address of
GRAPHMEM_API_TRUSTED_PROXIES (docs/http.md, "Malformed requests and proxies")."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from graphmem.graph.store import GraphStore

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
from benchmarks.http_load import ROOT, Served, free_port, serve  # noqa: E402

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def served(store: GraphStore) -> Iterator[Served]:
    with serve("--spaces", "nobody-here") as running:
        yield running


def _exchange(port: int, request: bytes, timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
    """``request`` as raw bytes; the status, headers and body of the answer, read until the
    server closes the connection. Sent from a thread: a server that answers before it has
    read everything (a 1 MB header) must not leave the reader blocked behind the writer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:

        def write() -> None:
            # OSError: the server answered and closed before reading it all
            with contextlib.suppress(OSError):
                sock.sendall(request)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except ConnectionResetError:  # closed with our bytes unread: what came first counts
            pass
        writer.join(timeout)
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 "), received[:200]
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split(" ")[1]), headers, body


def _json_error(answer: tuple[int, dict[str, str], bytes]) -> dict[str, Any]:
    _, headers, body = answer
    assert headers["content-type"] == "application/json", headers
    assert headers.get("content-length") == str(len(body)), headers
    payload: dict[str, Any] = json.loads(body)
    assert set(payload) == {"error", "exit_code", "message", "hint"}, payload
    assert len(payload["message"]) < 300, payload  # a sentence, never the request echoed
    return payload


def _port(served: Served) -> int:
    return int(served.base.rsplit(":", 1)[1])


def _get(port: int, *headers: str) -> bytes:
    lines = ["GET /health HTTP/1.1", f"Host: 127.0.0.1:{port}", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _post(port: int, *headers: str) -> bytes:
    lines = ["POST /v1/query HTTP/1.1", f"Host: 127.0.0.1:{port}", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + b'{"question": "x", "space": "y"}'


def _chunked(port: int, body: bytes) -> bytes:
    """A chunked POST to /health: open, so the guard reads the body (past the request)."""
    head = _get(port, "Transfer-Encoding: chunked").replace(b"GET", b"POST", 1)
    return head + body


MALFORMED = {
    "no Host": lambda port: b"GET /health HTTP/1.1\r\n\r\n",
    "Content-Length abc": lambda port: _post(port, "Content-Length: abc"),
    "Content-Length -1": lambda port: _post(port, "Content-Length: -1"),
    "two Content-Lengths": lambda port: _post(port, "Content-Length: 31", "Content-Length: 5"),
    "two Host headers": lambda port: _get(port, "Host: localhost"),
    "garbage request line": lambda port: b"\x00\x01\x02 \xff garbage\r\n\r\n",
    "HTTP/0.9 line": lambda port: b"GET /health\r\n\r\n",
    "no version": lambda port: b"GET /health HTTP/\r\nHost: x\r\n\r\n",
    "header without colon": lambda port: _get(port, "this is not a header"),
    "bad chunk size": lambda port: _chunked(port, b"zz\r\n"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_request_uvicorn_cannot_parse_gets_a_json_400(served: Served, case: str) -> None:
    answer = _exchange(_port(served), MALFORMED[case](_port(served)))
    assert answer[0] == 400, answer
    body = _json_error(answer)
    assert body["error"] == "input" and body["exit_code"] == 3, body
    assert body["message"].startswith("malformed HTTP/1.1 request"), body
    assert "b'" not in body["message"] and "bytearray" not in body["message"], body
    assert answer[1]["connection"] == "close"


def test_a_bad_body_after_the_app_started_leaves_no_traceback(store: GraphStore) -> None:
    """A bad chunk after a request /v1/query refuses at once (401, no token): the 400 is
    the answer, and the app's own 401 is dropped, not a traceback in the log per request."""
    with serve("--spaces", "nobody-here") as running:
        port = _port(running)
        request = _chunked(port, b"zz\r\n").replace(b"/health", b"/v1/query", 1)
        for _ in range(3):
            answer = _exchange(port, request)
            assert answer[0] == 400 and _json_error(answer)["error"] == "input", answer
        assert httpx.get(f"{running.base}/health").status_code == 200
    said = running.process.stdout.read()  # type: ignore[union-attr]
    assert "Traceback" not in said and "Exception in ASGI" not in said, said


@pytest.mark.parametrize("size", [1_000_000, 20_000])
def test_a_head_over_16_kib_gets_a_json_431(served: Served, size: int) -> None:
    """Whether it arrives in pieces (a megabyte) or in one read (20 KB): h11 alone bounds
    only the former."""
    port = _port(served)
    answer = _exchange(port, _get(port, "X-Big: " + "a" * size))
    assert answer[0] == 431, answer[:2]
    body = _json_error(answer)
    assert body["error"] == "too_large" and body["exit_code"] == 0, body
    assert "16,384 bytes" in body["message"], body
    assert httpx.get(f"{served.base}/health").status_code == 200  # still serving


def test_a_transfer_coding_other_than_chunked_gets_a_json_501(served: Served) -> None:
    port = _port(served)
    answer = _exchange(port, _post(port, "Transfer-Encoding: gzip"))
    assert answer[0] == 501, answer
    body = _json_error(answer)
    assert body["error"] == "input" and body["exit_code"] == 3, body
    assert "chunked" in body["message"], body


def test_a_websocket_upgrade_is_refused_and_other_upgrades_ignored(served: Served) -> None:
    port = _port(served)
    websocket = (
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    )
    for path in ("/health", "/v1/spaces", "/nowhere"):
        request = _get(port, *websocket).replace(b"/health", path.encode(), 1)
        answer = _exchange(port, request)
        assert answer[0] == 400, answer
        body = _json_error(answer)
        assert body["error"] == "input" and "WebSocket" in body["message"], body
    # h2c (curl --http2 over http://) may be ignored (RFC 9110 7.8): served as HTTP/1.1.
    h2c = _get(
        port,
        "Upgrade: h2c",
        "Connection: Upgrade, HTTP2-Settings, close",
        "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA",
    )
    status, _, served_body = _exchange(port, h2c)
    assert status == 200 and json.loads(served_body)["status"] == "ok"
    # The server still serves after every refusal above.
    assert httpx.get(f"{served.base}/health").status_code == 200


def test_an_application_failing_before_its_response_gets_a_json_500() -> None:
    """The 500 uvicorn writes itself (the application raised, or returned, before a response
    started): our app's handlers answer every exception of a route, so this drives the
    protocol with applications that fail, on a real uvicorn in this process."""
    import uvicorn

    from graphmem.http.protocol import JsonErrorsProtocol, WebSocketRefusal

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        if scope["path"] == "/raise":
            raise RuntimeError("boom")
        if scope["path"] == "/late":  # the response started: only a closed connection says it
            await send({"type": "http.response.start", "status": 200, "headers": []})
            raise RuntimeError("boom after the start")
        # "/silent": returns without a response

    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        http=JsonErrorsProtocol,
        ws=WebSocketRefusal,
        log_level="critical",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        for path in ("/raise", "/silent"):
            answer = _exchange(port, _get(port).replace(b"/health", path.encode(), 1))
            assert answer[0] == 500, answer
            body = _json_error(answer)
            assert body["error"] == "internal" and body["exit_code"] == 1, body
            assert "boom" not in body["message"]
        late = _exchange(port, _get(port).replace(b"/health", b"/late", 1))
        assert late[0] == 200 and late[2] == b""  # cut short: no second status line
    finally:
        server.should_exit = True
        thread.join(30)


def _spend(base: str, *, forwarded: str | None = None, times: int = 1) -> list[int]:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return [httpx.get(f"{base}/health", headers=headers).status_code for _ in range(times)]


# Three unauthenticated requests a client, refilled at one in 100 s: the fourth is a 429.
LIMITS = {"GRAPHMEM_API_RATE_BURST": "3", "GRAPHMEM_API_RATE_PER_SECOND": "0.01"}


def test_forwarded_for_is_ignored_without_trusted_proxies(store: GraphStore) -> None:
    env = {**LIMITS, "GRAPHMEM_API_TRUSTED_PROXIES": "[]", "FORWARDED_ALLOW_IPS": "*"}
    with serve("--spaces", "nobody-here", env=env) as running:  # /health polled: 1 spent
        codes = [_spend(running.base, forwarded=f"10.0.0.{n}")[0] for n in range(3)]
        assert codes == [200, 200, 429]


def test_a_trusted_proxy_names_the_client(store: GraphStore) -> None:
    env = {**LIMITS, "GRAPHMEM_API_TRUSTED_PROXIES": '["127.0.0.1"]'}
    with serve("--spaces", "nobody-here", env=env) as running:  # /health polled: 1 spent
        base = running.base
        assert _spend(base, forwarded="10.0.0.1", times=4) == [200, 200, 200, 429]
        assert _spend(base, forwarded="10.0.0.2") == [200]  # a bucket of its own
        # The proxy appends the peer it saw: the rightmost untrusted entry is the client.
        assert _spend(base, forwarded="10.0.0.1, 10.0.0.3") == [200]
        assert _spend(base, forwarded="10.0.0.3, 10.0.0.1") == [429]
        # A forwarded loopback address is a client on this machine: the one local bucket.
        assert _spend(base, times=2) == [200, 200]
        assert _spend(base, forwarded="127.0.0.9") == [429]
        # 127.0.0.2 is not a named proxy: its X-Forwarded-For is not believed.
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            forged = other.get(f"{base}/health", headers={"X-Forwarded-For": "10.0.0.9"})
            assert forged.status_code == 429


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("not-an-ip", "is not an IP address"),
        ("10.0.0.1/8", "has host bits set"),
        ("*", "is not an IP address"),
        (" 127.0.0.1", "is not an IP address"),
    ],
)
def test_a_bad_trusted_proxy_is_a_setting_error(entry: str, words: str) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "GRAPHMEM_API_TRUSTED_PROXIES": json.dumps(["127.0.0.1", entry]),
    }
    main = [sys.executable, "-c", "from graphmem.cli.main import main; main()", "serve"]
    try:
        refused = subprocess.run(
            [*main, "--port", str(free_port())],
            env=env,
            cwd=str(ROOT),
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"graphmem serve started with {entry!r} among its trusted proxies")
    assert refused.returncode == 2, refused.stderr
    assert "GRAPHMEM_API_TRUSTED_PROXIES" in refused.stderr and words in refused.stderr
    assert json.dumps(entry) in refused.stderr or repr(entry) in refused.stderr
    assert "Traceback" not in refused.stderr and refused.stdout == ""
