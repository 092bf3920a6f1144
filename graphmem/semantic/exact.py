"""Exact passage seeds for HippoRAG 2's formula on GDS 2.13 (the ``paper`` preset).

Every passage is a seed with its own weight, and GDS 2.13 takes unweighted source nodes.
PageRank is linear in the restart vector, so the passages' part of the query's PageRank is
``sum_p w_p * PPR(e_p)``: the single-source PageRank of every passage, restricted to the
passages (the only nodes ranked), is computed once per projection (one statement, one run
per passage) and each query combines it with its weights in memory. The entity seeds,
a handful per query, are still run per query; the two parts add up (linearity again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphmem.graph.store import GraphStore
from graphmem.semantic.settings import SemanticSettings
from graphmem.semantic.snapshot import SpaceSnapshot


@dataclass(frozen=True)
class PassagePageRank:
    created: str  # the projection it was computed on
    nodes: list[int]  # passage node ids, the rows and columns of ``matrix``
    matrix: npt.NDArray[np.float64]  # [source, target]: target's score from source alone

    @classmethod
    def load(
        cls, store: GraphStore, graph: str, snapshot: SpaceSnapshot, config: SemanticSettings
    ) -> PassagePageRank:
        nodes = sorted(snapshot.by_node)
        created, runs = source_runs(store, graph, nodes, nodes, config)
        matrix = np.zeros((len(nodes), len(nodes)), dtype=np.float64)
        for i, node in enumerate(nodes):
            if node in runs:
                matrix[i] = runs[node]
        return cls(created or snapshot.created, nodes, matrix)

    def combine(self, weights: list[tuple[int, float]]) -> dict[int, float]:
        """The PageRank, over the passages, of the weighted passage restart vector."""
        index = {node: i for i, node in enumerate(self.nodes)}
        vector = np.zeros(len(self.nodes), dtype=np.float64)
        for node, weight in weights:
            if node in index:
                vector[index[node]] = weight
        scores = vector @ self.matrix
        return {node: float(scores[i]) for i, node in enumerate(self.nodes) if scores[i] > 0}


def source_runs(
    store: GraphStore,
    graph: str,
    sources: Sequence[int],
    targets: Sequence[int],
    config: SemanticSettings,
) -> tuple[str | None, dict[int, npt.NDArray[np.float64]]]:
    """One GDS PageRank per source node (one statement), each as a vector over ``targets``
    (in their order; a target the run does not reach: 0), and the creation time of the
    projection they were run on (None: no row, the graph is gone or there was no source)."""
    if not sources:
        return None, {}
    rows = store.read(
        "semantic.ppr_by_source",
        graph=graph,
        sources=list(sources),
        targets=list(targets),
        damping=config.damping,
        iterations=config.max_iterations,
        tolerance=config.tolerance,
        concurrency=config.ppr_concurrency,
    )
    index = {node: i for i, node in enumerate(targets)}
    found = {int(row["source"]): row["scores"] for row in rows}
    runs: dict[int, npt.NDArray[np.float64]] = {}
    for source in sources:
        vector = runs[source] = np.zeros(len(targets), dtype=np.float64)
        for node, score in found.get(source, ()):
            vector[index[int(node)]] = float(score)
    return (str(rows[0]["created"]) if rows else None), runs
