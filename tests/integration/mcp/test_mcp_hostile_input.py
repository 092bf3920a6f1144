"""Issue 62, `graphmem mcp` under a hostile client, over real stdio: the strings, types and
unknown arguments HTTP refuses are tool errors here too (one rule, graphmem.serving.limits), and a
request the SDK's transport cannot read (nested too deeply, not JSON, a batch, no
``jsonrpc``) gets a JSON-RPC error instead of silence. Every case is refused before any I/O."""

from __future__ import annotations

import json
import select
import subprocess
from typing import Any

import pytest

from tests.integration.mcp.test_mcp import _drive, _server, _text

pytest.importorskip("mcp")
from mcp import Client

pytestmark = pytest.mark.integration
GOOD = {"question": "What is the dog called?", "space": "mine"}


async def _refused(client: Client, tool: str, args: dict[str, Any], *words: str) -> None:
    result = await client.call_tool(tool, args)
    text = _text(result)
    assert result.is_error, text
    assert len(text) < 1000, text[:200]  # nothing sent is echoed whole
    for word in words:
        assert word in text, text


def test_bad_strings_types_and_unknown_arguments_are_tool_errors() -> None:
    async def body(client: Client) -> None:
        for question in ("\u0000", "dog\u0000name", "\u0001\u0002\u001b[31m"):
            for tool in ("query", "ask"):
                args = {**GOOD, "question": question}
                await _refused(client, tool, args, "'question'", "control character")
        for subject in ("", "a\u0000b", "x" * 100_000):
            await _refused(client, "history", {"space": "mine", "subject": subject}, "'subject'")
        for field, value in (("budget", "100"), ("explain", "yes"), ("as_of", -1)):
            await _refused(client, "query", {**GOOD, field: value}, field)
        await _refused(client, "query", {**GOOD, "space": "s" * 1_000_000}, "'space'")
        await _refused(client, "query", {**GOOD, "budgte": 100}, "unknown argument 'budgte'")
        await _refused(client, "spaces", {"space": "mine"}, "unknown argument 'space'")

    _drive(_server("--spaces", "mine"), body)


def _rpc(lines: list[str]) -> list[dict[str, Any] | None]:
    """Each line sent after the handshake, and the server's answer to it (None: none came
    within 30 s)."""
    params = _server()
    proc = subprocess.Popen(
        [params.command, *params.args],
        env=params.env,
        cwd=params.cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
    head = [
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
    answers: list[dict[str, Any] | None] = []
    try:
        for i, line in enumerate([*head, *lines]):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            if i == 1:
                continue  # a notification: no answer
            ready, _, _ = select.select([proc.stdout], [], [], 30 if i else 300)
            answers.append(json.loads(proc.stdout.readline()) if ready else None)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    return answers[1:]


def test_unreadable_requests_get_a_json_rpc_error() -> None:
    deep: Any = 1
    for _ in range(250):
        deep = [deep]
    call = {"name": "query", "arguments": {**GOOD, "budget": deep}}
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": call}),
        "not json",
        json.dumps([{"jsonrpc": "2.0", "id": 8, "method": "tools/list"}]),
        json.dumps({"id": 10, "method": "tools/list"}),  # no "jsonrpc"
        *(
            json.dumps({"jsonrpc": "2.0", "id": bad, "method": "tools/list"})
            for bad in ({"a": 1}, [1], 1.5, True, None)  # ids JSON-RPC does not allow
        ),
        json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}),  # still serving
    ]
    deep_answer, not_json, batch, no_version, *bad_ids, listed = _rpc(lines)
    for answer in bad_ids:
        assert answer is not None and answer["id"] is None, answer
        assert (
            answer["error"]["code"] == -32600
            and "string or an integer" in answer["error"]["message"]
        )
    assert deep_answer is not None and deep_answer["id"] == 7
    assert "nests too deeply" in deep_answer["error"]["message"]
    assert not_json is not None and not_json["error"]["code"] == -32700
    assert batch is not None and "batches" in batch["error"]["message"]
    assert no_version is not None and no_version["id"] == 10
    assert no_version["error"]["code"] == -32600
    assert listed is not None and listed["id"] == 9 and listed["result"]["tools"]
