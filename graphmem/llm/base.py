"""What every LLM backend offers: schema-validated generation, one call or many at once."""

from __future__ import annotations

import contextvars
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Self, TypeVar

from graphmem.errors import ConfigError
from graphmem.llm.types import Message, T
from graphmem.llm.usage import Usage

R = TypeVar("R")


class StructuredLLM(ABC):
    """An LLM that answers with an instance of a pydantic model.

    ``generate`` raises ``LLMItemError`` when this one request cannot be answered usefully
    (the caller may degrade the item, see ``graphmem.llm.fallback``) and ``LLMError`` when
    the backend cannot be used at all (unreachable, credentials, unknown model).
    """

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
        return run_concurrently(
            [partial(self.generate, messages, schema) for messages, schema in requests],
            self.concurrency,
        )

    def sweep(self, space: str, conversations: Sequence[str] | None, before: float) -> int:
        """Drop the cached answers only the scopes ``conversations`` of ``space`` (None:
        all) used before ``before`` (``graphmem.process.uses``); without a cache none."""
        return 0

    def close(self) -> None:  # noqa: B027 - optional hook, most backends hold nothing
        """Release connections and files; the client must not be used afterwards."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def run_concurrently(tasks: Sequence[Callable[[], R]], workers: int) -> list[R]:
    """Results in task order, ``workers`` at a time; the first failure in task order is
    raised after the running tasks end, and tasks not started yet are cancelled.

    Each task runs in a copy of the caller's context (``contextvars``), as it would inline.
    """
    if len(tasks) <= 1 or workers <= 1:
        return [task() for task in tasks]
    with ThreadPoolExecutor(
        max_workers=min(workers, len(tasks)), thread_name_prefix="graphmem-llm"
    ) as pool:
        futures: list[Future[R]] = [
            pool.submit(contextvars.copy_context().run, task) for task in tasks
        ]
        try:
            return [future.result() for future in futures]
        except BaseException:
            for future in futures:
                future.cancel()
            raise
