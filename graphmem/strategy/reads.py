"""Within one query, a read statement with the same parameters runs once.

SEEM and CAST both rank with the shared HippoRAG 2 layer: for one question they send the
same PageRank statement with the same seeds. The members get this wrapper as their store;
inside ``scope()`` the first call runs and the others (in any thread) get its rows. Outside
a scope every call goes through: ``prepare`` reads whole snapshots, which must not be kept.
A write through the wrapper forgets what was read before it.
Rows are shared, not copied; retrievers only read them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from graphmem.graph.store import GraphStore

Rows = list[dict[str, Any]]


class QueryReads:
    def __init__(self, inner: GraphStore) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self._memo: dict[str, Future[Rows]] | None = None

    @contextmanager
    def scope(self) -> Iterator[None]:
        with self._lock:
            self._memo = {}
        try:
            yield
        finally:
            with self._lock:
                self._memo = None

    def read(self, name: str, **params: Any) -> Rows:
        with self._lock:
            memo = self._memo
            if memo is None:
                found, owner = None, False
            else:
                key = repr((name, sorted(params.items())))
                found = memo.get(key)
                owner = found is None
                if found is None:
                    found = memo[key] = Future()
        if found is None:
            return self.inner.read(name, **params)
        if owner:
            try:
                found.set_result(self.inner.read(name, **params))
            except BaseException as exc:
                found.set_exception(exc)
        return found.result()

    def write(self, name: str, **params: Any) -> Rows:
        """A write (a member projecting its graph on first use) makes every remembered read
        possibly stale: the scope starts afresh."""
        with self._lock:
            if self._memo is not None:
                self._memo = {}
        return self.inner.write(name, **params)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)
