"""Errors as the HTTP API answers them: JSON with the class of the exit-code taxonomy
(graphmem/errors.py), never a stack trace.

Every error body is ``{"error": KIND, "exit_code": N, "message": ..., "hint": ...}``; KIND
and the status come from the error's class (docs/http.md lists them), the exit code is the
one the CLI would exit with for the same error, 0 for what only HTTP has (401, 403, 404,
405, 413, 429).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from neo4j.exceptions import DriverError, Neo4jError
from starlette.exceptions import HTTPException

from graphmem.errors import (
    CatalogError,
    ConfigError,
    EvaluationIncomplete,
    GraphmemError,
    InputError,
    LLMError,
    ModelLoadError,
    RefusedError,
    SchemaError,
    ServerError,
    UnknownIdError,
    UnknownSpaceError,
)
from graphmem.graph.store import driver_error

log = logging.getLogger("graphmem.http")

# class -> (kind, HTTP status); the most specific class first (LLMItemError is an LLMError,
# ServerLostError a ServerError).
STATUS: tuple[tuple[type[GraphmemError], str, int], ...] = (
    (InputError, "input", 400),
    (UnknownSpaceError, "unknown_space", 404),  # the request's mistake, not the server's
    (UnknownIdError, "unknown_id", 404),
    (ConfigError, "config", 500),
    (ServerError, "server", 503),
    (SchemaError, "schema", 500),
    (CatalogError, "catalog", 500),
    (LLMError, "llm", 502),
    (ModelLoadError, "model", 500),
    (EvaluationIncomplete, "evaluation", 500),
    (GraphmemError, "error", 500),
)
# What only the HTTP layer says (no exit code: no CLI command fails this way), by the
# status the framework or the guard answers.
HTTP_KINDS = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}
# Every "error" an answer may carry: the classes', the HTTP layer's, the guard's Host check
# (400), the service's refusals (graphmem.errors.RefusedError: forbidden, too_large, busy),
# the connection's deadlines (408 timeout, graphmem/http/protocol.py) and the unexpected.
KINDS = tuple(
    dict.fromkeys(
        [k for _, k, _ in STATUS]
        + [*HTTP_KINDS.values(), "bad_host", "busy", "timeout", "internal"]
    )
)


def error_body(kind: str, exit_code: int, message: str, hint: str | None = None) -> dict[str, Any]:
    return {"error": kind, "exit_code": exit_code, "message": message, "hint": hint}


def graphmem_response(exc: GraphmemError) -> JSONResponse:
    if isinstance(exc, RefusedError):  # the servers' own limits: no CLI exit code
        wait = {"retry-after": str(exc.retry_after)} if exc.retry_after else None
        body = error_body(exc.kind, 0, exc.message, exc.hint)
        return JSONResponse(body, status_code=exc.status, headers=wait)
    kind, status = next((k, s) for cls, k, s in STATUS if isinstance(exc, cls))
    if status >= 500:
        log.error("%s: %s", type(exc).__name__, exc)
    return JSONResponse(error_body(kind, exc.exit_code, exc.message, exc.hint), status_code=status)


def validation_sentence(exc: RequestValidationError) -> str:
    """pydantic's errors as one plain sentence: where, then what, no links or input dumps."""
    parts = []
    for err in exc.errors():
        where = [str(p) for p in err.get("loc", ()) if p not in ("body", "query")]
        kind = err.get("type", "")
        msg = str(err.get("msg", "is invalid"))
        if kind == "missing":
            msg = "is required"
        if kind == "json_invalid" or (not where and kind in ("dict_type", "model_attributes_type")):
            parts.append("the request body must be a JSON object (Content-Type: application/json)")
            continue
        field = f"field {'.'.join(where)!r}" if where else "the request"
        lower = msg[:1].lower() if msg[1:2].islower() else msg[:1]  # not "jSON"
        parts.append(f"{field}: {lower}{msg[1:]}")
    return "; ".join(parts) + "."


async def _on_graphmem(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GraphmemError)
    return graphmem_response(exc)


async def _on_validation(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(error_body("input", 3, validation_sentence(exc)), status_code=400)


# FastAPI's 400 for a body its JSON parser raised on with something other than a syntax
# error: bytes that are not UTF-8, a gzip body, nesting past the recursion limit, an
# integer past Python's digit limit. The client's mistake, as broken JSON is.
UNPARSED_BODY = (
    "the request body must be a JSON object in UTF-8 (Content-Type: application/json, no "
    "Content-Encoding), nested at most a few hundred levels, with numbers of at most 4,300 "
    "digits"
)


async def _on_http(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400:
        body = error_body("input", 3, UNPARSED_BODY + ".")
        return JSONResponse(body, status_code=400, headers=exc.headers)
    kind = HTTP_KINDS.get(exc.status_code, "error")
    return JSONResponse(
        error_body(kind, 0, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
    )


async def _on_driver(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Neo4jError | DriverError)
    return graphmem_response(driver_error(exc, "the configured server"))


async def _on_anything(_: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error", exc_info=exc)  # the server's log has the trace
    body = error_body("internal", 1, "internal error", "the server's log has the details")
    return JSONResponse(body, status_code=500)


HANDLERS: dict[int | type[Exception], Callable[[Request, Any], Coroutine[Any, Any, Response]]] = {
    GraphmemError: _on_graphmem,
    RequestValidationError: _on_validation,
    HTTPException: _on_http,
    Neo4jError: _on_driver,
    DriverError: _on_driver,
    Exception: _on_anything,
}
