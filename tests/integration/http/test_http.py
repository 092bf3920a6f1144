"""`graphmem serve` as a real uvicorn process on a free 127.0.0.1 port, against the real
Neo4j: messages -> query -> ask -> stats -> spaces -> forget on a fresh space, and the
errors a client sees (token, confinement, bad input, a space that holds nothing)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid

import pytest

from graphmem.graph.store import GraphStore

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
from benchmarks.http_load import ROOT, free_port, sample_sessions, serve  # noqa: E402

pytestmark = pytest.mark.integration


def test_the_api_over_a_real_server(store: GraphStore) -> None:
    space = f"test-http-{uuid.uuid4().hex[:8]}"
    try:
        with serve("--allow-writes", "--spaces", space) as served:
            http = httpx.Client(base_url=served.base, headers=served.headers, timeout=120)
            _check_errors(http, served.base, space)
            for session, messages in sample_sessions().items():
                body = {
                    "space": space,
                    "conversation": "maya-and-tom",
                    "session": session,
                    "messages": messages,
                    "builders": ["seem"],
                }
                done = http.post("/v1/messages", json=body)
                assert done.status_code == 200, done.text
                assert done.json()["passages_written"] == len(messages)
            q = {"question": "What is the dog's name?", "space": space, "budget": 300}
            found = http.post("/v1/query", json=q).json()
            assert "maya-and-tom/s1:1" in found["citations"] and "Biscuit" in found["context"]
            assert found["tokens"] <= 300 and "path" not in found["items"][0]
            explained = http.post("/v1/query", json={**q, "explain": True}).json()
            assert explained["items"][0]["path"]
            asked = http.post("/v1/ask", json={**q, "question": "Where is Maya moving?"}).json()
            assert (
                asked["answer"] is None and "maya-and-tom/s3:1" in asked["citations"]
            )  # no LLM here
            then = {**q, "question": "Where is Maya moving?", "as_of": "2024-04-30"}
            cited = http.post("/v1/ask", json=then).json()["citations"]
            assert cited and not any(c.startswith("s3:") for c in cited)
            changes = http.get("/v1/history", params={"space": space, "subject": "Maya"})
            assert changes.status_code == 200 and changes.json() == {"changes": []}
            counts = http.get("/v1/stats", params={"space": space}).json()["nodes"]
            assert counts["Passage"] == 19 and counts["EventFrame"] > 0
            listed = http.get("/v1/spaces").json()["spaces"]
            assert listed == [{"space": space, "conversations": 1, "sessions": 3, "turns": 19}]
            hide = {"space": space, "conversation": "maya-and-tom", "turns": ["s2:1"]}
            redacted = http.post("/v1/redact", json={**hide, "text": "[gone]"})
            assert redacted.status_code == 200 and redacted.json()["turns"] == 1, redacted.text
            part = {"space": space, "conversation": "maya-and-tom", "session": "s1"}
            first = len(sample_sessions()["s1"])
            counted = http.post("/v1/forget", json={**part, "dry_run": True}).json()
            assert counted["dry_run"] and counted["removed"]["Passage"] == first
            assert http.get("/v1/stats", params={"space": space}).json()["nodes"] == counts
            done = http.post("/v1/forget", json=part)
            assert done.status_code == 200 and done.json()["sessions"] == 1, done.text
            left = http.get("/v1/stats", params={"space": space}).json()["nodes"]
            assert left["Passage"] == 19 - first
            again = http.post("/v1/forget", json=part)
            assert again.status_code == 404 and again.json()["error"] == "unknown_id"
            assert again.json()["exit_code"] == 2 and "'s1'" in again.json()["message"]
            gone = http.post("/v1/forget", json={"space": space}).json()
            assert gone["deleted_nodes"] > 19
            after = http.get("/v1/stats", params={"space": space})  # forgotten: none now
            assert after.status_code == 404 and after.json()["error"] == "unknown_space"
    finally:
        while store.write("core.delete_space_batch", space=space, batch=5000)[0]["deleted"]:
            pass


def _check_errors(http: httpx.Client, base: str, space: str) -> None:
    assert httpx.get(f"{base}/health").json()["writes"] is True
    assert httpx.get(f"{base}/v1/spaces").status_code == 401
    # Nothing stored yet: a space that does not exist, exit code 2 (issue 57); a server
    # confined to some spaces compares the name with those alone.
    for missing in (
        http.get("/v1/stats", params={"space": space}),
        http.get("/v1/history", params={"space": space, "subject": "Maya"}),
        http.post("/v1/query", json={"question": "x", "space": space}),
        http.post("/v1/forget", json={"space": space}),
    ):
        assert missing.status_code == 404, missing.text
        assert missing.json() == {
            "error": "unknown_space",
            "exit_code": 2,
            "message": f"no space {space!r}",
            "hint": f"ingest into it first: graphmem ingest FILE --space {space}",
        }
    outside = http.post("/v1/query", json={"question": "x", "space": "someone-else"})
    assert outside.status_code == 403
    small = http.post("/v1/query", json={"question": "x", "space": space, "budget": 10})
    assert small.status_code == 400 and "Traceback" not in small.text
    bad = {
        "space": space,
        "conversation": "c",
        "session": "s",
        "messages": [{"speaker": "A", "text": " "}],
    }
    refused = http.post("/v1/messages", json=bad)
    assert refused.status_code == 400
    said = refused.json()["message"]
    assert said == "record message 0, field 'text': text is empty or whitespace only"
    assert "/v1/messages" in http.get("/openapi.json").json()["paths"]


def _serve_until_exit(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-c", "from graphmem.cli.main import main; main()", "serve"]
    return subprocess.run(
        [*command, *args], env=env, cwd=str(ROOT), capture_output=True, text=True, timeout=300
    )


def test_serve_refuses_a_busy_port_and_an_empty_prepared_space(store: GraphStore) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = str(taken.getsockname()[1])
        busy = _serve_until_exit("--port", port)
    assert busy.returncode == 2 and "cannot listen on 127.0.0.1:" in busy.stderr
    empty = f"test-http-{uuid.uuid4().hex[:8]}"
    refused = _serve_until_exit("--port", str(free_port()), "--prepare", "--spaces", empty)
    assert refused.returncode == 2  # UnknownSpaceError, as `graphmem mcp --prepare` says
    assert f"no space {empty!r}" in refused.stderr and "Traceback" not in refused.stderr
