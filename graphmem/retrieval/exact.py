"""Nodes of one space held in memory and ranked by exact cosine in-process.

A design that ranks a few thousand nodes of a space by cosine to the question can send one
statement per query that scores them on the server and ships the top k with their turns,
or read them once and rank them with one matrix product. At LoCoMo scale the first costs
about 20 ms a query (PREMem's ``premem.search``; AnchorMem's two vector-index searches),
the second well under one, which is what the ``graphmem`` strategy, asking every design
each time, needs. ``ExactIndex`` ranks as Cypher does: the score is Neo4j's
``vector.similarity.cosine``, (1 + cos) / 2, and ties go to the smaller id.

``Versioned`` keeps a snapshot fresh: a design's ``<design>.version`` statement (counts
and last write of what the snapshot holds, one small read) is compared with the row the
snapshot was read under, and a different row reads the snapshot again. The read is a
round trip (~2.5 ms); with three designs holding snapshots that was a tenth of the
``graphmem`` strategy's time, so a checked snapshot is trusted for ``recheck`` seconds
(``snapshot_recheck_seconds``, 1 s by default; 0 checks at every query). ``forget``
(``Retriever.refresh``: this process wrote to the space) drops the snapshot, so the next
query reads it again whatever the version row says.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from graphmem.graph.store import GraphStore
from graphmem.plugin.retriever import PassageRef, RetrievalContext
from graphmem.retrieval.shared import shared

Matrix = npt.NDArray[np.float64]
T = TypeVar("T")


@dataclass(frozen=True)
class ExactIndex:
    rows: tuple[dict[str, Any], ...]  # the statement's rows without their embeddings
    unit: Matrix  # one unit-length row per row of ``rows``
    ids: npt.NDArray[np.str_]

    @classmethod
    def from_rows(cls, rows: Sequence[dict[str, Any]], dim: int) -> ExactIndex:
        """Rows with an ``embedding`` and an ``id``. Rows without an embedding are left
        out: Cypher's cosine of one is null, which nothing should rank by."""
        rows = [row for row in rows if row["embedding"]]
        vectors = np.asarray([row["embedding"] for row in rows], dtype=np.float64)
        vectors = vectors.reshape(len(rows), dim)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
        kept = tuple(_kept(row) for row in rows)
        return cls(rows=kept, unit=unit, ids=np.asarray([r["id"] for r in rows], dtype=str))

    def __len__(self) -> int:
        return len(self.rows)

    def top(self, query: Sequence[float], k: int) -> list[dict[str, Any]]:
        """The ``k`` rows nearest ``query``, each with its ``score``, best first."""
        if not self.rows or k <= 0:
            return []
        q = np.asarray(query, dtype=np.float64)
        norm = float(np.linalg.norm(q))
        cosine = self.unit @ (q / norm) if norm else np.zeros(len(self.rows))
        score = (1.0 + cosine) / 2.0
        order = np.lexsort((self.ids, -score))[:k]  # score descending, then id
        return [{**self.rows[i], "score": float(score[i])} for i in order]

    def top_many(
        self, queries: npt.ArrayLike, k: int, *, min_score: float | None = None
    ) -> list[list[tuple[int, float]]]:
        """For each query vector, the ``k`` nearest rows as ``(row index, score)``, best first,
        ties to the smaller id, only those scoring ``>= min_score``: ``top`` for many
        queries at once (one matrix product), which is what a builder linking every new node
        of a batch to the space's nearest ones needs instead of one index search per node."""
        q = np.asarray(queries, dtype=np.float64).reshape(-1, self.unit.shape[1])
        if not self.rows or k <= 0:
            return [[] for _ in range(len(q))]
        norms = np.linalg.norm(q, axis=1, keepdims=True)
        unit = np.divide(q, norms, out=np.zeros_like(q), where=norms > 0)
        scores = (1.0 + unit @ self.unit.T) / 2.0
        rank = self._id_rank()
        return [_best(row, rank, k, min_score) for row in scores]

    def _id_rank(self) -> npt.NDArray[np.intp]:
        """Each row's position in id order: ties compare integers, not strings."""
        rank = np.empty(len(self.ids), dtype=np.intp)
        rank[np.argsort(self.ids, kind="stable")] = np.arange(len(self.ids))
        return rank


def _best(
    score: Matrix, rank: npt.NDArray[np.intp], k: int, min_score: float | None
) -> list[tuple[int, float]]:
    """The ``k`` best of one row of scores (score descending, then id): every row tied with
    the k-th best stays a candidate, so the id decides ties, not the partition."""
    if k < len(score):
        kth = np.partition(score, len(score) - k)[len(score) - k]
        candidates = np.flatnonzero(score >= kth)
    else:
        candidates = np.arange(len(score))
    if min_score is not None:
        candidates = candidates[score[candidates] >= min_score]
    order = candidates[np.lexsort((rank[candidates], -score[candidates]))][:k]
    return [(int(i), float(score[i])) for i in order]


def _kept(row: dict[str, Any]) -> dict[str, Any]:
    """A row without its embedding; its ``passages`` maps, if any, as ``PassageRef`` once,
    not at every query that returns the row."""
    out = {k: v for k, v in row.items() if k != "embedding"}
    if isinstance(out.get("passages"), list):
        out["passages"] = [PassageRef.from_row(p) for p in out["passages"]]
    return out


class Versioned(Generic[T]):
    """A snapshot read by ``load`` and read again whenever ``version`` (a statement taking
    ``$space``, one row) returns a different row than the one it was read under, or after
    ``forget``; a version checked less than ``recheck`` seconds ago is not read again.
    ``share``: a key naming what ``load`` depends on besides the space and the version row
    (None: its own); readers with the same key share one read while retrievers are
    prepared (``graphmem.retrieval.shared``)."""

    def __init__(
        self,
        store: GraphStore,
        space: str,
        version: str,
        load: Callable[[], T],
        recheck: float = 0.0,
        share: Hashable | None = None,
    ) -> None:
        self._store = store
        self._space = space
        self._statement = version
        self._load = load
        self._recheck = recheck
        self._share = share
        self._value: T | None = None
        self._version: dict[str, Any] | None = None
        self._checked = -math.inf

    @classmethod
    def of(
        cls,
        ctx: RetrievalContext,
        version: str,
        load: Callable[[], T],
        share: Hashable | None = None,
    ) -> Versioned[T]:
        """For a retriever: its space, trusted for ``snapshot_recheck_seconds``."""
        recheck = ctx.settings.snapshot_recheck_seconds
        return cls(ctx.store, ctx.space, version, load, recheck, share)

    def get(self) -> T:
        """The snapshot; the version is read first unless it was checked less than
        ``recheck`` seconds ago."""
        now = time.monotonic()
        if self._value is not None and now - self._checked < self._recheck:
            return self._value
        row = self._store.read(self._statement, space=self._space)[0]
        if self._value is None or row != self._version:
            self._value = self._read(row)
            self._version = row
        self._checked = now
        return self._value

    def _read(self, row: dict[str, Any]) -> T:
        if self._share is None:
            return self._load()
        version = repr(sorted(row.items()))
        key = (self._store.database, self._space, self._statement, self._share, version)
        return shared(key, self._load)

    def forget(self) -> None:
        """Read the snapshot again at the next ``get`` (this process wrote to the space).
        The value is dropped, not only the check: a write that updates nodes in place
        (a story gaining a headline, a fact a source) can leave the version row as it was."""
        self._value = None
        self._version = None
        self._checked = -math.inf
