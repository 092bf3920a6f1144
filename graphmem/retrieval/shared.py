"""Snapshots read once while several retrievers of one space are prepared.

The ``graphmem`` strategy's members and the strategies an evaluation compares each read
their own snapshot of the space, and several read the same one: the space's turns for
BM25 (``fulltext``, ``hybrid``, Amory's lexical leg), the semantic layer's passages, facts
and entities (HippoRAG 2, CAST, ``graphmem``'s members). On a LongMemEval haystack that
was five reads of each, with every embedding decoded by the server and again here.

Inside :func:`sharing_snapshots` a snapshot read under a key is handed to the next reader
asking for the same key; outside it every call reads. The block is where retrievers are
prepared (``Memory.prepare``, a retriever's first query, an evaluation's ``open_space``):
nothing is written to the space meanwhile, so a shared snapshot is as fresh as one read
again. Keys name what the snapshot depends on (the space, the version row or projection
it was read under, the settings it was read with); a reader whose load has effects beyond
its value must not share it.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

_memo: contextvars.ContextVar[dict[Hashable, Any] | None] = contextvars.ContextVar(
    "graphmem_shared_snapshots", default=None
)
_lock = threading.Lock()


@contextmanager
def sharing_snapshots() -> Iterator[None]:
    """Within the block, :func:`shared` hands a snapshot read under a key to later
    readers of that key (a nested block shares the outer one's)."""
    if _memo.get() is not None:
        yield
        return
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


def shared(key: Hashable, load: Callable[[], T]) -> T:
    """``load()``, or inside :func:`sharing_snapshots` what an earlier ``load`` under
    ``key`` returned."""
    memo = _memo.get()
    if memo is None:
        return load()
    with _lock:
        if key in memo:
            found: T = memo[key]
            return found
    value = load()
    with _lock:
        memo.setdefault(key, value)
    return value
