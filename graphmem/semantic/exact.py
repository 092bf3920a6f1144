"""Exact passage seeds for HippoRAG 2's formula on GDS 2.13 (the ``paper`` preset).

Every passage is a seed with its own weight, and GDS 2.13 takes unweighted source nodes.
PageRank is linear in the restart vector, so the passages' part of the query's PageRank is
``sum_p w_p * PPR(e_p)``: the single-source PageRank of every passage, restricted to the
passages (the only nodes ranked), is computed once per projection (one statement, one run
per passage) and each query combines it with its weights in memory. The entity seeds,
a handful per query, are still run per query; the two parts add up (linearity again).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphmem.semantic.settings import SemanticSettings
from graphmem.semantic.snapshot import SpaceSnapshot
from graphmem.store import GraphStore


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
        index = {node: i for i, node in enumerate(nodes)}
        matrix = np.zeros((len(nodes), len(nodes)), dtype=np.float64)
        rows = store.read(
            "semantic.ppr_by_source",
            graph=graph,
            sources=nodes,
            targets=nodes,
            damping=config.damping,
            iterations=config.max_iterations,
            tolerance=config.tolerance,
            concurrency=config.ppr_concurrency,
        )
        for row in rows:
            source = index[int(row["source"])]
            for node, score in row["scores"]:
                matrix[source, index[int(node)]] = float(score)
        created = rows[0]["created"] if rows else snapshot.created
        return cls(created, nodes, matrix)

    def combine(self, weights: list[tuple[int, float]]) -> dict[int, float]:
        """The PageRank, over the passages, of the weighted passage restart vector."""
        index = {node: i for i, node in enumerate(self.nodes)}
        vector = np.zeros(len(self.nodes), dtype=np.float64)
        for node, weight in weights:
            if node in index:
                vector[index[node]] = weight
        scores = vector @ self.matrix
        return {node: float(scores[i]) for i, node in enumerate(self.nodes) if scores[i] > 0}
