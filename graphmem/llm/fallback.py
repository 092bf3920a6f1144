"""Per-item degradation: when the LLM gives up on one item, that item takes the offline
path and the run goes on.

Builders call ``with_fallback`` (one item) or ``map_with_fallback`` (independent items, run
``llm.concurrency`` at a time) with two functions computing the same kind of result: the
LLM one and the offline one. Only ``LLMItemError`` (invalid output after repairs, a request
the server rejects, a timeout) degrades; ``LLMError`` (server down, bad credentials) still
stops the run, since every later item would fail the same way. Each fallback is logged
with its reason and counted in ``llm.usage`` (``fallbacks``), so build reports show it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from graphmem.errors import LLMItemError
from graphmem.llm.base import StructuredLLM, run_concurrently

log = logging.getLogger(__name__)

I = TypeVar("I")  # noqa: E741 - the item type, as in the signatures below
R = TypeVar("R")


def with_fallback(
    llm: StructuredLLM,
    llm_fn: Callable[[I], R],
    offline_fn: Callable[[I], R],
    item: I,
    *,
    what: str,
) -> R:
    """``llm_fn(item)``, or ``offline_fn(item)`` when the LLM gives up on this item."""
    try:
        return llm_fn(item)
    except LLMItemError as exc:
        llm.usage.add(fallbacks=1)
        log.warning("%s: LLM gave up on one item, using the offline backend: %s", what, exc)
        return offline_fn(item)


def map_with_fallback(
    llm: StructuredLLM,
    llm_fn: Callable[[I], R],
    offline_fn: Callable[[I], R],
    items: Sequence[I],
    *,
    what: str,
) -> list[R]:
    """``with_fallback`` over independent items, in item order, ``llm.concurrency`` at once."""
    tasks = [partial(with_fallback, llm, llm_fn, offline_fn, item, what=what) for item in items]
    return run_concurrently(tasks, llm.concurrency)
