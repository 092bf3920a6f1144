"""The MCP probes of the hostile-client suite (tests/integration/serving/test_hostile_clients.py):
raw stdio lines for the framing, every tool's arguments, and the confinement."""

from __future__ import annotations

import json
from typing import Any

from tests.integration.serving.hostile_probes import (
    ACCEPTED,
    BAD_STRINGS,
    LONG,
    NON_STRINGS,
    OUTSIDE,
    QUESTION,
    RUN,
    A,
    B,
    McpProbe,
    _json,
    _known,
    _put,
    write,
)


# --- MCP -------------------------------------------------------------------------------
def rpc(ident: Any, method: str, params: Any = None, **extra: Any) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method, **extra}
    if params is not None:
        message["params"] = params
    return _json(message)


def call(ident: Any, tool: str, arguments: Any) -> bytes:
    return rpc(ident, "tools/call", {"name": tool, "arguments": arguments})


BAD_ID = "the id must be a string or an integer"


def _nested(levels: int, ident: int) -> bytes:
    """A query call whose budget nests ``levels`` lists deep."""
    args = b'{"question": "q", "space": "%s", "budget": ' % A.encode()
    head = b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": ' % ident
    return head + b'{"name": "query", "arguments": ' + args + b"[" * levels + b"]" * levels + b"}}}"


def _framing_probes() -> list[McpProbe]:
    """docs/mcp.md, "Framing": each line and its answer."""
    listed = {"jsonrpc": "2.0", "method": "tools/list"}
    big = {**QUESTION, "question": "q" * 5_000_000}
    rows: list[tuple[str, bytes, str, Any, int | None, tuple[str, ...], bool]] = [
        ("not-json", b"not json", "error", None, -32700, (), True),
        ("invalid-utf8", b"\xff\xfe{}", "error", None, -32700, (), False),
        ("empty-line", b"", "error", None, -32700, (), False),  # silent: a line, not JSON
        ("batch", _json([{**listed, "id": 1}]), "error", None, -32600, ("batch",), True),
        ("empty-batch", b"[]", "error", None, -32600, ("batch",), False),
        ("json-string", b'"hello"', "error", None, -32600, (), False),
        ("json-number", b"1", "error", None, -32600, (), False),
        ("object-id", _json({**listed, "id": {"a": 1}}), "error", None, -32600, (BAD_ID,), True),
        ("array-id", _json({**listed, "id": [2]}), "error", None, -32600, (BAD_ID,), True),
        ("fraction-id", _json({**listed, "id": 1.5}), "error", None, -32600, (BAD_ID,), True),
        ("bool-id", _json({**listed, "id": True}), "error", None, -32600, (BAD_ID,), False),
        ("null-id", _json({**listed, "id": None}), "error", None, -32600, (BAD_ID,), False),
        ("huge-int-id", _json({**listed, "id": 10**30}), "result", 10**30, None, (), False),
        ("100k-string-id", rpc("i" * 100_000, "ping"), "result", "i" * 100_000, None, (), False),
        ("no-jsonrpc", _json({"id": 10, "method": "tools/list"}), "error", 10, -32600, (), True),
        ("unknown-method", rpc(12, "nope/nope"), "error", 12, -32601, (), True),
        ("notification", _json(listed), "none", None, None, (), True),
        (
            "unknown-notification",
            _json({**listed, "method": "notifications/x"}),
            "none",
            None,
            None,
            (),
            False,
        ),
        (
            "a-response",
            _json({"jsonrpc": "2.0", "id": 99, "result": {}}),
            "none",
            99,
            None,
            (),
            False,
        ),
        ("nested-300", _nested(300, 13), "error", 13, -32600, ("nests too deeply",), True),
        ("nested-1500", _nested(1500, 14), "error", None, -32700, (), False),
        ("5mb-question", call(15, "query", big), "tool_error", 15, None, ("5,000,000",), True),
        ("5mb-not-json", b"x" * 5_000_000, "error", None, -32700, (), False),
        ("unknown-tool", call(16, "nope", {}), "tool_error", 16, None, ("nope",), True),
        (
            "unknown-argument",
            call(17, "query", {**QUESTION, "budgte": 100}),
            "tool_error",
            17,
            None,
            ("unknown argument 'budgte'",),
            True,
        ),
        ("no-params", rpc(19, "tools/call"), "error", 19, -32602, (), False),
        (
            "arguments-a-list",
            rpc(20, "tools/call", {"name": "query", "arguments": [1]}),
            "error",
            20,
            -32602,
            (),
            False,
        ),
        # silent: JSON-RPC's "invalid params", with the request's id
        ("params-a-list", rpc(18, "tools/call", [1]), "error", 18, -32602, (), False),
        (
            "jsonrpc-1.0",
            _json({"jsonrpc": "1.0", "id": 11, "method": "tools/list"}),
            "error",
            11,
            -32600,
            (),
            False,
        ),
    ]
    return [
        McpProbe(
            "framing",
            name,
            line,
            answer,
            ident,
            code,
            words=words,
            core=core,
            field="question" if name == "5mb-question" else None,
        )
        for name, line, answer, ident, code, words, core in rows
    ]


TOOLS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "query": (QUESTION, ["question", "space", "strategy"]),
    "ask": (QUESTION, ["question", "space", "strategy"]),
    "history": ({"space": A, "subject": "Ann"}, ["space", "subject"]),
    "stats": ({"space": A}, ["space"]),
    "forget_space": ({"space": B}, ["space"]),
    "ingest_messages": (
        {k: v for k, v in write("mcp").items()},
        [
            "space",
            "conversation",
            "session",
            "builders",
            "started_at",
            *(f"messages.0.{f}" for f in ("speaker", "text", "id", "caption", "timestamp")),
        ],
    ),
}


def _mcp_input_probes() -> list[McpProbe]:
    out: list[McpProbe] = []
    for tool, (base, fields) in TOOLS.items():
        for field in fields:
            for name, value in {**BAD_STRINGS, **NON_STRINGS}.items():
                args = _put(base, field, value)
                if tool == "ingest_messages" and field != "session":
                    args = _put(args, "session", f"m{len(out)}")
                ok = name in ACCEPTED.get(field, set())
                leaf = field.rsplit(".", 1)[-1]
                out.append(
                    McpProbe(
                        "input",
                        f"{tool}-{leaf}-{name}",
                        call(1000 + len(out), tool, args),
                        "result" if ok else "tool_error",
                        1000 + len(out),
                        field=None if ok else leaf,
                    )
                )
    for field, value in (
        ("budget", "100"),
        ("budget", 10),
        ("budget", 10**30),
        ("explain", "yes"),
        ("explain", 1),
        ("as_of", -1),
        ("as_of", "yesterday"),
        ("as_of", LONG),
    ):
        ident = 2000 + len(out)
        out.append(
            McpProbe(
                "input",
                f"query-{field}-{json.dumps(value)[:12]}",
                call(ident, "query", {**QUESTION, field: value}),
                "tool_error",
                ident,
                field=field,
                core=field == "budget",
            )
        )
    return out


def _mcp_confinement_probes() -> list[McpProbe]:
    out = []
    for space, kind in ((OUTSIDE, "stored"), (f"nobody-{RUN}", "missing"), (A.upper(), "case")):
        for tool, (base, _) in TOOLS.items():
            ident = f"c-{kind}-{tool}"
            out.append(
                McpProbe(
                    "confinement",
                    f"{kind}-{tool}",
                    call(ident, tool, {**base, "space": space}),
                    "tool_error",
                    ident,
                    words=("not served here",),
                    core=kind == "stored",
                )
            )
    for tool in ("query", "stats", "forget_space", "ingest_messages"):
        ident = f"c-1m-{tool}"
        out.append(
            McpProbe(
                "confinement",
                f"1m-space-{tool}",
                call(ident, tool, {**TOOLS[tool][0], "space": "s" * 1_000_000}),
                "tool_error",
                ident,
                field="space",
                words=("1,000,000 characters",),
                core=tool == "query",
            )
        )
    out += [
        McpProbe(
            "confinement",
            "empty-served-space",
            call("c-b", "stats", {"space": B}),
            "tool_error",
            "c-b",
            words=("no space",),
            core=True,
        ),
        McpProbe(
            "confinement",
            "spaces-listed",
            call("c-list", "spaces", {}),
            "result",
            "c-list",
            core=True,
        ),
    ]
    return out


MCP_PROBES: list[McpProbe] = _known(
    [*_framing_probes(), *_mcp_input_probes(), *_mcp_confinement_probes()]
)
