"""The HTTP side of a chat request: the body per structured-output mode, and what an
error from the server means (try again later, this request is invalid, or give up)."""

from __future__ import annotations

import email.utils
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import openai
from openai.types.chat import (
    ChatCompletionAssistantMessageParam,
    ChatCompletionMessageParam,
    ChatCompletionSystemMessageParam,
    ChatCompletionUserMessageParam,
)
from pydantic import BaseModel

from graphmem.llm.parse import with_schema_instruction
from graphmem.llm.types import FormatMode, Message


class Failure(Enum):
    TRANSIENT = "transient"  # may work if sent again: 429, 5xx, timeouts, connections
    REJECTED = "rejected"  # the server says this request is invalid: sending it again is futile
    FATAL = "fatal"  # no request will work: credentials, unknown model


# A 500 whose message is a request-validation error (llama.cpp's server answers a
# response_format it does not know this way) is about the request, not the server.
_VALIDATION_500 = re.compile(
    r"input should be|validation error|field required|extra inputs|response_format|"
    r"json_schema|exceed|context (window|length)|too long",
    re.IGNORECASE,
)


def classify(exc: openai.OpenAIError) -> Failure:
    if isinstance(exc, openai.APIConnectionError):  # APITimeoutError is a subclass
        return Failure.TRANSIENT
    if not isinstance(exc, openai.APIStatusError):
        return Failure.REJECTED
    status = exc.status_code
    if status in (401, 403, 404):
        return Failure.FATAL
    if status in (408, 409, 429):
        return Failure.TRANSIENT
    if status >= 500:
        about_request = _VALIDATION_500.search(status_message(exc))
        return Failure.REJECTED if about_request else Failure.TRANSIENT
    return Failure.REJECTED


def fatal_when_exhausted(exc: openai.OpenAIError) -> bool:
    """Still failing after every retry: nobody listening or a spent quota stops the run;
    a timeout or a 5xx may be this request's own problem (too long), so only it degrades."""
    if isinstance(exc, openai.APITimeoutError):
        return False
    if isinstance(exc, openai.APIConnectionError):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code == 429


def describe(exc: openai.OpenAIError) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "request timed out"
    if isinstance(exc, openai.APIConnectionError):
        return f"connection failed ({exc.__cause__ or exc})"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {status_message(exc)}"
    return str(exc)


def status_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, Mapping):
        message = body.get("message")
        if isinstance(message, str):
            return message
    return exc.message


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait per ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def request_body(
    messages: Sequence[Message], schema: type[BaseModel], mode: FormatMode
) -> tuple[list[ChatCompletionMessageParam], dict[str, Any]]:
    """The messages and the extra body fields (``response_format``) of one request."""
    json_schema = schema.model_json_schema()
    if mode == "json_schema":
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64] or "response"
        fmt: dict[str, Any] = {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": json_schema, "strict": False},
        }
        return to_params(messages), {"response_format": fmt}
    if mode == "json_object_schema":
        # The server compiles the schema into a grammar: the prompt need not repeat it.
        fmt = {"type": "json_object", "schema": json_schema}
        return to_params(messages), {"response_format": fmt}
    wire = to_params(with_schema_instruction(messages, json_schema))
    if mode == "json_object":
        return wire, {"response_format": {"type": "json_object"}}
    return wire, {}


def to_params(messages: Sequence[Message]) -> list[ChatCompletionMessageParam]:
    params: list[ChatCompletionMessageParam] = []
    for m in messages:
        if m.role == "system":
            params.append(ChatCompletionSystemMessageParam(role="system", content=m.content))
        elif m.role == "user":
            params.append(ChatCompletionUserMessageParam(role="user", content=m.content))
        else:
            params.append(ChatCompletionAssistantMessageParam(role="assistant", content=m.content))
    return params
