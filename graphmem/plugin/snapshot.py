"""The base of a retriever that ranks over an in-memory snapshot of its space.

A design that reads its space once and ranks in-process (its items, facts, scenes or
stories) subclasses ``SnapshotRetriever[Settings, Snapshot]``: it names its
``<design>.version`` statement (counts and last write of what the snapshot holds, one row)
and implements ``load_snapshot``. The base keeps the snapshot behind ``Versioned`` (read
again when the version row changes, checked at most every ``snapshot_recheck_seconds``),
reads it in ``prepare`` (outside query latency) and drops it in ``refresh`` (this process
wrote to the space).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable
from typing import ClassVar, Generic, TypeVar

from graphmem.plugin.design import DesignSettings
from graphmem.plugin.retriever import RetrievalContext, Retriever
from graphmem.retrieval.exact import Versioned

S = TypeVar("S", bound=DesignSettings)  # the design's settings
T = TypeVar("T")  # what the snapshot holds


class SnapshotRetriever(Retriever[S], Generic[S, T]):
    version_statement: ClassVar[str]  # "<design>.version": one row, taking $space
    # Whether ``load_snapshot`` reads nothing but the space (and ``snapshot_key``'s
    # settings) and does nothing else: then retrievers prepared together read it once.
    shares_snapshot: ClassVar[bool] = False

    def __init__(self, ctx: RetrievalContext, settings: S) -> None:
        super().__init__(ctx, settings)
        share = self.snapshot_key() if self.shares_snapshot else None
        self._snapshot: Versioned[T] = Versioned.of(
            ctx, self.version_statement, self.load_snapshot, share
        )

    def snapshot_key(self) -> Hashable:
        """What the snapshot depends on besides the space (``shares_snapshot``); set by
        ``__init__``, after ``self.settings``: anything else it names must be set before."""
        return type(self).__qualname__

    @abstractmethod
    def load_snapshot(self) -> T:
        """Read what the retriever ranks over from the space (one or a few statements)."""

    def snapshot(self) -> T:
        """The snapshot, read again when the version row says the space changed."""
        return self._snapshot.get()

    def uses_snapshot(self) -> bool:
        """Whether queries read the snapshot (a design may also search in Cypher)."""
        return True

    def refresh(self) -> None:
        self._snapshot.forget()

    def prepare(self) -> None:
        if self.uses_snapshot():
            self.snapshot()
