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
difference below the tolerance. ``ppr_cache = off`` runs the groups per query as before.

The runs a query lacks are made in one statement; ``warm`` makes every entity's run at
once (the evaluation's per-space preparation, like the projection and the snapshot), the
most mentioned first. A projection's runs take at most ``ppr_cache_mb`` (a LoCoMo
conversation's 1,154 entities x 419 passages: 3.9 MB); beyond, the least recently used go.
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

from graphmem.graph.store import GraphStore
from graphmem.semantic.exact import source_runs
from graphmem.semantic.seeds import SeedGroup
from graphmem.semantic.settings import SemanticSettings

Vector = npt.NDArray[np.float64]
_KEEP = 8  # projections whose runs are kept (the process's most recently used)


class SeedPageRank:
    """Single-seed PageRank vectors over the passages of one projection, at most
    ``capacity`` of them (the least recently used go first)."""

    def __init__(self, created: str, passages: Sequence[int], capacity: int) -> None:
        self.created = created
        self.passages = list(passages)
        self.capacity = max(1, capacity)
        self._vectors: OrderedDict[int, Vector] = OrderedDict()
        self._lock = threading.Lock()

    def missing(self, nodes: Iterable[int]) -> list[int]:
        with self._lock:
            return sorted({n for n in nodes if n not in self._vectors})

    def room(self) -> int:
        with self._lock:
            return self.capacity - len(self._vectors)

    def take(self, nodes: Iterable[int]) -> tuple[dict[int, Vector], list[int]]:
        """The kept runs of ``nodes`` (now the most recently used) and the nodes without."""
        wanted = set(nodes)
        have: dict[int, Vector] = {}
        with self._lock:
            for node in wanted:
                vector = self._vectors.get(node)
                if vector is not None:
                    self._vectors.move_to_end(node)
                    have[node] = vector
        return have, sorted(wanted - set(have))

    def fill(
        self, store: GraphStore, graph: str, sources: Sequence[int], config: SemanticSettings
    ) -> tuple[str | None, dict[int, Vector]]:
        """Run GDS for ``sources`` (one statement): the projection's creation time the runs
        were made on (None when there was nothing to run) and the runs. They are kept only
        when made on this cache's projection."""
        created, runs = source_runs(store, graph, sources, self.passages, config)
        if created != self.created:
            return created, {}
        with self._lock:
            for source, vector in runs.items():
                self._vectors[source] = vector
                self._vectors.move_to_end(source)
            while len(self._vectors) > self.capacity:
                self._vectors.popitem(last=False)
        return created, runs

    def combine(self, groups: Sequence[SeedGroup], runs: dict[int, Vector]) -> dict[int, float]:
        """The passages' PageRank for these groups: sum over groups of weight x (sum of the
        group's single-seed ``runs``), as ``semantic.ppr_scores`` computes it; passages
        scored above 0 only."""
        total = np.zeros(len(self.passages), dtype=np.float64)
        for group in groups:
            for node in group.nodes:
                total += group.weight * runs[node]
        return {self.passages[i]: float(total[i]) for i in np.flatnonzero(total > 0)}

    def __len__(self) -> int:
        with self._lock:
            return len(self._vectors)


_CACHES: OrderedDict[tuple[object, ...], SeedPageRank] = OrderedDict()
_CACHES_LOCK = threading.Lock()


def seed_cache(
    database: str, graph: str, created: str, passages: Iterable[int], config: SemanticSettings
) -> SeedPageRank:
    """The process's cache for this projection and these PageRank settings, holding at most
    ``ppr_cache_mb`` of runs."""
    key = (
        database,
        graph,
        created,
        config.damping,
        config.max_iterations,
        config.tolerance,
        config.ppr_cache_mb,
    )
    with _CACHES_LOCK:
        found = _CACHES.get(key)
        if found is None:
            nodes = sorted(passages)
            capacity = int(config.ppr_cache_mb * 2**20) // (8 * max(1, len(nodes)))
            found = _CACHES[key] = SeedPageRank(created, nodes, capacity)
            while len(_CACHES) > _KEEP:
                _CACHES.popitem(last=False)
        _CACHES.move_to_end(key)
        return found
