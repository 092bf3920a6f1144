"""Issue 62: `graphmem serve --allow-writes --spaces A,B` and `graphmem mcp` as real
processes over the tests' Neo4j under a hostile client: the probes of
tests/integration/serving/hostile_probes.py and hostile_mcp_probes.py (auth, confinement, input,
rate bursts, MCP framing),
each checked against what docs/http.md and docs/mcp.md promise. By default a deterministic
sample; ``-m long`` sends every probe. After each category: no answer and no server log
holds the API token or a Python traceback, the server still answers, and no answer of the
confined servers holds data of the space outside ``--spaces``.

HTTP goes over a raw socket, so that a probe can send what an HTTP library would not (two
Authorization headers, a NUL in a header, a 100,000-character URL); MCP lines go to the
process's stdin as bytes, each followed by a ``ping`` whose answer shows the server still
reads."""

from __future__ import annotations

import base64
import json
import os
import re
import select
import socket
import subprocess
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from tests.conftest import delete_space
from tests.integration.serving.hostile_mcp_probes import MCP_PROBES
from tests.integration.serving.hostile_probes import (
    HTTP_PROBES,
    OUTSIDE,
    SECRET,
    A,
    B,
    HttpProbe,
    McpProbe,
    sample,
    write,
)

pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("mcp")
from benchmarks.http_load import Served, serve
from tests.integration.mcp.test_mcp import _server

pytestmark = pytest.mark.integration
TRACE = "Traceback (most recent call last)"
UNLIMITED = {"GRAPHMEM_API_RATE_BURST": "1000000", "GRAPHMEM_API_RATE_PER_SECOND": "1000000"}
RATE = 0.01  # the rate servers: their burst at once, then one request per 100 s


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Server:
    """A `graphmem serve` process, its port and token, and its log so far."""

    served: Served
    log: list[str]

    @property
    def port(self) -> int:
        return int(self.served.base.rsplit(":", 1)[1])

    @property
    def token(self) -> str:
        return self.served.headers["Authorization"].split(" ", 1)[1]

    def send(self, probe: HttpProbe, local: str = "127.0.0.1") -> Reply:
        fill = {
            "token": self.token,
            "port": self.port,
            "token_cut": self.token[:-1],
            "token_upper": self.token.upper(),
            "token_split": f"{self.token[:8]} {self.token[8:]}",
            "token_b64": base64.b64encode(f"x:{self.token}".encode()).decode(),
        }
        headers = [(k, v.format(**fill)) for k, v in probe.headers]
        return exchange(
            self.port,
            probe.method,
            probe.path.format(**fill),
            headers,
            probe.body or b"",
            probe.declared,
            local,
            probe.trickle,
        )


def exchange(
    port: int,
    method: str,
    path: str,
    headers: list[tuple[str, str]],
    body: bytes,
    declared: int | None = None,
    local: str = "127.0.0.1",
    trickle: bool = False,
) -> Reply:
    """One request on its own connection (``Connection: close``), read to the end;
    ``trickle``: sent in 4 KiB pieces, as a slow client's arrive."""
    if not any(k.lower() == "host" for k, _ in headers):
        headers = [("Host", f"127.0.0.1:{port}"), *headers]
    length = declared if declared is not None else len(body)
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers), "Connection: close"]
    if method in ("POST", "PUT") or body:
        lines.append(f"Content-Length: {length}")
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), 300, (local, 0)) as conn:
        data = head + (b"" if declared is not None else body)
        try:
            for start in range(0, len(data), 4096 if trickle else len(data) or 1):
                conn.sendall(data[start : start + (4096 if trickle else len(data))])
                time.sleep(0.002 if trickle else 0)
        except (BrokenPipeError, ConnectionResetError):  # refused before the end: read why
            pass
        chunks = []
        try:
            while chunk := conn.recv(1 << 16):
                chunks.append(chunk)
        except ConnectionResetError:  # closed at once after a refusal: the answer came first
            pass
    raw = b"".join(chunks)
    top, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *fields = top.decode("latin-1").split("\r\n")
    named = dict(f.split(":", 1) for f in fields if ":" in f)
    return Reply(
        int(status_line.split()[1]), {k.lower(): v.strip() for k, v in named.items()}, rest
    )


@pytest.fixture(scope="module")
def outside(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[str]:
    """OUTSIDE holds one turn with SECRET; every space of the run is deleted afterwards."""
    memory = Memory(settings, embedder=embedder)
    turn = {"speaker": "Zed", "text": f"The vault code is {SECRET}."}
    memory.add_messages(OUTSIDE, f"conv-{SECRET}", "s1", [turn], builders=[])
    memory.close()
    yield OUTSIDE
    for name in (A, B, OUTSIDE):
        delete_space(store, name)


@contextmanager
def _server_process(*args: str, env: dict[str, str]) -> Iterator[Server]:
    with serve(*args, env=env) as served:
        log: list[str] = []
        # serve() pipes the log; drained here so a long run cannot fill the pipe
        assert served.process.stdout is not None
        threading.Thread(target=log.extend, args=(served.process.stdout,), daemon=True).start()
        yield Server(served, log)


@pytest.fixture(scope="module")
def main_server(outside: str) -> Iterator[Server]:
    with _server_process("--allow-writes", "--spaces", f"{A},{B}", env=UNLIMITED) as server:
        seeded = exchange(
            server.port,
            "POST",
            "/v1/messages",
            [("Authorization", f"Bearer {server.token}"), ("Content-Type", "application/json")],
            json.dumps(write("s0")).encode(),
        )
        assert seeded.status == 200, seeded.body[:300]
        yield server


@pytest.fixture(scope="module")
def read_only_server(main_server: Server) -> Iterator[Server]:
    with _server_process("--spaces", f"{A},{B}", env=UNLIMITED) as server:
        yield server


@pytest.fixture(scope="module")
def seen() -> dict[str, list[bytes]]:
    """Every answer of a category so far, for its invariants."""
    return defaultdict(list)


def _field_named(message: str, field: str) -> bool:
    """'field', 'messages.0.field' or 'field.str' (pydantic's name for a union's member)."""
    return re.search(rf"['.]{re.escape(field)}['.]", message) is not None


def check_http(probe: HttpProbe, reply: Reply) -> list[str]:
    """What differs from the probe's expectation (empty: as promised)."""
    wrong = []
    if reply.status != probe.status:
        wrong.append(f"status {reply.status}, expected {probe.status}")
    try:
        data = reply.json()
    except ValueError:
        return [*wrong, f"not JSON: {reply.body[:120]!r}"]
    if probe.error is not None:
        if not isinstance(data, dict) or data.get("error") != probe.error:
            return [*wrong, f"body {reply.body[:200]!r}, expected error {probe.error!r}"]
        if data.get("exit_code") != probe.exit_code:
            wrong.append(f"exit_code {data.get('exit_code')}, expected {probe.exit_code}")
        message = f"{data.get('message')} {data.get('hint') or ''}"
        if probe.field and not _field_named(message, probe.field):
            wrong.append(f"message {message[:160]!r} does not name {probe.field!r}")
        wrong += [f"{w!r} not in {message[:160]!r}" for w in probe.words if w not in message]
        if len(reply.body) >= 1000:  # lengths are checked before a value is repeated
            wrong.append(f"a {len(reply.body):,}-byte error body")
    if reply.status == 429 and not reply.headers.get("retry-after", "").isdigit():
        wrong.append("429 without Retry-After seconds")
    wrong += [f"no {h} header" for h in probe.want_headers if h not in reply.headers]
    wrong += [f"a {h} header" for h in probe.no_headers if h in reply.headers]
    return wrong


class Invariants:
    def __init__(self, category: str) -> None:
        self.category = category


def _items(probes: list[Any]) -> list[Any]:
    """The probes, each category followed by its invariants, a known defect as xfail."""
    out: list[Any] = []
    for index, probe in enumerate(probes):
        mark = pytest.mark.xfail(strict=True, reason=probe.defect) if probe.defect else ()
        out.append(pytest.param(probe, marks=mark, id=f"{probe.category}/{probe.name}"))
        if index + 1 == len(probes) or probes[index + 1].category != probe.category:
            out.append(pytest.param(Invariants(probe.category), id=f"{probe.category}/INVARIANTS"))
    return out


def _check_invariants(server: Server, answers: list[bytes], *, alive: bool = True) -> None:
    bad = [a[:200] for a in answers if server.token.encode() in a or TRACE.encode() in a]
    assert not bad, f"token or traceback in answers: {bad}"
    leaked = [a[:200] for a in answers if SECRET.encode() in a]
    assert not leaked, f"data of {OUTSIDE} in answers: {leaked}"
    log = "".join(server.log)
    assert server.token not in log and TRACE not in log, log[-3000:]
    assert server.served.process.poll() is None, log[-3000:]
    if alive:
        health = exchange(server.port, "GET", "/health", [], b"")
        assert health.status == 200 and health.json()["status"] == "ok"


def _http(request: pytest.FixtureRequest, item: Any, seen: dict[str, list[bytes]]) -> None:
    if isinstance(item, Invariants):
        for name in ("main_server", "read_only_server"):
            if item.category == "confinement" or name == "main_server":
                _check_invariants(request.getfixturevalue(name), seen[item.category])
        return
    server: Server = request.getfixturevalue(f"{item.server}_server")
    reply = server.send(item)
    seen[item.category].append(reply.body)
    wrong = check_http(item, reply)
    if item.name.endswith("spaces-listed") and not wrong:
        listed = {row["space"] for row in reply.json()["spaces"]}
        wrong += [f"lists {listed - {A, B}}"] if listed - {A, B} else []
    assert not wrong, f"{item.method} {item.path[:80]}: {'; '.join(wrong)}"


HTTP_SAMPLE = sample(HTTP_PROBES, 150)


@pytest.mark.parametrize("item", _items(HTTP_SAMPLE))
def test_http_probe(
    request: pytest.FixtureRequest, item: Any, seen: dict[str, list[bytes]]
) -> None:
    _http(request, item, seen)


@pytest.mark.long
@pytest.mark.parametrize("item", _items(HTTP_PROBES))
def test_http_probe_full(
    request: pytest.FixtureRequest, item: Any, seen: dict[str, list[bytes]]
) -> None:
    _http(request, item, seen)


def _bursts(rate_server: Server, burst: int) -> None:
    """The authorised bucket: ``burst`` answered, then 429 with Retry-After whatever
    X-Forwarded-For says or which loopback address sends; the unauthorised one (which
    /health and wrong tokens spend) emptied by a concurrent burst: token guessing is
    throttled too."""
    good = [("Authorization", f"Bearer {rate_server.token}")]
    spaces = [
        exchange(
            rate_server.port, "GET", "/v1/spaces", [*good, ("X-Forwarded-For", f"10.0.0.{n}")], b""
        )
        for n in range(burst + 5)
    ]
    assert [r.status for r in spaces] == [200] * burst + [429] * 5
    for refused in spaces[burst:]:
        assert refused.json()["error"] == "rate_limited" and refused.json()["exit_code"] == 0
        assert 1 <= int(refused.headers["retry-after"]) <= 1 / RATE
    for head in (("X-Real-IP", "10.1.1.1"), ("Forwarded", "for=10.1.1.2")):
        assert exchange(rate_server.port, "GET", "/v1/spaces", [*good, head], b"").status == 429
    assert (
        exchange(rate_server.port, "GET", "/v1/spaces", good, b"", local="127.0.0.2").status == 429
    )
    with ThreadPoolExecutor(8) as pool:
        at_once = list(
            pool.map(
                lambda _: exchange(rate_server.port, "GET", "/health", [], b""),
                range(2 * burst),
            )
        )
    codes = [r.status for r in at_once]
    assert set(codes) == {200, 429} and codes.count(200) < burst, codes  # polling spent one
    assert all(r.headers["retry-after"].isdigit() for r in at_once if r.status == 429)
    guess = [("Authorization", "Bearer wrong-token-0123456789")]
    assert exchange(rate_server.port, "GET", "/v1/spaces", guess, b"").status == 429
    _check_invariants(rate_server, [r.body for r in spaces + at_once], alive=False)


def test_rate_limit_bursts() -> None:
    with _server_process("--spaces", f"{A},{B}", env=_limits(10)) as server:
        _bursts(server, 10)


@pytest.mark.long
def test_rate_limit_bursts_at_the_default_burst() -> None:
    with _server_process("--spaces", f"{A},{B}", env=_limits(None)) as server:
        _bursts(server, 100)  # GRAPHMEM_API_RATE_BURST's default (docs/http.md, "Limits")


def _limits(burst: int | None) -> dict[str, str]:
    """One request per 100 s after the burst: no refill within a test."""
    out = {"GRAPHMEM_API_RATE_PER_SECOND": str(RATE)}
    return out | ({"GRAPHMEM_API_RATE_BURST": str(burst)} if burst else {})


# --- MCP -------------------------------------------------------------------------------
def _key(ident: Any) -> str:
    return json.dumps(ident, sort_keys=True)


class McpLines:
    """`graphmem mcp --allow-writes --spaces A,B` fed raw lines; answers kept by id."""

    def __init__(self, stderr: Path) -> None:
        params = _server("--allow-writes", "--spaces", f"{A},{B}")
        self.stderr = stderr
        self.proc = subprocess.Popen(
            [params.command, *params.args],
            env=params.env,
            cwd=params.cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr.open("wb"),
        )
        self.by_id: dict[str, dict[str, Any]] = {}
        self.pending = b""
        self.pings = 0
        hello = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "1"},
        }
        self.send(
            json.dumps(
                {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}
            ).encode()
        )
        self.until(0, timeout=300)
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def until(self, ident: Any, timeout: float = 120) -> list[dict[str, Any]]:
        """Answers read until the one with ``ident``; those with a null id returned."""
        unmatched = []
        deadline = time.monotonic() + timeout
        while _key(ident) not in self.by_id:
            answer = json.loads(self._line(deadline))
            if answer.get("id") is None:
                unmatched.append(answer)
            else:
                self.by_id[_key(answer["id"])] = answer
        return unmatched

    def _line(self, deadline: float) -> bytes:
        """The next line of stdout, read from the pipe itself: a buffered reader could hold
        lines select() no longer sees."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(fd, 1 << 16) if ready else b""
            assert chunk, "no answer in time (the server exited or went silent)"
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line

    def probe(self, line: bytes) -> list[dict[str, Any]]:
        """Send ``line`` and a ping: the null-id answers between, once the ping answered."""
        self.pings += 1
        self.send(line)
        ping = f"ping-{self.pings}"
        self.send(json.dumps({"jsonrpc": "2.0", "id": ping, "method": "ping"}).encode())
        return self.until(ping)


@pytest.fixture(scope="module")
def mcp_lines(outside: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[McpLines]:
    lines = McpLines(tmp_path_factory.mktemp("mcp") / "stderr.log")
    yield lines
    assert lines.proc.stdin is not None
    lines.proc.stdin.close()
    lines.proc.wait(timeout=60)


def check_mcp(probe: McpProbe, lines: McpLines, nulls: list[dict[str, Any]]) -> list[str]:
    if probe.answer == "none":
        answered = _key(probe.id) in lines.by_id if probe.id is not None else False
        return [f"answered {nulls or lines.by_id[_key(probe.id)]}"] if nulls or answered else []
    if probe.id is None and probe.answer != "any":
        if len(nulls) != 1:
            return [f"{len(nulls)} null-id answers, expected 1"]
        answer = nulls[0]
    elif probe.answer == "any":  # an error (null id) or an answer with the id: not silence
        return [] if nulls or _key(probe.id) in lines.by_id else ["no answer"]
    else:
        if nulls:
            return [f"null-id answers {nulls}"]
        answer = lines.by_id.get(_key(probe.id), {})
        if not answer:
            lines.until(probe.id)
            answer = lines.by_id[_key(probe.id)]
    return _check_answer(probe, answer)


def _check_answer(probe: McpProbe, answer: dict[str, Any]) -> list[str]:
    shown = json.dumps(answer)[:300]
    if probe.answer == "error":
        code = answer.get("error", {}).get("code")
        text = str(answer.get("error", {}).get("message"))
        wrong = [] if code == probe.code else [f"{shown}: expected error {probe.code}"]
    else:
        result = answer.get("result", {})
        text = " ".join(str(c.get("text")) for c in result.get("content", []))
        if bool(result.get("isError")) != (probe.answer == "tool_error"):
            return [f"{shown}: expected a {probe.answer}"]
        wrong = []
    if probe.field and not re.search(rf"\b{re.escape(probe.field)}\b", text):
        wrong.append(f"{text[:160]!r} does not name {probe.field!r}")
    wrong += [f"{w!r} not in {text[:160]!r}" for w in probe.words if w not in text]
    if probe.answer != "result" and len(json.dumps(answer)) >= 1000:
        wrong.append(f"a {len(json.dumps(answer)):,}-character answer")
    return wrong


def _mcp(lines: McpLines, item: Any, seen: dict[str, list[bytes]]) -> None:
    if isinstance(item, Invariants):
        lines.probe(b'{"jsonrpc": "2.0", "id": "last", "method": "tools/list"}')
        answers = [json.dumps(a).encode() for a in lines.by_id.values()] + seen["mcp"]
        assert not [a[:200] for a in answers if SECRET.encode() in a or TRACE.encode() in a]
        said = lines.stderr.read_text(errors="replace")
        assert TRACE not in said and lines.proc.poll() is None, said[-3000:]
        return
    nulls = lines.probe(item.line)
    seen["mcp"] += [json.dumps(n).encode() for n in nulls]
    wrong = check_mcp(item, lines, nulls)
    if item.name == "spaces-listed" and not wrong:
        listed = {
            row["space"]
            for row in lines.by_id[_key(item.id)]["result"]["structuredContent"]["spaces"]
        }
        wrong += [f"lists {listed - {A, B}}"] if listed - {A, B} else []
    assert not wrong, "; ".join(wrong)


@pytest.mark.parametrize("item", _items(sample(MCP_PROBES, 30)))
def test_mcp_probe(mcp_lines: McpLines, item: Any, seen: dict[str, list[bytes]]) -> None:
    _mcp(mcp_lines, item, seen)


@pytest.mark.long
@pytest.mark.parametrize("item", _items(MCP_PROBES))
def test_mcp_probe_full(mcp_lines: McpLines, item: Any, seen: dict[str, list[bytes]]) -> None:
    _mcp(mcp_lines, item, seen)
