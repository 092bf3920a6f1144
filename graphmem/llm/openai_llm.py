"""Structured generation against any OpenAI-compatible chat-completions endpoint.

The SDK's own retries are switched off (``max_retries=0``) because we retry here, where
the retry policy, the counters and the error messages are ours. Per request: the cache,
then the negotiated structured-output mode, bounded retries of transient failures, then
validation with up to ``llm_max_repairs`` repair turns. What cannot be answered raises
``LLMItemError`` (the caller degrades that item); what makes every request fail raises
``LLMError``.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import openai
from pydantic import BaseModel

from graphmem.errors import ConfigError, LLMError, LLMItemError
from graphmem.llm.base import StructuredLLM
from graphmem.llm.cache import ResponseCache, cache_key
from graphmem.llm.negotiate import FormatNegotiator
from graphmem.llm.parse import parse_answer, repair_prompt, snippet
from graphmem.llm.types import FormatMode, Message, T
from graphmem.llm.wire import (
    Failure,
    classify,
    describe,
    fatal_when_exhausted,
    request_body,
    retry_after_s,
)

if TYPE_CHECKING:
    from graphmem.config import Settings

log = logging.getLogger(__name__)

# Local servers (vLLM, Ollama, llama.cpp) ignore the key but the SDK insists on one.
_PLACEHOLDER_KEY = "not-needed"


class _Rejected(LLMItemError):
    """The server called this request invalid: never sent again as it is."""


class _Invalid(LLMItemError):
    """The answers did not validate, repairs included."""


# Cache entries recording that a request never gave a valid answer start with this.
_INVALID_MARK = "!invalid:"


class OpenAIStructuredLLM(StructuredLLM):
    """Schema-validated chat completions with retries, repair turns and a response cache.

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
        self._max_repairs = settings.llm_max_repairs
        self._max_tokens = settings.llm_max_tokens
        self._backoff_base_s = backoff_base_s
        self._backoff_max_s = backoff_max_s
        self._retry_after_max_s = retry_after_max_s
        self._sleep = sleep
        self.cache = ResponseCache.for_settings(settings, cache_path)
        self._client: openai.OpenAI | None = None
        self._client_lock = threading.Lock()
        # Bounds in-flight HTTP requests across all callers, not only generate_many.
        self._in_flight = threading.BoundedSemaphore(settings.llm_concurrency)
        self._formats = FormatNegotiator(settings.llm_response_format)

    @property
    def model_name(self) -> str:
        return self._model

    @property
    def response_format_mode(self) -> FormatMode | None:
        """The structured-output mode the server accepted; None until one request has."""
        return self._formats.mode if self._formats.settled else None

    # --- the public call ----------------------------------------------------------------

    def generate(self, messages: Sequence[Message], schema: type[T]) -> T:
        key = cache_key(self._model, messages, schema) if self.cache is not None else None
        if self.cache is not None and key is not None:
            hit = self.cache.get(key)
            if hit is not None and hit.startswith(_INVALID_MARK):
                # At temperature 0 the same request gets the same invalid answer: the
                # re-run degrades this item again without paying for it again.
                self.usage.add(cache_hits=1)
                raise LLMItemError(f"{self._model}: cached: {hit[len(_INVALID_MARK) :]}")
            if hit is not None:
                parsed = parse_answer(hit, schema)
                if not isinstance(parsed, str):
                    self.usage.add(cache_hits=1)
                    return parsed
                # Written by an older graphmem whose schema was looser: ask again.
                self.cache.delete(key)
        try:
            answer = self._validated(list(messages), schema)
        except _Invalid as exc:
            if self.cache is not None and key is not None:
                self.cache.put(key, _INVALID_MARK + exc.message, model=self._model)
            raise
        if self.cache is not None and key is not None:
            self.cache.put(key, answer.model_dump_json(), model=self._model, schema=schema.__name__)
        return answer

    def sweep(self, space: str, conversations: Sequence[str] | None, before: float) -> int:
        return 0 if self.cache is None else self.cache.sweep(space, conversations, before)

    def close(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None
        if self.cache is not None:
            self.cache.close()

    # --- validation and repair turns ------------------------------------------------------

    def _validated(self, messages: list[Message], schema: type[T]) -> T:
        conversation = list(messages)
        for repair in range(self._max_repairs + 1):
            raw, truncated = self._complete(conversation, schema)
            parsed = parse_answer(raw, schema)
            if not isinstance(parsed, str):
                return parsed
            problem = parsed
            if repair == self._max_repairs:
                break
            log.info(
                "%s: answer for %s is invalid (%s), asking to repair",
                self._model,
                schema.__name__,
                problem,
            )
            self.usage.add(repairs=1)
            conversation += [
                Message(role="assistant", content=raw),
                Message(
                    role="user",
                    content=repair_prompt(problem, schema.model_json_schema(), truncated),
                ),
            ]
        raise _Invalid(
            f"{self._model} returned output that does not validate against "
            f"{schema.__name__} after {self._max_repairs} repair request(s): {problem}; "
            f"output begins {snippet(raw)!r}",
            hint="a larger or instruction-tuned model usually fixes this",
        )

    # --- structured-output negotiation ------------------------------------------------------

    def _complete(self, messages: Sequence[Message], schema: type[BaseModel]) -> tuple[str, bool]:
        if not self._formats.settled:
            with self._formats.lock:
                if not self._formats.settled:
                    return self._negotiate(messages, schema)
        return self._request(messages, schema, self._formats.mode)

    def _negotiate(self, messages: Sequence[Message], schema: type[BaseModel]) -> tuple[str, bool]:
        # Caller holds the negotiation lock: concurrent first requests wait for the answer.
        while True:
            mode = self._formats.mode
            try:
                answer = self._request(messages, schema, mode)
            except _Rejected as exc:
                weaker = self._formats.step_down()
                if weaker is None:
                    raise
                log.info("%s: %s request rejected (%s); trying %s", self._model, mode, exc, weaker)
                continue
            self._formats.settle()
            log.info("%s: structured output via %s", self._model, mode)
            return answer

    # --- transport: one request, retried while the failure is transient -----------------

    def _request(
        self, messages: Sequence[Message], schema: type[BaseModel], mode: FormatMode
    ) -> tuple[str, bool]:
        """The answer's text and whether it was cut off at ``llm_max_tokens``."""
        wire, extra = request_body(messages, schema, mode)
        client = self._get_client()
        attempt = 0
        while True:
            with self._in_flight:
                started = time.perf_counter()
                try:
                    response = client.chat.completions.create(
                        model=self._model,
                        messages=wire,
                        temperature=0,
                        max_tokens=self._max_tokens,
                        extra_body=extra or None,
                    )
                except openai.OpenAIError as exc:
                    self.usage.add(calls=1, errors=1, seconds=time.perf_counter() - started)
                    failure = exc
                else:
                    usage = response.usage
                    self.usage.add(
                        calls=1,
                        seconds=time.perf_counter() - started,
                        prompt_tokens=usage.prompt_tokens if usage else 0,
                        completion_tokens=usage.completion_tokens if usage else 0,
                    )
                    if not response.choices:
                        return "", False
                    choice = response.choices[0]
                    return choice.message.content or "", choice.finish_reason == "length"
            self._give_up_unless_transient(failure, attempt)
            delay = self._retry_delay(failure, attempt)
            log.warning(
                "%s: %s (attempt %d of %d), retrying in %.2fs",
                self._model,
                describe(failure),
                attempt + 1,
                self._max_retries + 1,
                delay,
            )
            self.usage.add(retries=1)
            self._sleep(delay)
            attempt += 1

    def _give_up_unless_transient(self, exc: openai.OpenAIError, attempt: int) -> None:
        kind = classify(exc)
        if kind is Failure.REJECTED:
            raise _Rejected(f"{self._where()}: {describe(exc)}") from exc
        if kind is Failure.FATAL:
            raise self._as_llm_error(exc, LLMError, attempts=attempt + 1) from exc
        if attempt >= self._max_retries:
            error = LLMError if fatal_when_exhausted(exc) else LLMItemError
            raise self._as_llm_error(exc, error, attempts=attempt + 1) from exc

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
            after = retry_after_s(exc.response.headers)
            if after is not None:
                return min(after, self._retry_after_max_s)
        ceiling = min(self._backoff_max_s, self._backoff_base_s * 2.0**attempt)
        # "Equal jitter": never less than half the backoff, spread over the other half.
        return ceiling / 2 + random.uniform(0, ceiling / 2)

    def _where(self) -> str:
        return f"{self._model} at {self._base_url or 'the OpenAI default URL'}"

    def _as_llm_error(
        self, exc: openai.OpenAIError, error: type[LLMError], *, attempts: int
    ) -> LLMError:
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        hint: str | None = None
        if isinstance(exc, openai.APIStatusError) and exc.status_code in (401, 403):
            hint = "check OPENAI_API_KEY / GRAPHMEM_LLM_API_KEY"
        elif isinstance(exc, openai.NotFoundError):
            hint = "check GRAPHMEM_LLM_MODEL and GRAPHMEM_LLM_BASE_URL (usually ends in /v1)"
        elif isinstance(exc, openai.APITimeoutError):
            hint = "raise GRAPHMEM_LLM_TIMEOUT_S or lower GRAPHMEM_LLM_CONCURRENCY"
        elif isinstance(exc, openai.APIConnectionError):
            hint = "is the server at GRAPHMEM_LLM_BASE_URL running? (`graphmem llm serve`)"
        return error(f"{self._where()}: {describe(exc)}{tries}", hint=hint)
