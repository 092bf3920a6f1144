"""Structured generation against any OpenAI-compatible chat-completions endpoint.

The SDK's own retries are switched off (``max_retries=0``) because we retry here,
where the retry policy, the counters and the error messages are ours.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionAssistantMessageParam,
    ChatCompletionMessageParam,
    ChatCompletionSystemMessageParam,
    ChatCompletionUserMessageParam,
)
from openai.types.chat.completion_create_params import ResponseFormat
from pydantic import BaseModel, ValidationError

from graphmem.errors import ConfigError, LLMError
from graphmem.llm.base import Message, StructuredLLM, T
from graphmem.llm.cache import ResponseCache, cache_key

if TYPE_CHECKING:
    from graphmem.config import Settings

log = logging.getLogger(__name__)

# "unknown" until the server has either accepted or rejected a json_schema request.
_FormatMode = Literal["unknown", "json_schema", "json_object"]

_SNIPPET_CHARS = 200
_ERROR_DETAIL_CHARS = 1500
# Local servers (vLLM, Ollama, llama.cpp) ignore the key but the SDK insists on one.
_PLACEHOLDER_KEY = "not-needed"


class OpenAIStructuredLLM(StructuredLLM):
    """Schema-validated chat completions with retries, a repair turn and a response cache.

    Constructing one does no I/O: the HTTP client and the cache file open on first use.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        cache_path: Path | None = None,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        retry_after_max_s: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(concurrency=settings.llm_concurrency)
        if not settings.llm_model:
            raise ConfigError("no LLM model configured", hint="set GRAPHMEM_LLM_MODEL")
        if settings.llm_max_retries < 0 or settings.llm_timeout_s <= 0:
            raise ConfigError(
                "llm_max_retries must be >= 0 and llm_timeout_s > 0, got "
                f"{settings.llm_max_retries} and {settings.llm_timeout_s}"
            )
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        if key is None and settings.llm_base_url is None:
            raise ConfigError(
                "the OpenAI API needs a key",
                hint="set OPENAI_API_KEY (or GRAPHMEM_LLM_API_KEY), or point "
                "GRAPHMEM_LLM_BASE_URL at a local OpenAI-compatible server",
            )
        self._model = settings.llm_model
        self._base_url = settings.llm_base_url
        self._api_key = key or _PLACEHOLDER_KEY
        self._timeout_s = settings.llm_timeout_s
        self._max_retries = settings.llm_max_retries
        self._backoff_base_s = backoff_base_s
        self._backoff_max_s = backoff_max_s
        self._retry_after_max_s = retry_after_max_s
        self._sleep = sleep
        self.cache = ResponseCache.for_settings(settings, cache_path)
        self._client: openai.OpenAI | None = None
        self._client_lock = threading.Lock()
        # Bounds in-flight HTTP requests across all callers, not only generate_many.
        self._in_flight = threading.BoundedSemaphore(settings.llm_concurrency)
        self._mode: _FormatMode = "unknown"

    @property
    def model_name(self) -> str:
        return self._model

    @property
    def response_format_mode(self) -> _FormatMode:
        """How structured output is requested: learnt from the first answer."""
        return self._mode

    # --- the public call ----------------------------------------------------------------

    def generate(self, messages: Sequence[Message], schema: type[T]) -> T:
        key = cache_key(self._model, messages, schema) if self.cache is not None else None
        if self.cache is not None and key is not None:
            hit = self.cache.get(key)
            if hit is not None:
                try:
                    parsed = schema.model_validate_json(_strip_fences(hit))
                except ValidationError:
                    # Written by an older graphmem whose validation was looser: re-ask.
                    self.cache.delete(key)
                else:
                    self.usage.add(cached_calls=1)
                    return parsed
        content, parsed = self._generate_validated(list(messages), schema)
        if self.cache is not None and key is not None:
            self.cache.put(key, content, model=self._model, schema=schema.__name__)
        return parsed

    def close(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None
        if self.cache is not None:
            self.cache.close()

    # --- validation and the repair turn ---------------------------------------------------

    def _generate_validated(self, messages: list[Message], schema: type[T]) -> tuple[str, T]:
        raw = self._complete(messages, schema)
        try:
            return raw, schema.model_validate_json(_strip_fences(raw))
        except ValidationError as exc:
            problem = _summarize(exc)
        log.info("%s: output for %s did not validate, asking once to repair", self._model, schema)
        self.usage.add(repairs=1)
        repair = [
            *messages,
            Message(role="assistant", content=raw),
            Message(role="user", content=_repair_prompt(problem)),
        ]
        raw = self._complete(repair, schema)
        try:
            return raw, schema.model_validate_json(_strip_fences(raw))
        except ValidationError as exc:
            raise LLMError(
                f"{self._model} returned output that does not validate against "
                f"{schema.__name__}, even after a repair request: {_summarize(exc)}; "
                f"output begins {_snippet(raw)!r}",
                hint="a larger or instruction-tuned model usually fixes this; "
                "check that the server supports JSON output",
            ) from exc

    # --- transport: retries, backoff, response_format fallback ----------------------------

    def _complete(self, messages: Sequence[Message], schema: type[BaseModel]) -> str:
        attempt = 0
        while True:
            try:
                response = self._complete_once(messages, schema)
                break
            except openai.OpenAIError as exc:
                if not _is_transient(exc) or attempt >= self._max_retries:
                    raise self._as_llm_error(exc, attempts=attempt + 1) from exc
                delay = self._retry_delay(exc, attempt)
                log.warning(
                    "%s: %s (attempt %d of %d), retrying in %.2fs",
                    self._model,
                    _describe(exc),
                    attempt + 1,
                    self._max_retries + 1,
                    delay,
                )
                self.usage.add(retries=1)
                self._sleep(delay)
                attempt += 1
        usage = response.usage
        self.usage.add(
            calls=1,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
        )
        if not response.choices:
            return ""
        return response.choices[0].message.content or ""

    def _complete_once(
        self, messages: Sequence[Message], schema: type[BaseModel]
    ) -> ChatCompletion:
        if self._mode == "json_object":
            return self._send(messages, schema, "json_object")
        try:
            response = self._send(messages, schema, "json_schema")
        except openai.BadRequestError:
            if self._mode == "json_schema":
                raise  # json_schema is known to work, so this 400 is about something else
            log.info("%s: server rejected json_schema, probing json_object", self._model)
            # If this 400s too, the request itself is bad: the mode stays "unknown".
            response = self._send(messages, schema, "json_object")
            self._mode = "json_object"
            return response
        self._mode = "json_schema"
        return response

    def _send(
        self, messages: Sequence[Message], schema: type[BaseModel], mode: _FormatMode
    ) -> ChatCompletion:
        if mode == "json_schema":
            wire = _to_params(messages)
            response_format: ResponseFormat = {
                "type": "json_schema",
                "json_schema": {
                    "name": _schema_name(schema),
                    "schema": schema.model_json_schema(),
                    "strict": False,
                },
            }
        else:
            wire = _to_params(_with_schema_instruction(messages, schema))
            response_format = {"type": "json_object"}
        client = self._get_client()
        with self._in_flight:
            return client.chat.completions.create(
                model=self._model,
                messages=wire,
                temperature=0,
                response_format=response_format,
            )

    def _get_client(self) -> openai.OpenAI:
        with self._client_lock:
            if self._client is None:
                try:
                    self._client = openai.OpenAI(
                        base_url=self._base_url,
                        api_key=self._api_key,
                        timeout=self._timeout_s,
                        max_retries=0,
                    )
                except openai.OpenAIError as exc:
                    raise ConfigError(f"cannot create the OpenAI client: {exc}") from exc
            return self._client

    def _retry_delay(self, exc: openai.OpenAIError, attempt: int) -> float:
        if isinstance(exc, openai.APIStatusError):
            after = _retry_after_s(exc.response.headers)
            if after is not None:
                return min(after, self._retry_after_max_s)
        ceiling = min(self._backoff_max_s, self._backoff_base_s * 2.0**attempt)
        # "Equal jitter": never less than half the backoff, spread over the other half.
        return ceiling / 2 + random.uniform(0, ceiling / 2)

    def _as_llm_error(self, exc: openai.OpenAIError, *, attempts: int) -> LLMError:
        where = f"{self._model} at {self._base_url or 'api.openai.com'}"
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        hint: str | None = None
        if isinstance(exc, openai.APIStatusError) and exc.status_code in (401, 403):
            hint = "check OPENAI_API_KEY / GRAPHMEM_LLM_API_KEY"
        elif isinstance(exc, openai.NotFoundError):
            hint = "check GRAPHMEM_LLM_MODEL and GRAPHMEM_LLM_BASE_URL (usually ends in /v1)"
        elif isinstance(exc, openai.APITimeoutError):
            hint = "raise GRAPHMEM_LLM_TIMEOUT_S or lower GRAPHMEM_LLM_CONCURRENCY"
        elif isinstance(exc, openai.APIConnectionError):
            hint = "is the server at GRAPHMEM_LLM_BASE_URL running?"
        return LLMError(f"{where}: {_describe(exc)}{tries}", hint=hint)


# --- helpers ------------------------------------------------------------------------------


def _is_transient(exc: openai.OpenAIError) -> bool:
    """429, 5xx, timeouts and dropped connections may succeed later; nothing else will."""
    if isinstance(exc, openai.APIConnectionError):  # APITimeoutError is a subclass
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    return False


def _describe(exc: openai.OpenAIError) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "request timed out"
    if isinstance(exc, openai.APIConnectionError):
        return f"connection failed ({exc.__cause__ or exc})"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {_status_message(exc)}"
    return str(exc)


def _status_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, Mapping):
        message = body.get("message")
        if isinstance(message, str):
            return message
    return exc.message


def _retry_after_s(headers: Mapping[str, str]) -> float | None:
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


def _to_params(messages: Sequence[Message]) -> list[ChatCompletionMessageParam]:
    params: list[ChatCompletionMessageParam] = []
    for m in messages:
        if m.role == "system":
            params.append(ChatCompletionSystemMessageParam(role="system", content=m.content))
        elif m.role == "user":
            params.append(ChatCompletionUserMessageParam(role="user", content=m.content))
        else:
            params.append(ChatCompletionAssistantMessageParam(role="assistant", content=m.content))
    return params


def _with_schema_instruction(messages: Sequence[Message], schema: type[BaseModel]) -> list[Message]:
    """json_object mode cannot carry a schema, so the system prompt has to."""
    instruction = (
        "Reply with one JSON object and nothing else. It must validate against this "
        f"JSON Schema:\n{json.dumps(schema.model_json_schema(), ensure_ascii=False)}"
    )
    # Merged into the first system message: some chat templates allow only one.
    if messages and messages[0].role == "system":
        first = Message(role="system", content=f"{messages[0].content}\n\n{instruction}")
        return [first, *messages[1:]]
    return [Message(role="system", content=instruction), *messages]


def _repair_prompt(problem: str) -> str:
    return (
        "Your previous reply is not valid for the required JSON schema:\n"
        f"{problem}\n"
        "Reply again with only the corrected JSON object."
    )


def _schema_name(schema: type[BaseModel]) -> str:
    # OpenAI requires ^[a-zA-Z0-9_-]{1,64}$ for json_schema.name.
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64] or "response"


def _strip_fences(text: str) -> str:
    """Drop a ```json ... ``` wrapper, which small local models add even in JSON mode."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```") and len(stripped) > 6:
        body = stripped[3:-3]
        newline = body.find("\n")
        # The first line is a language tag ("json") unless the object starts right away.
        return body[newline + 1 :] if newline != -1 and "{" not in body[:newline] else body
    return stripped


def _summarize(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors(include_url=False)[:8]:
        loc = ".".join(str(part) for part in error["loc"]) or "(root)"
        lines.append(f"{loc}: {error['msg']}")
    return "; ".join(lines)[:_ERROR_DETAIL_CHARS]


def _snippet(text: str) -> str:
    return text if len(text) <= _SNIPPET_CHARS else text[:_SNIPPET_CHARS] + "…"
