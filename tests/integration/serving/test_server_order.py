"""Issue 62: the servers' one write path and its order, over real processes. Writes of
HTTP and MCP are applied one at a time in the order of acceptance (their ``sequence``): the
graph equals those writes replayed one by one in that order, a conversation's new sessions
are numbered in it; reads of another space and ``/health`` answer while a write runs; a
write past ``api_max_write_messages`` is refused before it waits."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import anyio
import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from tests.conftest import delete_space
from tests.integration.sample_space import package_builders

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("mcp")
from mcp import Client  # noqa: E402

from benchmarks.http_load import sample_sessions, serve  # noqa: E402
from tests.integration.mcp.test_mcp import _drive, _server, _text  # noqa: E402

pytestmark = pytest.mark.integration

LINES = [
    "I adopted a beagle called Pepper from the shelter on Sunday.",
    "My brother Sam moved to Lisbon for a job at a design studio.",
    "We are planning a hiking trip to the Dolomites in July.",
    "I finally finished the pottery class and made three bowls.",
]


def _session(conversation: str, number: int, turns: int = 4) -> dict[str, Any]:
    """A small session of two speakers, a day later per number."""
    day = f"2024-03-{number + 1:02d}T10:00:00"
    messages = [
        {"speaker": ("Ana", "Ben")[i % 2], "text": f"{LINES[(i + number) % len(LINES)]} ({i})"}
        for i in range(turns)
    ]
    return {
        "conversation": conversation,
        "session": f"s{number}",
        "started_at": day,
        "messages": messages,
    }


@contextmanager
def _api(*args: str) -> Iterator[Any]:
    """An API client of ``graphmem serve ARGS``."""
    with (
        serve(*args) as served,
        httpx.Client(base_url=served.base, headers=served.headers, timeout=600) as http,
    ):
        yield http


def test_concurrent_writes_with_builders_equal_their_replay_in_sequence(
    settings: Settings, store: GraphStore, embedder: Embedder
) -> None:
    """Six writes of two conversations from three clients at once, every builder: the
    graph is the one the six leave replayed one at a time in ``sequence`` order."""
    space, replay = f"order-{uuid.uuid4().hex[:8]}", f"replay-{uuid.uuid4().hex[:8]}"
    writes = [_session(("c1", "c2")[n % 2], n // 2 + 1) for n in range(6)]
    try:
        with _api("--allow-writes", "--spaces", space) as http:

            def post(body: dict[str, Any]) -> dict[str, Any]:
                answer = http.post("/v1/messages", json={**body, "space": space})
                assert answer.status_code == 200, answer.text
                return {**body, "sequence": answer.json()["sequence"]}

            with ThreadPoolExecutor(3) as pool:
                done = list(pool.map(post, writes))
        assert sorted(d["sequence"] for d in done) == list(range(1, 7))
        memory = Memory(settings, store=store, embedder=embedder)
        for write in sorted(done, key=lambda d: d["sequence"]):
            memory.add_messages(
                replay,
                write["conversation"],
                write["session"],
                write["messages"],
                started_at=datetime.fromisoformat(write["started_at"]),
                # the server's "all"; this process may hold example plug-ins besides
                builders=package_builders(),
            )
        served_digest, replayed = space_digest(store, space), space_digest(store, replay)
        assert served_digest.labels == replayed.labels
        assert served_digest.nodes_sha256 == replayed.nodes_sha256
        assert served_digest.relationships_sha256 == replayed.relationships_sha256
    finally:
        delete_space(store, space)
        delete_space(store, replay)


def test_reads_elsewhere_and_health_answer_while_a_write_runs(store: GraphStore) -> None:
    """A write with every builder holds the writers' line for seconds: ``/health`` and a
    query of another space are answered before it returns; a read of the written space
    comes after it."""
    busy, other = f"busy-{uuid.uuid4().hex[:8]}", f"other-{uuid.uuid4().hex[:8]}"
    long_write = _session("long", 1, turns=400)
    try:
        with _api("--allow-writes") as http:
            for session, messages in sample_sessions().items():
                body = {"space": other, "conversation": "maya", "session": session}
                http.post("/v1/messages", json={**body, "messages": messages}).raise_for_status()
            question = {"question": "What is the dog's name?", "space": other}
            http.post("/v1/query", json=question).raise_for_status()  # prepared, warm
            finished: dict[str, float] = {}

            def write() -> None:
                answer = http.post("/v1/messages", json={**long_write, "space": busy})
                assert answer.status_code == 200, answer.text
                finished["write"] = time.monotonic()

            writer = threading.Thread(target=write)
            writer.start()
            time.sleep(1.0)  # the write has its turn (it is the only one)
            assert http.get("/health").status_code == 200
            finished["health"] = time.monotonic()
            assert http.post("/v1/query", json=question).status_code == 200
            finished["query"] = time.monotonic()
            same = http.get("/v1/stats", params={"space": busy})
            finished["same"] = time.monotonic()
            writer.join(600)
        assert finished["health"] < finished["write"] and finished["query"] < finished["write"]
        assert same.status_code == 200 and same.json()["nodes"]["Passage"] == 400  # after the write
        assert finished["same"] >= finished["write"]
    finally:
        delete_space(store, busy)
        delete_space(store, other)


def test_a_write_past_the_message_cap_is_413_over_http_and_an_error_over_mcp(
    store: GraphStore,
) -> None:
    space = f"cap-{uuid.uuid4().hex[:8]}"
    body = {**_session("c", 1, turns=4), "space": space}
    cap = {"GRAPHMEM_API_MAX_WRITE_MESSAGES": "3"}
    with serve("--allow-writes", env=cap) as served:
        refused = httpx.post(f"{served.base}/v1/messages", json=body, headers=served.headers)
    assert refused.status_code == 413, refused.text
    assert refused.json()["error"] == "too_large" and refused.json()["exit_code"] == 0
    assert "4 messages in one write; at most 3" in refused.json()["message"]

    async def over_mcp(client: Client) -> None:
        result = await client.call_tool("ingest_messages", body)
        assert result.is_error and "4 messages in one write; at most 3" in _text(result)

    params = _server("--allow-writes")
    params.env = {**(params.env or {}), **cap}
    _drive(params, over_mcp)
    assert not store.read("core.space_exists", space=space)[0]["exists"]


def test_concurrent_mcp_writes_number_new_sessions_in_acceptance_order(
    store: GraphStore,
) -> None:
    """Eight new sessions of one conversation at once over one stdio connection: indexes
    1-8, in the order of the writes' ``sequence``."""
    space = f"mcp-order-{uuid.uuid4().hex[:8]}"
    sequences: dict[str, int] = {}

    async def body(client: Client) -> None:
        async def one(number: int) -> None:
            args = {**_session("chat", number, turns=2), "space": space, "builders": []}
            args["session"] = f"g{number}"
            result = await client.call_tool("ingest_messages", args)
            assert not result.is_error, _text(result)
            sequences[f"g{number}"] = result.structured_content["sequence"]

        async with anyio.create_task_group() as group:
            for number in range(1, 9):
                group.start_soon(one, number)

    try:
        _drive(_server("--allow-writes"), body)
        rows = store.read("core.conversation_sessions", space=space, conversation_id="chat")
        indexes = {row["source_id"]: row["index"] for row in rows}
        by_sequence = sorted(sequences, key=sequences.__getitem__)
        first = min(indexes.values())
        assert [indexes[name] for name in by_sequence] == list(range(first, first + 8))
    finally:
        delete_space(store, space)
