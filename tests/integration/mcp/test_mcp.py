"""`graphmem mcp` driven over stdio by the official MCP SDK client: the tools it lists with
and without --allow-writes, ingest -> query -> ask -> stats -> forget on a fresh space, and
the errors a client sees (write tool refused, space outside --spaces, unknown strategy)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from tests.paths import ROOT

mcp = pytest.importorskip("mcp")
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

pytestmark = pytest.mark.integration
SAMPLE = ROOT / "examples" / "sample_conversation.jsonl"


def _server(*args: str) -> StdioServerParameters:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", "from graphmem.cli.main import main; main()", "mcp", *args],
        env=env,
        cwd=str(ROOT),
    )


def _drive(params: StdioServerParameters, body: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            await body(client)

    anyio.run(main)


def _sessions() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for line in SAMPLE.read_text().splitlines():
        row = json.loads(line)
        out.setdefault(row["session"], []).append(
            {k: row[k] for k in ("speaker", "text", "timestamp", "id")}
        )
    return out


async def _call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    return data


def test_read_only_by_default_and_spaces_are_enforced(settings: Settings) -> None:
    async def body(client: Client) -> None:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"query", "ask", "stats", "spaces", "history"}
        refused = await client.call_tool(
            "ingest_messages", {"space": "only-this", "conversation": "c", "session": "s"}
        )
        assert refused.is_error
        outside = await client.call_tool("stats", {"space": "another-space"})
        assert outside.is_error
        assert "not served here" in outside.content[0].text  # type: ignore[union-attr]
        for tool, args in (
            ("stats", {}),
            ("history", {"subject": "Maya"}),
            ("query", {"question": "x"}),
        ):
            empty = await client.call_tool(tool, {"space": "only-this", **args})  # none ingested
            assert empty.is_error
            # compared with the served spaces alone: no other space's name is given away
            said = empty.content[0].text  # type: ignore[union-attr]
            hint = "ingest into it first: graphmem ingest FILE --space only-this"
            assert said.endswith(f"no space 'only-this'\n  hint: {hint}"), said

    _drive(_server("--spaces", "only-this"), body)


def test_ingest_query_ask_stats_forget_over_stdio(
    settings: Settings, store: GraphStore, embedder: Embedder
) -> None:
    space = f"test-mcp-{uuid.uuid4().hex[:8]}"

    async def body(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == {
            "query",
            "ask",
            "stats",
            "spaces",
            "history",
            "ingest_messages",
            "forget_space",
            "forget_part",
            "redact_turns",
        }
        assert tools["forget_space"].annotations.destructive_hint  # type: ignore[union-attr]
        assert tools["forget_part"].annotations.destructive_hint  # type: ignore[union-attr]
        assert tools["query"].annotations.read_only_hint  # type: ignore[union-attr]
        for session, messages in _sessions().items():
            done = await _call(
                client,
                "ingest_messages",
                space=space,
                conversation="maya-and-tom",
                session=session,
                messages=messages,
                builders=["seem"],
            )
            assert done["passages_written"] == len(messages)
        await _query_contents(client, space, embedder)
        answered = await client.call_tool(
            "ask", {"question": "Where is Maya moving?", "space": space}
        )
        assert answered.structured_content["answer"] is None  # no LLM here
        assert "maya-and-tom/s3:1" in answered.structured_content["citations"]
        assert _text(answered).startswith("No answer (no LLM is configured)")
        assert answered.structured_content["context"] in _text(answered)
        await _bad_arguments(client, space)
        # As of the end of the second session: nothing of the third is cited.
        then = await _call(
            client, "query", question="Where is Maya moving?", space=space, as_of="2024-04-30"
        )
        assert then["citations"] and not any(c.startswith("s3:") for c in then["citations"])
        changes = await client.call_tool("history", {"space": space, "subject": "Maya"})
        assert not changes.is_error and changes.structured_content == {"changes": []}
        assert _text(changes) == "no change of 'Maya' is recorded (docs/validity.md)"
        counts = (await _call(client, "stats", space=space))["nodes"]
        assert counts["Passage"] == 19 and counts["EventFrame"] > 0
        listed = (await _call(client, "spaces"))["spaces"]
        assert {"space": space, "conversations": 1, "sessions": 3, "turns": 19} in listed
        hidden = {"space": space, "conversation": "maya-and-tom", "turns": ["s2:1"]}
        redacted = await _call(client, "redact_turns", **hidden, text="[gone]")
        assert redacted["turns"] == 1 and not redacted["dry_run"]
        part = {"space": space, "conversation": "maya-and-tom", "turns": ["s1:1"]}
        counted = await _call(client, "forget_part", **part, dry_run=True)
        assert counted["dry_run"] and counted["removed"]["Passage"] == 1
        done = await _call(client, "forget_part", **part)
        assert done["turns"] == 1 and not done["dry_run"]
        assert (await _call(client, "stats", space=space))["nodes"]["Passage"] == 18
        again = await client.call_tool("forget_part", part)
        assert again.is_error and "'s1:1'" in _text(again)
        gone = await _call(client, "forget_space", space=space)
        assert gone["deleted_nodes"] > 19

    try:
        _drive(_server("--allow-writes"), body)
    finally:
        while store.write("core.delete_space_batch", space=space, batch=5000)[0]["deleted"]:
            pass
    assert store.read("core.space_counts", space=space) == []


def _text(result: Any) -> str:
    assert len(result.content) == 1
    text: str = result.content[0].text
    return text


async def _query_contents(client: Client, space: str, embedder: Embedder) -> None:
    """The text content is the context alone, inside the budget; the structured one keeps
    items and citations; retrieval paths only with explain."""
    args = {"question": "What is the dog's name?", "space": space, "budget": 300}
    found = await client.call_tool("query", args)
    data = found.structured_content
    assert not found.is_error and _text(found) == data["context"]
    assert "maya-and-tom/s1:1" in data["citations"] and "Biscuit" in data["context"]
    assert 0 < data["tokens"] <= 300 and data["items"][0]["turns"]
    assert embedder.count_tokens(_text(found)) == data["tokens"]  # the text fits, to the token
    assert "path" not in data["items"][0] and "retrieval" not in _text(found)
    explained = await client.call_tool("query", {**args, "explain": True})
    assert explained.structured_content["items"][0]["path"]
    assert data["context"] in _text(explained) and "\n# explain\n" in _text(explained)


async def _bad_arguments(client: Client, space: str) -> None:
    """Each bad argument is one plain sentence naming it (no validator report, no link)."""
    cases = {
        "field 'budget': must be from 50 to 32,000 tokens, got 10": {"budget": 10},
        "budget: input should be a valid integer": {"budget": "lots"},
        "field 'question': must not be empty": {"question": "  "},
        "field 'strategy': unknown strategy 'nope'": {"strategy": "nope"},
        "question is required": {"question": None},
    }
    for expected, change in cases.items():
        args = {"question": "Where is Maya moving?", "space": space, **change}
        result = await client.call_tool("query", {k: v for k, v in args.items() if v is not None})
        text = _text(result)
        assert result.is_error and expected in text, text
        assert "pydantic" not in text and "http" not in text and "input_value" not in text
        assert text.count("\n") <= 1  # a graphmem error may add one hint line


def _mcp_until_eof(*args: str) -> subprocess.CompletedProcess[str]:
    """The server with stdin closed at once: it prepares, then ends at the end of input."""
    params = _server(*args)
    return subprocess.run(
        [params.command, *params.args],
        env=params.env,
        cwd=params.cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_prepare_readies_the_served_spaces_before_serving(
    settings: Settings, store: GraphStore
) -> None:
    space = f"test-mcp-{uuid.uuid4().hex[:8]}"
    memory = Memory(settings, store=store)
    try:
        memory.ingest(SAMPLE, space=space, builders=["seem"])
        done = _mcp_until_eof("--prepare", "--spaces", space)
        assert done.returncode == 0, done.stderr
        assert f"prepared graphmem over {space} in " in done.stderr
        assert done.stdout == ""  # stdout is the protocol's: nothing else is written there
    finally:
        memory.forget(space)

    missing = _mcp_until_eof("--prepare", "--spaces", f"test-mcp-{uuid.uuid4().hex[:8]}")
    assert missing.returncode == 2  # UnknownSpaceError: the documented exit code
    assert "no space 'test-mcp-" in missing.stderr and "Traceback" not in missing.stderr
