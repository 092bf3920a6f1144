"""PREMem's items held in memory and ranked in-process (``search = "snapshot"``).

The ranking is the same exact cosine ``premem.search`` computes in Cypher, with the same
score (Neo4j's ``vector.similarity.cosine`` is (1 + cos) / 2) and the same order (score
descending, then id), over the same items. What changes is where: a space's items are read
once, and a query costs one matrix product instead of a statement that scores every item
on the server and ships the top k with their turns (about 20 ms a query at LoCoMo scale,
the largest single cost of the ``graphmem`` strategy's PREMem member). A cheap version read
per query (``premem.version``) notices a space that changed since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ItemSnapshot:
    rows: tuple[dict[str, Any], ...]  # premem.snapshot rows without their embeddings
    unit: Matrix  # one unit-length row per item
    ids: npt.NDArray[np.str_]

    @classmethod
    def from_rows(cls, rows: Sequence[dict[str, Any]], dim: int) -> ItemSnapshot:
        """Items without an embedding are left out: Cypher's cosine of one is null, which
        nothing should rank by."""
        rows = [row for row in rows if row["embedding"]]
        vectors = np.asarray([row["embedding"] for row in rows], dtype=np.float64)
        vectors = vectors.reshape(len(rows), dim)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
        kept = tuple({k: v for k, v in row.items() if k != "embedding"} for row in rows)
        return cls(rows=kept, unit=unit, ids=np.asarray([r["id"] for r in rows], dtype=str))

    def top(self, query: Sequence[float], k: int) -> list[dict[str, Any]]:
        """The ``k`` items nearest ``query``, each a ``premem.search`` row (with ``score``)."""
        if not self.rows or k <= 0:
            return []
        q = np.asarray(query, dtype=np.float64)
        norm = float(np.linalg.norm(q))
        cosine = self.unit @ (q / norm) if norm else np.zeros(len(self.rows))
        score = (1.0 + cosine) / 2.0
        # Score descending, then id ascending, as ORDER BY score DESC, n.id.
        order = np.lexsort((self.ids, -score))[:k]
        return [{**self.rows[i], "score": float(score[i])} for i in order]
