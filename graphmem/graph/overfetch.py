"""Vector and full-text indexes span every space; a space filter after the search needs an
over-fetch in proportion to the share of the label that belongs to the queried space.

``over_fetch`` is the one formula. ``label_totals`` reads the counts it needs (one
statement, ``core.label_totals``, generated for every label a design declares indexed).
``SpaceTotals`` keeps them for a retriever and notices when they went stale (the space or
the database changed since they were read): see ``SpaceTotals.search``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from graphmem.graph.store import GraphStore
from graphmem.plugin.label_statements import LABEL_TOTALS
from graphmem.plugin.registry import registry

T = TypeVar("T")


def over_fetch(k: int, total: int, in_space: int) -> int:
    """How many nearest nodes to ask the index for so that about ``k`` survive the space
    filter; 0 when the space has none (no need to ask)."""
    if in_space <= 0 or k <= 0:
        return 0
    ratio = total / in_space
    return int(min(max(total, k), math.ceil(k * ratio * 1.5) + 10))


@dataclass(frozen=True)
class LabelCount:
    total: int  # in the whole database
    in_space: int

    def fetch(self, k: int) -> int:
        return over_fetch(k, self.total, self.in_space)

    def scan_is_cheaper(self, k: int) -> bool:
        """Whether an exact scan of the space's nodes reads no more than the index would
        (the index reads ``fetch(k)`` nodes of every space to keep ``k`` of this one)."""
        return self.in_space <= self.fetch(k)


def label_totals(store: GraphStore, space: str) -> dict[str, LabelCount]:
    """Counts of every ranked label (those with a vector or full-text index) in the
    database and in ``space``."""
    registry()  # the statement is generated from the designs' indexed labels
    rows = store.read(LABEL_TOTALS, space=space)
    return {row["label"]: LabelCount(int(row["total"]), int(row["in_space"])) for row in rows}


class SpaceTotals:
    """A retriever's copy of the label counts, read on first use and read again whenever a
    search shows them stale: an empty space (``fetch`` 0) may have been ingested into
    since, and a search that kept fewer than ``k`` of ``in_space`` nodes over-fetched too
    little (other spaces grew). Steady state: no extra round trip per query."""

    def __init__(self, store: GraphStore, space: str) -> None:
        self.store = store
        self.space = space
        self._counts: dict[str, LabelCount] | None = None

    def get(self, label: str) -> LabelCount:
        if self._counts is None:
            self._counts = label_totals(self.store, self.space)
        return self._counts.get(label, LabelCount(0, 0))

    def invalidate(self) -> None:
        self._counts = None

    def search(
        self, label: str, k: int, run: Callable[[int], list[T]], *, exhaustive: bool = True
    ) -> list[T]:
        """``run(fetch)`` with the over-fetch for ``k`` nodes of ``label``; read the counts
        again and run once more when the result says they were stale. ``exhaustive``: the
        index returns ``fetch`` nodes whenever it holds that many (a vector index; a
        full-text index returns only the matches, so a short answer proves nothing)."""
        counts = self.get(label)
        fetch = counts.fetch(k)
        rows = run(fetch) if fetch else []
        short = exhaustive and len(rows) < min(k, counts.in_space)
        if fetch and not short:
            return rows
        self.invalidate()
        fresh = self.get(label)
        if fresh == counts or fresh.fetch(k) <= fetch:
            return rows
        return run(fresh.fetch(k))
