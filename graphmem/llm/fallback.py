"""Per-item degradation: when the LLM gives up on one item, that item takes the offline
path and the run goes on.

Builders call ``with_fallback`` (one item) or ``map_with_fallback`` (independent items, run
``llm.concurrency`` at a time) with two functions computing the same kind of result: the
LLM one and the offline one. Only ``LLMItemError`` (invalid output after repairs, a request
the server rejects, a timeout) degrades; ``LLMError`` (server down, bad credentials) still
stops the run, since every later item would fail the same way. Each fallback is logged
with its reason and counted in ``llm.usage`` (``fallbacks``), so build reports show it.

A builder that writes what it got into the graph uses ``attempt`` / ``map_attempts``
instead: they return an ``Outcome`` that says whether the value is the offline one, so the
node can carry the offline backend label (``BuildContext.node_backend``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Generic, TypeVar

from graphmem.errors import LLMItemError
from graphmem.llm.base import StructuredLLM, run_concurrently

log = logging.getLogger(__name__)

I = TypeVar("I")  # noqa: E741 - the item type, as in the signatures below
R = TypeVar("R")


@dataclass(frozen=True)
class Outcome(Generic[R]):
    """One item's result; ``fallback`` is True when the LLM gave up on the item and
    ``value`` is what the offline backend computed instead."""

    value: R
    fallback: bool = False


def attempt(
    llm: StructuredLLM,
    llm_fn: Callable[[I], R],
    offline_fn: Callable[[I], R],
    item: I,
    *,
    what: str,
) -> Outcome[R]:
    """``llm_fn(item)``, or ``offline_fn(item)`` marked as a fallback when the LLM gives up
    on this item (logged and counted)."""
    try:
        return Outcome(llm_fn(item))
    except LLMItemError as exc:
        llm.usage.add(fallbacks=1)
        log.warning("%s: LLM gave up on one item, using the offline backend: %s", what, exc)
        return Outcome(offline_fn(item), fallback=True)


def map_attempts(
    llm: StructuredLLM,
    llm_fn: Callable[[I], R],
    offline_fn: Callable[[I], R],
    items: Sequence[I],
    *,
    what: str,
) -> list[Outcome[R]]:
    """``attempt`` over independent items, in item order, ``llm.concurrency`` at once."""
    tasks = [partial(attempt, llm, llm_fn, offline_fn, item, what=what) for item in items]
    return run_concurrently(tasks, llm.concurrency)


def with_fallback(
    llm: StructuredLLM,
    llm_fn: Callable[[I], R],
    offline_fn: Callable[[I], R],
    item: I,
    *,
    what: str,
) -> R:
    """``llm_fn(item)``, or ``offline_fn(item)`` when the LLM gives up on this item."""
    return attempt(llm, llm_fn, offline_fn, item, what=what).value


def map_with_fallback(
    llm: StructuredLLM,
    llm_fn: Callable[[I], R],
    offline_fn: Callable[[I], R],
    items: Sequence[I],
    *,
    what: str,
) -> list[R]:
    """``with_fallback`` over independent items, in item order, ``llm.concurrency`` at once."""
    return [o.value for o in map_attempts(llm, llm_fn, offline_fn, items, what=what)]
