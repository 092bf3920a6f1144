"""What every LLM backend offers: schema-validated generation, one call or many at once."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict

from graphmem.errors import ConfigError

if TYPE_CHECKING:
    from graphmem.config import Settings

T = TypeVar("T", bound=BaseModel)


class Message(BaseModel):
    """One chat turn. Frozen so a conversation can be hashed into a cache key safely."""

    model_config = ConfigDict(frozen=True)

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass
class Usage:
    """Running totals for one client; every counter is updated under one lock.

    ``calls`` counts chat completions the server answered (repairs included),
    ``cached_calls`` the ``generate`` calls answered from the response cache,
    ``retries`` the requests re-sent after a transient failure, and ``repairs`` the
    follow-up requests sent because the output did not validate.
    """

    calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    repairs: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(
        self,
        *,
        calls: int = 0,
        cached_calls: int = 0,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        retries: int = 0,
        repairs: int = 0,
    ) -> None:
        with self._lock:
            self.calls += calls
            self.cached_calls += cached_calls
            self.prompt_tokens += prompt_tokens
            self.completion_tokens += completion_tokens
            self.retries += retries
            self.repairs += repairs

    def snapshot(self) -> Usage:
        """A consistent copy, so a reader never sees half of a concurrent update."""
        with self._lock:
            values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "_lock"}
        return Usage(**values)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class StructuredLLM(ABC):
    """An LLM that answers with an instance of a pydantic model, or raises ``LLMError``."""

    def __init__(self, *, concurrency: int) -> None:
        if concurrency < 1:
            raise ConfigError(
                f"llm_concurrency must be at least 1, got {concurrency}",
                hint="set GRAPHMEM_LLM_CONCURRENCY to a positive integer",
            )
        self.concurrency = concurrency
        self.usage = Usage()

    @property
    @abstractmethod
    def model_name(self) -> str:
        """The model identifier sent to the backend (part of every cache key)."""

    @abstractmethod
    def generate(self, messages: Sequence[Message], schema: type[T]) -> T:
        """One completion, parsed and validated into ``schema``."""

    def generate_many(self, requests: Sequence[tuple[Sequence[Message], type[T]]]) -> list[T]:
        """Answers in request order, at most ``concurrency`` requests in flight.

        The first failure (in request order) is raised once the requests already
        running have finished; requests not yet started are cancelled, since a
        caller that gets an exception cannot use their results anyway.
        """
        if not requests:
            return []
        if len(requests) == 1 or self.concurrency == 1:
            return [self.generate(messages, schema) for messages, schema in requests]
        workers = min(self.concurrency, len(requests))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="graphmem-llm") as pool:
            futures: list[Future[T]] = [
                pool.submit(self.generate, messages, schema) for messages, schema in requests
            ]
            try:
                return [future.result() for future in futures]
            except BaseException:
                for future in futures:
                    future.cancel()
                raise

    def close(self) -> None:  # noqa: B027 - optional hook, most backends hold nothing
        """Release connections and files; the client must not be used afterwards."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def build_llm(settings: Settings) -> StructuredLLM | None:
    """The configured LLM client, or None when no model is set (callers go offline)."""
    if not settings.llm_enabled:
        return None
    # Imported here so that offline use never pays for importing the openai SDK.
    from graphmem.llm.openai_llm import OpenAIStructuredLLM

    return OpenAIStructuredLLM(settings)
