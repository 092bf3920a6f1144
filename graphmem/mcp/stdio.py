"""A JSON-RPC error for every stdio line the MCP SDK cannot read (issue 62).

The SDK's stdio transport hands the server an exception for a line it cannot validate (not
JSON, a batch, an id that is an object, nesting past its parser's ~197 levels) and the
server only logs it: a client that sent a request waits for its timeout. This reader sits
between the transport and the server and answers each such request with the JSON-RPC
error the specification gives (parse error, id null; invalid request, with the request's
id when it has a usable one), then lets the exception through to be logged as before.
Notifications and responses get no answer, as JSON-RPC says.

The SDK reads a request whose id is an object, an array, a fraction, a boolean or null as a
notification and drops the id before the server sees it, so such a request would go
unanswered, and it answers a request with another ``"jsonrpc"`` or with ``params`` that are
not an object without the request's id: ``screened_lines`` looks at each line before the SDK
does and hands it such a line marked with its answer, which the SDK cannot read and this
reader sends (invalid request or invalid params; id null when the id cannot be used). A
line nested past Python's own parser (~1,000 levels) is answered as a parse error with a
null id, as the specification says.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Self

import anyio
import mcp_types as types
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

Item = SessionMessage | Exception
# A line screened out reaches the SDK as this prefix and the answer it gets, which is not
# JSON: the SDK hands the reader its exception, and the reader answers as the mark says.
MARK = "\x00graphmem:"


def screen(line: str) -> str | None:
    """The mark for a request the SDK would misread, or None. It reads a request whose id
    JSON-RPC does not allow (an object, an array, a fraction, a boolean, null) as a
    notification, never answered; one with ``"jsonrpc"`` other than "2.0", or ``params``
    that are not an object, as no message at all, answered without its id."""
    if '"id"' not in line:  # a notification, or no request: no parse
        return None
    try:
        parsed = json.loads(line)
    except (ValueError, RecursionError):
        return None  # the SDK's own error answers it
    if not isinstance(parsed, dict) or "method" not in parsed or "id" not in parsed:
        return None
    ident = parsed["id"]
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        answer = [
            types.INVALID_REQUEST,
            None,
            "invalid request: the id must be a string or an integer",
        ]
    elif "jsonrpc" in parsed and parsed["jsonrpc"] != "2.0":
        answer = [types.INVALID_REQUEST, ident, 'invalid request: "jsonrpc" must be "2.0"']
    elif "params" in parsed and not isinstance(parsed["params"], dict):
        answer = [types.INVALID_PARAMS, ident, "invalid params: params must be an object"]
    else:
        return None
    return MARK + json.dumps(answer) + "\n"


async def screened_lines(lines: AsyncIterable[str]) -> AsyncIterator[str]:
    """``lines`` as the SDK should read them: one it would misread marked (``screen``)."""
    async for line in lines:
        yield screen(line) or line


@contextmanager
def claimed_stdio() -> Iterator[tuple[io.TextIOWrapper, io.TextIOWrapper]]:
    """The process's stdin and stdout as private text streams for the protocol, while fd 0
    reads the null device and fd 1 writes to stderr (what the SDK does when it opens them
    itself): a library that prints cannot corrupt the protocol. Restored on exit."""
    sys.stdout.flush()
    private_in, private_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    stdin = io.TextIOWrapper(
        os.fdopen(private_in, "rb", closefd=False), encoding="utf-8", errors="replace"
    )
    stdout = io.TextIOWrapper(os.fdopen(private_out, "wb", closefd=False), encoding="utf-8")
    try:
        yield stdin, stdout
    finally:
        stdout.flush()
        os.dup2(private_in, 0)
        os.dup2(private_out, 1)
        os.close(private_in)
        os.close(private_out)


def unreadable_reply(exc: Exception) -> types.JSONRPCError | None:
    """The error that answers the line behind ``exc``, or None when nothing should."""
    if not isinstance(exc, ValidationError) or not exc.errors():
        return None
    first = exc.errors()[0]
    unparsed = first.get("type") == "json_invalid"  # else the input is the parsed value
    marked = str(first.get("input", "")) if unparsed else ""
    if marked.startswith(MARK):
        code, ident, message = json.loads(marked.removeprefix(MARK))
        return _error(ident, code, message)
    try:
        parsed = json.loads(first.get("input", "")) if unparsed else first.get("input")
    except (ValueError, RecursionError):
        return _error(None, types.PARSE_ERROR, "parse error: the line is not JSON")
    if isinstance(parsed, list):
        return _error(None, types.INVALID_REQUEST, "invalid request: batches are not supported")
    if not isinstance(parsed, dict) or "method" not in parsed:
        # a response, or a value that is no message: answered only when it is not a request
        return None if isinstance(parsed, dict) else _invalid(None, "not a JSON-RPC message")
    if "id" not in parsed:
        return None  # a notification: never answered
    ident = parsed["id"]
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return _invalid(None, "the id must be a string or an integer")
    if unparsed:  # JSON to Python's parser, but past the SDK parser's depth
        return _invalid(ident, "the message nests too deeply (at most about 190 levels)")
    return _invalid(ident, "not a valid JSON-RPC request")


def _invalid(ident: int | str | None, why: str) -> types.JSONRPCError:
    return _error(ident, types.INVALID_REQUEST, f"invalid request: {why}")


def _error(ident: int | str | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=message)
    )


class AnsweringReader:
    """``inner`` as the server reads it, answering each unreadable request on ``writer``."""

    def __init__(self, inner: ReadStream[Item], writer: WriteStream[SessionMessage]) -> None:
        self._inner = inner
        self._writer = writer

    @property
    def last_context(self) -> Any:  # the sender's context, which the dispatcher looks for
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Item:
        item = await self._inner.receive()
        if isinstance(item, Exception):
            reply = unreadable_reply(item)
            if reply is not None:
                await self._writer.send(SessionMessage(reply))
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Item:
        try:
            return await self.receive()
        except anyio.EndOfStream:  # as the transport's own iterator ends
            raise StopAsyncIteration from None

    async def __aenter__(self) -> Self:
        await self._inner.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        return await self._inner.__aexit__(exc_type, exc_val, exc_tb)
