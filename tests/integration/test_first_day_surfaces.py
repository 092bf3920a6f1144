"""Issue 57, "A user's first day": every surface (the CLI, ``graphmem serve``, ``graphmem mcp``)
against a matrix of commands x the shapes a new user's input has, on the real Neo4j.

Shapes: an undated file, a one-turn file, two short turns, a file of one speaker, two
conversations that share session ids (both have a turn ``1:0``), a fresh empty space (it
exists and holds nothing: an ingest stopped after its first write), a space that does not
exist, bad files and bad messages. Each cell asserts no traceback and the documented
outcome: the CLI's exit code (docs/cli-guide.md: 2 settings or usage, a space that does not exist
included; 3 bad input), the HTTP status and the JSON error shape of docs/http.md, an MCP
tool error (never the SDK's ``UnexpectedToolError``, which hides the message); and that
each turn a query or ``history`` cites names one stored turn of the space
(``first_day.resolve``).

A surface's cells all run, and its test fails with the list of the cells that failed.
The CLI runs in process (``CliRunner``: a traceback there is an exception that escaped
``handle_errors``), plus a few real processes that check stderr for "Traceback"; the HTTP
API is a real uvicorn process, the MCP server a real stdio process driven by the SDK's
client, each with its log checked for tracebacks at the end. About a minute and a half.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.schema import pin_space_embedder
from graphmem.graph.store import GraphStore
from graphmem.retrieval.registry import strategy_names
from tests.conftest import delete_space
from tests.integration.first_day import (
    BAD_FILES,
    ConvSpec,
    SessionSpec,
    StoredTurn,
    TurnSpec,
    messages_of,
    resolve,
    stored_turns,
    write_file,
)

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
QUESTION = "Where does Ana live now?"
AS_OF = "2024-03-20"  # between the dated shapes' sessions: its end, 23:59:59
AS_OF_MOMENT = datetime(2024, 3, 20, 23, 59, 59)
ERROR_KEYS = {"error", "exit_code", "message", "hint"}


def _turn(speaker: str, text: str, at: datetime | None = None) -> TurnSpec:
    return TurnSpec(speaker, text, at)


D1, D2 = datetime(2024, 3, 14, 9, 30), datetime(2024, 4, 2, 18, 0)
# name -> the conversations of the file (every shape a first day brings)
SHAPES: dict[str, list[ConvSpec]] = {
    "undated": [
        ConvSpec(
            "chat",
            (
                SessionSpec("1", (_turn("Ana", "I live in Madrid."), _turn("Ben", "Nice!"))),
                SessionSpec("2", (_turn("Ana", "I moved to Porto, I live in Porto now."),)),
            ),
        )
    ],
    "one_turn": [ConvSpec("chat", (SessionSpec("1", (_turn("Ana", "I live in Porto."),)),))],
    # a first chat of two short turns (the question names a speaker with no fact of her own)
    "two_short_turns": [
        ConvSpec(
            "chat", (SessionSpec("1", (_turn("Ben", "I moved to Porto."), _turn("Ana", "lol"))),)
        )
    ],
    "one_speaker": [
        ConvSpec(
            "notes",
            (
                SessionSpec(
                    "1",
                    (
                        _turn("Ana", "Note to self: buy basil.", D1),
                        _turn("Ana", "I adopted a kitten named Pixel. 🐱", D1),
                    ),
                ),
                SessionSpec("2", (_turn("Ana", "Pixel sleeps all day.\nSo cute.", D2),)),
            ),
        )
    ],
    # Both conversations hold turns 1:0, 1:1 and 2:0; Ana's yoga changes in each (a
    # statement a later one supersedes: `history` has changes to cite).
    "shared_sessions": [
        ConvSpec(
            cid,
            (
                SessionSpec(
                    "1",
                    (
                        _turn("Ana", f"I live in {city}. I have been doing yoga twice a week.", D1),
                        _turn("Ben", "ok", D1),
                    ),
                ),
                SessionSpec("2", (_turn("Ana", f"I have been doing yoga {often} lately.", D2),)),
            ),
        )
        for cid, city, often in (("a", "Porto", "three times a week"), ("b", "Lisbon", "daily"))
    ],
}
CLI_STRATEGIES = strategy_names()
# Over HTTP and MCP a few strategies (the default, a baseline, two designs): what those
# surfaces add is the plumbing, the CLI cells cover every strategy.
SERVED_STRATEGIES = ["graphmem", "hybrid", "hipporag", "premem"]


@dataclass
class Matrix:
    """The cells of one surface: each failure is recorded, and the test fails at the end
    with all of them."""

    surface: str
    failures: list[str] = field(default_factory=list)
    cells: int = 0

    def check(self, cell: str, ok: bool, detail: str = "") -> bool:
        self.cells += 1
        if not ok:
            self.failures.append(f"{cell}: {detail}"[:1500])
        return ok

    def done(self) -> None:
        print(f"{self.surface}: {self.cells} cells checked, {len(self.failures)} failed")
        assert self.cells, "no cell ran"
        assert not self.failures, (
            f"{len(self.failures)} of {self.cells} {self.surface} cells failed:\n"
            + "\n".join(f"- {f}" for f in self.failures)
        )


def _citations(store: GraphStore, space: str, citations: list[str], as_of: datetime | None) -> str:
    """Why ``citations`` are wrong ('' when each names one stored turn of ``space``, said by
    ``as_of``)."""
    rows = stored_turns(store, space)
    for citation in citations:
        try:
            cited = resolve(citation, rows)
        except AssertionError as exc:
            return str(exc)
        if as_of is not None and cited.ts is not None and cited.ts > as_of:
            return f"{citation} was said {cited.ts}, after as_of {as_of}"
    return ""


def _history(store: GraphStore, space: str, changes: list[dict[str, Any]]) -> str:
    """Why the turns ``history``'s changes cite are wrong ('' when each names one turn)."""
    rows = stored_turns(store, space)
    for change in changes:
        for turn in [*change["earlier_turns"], *change["later_turns"]]:
            try:
                resolve(turn, rows)
            except AssertionError as exc:
                return str(exc)
    return ""


def _expected_turns(convs: list[ConvSpec]) -> list[StoredTurn]:
    return [
        StoredTurn(c.cid, s.name, f"{s.name}:{j}", t.speaker, t.text)
        for c in convs
        for s in c.sessions
        for j, t in enumerate(s.turns)
    ]


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="t57-surfaces-") as made:
        yield Path(made)


@pytest.fixture
def names(store: GraphStore) -> Iterator[Callable[[str], str]]:
    """Space names for a test, every one deleted afterwards whatever happened."""
    made: list[str] = []

    def name(what: str) -> str:
        made.append(f"t57-{what}-{uuid.uuid4().hex[:6]}".replace("_", "-"))
        return made[-1]

    yield name
    for space in made:
        delete_space(store, space)


def _empty_space(store: GraphStore, embedder: Embedder, space: str) -> None:
    """A space that exists and holds nothing, as an ingest stopped after its first write
    (the embedder pin) leaves it."""
    pin_space_embedder(store, space, embedder)


# --- the CLI ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str
    escaped: str  # the traceback of an exception that escaped the command, or ''

    def json(self) -> Any:
        return json.loads(self.stdout)


def _cli(*args: str) -> Ran:
    result: Result = CliRunner().invoke(cli, list(args), catch_exceptions=True)
    escaped = ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        escaped = "".join(traceback.format_exception(result.exception)).strip()
    return Ran(result.exit_code, result.stdout, result.stderr, escaped)


def _expect(matrix: Matrix, cell: str, ran: Ran, code: int, naming: str | None = None) -> bool:
    """The command exited ``code`` with no traceback; an error names ``naming``."""
    if ran.escaped or "Traceback" in ran.stderr + ran.stdout:
        return matrix.check(cell, False, f"traceback: {(ran.escaped or ran.stderr)[-1200:]}")
    said = ran.stderr.strip()
    if not matrix.check(cell, ran.code == code, f"exit {ran.code}, expected {code}: {said}"):
        return False
    if naming is not None:
        return matrix.check(cell, naming in said, f"the message does not name {naming!r}: {said}")
    return True


def _cli_reads(matrix: Matrix, store: GraphStore, shape: str, space: str, turns: int) -> None:
    """Every read command over a space that holds ``turns`` turns."""
    for strategy in CLI_STRATEGIES:
        cell = f"{shape} / query --strategy {strategy}"
        ran = _cli("query", QUESTION, "--space", space, "--strategy", strategy, "--json")
        if _expect(matrix, cell, ran, 0):
            data = ran.json()
            matrix.check(cell, data["tokens"] <= 1000, f"{data['tokens']} tokens")
            why = _citations(store, space, data["citations"], None)
            matrix.check(cell, not why, why)
    ran = _cli("query", QUESTION, "--space", space, "--as-of", AS_OF, "--json", "--budget", "50")
    if _expect(matrix, f"{shape} / query --as-of", ran, 0):
        why = _citations(store, space, ran.json()["citations"], AS_OF_MOMENT)
        matrix.check(f"{shape} / query --as-of", not why, why)
    _expect(
        matrix,
        f"{shape} / query --explain",
        _cli("query", QUESTION, "--space", space, "--explain"),
        0,
    )
    ran = _cli("ask", QUESTION, "--space", space)
    _expect(matrix, f"{shape} / ask", ran, 0)
    ran = _cli("history", "--space", space, "--subject", "Ana", "--json")
    if _expect(matrix, f"{shape} / history", ran, 0):
        data = ran.json()  # a list of changes (MCP and HTTP wrap it in "changes")
        why = _history(store, space, data if isinstance(data, list) else data["changes"])
        matrix.check(f"{shape} / history", not why, why)
    ran = _cli("stats", "--space", space, "--json")
    if _expect(matrix, f"{shape} / stats", ran, 0):
        passages = ran.json()["nodes"].get("Passage", 0)
        matrix.check(f"{shape} / stats", passages == turns, f"{passages} passages, {turns} sent")
    _expect(matrix, f"{shape} / stats --digest", _cli("stats", "--space", space, "--digest"), 0)
    ran = _cli("spaces", "--json")
    if _expect(matrix, f"{shape} / spaces", ran, 0):
        listed = [s for s in ran.json()["spaces"] if s["space"] == space]
        matrix.check(f"{shape} / spaces", bool(listed) and listed[0]["turns"] == turns, str(listed))


def _cli_missing(matrix: Matrix, shape: str, space: str) -> None:
    """A space that does not exist: every command that reads or deletes one exits 2
    naming it, and none of them makes it exist."""
    for cell, command in {
        "query": ("query", QUESTION, "--space", space),
        "query --json": ("query", QUESTION, "--space", space, "--strategy", "dense", "--json"),
        "ask": ("ask", QUESTION, "--space", space),
        "history": ("history", "--space", space, "--subject", "Ana"),
        "stats": ("stats", "--space", space),
        "stats --digest": ("stats", "--space", space, "--digest"),
        "forget": ("forget", "--space", space, "--yes"),
        "profile": ("profile", "--space", space, "--character", "Ana"),
    }.items():
        _expect(matrix, f"{shape} / {cell}", _cli(*command), 2, space)
    ran = _cli("spaces", "--json")
    if _expect(matrix, f"{shape} / spaces", ran, 0):
        listed = [s["space"] for s in ran.json()["spaces"]]
        matrix.check(f"{shape} / spaces", space not in listed, f"{space} listed after reads")


def test_the_cli_matrix(
    store: GraphStore,
    embedder: Embedder,
    folder: Path,
    names: Callable[[str], str],
) -> None:
    matrix = Matrix("CLI")
    for shape, convs in SHAPES.items():
        space = names(shape)
        written = write_file(folder / f"{shape}.jsonl", "jsonl", convs)
        turns = len(written.turns)
        ran = _cli("ingest", str(written.path), "--space", space, "--builders", "all", "--json")
        if not _expect(matrix, f"{shape} / ingest", ran, 0):
            continue
        matrix.check(
            f"{shape} / ingest",
            ran.json()["passages_written"] == turns,
            f"{ran.json()['passages_written']} written of {turns}",
        )
        again = _cli("ingest", str(written.path), "--space", space, "--builders", "all", "--json")
        if _expect(matrix, f"{shape} / ingest again", again, 0):
            matrix.check(f"{shape} / ingest again", again.json()["sessions_written"] == 0)
        _cli_reads(matrix, store, shape, space, turns)
        conversation = convs[0].cid
        add = ("add", "Pixel ate my basil!", "--space", space, "--speaker", "Ana")
        add_args = (*add, "--conversation", conversation, "--builders", "all", "--json")
        if _expect(matrix, f"{shape} / add", _cli(*add_args), 0):
            turns += 1
            stats = _cli("stats", "--space", space, "--json")
            if _expect(matrix, f"{shape} / stats after add", stats, 0):
                passages = stats.json()["nodes"].get("Passage", 0)
                matrix.check(f"{shape} / add", passages == turns, f"{passages} of {turns}")
        _expect(matrix, f"{shape} / forget", _cli("forget", "--space", space, "--yes"), 0)
        _cli_missing(matrix, f"{shape} after forget", space)

    empty = names("empty")
    _empty_space(store, embedder, empty)
    for command in (
        ("query", QUESTION, "--space", empty),
        ("ask", QUESTION, "--space", empty),
        ("stats", "--space", empty),
    ):
        # exists, holds nothing: bad input (exit 3) naming it, as README's "holds no memories"
        _expect(matrix, f"empty / {command[0]}", _cli(*command), 3, empty)
    _expect(matrix, "empty / history", _cli("history", "--space", empty, "--subject", "Ana"), 0)
    ran = _cli("spaces", "--json")
    if _expect(matrix, "empty / spaces", ran, 0):
        listed = [s for s in ran.json()["spaces"] if s["space"] == empty]
        matrix.check("empty / spaces", bool(listed) and listed[0]["turns"] == 0, str(listed))
    _expect(matrix, "empty / forget", _cli("forget", "--space", empty, "--yes"), 0)
    _cli_missing(matrix, "empty after forget", empty)

    _cli_missing(matrix, "missing", names("missing"))

    for bad, body in BAD_FILES.items():
        space = names("bad")
        path = folder / f"bad-{bad}.jsonl"
        path.write_text(body, encoding="utf-8")
        ran = _cli("ingest", str(path), "--space", space, "--builders", "all")
        _expect(matrix, f"bad file {bad} / ingest", ran, 3, path.name)
        _cli_missing(matrix, f"bad file {bad} (nothing written)", space)

    usage = names("usage")
    path = write_file(folder / "usage.jsonl", "jsonl", SHAPES["one_turn"]).path
    usages: dict[str, tuple[str, ...]] = {
        "a PATH that does not exist": ("ingest", str(folder / "nope.jsonl"), "--space", usage),
        "an unknown builder": ("ingest", str(path), "--space", usage, "--builders", "seme"),
        "an unknown strategy": ("query", QUESTION, "--space", usage, "--strategy", "nope"),
        "a budget under 50": ("query", QUESTION, "--space", usage, "--budget", "10"),
        "an unknown command": ("ingset", str(path)),
    }
    for cell, args in usages.items():
        _expect(matrix, f"usage / {cell}", _cli(*args), 2)
    matrix.done()


def _process(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-c", "from graphmem.cli.main import main; main()", *args]
    return subprocess.run(
        command, input=stdin, env=env, cwd=str(ROOT), capture_output=True, timeout=300, check=False
    )


def test_the_real_command_prints_no_traceback(folder: Path, names: Callable[[str], str]) -> None:
    """The console entry point in real processes: what a user's terminal shows."""
    matrix = Matrix("graphmem process")
    space = names("process")
    undated = write_file(folder / "process-undated.jsonl", "jsonl", SHAPES["undated"]).path
    bad = folder / "process-bad.jsonl"
    bad.write_text(BAD_FILES["broken_json"], encoding="utf-8")
    for cell, command, code in (
        ("query a space that does not exist", ("query", QUESTION, "--space", space), 2),
        ("ingest a bad file", ("ingest", str(bad), "--space", space, "--builders", "all"), 3),
        (
            "ingest an undated file",
            ("ingest", str(undated), "--space", space, "--builders", "all"),
            0,
        ),
        ("query it", ("query", QUESTION, "--space", space, "--json"), 0),
        ("ingest - from a pipe", ("ingest", "-", "--space", space, "--builders", "none"), 0),
    ):
        done = _process(*command, stdin=undated.read_bytes())
        stderr = done.stderr.decode(errors="replace")
        if matrix.check(cell, "Traceback" not in stderr, stderr[-1500:]):
            matrix.check(cell, done.returncode == code, f"exit {done.returncode}: {stderr[-500:]}")
    matrix.done()


# --- HTTP ---------------------------------------------------------------------------------


@dataclass
class Served:
    base: str
    client: Any
    log: Path


@pytest.fixture(scope="module")
def served(store: GraphStore, folder: Path) -> Iterator[Served]:
    """``graphmem serve --allow-writes`` on a free port, its output in a file (a pipe
    nobody reads would stall it), stopped at the end."""
    pytest.importorskip("fastapi")
    from benchmarks.http_load import free_port
    from graphmem.server.credentials import api_token

    port = free_port()
    log = folder / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-c", "from graphmem.cli.main import main; main()", "serve"]
    with log.open("w") as out:
        process = subprocess.Popen(
            [*command, "--port", str(port), "--allow-writes"],
            env=env,
            cwd=str(ROOT),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            assert process.poll() is None, f"graphmem serve exited: {log.read_text()}"
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "graphmem serve did not answer /health"
            time.sleep(0.25)
        headers = {"Authorization": f"Bearer {api_token(Settings())}"}
        with httpx.Client(base_url=base, headers=headers, timeout=300) as client:
            yield Served(base, client, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _http_expect(
    matrix: Matrix, cell: str, response: Any, status: int, error: str | None = None
) -> bool:
    """``status``; an error body is docs/http.md's shape, of kind ``error``."""
    if not matrix.check(cell, "Traceback" not in response.text, response.text[-800:]):
        return False
    if not matrix.check(
        cell,
        response.status_code == status,
        f"status {response.status_code}: {response.text[:500]}",
    ):
        return False
    if status >= 400:
        body = response.json()
        if not matrix.check(cell, set(body) == ERROR_KEYS, f"error body {body}"):
            return False
        if error is not None:
            return matrix.check(cell, body["error"] == error, f"error {body['error']!r}: {body}")
    return True


def _http_missing(matrix: Matrix, served: Served, shape: str, space: str) -> None:
    http = served.client
    for cell, response in (
        ("query", http.post("/v1/query", json={"question": QUESTION, "space": space})),
        ("ask", http.post("/v1/ask", json={"question": QUESTION, "space": space})),
        ("stats", http.get("/v1/stats", params={"space": space})),
        ("history", http.get("/v1/history", params={"space": space, "subject": "Ana"})),
        ("forget", http.post("/v1/forget", json={"space": space})),
    ):
        if _http_expect(matrix, f"{shape} / {cell}", response, 404, "unknown_space"):
            body = response.json()
            matrix.check(f"{shape} / {cell}", body["exit_code"] == 2, str(body))
            matrix.check(f"{shape} / {cell}", space in body["message"], str(body))
    listed = [s["space"] for s in http.get("/v1/spaces").json()["spaces"]]
    matrix.check(f"{shape} / spaces", space not in listed, f"{space} listed after reads")


def test_the_http_matrix(
    served: Served, store: GraphStore, embedder: Embedder, names: Callable[[str], str]
) -> None:
    matrix = Matrix("HTTP")
    http = served.client
    for shape, convs in SHAPES.items():
        space = names(f"http-{shape}")
        turns = _expected_turns(convs)
        for conv in convs:
            for session in conv.sessions:
                body = {
                    "space": space,
                    "conversation": conv.cid,
                    "session": session.name,
                    "messages": _jsonable(messages_of(session)),
                    "builders": "all",
                }
                _http_expect(
                    matrix, f"{shape} / messages", http.post("/v1/messages", json=body), 200
                )
        rows = sorted(r.turn.source_id for r in stored_turns(store, space))
        matrix.check(f"{shape} / messages", rows == sorted(t.source_id for t in turns), str(rows))
        for strategy in SERVED_STRATEGIES:
            cell = f"{shape} / query {strategy}"
            q = {"question": QUESTION, "space": space, "strategy": strategy, "budget": 300}
            response = http.post("/v1/query", json=q)
            if _http_expect(matrix, cell, response, 200):
                why = _citations(store, space, response.json()["citations"], None)
                matrix.check(cell, not why, why)
        q = {"question": QUESTION, "space": space, "as_of": AS_OF, "explain": True}
        response = http.post("/v1/query", json=q)
        if _http_expect(matrix, f"{shape} / query as_of", response, 200):
            why = _citations(store, space, response.json()["citations"], AS_OF_MOMENT)
            matrix.check(f"{shape} / query as_of", not why, why)
        response = http.post("/v1/ask", json={"question": QUESTION, "space": space})
        if _http_expect(matrix, f"{shape} / ask", response, 200):
            why = _citations(store, space, response.json()["citations"], None)
            matrix.check(f"{shape} / ask", not why, why)
        response = http.get("/v1/history", params={"space": space, "subject": "Ana"})
        if _http_expect(matrix, f"{shape} / history", response, 200):
            why = _history(store, space, response.json()["changes"])
            matrix.check(f"{shape} / history", not why, why)
        response = http.get("/v1/stats", params={"space": space})
        if _http_expect(matrix, f"{shape} / stats", response, 200):
            passages = response.json()["nodes"].get("Passage", 0)
            matrix.check(f"{shape} / stats", passages == len(turns), f"{passages} passages")
        listed = [s for s in http.get("/v1/spaces").json()["spaces"] if s["space"] == space]
        matrix.check(f"{shape} / spaces", len(listed) == 1, str(listed))
        _http_expect(
            matrix, f"{shape} / forget", http.post("/v1/forget", json={"space": space}), 200
        )
        _http_missing(matrix, served, f"{shape} after forget", space)

    empty = names("http-empty")
    _empty_space(store, embedder, empty)
    q = {"question": QUESTION, "space": empty}
    _http_expect(matrix, "empty / query", http.post("/v1/query", json=q), 400, "input")
    _http_expect(
        matrix, "empty / stats", http.get("/v1/stats", params={"space": empty}), 400, "input"
    )
    _http_expect(matrix, "empty / forget", http.post("/v1/forget", json={"space": empty}), 200)
    _http_missing(matrix, served, "missing", names("http-missing"))

    space = names("http-bad")
    for n, messages in enumerate(BAD_MESSAGES_HTTP):
        body = {"space": space, "conversation": "c", "session": "s", "messages": messages}
        response = http.post("/v1/messages", json=body)
        _http_expect(matrix, f"bad messages {n} / messages", response, 400, "input")
    broken = http.post(
        "/v1/messages",
        content=b'{"space": "x", "messages": [',
        headers={"Content-Type": "application/json"},
    )
    _http_expect(matrix, "broken JSON / messages", broken, 400, "input")
    _http_missing(matrix, served, "bad messages (nothing written)", space)

    log = served.log.read_text(errors="replace")
    matrix.check("server log", "Traceback" not in log, log[log.find("Traceback") :][:1500])
    matrix.done()


# Bad messages a client sends: each is refused with 400 before anything is written.
BAD_MESSAGES_HTTP: list[Any] = [
    [{"speaker": "Ana", "text": "   "}],
    [{"speaker": "🙂", "text": "hi"}],
    [{"speaker": "Ana", "text": "hi", "timestamp": "soonish"}],
    [{"speaker": "Ana", "text": "hi", "id": "m"}, {"speaker": "Ben", "text": "yo", "id": "m"}],
    [{"speaker": "Ana", "text": "nul \x00 inside"}],
    [{"text": "who said this?"}],
    [],
    "not a list",
]


def _jsonable(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {k: v.isoformat() if isinstance(v, datetime) else v for k, v in m.items()} for m in messages
    ]


# --- MCP ----------------------------------------------------------------------------------


def _mcp(folder: Path, body: Callable[[Any], Awaitable[None]]) -> str:
    """``graphmem mcp --allow-writes`` over stdio, driven by ``body``; returns its stderr."""
    pytest.importorskip("mcp")
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from graphmem.cli.main import main; main()", "mcp", "--allow-writes"],
        env=env,
        cwd=str(ROOT),
    )
    log = folder / f"mcp-{uuid.uuid4().hex[:6]}.log"

    async def main() -> None:
        with log.open("w") as errlog:
            async with Client(
                stdio_client(params, errlog=errlog), read_timeout_seconds=300
            ) as client:
                await body(client)

    anyio.run(main)
    return log.read_text(errors="replace")


async def _tool(matrix: Matrix, cell: str, client: Any, tool: str, **args: Any) -> Any:
    """The tool's structured result, or None after recording why the cell failed."""
    result = await client.call_tool(tool, args)
    text = result.content[0].text if result.content else ""
    if not matrix.check(cell, not result.is_error, text[:800]):
        return None
    return result.structured_content


async def _tool_error(
    matrix: Matrix, cell: str, client: Any, tool: str, naming: str | None, **args: Any
) -> None:
    """A tool error with graphmem's message: not the SDK's bare "Error executing tool X"
    of an unexpected exception (UnexpectedToolError), which hides what went wrong."""
    result = await client.call_tool(tool, args)
    text = result.content[0].text if result.content else ""
    if not matrix.check(cell, result.is_error, f"no error: {text[:300]}"):
        return
    prefix = f"Error executing tool {tool}"
    matrix.check(cell, text.startswith(f"{prefix}: "), f"an unexpected error: {text!r}")
    if naming is not None:
        matrix.check(cell, naming in text, f"does not name {naming!r}: {text}")


async def _mcp_missing(matrix: Matrix, client: Any, shape: str, space: str) -> None:
    for tool, args in (
        ("query", {"question": QUESTION}),
        ("ask", {"question": QUESTION}),
        ("stats", {}),
        ("history", {"subject": "Ana"}),
        ("forget_space", {}),
    ):
        await _tool_error(matrix, f"{shape} / {tool}", client, tool, space, space=space, **args)
    listed = await _tool(matrix, f"{shape} / spaces", client, "spaces")
    if listed is not None:
        names = [s["space"] for s in listed["spaces"]]
        matrix.check(f"{shape} / spaces", space not in names, f"{space} listed after reads")


def test_the_mcp_matrix(
    store: GraphStore, embedder: Embedder, folder: Path, names: Callable[[str], str]
) -> None:
    matrix = Matrix("MCP")
    spaces = {shape: names(f"mcp-{shape}") for shape in SHAPES}
    empty, missing, bad = names("mcp-empty"), names("mcp-missing"), names("mcp-bad")
    _empty_space(store, embedder, empty)

    async def body(client: Any) -> None:
        for shape, convs in SHAPES.items():
            space = spaces[shape]
            for conv in convs:
                for session in conv.sessions:
                    await _tool(
                        matrix,
                        f"{shape} / ingest_messages",
                        client,
                        "ingest_messages",
                        space=space,
                        conversation=conv.cid,
                        session=session.name,
                        messages=_jsonable(messages_of(session)),
                        builders="all",
                    )
            for strategy in SERVED_STRATEGIES:
                cell = f"{shape} / query {strategy}"
                found = await _tool(
                    matrix, cell, client, "query", question=QUESTION, space=space, strategy=strategy
                )
                if found is not None:
                    why = _citations(store, space, found["citations"], None)
                    matrix.check(cell, not why, why)
            found = await _tool(
                matrix,
                f"{shape} / query as_of",
                client,
                "query",
                question=QUESTION,
                space=space,
                as_of=AS_OF,
            )
            if found is not None:
                why = _citations(store, space, found["citations"], AS_OF_MOMENT)
                matrix.check(f"{shape} / query as_of", not why, why)
            await _tool(matrix, f"{shape} / ask", client, "ask", question=QUESTION, space=space)
            changes = await _tool(
                matrix, f"{shape} / history", client, "history", space=space, subject="Ana"
            )
            if changes is not None:
                why = _history(store, space, changes["changes"])
                matrix.check(f"{shape} / history", not why, why)
            counts = await _tool(matrix, f"{shape} / stats", client, "stats", space=space)
            if counts is not None:
                passages = counts["nodes"].get("Passage", 0)
                want = len(_expected_turns(convs))
                matrix.check(f"{shape} / stats", passages == want, f"{passages} of {want}")
            await _tool(matrix, f"{shape} / forget_space", client, "forget_space", space=space)
            await _mcp_missing(matrix, client, f"{shape} after forget", space)

        await _tool_error(
            matrix, "empty / query", client, "query", empty, question=QUESTION, space=empty
        )
        await _tool_error(matrix, "empty / stats", client, "stats", empty, space=empty)
        await _tool(matrix, "empty / forget_space", client, "forget_space", space=empty)
        await _mcp_missing(matrix, client, "missing", missing)
        for n, messages in enumerate(BAD_MESSAGES_HTTP):
            await _tool_error(
                matrix,
                f"bad messages {n} / ingest_messages",
                client,
                "ingest_messages",
                None,
                space=bad,
                conversation="c",
                session="s",
                messages=messages,
            )
        await _mcp_missing(matrix, client, "bad messages (nothing written)", bad)

    log = _mcp(folder, body)
    matrix.check("server stderr", "Traceback" not in log, log[log.find("Traceback") :][:1500])
    matrix.check("server stderr", "unexpected exception" not in log, log[-1500:])
    matrix.done()
