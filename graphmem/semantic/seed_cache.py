"""Each seed's own Personalized PageRank, computed by GDS once per projection and kept.

A query's PageRank is the weighted sum of its seed groups' runs, and a group's run is the
sum of its seeds' single-seed runs: GDS restarts (1 - d) at every source node without
normalising, and PageRank is linear in the restart vector. So the PageRank of any query
is a weighted sum of single-seed PageRanks, and a seed's PageRank over the passages (the
only nodes ranked) depends on the projection alone. A space's queries share their seeds
(its speakers, its recurring topics), and a GDS run costs about 5 ms of procedure overhead
on a graph of a few thousand nodes where the walk itself takes microseconds: keeping each
seed's run makes the PageRank of a query a few vector additions once its seeds are known.

Still GDS's PageRank, with the same damping, iterations and tolerance: what differs from
one run per group is only where each run stops (the tolerance is checked per run), a
difference below the tolerance. ``ppr_cache = false`` runs the groups per query as before.

The runs a query lacks are made in one statement; ``warm`` makes every entity's run at
once (the evaluation's per-space preparation, like the projection and the snapshot).
Caches are shared by every retriever of the process on the same projection (SEEM's and
CAST's HippoRAG 2 layers walk the same graph), keyed by its creation time, so a projection
made again (a new build) starts an empty cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from graphmem.semantic.seeds import SeedGroup
from graphmem.semantic.settings import SemanticSettings
from graphmem.store import GraphStore

Vector = npt.NDArray[np.float64]
_KEEP = 16  # projections whose runs are kept (the process's most recently used)


class SeedPageRank:
    """Single-seed PageRank vectors over the passages of one projection."""

    def __init__(self, created: str, passages: Sequence[int]) -> None:
        self.created = created
        self.passages = list(passages)
        self._index = {node: i for i, node in enumerate(self.passages)}
        self._vectors: dict[int, Vector] = {}
        self._lock = threading.Lock()

    def missing(self, nodes: Iterable[int]) -> list[int]:
        with self._lock:
            return sorted({n for n in nodes if n not in self._vectors})

    def fill(
        self, store: GraphStore, graph: str, sources: Sequence[int], config: SemanticSettings
    ) -> str | None:
        """Run GDS for ``sources`` (one statement); the projection's creation time the runs
        were made on (None when there was nothing to run). Runs made on another projection
        than this cache's are not kept."""
        if not sources:
            return None
        rows = store.read(
            "semantic.ppr_by_source",
            graph=graph,
            sources=list(sources),
            targets=self.passages,
            damping=config.damping,
            iterations=config.max_iterations,
            tolerance=config.tolerance,
            concurrency=config.ppr_concurrency,
        )
        created = str(rows[0]["created"]) if rows else None
        if created != self.created:
            return created
        found = {int(row["source"]): row["scores"] for row in rows}
        with self._lock:
            for source in sources:
                vector = np.zeros(len(self.passages), dtype=np.float64)
                for node, score in found.get(source, ()):
                    vector[self._index[int(node)]] = float(score)
                self._vectors[source] = vector  # a seed that reaches no passage: zeros
        return created

    def combine(self, groups: Sequence[SeedGroup]) -> dict[int, float]:
        """The passages' PageRank for these groups: sum over groups of weight x (sum of the
        group's single-seed runs), as ``semantic.ppr_scores`` computes it; passages scored
        above 0 only. Every seed must have been filled."""
        total = np.zeros(len(self.passages), dtype=np.float64)
        with self._lock:
            for group in groups:
                for node in group.nodes:
                    total += group.weight * self._vectors[node]
        return {self.passages[i]: float(total[i]) for i in np.flatnonzero(total > 0)}

    def __len__(self) -> int:
        with self._lock:
            return len(self._vectors)


_CACHES: OrderedDict[tuple[object, ...], SeedPageRank] = OrderedDict()
_CACHES_LOCK = threading.Lock()


def seed_cache(
    database: str, graph: str, created: str, passages: Iterable[int], config: SemanticSettings
) -> SeedPageRank:
    """The process's cache for this projection and these PageRank settings."""
    key = (database, graph, created, config.damping, config.max_iterations, config.tolerance)
    with _CACHES_LOCK:
        found = _CACHES.get(key)
        if found is None:
            found = _CACHES[key] = SeedPageRank(created, sorted(passages))
            while len(_CACHES) > _KEEP:
                _CACHES.popitem(last=False)
        _CACHES.move_to_end(key)
        return found
